"""Keeping ``strong_share`` true on this process's own traffic.

The shipped threshold for a share comes from the fitted prompts, every source weighing the same. A
user's traffic is not that mix: a team that asks mostly maths would see most of it go up with a
fixed threshold (on GSM8K alone, a share of 0.3 sends about 80% up). So once enough scores have been
seen, the threshold is the ``1 - share`` quantile of the latest ``WINDOW`` scores: the share asked for
is the share sent, whatever the mix, and the ordering (which questions go up) is still the score's.
Before ``WARMUP`` scores the shipped threshold holds. An explicit ``threshold`` in the config is never
adapted. Per process, bounded: ``WINDOW`` floats and one lock.
"""

from __future__ import annotations

import bisect
import threading
from collections import deque

WINDOW = 512
WARMUP = 64


class ShareTracker:
    """The recent scores of auto decisions, in arrival order and sorted."""

    def __init__(self, window: int = WINDOW, warmup: int = WARMUP) -> None:
        self._window = window
        self._warmup = min(warmup, window)
        self._recent: deque[float] = deque()
        self._sorted: list[float] = []
        self._lock = threading.Lock()

    def threshold(self, share: float, shipped: float) -> float:
        """The score threshold that sends ``share`` of the recent traffic up (``shipped`` while warming up)."""
        with self._lock:
            n = len(self._sorted)
            if n < self._warmup or share <= 0.0 or share >= 1.0:
                return shipped
            position = (1.0 - share) * (n - 1)
            low = int(position)
            high = min(low + 1, n - 1)
            return self._sorted[low] + (self._sorted[high] - self._sorted[low]) * (position - low)

    def observe(self, score: float) -> None:
        with self._lock:
            if len(self._recent) >= self._window:
                old = self._recent.popleft()
                del self._sorted[bisect.bisect_left(self._sorted, old)]
            self._recent.append(score)
            bisect.insort(self._sorted, score)

    def __len__(self) -> int:
        with self._lock:
            return len(self._recent)


__all__ = ["WARMUP", "WINDOW", "ShareTracker"]
