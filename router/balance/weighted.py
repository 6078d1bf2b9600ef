"""``weighted``: smooth weighted round robin (nginx's), per pool, in process.

Each pick adds every member's weight to its running score, takes the highest and
subtracts the total from it: weights 1:2:3 give ``c b c a c b`` and repeat, so
shares are exact over every cycle and the heaviest member is never hit in a burst.
Processes pick independently; each one's shares are exact, so the sum is too.
The rest of the order (who is tried when the pick fails) is by weight, ties at random.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence

from router.balance.base import Choice, Member


class Weighted:
    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng or random.Random()
        self._scores: dict[str, float] = {}
        self._lock = threading.Lock()

    def pick(self, members: Sequence[Member]) -> Member:
        total = sum(m.weight for m in members)
        with self._lock:
            best: Member | None = None
            best_score = -float("inf")
            for member in members:
                score = self._scores.get(member.key, 0.0) + member.weight
                self._scores[member.key] = score
                if score > best_score:
                    best, best_score = member, score
            assert best is not None
            self._scores[best.key] = best_score - total
            return best

    async def choose(self, members: Sequence[Member]) -> Choice:
        first = self.pick(members)
        rest = [m for m in members if m is not first]
        self._rng.shuffle(rest)
        rest.sort(key=lambda m: -m.weight)
        return Choice((first, *rest))


__all__ = ["Weighted"]
