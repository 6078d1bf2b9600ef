"""The message-chain rules of function calling, checked before every request.

Providers answer a broken chain with an opaque 400 ("insufficient tool messages
following tool_calls message"); checking locally first names the exact message
at fault, and ``format_chain`` shows the history in a form a human can scan.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

VALID_ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})


def _describe(index: int, message: Any) -> str:
    role = message.get("role") if isinstance(message, Mapping) else None
    return f"message {index} ({role or '?'})"


def _check_tool_calls(index: int, calls: Any, problems: list[str]) -> list[str]:
    """The call ids of one assistant message, after checking each call's shape.

    Ids must be unique within the message (its tool messages are told apart by them);
    across turns they may repeat: Kimi numbers calls per turn (``functions.add:0``
    every turn), and the chain pairs each turn's results with its calls by position.
    """
    where = f"message {index} (assistant)"
    if not isinstance(calls, list):
        problems.append(f"{where}: tool_calls must be a list")
        return []
    ids: list[str] = []
    seen_ids: set[str] = set()
    for position, call in enumerate(calls):
        label = f"{where} tool_calls[{position}]"
        if not isinstance(call, Mapping):
            problems.append(f"{label}: must be an object")
            continue
        call_id = call.get("id")
        if not isinstance(call_id, str) or not call_id:
            problems.append(f"{label}: missing id")
            continue
        if call_id in seen_ids:
            problems.append(f"{label}: duplicate tool call id {call_id!r} within one assistant message")
        seen_ids.add(call_id)
        ids.append(call_id)
        if call.get("type", "function") != "function":
            problems.append(f"{label}: type must be 'function'")
        function = call.get("function")
        if not isinstance(function, Mapping) or not isinstance(function.get("name"), str) or not function["name"]:
            problems.append(f"{label}: function.name missing")
        elif not isinstance(function.get("arguments"), str):
            problems.append(f"{label}: function.arguments must be a JSON string")
    return ids


def validate_messages(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every violation of the chain rules, as readable sentences; ``[]`` means valid.

    * each message is an object with a known role; user/system messages have content
    * an assistant message with tool_calls is followed DIRECTLY by exactly one tool
      message per call, same ids, same order, nothing in between
    * no tool message without such an assistant message (orphans)
    * tool call ids are unique within one assistant message (they may repeat in later turns)
    * the legacy ``function_call`` / role ``function`` protocol is not mixed in
    """
    problems: list[str] = []
    if not isinstance(messages, Sequence) or isinstance(messages, str | bytes):
        return ["messages must be a list of message objects"]
    expected: list[str] = []  # tool_call_ids still owed, in order
    owner = -1
    for index, message in enumerate(messages):
        if not isinstance(message, Mapping):
            problems.append(f"message {index}: must be an object, got {type(message).__name__}")
            continue
        role = message.get("role")
        if role == "tool":
            call_id = message.get("tool_call_id")
            if not expected:
                problems.append(f"message {index} (tool): orphan tool message for {call_id!r} (no pending tool call)")
            elif call_id != expected[0]:
                wanted = expected[0]
                if call_id in expected:
                    problems.append(f"message {index} (tool): answers {call_id!r} out of order; expected {wanted!r} first")
                else:
                    problems.append(f"message {index} (tool): tool_call_id {call_id!r} does not match; expected {wanted!r}")
                if call_id in expected:
                    expected.remove(call_id)
                else:
                    expected.pop(0)
            else:
                expected.pop(0)
            if not isinstance(message.get("content"), str):
                problems.append(f"message {index} (tool): content must be a string")
            continue
        if expected:
            problems.append(
                f"{_describe(index, message)}: comes between message {owner} (assistant tool_calls) and its tool "
                f"messages; still missing {', '.join(expected)}"
            )
            expected = []
        if role not in VALID_ROLES:
            hint = " (the legacy function-calling protocol is not supported)" if role == "function" else ""
            problems.append(f"message {index}: invalid role {role!r}{hint}")
            continue
        if role in ("system", "developer", "user") and message.get("content") is None:
            problems.append(f"{_describe(index, message)}: content is missing")
        if role == "assistant":
            if "function_call" in message and message.get("function_call") is not None:
                problems.append(f"message {index} (assistant): legacy function_call mixed with tool_calls protocol")
            if message.get("tool_calls"):
                expected = _check_tool_calls(index, message["tool_calls"], problems)
                owner = index
    if expected:
        problems.append(f"message {owner} (assistant): no tool message for {', '.join(expected)} (history ends)")
    return problems


def _preview(value: Any, width: int) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"


def format_chain(messages: Sequence[Mapping[str, Any]], width: int = 100) -> str:
    """The history one line per message (plus one per tool call), for ``--verbose``.

    Problems found by ``validate_messages`` are listed at the end so a broken chain
    is visible at a glance.
    """
    lines: list[str] = []
    for index, message in enumerate(messages):
        if not isinstance(message, Mapping):
            lines.append(f"[{index}] ?         {_preview(message, width)}")
            continue
        role = str(message.get("role", "?"))
        head = f"[{index}] {role:<9}"
        if role == "tool":
            head += f" <- {message.get('tool_call_id')}"
        content = message.get("content")
        lines.append(f"{head} {_preview(content, width)}" if content else head)
        for call in message.get("tool_calls") or []:
            function = call.get("function", {}) if isinstance(call, Mapping) else {}
            arguments = _preview(function.get("arguments", ""), width)
            lines.append(f"      -> {call.get('id') if isinstance(call, Mapping) else '?'} {function.get('name')}({arguments})")
    problems = validate_messages(messages)
    if problems:
        lines.append(f"!! chain invalid ({len(problems)} problem(s)):")
        lines.extend(f"!!   {problem}" for problem in problems)
    return "\n".join(lines)


__all__ = ["VALID_ROLES", "format_chain", "validate_messages"]
