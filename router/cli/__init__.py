"""``python -m router``: a question (``ask``), the REPL (``repl``), or a subcommand (``commands``).

The first word picks: a subcommand word (``serve``, ``models``, ``check``,
``completion``, ...) runs that command with the rest of the arguments; anything
else is the question path. A subcommand is a module with ``main(argv, *, stdout,
stderr)`` plus one line in ``router.cli.commands.SUBCOMMANDS``.
"""

from __future__ import annotations

import sys
from typing import TextIO

from router.cli.commands import SUBCOMMANDS


def main(argv: list[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    out, err, inp = stdout or sys.stdout, stderr or sys.stderr, stdin or sys.stdin
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in SUBCOMMANDS:  # each command has its own options; the question parser never sees them
        from router.cli.commands import load

        return int(load(argv[0])(argv[1:], stdout=out, stderr=err))
    from router.cli.ask import main as ask

    return ask(argv, stdin=inp, stdout=out, stderr=err)


__all__ = ["main"]
