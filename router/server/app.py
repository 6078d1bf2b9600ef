"""The ASGI app: Starlette for the small endpoints and the lifespan, the pipeline for the dialects.

Each dialect's POST endpoint (``router.server.dialects``) is a ``Pipeline`` reached
straight from the ``Gate`` (auth, concurrency limit), without Starlette's request and
response objects; Starlette serves ``/v1/models``, ``/healthz``, ``/metrics`` and the
error pages.
"""

from __future__ import annotations

import inspect
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any

from router.config import ServerSettings
from router.server import dialects as _dialects
from router.server.asgi import (
    Engine,
    answer_headers,
    dumps,
    header_value,
    read_body,
    respond,
    upstream_seconds,
)
from router.server.auth import KeyCheck
from router.server.http_errors import failure
from router.server.metrics import Metrics
from router.server.pipeline import BodyDeadlines, Gate, Pipeline, Slots, Spending
from router.server.protocol import limit_head_bytes

logger = logging.getLogger("router.server")


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

    settings = settings or router.config.server
    if keys is None:
        keys = KeyCheck.from_env(settings.api_key_envs, host="127.0.0.1", source=router.config.source)
    if keys.open:
        logger.warning("no API keys configured (server.api_key_envs): every caller is accepted")
    if open_circuits is None:
        open_circuits = getattr(router, "open_circuits", None)
    metrics = Metrics(open_circuits, decisions=settings.status_decisions)
    limit_head_bytes(settings.max_header_bytes)
    dialects = _dialects.load(settings)
    slots, spending = Slots(settings, metrics, keys.count), Spending(router, settings)
    body_deadlines = BodyDeadlines(settings.body_timeout_s)
    pipelines = {path: pipeline
                 for pipeline in (Pipeline(router, settings, metrics, d, slots=slots, spending=spending,
                                           body_deadlines=body_deadlines) for d in dialects)
                 for path in pipeline.dialect.paths}
    created = int(time.time())

    async def models(request: Request) -> Response:
        metrics.requests.inc((("endpoint", "/v1/models"), ("status", "200")))
        if "anthropic-version" in request.headers:  # the Anthropic SDK's list shape
            from router.server.dialects.anthropic_side import models_list

            return Response(dumps(models_list(router.models(), created)), media_type="application/json")
        data = [{"id": model_id, "object": "model", "created": created, "owned_by": owner}
                for model_id, owner in router.models()]
        return Response(dumps({"object": "list", "data": data}), media_type="application/json")

    async def healthz(request: Request) -> Response:
        return Response(b'{"status":"ok","in_flight":%d}' % metrics.in_flight, media_type="application/json")

    async def prometheus(request: Request) -> Response:
        circuits: Any = metrics.open_circuits() if metrics.open_circuits is not None else ()
        if inspect.isawaitable(circuits):
            circuits = await circuits
        return Response(metrics.render(circuits), media_type="text/plain; version=0.0.4; charset=utf-8")

    async def not_found(request: Request, exc: Exception) -> Response:
        fail = failure(404, f"no such endpoint: {request.method} {request.url.path}", code="not_found")
        return Response(dumps(fail.body()), status_code=404, media_type="application/json")

    async def wrong_method(request: Request, exc: Exception) -> Response:
        fail = failure(405, f"method {request.method} not allowed on {request.url.path}", code="method_not_allowed")
        return Response(dumps(fail.body()), status_code=405, media_type="application/json")

    async def internal(request: Request, exc: Exception) -> Response:
        logger.error("internal error on %s %s: %s", request.method, request.url.path, type(exc).__name__)
        fail = failure(500, f"internal error ({type(exc).__name__}); see the server log", code="internal_error",
                       type="server_error")
        return Response(dumps(fail.body()), status_code=500, media_type="application/json")

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        try:
            yield
        finally:
            body_deadlines.close()
            await router.aclose()

    from router.server import feedback
    from router.server.status.endpoint import status_routes

    status_keys = (KeyCheck.from_env(settings.status_key_envs, host="127.0.0.1", source=router.config.source)
                   if settings.status_key_envs else None)
    routes = [
        *(Route(path, pipeline, methods=["POST"]) for path, pipeline in pipelines.items()),
        *status_routes(router, metrics, metrics.decisions, settings, keys, status_keys),
        *feedback.routes(router, metrics),  # POST /v1/feedback (routing.learning)
        Route("/v1/models", models, methods=["GET"]),
        Route("/models", models, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/metrics", prometheus, methods=["GET"]),
    ]
    for dialect in dialects:  # a dialect's own side endpoints (stored responses, token counts), if it has any
        extra = getattr(dialect, "routes", None)
        if extra is not None:
            routes += extra(router, metrics)
    app = Starlette(
        routes=routes,
        middleware=[Middleware(Gate, keys=keys, settings=settings, metrics=metrics, pipelines=pipelines)],
        exception_handlers={404: not_found, 405: wrong_method, Exception: internal},
        lifespan=lifespan,
    )
    app.state.metrics = metrics
    app.state.router = router
    return app


# Re-exported for code that imported these from here before the pipeline split.
__all__ = ["Engine", "Gate", "answer_headers", "create_app", "header_value", "read_body", "respond", "upstream_seconds"]
