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
from router.state.base import Bucket, StateStore, Window

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


@dataclass(frozen=True)
class Grant:
    """What ``DeploymentLimits.acquire`` decided: 0.0 = taken at ``at``, else seconds to wait (nothing taken)."""

    wait_s: float
    at: float


class DeploymentLimits:
    """A deployment's ``limits`` as hard caps: never more than rpm requests or tpm tokens in any 60 s.

    Unlike the provider-level token bucket (which lets a full minute's burst through and
    refills continuously, so a busy minute may see nearly twice the limit), these are
    sliding windows: a tokens-per-minute cap the endpoint enforces is never crossed
    by this router, across every process on the store. Tokens are reserved before
    the call (an estimate of the prompt plus the reply's allowance) and corrected in
    the slot of the reservation once the reply's usage is known.
    """

    def __init__(self, store: StateStore, *, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self._clock = clock

    @staticmethod
    def _windows(key: str, limit: RateLimit, requests: float, tokens: float) -> list[Window]:
        out = []
        if limit.requests_per_minute is not None:
            out.append(Window(f"dl:{key}:rpm", requests, limit.requests_per_minute))
        if limit.tokens_per_minute is not None:
            out.append(Window(f"dl:{key}:tpm", tokens, limit.tokens_per_minute))
        return out

    async def acquire(self, key: str, limit: RateLimit, *, tokens: int) -> Grant:
        """Reserve one request and ``tokens`` under ``key`` (an endpoint and key) now, or say how long until they fit."""
        now = self._clock()
        windows = self._windows(key, limit, 1, max(0, tokens))
        return Grant(await self.store.window_take(windows, now) if windows else 0.0, now)

    async def settle(self, key: str, limit: RateLimit, *, estimated: int, actual: int, at: float) -> None:
        """Correct the reservation made at ``at`` to the reply's real usage."""
        if limit.tokens_per_minute is not None and actual != estimated:
            windows = [Window(f"dl:{key}:tpm", actual - estimated, limit.tokens_per_minute)]
            await self.store.window_take(windows, self._clock(), force=True, at=at)

    async def release(self, key: str, limit: RateLimit, *, tokens: int, at: float) -> None:
        """Give a reservation back (the request was never sent: a skip after the take)."""
        windows = self._windows(key, limit, -1, -max(0, tokens))
        if windows:
            await self.store.window_take(windows, self._clock(), force=True, at=at)

    async def headroom(self, items: list[tuple[str, RateLimit | None]]) -> list[float]:
        """For each (key, limit): the share of its tightest cap still free now (1.0 = unlimited or unused)."""
        windows: list[Window] = []
        spans: list[tuple[int, int]] = []
        for key, limit in items:
            own = self._windows(key, limit, 0, 0) if limit is not None else []
            spans.append((len(windows), len(own)))
            windows.extend(own)
        used = await self.store.window_used(windows, self._clock()) if windows else []
        out = []
        for start, count in spans:
            shares = [1.0 - used[i] / windows[i].limit for i in range(start, start + count)]
            out.append(max(0.0, min(shares, default=1.0)))
        return out


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


__all__ = ["Budget", "DeploymentLimits", "Grant", "RateLimit", "RateLimiter"]
