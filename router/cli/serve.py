"""``python -m router serve``: the server's own command line (``router.server.cli``)."""

from __future__ import annotations

from typing import TextIO


def main(argv: list[str], *, stdout: TextIO, stderr: TextIO) -> int:
    from router.server.cli import main as serve

    return int(serve(argv, stderr=stderr))


__all__ = ["main"]
