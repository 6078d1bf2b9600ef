"""POST /v1/chat/completions as a plain ASGI callable: parse, choose the way to answer, write.

Streams start their HTTP response only when the first piece of the answer exists,
so a request that fails before any output (every provider down, unknown model) gets
a real status code instead of a 200 with an error inside. After output has started,
a failure ends the stream with an OpenAI-style error event and no ``[DONE]``: a
client never mistakes a truncated answer for a complete one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from router import fastjson
from router.config import ServerSettings
from router.loop.chain import validate_messages
from router.server.app import (
    BodyTooLarge,
    ClientGone,
    Engine,
    Receive,
    Scope,
    Send,
    answer_headers,
    header_value,
    read_body,
    respond,
    respond_failure,
    upstream_seconds,
)
from router.server.http_errors import HTTPFailure, failure, from_exception
from router.server.metrics import Metrics
from router.server.wire import (
    DONE,
    ChatCompletionRequest,
    ChunkWriter,
    WireError,
    completion_body,
    completion_id,
    dumps,
    finish_reason,
    parse_request,
    request_options,
    router_extension,
    split_question,
    sse_error,
)
from router.types import Answer

logger = logging.getLogger("router.server")
ENDPOINT = (("endpoint", "/v1/chat/completions"),)
SSE_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache"),
               (b"x-accel-buffering", b"no")]


class ChatEndpoint:
    def __init__(self, router: Engine, settings: ServerSettings, metrics: Metrics) -> None:
        self.router, self.settings, self.metrics = router, settings, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        status = 500
        try:
            status = await self._handle(scope, receive, send, started)
        finally:
            metrics = self.metrics
            metrics.requests.inc((*ENDPOINT, ("status", str(status))))
            metrics.latency.observe(time.perf_counter() - started, ENDPOINT)

    def _fail(self, fail: HTTPFailure) -> HTTPFailure:
        self.metrics.errors.inc((*ENDPOINT, ("code", fail.code)))
        if fail.status >= 500:
            logger.warning("chat completion failed: %s %s: %s", fail.status, fail.code, fail.message)
        return fail

    async def _handle(self, scope: Scope, receive: Receive, send: Send, started: float) -> int:
        try:
            request = self._parse(await read_body(scope, receive, self.settings.max_body_bytes))
        except BodyTooLarge:
            fail = self._fail(failure(413, f"the request body is larger than the limit of {self.settings.max_body_bytes}"
                                      " bytes", code="request_too_large"))
            await respond_failure(send, fail)
            return fail.status
        except ClientGone:
            return 499
        except WireError as exc:
            fail = self._fail(failure(exc.status, str(exc), code=exc.code, param=exc.param))
            await respond_failure(send, fail)
            return fail.status
        budget = self._budget(scope)
        try:
            if budget is not None:
                await budget.check()
        except Exception as exc:
            fail = self._fail(from_exception(exc))
            await respond_failure(send, fail)
            return fail.status
        if request.stream:
            return await self._stream(request, receive, send, started, budget)
        try:
            async with asyncio.timeout(self.settings.request_timeout_s):
                answer = await self._answer(request)
            if budget is not None:
                await budget.charge(answer.cost or 0.0)
        except Exception as exc:
            fail = self._fail(from_exception(exc))
            if fail.code == "internal_error":
                logger.exception("internal error while answering")
            await respond_failure(send, fail)
            return fail.status
        overhead_ms = max(0.0, time.perf_counter() - started - upstream_seconds(answer)) * 1000
        self._record(answer, overhead_ms)
        body = completion_body(answer, id=completion_id(), created=int(time.time()), overhead_ms=overhead_ms)
        await respond(send, 200, dumps(body), answer_headers(answer, overhead_ms))
        return 200

    def _budget(self, scope: Scope) -> Any:
        """The caller's daily USD budget (``server.budget_usd_per_day_per_key``), scoped by its key's variable name."""
        limit = self.settings.budget_usd_per_day_per_key
        name = scope.get("router.key")
        state = getattr(self.router, "state", None)
        if limit is None or name is None or state is None:
            return None
        from router.state.limits import Budget

        return Budget(state, f"key:{name}", limit)

    def _parse(self, raw: bytes) -> ChatCompletionRequest:
        try:
            data = fastjson.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise WireError(400, f"the request body is not valid JSON ({exc})", code="invalid_json") from None
        request = parse_request(data, max_messages=self.settings.max_messages)
        problems = validate_messages(request.messages)
        if problems:
            raise WireError(400, "messages: " + "; ".join(problems), code="invalid_messages", param="messages")
        return request

    async def _answer(self, request: ChatCompletionRequest) -> Answer:
        options = request_options(request)
        if request.mode is not None:
            question, history = split_question(request.messages)
            return await self.router.aask(question, history=history, mode=request.mode, model=request.model,
                                          options=options)
        return await self.router.achat(request.messages, tools=request.tools, model=request.model, options=options)

    def _events(self, request: ChatCompletionRequest) -> AsyncIterator[Any]:
        options = request_options(request)
        if request.mode is not None:
            question, history = split_question(request.messages)
            return self.router.astream(question, history=history, mode=request.mode, model=request.model,
                                       options=options)
        return self.router.astream_chat(request.messages, tools=request.tools, model=request.model, options=options)

    def _record(self, answer: Answer, overhead_ms: float) -> None:
        metrics = self.metrics
        metrics.overhead.observe(overhead_ms / 1000, ENDPOINT)
        fell_back = any(not a.ok and a.error_kind not in ("no_key", "not_installed") for a in answer.attempts)
        metrics.record_answer(answer.provider, answer.model, answer.usage.prompt_tokens, answer.usage.completion_tokens,
                              answer.cost, fell_back)

    # -- streaming ---------------------------------------------------------------------------------

    async def _stream(self, request: ChatCompletionRequest, receive: Receive, send: Send, started: float,
                      budget: Any = None) -> int:
        task = asyncio.current_task()
        gone = asyncio.Event()
        stream = _Stream(self, request, send, started)
        stream.budget = budget

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            if not stream.ended:  # uvicorn also reports "disconnect" once the response is complete
                gone.set()
                if task is not None:
                    task.cancel()

        watcher = asyncio.create_task(watch())
        try:
            return await stream.run()
        except asyncio.CancelledError:
            if gone.is_set() and task is not None:
                task.uncancel()
                self.metrics.errors.inc((*ENDPOINT, ("code", "client_disconnected")))
                return 499
            if not stream.ended:  # a forced shutdown (uvicorn's graceful timeout): say so instead of going silent
                await stream.abort("the server is shutting down", code="server_shutdown", status=503)
            raise
        finally:
            watcher.cancel()


class _Stream:
    def __init__(self, endpoint: ChatEndpoint, request: ChatCompletionRequest, send: Send, started: float) -> None:
        self.endpoint, self.request, self.send, self.started = endpoint, request, send, started
        self.gateway = request.mode is None
        self.writer = ChunkWriter(completion_id(), request.model)
        self.opened = False
        self.ended = False
        self.mode = "direct" if request.mode is None else request.mode
        self.route_reason = ""
        self.provider = ""
        self.model = ""
        self.calls = 0
        self.budget: Any = None

    async def _open(self, first: bytes) -> None:
        headers = list(SSE_HEADERS)
        if self.provider:
            headers += [(b"x-router-provider", header_value(self.provider)), (b"x-router-model", header_value(self.model))]
        headers += [(b"x-router-mode", header_value(self.mode)), (b"x-router-route-reason", header_value(self.route_reason))]
        await self.send({"type": "http.response.start", "status": 200, "headers": headers})
        self.opened = True
        role = self.writer.delta({"role": "assistant", "content": ""})
        await self.send({"type": "http.response.body", "body": role + first, "more_body": True})

    async def _write(self, data: bytes) -> None:
        if not self.opened:
            await self._open(data)
        else:
            await self.send({"type": "http.response.body", "body": data, "more_body": True})

    async def abort(self, message: str, *, code: str, status: int) -> None:
        fail = failure(status, message, code=code, type="server_error")
        await self._error(fail)

    async def _error(self, fail: HTTPFailure) -> int:
        self.ended = True
        self.endpoint._fail(fail)
        if not self.opened:
            await respond_failure(self.send, fail)
            return fail.status
        await self.send({"type": "http.response.body", "body": sse_error(fail.body()), "more_body": False})
        return 200

    async def run(self) -> int:
        events = self.endpoint._events(self.request)
        try:
            async with asyncio.timeout(self.endpoint.settings.request_timeout_s):
                async for event in events:
                    kind = event.kind
                    if kind == "text":
                        if event.text:
                            await self._write(self.writer.text(event.text, reasoning=event.reasoning))
                    elif kind == "tool_call":
                        if self.gateway:  # server-side tools (mode react) are the server's business: records only
                            await self._write(self._tool_call(event))
                    elif kind == "route":
                        self.provider, self.model, self.route_reason = event.provider, event.model, event.reason
                        if not self.opened:
                            self.writer.model = f"{event.provider}/{event.model}"
                    elif kind == "mode":
                        self.mode = event.mode
                    elif kind == "restart" and self.opened:  # text already sent cannot be taken back
                        return await self._error(failure(502, f"the answer broke after it started: {event.reason}",
                                                         code="stream_broken", type="upstream_error"))
                    elif kind == "done":
                        if self.budget is not None:
                            await self.budget.charge(event.answer.cost or 0.0)
                        return await self._finish(event.answer)
        except Exception as exc:
            fail = from_exception(exc)
            if fail.code == "internal_error":
                logger.exception("internal error while streaming")
            return await self._error(fail)
        finally:
            aclose = getattr(events, "aclose", None)
            if aclose is not None:
                await aclose()
        return await self._error(failure(502, "the answer stream ended without a final event", code="stream_incomplete",
                                         type="upstream_error"))

    def _tool_call(self, event: Any) -> bytes:
        call = {"index": self.calls, "id": event.call_id, "type": "function",
                "function": {"name": event.name, "arguments": event.arguments}}
        self.calls += 1
        return self.writer.delta({"tool_calls": [call]})

    async def _finish(self, answer: Answer) -> int:
        overhead_ms = max(0.0, time.perf_counter() - self.started - upstream_seconds(answer)) * 1000
        self.endpoint._record(answer, overhead_ms)
        if not self.opened:
            self.provider, self.model, self.mode = answer.provider, answer.model, answer.mode
            self.route_reason = answer.route_reason
        self.writer.model = f"{answer.provider}/{answer.model}" if answer.provider else answer.model
        pieces = []
        if self.gateway and answer.tool_calls and not self.calls:  # calls the stream did not announce one by one
            pieces += [self.writer.delta({"tool_calls": [{**c.to_dict(), "index": i}]}) for i, c in enumerate(answer.tool_calls)]
        pieces.append(self.writer.delta({}, finish_reason(answer), router=router_extension(answer, overhead_ms=overhead_ms)))
        options = self.request.stream_options
        if options is not None and options.include_usage:
            pieces.append(self.writer.usage(answer))
        pieces.append(DONE)
        data = b"".join(pieces)
        self.ended = True
        if not self.opened:
            await self._open(data)
            await self.send({"type": "http.response.body", "body": b"", "more_body": False})
        else:
            await self.send({"type": "http.response.body", "body": data, "more_body": False})
        return 200


__all__ = ["ChatEndpoint"]
