"""The state store contract: what failover, limits and budgets need to share.

One process keeps this state in memory; several workers or machines must see
the same breakers, counters and spend, so the contract is async (a network
store) and every method that reads-then-writes is one atomic step in the store:
two processes racing through "read, decide, write" would open a breaker twice,
let two half-open probes through, or count a budget once instead of twice.

Time is passed in (``now``) rather than read by the store, so the policy on top
is tested with an injected clock and every process of a shared store judges
windows by the same kind of clock (wall time, ``time.time``; monotonic clocks
are not comparable across machines).

Every method exists for one consumer:

- ``breaker_allow`` / ``breaker_failure`` / ``breaker_success`` / ``breaker_state``:
  the circuit breaker (``router.state.breaker``). ``allow`` is a write: in
  half-open it hands out the single probe lease.
- ``take``: client-side rate limits (``router.state.limits``), token buckets,
  all-or-nothing across several buckets so a request is never counted against
  requests/minute when tokens/minute refused it.
- ``add_spend`` / ``spend``: USD budgets per scope and day (``Budget``).
- ``reserve_spend``: the server's budget reservations (``router.state.budget``): add
  only when the total stays within a limit, in one step, so concurrent requests on
  several gateways cannot all pass one check and overspend together.
- ``remember_downgrade`` / ``forget_downgrade`` / ``downgrade_reason``: providers
  that refused native tools, so every process starts them in text ReAct.
- ``cache_get`` / ``cache_set``: the optional exact response cache.
- ``decay_add`` / ``decay_read``: exponentially decayed counters (``router.routing.learning``):
  additions commute, so racing processes never lose an outcome.
- ``note_set`` / ``note_get``: small values with a TTL: answers awaiting feedback, the last
  answer to a question per key (``router.routing.outcomes``).
- ``window_take`` / ``window_used``: a deployment's hard per-minute caps (``router.state.limits``):
  sliding windows of one-second slots, so no 60 s ever holds more than the limit.
- ``count_add`` / ``count_least`` / ``counts``: requests in flight per deployment, across
  processes (``router.balance.least_busy``); ``count_least`` picks and counts in one step.
- ``aclose``: network stores hold connections.

Keys are plain strings chosen by the layer above (``"deepseek/deepseek-chat"``,
``"rl:kimi:rpm"``); a store may prefix them and must give everything it writes a
TTL (or a bound) so that nothing grows without limit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

BreakerStateName = Literal["closed", "open", "half_open"]


@dataclass(frozen=True)
class BreakerPolicy:
    """Numbers the store needs to apply a breaker transition atomically."""

    failures: int = 5
    """Failures within ``window_s`` that open the breaker."""
    window_s: float = 30.0
    cooldown_s: float = 10.0
    """How long an open breaker refuses calls before one probe may go through."""
    probe_lease_s: float = 30.0
    """How long a half-open probe holds its slot when it never reports back (a crashed worker)."""

    @property
    def ttl_s(self) -> float:
        """Breaker keys outlive every window they describe, then vanish (closed == absent)."""
        return max(self.window_s, self.cooldown_s + self.probe_lease_s) * 2 + 60.0


@dataclass(frozen=True)
class BreakerRecord:
    """A breaker as stored. Absent keys read as closed with no failures."""

    state: BreakerStateName = "closed"
    failures: int = 0
    """Recent failures kept (at most ``policy.failures``; reset when the breaker opens or closes)."""
    opened_at: float | None = None
    probe_until: float | None = None
    """While half-open: when the current probe's lease ends."""


@dataclass(frozen=True)
class Bucket:
    """One token bucket to take from: ``capacity`` units, refilled at ``per_s`` units a second.

    A limit of N per minute is ``Bucket(key, amount, capacity=N, per_s=N / 60)``.
    """

    key: str
    amount: float
    capacity: float
    per_s: float

    @property
    def ttl_s(self) -> float:
        """After this long a bucket is full again, which is the same as absent."""
        return self.capacity / self.per_s + 1.0


@dataclass(frozen=True)
class Window:
    """A sliding-window cap: at most ``limit`` units in any ``span_s`` seconds.

    Counted in slots of ``slot_s``; a take checks the current slot and the
    ``span_s / slot_s`` before it, so every real interval of ``span_s`` lies inside
    what was checked and the cap holds exactly (at the cost of up to one slot of
    headroom)."""

    key: str
    amount: float
    limit: float
    span_s: float = 60.0
    slot_s: float = 1.0

    @property
    def slots(self) -> int:
        """Slots checked: the current one and those ``span_s`` back."""
        return round(self.span_s / self.slot_s) + 1

    @property
    def ttl_s(self) -> float:
        return self.span_s + 2 * self.slot_s


@runtime_checkable
class StateStore(Protocol):
    """Shared state for breakers, rate limits, budgets, downgrades, the response cache and learned outcomes."""

    async def breaker_allow(self, key: str, now: float, policy: BreakerPolicy) -> tuple[bool, BreakerRecord]:
        """May a call go to ``key`` now? Closed: yes. Open within cooldown: no. Open after the
        cooldown, or half-open with an expired lease: becomes half-open and grants this caller
        the one probe (lease until ``now + probe_lease_s``). Half-open with a live lease: no."""
        ...

    async def breaker_failure(self, key: str, now: float, policy: BreakerPolicy) -> BreakerRecord:
        """Record a failure at ``now``. Closed: opens when ``policy.failures`` fall within
        ``window_s``. Half-open: the probe failed, open again from ``now``. Open: unchanged."""
        ...

    async def breaker_success(self, key: str) -> None:
        """A call succeeded: the breaker closes and forgets its failures."""
        ...

    async def breaker_state(self, key: str) -> BreakerRecord:
        """Read without side effects (metrics, status pages)."""
        ...

    async def take(self, buckets: Sequence[Bucket], now: float, *, force: bool = False) -> float:
        """Take every bucket's amount, or none: 0.0 when taken, else the seconds until all fit.

        An amount larger than a bucket's capacity waits only for a full bucket and then
        leaves it in debt. ``force`` takes regardless (the amount may be negative, a refund)
        and returns 0.0: for correcting a token estimate after the reply."""
        ...

    async def add_spend(self, key: str, usd: float, ttl_s: float) -> float:
        """Add ``usd`` to ``key`` (created with ``ttl_s``) and return the new total."""
        ...

    async def spend(self, key: str) -> float:
        """The total spent under ``key`` (0.0 when absent)."""
        ...

    async def reserve_spend(self, key: str, usd: float, limit: float, ttl_s: float) -> tuple[bool, float]:
        """Add ``usd`` to ``key`` only if the new total stays within ``limit``, atomically:
        ``(True, new total)``, or ``(False, current total)`` with nothing added."""
        ...

    async def remember_downgrade(self, key: str, reason: str) -> None:
        """``key`` refused native tool calls: start it in text ReAct from now on (for a day)."""
        ...

    async def forget_downgrade(self, key: str | None = None) -> None:
        """Try native tools again for ``key``, or for every key when None."""
        ...

    async def downgrade_reason(self, key: str) -> str | None:
        """Why ``key`` was downgraded, or None when it is not."""
        ...

    async def cache_get(self, key: str) -> str | None:
        """A cached response (serialised by the caller) or None."""
        ...

    async def cache_set(self, key: str, value: str, ttl_s: float) -> None:
        """Cache ``value`` for ``ttl_s`` seconds."""
        ...

    async def decay_add(self, key: str, increments: Mapping[str, float], at: float, half_life_s: float,
                        ttl_s: float) -> None:
        """Add each increment to its field of ``key`` as evidence observed at ``at`` (may be in the
        past: withdrawing an earlier observation adds its negative at its own time)."""
        ...

    async def decay_read(self, key: str, fields: Sequence[str], now: float, half_life_s: float) -> list[float]:
        """The fields' sums as of ``now``: each addition weighs 2 ** (-(now - at) / half_life_s); absent: 0.0."""
        ...

    async def note_set(self, key: str, value: str, ttl_s: float, *, swap: bool = False) -> str | None:
        """Keep ``value`` under ``key`` for ``ttl_s``; with ``swap``, return the live value it replaced."""
        ...

    async def note_get(self, key: str) -> str | None:
        """The live value under ``key``, or None."""
        ...

    async def window_take(self, windows: Sequence[Window], now: float, *, force: bool = False, at: float | None = None) -> float:
        """Add every window's amount, or none: 0.0 when added, else the seconds until all fit
        (``math.inf`` when an amount exceeds its limit outright). ``force`` adds regardless
        (a correction, possibly negative) into the slot of time ``at`` (default ``now``)
        and returns 0.0."""
        ...

    async def window_used(self, windows: Sequence[Window], now: float) -> list[float]:
        """Units counted in each window now (its ``amount`` is ignored)."""
        ...

    async def count_add(self, key: str, delta: float, ttl_s: float) -> float:
        """Add ``delta`` to a counter (never below 0; the key lives ``ttl_s`` past its last change)."""
        ...

    async def count_least(self, keys: Sequence[str], start: int, ttl_s: float) -> int:
        """Add 1 to the counter of ``keys`` that is lowest now and return its index, in one atomic
        step; ties go to the first lowest at or after position ``start`` (callers pass a random one)."""
        ...

    async def counts(self, keys: Sequence[str]) -> list[float]:
        """The counters' values (0.0 when absent)."""
        ...

    async def aclose(self) -> None:
        """Release connections; the store must not be used afterwards."""
        ...


DECAY_EPOCH_FIELD = "~epoch"
"""Decayed counters are stored scaled by 2 ** ((at - epoch) / half_life) so that adding is one increment;
each key keeps its epoch here and is rescaled when the exponent passes ``DECAY_REBASE``."""
DECAY_REBASE = 128.0


def decay_scale(at: float, epoch: float, half_life_s: float) -> float:
    return float(2.0 ** ((at - epoch) / half_life_s))


__all__ = ["DECAY_EPOCH_FIELD", "DECAY_REBASE", "BreakerPolicy", "BreakerRecord", "BreakerStateName", "Bucket", "StateStore", "Window", "decay_scale"]
