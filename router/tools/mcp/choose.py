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
    function = tool.schema["function"]
    name = getattr(tool, "server_tool", None) or function["name"]
    words = terms(name) * 2 + terms(function.get("description") or "")
    for pname, prop in (function.get("parameters", {}).get("properties") or {}).items():
        words += terms(pname)
        if isinstance(prop, dict) and isinstance(prop.get("description"), str):
            words += terms(prop["description"])
    return words


def schema_chars(tool: Tool) -> int:
    return len(json.dumps(tool.schema, ensure_ascii=False))


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
    docs = [_document(t) for t in tools]
    average = sum(len(d) for d in docs) / max(1, len(docs))
    frequency: Counter[str] = Counter()
    for doc in docs:
        frequency.update(set(doc))
    wanted = Counter(terms(query))
    scores: list[float] = []
    for doc in docs:
        counts, length, score = Counter(doc), len(doc) or 1, 0.0
        for term, times in wanted.items():
            tf = counts.get(term, 0)
            if tf:
                idf = math.log(1 + (len(docs) - frequency[term] + 0.5) / (frequency[term] + 0.5))
                score += times * idf * tf * (_K1 + 1) / (tf + _K1 * (1 - _B + _B * length / average))
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
