"""The ASGI app: Starlette for the small endpoints and the lifespan, a lean path for chat completions.

``POST /v1/chat/completions`` is handled by a plain ASGI callable reached straight
from the gate (auth, concurrency limit) without Starlette's request/response objects,
because every microsecond there is added to every call. Three ways to answer:

* the caller sent ``tools``: a transparent gateway (``achat`` / ``astream_chat``) that
  returns the model's tool calls unchanged and checks the chain the caller sends back;
* the caller sent ``mode``: the router's answering modes (``aask`` / ``astream``);
  server-side tools run only in mode react;
* neither: one routed completion (``achat``).
"""

from __future__ import annotations

import inspect
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, MutableMapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol
from urllib.parse import quote

from router import fastjson
from router.config import RouterConfig, ServerSettings
from router.server.auth import KeyCheck
from router.server.http_errors import HTTPFailure, failure
from router.server.metrics import Metrics
from router.types import Answer, Event, RequestOptions

logger = logging.getLogger("router.server")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

CHAT_PATHS = frozenset({"/v1/chat/completions", "/chat/completions"})
OPEN_PATHS = frozenset({"/healthz"})


class Engine(Protocol):
    """What the server needs from ``router.Router`` (the async core)."""

    config: RouterConfig

    async def aask(self, question: str, *, history: Sequence[Mapping[str, Any]] | None = None, mode: str | None = None,
                   provider: str | None = None, model: str | None = None, options: RequestOptions | None = None,
                   on_event: Callable[[Event], None] | None = None, max_steps: int | None = None) -> Answer: ...

    def astream(self, question: str, *, history: Sequence[Mapping[str, Any]] | None = None, mode: str | None = None,
                provider: str | None = None, model: str | None = None,
                options: RequestOptions | None = None) -> AsyncIterator[Event]: ...

    async def achat(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                    provider: str | None = None, model: str | None = None,
                    options: RequestOptions | None = None) -> Answer: ...

    def astream_chat(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                     provider: str | None = None, model: str | None = None,
                     options: RequestOptions | None = None) -> AsyncIterator[Event]: ...

    def models(self) -> list[tuple[str, str]]: ...

    async def aclose(self) -> None: ...


# --- raw ASGI helpers --------------------------------------------------------------------------


async def respond(send: Send, status: int, body: bytes, headers: Iterable[tuple[bytes, bytes]] = (),
                  content_type: bytes = b"application/json") -> None:
    """A complete response; ``OnePieceHttpToolsProtocol`` turns the two messages into one write."""
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", content_type), (b"content-length", str(len(body)).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


async def respond_failure(send: Send, fail: HTTPFailure) -> None:
    await respond(send, fail.status, _dumps(fail.body()), fail.headers())


def _dumps(value: Any) -> bytes:
    return fastjson.dumps(value)


def header_value(text: str) -> bytes:
    """Headers are latin-1 without line breaks: anything else (a Chinese route reason) is percent-encoded."""
    if text.isascii() and text.isprintable():
        return text.encode()[:1024]
    return quote(text, safe=" !#$&'()*+,-./:;<=>?@[]^_`{|}~\"").encode()[:1024]


class BodyTooLarge(Exception):
    pass


class ClientGone(Exception):
    pass


async def read_body(scope: Scope, receive: Receive, limit: int) -> bytes:
    for name, value in scope["headers"]:
        if name == b"content-length":
            if int(value or 0) > limit:
                raise BodyTooLarge
            break
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone
        body = message.get("body", b"")
        size += len(body)
        if size > limit:
            raise BodyTooLarge
        chunks.append(body)
        if not message.get("more_body"):
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def upstream_seconds(answer: Answer) -> float:
    """Time spent waiting for providers (and tools): what is not the router's overhead."""
    waited = sum(a.latency_s + a.wait_s for a in answer.attempts)
    return waited + sum(r.duration_s for r in answer.tool_records)


def answer_headers(answer: Answer, overhead_ms: float | None) -> list[tuple[bytes, bytes]]:
    headers = [
        (b"x-router-provider", header_value(answer.provider)),
        (b"x-router-model", header_value(answer.model)),
        (b"x-router-mode", header_value(answer.mode)),
        (b"x-router-route-reason", header_value(answer.route_reason)),
    ]
    if overhead_ms is not None:
        headers.append((b"x-router-overhead-ms", f"{overhead_ms:.3f}".encode()))
    return headers


# --- the gate: auth and the concurrency limit, in front of everything ---------------------------


class Gate:
    """Pure ASGI middleware (no per-request objects): keys, the in-flight limit, the chat fast path."""

    def __init__(self, app: Callable[..., Awaitable[None]], *, keys: KeyCheck, settings: ServerSettings,
                 metrics: Metrics, chat: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app, self.keys, self.settings, self.metrics, self.chat = app, keys, settings, metrics, chat
        self._busy = failure(429, f"the server is at its concurrency limit ({settings.max_concurrency} requests in "
                             f"flight); retry after {settings.retry_after_s} s", code="server_busy",
                             type="rate_limit_error", retry_after=settings.retry_after_s)
        self._unauthorized = failure(401, "invalid or missing API key: send 'Authorization: Bearer <key>' with a key "
                                     "this server accepts", code="invalid_api_key")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if not self.keys.open and path not in OPEN_PATHS:
            authorization = None
            for name, value in scope["headers"]:
                if name == b"authorization":
                    authorization = value
                    break
            key_name = self.keys.which(authorization)
            if key_name is None:
                self.metrics.requests.inc((("endpoint", path if path in CHAT_PATHS else "other"), ("status", "401")))
                await respond_failure(send, self._unauthorized)
                return
            scope["router.key"] = key_name
        if path in CHAT_PATHS and scope["method"] == "POST":
            metrics = self.metrics
            if metrics.in_flight >= self.settings.max_concurrency:
                metrics.rejected.inc()
                metrics.requests.inc((("endpoint", "/v1/chat/completions"), ("status", "429")))
                await respond_failure(send, self._busy)
                return
            metrics.in_flight += 1
            try:
                await self.chat(scope, receive, send)
            finally:
                metrics.in_flight -= 1
            return
        await self.app(scope, receive, send)


def create_app(router: Engine, settings: ServerSettings | None = None, *, keys: KeyCheck | None = None,
               open_circuits: Callable[[], Iterable[tuple[str, str]]] | None = None) -> Any:
    """The ASGI app serving ``router``; closing the app (lifespan shutdown) closes the router.

    ``keys`` defaults to the variables named in ``settings.api_key_envs`` (none: open,
    which ``python -m router serve`` allows on loopback addresses only).
    """
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from router.server.chat import ChatEndpoint

    settings = settings or router.config.server
    if keys is None:
        keys = KeyCheck.from_env(settings.api_key_envs, host="127.0.0.1", source=router.config.source)
    if keys.open:
        logger.warning("no API keys configured (server.api_key_envs): every caller is accepted")
    if open_circuits is None:
        open_circuits = getattr(router, "open_circuits", None)
    metrics = Metrics(open_circuits)
    chat = ChatEndpoint(router, settings, metrics)
    created = int(time.time())

    async def models(request: Request) -> Response:
        data = [{"id": model_id, "object": "model", "created": created, "owned_by": owner}
                for model_id, owner in router.models()]
        metrics.requests.inc((("endpoint", "/v1/models"), ("status", "200")))
        return Response(_dumps({"object": "list", "data": data}), media_type="application/json")

    async def healthz(request: Request) -> Response:
        return Response(b'{"status":"ok","in_flight":%d}' % metrics.in_flight, media_type="application/json")

    async def prometheus(request: Request) -> Response:
        circuits: Any = metrics.open_circuits() if metrics.open_circuits is not None else ()
        if inspect.isawaitable(circuits):
            circuits = await circuits
        return Response(metrics.render(circuits), media_type="text/plain; version=0.0.4; charset=utf-8")

    async def not_found(request: Request, exc: Exception) -> Response:
        fail = failure(404, f"no such endpoint: {request.method} {request.url.path}", code="not_found")
        return Response(_dumps(fail.body()), status_code=404, media_type="application/json")

    async def wrong_method(request: Request, exc: Exception) -> Response:
        fail = failure(405, f"method {request.method} not allowed on {request.url.path}", code="method_not_allowed")
        return Response(_dumps(fail.body()), status_code=405, media_type="application/json")

    async def internal(request: Request, exc: Exception) -> Response:
        logger.error("internal error on %s %s: %s", request.method, request.url.path, type(exc).__name__)
        fail = failure(500, f"internal error ({type(exc).__name__}); see the server log", code="internal_error",
                       type="server_error")
        return Response(_dumps(fail.body()), status_code=500, media_type="application/json")

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await router.aclose()

    routes = [
        Route("/v1/chat/completions", chat, methods=["POST"]),
        Route("/v1/models", models, methods=["GET"]),
        Route("/models", models, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/metrics", prometheus, methods=["GET"]),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(Gate, keys=keys, settings=settings, metrics=metrics, chat=chat)],
        exception_handlers={404: not_found, 405: wrong_method, Exception: internal},
        lifespan=lifespan,
    )
    app.state.metrics = metrics
    app.state.router = router
    return app


__all__ = ["CHAT_PATHS", "Engine", "Gate", "answer_headers", "create_app", "read_body", "respond", "upstream_seconds"]
