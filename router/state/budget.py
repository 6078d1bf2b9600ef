"""Budget reservations: a request's estimated cost is set aside before the call, settled after.

Checking "spent < limit" before answering and charging after lets every request in
flight pass the same check: 40 concurrent $1 requests on a $5 budget all went
through. Instead each request reserves its estimate atomically (one Lua script on
Redis, one locked step in memory): a reservation that would take the day's total past
the limit is refused, so what is reserved never exceeds the limit, on any number of
processes sharing the store. Afterwards the reservation is settled to the real cost
(the difference is added or refunded); a request that was cut or dropped after the
provider started is settled to what was used, or keeps its reservation when that is
unknown; one that never reached a provider is released.

Spend lives under the same day keys as ``router.state.limits.Budget``, so both read
one total.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from router.errors import BudgetExceededError, UsageError
from router.state.base import StateStore
from router.state.limits import _DAY_TTL_S, Budget


@dataclass(frozen=True)
class Reservation:
    key: str
    """The day's spend key it was taken from (settled there even after midnight)."""
    usd: float


class BudgetReservationError(BudgetExceededError):
    """The request's estimate does not fit in what is left of today's budget."""

    def __init__(self, scope: str, limit_usd: float, spent_usd: float, day: str, estimate_usd: float) -> None:
        super().__init__(scope, limit_usd, spent_usd, day)
        self.estimate_usd = estimate_usd
        left = max(0.0, limit_usd - spent_usd)
        self.args = (f"budget exceeded for {scope!r}: this request may cost up to ${estimate_usd:.4f} and "
                     f"${left:.4f} of ${limit_usd:.2f} per day is left ({day} UTC, in-flight requests included); "
                     "a lower max_tokens reserves less",)

    def __str__(self) -> str:
        return str(self.args[0])


class ReservingBudget(Budget):
    """A per-scope daily USD budget spent through reservations."""

    def __init__(self, store: StateStore, scope: str, limit_usd_per_day: float, *,
                 clock: Callable[[], float] = time.time) -> None:
        super().__init__(store, scope, limit_usd_per_day, clock=clock)

    async def reserve(self, estimate_usd: float) -> Reservation:
        """Set ``estimate_usd`` aside, or raise ``BudgetReservationError`` (nothing taken) when it does not fit."""
        if not (math.isfinite(estimate_usd) and estimate_usd >= 0):
            raise UsageError(f"budget for {self.scope!r}: an estimate must be a finite amount >= 0 USD")
        day = self.day()
        key = self._key(day)
        ok, total = await self.store.reserve_spend(key, estimate_usd, self.limit_usd, _DAY_TTL_S)
        if not ok or (estimate_usd == 0 and total >= self.limit_usd):
            raise BudgetReservationError(self.scope, self.limit_usd, total, day, estimate_usd)
        return Reservation(key, estimate_usd)

    async def settle(self, reservation: Reservation, actual_usd: float | None) -> None:
        """Replace the reservation by the real cost; None keeps the reservation as the charge."""
        if actual_usd is None or not math.isfinite(actual_usd) or actual_usd < 0:
            return
        delta = actual_usd - reservation.usd
        if delta:
            await self.store.add_spend(reservation.key, delta, _DAY_TTL_S)

    async def release(self, reservation: Reservation) -> None:
        """Nothing was spent (no provider was reached): give the reservation back."""
        if reservation.usd:
            await self.store.add_spend(reservation.key, -reservation.usd, _DAY_TTL_S)


__all__ = ["BudgetReservationError", "Reservation", "ReservingBudget"]
