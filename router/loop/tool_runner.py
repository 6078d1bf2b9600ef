"""Executing one turn's tool calls for the loop: parallel, bounded, never raising.

Everything that can go wrong with a call (unreadable arguments, unknown tool,
invalid arguments, an exception, a timeout, a pointless repeat) becomes the text
of that call's result, so the model can correct itself and the chain stays whole.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from router.errors import ToolArgumentsError
from router.loop.workers import BackgroundTasks, Pending, TooManyToolThreads, notification
from router.tools.registry import ToolRegistry, describe_tool_error, result_error, result_to_text
from router.types import Event, ToolCallEvent, ToolRecord, ToolResultEvent

if TYPE_CHECKING:
    from router.config import LoopSettings

LoopEvent = Event
"""The loop emits the one UI event union (kept under its old public name)."""


@dataclass(frozen=True)
class PreparedCall:
    """One requested call, arguments already parsed (``error`` set: they could not be)."""

    call_id: str
    name: str
    raw_arguments: str
    arguments: dict[str, Any] | None
    error: str | None = None


def parse_native_arguments(raw: str) -> tuple[dict[str, Any] | None, str | None]:
    if not raw.strip():
        return {}, None  # several servers send "" for a call without arguments
    try:
        value = json.loads(raw)
    except ValueError as exc:
        return None, f"the arguments are not valid JSON ({exc})"
    if not isinstance(value, dict):
        return None, f"the arguments must be a JSON object, got {type(value).__name__}"
    return value, None


RECORD_MAX_CHARS = 100_000
"""Characters of a tool's result kept in its ``ToolRecord`` (at least ``loop.max_result_chars``)."""


def truncate(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[truncated: the result had {len(text)} characters; only the first {limit} are shown]"


def repeat_key(call: PreparedCall) -> str:
    """Same tool + same canonical arguments (key order does not matter); unreadable
    arguments compare by their raw text, so a model resending the same broken call is
    caught too."""
    if call.arguments is None:
        return f"{call.name}\0raw:{call.raw_arguments}"
    return call.name + json.dumps(call.arguments, sort_keys=True, ensure_ascii=False, default=str)


class ToolRunner:
    """Runs calls and keeps the ToolRecords (one per call, in call order) of a loop run.

    An identical call runs at most ``max_repeats`` times; later ones are answered
    with the earlier result, and once the model repeats past that warning
    ``repeat_overflow`` tells the loop to stop offering tools.
    """

    def __init__(
        self,
        registry: ToolRegistry,
        *,
        settings: LoopSettings,
        emit: Callable[[LoopEvent], None],
    ) -> None:
        self.registry = registry
        self.settings = settings
        self.emit = emit
        self.records: list[ToolRecord] = []
        self.background = BackgroundTasks()
        self.repeat_overflow = False
        self._repeat_counts: dict[str, int] = {}
        self._last: dict[str, tuple[str, str, str | None]] = {}  # repeat key -> (message content, result, error)

    async def run_turn(self, calls: list[PreparedCall], step: int) -> list[str]:
        """Run one turn's calls concurrently; the message contents in call order.

        Calls past ``max_calls_per_turn`` are not run: each still gets its tool
        message (an error the model can read), so the chain stays whole.
        """
        started = time.perf_counter()
        plans: list[tuple[str, Any]] = []
        for position, call in enumerate(calls):
            self.emit(ToolCallEvent(call.name, call.call_id, call.raw_arguments, step=step))
            if position >= self.settings.max_calls_per_turn:
                error = f"too many calls in one turn (limit {self.settings.max_calls_per_turn}); not run"
                plans.append(("done", (f"Error: {error}. Ask for fewer calls at once.", self._record(call, step, "", error))))
                continue
            plans.append(self._plan(call, step, len(self.records) + position))
        contents: list[str] = []
        for call, (kind, detail) in zip(calls, plans, strict=True):
            if kind == "run":
                timeout, pending = detail
                await pending.wait_async(started + timeout - time.perf_counter())
                content, record = self._finished(call, step, pending, timeout)
            elif kind == "repeat":
                previous, previous_result, previous_error = self._last[detail]
                content = (
                    f"You already called {call.name} with these exact arguments; it was not run again. "
                    f"Use the result you already have:\n{previous}"
                )
                why = f"earlier attempt failed: {previous_error}" if previous_error else "earlier result reused"
                record = self._record(call, step, previous_result, f"repeated call: not run again, {why}")
            else:
                content, record = detail
            if kind != "repeat":
                self._last[repeat_key(call)] = (content, record.result, record.error)
            self.records.append(record)
            contents.append(content)
            self.emit(ToolResultEvent(call.name, call.call_id, content, record.error, record.duration_s, step=step,
                                      server=record.server))
        return contents

    def _record(self, call: PreparedCall, step: int, result: str, error: str | None, duration_s: float = 0.0) -> ToolRecord:
        tool = self.registry.get(call.name)  # an MCP tool says which server ran it
        return ToolRecord(
            tool=call.name, arguments=call.arguments, result=result, error=error, duration_s=duration_s,
            call_id=call.call_id, raw_arguments=call.raw_arguments, step=step,
            server=getattr(tool, "server", ""), server_tool=getattr(tool, "server_tool", ""),
        )  # fmt: skip

    def _plan(self, call: PreparedCall, step: int, record_index: int) -> tuple[str, Any]:
        """("done", (content, record)) | ("run", (timeout, Pending)) | ("repeat", key)."""

        def failed(content: str, error: str) -> tuple[str, Any]:
            return "done", (content, self._record(call, step, "", error))

        key = repeat_key(call)
        count = self._repeat_counts[key] = self._repeat_counts.get(key, 0) + 1
        if count > self.settings.max_repeats:
            self.repeat_overflow = self.repeat_overflow or count > self.settings.max_repeats + 1
            return "repeat", key
        if call.error is not None or call.arguments is None:
            error = call.error or "unreadable arguments"
            return failed(f"Error: {error}. The tool {call.name} was not run; send the arguments as one JSON object.", error)
        tool = self.registry.get(call.name)
        if tool is None:
            names = ", ".join(self.registry.names()) or "none"
            return failed(f"Error: unknown tool {call.name!r}. Available tools: {names}.", f"unknown tool {call.name!r}")
        try:
            kwargs = tool.validate(call.arguments)
        except ToolArgumentsError as exc:
            return failed(f"Error: {exc}. Fix the arguments and call {call.name} again.", str(exc))
        timeout = min(self.settings.tool_timeout_s, tool.timeout_s or self.settings.tool_timeout_s)
        # an async tool is awaited on this loop (cancellable at its timeout); a sync one gets a worker thread
        is_async = tool.is_async and tool.afn is not None
        work = functools.partial(tool.afn if is_async else tool.fn, **kwargs)
        if not tool.background:
            try:
                return "run", (timeout, Pending(work, name=f"router-tool-{call.name}", is_async=is_async, tool=call.name))
            except TooManyToolThreads as exc:
                return failed(f"Error: {exc}. Try again later.", str(exc))
        try:
            task = self.background.start(
                work, call_id=call.call_id, tool=call.name, arguments=call.arguments, raw_arguments=call.raw_arguments,
                step=step, record_index=record_index, timeout_s=timeout, is_async=is_async,
            )  # fmt: skip
        except TooManyToolThreads as exc:
            return failed(f"Error: {exc}. Try again later.", str(exc))
        content = json.dumps(
            {"background_task_id": task.task_id, "status": "running",
             "message": "The task runs in the background; its result will arrive later in a <task_notification>."},
            ensure_ascii=False,
        )  # fmt: skip
        return "done", (content, self._record(call, step, content, f"still running in background ({task.task_id})"))

    def _finished(self, call: PreparedCall, step: int, pending: Pending, timeout: float) -> tuple[str, ToolRecord]:
        if not pending.done:
            error = f"timed out after {timeout:g} s"
            content = f"Error: tool {call.name} did not finish within {timeout:g} s and was abandoned."
            return content, self._record(call, step, "", error, pending.duration_s)
        if pending.exception is not None:
            error = describe_tool_error(pending.exception)
            return f"Error: tool {call.name} failed: {error}", self._record(call, step, "", error, pending.duration_s)
        text = result_to_text(pending.value)
        record = self._record(call, step, truncate(text, self._record_chars()), result_error(pending.value),
                              pending.duration_s)
        return truncate(text, self.settings.max_result_chars), record

    def _record_chars(self) -> int:
        """A record keeps more than the model is shown, but never all of it: a tool returning 100 MB must not
        keep 100 MB in every answer (and in the server's ``router`` extension)."""
        return max(self.settings.max_result_chars, RECORD_MAX_CHARS)

    # --- background tasks -------------------------------------------------------------------

    def outstanding(self) -> bool:
        return self.background.outstanding()

    async def wait_background(self) -> None:
        await self.background.wait_all()

    def collect_background(self) -> str | None:
        """Notification text for tasks that ended since last time (their records now hold the real result)."""
        blocks = []
        for task in self.background.collect():
            pending, error = task.pending, None
            if not pending.done:
                status, text = "timed_out", ""
                error = f"background task did not finish within {task.timeout_s:g} s"
            elif pending.exception is not None:
                status, text = "failed", ""
                error = describe_tool_error(pending.exception)
            else:
                text = truncate(result_to_text(pending.value), self._record_chars())
                error = result_error(pending.value)
                status = "failed" if error else "completed"
            self.records[task.record_index] = ToolRecord(
                tool=task.tool, arguments=task.arguments, result=text, error=error, duration_s=pending.duration_s,
                call_id=task.call_id, raw_arguments=task.raw_arguments, step=task.step,
            )  # fmt: skip
            shown = truncate(text, self.settings.max_result_chars) if text else f"Error: {error}"
            self.emit(ToolResultEvent(task.tool, task.call_id, shown, error, pending.duration_s, step=task.step, background=True))
            blocks.append(notification(task.task_id, task.tool, status, shown))
        return "\n\n".join(blocks) if blocks else None


__all__ = ["LoopEvent", "PreparedCall", "ToolRunner", "parse_native_arguments", "repeat_key", "truncate"]
