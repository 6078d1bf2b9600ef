"""The text ReAct protocol: tool use for models (or servers) without function calling.

Tools are described in the system prompt; the model writes ``Action:`` /
``Action Input:`` or ``Final Answer:``; results come back as ``Observation:``.
Small local models are sloppy, so the parser forgives code fences, markdown
bold, single quotes, a bare value for a one-parameter tool, a missing
``Action Input`` and text the model invents after its action, but it never
turns unreadable arguments into ``{}``.

Replies are untrusted text (a small local model may emit thousands of blank
lines after an unclosed code fence), so every pattern here is linear: no two
adjacent quantifiers can match the same characters, and fences are stripped by
plain string operations. Markers are looked for in the first
``MAX_PARSE_CHARS`` characters only, and an ``Action Input`` longer than
``MAX_INPUT_CHARS`` is refused unread; a final answer is never cut.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from router.lazyre import LazyPattern
from router.tools.registry import ToolRegistry

REACT_INSTRUCTIONS = """You can use tools. To use one, reply in exactly this format and then stop:

Thought: <why you need the tool>
Action: <the tool name, one of: {names}>
Action Input: <the arguments as ONE JSON object, e.g. {example}>

The result comes back in a message that starts with "Observation:". Use one Action per reply and never
write an Observation yourself. When you can answer, reply:

Thought: <short reasoning>
Final Answer: <the answer for the user>

Available tools:
{tools}"""

OBSERVATION_PREFIX = "Observation: "

MAX_PARSE_CHARS = 32_000
"""Markers (``Action:``, ``Final Answer:`` ...) are looked for in this much of a reply (~8k tokens)."""
MAX_INPUT_CHARS = 16_000
"""An ``Action Input`` longer than this is refused with an error instead of being parsed."""

FINAL_NOW = (
    "Do not use any more tools. Reply now with 'Final Answer:' followed by your best answer from the "
    "observations so far."
)

_MARKER = LazyPattern(
    r"^[ \t>#*_`]*(thought|action[ \t]*input|action|final[ \t]*answer|observation)[ \t*_`]*[:：](?:[ \t]*(?:\*\*|__))?[ \t]*",
    re.IGNORECASE | re.MULTILINE,
)
_LANGUAGE_TAG = LazyPattern(r"[\w+.-]{0,30}")
_NAME = LazyPattern(r"[A-Za-z_][\w.-]*")


@dataclass(frozen=True)
class ReactAction:
    """The model asked for a tool. ``error`` set means the input could not be read (do not run)."""

    name: str
    raw_input: str
    arguments: dict[str, Any] | None
    error: str | None
    transcript: str  # the reply up to the end of its Action Input: what goes into history


@dataclass(frozen=True)
class ReactFinal:
    answer: str


@dataclass(frozen=True)
class ReactText:
    """No markers at all: the model simply answered (treated as the final answer)."""

    text: str


ReactStep = ReactAction | ReactFinal | ReactText


def build_instructions(registry: ToolRegistry) -> str:
    blocks = []
    for item in registry:
        parameters = item.schema["function"]["parameters"]
        blocks.append(
            f"- {item.name}: {item.description}\n  arguments (JSON schema): {json.dumps(parameters, ensure_ascii=False)}"
        )
    first = next(iter(registry), None)
    example = json.dumps({p: "..." for p in first.required} if first else {}, ensure_ascii=False)
    return REACT_INSTRUCTIONS.format(names=", ".join(registry.names()), example=example, tools="\n".join(blocks))


def with_instructions(messages: Sequence[Mapping[str, Any]], registry: ToolRegistry) -> list[dict[str, Any]]:
    """A new history whose system prompt also carries the ReAct instructions (input untouched)."""
    history = [dict(message) for message in messages]
    instructions = build_instructions(registry)
    if history and history[0].get("role") == "system":
        history[0]["content"] = f"{history[0].get('content') or ''}\n\n{instructions}".strip()
    else:
        history.insert(0, {"role": "system", "content": instructions})
    return history


def observation_message(content: str) -> dict[str, Any]:
    return {"role": "user", "content": OBSERVATION_PREFIX + content}


def _fenced(text: str) -> str | None:
    """The inside of a text that is one code block (```lang\\n...\\n```), else None. Linear."""
    text = text.strip()
    if len(text) < 6 or not text.startswith("```") or not text.endswith("```"):
        return None
    inner = text[3:-3]
    first_line, newline, rest = inner.partition("\n")
    tag = _LANGUAGE_TAG.fullmatch(first_line.strip())
    if newline and tag is not None:  # a language tag only counts when the code starts on the next line
        inner = rest
    return inner.strip()


def _unfence(text: str) -> str:
    inner = _fenced(text)
    return inner if inner is not None else text.strip().strip("`").strip()


def _balanced_object(text: str) -> str | None:
    start = text.find("{")
    if start < 0:
        return None
    depth, quote, escaped = 0, "", False
    for index in range(start, len(text)):
        char = text[index]
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[start : index + 1]
    return None


def _literal(text: str) -> Any:
    """JSON first, then Python literal syntax (single quotes, True/None); raises ValueError."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: "[[[[..." thousands deep
        pass
    pythonish = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", re.sub(r"\bnull\b", "None", text)))
    try:
        return ast.literal_eval(pythonish)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as exc:
        raise ValueError(str(exc)) from None


_PAIR = LazyPattern(r"""\s*(\w+)\s*[=:]\s*("[^"]*"|'[^']*'|[^,\n]*)\s*(?:,|\n|$)""")


def _named_values(text: str, parameters: Sequence[str]) -> dict[str, Any] | None:
    """``city=北京, days=2`` / ``city: 北京``, only when every key is a real parameter."""
    if not parameters:
        return None
    values: dict[str, Any] = {}
    position = 0
    while position < len(text):
        match = _PAIR.match(text, position)
        if match is None or match.group(1) not in parameters or match.end() == position:
            return None
        raw = match.group(2).strip()
        try:
            values[match.group(1)] = _literal(raw)
        except ValueError:
            values[match.group(1)] = raw.strip("\"'")
        position = match.end()
    return values or None


def parse_action_input(raw: str, parameters: Sequence[str] = ()) -> tuple[dict[str, Any] | None, str | None]:
    """``(arguments, None)`` or ``(None, error)``.

    A bare value (``北京`` or ``"北京"``) is accepted only for a tool with exactly one
    parameter; anything that looks like an object but does not parse is an error.
    """
    if len(raw) > MAX_INPUT_CHARS:
        return None, f"Action Input is too long ({len(raw)} characters; max {MAX_INPUT_CHARS})"
    text = _unfence(raw)
    if not text:
        return {}, None
    if "{" in text:
        candidate = _balanced_object(text) or text
        try:
            value = _literal(candidate)
        except ValueError as exc:
            return None, f"Action Input is not valid JSON ({exc}); send one JSON object"
        if isinstance(value, dict) and all(isinstance(key, str) for key in value):
            return value, None
        return None, f"Action Input must be a JSON object, got {type(value).__name__}"
    pairs = _named_values(text, parameters)
    if pairs is not None:
        return pairs, None
    try:
        value = _literal(text)
    except ValueError:
        value = text.strip().strip("\"'")
    if isinstance(value, dict):
        return value, None
    if len(parameters) == 1 and isinstance(value, str | int | float | bool):
        return {parameters[0]: value}, None
    return None, f"Action Input must be a JSON object like {{\"name\": value}}, got {text[:80]!r}"


def _sections(text: str) -> list[tuple[str, int, int]]:
    """(marker, start of its text, end of its text) for every marker line in the first MAX_PARSE_CHARS, in order."""
    head = text[:MAX_PARSE_CHARS]
    found = [(m.group(1).lower().replace(" ", "").replace("\t", ""), m.start(), m.end()) for m in _MARKER.finditer(head)]
    sections = []
    for position, (kind, _start, body_start) in enumerate(found):
        body_end = found[position + 1][1] if position + 1 < len(found) else len(text)
        sections.append((kind, body_start, body_end))
    return sections


def parse_react(text: str, parameters: Mapping[str, Sequence[str]] | None = None) -> ReactStep:
    """Read one model reply; the first ``Action`` or ``Final Answer`` decides what it is.

    ``parameters`` maps tool names to their parameter names (for bare-value inputs).
    """
    text = text or ""
    sections = _sections(text)
    for position, (kind, body_start, body_end) in enumerate(sections):
        if kind == "finalanswer":
            body = text[body_start:body_end].strip()
            fenced = _fenced(body)
            return ReactFinal(fenced if fenced is not None else body)
        if kind != "action":
            continue
        line = text[body_start:body_end].strip().splitlines()[0] if text[body_start:body_end].strip() else ""
        line = line.strip().strip("`*\"'").strip()
        match = _NAME.match(line)
        name = match.group(0).rstrip(".") if match else line
        raw_input, transcript_end = "", body_end
        following = sections[position + 1] if position + 1 < len(sections) else None
        if following is not None and following[0] == "actioninput":
            raw_input, transcript_end = text[following[1] : following[2]], following[2]
        elif "(" in line and line.endswith(")"):
            raw_input = line[line.index("(") + 1 : -1]
        params = list((parameters or {}).get(name, ()))
        arguments, error = parse_action_input(raw_input, params)
        return ReactAction(name, raw_input.strip(), arguments, error, text[:transcript_end].rstrip())
    stripped = re.sub(r"^[ \t]*thought[ \t]*[:：].*$", "", text, flags=re.IGNORECASE | re.MULTILINE).strip()
    return ReactText(stripped or text.strip())


def answer_text(text: str) -> str:
    """The user-facing answer in a reply: after ``Final Answer:`` if present, else the reply without Thoughts."""
    step = parse_react(text)
    if isinstance(step, ReactFinal):
        return step.answer
    if isinstance(step, ReactText):
        return step.text
    return ""


__all__ = [
    "FINAL_NOW",
    "MAX_INPUT_CHARS",
    "MAX_PARSE_CHARS",
    "OBSERVATION_PREFIX",
    "REACT_INSTRUCTIONS",
    "ReactAction",
    "ReactFinal",
    "ReactStep",
    "ReactText",
    "answer_text",
    "build_instructions",
    "observation_message",
    "parse_action_input",
    "parse_react",
    "with_instructions",
]
