"""``usage``: the member with the most headroom under its rpm/tpm caps, read from the shared store.

Headroom is the free share of a member's tightest cap over the last 60 s
(``router.state.limits.DeploymentLimits``), so load spreads in proportion to what
each key may still take; an unlimited member has full headroom. The cap itself is
enforced when the chain reserves a request (the same windows, atomically), so two
processes choosing the same member at once cannot push it over: the loser moves
to the next member instead of provoking a 429. Ties go at random.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from router.balance.base import Choice, Member

if TYPE_CHECKING:
    from router.state.limits import DeploymentLimits


class Usage:
    def __init__(self, limits: DeploymentLimits, rng: random.Random | None = None) -> None:
        self.limits = limits
        self._rng = rng or random.Random()

    async def choose(self, members: Sequence[Member]) -> Choice:
        free = await self.limits.headroom([(m.limit_key, m.limits) for m in members])
        ranked = sorted(zip(members, free, strict=True), key=lambda pair: (-pair[1], self._rng.random()))
        return Choice(tuple(m for m, _ in ranked))


__all__ = ["Usage"]
