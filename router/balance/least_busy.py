"""``least_busy``: the member with the fewest requests in flight, counted across processes.

The pick and its count are one atomic step in the state store (``count_least``),
so two processes (or 32 concurrent callers) reading "0 and 0" at the same time
cannot both land on the same member. Ties start from a random position, never
the list's first: LiteLLM's least-busy favoured the first deployment exactly there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from router.balance.base import Choice, Member

if TYPE_CHECKING:
    from router.state.base import StateStore

FLIGHT_TTL_S = 900.0
"""A counter outlives its last change by this long: a crashed process's counts fade instead of staying."""


def flight_key(member: Member) -> str:
    return f"inflight:{member.key}"


class LeastBusy:
    def __init__(self, store: StateStore, rng: random.Random | None = None) -> None:
        self.store = store
        self._rng = rng or random.Random()

    async def choose(self, members: Sequence[Member]) -> Choice:
        start = self._rng.randrange(len(members))
        index = await self.store.count_least([flight_key(m) for m in members], start, FLIGHT_TTL_S)
        first = members[index]
        rest = [m for m in members if m is not first]
        self._rng.shuffle(rest)
        return Choice((first, *rest), counted=first)


__all__ = ["FLIGHT_TTL_S", "LeastBusy", "flight_key"]
