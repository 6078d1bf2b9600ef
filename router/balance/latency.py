"""``latency``: power of two choices among the deployments that are fast now.

Each member keeps a time-decayed average of its latency (streams feed their
first-token latency, what a caller waits for; whole replies their total). The fast
set is every member within ``TOLERANCE`` (plus ``SLACK_S``) of the best average (and any member not
measured yet); two of them are drawn at random and the one with fewer requests in
flight in this process goes first, so equal deployments share the load instead of
the faster-by-noise one taking everything, and a deployment 200 ms slower than the
rest is never drawn at all: its requests would be the callers' p99. The others
follow, fastest first.

A failure counts as a slow sample (at least ``FAILURE_S``), so a failing member sinks.
A member nobody has asked for ``probe_after_s`` (0.5 s while it has fewer than
``SETTLED`` samples) is put first once (per process), and so is the longest-unheard member
outside the fast set once every ``probe_every`` decisions, so a deployment that was slow or
failing is measured again and can come back however busy the pool is (one bad sample under
load must not starve a fast twin until the timer runs out). A sample that is fast by the
fast set's own measure pulls its average at least half way down (``RECOVERY_WEIGHT``), so
one good probe brings a recovered member back. A member never measured scores 0 and is
tried at once (warm-up).
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
SETTLED = 3
"""Until a member has this many samples (its first may include opening a connection), it is probed every 0.5 s."""
RECOVERY_WEIGHT = 0.5
"""The least share a sample moves an average it undercuts by more than the tolerance (a recovery)."""
TOLERANCE = 1.5
SLACK_S = 0.05
"""Members within ``TOLERANCE`` x the best average plus ``SLACK_S`` count as equally fast (on a 10 ms endpoint,
one slow sample must not exclude a twin; 200 ms slower is excluded)."""


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
                if seconds * TOLERANCE + SLACK_S < stat.average:  # fast again by the fast set's measure
                    weight = max(weight, RECOVERY_WEIGHT)
                stat.average += weight * (seconds - stat.average)
            stat.at, stat.samples = now, stat.samples + 1

    def enter(self, key: str) -> None:
        with self._lock:
            self._stat(key).in_flight += 1

    def leave(self, key: str) -> None:
        with self._lock:
            stat = self._stat(key)
            stat.in_flight = max(0, stat.in_flight - 1)

    def in_flight(self, key: str) -> int:
        stat = self._stats.get(key)
        return 0 if stat is None else stat.in_flight

    def average(self, key: str) -> float | None:
        stat = self._stats.get(key)
        return stat.average if stat is not None and stat.samples else None

    def last_heard(self, key: str) -> float:
        stat = self._stats.get(key)
        return stat.at if stat is not None else -math.inf

    def due_probe(self, key: str, after_s: float) -> bool:
        """True once per ``after_s`` for a member not heard from in that long (its timer restarts now)."""
        with self._lock:
            stat = self._stats.get(key)
            now = self._clock()
            period = after_s if stat is not None and stat.samples >= SETTLED else min(after_s, 0.5)
            if stat is None or not stat.samples or now - max(stat.at, stat.probed) < period:
                return False
            stat.probed = now  # one probe per period, not one per concurrent caller
            return True


class Latency:
    def __init__(self, book: LatencyBook, rng: random.Random | None = None, *, probe_after_s: float = 10.0,
                 probe_every: int = 200) -> None:
        self.book = book
        self._rng = rng or random.Random()
        self.probe_after_s = probe_after_s
        self.probe_every = probe_every
        self._decisions = 0

    async def choose(self, members: Sequence[Member]) -> Choice:
        averages = {m.key: self.book.average(m.key) or 0.0 for m in members}  # not measured yet: 0, tried at once
        ranked = sorted(members, key=lambda m: (averages[m.key], self._rng.random()))
        probe = next((m for m in ranked[1:] if self.book.due_probe(m.key, self.probe_after_s)), None)
        if probe is not None:
            return Choice((probe, *(m for m in ranked if m is not probe)))
        best = averages[ranked[0].key]
        fast = [m for m in ranked if averages[m.key] <= best * TOLERANCE + SLACK_S]
        self._decisions += 1
        if self._decisions % self.probe_every == 0 and len(fast) < len(ranked):
            outside = min((m for m in ranked if m not in fast), key=lambda m: self.book.last_heard(m.key))
            return Choice((outside, *(m for m in ranked if m is not outside)))
        if len(fast) > 1:
            a, b = self._rng.sample(fast, 2)
            first = a if self.book.in_flight(a.key) <= self.book.in_flight(b.key) else b
            ranked.remove(first)
            ranked.insert(0, first)
        return Choice(tuple(ranked))


__all__ = ["Latency", "LatencyBook"]
