"""A shared store that degrades to in-process state instead of failing requests.

Losing Redis must not lose answers: breakers, limits and budgets then work per
process, which is what a single process would have anyway. The outage is
logged once (with the URL's password masked), Redis is left alone for a short,
growing backoff, and then one caller at a time tries it again; the first
success switches back and logs that too. No ``StateStoreUnavailableError``
reaches a caller.

Budgets keep counting during the outage from the last total read from Redis,
and the outage's spend is added to Redis when it comes back, so no spend is
lost. Other in-process state (breakers, buckets) is short-lived and is simply
left behind.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TypeVar

from router.errors import StateStoreUnavailableError
from router.state.base import BreakerPolicy, BreakerRecord, Bucket, StateStore, Window

T = TypeVar("T")
log = logging.getLogger("router.state")


class FallbackStore:
    """``primary`` (Redis) while it answers, ``fallback`` (memory) while it does not."""

    def __init__(
        self,
        primary: StateStore,
        fallback: StateStore,
        *,
        name: str = "state store",
        backoff_s: float = 1.0,
        max_backoff_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        logger: logging.Logger = log,
    ) -> None:
        self.primary = primary
        self.fallback = fallback
        self._name = name
        self._backoff_s = backoff_s
        self._max_backoff_s = max_backoff_s
        self._clock = clock
        self._log = logger
        self._lock = threading.Lock()
        self._down = False
        self._retry_at = 0.0
        self._next_backoff = backoff_s
        self._probing = False
        self._pending_spend: dict[str, tuple[float, float]] = {}  # key -> (usd, ttl_s) spent while down
        self._known_spend: dict[str, float] = {}  # key -> last total read from the primary

    @property
    def degraded(self) -> bool:
        """True while operations run on the in-process fallback."""
        with self._lock:
            return self._down

    def _should_try_primary(self) -> tuple[bool, bool]:
        """(try the primary, this caller is the probe after an outage)."""
        with self._lock:
            if not self._down:
                return True, False
            if self._probing or self._clock() < self._retry_at:
                return False, False
            self._probing = True  # this caller probes; the others stay on the fallback meanwhile
            return True, True

    def _failed(self, exc: StateStoreUnavailableError) -> None:
        with self._lock:
            first = not self._down
            if first:
                self._next_backoff = self._backoff_s
            self._down, self._probing = True, False
            self._retry_at = self._clock() + self._next_backoff
            self._next_backoff = min(self._max_backoff_s, self._next_backoff * 2)
        if first:
            self._log.warning("shared state unavailable, continuing with in-process state: %s", exc)

    def _recovered(self) -> None:
        with self._lock:
            was_down = self._down
            self._down, self._probing = False, False
        if was_down:
            self._log.info("%s reachable again, shared state resumed", self._name)

    async def _call(self, op: Callable[[StateStore], Awaitable[T]]) -> T:
        use_primary, probe = self._should_try_primary()
        if use_primary:
            try:
                if probe:
                    await self._replay_spend()
                result = await op(self.primary)
            except StateStoreUnavailableError as exc:
                self._failed(exc)
            else:
                self._recovered()
                return result
        return await op(self.fallback)

    async def _replay_spend(self) -> None:
        """Add the outage's spend to the primary, once: the fallback's copy is zeroed.

        Raises ``StateStoreUnavailableError`` (keeping what is not replayed yet) when the
        primary is still down."""
        with self._lock:
            pending, self._pending_spend = self._pending_spend, {}
        items = list(pending.items())
        for i, (key, (usd, ttl_s)) in enumerate(items):
            try:
                total = await self.primary.add_spend(key, usd, ttl_s)
            except StateStoreUnavailableError:
                with self._lock:
                    for rest_key, (rest_usd, rest_ttl) in items[i:]:
                        old, _ = self._pending_spend.get(rest_key, (0.0, rest_ttl))
                        self._pending_spend[rest_key] = (old + rest_usd, rest_ttl)
                raise
            self._note_spend(key, total)
            await self.fallback.add_spend(key, -usd, ttl_s)

    # --- StateStore -------------------------------------------------------------------

    async def breaker_allow(self, key: str, now: float, policy: BreakerPolicy) -> tuple[bool, BreakerRecord]:
        return await self._call(lambda s: s.breaker_allow(key, now, policy))

    async def breaker_failure(self, key: str, now: float, policy: BreakerPolicy) -> BreakerRecord:
        return await self._call(lambda s: s.breaker_failure(key, now, policy))

    async def breaker_success(self, key: str) -> None:
        await self._call(lambda s: s.breaker_success(key))

    async def breaker_state(self, key: str) -> BreakerRecord:
        return await self._call(lambda s: s.breaker_state(key))

    async def take(self, buckets: Sequence[Bucket], now: float, *, force: bool = False) -> float:
        return await self._call(lambda s: s.take(buckets, now, force=force))

    async def add_spend(self, key: str, usd: float, ttl_s: float) -> float:
        async def add(store: StateStore) -> float:
            total = await store.add_spend(key, usd, ttl_s)
            if store is self.primary:
                self._note_spend(key, total)
                return total
            with self._lock:
                old, _ = self._pending_spend.get(key, (0.0, ttl_s))
                self._pending_spend[key] = (old + usd, ttl_s)
                return self._known_spend.get(key, 0.0) + total

        return await self._call(add)

    async def spend(self, key: str) -> float:
        async def read(store: StateStore) -> float:
            total = await store.spend(key)
            if store is self.primary:
                self._note_spend(key, total)
                return total
            with self._lock:
                return self._known_spend.get(key, 0.0) + total

        return await self._call(read)

    async def reserve_spend(self, key: str, usd: float, limit: float, ttl_s: float) -> tuple[bool, float]:
        async def reserve(store: StateStore) -> tuple[bool, float]:
            if store is self.primary:
                ok, total = await store.reserve_spend(key, usd, limit, ttl_s)
                self._note_spend(key, total)
                return ok, total
            with self._lock:  # during an outage: count on from Redis's last total, replay the rest later
                known = self._known_spend.get(key, 0.0)
            ok, total = await store.reserve_spend(key, usd, limit - known, ttl_s)
            if ok:
                with self._lock:
                    old, _ = self._pending_spend.get(key, (0.0, ttl_s))
                    self._pending_spend[key] = (old + usd, ttl_s)
            return ok, known + total

        return await self._call(reserve)

    def _note_spend(self, key: str, total: float) -> None:
        """Remember Redis's total, so a budget keeps counting from it during an outage."""
        with self._lock:
            if len(self._known_spend) >= 10_000:
                self._known_spend.clear()
            self._known_spend[key] = total

    async def remember_downgrade(self, key: str, reason: str) -> None:
        await self._call(lambda s: s.remember_downgrade(key, reason))

    async def forget_downgrade(self, key: str | None = None) -> None:
        await self._call(lambda s: s.forget_downgrade(key))

    async def downgrade_reason(self, key: str) -> str | None:
        return await self._call(lambda s: s.downgrade_reason(key))

    async def cache_get(self, key: str) -> str | None:
        return await self._call(lambda s: s.cache_get(key))

    async def cache_set(self, key: str, value: str, ttl_s: float) -> None:
        await self._call(lambda s: s.cache_set(key, value, ttl_s))

    async def decay_add(self, key: str, increments: Mapping[str, float], at: float, half_life_s: float,
                        ttl_s: float) -> None:
        await self._call(lambda s: s.decay_add(key, increments, at, half_life_s, ttl_s))

    async def decay_read(self, key: str, fields: Sequence[str], now: float, half_life_s: float) -> list[float]:
        return await self._call(lambda s: s.decay_read(key, fields, now, half_life_s))

    async def note_set(self, key: str, value: str, ttl_s: float, *, swap: bool = False) -> str | None:
        return await self._call(lambda s: s.note_set(key, value, ttl_s, swap=swap))

    async def note_get(self, key: str) -> str | None:
        return await self._call(lambda s: s.note_get(key))

    async def window_take(self, windows: Sequence[Window], now: float, *, force: bool = False, at: float | None = None) -> float:
        return await self._call(lambda s: s.window_take(windows, now, force=force, at=at))

    async def window_used(self, windows: Sequence[Window], now: float) -> list[float]:
        return await self._call(lambda s: s.window_used(windows, now))

    async def count_add(self, key: str, delta: float, ttl_s: float) -> float:
        return await self._call(lambda s: s.count_add(key, delta, ttl_s))

    async def count_least(self, keys: Sequence[str], start: int, ttl_s: float) -> int:
        return await self._call(lambda s: s.count_least(keys, start, ttl_s))

    async def counts(self, keys: Sequence[str]) -> list[float]:
        return await self._call(lambda s: s.counts(keys))

    async def aclose(self) -> None:
        try:
            await self.primary.aclose()
        except StateStoreUnavailableError:
            pass
        await self.fallback.aclose()


__all__ = ["FallbackStore"]
