"""``POST /v1/messages`` (and ``/v1/messages/count_tokens``): Anthropic's Messages API as a dialect.

The request becomes a ``Call`` in the router's terms (``anthropic_blocks`` translates the
content); routing, modes, fallbacks, budgets and metrics are the pipeline's, as for every
dialect. What is Anthropic's own:

* ``max_tokens`` is required; ``stop_sequences`` -> ``stop``; ``top_k`` is forwarded as a
  provider field (OpenAI-compatible servers that know it, vLLM, DashScope, use it);
  ``metadata.user_id`` -> ``user``; ``thinking`` is accepted, and whatever reasoning the
  provider returns comes back as thinking blocks (its budget has no OpenAI-compatible
  field, so it is not forwarded);
* ``stop_reason``: tool calls -> ``tool_use``, a cut answer -> ``max_tokens``, a refusal or
  filter -> ``refusal``, else ``end_turn`` (OpenAI-compatible providers do not say whether a
  stop sequence matched, so ``stop_sequence`` is never claimed);
* usage: ``input_tokens`` excludes the cached prompt tokens, which are reported as
  ``cache_read_input_tokens`` / ``cache_creation_input_tokens`` when the provider reports them;
* errors: ``{"type": "error", "error": {"type": ..., "message": ...}}`` with Anthropic's types
  (an unavailable upstream: 503 ``overloaded_error``; a timeout: 504 ``timeout_error``);
* ``anthropic-version`` is accepted and echoed; the key may come as ``x-api-key`` (the Gate).

Streams follow Anthropic's event sequence: ``message_start``, ``ping``, per block
``content_block_start`` / ``content_block_delta`` (``text_delta``, ``thinking_delta`` then
``signature_delta``, ``input_json_delta`` as the arguments arrive) / ``content_block_stop``,
``message_delta`` (stop reason, usage), ``message_stop``; ``error`` ends a broken stream.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from router import fastjson
from router.config import ServerSettings
from router.loop.chain import validate_messages
from router.server.dialects.anthropic_blocks import signature, to_messages, to_tool_choice, to_tools
from router.server.dialects.base import Call, ReplyMeta, WireError, split_question, validated
from router.server.dialects.call_memory import remember, restore
from router.server.http_errors import HTTPFailure
from router.server.wire import answered_model, router_extension
from router.types import Answer, RequestOptions

DEFAULT_VERSION = "2023-06-01"


class MessagesRequest(BaseModel):
    """POST /v1/messages. Unknown fields are refused, as Anthropic does, so typos surface."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(min_length=1)
    messages: list[Any] = Field(min_length=1)
    max_tokens: int | None = Field(default=None, ge=1)
    system: str | list[Any] | None = None
    stop_sequences: list[str] | None = None
    stream: bool | None = False
    temperature: float | None = Field(default=None, ge=0, le=1)
    top_p: float | None = Field(default=None, ge=0, le=1)
    top_k: int | None = Field(default=None, ge=0)
    metadata: dict[str, Any] | None = None
    tools: list[Any] | None = None
    tool_choice: dict[str, Any] | None = None
    thinking: dict[str, Any] | None = None
    output_config: dict[str, Any] | None = None
    """``format`` (json_schema) -> ``response_format``; ``effort`` -> ``reasoning_effort``."""
    service_tier: str | None = None
    """This and the next three are accepted and not forwarded: they concern Anthropic's own service
    (its capacity, prompt cache, regions); OpenAI-compatible providers cache prompt prefixes by themselves."""
    speed: str | None = None
    inference_geo: str | None = None
    cache_control: dict[str, Any] | None = None
    mode: Literal["auto", "cot", "few_shot", "react", "tot"] | None = None
    """Extension: answer with the router's modes (``extra_body`` in the SDK)."""


def parse_request(data: Any, *, require_max_tokens: bool = True) -> MessagesRequest:
    request = validated(MessagesRequest, data, unknown="{where}: Extra inputs are not permitted")
    if require_max_tokens and request.max_tokens is None:
        raise WireError(400, "max_tokens: Field required", code="invalid_request", param="max_tokens")
    thinking = request.thinking
    if thinking is not None and thinking.get("type") not in ("enabled", "disabled", "adaptive"):
        raise WireError(400, "thinking.type: must be 'enabled', 'disabled' or 'adaptive'", code="invalid_request",
                        param="thinking")
    if request.tools and request.mode is not None:
        raise WireError(400, "'mode' cannot be combined with 'tools': with its own tools the server is a gateway "
                        "(server-side tools run only in mode react)", code="invalid_request", param="mode")
    return request


def conversation(request: MessagesRequest, max_messages: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]] | None]:
    """The request's history and tools in the router's (OpenAI chat) shape, chain-checked."""
    messages = to_messages(request.system, request.messages)
    if len(messages) > max_messages:
        raise WireError(400, f"messages: {len(messages)} messages, the limit is {max_messages}",
                        code="too_many_messages", param="messages")
    problems = validate_messages(messages)
    if problems:
        raise WireError(400, "messages: " + "; ".join(problems), code="invalid_messages", param="messages")
    return messages, to_tools(request.tools)


_EFFORT = {"low": "low", "medium": "medium", "high": "high", "xhigh": "high", "max": "high"}


def _output_config(config: dict[str, Any] | None) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """(response_format, provider fields) of ``output_config``."""
    if not config:
        return None, {}
    extra: dict[str, Any] = {}
    effort = config.get("effort")
    if effort is not None:
        if effort not in _EFFORT:
            raise WireError(400, "output_config.effort: must be low, medium, high, xhigh or max",
                            code="invalid_request", param="output_config")
        extra["reasoning_effort"] = _EFFORT[effort]
    form = config.get("format")
    if form is None:
        return None, extra
    if not isinstance(form, dict) or form.get("type") != "json_schema" or not isinstance(form.get("schema"), dict):
        raise WireError(400, "output_config.format: must be {\"type\": \"json_schema\", \"schema\": {...}}",
                        code="invalid_request", param="output_config")
    return {"type": "json_schema", "json_schema": {"name": "output", "schema": form["schema"], "strict": True}}, extra


# Fields that never reach RequestOptions beyond max_tokens: such a request shares one cached instance.
_PLAIN = frozenset({"model", "messages", "max_tokens", "system", "stream", "thinking", "mode", "service_tier", "speed",
                    "inference_geo", "cache_control"})


@lru_cache(maxsize=256)
def _max_tokens_only(max_tokens: int | None) -> RequestOptions:
    return RequestOptions(max_tokens=max_tokens)


def request_options(request: MessagesRequest) -> RequestOptions:
    if request.model_fields_set <= _PLAIN:  # the usual request: a frozen, shared instance
        return _max_tokens_only(request.max_tokens)
    tool_choice, parallel = to_tool_choice(request.tool_choice) if request.tools else (None, None)
    user = (request.metadata or {}).get("user_id")
    response_format, extra = _output_config(request.output_config)
    if request.top_k is not None:
        extra["top_k"] = request.top_k
    return RequestOptions(
        temperature=request.temperature,
        top_p=request.top_p,
        max_tokens=request.max_tokens,
        stop=tuple(request.stop_sequences) if request.stop_sequences else None,
        tool_choice=tool_choice,
        parallel_tool_calls=parallel,
        response_format=response_format,
        user=user if isinstance(user, str) else None,
        extra_body=extra,
    )


# --- replies -----------------------------------------------------------------------------------


def stop_reason(answer: Answer) -> str:
    if answer.tool_calls:
        return "tool_use"
    if answer.refused or answer.finish_reason == "content_filter":
        return "refusal"
    if answer.finish_reason == "length":
        return "max_tokens"
    return "end_turn"


def usage(answer: Answer) -> dict[str, int]:
    u = answer.usage
    cached = u.cache_read_tokens + u.cache_write_tokens
    return {"input_tokens": max(0, u.prompt_tokens - cached), "output_tokens": u.completion_tokens,
            "cache_creation_input_tokens": u.cache_write_tokens, "cache_read_input_tokens": u.cache_read_tokens}


def content_blocks(answer: Answer) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if answer.reasoning_content:
        blocks.append({"type": "thinking", "thinking": answer.reasoning_content,
                       "signature": signature(answer.reasoning_content)})
    if answer.text or not answer.tool_calls:
        blocks.append({"type": "text", "text": answer.text})
    for call in answer.tool_calls:
        blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": _tool_input(call.arguments)})
    return blocks


def _tool_input(arguments: str) -> Any:
    """The call's input object; arguments that are not a JSON object travel as ``{"arguments": "..."}``."""
    try:
        value = fastjson.loads(arguments)
    except ValueError:
        value = None
    return value if isinstance(value, dict) else {"arguments": arguments}


def message_body(answer: Answer, meta: ReplyMeta) -> dict[str, Any]:
    return {
        "id": meta.id,
        "type": "message",
        "role": "assistant",
        "model": answered_model(answer),
        "content": content_blocks(answer),
        "stop_reason": stop_reason(answer),
        "stop_sequence": None,
        "usage": usage(answer),
        "router": router_extension(answer, overhead_ms=meta.overhead_ms),
    }


# Anthropic's error types (those its SDK's ErrorObject knows; a 413 is an invalid_request_error there).
_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 402: "billing_error",
                403: "permission_error", 404: "not_found_error", 429: "rate_limit_error", 500: "api_error",
                502: "api_error", 503: "overloaded_error", 504: "timeout_error"}


def error_reply(fail: HTTPFailure) -> tuple[int, dict[str, Any]]:
    """The status stays the router's (the SDK maps 503 and 504 to its own classes and retries them)."""
    status = fail.status
    kind = _ERROR_TYPES.get(status) or ("invalid_request_error" if status < 500 else "api_error")
    return status, {"type": "error", "error": {"type": kind, "message": fail.message}}


class AnthropicMessages:
    name = "anthropic_messages"
    paths = ("/v1/messages",)
    endpoint = "/v1/messages"
    id_prefix = "msg_"

    def __init__(self, settings: ServerSettings) -> None:
        self.max_messages = settings.max_messages
        self.max_body_bytes = settings.max_body_bytes
        self.ttl_s = settings.responses_ttl_s

    def parse(self, data: Any, headers: Mapping[str, str]) -> Call:
        request = parse_request(data)
        messages, tools = conversation(request, self.max_messages)
        question = split_question(messages)[0] if request.mode is not None else ""
        return Call(messages=messages, model=request.model, tools=tools, options=request_options(request),
                    mode=request.mode, stream=bool(request.stream), question=question,
                    reply_headers=((b"anthropic-version", headers.get("anthropic-version", DEFAULT_VERSION).encode(
                        "latin-1")),))

    async def prepare(self, call: Call, engine: Any) -> Call:
        """Calls the client sends back as ``input`` objects get the provider's own strings and fields again."""
        messages = await restore(getattr(engine, "state", None), call.messages)
        return call if messages is None else replace(call, messages=messages)

    async def keep(self, call: Call, answer: Answer, body: dict[str, Any], engine: Any) -> None:
        await remember(getattr(engine, "state", None), answer, self.ttl_s)

    def render(self, answer: Answer, call: Call, meta: ReplyMeta) -> dict[str, Any]:
        return message_body(answer, meta)

    def stream(self, call: Call, meta: ReplyMeta) -> Any:
        from router.server.dialects.anthropic_stream import MessagesStream

        return MessagesStream(call, meta)

    def error(self, fail: HTTPFailure) -> tuple[int, dict[str, Any]]:
        return error_reply(fail)

    def routes(self, router: Any, metrics: Any) -> list[Any]:
        from router.server.dialects.anthropic_side import count_tokens_route

        return [count_tokens_route(self, metrics)]


__all__ = ["AnthropicMessages", "MessagesRequest", "content_blocks", "error_reply", "message_body",
           "parse_request", "stop_reason", "usage"]
