"""Stored Responses (``store: true``) on the router's state store, so any gateway process can continue them.

An entry holds the Response as it was sent (for ``GET /v1/responses/{id}``) and the
conversation in the router's shape up to and including the answer (for
``previous_response_id``): the assistant message exactly as the provider sent it, so
its tool-call ids, argument strings and provider fields (``reasoning_content``) go back
unchanged on the next turn (protocol rule 1). Instructions are not part of it: as in
OpenAI's API, a follow-up's ``instructions`` replace the previous ones.

The state store is the one the Router uses (Redis when ``state.backend: redis``, shared
by every process; in-process otherwise, bounded). Entries expire after
``server.responses_ttl_s``; a deleted entry is overwritten by a tombstone for the rest of
that time (the store contract has no delete, and a tombstone also wins over a stale copy).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger("router.server")
_DELETED = '{"deleted": true}'


@dataclass(frozen=True)
class StoredResponse:
    response: dict[str, Any]
    history: list[dict[str, Any]]


class ResponsesStore:
    def __init__(self, state: Any, ttl_s: float) -> None:
        self.state = state
        self.ttl_s = ttl_s

    @staticmethod
    def _key(response_id: str) -> str:
        return f"responses:{response_id}"

    async def put(self, response: dict[str, Any], history: list[dict[str, Any]]) -> None:
        value = json.dumps({"response": response, "history": history}, ensure_ascii=False, separators=(",", ":"))
        await self.state.cache_set(self._key(response["id"]), value, self.ttl_s)

    async def get(self, response_id: str) -> StoredResponse | None:
        raw = await self.state.cache_get(self._key(response_id))
        if raw is None or raw == _DELETED:
            return None
        try:
            data = json.loads(raw)
            return StoredResponse(dict(data["response"]), list(data["history"]))
        except (ValueError, KeyError, TypeError):
            logger.warning("stored response %s is unreadable (written by another version?): treated as absent",
                           response_id)
            return None

    async def delete(self, response_id: str) -> bool:
        """True when there was a response to delete."""
        if await self.get(response_id) is None:
            return False
        await self.state.cache_set(self._key(response_id), _DELETED, self.ttl_s)
        return True


def private_store(ttl_s: float) -> ResponsesStore:
    """For an engine without a state store (a test double): in-process, bounded like the Router's."""
    from router.state.memory import MemoryStore

    return ResponsesStore(MemoryStore(), ttl_s)


__all__ = ["ResponsesStore", "StoredResponse", "private_store"]
