"""Tool calls that a server without a tool parser leaves as text in ``content``.

Serving a tool-trained model without its tool parser (vLLM without
``--tool-call-parser``, llama.cpp without ``--jinja``, a raw completion endpoint)
returns the model's call syntax as ordinary text. We recover the common shapes:

- ``hermes``: ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` (Hermes, Qwen),
  one or several; the closing tag may be missing at the very end. A lead-in line is allowed
  because the tag is unambiguous.
- ``mistral``: ``[TOOL_CALLS][{"name": ..., "arguments": {...}}, ...]`` and the newer
  ``[TOOL_CALLS]name[ARGS]{...}`` (optionally ``[CALL_ID]id`` before ``[ARGS]``); a lead-in is
  allowed as for hermes.
- ``json``: one ``{"name": ..., "arguments"|"parameters": {...}}`` object, or a list of them,
  that is the WHOLE content (Llama 3.x style, optionally after ``<|python_tag|>``).
- ``fenced_json``: the same inside one fenced block that is the whole content.
- ``python``: ``calculator(expression="1+1")`` or ``[f(a=1), g(b="x")]`` (Llama 3.2 "pythonic",
  Gemma's ``tool_code`` fence), parsed with :mod:`ast`; only literal values, nothing is evaluated.

False positives are worse than misses: a wrongly recovered call runs a tool and hides the
answer, a missed one only leaves the text as the answer. So the untagged formats must be the
whole content (surrounding whitespace only): a fenced block after a lead-in line such as
"Here is an example:" is an explanation, not a call, and is NOT recovered. Every name must be
a registered tool and every ``arguments`` a JSON object, or nothing is recovered at all.

Work is linear in the input: content longer than :data:`MAX_EXAMINED_CHARS` is not examined,
scanning uses ``str.find`` and ``json.JSONDecoder.raw_decode``, and there are no regexes.
"""

from __future__ import annotations

import ast
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_EXAMINED_CHARS = 64 * 1024
MAX_CALLS = 64  # more calls than this in one reply is not a tool turn we want to run blindly

HERMES_OPEN = "<tool_call>"
HERMES_CLOSE = "</tool_call>"
MISTRAL_TOKEN = "[TOOL_CALLS]"
MISTRAL_ARGS = "[ARGS]"
MISTRAL_CALL_ID = "[CALL_ID]"
PYTHON_TAG = "<|python_tag|>"
END_TOKENS = ("</s>", "<|eom_id|>", "<|eot_id|>", "<|im_end|>")

_FENCE_LANGUAGES = frozenset({"", "json", "tool_call", "tool_calls", "python", "py", "tool_code"})
_ARGUMENT_KEYS = ("arguments", "parameters")
_JSON_CALL_KEYS = frozenset({"name", "arguments", "parameters", "type", "id"})


@dataclass(frozen=True)
class TextToolCall:
    """One recovered call; ``arguments`` is ``json.dumps(args, ensure_ascii=False)`` of an object."""

    name: str
    arguments: str


@dataclass(frozen=True)
class RecoveredCalls:
    """The calls found in a reply, which format they were written in, and the text around them."""

    calls: tuple[TextToolCall, ...]
    format: str
    text: str  # what is left of the content (a lead-in line before tagged calls), stripped


class _NotACall(Exception):
    """Internal: this content is not (entirely) tool calls in the format tried."""


def _reject_constant(value: str) -> Any:
    raise _NotACall(f"non-finite number {value}")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def _decode_at(text: str, index: int) -> tuple[Any, int]:
    try:
        return _DECODER.raw_decode(text, index)
    except (ValueError, RecursionError) as exc:
        raise _NotACall(str(exc)) from None


def _skip_space(text: str, index: int) -> int:
    end = len(text)
    while index < end and text[index].isspace():
        index += 1
    return index


def _strip_end_tokens(text: str) -> str:
    """Trailing special tokens and whitespace, removed by moving one index (no repeated copies)."""
    end = len(text.rstrip())
    stripped = True
    while stripped:
        stripped = False
        for token in END_TOKENS:
            if text.endswith(token, 0, end):
                end -= len(token)
                while end and text[end - 1].isspace():
                    end -= 1
                stripped = True
    return text[:end].strip()


def _canonical(arguments: Any) -> str:
    if isinstance(arguments, str):  # OpenAI style: the object encoded as a string
        arguments = _decode_whole(arguments.strip())
    if not isinstance(arguments, dict) or not all(isinstance(key, str) for key in arguments):
        raise _NotACall("arguments are not a JSON object")
    try:
        return json.dumps(arguments, ensure_ascii=False, allow_nan=False)
    except (ValueError, TypeError, RecursionError) as exc:
        raise _NotACall(str(exc)) from None


def _decode_whole(text: str) -> Any:
    value, end = _decode_at(text, 0)
    if _skip_space(text, end) != len(text):
        raise _NotACall("text after the JSON value")
    return value


def _call(name: Any, arguments: Any, tools: Mapping[str, Any]) -> TextToolCall:
    if not isinstance(name, str) or name not in tools:
        raise _NotACall(f"{name!r} is not a registered tool")
    return TextToolCall(name=name, arguments=_canonical(arguments))


def _call_from_object(value: Any, tools: Mapping[str, Any], *, tagged: bool) -> TextToolCall:
    """``{"name": ..., "arguments"|"parameters": {...}}``.

    Untagged content must look exactly like a call (no other keys, arguments present), so a
    JSON answer that happens to have a ``name`` key is never taken for one.
    """
    if not isinstance(value, dict):
        raise _NotACall("not an object")
    present = [key for key in _ARGUMENT_KEYS if key in value]
    if len(present) > 1:
        raise _NotACall("both arguments and parameters")
    if not tagged:
        if not present or not set(value) <= _JSON_CALL_KEYS:
            raise _NotACall("not exactly a call object")
        if "type" in value and value["type"] != "function":
            raise _NotACall("type is not function")
    arguments = value[present[0]] if present else {}
    return _call(value.get("name"), arguments, tools)


def _calls_from_json(value: Any, tools: Mapping[str, Any], *, tagged: bool) -> list[TextToolCall]:
    items = value if isinstance(value, list) else [value]
    if not items or len(items) > MAX_CALLS:
        raise _NotACall("no calls or too many")
    return [_call_from_object(item, tools, tagged=tagged) for item in items]


# --- tagged formats ------------------------------------------------------------------------------


def _hermes(content: str, tools: Mapping[str, Any]) -> RecoveredCalls:
    start = content.find(HERMES_OPEN)
    lead = content[:start]
    calls: list[TextToolCall] = []
    index = start
    while index < len(content):
        if not content.startswith(HERMES_OPEN, index):
            raise _NotACall("text between or after <tool_call> blocks")
        value, index = _decode_at(content, _skip_space(content, index + len(HERMES_OPEN)))
        if isinstance(value, list):  # some templates put a list inside one tag
            calls.extend(_calls_from_json(value, tools, tagged=True))
        else:
            calls.append(_call_from_object(value, tools, tagged=True))
        index = _skip_space(content, index)
        if content.startswith(HERMES_CLOSE, index):
            index = _skip_space(content, index + len(HERMES_CLOSE))
        elif index < len(content):
            raise _NotACall("unclosed <tool_call> before more text")
        if len(calls) > MAX_CALLS:
            raise _NotACall("too many calls")
    return RecoveredCalls(tuple(calls), "hermes", lead.strip())


def _mistral(content: str, tools: Mapping[str, Any]) -> RecoveredCalls:
    start = content.find(MISTRAL_TOKEN)
    lead = content[:start]
    calls: list[TextToolCall] = []
    index = start
    while index < len(content):
        if not content.startswith(MISTRAL_TOKEN, index):
            raise _NotACall("text after the tool calls")
        index = _skip_space(content, index + len(MISTRAL_TOKEN))
        if content.startswith("[", index) or content.startswith("{", index):
            value, index = _decode_at(content, index)
            calls.extend(_calls_from_json(value, tools, tagged=True))
        else:  # name[ARGS]{...} or name[CALL_ID]id[ARGS]{...}
            marker = content.find(MISTRAL_ARGS, index)
            if marker < 0:
                raise _NotACall("[TOOL_CALLS] without [ARGS]")
            head = content[index:marker]
            name = head.split(MISTRAL_CALL_ID, 1)[0].strip()
            value, index = _decode_at(content, _skip_space(content, marker + len(MISTRAL_ARGS)))
            calls.append(_call(name, value, tools))
        index = _skip_space(content, index)
        if len(calls) > MAX_CALLS:
            raise _NotACall("too many calls")
    if not calls:
        raise _NotACall("no calls")
    return RecoveredCalls(tuple(calls), "mistral", lead.strip())


# --- whole-content formats -----------------------------------------------------------------------


def _fence_body(content: str) -> tuple[str, str] | None:
    """(language, body) when the whole content is exactly one fenced block."""
    if not (content.startswith("```") and content.endswith("```") and len(content) >= 6):
        return None
    newline = content.find("\n")
    if newline < 0:
        return None
    language = content[3:newline].strip().lower()
    body = content[newline + 1 : -3]
    if language not in _FENCE_LANGUAGES:
        return None
    # A body holding more fences (several blocks with prose between) fails the strict parse that follows,
    # so a fence inside a JSON string value is allowed.
    return language, body.strip()


_PY_NAMES = {"true": True, "false": False, "null": None, "none": None}


def _py_literal(node: ast.AST, depth: int = 0) -> Any:
    """Literal values only (JSON's true/false/null accepted too); nothing is evaluated."""
    if depth > 64:
        raise _NotACall("nested too deeply")
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, str | int | float | bool)):
        if isinstance(node.value, float) and not math.isfinite(node.value):
            raise _NotACall("non-finite number")
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _py_literal(node.operand, depth + 1)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _NotACall("sign on a non-number")
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.List | ast.Tuple):
        return [_py_literal(item, depth + 1) for item in node.elts]
    if isinstance(node, ast.Dict):
        result: dict[str, Any] = {}
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:
                raise _NotACall("** in a dict")
            name = _py_literal(key, depth + 1)
            if not isinstance(name, str):
                raise _NotACall("dict key is not a string")
            result[name] = _py_literal(value, depth + 1)
        return result
    if isinstance(node, ast.Name) and node.id.lower() in _PY_NAMES:
        return _PY_NAMES[node.id.lower()]
    raise _NotACall(f"not a literal: {type(node).__name__}")


def _dotted_name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted_name(node.value)}.{node.attr}"
    raise _NotACall("callee is not a (dotted) name")


def _python_call(node: ast.AST, tools: Mapping[str, Any]) -> TextToolCall:
    if not isinstance(node, ast.Call):
        raise _NotACall("not a call")
    name = _dotted_name(node.func)
    if name not in tools:
        raise _NotACall(f"{name!r} is not a registered tool")
    arguments: dict[str, Any] = {}
    if node.args:  # positional values fill the schema's parameters in their declared order
        schema = tools[name]
        properties = list(schema.get("properties", {})) if isinstance(schema, Mapping) else []
        if len(node.args) > len(properties):
            raise _NotACall("more positional values than parameters")
        for parameter, value in zip(properties, node.args, strict=False):
            if isinstance(value, ast.Starred):
                raise _NotACall("*args")
            arguments[parameter] = _py_literal(value)
    for keyword in node.keywords:
        if keyword.arg is None or keyword.arg in arguments:
            raise _NotACall("**kwargs or a repeated argument")
        arguments[keyword.arg] = _py_literal(keyword.value)
    return _call(name, arguments, tools)


def _python(content: str, tools: Mapping[str, Any]) -> list[TextToolCall]:
    """One call, a list of calls, or one call per line; nothing else may be in the content."""
    if not content or not (content[0].isidentifier() or content[0] == "[") or content[-1] not in ")]":
        raise _NotACall("does not look like a call")
    try:
        module = ast.parse(content, mode="exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise _NotACall(str(exc)) from None
    nodes: list[ast.AST] = []
    for statement in module.body:
        if not isinstance(statement, ast.Expr):
            raise _NotACall("not an expression")
        value = statement.value
        nodes.extend(value.elts if isinstance(value, ast.List | ast.Tuple) else [value])
    if not nodes or len(nodes) > MAX_CALLS:
        raise _NotACall("no calls or too many")
    return [_python_call(node, tools) for node in nodes]


def _whole(content: str, tools: Mapping[str, Any]) -> tuple[list[TextToolCall], str] | None:
    if content.startswith(PYTHON_TAG):
        content = content[len(PYTHON_TAG) :].strip()
    fenced = _fence_body(content)
    if fenced is not None:
        language, body = fenced
        if body[:1] in "{[" and language not in {"python", "py", "tool_code"}:
            try:
                return _calls_from_json(_decode_whole(body), tools, tagged=False), "fenced_json"
            except _NotACall:
                if body[:1] == "{":
                    return None
        if language not in {"json"}:
            return _python(body, tools), "python"
        return None
    if content[:1] in "{[":
        try:
            return _calls_from_json(_decode_whole(content), tools, tagged=False), "json"
        except _NotACall:
            if content[:1] == "{":
                return None
    return _python(content, tools), "python"


def recover_tool_calls(content: str | None, tools: Mapping[str, Any]) -> RecoveredCalls | None:
    """The tool calls written as text in ``content``, or None if it is an ordinary answer.

    ``tools`` maps each registered tool name to its JSON parameter schema (used to place
    positional Python arguments). Nothing is recovered unless every call names one of them.
    """
    if not content or not tools or len(content) > MAX_EXAMINED_CHARS:
        return None
    text = _strip_end_tokens(content)
    try:
        if HERMES_OPEN in text:
            return _hermes(text, tools)
        if MISTRAL_TOKEN in text:
            return _mistral(text, tools)
        found = _whole(text, tools)
    except _NotACall:
        return None
    if found is None:
        return None
    calls, kind = found
    return RecoveredCalls(tuple(calls), kind, "")
