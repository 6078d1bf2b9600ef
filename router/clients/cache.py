"""An exact response cache on the state store: off by default, never for tool-call turns.

Same chain, same messages, same tools, same options -> the same reply, without a
call. It helps repeated identical requests (retried jobs, several workers asking
the same thing); it is exact on purpose: nothing is guessed "similar". Replies
that ask for tools, replies cut short and non-final finish reasons are never
stored, so a cached turn never skips a tool that should run.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from router.types import AssistantMessage, Attempt, ChatResponse, RequestOptions, Usage

if TYPE_CHECKING:
    from router.state.base import StateStore

CACHEABLE_FINISH = frozenset({"stop"})


class ResponseCache:
    def __init__(self, store: StateStore, ttl_s: float) -> None:
        self.store = store
        self.ttl_s = ttl_s

    @staticmethod
    def key(chain: list[tuple[str, str]], messages: list[dict[str, Any]], tools: Any, options: RequestOptions | None) -> str:
        material = json.dumps(
            {"chain": chain, "messages": messages, "tools": tools, "options": asdict(options) if options else None},
            sort_keys=True, ensure_ascii=False, default=str,
        )  # fmt: skip
        return "cache:" + hashlib.sha256(material.encode()).hexdigest()

    async def get(self, key: str) -> ChatResponse | None:
        raw = await self.store.cache_get(key)
        if raw is None:
            return None
        try:
            data = json.loads(raw)
            usage = Usage(**data["usage"])
            message = AssistantMessage(content=data["content"], reasoning_content=data.get("reasoning"))
            attempt = Attempt(data["provider"], data["model"], ok=True, error_kind="cached", error="served from the response cache")
            return ChatResponse(message, data["finish_reason"], usage, data["model"], data["provider"], 0.0, (attempt,))
        except (ValueError, KeyError, TypeError):
            return None  # an entry written by another version: a miss, never an error

    async def put(self, key: str, response: ChatResponse) -> None:
        message = response.message
        if message.tool_calls or response.finish_reason not in CACHEABLE_FINISH or not message.content:
            return
        entry = {
            "content": message.content, "reasoning": message.reasoning_content, "finish_reason": response.finish_reason,
            "usage": asdict(response.usage), "model": response.model, "provider": response.provider,
        }  # fmt: skip
        await self.store.cache_set(key, json.dumps(entry, ensure_ascii=False), self.ttl_s)


__all__ = ["ResponseCache"]
