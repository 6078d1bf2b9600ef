"""``POST /v1/responses`` (and ``GET`` / ``DELETE /v1/responses/{id}``): OpenAI's Responses API as a dialect.

The request becomes a ``Call`` (``responses_items`` translates the items); routing, modes,
fallbacks, budgets and metrics are the pipeline's. What is the Responses API's own:

* ``instructions`` -> a system message (not carried over by ``previous_response_id``, as
  in OpenAI's API); ``max_output_tokens`` -> ``max_tokens``; ``text.format`` ->
  ``response_format``; ``reasoning.effort`` -> ``reasoning_effort`` (passed through where the
  provider has it); function tools keep ``strict``;
* ``store`` (default true, as OpenAI's) keeps the response and its conversation in the
  state store (``router.server.responses_store``: Redis when configured, TTL
  ``server.responses_ttl_s``), so ``previous_response_id`` works on any gateway process;
* a cut answer is ``status: incomplete`` (``max_output_tokens``), a refusal a ``refusal``
  part; reasoning the provider returns is a ``reasoning`` item (and goes back as
  ``reasoning_content`` when sent back);
* ``background``, ``conversation``, ``prompt`` and the built-in tools are OpenAI's own
  services: refused with a 400 naming them, never silently ignored.

Streams: ``response.created``, ``response.in_progress``, per item ``output_item.added`` /
``content_part.added`` / ``output_text.delta`` (or ``reasoning_text.delta``, or
``function_call_arguments.delta`` as the arguments arrive) / the matching ``.done`` events /
``output_item.done``, then ``response.completed`` or ``response.incomplete``; a failure
after the start is ``error`` + ``response.failed``. Every event has its ``sequence_number``;
the final response carries the streamed items' ids (the SDK checks).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from router.config import ServerSettings
from router.loop.chain import validate_messages
from router.server.dialects.base import Call, ReplyMeta, WireError, split_question, validated
from router.server.dialects.call_memory import remember, restore
from router.server.dialects.responses_items import (
    output_items,
    to_messages,
    to_response_format,
    to_tool_choice,
    to_tools,
)
from router.server.http_errors import HTTPFailure
from router.server.responses_store import ResponsesStore, private_store
from router.server.wire import answered_model, router_extension
from router.types import NO_OPTIONS, Answer, RequestOptions

logger = logging.getLogger("router.server")


class ResponsesRequest(BaseModel):
    """POST /v1/responses. Unknown fields are refused, as OpenAI does."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(default="auto", min_length=1)
    input: str | list[Any]
    instructions: str | None = None
    tools: list[Any] | None = None
    tool_choice: str | dict[str, Any] | None = None
    parallel_tool_calls: bool | None = None
    max_output_tokens: int | None = Field(default=None, ge=1)
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    text: dict[str, Any] | None = None
    reasoning: dict[str, Any] | None = None
    store: bool | None = True
    previous_response_id: str | None = None
    stream: bool | None = False
    stream_options: dict[str, Any] | None = None
    metadata: dict[str, str] | None = None
    user: str | None = None
    truncation: Literal["auto", "disabled"] | None = None
    """Accepted; the router never drops input to fit (``disabled`` semantics: too long is an error)."""
    include: list[str] | None = None
    """Accepted; nothing extra to include (no encrypted reasoning, no logprobs)."""
    service_tier: str | None = None
    safety_identifier: str | None = None
    prompt_cache_key: str | None = None
    max_tool_calls: int | None = Field(default=None, ge=1)
    """Accepted: it bounds built-in tool calls, which the gateway has none of."""
    background: bool | None = None
    mode: Literal["auto", "cot", "few_shot", "react", "tot"] | None = None
    """Extension: answer with the router's modes (``extra_body`` in the SDK)."""


def parse_request(data: Any) -> ResponsesRequest:
    for name in ("conversation", "prompt"):
        if isinstance(data, dict) and data.get(name) is not None:
            raise WireError(400, f"'{name}' refers to objects stored on OpenAI's side; this gateway keeps responses "
                            "(use previous_response_id)", code="unsupported_parameter", param=name)
    request = validated(ResponsesRequest, data, unknown="Unknown parameter: '{where}'.")
    if request.background:
        raise WireError(400, "background responses are not supported: stream instead", code="unsupported_parameter",
                        param="background")
    if request.tools and request.mode is not None:
        raise WireError(400, "'mode' cannot be combined with 'tools': with its own tools the server is a gateway "
                        "(server-side tools run only in mode react)", code="invalid_request", param="mode")
    return request


# Request fields that never reach RequestOptions: a request that sets nothing else gets the shared NO_OPTIONS.
_NOT_OPTIONS = frozenset({"model", "input", "instructions", "store", "previous_response_id", "stream", "stream_options",
                          "metadata", "truncation", "include", "service_tier", "safety_identifier", "prompt_cache_key",
                          "max_tool_calls", "background", "mode"})


def request_options(request: ResponsesRequest) -> RequestOptions:
    if request.model_fields_set <= _NOT_OPTIONS:
        return NO_OPTIONS
    extra: dict[str, Any] = {}
    effort = (request.reasoning or {}).get("effort")
    if effort is not None:
        extra["reasoning_effort"] = effort
    verbosity = (request.text or {}).get("verbosity")
    if verbosity is not None:
        extra["verbosity"] = verbosity
    return RequestOptions(
        temperature=request.temperature, top_p=request.top_p, max_tokens=request.max_output_tokens,
        tool_choice=to_tool_choice(request.tool_choice) if request.tools else None,
        parallel_tool_calls=request.parallel_tool_calls if request.tools else None,
        response_format=to_response_format(request.text), user=request.user, extra_body=extra,
    )


def _echo_tools(tools: list[Any] | None) -> list[dict[str, Any]]:
    return [{"type": "function", "name": t["name"], "description": t.get("description"),
             "parameters": t.get("parameters") or {"type": "object", "properties": {}}, "strict": t.get("strict")}
            for t in tools or ()]


def _echo(request: ResponsesRequest) -> dict[str, Any]:
    """The request's settings as a Response repeats them."""
    text = dict(request.text or {})
    text.setdefault("format", {"type": "text"})
    echo = {
        "instructions": request.instructions, "max_output_tokens": request.max_output_tokens,
        "metadata": request.metadata or {}, "parallel_tool_calls": request.parallel_tool_calls is not False,
        "previous_response_id": request.previous_response_id, "temperature": request.temperature,
        "top_p": request.top_p, "text": text, "tool_choice": request.tool_choice or "auto",
        "tools": _echo_tools(request.tools), "truncation": request.truncation or "disabled",
        "reasoning": {"effort": (request.reasoning or {}).get("effort"), "summary": None} if request.reasoning else None,
        "store": request.store is not False,
    }
    if request.user is not None:
        echo["user"] = request.user
    return echo


def usage(answer: Answer) -> dict[str, Any]:
    u = answer.usage
    return {"input_tokens": u.prompt_tokens,
            "input_tokens_details": {"cached_tokens": u.cache_read_tokens, "cache_write_tokens": u.cache_write_tokens},
            "output_tokens": u.completion_tokens, "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": u.total_tokens or u.prompt_tokens + u.completion_tokens}


def incomplete(answer: Answer) -> dict[str, str] | None:
    if answer.finish_reason == "length":
        return {"reason": "max_output_tokens"}
    if answer.finish_reason == "content_filter":
        return {"reason": "content_filter"}
    return None


def response_body(answer: Answer, call: Call, meta: ReplyMeta, output: list[dict[str, Any]]) -> dict[str, Any]:
    cut = incomplete(answer)
    return {"id": meta.id, "object": "response", "created_at": meta.created,
            "status": "incomplete" if cut else "completed", "completed_at": int(time.time()), "error": None,
            "incomplete_details": cut, "model": answered_model(answer), "output": output, "usage": usage(answer),
            **call.extras["echo"], "router": router_extension(answer, overhead_ms=meta.overhead_ms)}


def shell(call: Call, meta: ReplyMeta, model: str, status: str = "in_progress") -> dict[str, Any]:
    """The response as ``response.created`` shows it: nothing answered yet."""
    return {"id": meta.id, "object": "response", "created_at": meta.created, "status": status, "error": None,
            "incomplete_details": None, "model": model, "output": [], **call.extras["echo"]}


# Response.error.code has a closed list; a router failure takes the nearest.
_ERROR_CODES = {429: "rate_limit_exceeded"}


def failed_body(call: Call, meta: ReplyMeta, model: str, fail: HTTPFailure, output: list[dict[str, Any]]) -> dict[str, Any]:
    body = shell(call, meta, model, "failed")
    body["output"] = output
    body["error"] = {"code": _ERROR_CODES.get(fail.status, "server_error"), "message": fail.message}
    return body


def assistant_message(answer: Answer, call: Call) -> dict[str, Any]:
    """What goes into the stored conversation: the provider's message as it came (rule 1)."""
    if call.mode is None and answer.messages and answer.messages[-1].get("role") == "assistant":
        return dict(answer.messages[-1])
    return {"role": "assistant", "content": answer.text}


class OpenAIResponses:
    name = "openai_responses"
    paths = ("/v1/responses", "/responses")
    endpoint = "/v1/responses"
    id_prefix = "resp_"

    def __init__(self, settings: ServerSettings) -> None:
        self.max_messages = settings.max_messages
        self.ttl_s = settings.responses_ttl_s
        self._private: ResponsesStore | None = None

    def store(self, engine: Any) -> ResponsesStore:
        state = getattr(engine, "state", None)
        if state is not None:
            return ResponsesStore(state, self.ttl_s)
        if self._private is None:
            self._private = private_store(self.ttl_s)
        return self._private

    def _messages(self, request: ResponsesRequest, history: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        messages = to_messages(request.instructions, request.input, history)
        if len(messages) > self.max_messages:
            raise WireError(400, f"input: {len(messages)} messages, the limit is {self.max_messages}",
                            code="too_many_messages", param="input")
        problems = validate_messages(messages)
        if problems:
            raise WireError(400, "input: " + "; ".join(problems), code="invalid_messages", param="input")
        return messages

    def _call(self, request: ResponsesRequest, messages: list[dict[str, Any]]) -> Call:
        question = split_question(messages)[0] if request.mode is not None else ""
        return Call(messages=messages, model=request.model, tools=to_tools(request.tools),
                    options=request_options(request), mode=request.mode, stream=bool(request.stream),
                    question=question, extras={"request": request, "echo": _echo(request)})

    def parse(self, data: Any, headers: Mapping[str, str]) -> Call:
        request = parse_request(data)
        if request.previous_response_id is not None:  # completed by prepare(), once the history is read
            to_messages(request.instructions, request.input)  # the input's own mistakes are named now
            return self._call(request, [])
        return self._call(request, self._messages(request, None))

    async def prepare(self, call: Call, engine: Any) -> Call:
        """``previous_response_id``: the stored conversation goes before the new input."""
        request: ResponsesRequest = call.extras["request"]
        if request.previous_response_id is None:  # function_call items sent back get their provider fields again
            messages = await restore(getattr(engine, "state", None), call.messages)
            return call if messages is None else replace(call, messages=messages)
        stored = await self.store(engine).get(request.previous_response_id)
        if stored is None:
            raise WireError(400, f"Previous response with id '{request.previous_response_id}' not found.",
                            code="previous_response_not_found", param="previous_response_id")
        messages = self._messages(request, stored.history)
        question = split_question(messages)[0] if request.mode is not None else ""
        return replace(call, messages=messages, question=question)

    async def keep(self, call: Call, answer: Answer, body: dict[str, Any], engine: Any) -> None:
        request: ResponsesRequest = call.extras["request"]
        await remember(getattr(engine, "state", None), answer, self.ttl_s)
        if request.store is False:
            return
        history = call.messages[1:] if request.instructions else list(call.messages)
        try:
            await self.store(engine).put(body, [*history, assistant_message(answer, call)])
        except Exception as exc:  # the answer itself is fine; only its continuation is lost
            logger.warning("could not store response %s: %s", body.get("id"), type(exc).__name__)

    def render(self, answer: Answer, call: Call, meta: ReplyMeta) -> dict[str, Any]:
        return response_body(answer, call, meta, output_items(answer))

    def stream(self, call: Call, meta: ReplyMeta) -> Any:
        from router.server.dialects.responses_stream import ResponsesStream

        return ResponsesStream(call, meta)

    def error(self, fail: HTTPFailure) -> tuple[int, dict[str, Any]]:
        return fail.status, fail.body()

    def routes(self, router: Any, metrics: Any) -> list[Any]:
        from router.server.dialects.responses_side import stored_routes

        return stored_routes(self, router, metrics)


__all__ = ["OpenAIResponses", "ResponsesRequest", "failed_body", "parse_request", "response_body", "shell", "usage"]
