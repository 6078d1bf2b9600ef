"""Which held-out sets in ``tests/data`` have not had their first run yet (``tests/data/unrun_sets.txt``).

A set counts as held out only if nothing was fitted or tuned after seeing it, so the bench scripts that pick
up ``tests/data`` by glob (mode and task accuracy, the fallback trainer, the timing texts and with them the
refactor digest) leave these out unless a set is named with ``--data``: its one first run is a deliberate act.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def unrun() -> set[str]:
    """Stems listed in ``unrun_sets.txt`` (``#`` starts a comment)."""
    path = DATA / "unrun_sets.txt"
    lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    return {line.split("#")[0].strip() for line in lines} - {""}


def held_out(paths: list[Path]) -> list[Path]:
    """``paths`` without the sets that have not had their first run."""
    skip = unrun()
    return [p for p in paths if p.stem not in skip]
