"""The in-process state store: the default, and the fallback when Redis is down.

Methods are ``async`` to satisfy the contract but never await: each one runs to
completion under a ``threading.Lock``, so the store is safe from several event
loops and threads at once (the sync API may run each call on its own loop).
Everything that is not bounded by the number of providers carries an expiry
and is swept, and the response cache is an LRU with a size cap.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from router.state.base import DECAY_REBASE, BreakerPolicy, BreakerRecord, Bucket, Window, decay_scale

V = TypeVar("V")
_SWEEP_EVERY = 256
"""Writes between sweeps of expired entries (a sweep is O(entries))."""


@dataclass
class _Breaker:
    state: str = "closed"
    failures: deque[float] = field(default_factory=deque)
    opened_at: float | None = None
    probe_until: float | None = None

    def record(self) -> BreakerRecord:
        return BreakerRecord(self.state, len(self.failures), self.opened_at, self.probe_until)  # type: ignore[arg-type]


class MemoryStore:
    """``StateStore`` in a dict; ``clock`` only drives TTL expiry (tests inject it)."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        downgrade_ttl_s: float = 86400.0,
        max_cache_entries: int = 10_000,
        max_notes: int = 100_000,
    ) -> None:
        self._clock = clock
        self._downgrade_ttl_s = downgrade_ttl_s
        self._max_cache = max_cache_entries
        self._lock = threading.Lock()
        self._breakers: dict[str, _Breaker] = {}
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (level, updated_at)
        self._spend: dict[str, tuple[float, float]] = {}  # key -> (total, expires_at)
        self._downgrades: dict[str, tuple[str, float]] = {}  # key -> (reason, expires_at)
        self._cache: OrderedDict[str, tuple[str, float]] = OrderedDict()  # key -> (value, expires_at)
        self._max_notes = max_notes
        self._notes: OrderedDict[str, tuple[str, float]] = OrderedDict()  # key -> (value, expires_at), oldest first
        self._decayed: dict[str, tuple[float, dict[str, float], float]] = {}  # key -> (epoch, sums, expires_at)
        self._windows: dict[str, dict[int, float]] = {}  # key -> {slot number: units}
        self._counters: dict[str, tuple[float, float]] = {}  # key -> (value, expires_at)
        self._writes = 0

    # --- circuit breakers -------------------------------------------------------------

    async def breaker_allow(self, key: str, now: float, policy: BreakerPolicy) -> tuple[bool, BreakerRecord]:
        with self._lock:
            breaker = self._breakers.get(key)
            if breaker is None or breaker.state == "closed":
                return True, breaker.record() if breaker else BreakerRecord()
            if breaker.state == "open":
                assert breaker.opened_at is not None
                if now < breaker.opened_at + policy.cooldown_s:
                    return False, breaker.record()
            elif breaker.probe_until is not None and now < breaker.probe_until:
                return False, breaker.record()
            breaker.state = "half_open"
            breaker.probe_until = now + policy.probe_lease_s
            return True, breaker.record()

    async def breaker_failure(self, key: str, now: float, policy: BreakerPolicy) -> BreakerRecord:
        with self._lock:
            breaker = self._breakers.setdefault(key, _Breaker())
            if breaker.state == "half_open":
                breaker.state, breaker.opened_at, breaker.probe_until = "open", now, None
                breaker.failures.clear()
            elif breaker.state == "closed":
                breaker.failures.append(now)
                while len(breaker.failures) > policy.failures:
                    breaker.failures.popleft()
                recent = sum(1 for t in breaker.failures if t > now - policy.window_s)
                if recent >= policy.failures:
                    breaker.state, breaker.opened_at = "open", now
                    breaker.failures.clear()
            return breaker.record()

    async def breaker_success(self, key: str) -> None:
        with self._lock:
            self._breakers.pop(key, None)

    async def breaker_state(self, key: str) -> BreakerRecord:
        with self._lock:
            breaker = self._breakers.get(key)
            return breaker.record() if breaker else BreakerRecord()

    # --- rate limits ------------------------------------------------------------------

    async def take(self, buckets: Sequence[Bucket], now: float, *, force: bool = False) -> float:
        with self._lock:
            levels = []
            wait = 0.0
            for bucket in buckets:
                level, updated = self._buckets.get(bucket.key, (bucket.capacity, now))
                level = min(bucket.capacity, level + max(0.0, now - updated) * bucket.per_s)
                levels.append((level, max(updated, now)))
                need = min(bucket.amount, bucket.capacity)
                if level < need:
                    wait = max(wait, (need - level) / bucket.per_s)
            if wait > 0 and not force:
                return wait
            for bucket, (level, updated) in zip(buckets, levels, strict=True):
                left = min(bucket.capacity, level - bucket.amount)
                if left >= bucket.capacity:
                    self._buckets.pop(bucket.key, None)  # a full bucket is the same as none
                else:
                    self._buckets[bucket.key] = (left, updated)
            self._wrote()
            return 0.0

    # --- budgets ----------------------------------------------------------------------

    async def add_spend(self, key: str, usd: float, ttl_s: float) -> float:
        with self._lock:
            now = self._clock()
            total, expires = self._spend.get(key, (0.0, now + ttl_s))
            if expires <= now:
                total, expires = 0.0, now + ttl_s
            total += usd
            self._spend[key] = (total, expires)
            self._wrote()
            return total

    async def reserve_spend(self, key: str, usd: float, limit: float, ttl_s: float) -> tuple[bool, float]:
        with self._lock:
            now = self._clock()
            total, expires = self._spend.get(key, (0.0, now + ttl_s))
            if expires <= now:
                total, expires = 0.0, now + ttl_s
            if total + usd > limit:
                return False, total
            total += usd
            self._spend[key] = (total, expires)
            self._wrote()
            return True, total

    async def spend(self, key: str) -> float:
        with self._lock:
            return self._live(self._spend, key) or 0.0

    # --- text-ReAct downgrade memory ----------------------------------------------------

    async def remember_downgrade(self, key: str, reason: str) -> None:
        with self._lock:
            self._downgrades[key] = (reason, self._clock() + self._downgrade_ttl_s)

    async def forget_downgrade(self, key: str | None = None) -> None:
        with self._lock:
            if key is None:
                self._downgrades.clear()
            else:
                self._downgrades.pop(key, None)

    async def downgrade_reason(self, key: str) -> str | None:
        with self._lock:
            return self._live(self._downgrades, key)

    # --- response cache ---------------------------------------------------------------

    async def cache_get(self, key: str) -> str | None:
        with self._lock:
            value = self._live(self._cache, key)
            if value is not None:
                self._cache.move_to_end(key)
            return value

    async def cache_set(self, key: str, value: str, ttl_s: float) -> None:
        with self._lock:
            self._cache[key] = (value, self._clock() + ttl_s)
            self._cache.move_to_end(key)
            while len(self._cache) > self._max_cache:
                self._cache.popitem(last=False)
            self._wrote()

    # --- decayed counters (learned outcomes) --------------------------------------------

    async def decay_add(self, key: str, increments: Mapping[str, float], at: float, half_life_s: float,
                        ttl_s: float) -> None:
        with self._lock:
            entry = self._decayed.get(key)
            if entry is None or entry[2] <= self._clock():
                entry = (at, {}, 0.0)
            epoch, sums, _ = entry
            if (at - epoch) / half_life_s > DECAY_REBASE:
                shrink = decay_scale(epoch, at, half_life_s)
                sums = {name: value * shrink for name, value in sums.items()}
                epoch = at
            scale = decay_scale(at, epoch, half_life_s)
            for name, value in increments.items():
                sums[name] = sums.get(name, 0.0) + value * scale
            self._decayed[key] = (epoch, sums, self._clock() + ttl_s)
            self._wrote()

    async def decay_read(self, key: str, fields: Sequence[str], now: float, half_life_s: float) -> list[float]:
        with self._lock:
            entry = self._decayed.get(key)
            if entry is None or entry[2] <= self._clock():
                return [0.0] * len(fields)
            epoch, sums, _ = entry
            scale = decay_scale(epoch, now, half_life_s)
            return [sums.get(name, 0.0) * scale for name in fields]

    # --- notes (answers awaiting feedback) ------------------------------------------------

    async def note_set(self, key: str, value: str, ttl_s: float, *, swap: bool = False) -> str | None:
        with self._lock:
            old = self._live(self._notes, key) if swap else None
            self._notes[key] = (value, self._clock() + ttl_s)
            self._notes.move_to_end(key)
            while len(self._notes) > self._max_notes:
                self._notes.popitem(last=False)
            self._wrote()
            return old

    async def note_get(self, key: str) -> str | None:
        with self._lock:
            return self._live(self._notes, key)

    # --- deployment windows and in-flight counters -------------------------------------

    def _window(self, window: Window, now: float) -> tuple[dict[int, float], int]:
        """The window's live slots (older ones dropped) and the current slot number. Lock held."""
        current = math.floor(now / window.slot_s)
        slots = self._windows.setdefault(window.key, {})
        for old in [n for n in slots if n <= current - window.slots]:
            del slots[old]
        return slots, current

    async def window_take(self, windows: Sequence[Window], now: float, *, force: bool = False, at: float | None = None) -> float:
        with self._lock:
            wait = 0.0
            states = [self._window(w, now) for w in windows]
            if not force:
                for window, (slots, _) in zip(windows, states, strict=True):
                    wait = max(wait, _window_wait(window, slots, now))
                if wait > 0:
                    return wait
            for window, (slots, current) in zip(windows, states, strict=True):
                slot = current if at is None else math.floor(at / window.slot_s)
                if slot > current - window.slots:
                    slots[slot] = slots.get(slot, 0.0) + window.amount
            self._wrote()
            return 0.0

    async def window_used(self, windows: Sequence[Window], now: float) -> list[float]:
        with self._lock:
            return [sum(self._window(w, now)[0].values()) for w in windows]

    async def count_add(self, key: str, delta: float, ttl_s: float) -> float:
        with self._lock:
            value = max(0.0, (self._live(self._counters, key) or 0.0) + delta)
            self._counters[key] = (value, self._clock() + ttl_s)
            self._wrote()
            return value

    async def count_least(self, keys: Sequence[str], start: int, ttl_s: float) -> int:
        with self._lock:
            values = [self._live(self._counters, k) or 0.0 for k in keys]
            order = [(start + i) % len(keys) for i in range(len(keys))]
            best = min(order, key=lambda i: values[i])  # min keeps the first lowest in rotated order
            self._counters[keys[best]] = (values[best] + 1, self._clock() + ttl_s)
            self._wrote()
            return best

    async def counts(self, keys: Sequence[str]) -> list[float]:
        with self._lock:
            return [self._live(self._counters, k) or 0.0 for k in keys]

    async def aclose(self) -> None:
        """Nothing to release; the state stays readable (it is the fallback's memory)."""

    # --- expiry -----------------------------------------------------------------------

    def _live(self, table: MutableMapping[str, tuple[V, float]], key: str) -> V | None:
        """The value under ``key`` unless it has expired (then it is dropped). Lock held."""
        entry = table.get(key)
        if entry is None:
            return None
        if entry[1] <= self._clock():
            del table[key]
            return None
        return entry[0]

    def _wrote(self) -> None:
        """Count a write; every ``_SWEEP_EVERY`` writes drop what has expired. Lock held."""
        self._writes += 1
        if self._writes % _SWEEP_EVERY:
            return
        now = self._clock()
        for key in [k for k, slots in self._windows.items() if not slots]:
            del self._windows[key]
        for table in (self._spend, self._downgrades, self._cache, self._notes, self._counters):
            for key in [k for k, (_, expires) in table.items() if expires <= now]:
                del table[key]
        for key in [k for k, (_, _, expires) in self._decayed.items() if expires <= now]:
            del self._decayed[key]


def _window_wait(window: Window, slots: dict[int, float], now: float) -> float:
    """0.0 when ``window.amount`` fits now, else the seconds until enough old slots have left."""
    if window.amount > window.limit:
        return math.inf
    used = sum(slots.values())
    if used + window.amount <= window.limit:
        return 0.0
    for slot in sorted(slots):
        used -= slots[slot]
        if used + window.amount <= window.limit:
            return max(window.slot_s * 0.001, (slot + window.slots) * window.slot_s - now)
    return window.span_s


__all__ = ["MemoryStore"]
