"""Circuit breakers per ``provider/model``, shared through the state store.

closed -> open after ``failures`` failures within ``window_s`` -> after
``cooldown_s`` one probe call is let through (half-open; one at a time, also
across processes on Redis) -> closed when it succeeds, open again when it fails.
A silent or flapping provider then costs one probe per cooldown instead of a
timeout per request. The transitions run atomically inside the store; this
class holds the policy and the clock and says what a caller should do.

The clock defaults to wall time: processes on different machines compare
timestamps through Redis, which monotonic clocks do not allow.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from router.state.base import BreakerPolicy, BreakerRecord, BreakerStateName, StateStore

if TYPE_CHECKING:
    from router.config import BreakerSettings


@dataclass(frozen=True)
class Decision:
    """Whether to call now; when not, how long until it is worth asking again."""

    allowed: bool
    state: BreakerStateName
    retry_in_s: float = 0.0
    probe: bool = False
    """This call is the half-open probe: report its outcome, it decides for everyone."""
    clean: bool = field(default=False, compare=False)
    """Closed with no failure on record: a success has nothing to reset (saves a store write per request)."""


def breaker_key(provider: str, model: str) -> str:
    return f"{provider}/{model}"


class CircuitBreaker:
    """Breakers for every key on one store, with one policy."""

    def __init__(
        self,
        store: StateStore,
        policy: BreakerPolicy | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.policy = policy or BreakerPolicy()
        self._clock = clock

    @classmethod
    def from_settings(
        cls, store: StateStore, settings: BreakerSettings, *, clock: Callable[[], float] = time.time
    ) -> CircuitBreaker:
        policy = BreakerPolicy(settings.failures, settings.window_s, settings.cooldown_s, settings.probe_lease_s)
        return cls(store, policy, clock=clock)

    async def allow(self, key: str) -> Decision:
        """Ask before each call to ``key``; an allowed half-open decision is the probe."""
        now = self._clock()
        allowed, record = await self.store.breaker_allow(key, now, self.policy)
        if allowed:
            clean = record.state == "closed" and not record.failures
            return Decision(True, record.state, 0.0, probe=record.state == "half_open", clean=clean)
        return Decision(False, record.state, self._retry_in(record, now))

    async def record_success(self, key: str) -> None:
        await self.store.breaker_success(key)

    async def record_failure(self, key: str) -> Decision:
        """Count a failure; the decision says whether ``key`` is still worth calling."""
        now = self._clock()
        record = await self.store.breaker_failure(key, now, self.policy)
        if record.state == "closed":
            return Decision(True, "closed")
        return Decision(False, record.state, self._retry_in(record, now))

    async def state(self, key: str) -> BreakerRecord:
        """The stored state, without side effects (metrics: open circuits)."""
        return await self.store.breaker_state(key)

    def _retry_in(self, record: BreakerRecord, now: float) -> float:
        if record.state == "open" and record.opened_at is not None:
            return max(0.0, record.opened_at + self.policy.cooldown_s - now)
        if record.state == "half_open" and record.probe_until is not None:
            return max(0.0, record.probe_until - now)
        return 0.0


__all__ = ["CircuitBreaker", "Decision", "breaker_key"]
