"""What a chain checks around each try besides the breaker: refused keys, rate limits, the budget.

- **Refused keys**: a 401/403 will not heal by retrying. The key is out on that
  deployment (and only for that model when the provider's message says it is about
  the model) until it changes: the store remembers
  ``authout:<provider>:<deployment>:<hash of the key value>`` (a SHA-256 prefix,
  never the key), so every process skips it and a new key in the environment brings
  it back at once. Kept for a day unless an operator clears it first.
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
    """Keys that were refused, on the shared store, scoped to where the refusal applies.

    A refusal puts out one key on one deployment (``-`` for a provider's implicit
    one), and only for one model when the provider's message names the model (a key
    without access to ``gpt-4o`` still serves ``gpt-4o-mini``). The entry is keyed by
    the key's hash, so a new key in the environment is back at once; ``clear`` lets an
    operator bring an entry back before its day is up (``router.balance.status``).
    """

    def __init__(self, store: StateStore) -> None:
        self.store = store

    @staticmethod
    def key(provider: str, deployment: str | None, fingerprint: str) -> str:
        return f"authout:{provider}:{deployment or '-'}:{fingerprint}"

    async def entries(self, provider: str, fingerprint: str | None, *, deployment: str | None = None) -> dict[str, str]:
        """``{"*": reason}`` (the whole key) and/or ``{model: reason}`` for this key on this deployment."""
        if fingerprint is None:
            return {}
        raw = await self.store.cache_get(self.key(provider, deployment, fingerprint))
        if not raw:
            return {}
        try:
            found = json.loads(raw)
        except ValueError:
            return {"*": raw}
        return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}

    async def reason(
        self, provider: str, fingerprint: str | None, *, deployment: str | None = None, model: str | None = None
    ) -> str | None:
        """Why this key is out for this deployment and model, or None."""
        found = await self.entries(provider, fingerprint, deployment=deployment)
        if not found:
            return None
        return found.get("*") or (found.get(model.lower()) if model else None)

    async def mark(
        self, provider: str, fingerprint: str | None, reason: str, *,
        deployment: str | None = None, model: str | None = None, message: str = "",
    ) -> str | None:
        """Put the key out; returns what is out (for the notice) when it was not out before, else None."""
        if fingerprint is None:
            return None
        scope = model.lower() if model and _names_model(message, model) else "*"
        found = await self.entries(provider, fingerprint, deployment=deployment)
        if scope in found or "*" in found:
            return None
        found[scope] = reason if scope == "*" else f"{reason} for model {model}"
        await self.store.cache_set(self.key(provider, deployment, fingerprint), json.dumps(found), AUTH_OUT_TTL_S)
        where = f"{provider} deployment {deployment}" if deployment else provider
        return where if scope == "*" else f"{where} for model {model}"

    async def clear(self, provider: str, fingerprint: str | None, *, deployment: str | None = None) -> bool:
        """Bring the key back on this deployment; True when something was out."""
        if fingerprint is None or not await self.entries(provider, fingerprint, deployment=deployment):
            return False
        await self.store.cache_set(self.key(provider, deployment, fingerprint), "", 0.001)
        return True


def _names_model(message: str, model: str) -> bool:
    """The provider's refusal is about this model, not the key ("no access to model gpt-4o")."""
    text = message.lower()
    return model.lower() in text.split(": ", 1)[-1] or "this model" in text or "model_not_found" in text


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
