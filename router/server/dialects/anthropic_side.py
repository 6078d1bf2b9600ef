"""Anthropic's side endpoints: ``POST /v1/messages/count_tokens`` and its shape of ``GET /v1/models``.

``count_tokens`` answers what the request would cost in prompt tokens without asking a
model: the same translation as ``/v1/messages`` (a request that one refuses, this one
refuses with the same error), measured by the router's estimate (about four characters
a token, the figure its rate limits and context checks use). Upstream providers keep
their tokenizers to themselves, so this is an estimate, never a promise.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from router import fastjson
from router.clients.guards import estimate_tokens
from router.server.dialects.base import WireError
from router.server.http_errors import failure

if TYPE_CHECKING:
    from router.server.dialects.anthropic_messages import AnthropicMessages

COUNT_PATH = "/v1/messages/count_tokens"


def count_tokens_route(dialect: AnthropicMessages, metrics: Any) -> Any:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from router.server.dialects.anthropic_messages import DEFAULT_VERSION, conversation, error_reply, parse_request

    labels = (("endpoint", COUNT_PATH),)

    async def count_tokens(request: Request) -> Response:
        version = (b"anthropic-version", request.headers.get("anthropic-version", DEFAULT_VERSION).encode("latin-1"))
        try:
            raw = await request.body()
            if len(raw) > dialect.max_body_bytes:
                raise WireError(413, f"the request body is larger than the limit of {dialect.max_body_bytes} bytes",
                                code="request_too_large")
            try:
                data = fastjson.loads(raw)
            except (ValueError, UnicodeDecodeError) as exc:
                raise WireError(400, f"the request body is not valid JSON ({exc})", code="invalid_json") from None
            messages, tools = conversation(parse_request(data, require_max_tokens=False), dialect.max_messages)
        except WireError as exc:
            status, body = error_reply(failure(exc.status, str(exc), code=exc.code, param=exc.param))
            metrics.requests.inc((*labels, ("status", str(status))))
            metrics.errors.inc((*labels, ("code", exc.code)))
            return Response(fastjson.dumps(body), status_code=status, media_type="application/json",
                            headers={"anthropic-version": version[1].decode("latin-1")})
        metrics.requests.inc((*labels, ("status", "200")))
        return Response(fastjson.dumps({"input_tokens": estimate_tokens(messages, tools)}),
                        media_type="application/json", headers={"anthropic-version": version[1].decode("latin-1")})

    return Route(COUNT_PATH, count_tokens, methods=["POST"])


def models_list(models: list[tuple[str, str]], created: int | None = None) -> dict[str, Any]:
    """Anthropic's model list (``anthropic-version`` sent): ids as the router names them."""
    stamp = datetime.fromtimestamp(created or time.time(), tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    data = [{"type": "model", "id": model_id, "display_name": f"{model_id} (via router, {owner})", "created_at": stamp}
            for model_id, owner in models]
    return {"data": data, "has_more": False, "first_id": data[0]["id"] if data else None,
            "last_id": data[-1]["id"] if data else None}


__all__ = ["COUNT_PATH", "count_tokens_route", "models_list"]
