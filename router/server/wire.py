"""The OpenAI chat-completions wire format: requests in, responses and SSE chunks out.

Requests are validated once, at the boundary, by a pydantic model (about 4 µs of CPU for a
typical request, 55 µs for the whole handler with a null engine: a hand-written checker
would save nothing worth a second validator).
Responses are built as plain dicts and serialised with ``json.dumps``: the chunk
builders use a precomputed prefix per stream, because a stream sends hundreds of them.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from router import fastjson
from router.server.dialects.base import WireError, split_question
from router.types import NO_OPTIONS, Answer, RequestOptions

MODES = ("auto", "cot", "few_shot", "react", "tot")
FINISH_REASONS = frozenset({"stop", "length", "tool_calls", "content_filter", "function_call"})

# OpenAI request fields that the router has no typed slot for: forwarded unchanged in extra_body.
FORWARDED = (
    "presence_penalty",
    "frequency_penalty",
    "logit_bias",
    "logprobs",
    "top_logprobs",
    "reasoning_effort",
    "verbosity",
    "service_tier",
    "prediction",
    "modalities",
    "audio",
    "web_search_options",
)
# OpenAI request fields accepted and not forwarded: they concern OpenAI's own storage and caching.
IGNORED = ("store", "metadata", "prompt_cache_key", "safety_identifier", "moderation")


class StreamOptions(BaseModel):
    model_config = ConfigDict(extra="ignore")
    include_usage: bool | None = None


class ChatCompletionRequest(BaseModel):
    """POST /v1/chat/completions. Unknown fields are refused, as OpenAI does, so typos surface."""

    model_config = ConfigDict(extra="forbid")

    messages: list[dict[str, Any]] = Field(min_length=1)
    model: str | None = Field(default=None, min_length=1)
    """None (no ``model`` sent) is the configured ``default:``; ``auto`` asks for the automatic choice."""
    stream: bool | None = False
    stream_options: StreamOptions | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: str | dict[str, Any] | None = None
    parallel_tool_calls: bool | None = None
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    stop: str | list[str] | None = None
    seed: int | None = None
    user: str | None = None
    response_format: dict[str, Any] | None = None
    n: int | None = Field(default=None, ge=1, le=1, description="only one choice is produced")
    mode: Literal["auto", "cot", "few_shot", "react", "tot"] | None = None
    """Extension: answer with the router's modes (sent by the openai SDK as ``extra_body``)."""
    presence_penalty: float | None = None
    frequency_penalty: float | None = None
    logit_bias: dict[str, int] | None = None
    logprobs: bool | None = None
    top_logprobs: int | None = None
    reasoning_effort: str | None = None
    verbosity: str | None = None
    service_tier: str | None = None
    prediction: dict[str, Any] | None = None
    modalities: list[str] | None = None
    audio: dict[str, Any] | None = None
    web_search_options: dict[str, Any] | None = None
    store: bool | None = None
    metadata: dict[str, Any] | None = None
    prompt_cache_key: str | None = None
    safety_identifier: str | None = None
    moderation: Any = None


def _where(loc: tuple[Any, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")


def parse_request(data: Any, *, max_messages: int) -> ChatCompletionRequest:
    """The validated request, or a ``WireError`` naming the first bad field."""
    if not isinstance(data, dict):
        raise WireError(400, "the request body must be a JSON object", code="invalid_request")
    if "functions" in data or "function_call" in data:
        raise WireError(400, "the legacy 'functions'/'function_call' parameters are not supported; use 'tools'",
                        code="unsupported_parameter", param="functions" if "functions" in data else "function_call")
    messages = data.get("messages")
    if isinstance(messages, list) and len(messages) > max_messages:  # cheap checks before the costly validation
        raise WireError(400, f"messages: {len(messages)} messages, the limit is {max_messages}",
                        code="too_many_messages", param="messages")
    if data.get("n") not in (None, 1):
        raise WireError(400, f"n: only one choice is produced per request (n={data.get('n')!r}); send n=1 or leave "
                        "it out, and make several requests for several answers", code="unsupported_parameter", param="n")
    try:
        request = ChatCompletionRequest.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = _where(tuple(first["loc"])) or "body"
        if first["type"] == "extra_forbidden":
            raise WireError(400, f"unrecognized request argument supplied: {where}", code="unknown_parameter",
                            param=where) from None
        message = str(first["msg"]).removeprefix("Value error, ")
        raise WireError(400, f"{where}: {message}", code="invalid_request", param=where) from None
    if request.tools is not None and request.mode is not None:
        raise WireError(400, "'mode' cannot be combined with 'tools': with its own tools the server is a gateway "
                        "(server-side tools run only in mode react)", code="invalid_request", param="mode")
    return request


# Request fields that never reach RequestOptions: a request that sets nothing else gets the shared NO_OPTIONS.
_NOT_OPTIONS = frozenset({"messages", "model", "stream", "stream_options", "tools", "mode", "n", *IGNORED})


def request_options(request: ChatCompletionRequest) -> RequestOptions:
    fields = request.model_fields_set
    if fields <= _NOT_OPTIONS:  # the usual request: messages and a model (a frozen, shared instance)
        return NO_OPTIONS
    extra = {name: getattr(request, name) for name in FORWARDED if name in fields and getattr(request, name) is not None}
    stop = request.stop
    return RequestOptions(
        temperature=request.temperature,
        top_p=request.top_p,
        max_tokens=request.max_completion_tokens if request.max_completion_tokens is not None else request.max_tokens,
        stop=(stop,) if isinstance(stop, str) else (tuple(stop) if stop is not None else None),
        seed=request.seed,
        tool_choice=request.tool_choice,
        parallel_tool_calls=request.parallel_tool_calls,
        response_format=request.response_format,
        user=request.user,
        extra_body=extra,
    )


# --- responses -----------------------------------------------------------------------------


def completion_id() -> str:
    return "chatcmpl-" + os.urandom(12).hex()


def answered_model(answer: Answer) -> str:
    """``provider/model``: the id a caller can send back to reach the same model."""
    return f"{answer.provider}/{answer.model}" if answer.provider else answer.model


def finish_reason(answer: Answer) -> str:
    if answer.tool_calls:
        return "tool_calls"
    return answer.finish_reason if answer.finish_reason in FINISH_REASONS else "stop"


def usage_dict(answer: Answer) -> dict[str, int]:
    usage = answer.usage
    total = usage.total_tokens or usage.prompt_tokens + usage.completion_tokens
    return {"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens, "total_tokens": total}


def router_extension(answer: Answer, *, overhead_ms: float | None = None) -> dict[str, Any]:
    """What the answer did, for callers that want to trust it: the ``router`` field."""
    out: dict[str, Any] = {
        "provider": answer.provider,
        "model": answer.model,
        "deployment": answer.deployment,
        "mode": answer.mode,
        "route_reason": answer.route_reason,
        "mode_reason": answer.mode_reason,
        "attempts": [
            {"provider": a.provider, "model": a.model, "ok": a.ok, "error_kind": a.error_kind, "error": a.error,
             "wait_s": a.wait_s, "latency_s": a.latency_s, "deployment": a.deployment}
            for a in answer.attempts
        ],
        "tool_records": [
            {"tool": r.tool, "arguments": r.arguments, "result": r.result, "error": r.error, "duration_s": r.duration_s,
             "call_id": r.call_id, "step": r.step}
            for r in answer.tool_records
        ],
        "grounded": answer.grounded,
        "steps": answer.steps,
        "stopped_reason": answer.stopped_reason,
        "warnings": list(answer.warnings),
        "cost": answer.cost,
        "latency_s": answer.latency_s,
    }
    if overhead_ms is not None:
        out["overhead_ms"] = round(overhead_ms, 3)
    return out


def completion_body(answer: Answer, *, id: str, created: int, overhead_ms: float | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer.text, "refusal": None}
    if answer.tool_calls:
        message["tool_calls"] = [call.to_dict() for call in answer.tool_calls]
        message["content"] = answer.text or None
    if answer.reasoning_content:
        message["reasoning_content"] = answer.reasoning_content
    return {
        "id": id,
        "object": "chat.completion",
        "created": created,
        "model": answered_model(answer),
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason(answer), "logprobs": None}],
        "usage": usage_dict(answer),
        "router": router_extension(answer, overhead_ms=overhead_ms),
    }


def dumps(value: Any) -> bytes:
    return fastjson.dumps(value)


@dataclass
class ChunkWriter:
    """SSE chunks of one stream; ``model`` may be corrected once the answering model is known."""

    id: str
    model: str
    created: int = 0

    def __post_init__(self) -> None:
        self.created = self.created or int(time.time())

    def _head(self) -> str:
        return f'{{"id":"{self.id}","object":"chat.completion.chunk","created":{self.created},"model":{json.dumps(self.model)},'

    def delta(self, delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
        tail = "".join(f",{json.dumps(k)}:{json.dumps(v, ensure_ascii=False)}" for k, v in extra.items())
        reason = json.dumps(finish)
        body = f'{self._head()}"choices":[{{"index":0,"delta":{json.dumps(delta, ensure_ascii=False)},"finish_reason":{reason}}}]{tail}}}'
        return b"data: " + body.encode() + b"\n\n"

    def text(self, text: str, *, reasoning: bool = False) -> bytes:
        return self.delta({"reasoning_content": text} if reasoning else {"content": text})

    def usage(self, answer: Answer) -> bytes:
        body = f'{self._head()}"choices":[],"usage":{json.dumps(usage_dict(answer))}}}'
        return b"data: " + body.encode() + b"\n\n"


DONE = b"data: [DONE]\n\n"


def sse_error(payload: dict[str, Any]) -> bytes:
    return b"data: " + dumps(payload) + b"\n\n"


__all__ = [
    "DONE",
    "MODES",
    "ChatCompletionRequest",
    "ChunkWriter",
    "WireError",
    "answered_model",
    "completion_body",
    "completion_id",
    "dumps",
    "finish_reason",
    "parse_request",
    "request_options",
    "router_extension",
    "split_question",
    "sse_error",
    "usage_dict",
]
