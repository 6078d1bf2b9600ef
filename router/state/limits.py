"""Client-side rate limits and USD budgets, shared through the state store.

Rate limits: a provider's requests/minute and tokens/minute are token buckets
(a full minute's worth of burst, refilled continuously). ``acquire`` takes a
request and its estimated tokens from both buckets at once, or neither, and
returns how long to wait; the caller decides whether to wait or pass the
request to a fallback instead of provoking a 429. ``settle`` corrects the
token estimate once the reply's usage is known.

Budgets: spend in USD per scope ("router", or a server key's *name*, never
its value) per UTC day. A call that has started is always charged (the money is
spent); ``check`` refuses the next one once the day's limit is reached.
"""

from __future__ import annotations

import datetime as _dt
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from router.errors import BudgetExceededError, UsageError
from router.state.base import Bucket, StateStore

if TYPE_CHECKING:
    from router.config import RouterConfig

_DAY_TTL_S = 2 * 86400.0
"""A day's spend key outlives the day (late charges, time zones of readers), then vanishes."""


@dataclass(frozen=True)
class RateLimit:
    """Per-provider limits; None means unlimited."""

    requests_per_minute: float | None = None
    tokens_per_minute: float | None = None


class RateLimiter:
    """Requests/minute and tokens/minute per provider."""

    def __init__(
        self, store: StateStore, limits: Mapping[str, RateLimit], *, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.limits = dict(limits)
        self._clock = clock

    @classmethod
    def from_config(cls, store: StateStore, config: RouterConfig, *, clock: Callable[[], float] = time.time) -> RateLimiter:
        limits = {
            name: RateLimit(p.limits.requests_per_minute, p.limits.tokens_per_minute)
            for name, p in config.providers.items()
            if p.limits is not None
        }
        return cls(store, limits, clock=clock)

    def _buckets(self, provider: str, requests: float, tokens: float) -> list[Bucket]:
        limit = self.limits.get(provider)
        if limit is None:
            return []
        buckets = []
        if limit.requests_per_minute is not None and requests:
            rpm = limit.requests_per_minute
            buckets.append(Bucket(f"rl:{provider}:rpm", requests, rpm, rpm / 60.0))
        if limit.tokens_per_minute is not None and tokens:
            tpm = limit.tokens_per_minute
            buckets.append(Bucket(f"rl:{provider}:tpm", tokens, tpm, tpm / 60.0))
        return buckets

    async def acquire(self, provider: str, *, tokens: int = 0) -> float:
        """Take one request and ``tokens`` (an estimate) now: 0.0, or seconds to wait (nothing taken)."""
        buckets = self._buckets(provider, 1, max(0, tokens))
        if not buckets:
            return 0.0
        return await self.store.take(buckets, self._clock())

    async def settle(self, provider: str, *, estimated: int, actual: int) -> None:
        """The reply used ``actual`` tokens where ``estimated`` were taken: charge or refund the rest."""
        buckets = self._buckets(provider, 0, actual - estimated)
        if buckets:
            await self.store.take(buckets, self._clock(), force=True)


class Budget:
    """A USD-per-day budget for one scope."""

    def __init__(
        self, store: StateStore, scope: str, limit_usd_per_day: float, *, clock: Callable[[], float] = time.time
    ) -> None:
        if not (math.isfinite(limit_usd_per_day) and limit_usd_per_day > 0):
            raise UsageError(f"budget for {scope!r}: limit must be a positive finite USD amount")
        self.store = store
        self.scope = scope
        self.limit_usd = limit_usd_per_day
        self._clock = clock

    def day(self) -> str:
        """Today's date in UTC: budgets reset at midnight UTC."""
        return _dt.datetime.fromtimestamp(self._clock(), _dt.UTC).date().isoformat()

    def _key(self, day: str) -> str:
        return f"budget:{self.scope}:{day}"

    async def spent(self) -> float:
        return await self.store.spend(self._key(self.day()))

    async def remaining(self) -> float:
        """USD left today (never below 0)."""
        return max(0.0, self.limit_usd - await self.spent())

    async def check(self) -> None:
        """Raise ``BudgetExceededError`` when today's spend has reached the limit (call before a request)."""
        day = self.day()
        spent = await self.store.spend(self._key(day))
        if spent >= self.limit_usd:
            raise BudgetExceededError(self.scope, self.limit_usd, spent, day)

    async def charge(self, usd: float) -> float:
        """Add a call's cost (atomic across processes) and return what is left today (never below 0)."""
        if not (math.isfinite(usd) and usd >= 0):
            raise UsageError(f"budget for {self.scope!r}: a charge must be a finite amount >= 0 USD")
        if usd == 0:
            return await self.remaining()
        total = await self.store.add_spend(self._key(self.day()), usd, _DAY_TTL_S)
        return max(0.0, self.limit_usd - total)


__all__ = ["Budget", "RateLimit", "RateLimiter"]
