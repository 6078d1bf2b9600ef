"""The OpenAI wire format both HTTP clients speak: per-model request rules and reading replies.

Outgoing, ``prepare_messages`` applies what a model demands of the history it is
sent (``WireRules``, from the model's capabilities in providers.yaml): whether an
assistant turn's ``reasoning_content`` goes back (DeepSeek's thinking mode needs
it on the tool-call turns of the current loop and rejects nothing else;
``deepseek-reasoner`` rejects it everywhere), and whether consecutive messages of
one role must be merged (strict alternation). Provider fields it does not know
(Gemini's ``extra_content`` thought signature) pass through untouched.

Incoming, replies are read as plain dicts (the SDK objects are dumped first, so
fields the SDK does not declare survive) into ``ChatResponse``; any shape this
cannot read is a ``MalformedResponseError``, never an ``AttributeError`` or
``KeyError`` leaking out. Tool calls are normalised the same way for JSON and
streamed replies (``normalise_calls``): object-valued arguments are serialised
canonically, blank ones become ``{}``, and ids repeated within one turn are made
unique. Arguments that are not valid JSON are kept raw on purpose: the loop feeds
the parse error back to the model, and the record shows what the model wrote.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from router.errors import MalformedResponseError, TruncatedResponseError
from router.types import AssistantMessage, ChatResponse, ToolCall, Usage

ReasoningEcho = Literal["none", "tool_turns", "all"]

# fields of a reply message / tool call that are the wire format itself, not provider extras
_MESSAGE_FIELDS = frozenset(
    {"role", "content", "tool_calls", "reasoning_content", "reasoning", "refusal", "function_call", "audio",
     "annotations", "name", "provider_specific_fields", "thinking_blocks", "images"}
)
_CALL_FIELDS = frozenset({"id", "type", "function", "index"})
TRUNCATING_FINISH = frozenset({"insufficient_system_resource"})
"""Finish reasons meaning the server cut the reply short: a failed attempt, never an answer."""


@dataclass(frozen=True)
class WireRules:
    """What one model demands of the requests it is sent (from ``capabilities`` in providers.yaml)."""

    reasoning_echo: ReasoningEcho = "tool_turns"
    strict_alternation: bool = False
    stream_only: bool = False

    @classmethod
    def from_capabilities(cls, capabilities: Any) -> WireRules:
        return cls(
            reasoning_echo=getattr(capabilities, "reasoning_echo", "tool_turns"),
            strict_alternation=bool(getattr(capabilities, "strict_alternation", False)),
            stream_only=bool(getattr(capabilities, "stream_only", False)),
        )


DEFAULT_RULES = WireRules()

# --- outgoing -----------------------------------------------------------------------------


def _last_user_index(messages: list[dict[str, Any]]) -> int:
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].get("role") == "user":
            return i
    return -1


def _merge_same_roles(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive user (or plain assistant, or system) messages joined into one, text kept in order."""
    merged: list[dict[str, Any]] = []
    for message in messages:
        previous = merged[-1] if merged else None
        role = message.get("role")
        if (
            previous is not None
            and role in ("user", "assistant", "system")
            and previous.get("role") == role
            and not previous.get("tool_calls")
            and not message.get("tool_calls")
            and isinstance(previous.get("content") or "", str)
            and isinstance(message.get("content") or "", str)
        ):
            text = "\n\n".join(t for t in (previous.get("content") or "", message.get("content") or "") if t)
            merged[-1] = {**previous, "content": text}
        else:
            merged.append(message)
    return merged


def prepare_messages(messages: list[dict[str, Any]], rules: WireRules = DEFAULT_RULES) -> list[dict[str, Any]]:
    """The history as this model must receive it; the caller's list and dicts are never changed.

    An assistant turn with tool_calls carries ``content: ""`` (several servers reject
    null there); ``reasoning_content`` is kept where ``rules.reasoning_echo`` says so.
    Copies only what changes, so the common case costs one scan.
    """
    out = messages
    current_loop_starts = _last_user_index(messages) if rules.reasoning_echo == "tool_turns" else -1
    for i, message in enumerate(messages):
        if message.get("role") != "assistant":
            continue
        changed = message
        if message.get("tool_calls") and message.get("content") is None:
            changed = {**changed, "content": ""}
        if "reasoning_content" in message:
            keep = rules.reasoning_echo == "all" or (
                rules.reasoning_echo == "tool_turns" and i > current_loop_starts and bool(message.get("tool_calls"))
            )
            if not keep:
                changed = {k: v for k, v in changed.items() if k != "reasoning_content"}
        if changed is not message:
            if out is messages:
                out = list(messages)
            out[i] = changed
    if rules.strict_alternation:
        out = _merge_same_roles(out)
    return out


# --- incoming: tool calls ---------------------------------------------------------------------


def canonical_arguments(value: Any) -> str:
    """Arguments as the JSON string the protocol wants: objects serialised, blanks as ``{}``.

    A string that is not valid JSON is returned as is (see the module docstring).
    """
    if value is None:
        return "{}"
    if isinstance(value, str):
        return value if value.strip() else "{}"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def generated_call_id() -> str:
    """An id for a tool call the server sent without one.

    It must be unique across the whole history, not just within one reply: a
    per-reply counter (``call_0``) repeats every turn and breaks the chain rules.
    """
    import uuid

    return f"call_{uuid.uuid4().hex[:24]}"


def normalise_calls(calls: Iterable[ToolCall]) -> tuple[ToolCall, ...]:
    """Ids made present and unique within the turn (a repeat gets a ``_2``, ``_3`` suffix), order kept.

    Providers that number calls per turn (``calculator:0`` every time) would
    otherwise give two results the same ``tool_call_id``; ids repeating across
    turns are left alone, the chain rules allow that.
    """
    result: list[ToolCall] = []
    seen: set[str] = set()
    for call in calls:
        call_id = call.id or generated_call_id()
        if call_id in seen:
            n = 2
            while f"{call_id}_{n}" in seen:
                n += 1
            call_id = f"{call_id}_{n}"
        seen.add(call_id)
        result.append(call if call_id == call.id else ToolCall(call_id, call.name, call.arguments, call.extra))
    return tuple(result)


def _extras(data: Mapping[str, Any], known: frozenset[str]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in known and v is not None}


def tool_call_from(data: Mapping[str, Any]) -> ToolCall:
    function = data.get("function") or {}
    if not isinstance(function, Mapping):
        raise TypeError(f"tool call function is {type(function).__name__}")
    return ToolCall(
        id=str(data.get("id") or ""),
        name=str(function.get("name") or ""),
        arguments=canonical_arguments(function.get("arguments")),
        extra=_extras(data, _CALL_FIELDS),
    )


# --- incoming: whole replies ------------------------------------------------------------------


def as_dict(obj: Any) -> dict[str, Any]:
    """A plain dict view of a reply / chunk / delta, including pydantic extras."""
    if obj is None:
        return {}
    if isinstance(obj, Mapping):
        return dict(obj)
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        try:
            return dict(dump(warnings=False))  # a field of an unexpected type (object arguments) is ours to judge
        except TypeError:
            return dict(dump())
    if not hasattr(obj, "__dict__"):  # a string, number or list where an object belongs
        raise TypeError(f"expected an object, got {type(obj).__name__}")
    return dict(obj.__dict__)


def usage_from(obj: Any) -> Usage | None:
    data = as_dict(obj)
    if not data:
        return None
    prompt = int(data.get("prompt_tokens") or 0)
    completion = int(data.get("completion_tokens") or 0)
    total = int(data.get("total_tokens") or prompt + completion)
    details = as_dict(data.get("prompt_tokens_details"))
    # cached prompt tokens: OpenAI / Qwen / OpenRouter (details), DeepSeek (prompt_cache_hit_tokens), Kimi (cached_tokens)
    read = details.get("cached_tokens") or data.get("prompt_cache_hit_tokens") or data.get("cached_tokens")
    written = details.get("cache_write_tokens") or details.get("cache_creation_input_tokens") or data.get(
        "cache_creation_input_tokens")
    if not (read or written):
        return Usage(prompt, completion, total)
    return Usage(prompt, completion, total, _count(read), _count(written))


def _count(value: Any) -> int:
    """A token count a provider reports as an extra: anything not a whole number counts as 0, never fails the reply."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def check_finish(finish_reason: str | None, *, provider: str, model: str) -> None:
    """A finish reason that says the reply is incomplete becomes a retryable error."""
    if finish_reason in TRUNCATING_FINISH:
        raise TruncatedResponseError(
            f"the server cut the reply short (finish_reason {finish_reason})", provider=provider, model=model
        )


def _read_completion(data: dict[str, Any], provider: str, model: str, latency_s: float) -> ChatResponse:
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        raise MalformedResponseError("reply has no choices", provider=provider, model=model)
    choice = as_dict(choices[0])
    message = as_dict(choice.get("message"))
    if not message:
        raise MalformedResponseError("reply choice has no message", provider=provider, model=model)
    calls = normalise_calls(tool_call_from(as_dict(call)) for call in message.get("tool_calls") or ())
    refusal = text_or_none(message.get("refusal"))
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise TypeError(f"message content is {type(content).__name__}")
    if content is None and calls:
        content = ""
    # litellm maps finish reasons it does not know to "stop" and keeps the provider's under native_finish_reason
    native = as_dict(choice.get("provider_specific_fields")).get("native_finish_reason")
    finish = native or choice.get("finish_reason") or ("tool_calls" if calls else "stop")
    check_finish(finish, provider=provider, model=model)
    reasoning = text_or_none(message.get("reasoning_content")) or text_or_none(message.get("reasoning"))
    usage = usage_from(data.get("usage")) or usage_from(choice.get("usage"))
    return ChatResponse(
        message=AssistantMessage(
            content=content,
            tool_calls=calls,
            reasoning_content=reasoning,
            extra=_extras(message, _MESSAGE_FIELDS),
            refusal=refusal,
        ),
        finish_reason=str(finish),
        usage=usage or Usage(),
        model=str(data.get("model") or model),
        provider=provider,
        latency_s=latency_s,
    )


def redact_reply(response: ChatResponse, *secrets: str | None) -> ChatResponse:
    """``response`` with known key values masked in what the model wrote (text, reasoning, refusal,
    tool arguments): an upstream that echoes the Authorization header must not hand the key on.
    The same object comes back when there was nothing to mask (the usual case)."""
    from dataclasses import replace

    from router.redaction import redact_known

    message = response.message
    content = redact_known(message.content or "", *secrets) or message.content
    reasoning = redact_known(message.reasoning_content or "", *secrets) or message.reasoning_content
    refusal = redact_known(message.refusal or "", *secrets) or message.refusal
    calls = tuple(
        c if (masked := redact_known(c.arguments, *secrets)) == c.arguments else ToolCall(c.id, c.name, masked, c.extra)
        for c in message.tool_calls
    )
    if (content, reasoning, refusal) == (message.content, message.reasoning_content, message.refusal) and all(
        a is b for a, b in zip(calls, message.tool_calls, strict=True)
    ):
        return response
    masked_message = replace(message, content=content, reasoning_content=reasoning, refusal=refusal, tool_calls=calls)
    return replace(response, message=masked_message)


def response_from_completion(completion: Any, *, provider: str, model: str, latency_s: float) -> ChatResponse:
    """A ChatCompletion-shaped reply (dict, openai or litellm object) as a ``ChatResponse``.

    Whatever shape it has, the outcome is a response or a router error.
    """
    try:
        return _read_completion(as_dict(completion), provider, model, latency_s)
    except (AttributeError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise MalformedResponseError(
            f"unreadable reply: {type(exc).__name__}: {str(exc)[:200]}", provider=provider, model=model
        ) from exc


__all__ = [
    "DEFAULT_RULES",
    "TRUNCATING_FINISH",
    "WireRules",
    "as_dict",
    "canonical_arguments",
    "check_finish",
    "generated_call_id",
    "normalise_calls",
    "prepare_messages",
    "redact_reply",
    "response_from_completion",
    "tool_call_from",
    "usage_from",
]
