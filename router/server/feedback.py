"""``POST /v1/feedback``: how good an answer was, ``{"id": "<response id>", "score": 0.0..1.0}``.

The id is the one the caller received (a chat completion's ``id``, a Messages or Responses
``id``). Behind the same keys as the rest of the API: the Gate has checked the key, and only
the key that received an answer may score it. A caller's mistake is a 4xx in the OpenAI
error shape (bad JSON or score: 400; unknown or expired id: 404; another key's answer: 403),
checked before anything is stored; ``routing.learning`` counts what is accepted.
"""

from __future__ import annotations

from typing import Any

from router import fastjson
from router.server.asgi import (
    BodyTooLarge,
    ClientGone,
    Engine,
    Receive,
    Scope,
    Send,
    dumps,
    read_body,
    respond,
    respond_failure,
)
from router.server.http_errors import failure, from_exception
from router.server.metrics import Metrics

PATHS = ("/v1/feedback", "/feedback")
MAX_BODY_BYTES = 16 * 1024
_FIELDS = frozenset({"id", "score", "comment"})


class FeedbackEndpoint:
    """A raw ASGI endpoint (it runs behind the Gate, like the dialects' pipelines)."""

    def __init__(self, router: Engine, metrics: Metrics) -> None:
        self.router, self.metrics = router, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        status = await self._handle(scope, receive, send)
        self.metrics.requests.inc((("endpoint", "/v1/feedback"), ("status", str(status))))

    async def _handle(self, scope: Scope, receive: Receive, send: Send) -> int:
        try:
            data = fastjson.loads(await read_body(scope, receive, MAX_BODY_BYTES))
        except BodyTooLarge:
            return await _fail(send, 413, f"the feedback body is larger than {MAX_BODY_BYTES} bytes", "request_too_large")
        except ClientGone:
            return 499
        except (ValueError, UnicodeDecodeError) as exc:
            return await _fail(send, 400, f"the request body is not valid JSON ({exc})", "invalid_json")
        problem = _check(data)
        if problem is not None:
            return await _fail(send, 400, problem[1], "invalid_request", param=problem[0])
        try:
            await self.router.afeedback(data["id"], data["score"], comment=data.get("comment"),
                                        caller=scope.get("router.key"))
        except Exception as exc:
            fail = from_exception(exc)
            await respond_failure(send, fail)
            return fail.status
        await respond(send, 200, dumps({"id": data["id"], "object": "feedback", "score": float(data["score"])}))
        return 200


def _check(data: Any) -> tuple[str | None, str] | None:
    """(param, message) of the first problem with the body's shape; the values are the router's to judge."""
    if not isinstance(data, dict):
        return None, 'the body must be a JSON object: {"id": "<answer id>", "score": 0.0..1.0}'
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        return unknown[0], f"unknown field {unknown[0]!r} (feedback takes id, score and an optional comment)"
    for name in ("id", "score"):
        if name not in data:
            return name, f"{name} is required"
    return None


async def _fail(send: Send, status: int, message: str, code: str, *, param: str | None = None) -> int:
    await respond_failure(send, failure(status, message, code=code, param=param))
    return status


def routes(router: Engine, metrics: Metrics) -> list[Any]:
    from starlette.routing import Route

    endpoint = FeedbackEndpoint(router, metrics)
    return [Route(path, endpoint, methods=["POST"]) for path in PATHS]


__all__ = ["PATHS", "FeedbackEndpoint", "routes"]
