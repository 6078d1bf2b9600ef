"""The provider's own tool-call strings and fields, kept for dialects whose clients cannot carry them.

Protocol rule 1: an assistant message with tool calls goes back to the provider unchanged,
argument strings and provider fields (Gemini's thought signature on a call, other message
fields) included. An Anthropic client sends a call back as an ``input`` object, not the
provider's string (``{"city": "Paris"}`` and ``{"city":"Paris"}`` are the same object, not
the same bytes: a prompt-prefix cache sees the difference); neither Anthropic's
``tool_use`` nor a Responses ``function_call`` item has room for provider fields.

So when a reply with tool calls goes out, each call's exact argument string and fields are
written to the state store under its id (Redis when configured: any gateway process can
restore them; entries live ``server.responses_ttl_s``). When a call comes back, the stored
string replaces the re-serialised one only if it parses to the same value, and under the
same name: a reused id (providers may reuse them across turns) never changes what the
caller sent. Reads and writes happen only for requests and replies that carry tool calls.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from router.types import Answer

logger = logging.getLogger("router.server")
_MESSAGE_FIELDS = frozenset({"role", "content", "tool_calls", "reasoning_content"})


def _key(call_id: str) -> str:
    return f"toolcall:{call_id}"


async def remember(state: Any, answer: Answer, ttl_s: float) -> None:
    if not answer.tool_calls or state is None:
        return
    message = answer.messages[-1] if answer.messages else {}
    fields = {k: v for k, v in message.items() if k not in _MESSAGE_FIELDS} if message.get("role") == "assistant" else {}
    try:
        for call in answer.tool_calls:
            entry = {"n": call.name, "a": call.arguments, "x": dict(call.extra), "m": fields}
            await state.cache_set(_key(call.id), json.dumps(entry, ensure_ascii=False), ttl_s)
    except Exception as exc:  # the reply is fine; only byte-exact echo of its calls is lost
        logger.warning("could not remember tool calls: %s", type(exc).__name__)


def _same(a: str, b: str) -> bool:
    try:
        return bool(json.loads(a) == json.loads(b))
    except ValueError:
        return a == b


async def restore(state: Any, messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """``messages`` with remembered calls restored, or None when nothing changed (or nothing to look up)."""
    if state is None or not any(m.get("tool_calls") for m in messages):
        return None
    out = list(messages)
    changed = False
    for position, message in enumerate(messages):
        calls = message.get("tool_calls")
        if not calls:
            continue
        restored, fields = [], {}
        for call in calls:
            try:
                raw = await state.cache_get(_key(call["id"]))
                entry = json.loads(raw) if raw else None
            except Exception:  # an unreadable or unreachable entry: the caller's call as it came
                entry = None
            function = call["function"]
            if entry and entry.get("n") == function["name"] and _same(entry["a"], function["arguments"]):
                restored.append({**entry.get("x", {}), **call, "function": {**function, "arguments": entry["a"]}})
                fields.update(entry.get("m") or {})
            else:
                restored.append(call)
        if restored != calls or fields:
            out[position] = {**fields, **message, "tool_calls": restored}
            changed = True
    return out if changed else None


__all__ = ["remember", "restore"]
