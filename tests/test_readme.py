"""README's commands are the ones CI runs, so the README stays true."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _block_after(heading: str, text: str) -> list[str]:
    section = text.split(f"## {heading}\n", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block, heading
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_install_and_test_commands_are_what_ci_runs() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = [line.strip() for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    (install,) = _block_after("Install", readme)
    (test,) = _block_after("Test", readme)
    assert install in ci
    assert test in ci
    assert ci.index(install) < ci.index(test)


def test_local_model_install_lines_are_what_ci_runs() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = [line.strip() for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    for line in _block_after("Local models", readme):
        assert line in ci, line
