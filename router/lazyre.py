"""Regular expressions compiled on first use, and not at all for ASCII text they cannot match.

A character class of large Unicode ranges (``[\\u3400-\\u9fff]``) costs 2-5 ms to compile,
because ``re`` fills a 64K-entry map one code point at a time in Python; a handful of them
at module level was a visible share of the CLI's start-up. Most questions are ASCII, and
such a pattern cannot match ASCII text, so ``LazyPattern(source, ascii="")`` answers
"no match" for ASCII text without compiling anything, and compiles the real pattern the
first time non-ASCII text arrives. ``ascii=`` may instead give a pattern that is
equivalent on ASCII text (``[a-z]+`` for ``[a-z]+|[\\u3400-\\u9fff]``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any


class LazyPattern:
    """The part of ``re.Pattern`` that router uses, compiled on first use."""

    __slots__ = ("_ascii", "_ascii_source", "_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0, *, ascii: str | None = None) -> None:
        self.pattern = pattern
        self.flags = flags
        self._ascii_source = ascii
        self._compiled: re.Pattern[str] | None = None
        self._ascii: re.Pattern[str] | None = None

    def _for(self, text: str) -> re.Pattern[str] | None:
        """The compiled pattern to run on ``text``; None when it cannot match (ASCII text, ``ascii=""``)."""
        if self._ascii_source is not None and text.isascii():
            if not self._ascii_source:
                return None
            if self._ascii is None:
                self._ascii = re.compile(self._ascii_source, self.flags)
            return self._ascii
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, string: str, *args: int) -> re.Match[str] | None:
        compiled = self._for(string)
        return compiled.search(string, *args) if compiled is not None else None

    def match(self, string: str, *args: int) -> re.Match[str] | None:
        compiled = self._for(string)
        return compiled.match(string, *args) if compiled is not None else None

    def fullmatch(self, string: str, *args: int) -> re.Match[str] | None:
        compiled = self._for(string)
        return compiled.fullmatch(string, *args) if compiled is not None else None

    def findall(self, string: str, *args: int) -> list[Any]:
        compiled = self._for(string)
        return compiled.findall(string, *args) if compiled is not None else []

    def finditer(self, string: str, *args: int) -> Iterator[re.Match[str]]:
        compiled = self._for(string)
        return compiled.finditer(string, *args) if compiled is not None else iter(())

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        compiled = self._for(string)
        return compiled.sub(repl, string, count) if compiled is not None else string

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r})"


__all__ = ["LazyPattern"]
