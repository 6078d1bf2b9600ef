"""``latency``: power of two choices on a moving average of each deployment's latency.

Two members are drawn at random and the one with the lower score goes first, where
the score is the member's time-decayed average latency times (1 + its requests in
flight in this process): a slow deployment loses every draw it is in, and two equal
ones share the load instead of the faster-by-noise one taking everything. Streams
feed their first-token latency (what a caller waits for), whole replies their total.

A failure counts as a slow sample (at least ``FAILURE_S``), so a failing member sinks.
A member nobody has asked for ``probe_after_s`` is put first once (per process), so a
deployment that was slow or failing is measured again and can come back; a member
never measured scores 0 and is tried at once (warm-up).
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from router.balance.base import Choice, Member

FAILURE_S = 2.0
"""A failed try counts as at least this slow (and at least twice its member's average)."""
DECAY_S = 5.0
"""Half of the average's memory is older than about this (samples weigh by the time since the last one)."""
MIN_WEIGHT = 0.1
"""Every sample moves the average by at least this share, however close together samples come."""


@dataclass
class _Stat:
    average: float = 0.0
    at: float = 0.0
    samples: int = 0
    in_flight: int = 0
    probed: float = 0.0


class LatencyBook:
    """Per-member latency averages and in-flight counts of this process (what latency balancing reads)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._stats: dict[str, _Stat] = {}
        self._lock = threading.Lock()

    def _stat(self, key: str) -> _Stat:
        stat = self._stats.get(key)
        if stat is None:
            stat = self._stats[key] = _Stat(at=self._clock())
        return stat

    def observe(self, key: str, seconds: float, *, ok: bool = True) -> None:
        with self._lock:
            stat = self._stat(key)
            now = self._clock()
            if not ok:
                seconds = max(seconds, FAILURE_S, 2 * stat.average)
            if stat.samples == 0:
                stat.average = seconds
            else:
                weight = max(MIN_WEIGHT, 1.0 - math.exp(-max(0.0, now - stat.at) / DECAY_S))
                stat.average += weight * (seconds - stat.average)
            stat.at, stat.samples = now, stat.samples + 1

    def enter(self, key: str) -> None:
        with self._lock:
            self._stat(key).in_flight += 1

    def leave(self, key: str) -> None:
        with self._lock:
            stat = self._stat(key)
            stat.in_flight = max(0, stat.in_flight - 1)

    def score(self, key: str) -> float:
        stat = self._stats.get(key)
        return 0.0 if stat is None or not stat.samples else stat.average * (1 + stat.in_flight)

    def average(self, key: str) -> float | None:
        stat = self._stats.get(key)
        return stat.average if stat is not None and stat.samples else None

    def due_probe(self, key: str, after_s: float) -> bool:
        """True once per ``after_s`` for a member not heard from in that long (its timer restarts now)."""
        with self._lock:
            stat = self._stats.get(key)
            now = self._clock()
            if stat is None or not stat.samples or now - max(stat.at, stat.probed) < after_s:
                return False
            stat.probed = now  # one probe per period, not one per concurrent caller
            return True


class Latency:
    def __init__(self, book: LatencyBook, rng: random.Random | None = None, *, probe_after_s: float = 10.0) -> None:
        self.book = book
        self._rng = rng or random.Random()
        self.probe_after_s = probe_after_s

    async def choose(self, members: Sequence[Member]) -> Choice:
        scores = {m.key: self.book.score(m.key) for m in members}
        ranked = sorted(members, key=lambda m: (scores[m.key], self._rng.random()))
        probe = next((m for m in ranked[1:] if self.book.due_probe(m.key, self.probe_after_s)), None)
        if probe is not None:
            return Choice((probe, *(m for m in ranked if m is not probe)))
        if len(members) > 2:
            a, b = self._rng.sample(list(members), 2)
            first = a if scores[a.key] <= scores[b.key] else b
            ranked.remove(first)
            ranked.insert(0, first)
        return Choice(tuple(ranked))


__all__ = ["Latency", "LatencyBook"]
