"""Which MCP tools one question is offered: the most relevant, within a count and a size bound.

A server with 200 tools would put ~60 KB of schemas into every request (and models
choose worse among that many). When the allowlisted tools exceed
``mcp.max_tools_per_request`` or ``mcp.max_schema_chars``, each tool is scored
against the question with BM25 over its name (counted twice), description and
parameter names and descriptions; the best ones are offered, in the server's
order, and the rest are named in the answer's warnings. Local, deterministic and
cheap (no model call): ~1 ms for 200 tools. Words are matched after folding case
and a light English stemming; Chinese and Japanese text is matched by character
pairs. ``bench/mcp_tool_choice.py`` measures how often the needed tool is offered.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from router.tools.registry import Tool

_WORD = re.compile(r"[a-z0-9]+|[\u3040-\u30ff\u3400-\u9fff]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_STOP = frozenset(
    "a an and are as at be by can do does for from get give has have how i in is it me my of on or please show "
    "tell that the this to use using what when where which who why will with you your".split()
)
_K1, _B = 1.2, 0.75


def _stem(word: str) -> str:
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


_GROUPS = (
    "create add make new save store write record remember insert put",
    "read get show open view print display retrieve load pull dump see",
    "list enumerate inside content",
    "update edit change modify replace set fix",
    "delete remove drop forget erase clear",
    "search find query locate grep lookup",
    "directory folder dir",
    "file document",
    "move rename relocate",
    "fetch download url page website web link http",
    "time clock hour",
    "convert translate",
)
_SYNONYMS: dict[str, frozenset[str]] = {}
for _group in _GROUPS:
    _stems = frozenset(_stem(w) for w in _group.split())
    for _word in _stems:
        _SYNONYMS[_word] = _SYNONYMS.get(_word, frozenset()) | _stems
"""General tool vocabulary (verbs of create/read/list/update/delete/search and a few nouns): a question
says "save" or "folder" where a tool says "write" or "directory". Query words are widened to their group
at half weight."""


def terms(text: str) -> list[str]:
    """Search terms of a text: stemmed lower-case words, CJK runs as character pairs."""
    out: list[str] = []
    for token in _WORD.findall(_CAMEL.sub(" ", text).replace("_", " ").lower()):
        if token[0] >= "\u3040":
            out.extend(token[i : i + 2] for i in range(max(1, len(token) - 1)))
        elif token not in _STOP:
            out.append(_stem(token))
    return out


def _document(tool: Tool) -> list[str]:
    cached = getattr(tool, "_choice_terms", None)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    function = tool._schema["function"] if hasattr(tool, "_schema") else tool.schema["function"]
    name = getattr(tool, "server_tool", None) or function["name"]
    words = terms(name) * 2 + terms(function.get("description") or "")
    for pname, prop in (function.get("parameters", {}).get("properties") or {}).items():
        words += terms(pname)
        if isinstance(prop, dict) and isinstance(prop.get("description"), str):
            words += terms(prop["description"])
    try:
        tool._choice_terms = words  # type: ignore[attr-defined]  # a tool's schema does not change: compute once
    except AttributeError:
        pass
    return words


def _counts(tool: Tool) -> tuple[Counter[str], int]:
    cached = getattr(tool, "_choice_counts", None)
    if cached is None:
        words = _document(tool)
        cached = (Counter(words), len(words) or 1)
        try:
            tool._choice_counts = cached  # type: ignore[attr-defined]
        except AttributeError:
            pass
    return cached  # type: ignore[no-any-return]


def schema_chars(tool: Tool) -> int:
    cached = getattr(tool, "_choice_chars", None)
    if cached is None:
        cached = len(json.dumps(tool._schema if hasattr(tool, "_schema") else tool.schema, ensure_ascii=False))
        try:
            tool._choice_chars = cached  # type: ignore[attr-defined]
        except AttributeError:
            pass
    return int(cached)


@dataclass(frozen=True)
class ToolChoice:
    offered: tuple[Any, ...]
    left_out: tuple[Any, ...]
    scores: dict[str, float]

    def note(self, max_tools: int) -> str | None:
        """One line for the answer's warnings naming what was not offered, or None when everything was."""
        if not self.left_out:
            return None
        shown = ", ".join(t.name for t in self.left_out[:8]) + (", ..." if len(self.left_out) > 8 else "")
        return (
            f"MCP tools: offered the {len(self.offered)} of {len(self.offered) + len(self.left_out)} most relevant to the "
            f"question (mcp.max_tools_per_request {max_tools}, mcp.max_schema_chars); not offered: {shown}"
        )


def choose_tools(query: str, tools: Sequence[Tool], *, max_tools: int, max_chars: int) -> ToolChoice:
    """The tools to offer for ``query``; all of them when they fit both bounds."""
    sizes = [schema_chars(t) for t in tools]
    if len(tools) <= max_tools and sum(sizes) <= max_chars:
        return ToolChoice(tuple(tools), (), {})
    docs = [_counts(t) for t in tools]
    average = sum(length for _, length in docs) / max(1, len(docs))
    wanted: dict[str, float] = {}
    for term in terms(query):
        for near in _SYNONYMS.get(term, (term,)):
            wanted[near] = wanted.get(near, 0.0) + (1.0 if near == term else 0.5)
    idf = {}
    for term in wanted:
        having = sum(1 for counts, _ in docs if term in counts)
        idf[term] = math.log(1 + (len(docs) - having + 0.5) / (having + 0.5))
    scores: list[float] = []
    for counts, length in docs:
        score = 0.0
        for term, times in wanted.items():
            tf = counts.get(term, 0)
            if tf:
                score += times * idf[term] * tf * (_K1 + 1) / (tf + _K1 * (1 - _B + _B * length / average))
        scores.append(score)
    ranked = sorted(range(len(tools)), key=lambda i: (-scores[i], i))
    chosen: set[int] = set()
    used = 0
    for i in ranked:
        if len(chosen) >= max_tools:
            break
        if used + sizes[i] > max_chars:
            continue
        chosen.add(i)
        used += sizes[i]
    offered = tuple(t for i, t in enumerate(tools) if i in chosen)
    left = tuple(tools[i] for i in ranked if i not in chosen)
    return ToolChoice(offered, left, {tools[i].name: round(scores[i], 3) for i in range(len(tools))})


__all__ = ["ToolChoice", "choose_tools", "schema_chars", "terms"]
