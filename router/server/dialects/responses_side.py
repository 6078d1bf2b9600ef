"""``GET`` and ``DELETE /v1/responses/{id}``: the stored responses, from the state store shared by every process."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from router import fastjson
from router.server.http_errors import failure

if TYPE_CHECKING:
    from router.server.dialects.openai_responses import OpenAIResponses

PATH = "/v1/responses/{response_id}"


def stored_routes(dialect: OpenAIResponses, engine: Any, metrics: Any) -> list[Any]:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    def reply(status: int, body: dict[str, Any], method: str) -> Response:
        metrics.requests.inc((("endpoint", f"{method} /v1/responses/{{id}}"), ("status", str(status))))
        return Response(fastjson.dumps(body), status_code=status, media_type="application/json")

    def missing(response_id: str, method: str) -> Response:
        fail = failure(404, f"No response found with id '{response_id}'.", code="not_found", param="response_id")
        return reply(404, fail.body(), method)

    async def retrieve(request: Request) -> Response:
        response_id = request.path_params["response_id"]
        stored = await dialect.store(engine).get(response_id)
        if stored is None:
            return missing(response_id, "GET")
        return reply(200, stored.response, "GET")

    async def delete(request: Request) -> Response:
        response_id = request.path_params["response_id"]
        if not await dialect.store(engine).delete(response_id):
            return missing(response_id, "DELETE")
        return reply(200, {"id": response_id, "object": "response", "deleted": True}, "DELETE")

    return [Route(PATH, retrieve, methods=["GET"]), Route(PATH, delete, methods=["DELETE"])]


__all__ = ["PATH", "stored_routes"]
