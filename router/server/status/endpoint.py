"""``GET /status`` (the page) and ``GET /status.json`` (its data), served by the gateway itself.

The page is one static file with its CSS and script inline: no CDN, so it works on
an air-gapped host. It holds no data; the data needs a key, the API's own or one of
``server.status_key_envs`` (an operator can watch without being able to spend).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from router.config import ServerSettings
    from router.server.auth import KeyCheck
    from router.server.metrics import Metrics
    from router.server.status.decisions import DecisionLog

STATUS_PATHS = frozenset({"/status", "/status.json"})
"""Open at the gate: the page is static, and status.json checks its own keys (API or status keys)."""


@cache
def page() -> bytes:
    return resources.files("router.server.status").joinpath("page.html").read_bytes()


def status_routes(router: Any, metrics: Metrics, decisions: DecisionLog, settings: ServerSettings,
                  keys: KeyCheck, status_keys: KeyCheck | None) -> list[Any]:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from router import fastjson
    from router.server.http_errors import failure
    from router.server.status.snapshot import snapshot

    unauthorized = failure(401, "the status needs a key: send 'Authorization: Bearer <key>' with an API key or a "
                           "server.status_key_envs key", code="invalid_api_key")
    key_names = tuple(getattr(keys, "_names", ()))

    async def html(request: Request) -> Response:
        return Response(page(), media_type="text/html; charset=utf-8",
                        headers={"cache-control": "no-store", "content-security-policy":
                                 "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                                 "connect-src 'self'; img-src 'self' data:"})

    async def data(request: Request) -> Response:
        authorization = request.headers.get("authorization", "").encode("latin-1", "replace") or None
        allowed = keys.open or keys.which(authorization) is not None or (
            status_keys is not None and not status_keys.open and status_keys.which(authorization) is not None)
        if not allowed:
            return Response(fastjson.dumps(unauthorized.body()), status_code=401, media_type="application/json")
        body = await snapshot(router, metrics, decisions, key_names=key_names,
                              budget_usd=settings.budget_usd_per_day_per_key)
        return Response(fastjson.dumps(body), media_type="application/json", headers={"cache-control": "no-store"})

    return [Route("/status", html, methods=["GET"]), Route("/status.json", data, methods=["GET"])]


__all__ = ["STATUS_PATHS", "page", "status_routes"]
