"""The one request pipeline every dialect's endpoint runs on.

``Gate`` (pure ASGI middleware, no per-request objects) checks the key in front of
everything (the protocol already capped the request's head). ``Pipeline`` is one
dialect's POST endpoint: the body read with its own deadline, then a slot (``Slots``:
in all and per key), the parse (the dialect's), the budget reservation
(``router.server.spend``), the request deadline, the engine call, settlement, metrics
and ``x-router-*`` headers; streamed replies continue in ``router.server.stream``.
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
from router.server.body_deadline import BodyDeadlines
from router.server.dialects.base import Call, Dialect, ReplyMeta, WireError, text_chars
from router.server.http_errors import HTTPFailure, failure, from_exception
from router.server.metrics import Metrics
from router.server.spend import Spending, after_failure
from router.server.status.decisions import decision_of
from router.types import Answer, Event

logger = logging.getLogger("router.server")

UNLISTED = "(unlisted)"
PRECOUNT_BYTES = 256 * 1024
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


class Slots:
    """Requests in flight, counted once their body is in: in all, and per key.

    A request that is still sending its body holds nothing (it has its own deadline,
    ``server.body_timeout_s``), so slow senders cannot shut others out; one key may hold
    at most ``max_concurrency_per_key`` slots, so one caller cannot take them all.
    """

    def __init__(self, settings: ServerSettings, metrics: Metrics, keys: int) -> None:
        self.metrics = metrics
        self.total = settings.max_concurrency
        per_key = settings.max_concurrency_per_key
        if per_key is None:
            per_key = max(1, settings.max_concurrency // 2) if keys > 1 else settings.max_concurrency
        self.per_key = per_key
        self._by_key: dict[str, int] = {}
        self.busy = failure(429, f"the server is at its concurrency limit ({settings.max_concurrency} requests in "
                            f"flight); retry after {settings.retry_after_s} s", code="server_busy",
                            type="rate_limit_error", retry_after=settings.retry_after_s)
        self.key_busy = failure(429, f"this key has {per_key} requests in flight, its share of the server "
                                f"(server.max_concurrency_per_key); retry after {settings.retry_after_s} s",
                                code="key_busy", type="rate_limit_error", retry_after=settings.retry_after_s)

    def take(self, key: str | None) -> HTTPFailure | None:
        """Take a slot for ``key``: None, or the 429 to answer instead."""
        metrics = self.metrics
        if metrics.in_flight >= self.total:
            metrics.rejected.inc()
            return self.busy
        if key is not None:
            held = self._by_key.get(key, 0)
            if held >= self.per_key:
                metrics.rejected.inc()
                return self.key_busy
            self._by_key[key] = held + 1
        metrics.in_flight += 1
        return None

    def give_back(self, key: str | None) -> None:
        self.metrics.in_flight -= 1
        if key is not None:
            held = self._by_key.get(key, 1) - 1
            if held:
                self._by_key[key] = held
            else:
                self._by_key.pop(key, None)


class Pipeline:
    """One dialect's POST endpoint: what every request goes through, whatever its wire format."""

    def __init__(self, router: Engine, settings: ServerSettings, metrics: Metrics, dialect: Dialect, *,
                 slots: Slots, spending: Spending, body_deadlines: BodyDeadlines) -> None:
        self.router, self.settings, self.metrics, self.dialect = router, settings, metrics, dialect
        self.slots, self.spending, self.body_deadlines = slots, spending, body_deadlines
        self.labels = (("endpoint", dialect.endpoint),)
        self.max_question_chars = router.config.limits.max_question_chars
        self.max_roles = 2 * settings.max_messages + 1000
        """``"role"`` keys a body may hold before it is refused unparsed (slack for tool schemas naming a role)."""
        self.max_reply_chars = router.config.limits.max_reply_chars
        self._listed = frozenset((name, m.id) for name, p in router.config.providers.items() for m in p.models)
        """Metric series are per listed model only: a caller's ad-hoc model names share one series."""
        # Optional dialect hooks around the answer (Responses: previous_response_id in, store: true out).
        self.prepare = getattr(dialect, "prepare", None)
        self.keep = getattr(dialect, "keep", None)

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

    async def reply_failure(self, send: Send, fail: HTTPFailure, call: Call | None = None, *, close: bool = False) -> int:
        """A failure before any reply byte: a real status code, in the dialect's error shape."""
        self.count_failure(fail, call)
        status, body = self.dialect.error(fail)
        headers = fail.headers()
        if call is not None and call.reply_headers:
            headers += call.reply_headers
        if close:  # the rest of the request may still be on its way: do not read it as the next one
            headers.append((b"connection", b"close"))
        await respond(send, status, dumps(body), headers)
        return status

    def meta(self, overhead_ms: float | None = None, reply_id: str | None = None) -> ReplyMeta:
        return ReplyMeta(reply_id or self.dialect.id_prefix + os.urandom(12).hex(), int(time.time()), overhead_ms)

    def parse(self, raw: bytes, scope: Scope) -> Call:
        if len(raw) > PRECOUNT_BYTES:  # parsing 140,000 messages costs ~0.5 s of the event loop: count them first
            roles = raw.count(b'"role"')
            if roles > self.max_roles:
                raise WireError(400, f"messages: about {roles:,} messages (counted before parsing), the limit is "
                                f"{self.settings.max_messages:,}", code="too_many_messages", param="messages")
        try:
            data = fastjson.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise WireError(400, f"the request body is not valid JSON ({exc})", code="invalid_json") from None
        except RecursionError:
            raise WireError(400, "the request body is nested too deeply to read (JSON deeper than about 1,000 levels)",
                            code="invalid_json") from None
        call = self.dialect.parse(data, ScopeHeaders(scope["headers"]))
        chars = text_chars(call.messages)
        if chars > self.max_question_chars:  # on every path, not only the modes' (aask checks its question too)
            raise WireError(400, f"messages: {chars:,} characters of text, more than limits.max_question_chars "
                            f"({self.max_question_chars:,})", code="question_too_long", param="messages")
        return call

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
        model = answer.model if (answer.provider, answer.model) in self._listed else UNLISTED
        metrics.record_answer(answer.provider, model, answer.usage.prompt_tokens, answer.usage.completion_tokens,
                              answer.cost, fell_back, answer.deployment)

    # -- one request ----------------------------------------------------------------------------------

    async def _handle(self, scope: Scope, receive: Receive, send: Send, started: float) -> int:
        settings = self.settings
        reader = self.body_deadlines.start()
        try:
            raw = await read_body(scope, receive, settings.max_body_bytes)
        except asyncio.CancelledError:
            if not self.body_deadlines.expired(reader):
                raise
            return await self.reply_failure(send, failure(
                408, f"the request body did not arrive within {settings.body_timeout_s:g} s (server.body_timeout_s)",
                code="body_timeout"), close=True)
        except BodyTooLarge:
            return await self.reply_failure(send, failure(
                413, f"the request body is larger than the limit of {settings.max_body_bytes} bytes",
                code="request_too_large"))
        except ClientGone:
            return 499
        finally:
            self.body_deadlines.stop(reader)
        key = scope.get("router.key")
        busy = self.slots.take(key)
        if busy is not None:
            return await self.reply_failure(send, busy)
        try:
            return await self._answer_body(raw, scope, receive, send, started)
        finally:
            self.slots.give_back(key)

    async def _answer_body(self, raw: bytes, scope: Scope, receive: Receive, send: Send, started: float) -> int:
        try:
            call = self.parse(raw, scope)
        except WireError as exc:
            return await self.reply_failure(send, failure(exc.status, str(exc), code=exc.code, param=exc.param))
        if self.prepare is not None:  # a dialect that completes the call from stored state (previous_response_id)
            try:
                call = await self.prepare(call, self.router)
            except WireError as exc:
                return await self.reply_failure(send, failure(exc.status, str(exc), code=exc.code, param=exc.param),
                                                call)
            except Exception as exc:
                return await self.reply_failure(send, from_exception(exc), call)
        budget = self.spending.budget(scope)
        reservation = None
        if budget is not None:
            try:
                reservation = await budget.reserve(self.spending.estimate(call, len(raw)))
            except Exception as exc:
                return await self.reply_failure(send, from_exception(exc), call)
        if call.stream:
            from router.server.stream import StreamReply

            return await StreamReply(self, call, send, started, budget, reservation,
                                     caller=scope.get("router.key")).serve(receive)
        reply = self.meta()
        try:
            async with asyncio.timeout(self.settings.request_timeout_s):
                answer = await self.answer(call, reply, scope.get("router.key"))
        except Exception as exc:
            await after_failure(budget, reservation, exc)
            fail = from_exception(exc)
            if fail.code == "internal_error":
                logger.exception("internal error while answering")
            return await self.reply_failure(send, fail, call)
        if budget is not None and reservation is not None:
            await budget.settle(reservation, answer.cost)
        overhead_ms = max(0.0, time.perf_counter() - started - upstream_seconds(answer)) * 1000
        self.record(answer, overhead_ms)
        body = self.dialect.render(answer, call, self.meta(overhead_ms, reply.id))
        if self.keep is not None:
            await self.keep(call, answer, body, self.router)
        headers = answer_headers(answer, overhead_ms)
        if call.reply_headers:
            headers += call.reply_headers
        await respond(send, 200, dumps(body), headers)
        return 200


class Gate:
    """Pure ASGI middleware in front of everything: the key, then the dialects' endpoints (or Starlette)."""

    def __init__(self, app: ASGIApp, *, keys: KeyCheck, settings: ServerSettings, metrics: Metrics,
                 pipelines: Mapping[str, Pipeline]) -> None:
        self.app, self.keys, self.settings, self.metrics = app, keys, settings, metrics
        self.pipelines = dict(pipelines)
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
            await pipeline(scope, receive, send)
            return
        await self.app(scope, receive, send)


__all__ = ["OPEN_PATHS", "BodyDeadlines", "Gate", "Pipeline", "ScopeHeaders", "Slots", "Spending"]
