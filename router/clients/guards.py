"""What a chain checks around each try besides the breaker: refused keys, rate limits, the budget.

- **Refused keys**: a 401/403 will not heal by retrying. The provider is out
  until its key changes: the store remembers ``authout:<provider>:<hash of the
  key value>`` (a SHA-256 prefix, never the key), so every process skips it and a
  new key in the environment brings it back at once. Kept for a day.
- **Rate limits**: before a try, take a request and an estimate of its tokens
  from the provider's buckets (``RateLimiter``); a short wait (<= the chain's wait
  cap) is waited, a longer one passes the request to the next candidate instead of
  provoking a 429. The estimate is corrected from the reply's usage.
- **Budget**: checked before a request, charged after each reply with the
  provider's prices (``BudgetExceededError`` when today's spend is used up).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from router.config import RouterConfig
    from router.state.base import StateStore
    from router.state.limits import Budget, RateLimiter
    from router.types import Usage

AUTH_OUT_TTL_S = 86_400.0


@functools.lru_cache(maxsize=64)
def key_fingerprint(value: str | None) -> str | None:
    """A short hash naming a key value without revealing it (None: no key); cached: it is asked every request."""
    if not value:
        return None
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def estimate_tokens(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> int:
    """About four characters a token: enough to keep a tokens/minute bucket honest until usage arrives."""
    size = len(json.dumps(messages, default=str, ensure_ascii=False))
    if tools:
        size += len(json.dumps(tools, default=str, ensure_ascii=False))
    return max(1, size // 4)


class AuthQuarantine:
    """Providers whose current key was refused, on the shared store."""

    def __init__(self, store: StateStore) -> None:
        self.store = store

    @staticmethod
    def _key(provider: str, fingerprint: str) -> str:
        return f"authout:{provider}:{fingerprint}"

    async def reason(self, provider: str, fingerprint: str | None) -> str | None:
        """Why this provider's current key is out, or None."""
        if fingerprint is None:
            return None
        return await self.store.cache_get(self._key(provider, fingerprint))

    async def mark(self, provider: str, fingerprint: str | None, reason: str) -> bool:
        """Put the key out; True when it was not out before (say so once)."""
        if fingerprint is None:
            return False
        key = self._key(provider, fingerprint)
        if await self.store.cache_get(key) is not None:
            return False
        await self.store.cache_set(key, reason, AUTH_OUT_TTL_S)
        return True


@dataclass(frozen=True)
class Guards:
    """The checks a Router hands to each chain; every part is optional."""

    limiter: RateLimiter | None = None
    budget: Budget | None = None
    cost: Callable[[str, str, Usage], float | None] | None = None
    """USD for a reply's usage with the provider's prices (None when prices are unknown)."""
    auth: AuthQuarantine | None = None

    async def check_budget(self) -> None:
        if self.budget is not None:
            await self.budget.check()

    async def charge(self, provider: str, model: str, usage: Usage) -> None:
        if self.budget is None or self.cost is None:
            return
        usd = self.cost(provider, model, usage)
        if usd:
            await self.budget.charge(usd)


def guards_from_config(config: RouterConfig, store: Any) -> Guards:
    """Refused keys, client-side rate limits and the daily budget, on the Router's store."""
    from router.answers import cost
    from router.state.limits import Budget, RateLimiter

    limiter = RateLimiter.from_config(store, config)
    budget = Budget(store, "router", config.budget_usd_per_day) if config.budget_usd_per_day is not None else None
    return Guards(
        limiter=limiter if limiter.limits else None,
        budget=budget,
        cost=lambda provider, model, usage: cost(config, provider, model, usage),
        auth=AuthQuarantine(store),
    )


__all__ = [
    "AUTH_OUT_TTL_S",
    "AuthQuarantine",
    "Guards",
    "estimate_tokens",
    "guards_from_config",
    "key_fingerprint",
]
