"""The body read's own deadline, kept by one sweeper per app instead of a timer per request.

``asyncio.timeout`` costs a timer handle, a reschedule and a cancel on every request
(about a tenth of the gateway's own CPU per request); a request whose body is already
in never needs it. Requests still reading their body are listed with their deadline;
one task wakes every second (or a quarter of the deadline) and cancels the readers
that are late, which then answer 408. Precision is that period, for a deadline of
seconds.
"""

from __future__ import annotations

import asyncio
import time


class BodyDeadlines:
    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self._period = min(1.0, timeout_s / 4)
        self._reading: dict[asyncio.Task[object], float] = {}
        self._expired: set[asyncio.Task[object]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    def start(self) -> asyncio.Task[object] | None:
        """The current task begins reading a body."""
        task = asyncio.current_task()
        if task is None:
            return None
        self._reading[task] = time.monotonic() + self.timeout_s
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        return task

    def stop(self, task: asyncio.Task[object] | None) -> None:
        if task is not None:
            self._reading.pop(task, None)

    def expired(self, task: asyncio.Task[object] | None) -> bool:
        """Was ``task`` cancelled by its deadline (then its cancellation is taken back)?"""
        if task is None or task not in self._expired:
            return False
        self._expired.discard(task)
        task.uncancel()
        return True

    async def _sweep(self) -> None:
        while self._reading:
            await asyncio.sleep(self._period)
            now = time.monotonic()
            for task, deadline in list(self._reading.items()):
                if deadline <= now:
                    del self._reading[task]
                    self._expired.add(task)
                    task.cancel()

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()


__all__ = ["BodyDeadlines"]
