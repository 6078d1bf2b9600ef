"""Running tool functions off the event loop: per-call workers and background tasks.

Sync tools run in daemon threads rather than a ThreadPoolExecutor on purpose: a
tool that hangs past its timeout is abandoned, and an abandoned executor thread
would keep the interpreter from exiting. The number of such threads alive at once
is bounded (``MAX_TOOL_THREADS``): a model asking for thousands of calls, or tools
that hang and pile up, get an error result instead of a new thread. Python cannot
kill a thread, so an abandoned one holds its slot until it returns by itself; once a
tool has ``MAX_ABANDONED_PER_TOOL`` of them its new calls fail at once, and no tool ever
holds more than ``MAX_THREADS_PER_TOOL`` threads, so every other tool keeps the rest of the
pool however many parallel calls a hung one was asked for. ``async def``
tools run as tasks on the caller's loop (cancelled at their timeout).
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_task_numbers = itertools.count(1)
_task_lock = threading.Lock()

MAX_TOOL_THREADS = 128
"""Sync tool threads alive at once, across the process (hung ones included)."""
MAX_ABANDONED_PER_TOOL = 8
"""Threads one tool may leave running past their timeout before its new calls are refused (not queued)."""
MAX_THREADS_PER_TOOL = MAX_TOOL_THREADS // 4
"""Threads one tool may have alive at once (running or abandoned): a quarter of the pool."""
_threads = threading.BoundedSemaphore(MAX_TOOL_THREADS)
_abandoned: dict[str, int] = {}
"""Per tool: calls abandoned at their timeout whose thread is still running."""
_alive: dict[str, int] = {}
"""Per tool: threads alive (running, abandoned or not)."""
_abandoned_lock = threading.Lock()


def abandoned_threads(tool: str | None = None) -> int:
    """Threads still running after their call was given up (one tool's, or all)."""
    with _abandoned_lock:
        return _abandoned.get(tool, 0) if tool is not None else sum(_abandoned.values())


class TooManyToolThreads(RuntimeError):
    """Every tool thread is busy (often: earlier calls hung past their timeout)."""


class Pending:
    """One tool call running: a sync function in a daemon thread, or a coroutine as a task.

    Completion is visible both to threads (``wait``) and to the event loop
    (``await wait_async``), so the async loop never blocks on a thread.
    """

    def __init__(
        self, fn: Callable[[], Any], name: str = "router-tool", *, is_async: bool | None = None, tool: str | None = None
    ) -> None:
        """``tool`` names whose quota of abandoned threads this call counts against (default: ``name``)."""
        self.value: Any = None
        self.exception: BaseException | None = None
        self.started = time.perf_counter()
        self.finished: float | None = None
        self._done = threading.Event()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []
        self._lock = threading.Lock()
        self.tool = tool or name
        self._abandoned = False
        self._returned = False
        if is_async is None:  # callers that know (the tool runner) say so: an async __call__ is not detectable here
            is_async = inspect.iscoroutinefunction(getattr(fn, "func", fn))
        if is_async:
            self._task: asyncio.Task[None] | None = asyncio.get_running_loop().create_task(self._run_async(fn), name=name)
            return
        self._task = None
        with _abandoned_lock:
            hung, alive = _abandoned.get(self.tool, 0), _alive.get(self.tool, 0)
            if hung >= MAX_ABANDONED_PER_TOOL:
                raise TooManyToolThreads(
                    f"tool {self.tool}: {hung} earlier calls are still running past their timeout; not started "
                    "(a hung tool gets no more threads; other tools are not affected)"
                )
            if alive >= MAX_THREADS_PER_TOOL:
                raise TooManyToolThreads(f"tool {self.tool} already has {alive} calls running; not started")
            if not _threads.acquire(blocking=False):
                raise TooManyToolThreads(f"{MAX_TOOL_THREADS} tool threads are still running; not started")
            _alive[self.tool] = alive + 1
        try:
            threading.Thread(target=self._run, args=(fn,), name=name, daemon=True).start()
        except BaseException:  # "can't start new thread": the slot is not lost
            self._release()
            raise

    def _run(self, fn: Callable[[], Any]) -> None:
        try:
            self.value = fn()
            if inspect.isawaitable(self.value):  # a sync wrapper around a coroutine: finish it here
                self.value = asyncio.run(_awaited(self.value))
        except BaseException as exc:  # the loop turns any failure into a tool message
            self.exception = exc
        finally:
            self._release()
            self._finish()

    def _release(self) -> None:
        """The thread's slots back: the pool's, its tool's, and its tool's abandoned quota when it was given up."""
        with _abandoned_lock:
            _threads.release()
            _alive[self.tool] -= 1
            if not _alive[self.tool]:
                del _alive[self.tool]
            if self._abandoned:  # a call given up earlier has returned at last
                _abandoned[self.tool] -= 1
                if not _abandoned[self.tool]:
                    del _abandoned[self.tool]
            self._abandoned = False
            self._returned = True

    async def _run_async(self, fn: Callable[[], Any]) -> None:
        try:
            self.value = await fn()
        except asyncio.CancelledError as exc:
            self.exception = TimeoutError("cancelled")
            self._finish()
            raise exc
        except BaseException as exc:
            self.exception = exc
        self._finish()

    def _finish(self) -> None:
        self.finished = time.perf_counter()
        with self._lock:
            self._done.set()
            waiters, self._waiters = self._waiters, []
        for loop, future in waiters:
            loop.call_soon_threadsafe(_resolve, future)

    async def wait_async(self, timeout_s: float) -> bool:
        """Wait without blocking the loop; True when finished. A timed-out async tool is cancelled."""
        if not self._done.is_set():
            loop = asyncio.get_running_loop()
            future: asyncio.Future[None] = loop.create_future()
            with self._lock:
                if self._done.is_set():
                    future.set_result(None)
                else:
                    self._waiters.append((loop, future))
            try:
                await asyncio.wait_for(future, max(0.0, timeout_s))
            except TimeoutError:
                if self._task is not None:
                    self._task.cancel()
                else:
                    self.abandon()
        return self._done.is_set()

    def abandon(self) -> None:
        """The caller gave up on this call (its timeout): a thread still running counts against its tool."""
        if self._task is not None:
            return
        with _abandoned_lock:
            if not self._abandoned and not self._returned:
                self._abandoned = True
                _abandoned[self.tool] = _abandoned.get(self.tool, 0) + 1

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout_s: float) -> bool:
        return self._done.wait(max(0.0, timeout_s))

    @property
    def duration_s(self) -> float:
        return (self.finished if self.finished is not None else time.perf_counter()) - self.started


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


async def _awaited(value: Any) -> Any:
    return await value


def new_task_id() -> str:
    with _task_lock:
        return f"bg_{next(_task_numbers):04d}"


@dataclass
class BackgroundTask:
    task_id: str
    call_id: str
    tool: str
    arguments: dict[str, Any]
    raw_arguments: str
    step: int
    record_index: int
    pending: Pending
    deadline: float
    timeout_s: float = 0.0

    @property
    def timed_out(self) -> bool:
        return not self.pending.done and time.perf_counter() >= self.deadline


@dataclass
class BackgroundTasks:
    """Tasks started by background tools and not yet reported to the model."""

    tasks: list[BackgroundTask] = field(default_factory=list)

    def start(
        self,
        fn: Callable[[], Any],
        *,
        call_id: str,
        tool: str,
        arguments: dict[str, Any],
        raw_arguments: str,
        step: int,
        record_index: int,
        timeout_s: float,
        is_async: bool | None = None,
    ) -> BackgroundTask:
        task_id = new_task_id()
        task = BackgroundTask(
            task_id=task_id,
            call_id=call_id,
            tool=tool,
            arguments=arguments,
            raw_arguments=raw_arguments,
            step=step,
            record_index=record_index,
            pending=Pending(fn, name=f"router-{task_id}", is_async=is_async, tool=tool),
            deadline=time.perf_counter() + timeout_s,
            timeout_s=timeout_s,
        )
        self.tasks.append(task)
        return task

    def outstanding(self) -> bool:
        return bool(self.tasks)

    def collect(self) -> list[BackgroundTask]:
        """Tasks that finished (or ran out of time) since the last collect, in start order."""
        ready = [task for task in self.tasks if task.pending.done or task.timed_out]
        self.tasks = [task for task in self.tasks if task not in ready]
        for task in ready:
            if not task.pending.done:
                task.pending.abandon()
        return ready

    async def wait_all(self) -> None:
        """Wait until every task finished or reached its deadline."""
        for task in list(self.tasks):
            await task.pending.wait_async(task.deadline - time.perf_counter())


def notification(task_id: str, tool: str, status: str, result: str) -> str:
    """The block a model reads when a background task ends (the tutorials' format)."""
    return (
        "<task_notification>\n"
        f"  <task_id>{task_id}</task_id>\n"
        f"  <tool>{tool}</tool>\n"
        f"  <status>{status}</status>\n"
        f"  <result>{result}</result>\n"
        "</task_notification>"
    )


__all__ = ["MAX_ABANDONED_PER_TOOL", "MAX_THREADS_PER_TOOL", "MAX_TOOL_THREADS", "BackgroundTask", "BackgroundTasks", "Pending", "TooManyToolThreads", "abandoned_threads", "new_task_id", "notification"]
