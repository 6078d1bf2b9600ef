"""Streamed replies of the pipeline: when the head goes out, disconnects, deadlines, broken streams.

A stream starts its HTTP response only when the first piece of the answer exists, so
a request that fails before any output (every provider down, unknown model) gets a
real status code instead of a 200 with an error inside. After output has started, a
failure ends the stream with the dialect's error event and no completion marker: a
client never mistakes a truncated answer for a complete one. The bytes themselves are
the dialect's (``StreamWriter``); this module decides when they are sent.

Budget: a complete stream settles its reservation to the answer's cost. A stream the
client drops, the upstream cuts after output, or a shutdown ends keeps the
reservation as its charge (the provider generated, and billed, without telling us
how much): dropped streams are never free.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from router.server.asgi import Receive, Send, header_value, upstream_seconds
from router.server.dialects.base import Call
from router.server.http_errors import HTTPFailure, failure, from_exception
from router.server.spend import after_failure
from router.types import Answer

if TYPE_CHECKING:
    from router.server.pipeline import Pipeline

logger = logging.getLogger("router.server")
SSE_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache"),
               (b"x-accel-buffering", b"no")]


class StreamReply:
    def __init__(self, pipeline: Pipeline, call: Call, send: Send, started: float, budget: Any = None,
                 reservation: Any = None, caller: str | None = None) -> None:
        self.pipeline, self.call, self.send, self.started = pipeline, call, send, started
        self.budget, self.reservation = budget, reservation
        self.caller = caller
        self.meta = pipeline.meta()
        self.writer = pipeline.dialect.stream(call, self.meta)
        self.opened = False
        self.ended = False
        self.mode = "direct" if call.mode is None else call.mode
        self.route_reason = ""
        self.provider = ""
        self.model = ""

    async def serve(self, receive: Receive) -> int:
        """Run the stream while watching for the client hanging up (which cancels the work)."""
        task = asyncio.current_task()
        gone = asyncio.Event()

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            if not self.ended:  # uvicorn also reports "disconnect" once the response is complete
                gone.set()
                if task is not None:
                    task.cancel()

        watcher = asyncio.create_task(watch())
        try:
            return await self.run()
        except asyncio.CancelledError:
            if gone.is_set() and task is not None:
                task.uncancel()
                self.pipeline.metrics.errors.inc((*self.pipeline.labels, ("code", "client_disconnected")))
                return 499
            if not self.ended:  # a forced shutdown (uvicorn's graceful timeout): say so instead of going silent
                await self._error(failure(503, "the server is shutting down", code="server_shutdown", type="server_error"))
            raise
        finally:
            watcher.cancel()

    async def _open(self, first: bytes) -> None:
        headers = list(SSE_HEADERS)
        if self.provider:
            headers += [(b"x-router-provider", header_value(self.provider)), (b"x-router-model", header_value(self.model))]
        headers += [(b"x-router-mode", header_value(self.mode)), (b"x-router-route-reason", header_value(self.route_reason))]
        if self.call.reply_headers:
            headers += self.call.reply_headers
        await self.send({"type": "http.response.start", "status": 200, "headers": headers})
        self.opened = True
        head = self.writer.open(self.provider, self.model)
        await self.send({"type": "http.response.body", "body": head + first, "more_body": True})

    async def _write(self, data: bytes) -> None:
        if not self.opened:
            await self._open(data)
        else:
            await self.send({"type": "http.response.body", "body": data, "more_body": True})

    async def _error(self, fail: HTTPFailure) -> int:
        self.ended = True
        if not self.opened:
            return await self.pipeline.reply_failure(self.send, fail, self.call)
        self.pipeline.count_failure(fail, self.call)
        await self.send({"type": "http.response.body", "body": self.writer.error(fail), "more_body": False})
        return 200

    async def run(self) -> int:
        events = self.pipeline.events(self.call, self.meta, self.caller)
        writer = self.writer
        limit, chars = self.pipeline.max_reply_chars, 0
        try:
            async with asyncio.timeout(self.pipeline.settings.request_timeout_s):
                async for event in events:
                    kind = event.kind
                    if kind == "route":
                        self.provider, self.model, self.route_reason = event.provider, event.model, event.reason
                    elif kind == "mode":
                        self.mode = event.mode
                    elif kind == "restart" and self.opened:  # text already sent cannot be taken back
                        return await self._error(failure(502, f"the answer broke after it started: {event.reason}",
                                                         code="stream_broken", type="upstream_error"))
                    elif kind == "done":
                        if self.reservation is not None:
                            await self.budget.settle(self.reservation, event.answer.cost)
                        return await self._finish(event.answer)
                    elif kind == "text":
                        chars += len(event.text)
                        if chars > limit:  # the rest is not read: the upstream connection closes with the events
                            return await self._error(failure(
                                502, f"the reply passed limits.max_reply_chars ({limit:,} characters); the rest was "
                                "not read", code="reply_too_large", type="upstream_error"))
                    data = writer.event(event)
                    if data:
                        await self._write(data)
        except Exception as exc:
            if not self.opened:  # nothing was sent: the reservation goes back unless a provider may have billed
                await after_failure(self.budget, self.reservation, exc)
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

    async def _finish(self, answer: Answer) -> int:
        overhead_ms = max(0.0, time.perf_counter() - self.started - upstream_seconds(answer)) * 1000
        self.pipeline.record(answer, overhead_ms)
        if not self.opened:
            self.provider, self.model, self.mode = answer.provider, answer.model, answer.mode
            self.route_reason = answer.route_reason
        meta = self.meta
        final = type(meta)(meta.id, meta.created, overhead_ms)
        data = self.writer.finish(answer, final)
        keep = self.pipeline.keep
        if keep is not None:  # before the last byte: a follow-up may come the moment the client has it
            body = getattr(self.writer, "body", None)
            await keep(self.call, answer, body if body is not None else self.pipeline.dialect.render(answer, self.call, final),
                       self.pipeline.router)
        self.ended = True
        if not self.opened:
            await self._open(data)
            await self.send({"type": "http.response.body", "body": b"", "more_body": False})
        else:
            await self.send({"type": "http.response.body", "body": data, "more_body": False})
        return 200


__all__ = ["SSE_HEADERS", "StreamReply"]
