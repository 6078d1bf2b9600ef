"""Running tool functions off the loop's thread: per-call workers and background tasks.

Workers are daemon threads rather than a ThreadPoolExecutor on purpose: a tool
that hangs past its timeout is abandoned, and an abandoned executor thread would
keep the interpreter from exiting.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_task_numbers = itertools.count(1)
_task_lock = threading.Lock()


class Pending:
    """One function running in its own daemon thread."""

    def __init__(self, fn: Callable[[], Any], name: str = "router-tool") -> None:
        self.value: Any = None
        self.exception: BaseException | None = None
        self.started = time.perf_counter()
        self.finished: float | None = None
        self._done = threading.Event()
        threading.Thread(target=self._run, args=(fn,), name=name, daemon=True).start()

    def _run(self, fn: Callable[[], Any]) -> None:
        try:
            self.value = fn()
        except BaseException as exc:  # the loop turns any failure into a tool message
            self.exception = exc
        finally:
            self.finished = time.perf_counter()
            self._done.set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout_s: float) -> bool:
        return self._done.wait(max(0.0, timeout_s))

    @property
    def duration_s(self) -> float:
        return (self.finished if self.finished is not None else time.perf_counter()) - self.started


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
            pending=Pending(fn, name=f"router-{task_id}"),
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
        return ready

    def wait_all(self) -> None:
        """Block until every task finished or reached its deadline."""
        for task in list(self.tasks):
            task.pending.wait(task.deadline - time.perf_counter())


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


__all__ = ["BackgroundTask", "BackgroundTasks", "Pending", "new_task_id", "notification"]
