"""The one request pipeline every dialect's endpoint runs on.

``Gate`` (pure ASGI middleware, no per-request objects) checks the key and the
concurrency limit in front of everything. ``Pipeline`` is one dialect's POST endpoint:
body read, parse (the dialect's), budget, the request deadline, the engine call,
metrics and ``x-router-*`` headers; streamed replies continue in ``router.server.stream``.
A dialect only translates (``router.server.dialects.base``): what a request goes
through is the same whichever wire format it came in.

Raw ASGI rather than Starlette's request/response objects, because every microsecond
here is added to every call.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

from router import fastjson
from router.config import ServerSettings
from router.server.asgi import (
    ASGIApp,
    BodyTooLarge,
    ClientGone,
    Engine,
    Receive,
    Scope,
    Send,
    answer_headers,
    dumps,
    read_body,
    respond,
    respond_failure,
    upstream_seconds,
)
from router.server.auth import KeyCheck
from router.server.dialects.base import Call, Dialect, ReplyMeta, WireError
from router.server.http_errors import HTTPFailure, failure, from_exception
from router.server.metrics import Metrics
from router.server.status.decisions import decision_of
from router.types import Answer, Event

logger = logging.getLogger("router.server")

OPEN_PATHS = frozenset({"/healthz", "/status", "/status.json"})  # status.json checks API and status keys itself


class ScopeHeaders(Mapping[str, str]):
    """The request headers as a read-only mapping, decoded only when a dialect asks for one."""

    __slots__ = ("_raw",)

    def __init__(self, raw: list[tuple[bytes, bytes]]) -> None:
        self._raw = raw

    def __getitem__(self, name: str) -> str:
        wanted = name.lower().encode("latin-1")
        for key, value in self._raw:
            if key == wanted:
                return value.decode("latin-1")
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return (key.decode("latin-1") for key, _ in self._raw)

    def __len__(self) -> int:
        return len(self._raw)


class Pipeline:
    """One dialect's POST endpoint: what every request goes through, whatever its wire format."""

    def __init__(self, router: Engine, settings: ServerSettings, metrics: Metrics, dialect: Dialect) -> None:
        self.router, self.settings, self.metrics, self.dialect = router, settings, metrics, dialect
        self.labels = (("endpoint", dialect.endpoint),)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        status = 500
        try:
            status = await self._handle(scope, receive, send, started)
        finally:
            metrics = self.metrics
            metrics.requests.inc((*self.labels, ("status", str(status))))
            metrics.latency.observe(time.perf_counter() - started, self.labels)

    # -- the steps shared by JSON and streamed replies ----------------------------------------------

    def count_failure(self, fail: HTTPFailure, call: Call | None = None) -> HTTPFailure:
        self.metrics.errors.inc((*self.labels, ("code", fail.code)))
        self.metrics.decisions.add(decision_of(None, dialect=self.dialect.name, status=fail.status, outcome=fail.code,
                                               model=(call.model or "") if call is not None else ""))
        if fail.status >= 500:
            logger.warning("%s failed: %s %s: %s", self.dialect.endpoint, fail.status, fail.code, fail.message)
        return fail

    async def reply_failure(self, send: Send, fail: HTTPFailure, call: Call | None = None) -> int:
        """A failure before any reply byte: a real status code, in the dialect's error shape."""
        self.count_failure(fail, call)
        status, body = self.dialect.error(fail)
        headers = fail.headers()
        if call is not None and call.reply_headers:
            headers += call.reply_headers
        await respond(send, status, dumps(body), headers)
        return status

    def meta(self, overhead_ms: float | None = None, reply_id: str | None = None) -> ReplyMeta:
        return ReplyMeta(reply_id or self.dialect.id_prefix + os.urandom(12).hex(), int(time.time()), overhead_ms)

    def parse(self, raw: bytes, scope: Scope) -> Call:
        try:
            data = fastjson.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise WireError(400, f"the request body is not valid JSON ({exc})", code="invalid_json") from None
        return self.dialect.parse(data, ScopeHeaders(scope["headers"]))

    def budget(self, scope: Scope) -> Any:
        """The caller's daily USD budget (``server.budget_usd_per_day_per_key``), scoped by its key's variable name."""
        limit = self.settings.budget_usd_per_day_per_key
        name = scope.get("router.key")
        state = getattr(self.router, "state", None)
        if limit is None or name is None or state is None:
            return None
        from router.state.limits import Budget

        return Budget(state, f"key:{name}", limit)

    def answer(self, call: Call, reply: ReplyMeta, caller: str | None) -> Any:
        """The engine call for a JSON reply (an awaitable Answer). The reply's id becomes ``Answer.id``
        (what ``POST /v1/feedback`` takes); ``caller`` is the key's name (feedback only from it)."""
        router = self.router
        if call.mode is not None:
            return router.aask(call.question, history=call.messages[:-1], mode=call.mode, model=call.model,
                               options=call.options, answer_id=reply.id, caller=caller)
        return router.achat(call.messages, tools=call.tools, model=call.model, options=call.options,
                            answer_id=reply.id, caller=caller)

    def events(self, call: Call, reply: ReplyMeta, caller: str | None) -> AsyncIterator[Event]:
        router = self.router
        if call.mode is not None:
            return router.astream(call.question, history=call.messages[:-1], mode=call.mode, model=call.model,
                                  options=call.options, answer_id=reply.id, caller=caller)
        return router.astream_chat(call.messages, tools=call.tools, model=call.model, options=call.options,
                                   answer_id=reply.id, caller=caller)

    def record(self, answer: Answer, overhead_ms: float) -> None:
        metrics = self.metrics
        metrics.decisions.add(decision_of(answer, dialect=self.dialect.name, status=200,
                                          tier=self.router.config.routing.tier_of(answer.provider, answer.model) or ""))
        metrics.overhead.observe(overhead_ms / 1000, self.labels)
        fell_back = any(not a.ok and a.error_kind not in ("no_key", "not_installed") for a in answer.attempts)
        metrics.record_answer(answer.provider, answer.model, answer.usage.prompt_tokens, answer.usage.completion_tokens,
                              answer.cost, fell_back, answer.deployment)

    # -- one request ----------------------------------------------------------------------------------

    async def _handle(self, scope: Scope, receive: Receive, send: Send, started: float) -> int:
        settings = self.settings
        try:
            call = self.parse(await read_body(scope, receive, settings.max_body_bytes), scope)
        except BodyTooLarge:
            return await self.reply_failure(send, failure(
                413, f"the request body is larger than the limit of {settings.max_body_bytes} bytes",
                code="request_too_large"))
        except ClientGone:
            return 499
        except WireError as exc:
            return await self.reply_failure(send, failure(exc.status, str(exc), code=exc.code, param=exc.param))
        budget = self.budget(scope)
        try:
            if budget is not None:
                await budget.check()
        except Exception as exc:
            return await self.reply_failure(send, from_exception(exc), call)
        if call.stream:
            from router.server.stream import StreamReply

            return await StreamReply(self, call, send, started, budget, caller=scope.get("router.key")).serve(receive)
        reply = self.meta()
        try:
            async with asyncio.timeout(settings.request_timeout_s):
                answer = await self.answer(call, reply, scope.get("router.key"))
            if budget is not None:
                await budget.charge(answer.cost or 0.0)
        except Exception as exc:
            fail = from_exception(exc)
            if fail.code == "internal_error":
                logger.exception("internal error while answering")
            return await self.reply_failure(send, fail, call)
        overhead_ms = max(0.0, time.perf_counter() - started - upstream_seconds(answer)) * 1000
        self.record(answer, overhead_ms)
        body = self.dialect.render(answer, call, self.meta(overhead_ms, reply.id))
        headers = answer_headers(answer, overhead_ms)
        if call.reply_headers:
            headers += call.reply_headers
        await respond(send, 200, dumps(body), headers)
        return 200


class Gate:
    """Pure ASGI middleware in front of everything: keys, the in-flight limit, the dialects' endpoints."""

    def __init__(self, app: ASGIApp, *, keys: KeyCheck, settings: ServerSettings, metrics: Metrics,
                 pipelines: Mapping[str, Pipeline]) -> None:
        self.app, self.keys, self.settings, self.metrics = app, keys, settings, metrics
        self.pipelines = dict(pipelines)
        self._busy = failure(429, f"the server is at its concurrency limit ({settings.max_concurrency} requests in "
                             f"flight); retry after {settings.retry_after_s} s", code="server_busy",
                             type="rate_limit_error", retry_after=settings.retry_after_s)
        self._unauthorized = failure(401, "invalid or missing API key: send 'Authorization: Bearer <key>' with a key "
                                     "this server accepts", code="invalid_api_key")

    async def _refuse(self, send: Send, fail: HTTPFailure, pipeline: Pipeline | None, endpoint: str) -> None:
        self.metrics.requests.inc((("endpoint", endpoint), ("status", str(fail.status))))
        if pipeline is None:
            await respond_failure(send, fail)
            return
        status, body = pipeline.dialect.error(fail)
        await respond(send, status, dumps(body), fail.headers())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        pipeline = self.pipelines.get(path) if scope["method"] == "POST" else None
        if not self.keys.open and path not in OPEN_PATHS:
            authorization = None
            for name, value in scope["headers"]:
                if name == b"authorization":
                    authorization = value
                    break
                if name == b"x-api-key":  # Anthropic's SDK sends its key here
                    authorization = b"Bearer " + value
            key_name = self.keys.which(authorization)
            if key_name is None:
                endpoint = pipeline.dialect.endpoint if pipeline is not None else "other"
                await self._refuse(send, self._unauthorized, pipeline, endpoint)
                return
            scope["router.key"] = key_name
        if pipeline is not None:
            metrics = self.metrics
            if metrics.in_flight >= self.settings.max_concurrency:
                metrics.rejected.inc()
                await self._refuse(send, self._busy, pipeline, pipeline.dialect.endpoint)
                return
            metrics.in_flight += 1
            try:
                await pipeline(scope, receive, send)
            finally:
                metrics.in_flight -= 1
            return
        await self.app(scope, receive, send)


__all__ = ["OPEN_PATHS", "Gate", "Pipeline", "ScopeHeaders"]
