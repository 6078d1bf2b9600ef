"""Which automatic decisions ``routing.learning`` sends to the other tier, to keep learning about it.

Trying the other tier costs least where the difficulty score is least sure: nearest the threshold.
How near matters: a decision a third of the way out is ordered by the score well enough that sending
it the other way costs on average. On the tables as they are (``bench/learning.py --users 4 --seeds
21,22``, 8 users, PGR against learning off at the same strong share), exploring the nearest third with
every learned adjustment switched off cost -0.023 mean (-0.053 worst), learning without exploring
-0.002 (-0.043 worst), the whole learner -0.025 (-0.042 worst, first 4 users); with the nearest
``share`` (this band) the whole learner gave +0.004 (-0.021 worst), the nearest tenth -0.007 (-0.032).
Per process, bounded: a window of recent margins and one lock.
"""

from __future__ import annotations

import math
import random
import threading
from collections import deque

_FORCE_OWED = 4.0
"""Explorations owed before the next decision takes one wherever its score lies (2 with the nearest third, the
earlier band; 3 with the nearest tenth and 4 with the nearest ``share`` tried on ``bench/learning.py --seeds 21,22``)."""


class Explorer:
    """``share`` of the decisions explore, and the ones that do are those nearest the threshold.

    Each decision adds ``share`` to what is owed; one that is owed an exploration and lies within
    the nearest ``share`` of recent decisions to the threshold takes it (trying the other tier
    costs least there, and tells most), and when ``_FORCE_OWED`` are owed the next decision takes
    one wherever it lies. So over any 1,000 decisions the share is ``share`` to within four
    decisions (the band holds about ``share`` of them: what is owed drifts, and is paid when it
    reaches ``_FORCE_OWED``)."""

    def __init__(self, share: float, rng: random.Random | None = None) -> None:
        self._share = share
        self._lock = threading.Lock()
        # a random phase, so processes do not explore in step (the module's generator: a bench can seed it)
        self._owed = rng.random() if rng is not None else random.random()
        self._recent: deque[float] = deque(maxlen=240)
        self._near = math.inf
        self._count = 0

    def explores(self, margin: float) -> bool:
        if self._share <= 0:
            return False
        with self._lock:
            self._owed += self._share
            self._recent.append(margin)
            self._count += 1
            if self._count % 24 == 1:
                ordered = sorted(self._recent)
                self._near = ordered[min(len(ordered) - 1, int(len(ordered) * self._share))]
            if self._owed >= _FORCE_OWED or (self._owed >= 1.0 and margin <= self._near):
                self._owed -= 1.0
                return True
            return False


__all__ = ["Explorer"]
