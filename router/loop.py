"""``run_tools``: the one function-calling loop every mode runs on.

The loop owns the protocol rules so nobody else has to get them right: the
assistant message with tool_calls goes back verbatim, each call gets exactly one
tool message right after it, every failure becomes text the model can read, and
every bound still ends in an answer that says why it stopped. The same loop
speaks native function calling or, for models without it, text ReAct.
"""

from __future__ import annotations

import functools
import itertools
import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from . import text_react
from .background import BackgroundTasks, Pending, notification
from .clients import LLMClient
from .errors import MessageChainError, ToolArgumentsError, ToolsUnsupportedError, UsageError
from .messages import validate_messages
from .tools import ToolRegistry, result_error, result_to_text
from .types import Attempt, ChatResponse, LoopResult, ToolRecord, Usage

ProtocolName = Literal["native", "text", "auto"]
EventKind = Literal["request", "tool_call", "tool_result", "background_done", "notice"]

CUT_TOOL_CALL = (
    "[router] Your last reply was cut off by the output length limit while writing a tool call, so the call "
    "was NOT executed. Call the tool again with shorter arguments, or answer directly."
)
CONTINUE = "[router] Your answer was cut off by the length limit. Continue exactly where you stopped, without repeating."
FINAL_PROMPTS = {
    "max_steps": "[router] The tool step limit ({max_steps}) has been reached. Do not call tools. Give your best final "
    "answer from what is known so far, and say briefly that the work was cut short.",
    "repeated_calls": "[router] You keep repeating the same tool call and already have its result. Do not call tools. "
    "Give your final answer now from the results above.",
}
NOTES = {
    "max_steps": "[注意 / note: stopped at the tool step limit ({max_steps}); this answer was cut short and may be incomplete]",
    "repeated_calls": "[注意 / note: stopped because the model kept repeating the same tool call]",
    "length": "[注意 / note: the answer was cut off by the length limit]",
}


@dataclass(frozen=True)
class LoopEvent:
    """What the loop is doing, for UIs (``on_event``); always emitted from the caller's thread."""

    kind: EventKind
    step: int = 0
    tool: str = ""
    call_id: str = ""
    arguments: str = ""
    result: str = ""
    error: str | None = None
    duration_s: float = 0.0
    message: str = ""


class ProtocolMemory:
    """Providers that refused native tools, so later runs start in text mode directly."""

    def __init__(self) -> None:
        self._downgraded: dict[str, str] = {}
        self._lock = threading.Lock()

    def remember(self, provider: str, reason: str = "") -> None:
        with self._lock:
            self._downgraded[provider] = reason

    def is_downgraded(self, provider: str) -> bool:
        with self._lock:
            return provider in self._downgraded

    def forget(self, provider: str | None = None) -> None:
        with self._lock:
            if provider is None:
                self._downgraded.clear()
            else:
                self._downgraded.pop(provider, None)

    def downgraded(self) -> dict[str, str]:
        with self._lock:
            return dict(self._downgraded)


DEFAULT_PROTOCOL_MEMORY = ProtocolMemory()


@dataclass(frozen=True)
class _Settings:
    max_steps: int
    tool_timeout_s: float
    max_repeats: int
    max_continuations: int
    max_result_chars: int


@dataclass(frozen=True)
class _Call:
    """One requested call, arguments already parsed (``error`` set: they could not be)."""

    call_id: str
    name: str
    raw_arguments: str
    arguments: dict[str, Any] | None
    error: str | None = None


class _Downgrade(Exception):
    pass


def _parse_native_arguments(raw: str) -> tuple[dict[str, Any] | None, str | None]:
    if not raw.strip():
        return {}, None  # several servers send "" for a call without arguments
    try:
        value = json.loads(raw)
    except ValueError as exc:
        return None, f"the arguments are not valid JSON ({exc})"
    if not isinstance(value, dict):
        return None, f"the arguments must be a JSON object, got {type(value).__name__}"
    return value, None


def _truncate(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[truncated: the result had {len(text)} characters; only the first {limit} are shown]"


def _provider_of(llm: Any) -> str | None:
    for attribute in ("provider_name", "provider", "name"):
        value = getattr(llm, attribute, None)
        if isinstance(value, str) and value:
            return value
    return None


class _Run:
    """State of one loop run (one protocol)."""

    def __init__(
        self,
        llm: LLMClient,
        messages: Sequence[Mapping[str, Any]],
        registry: ToolRegistry,
        settings: _Settings,
        protocol: Literal["native", "text"],
        may_downgrade: bool,
        emit: Callable[[LoopEvent], None],
        options: dict[str, Any],
    ) -> None:
        self.llm, self.registry, self.settings, self.protocol = llm, registry, settings, protocol
        self.may_downgrade, self.emit, self.options = may_downgrade, emit, options
        if protocol == "text" and len(registry):
            self.history = text_react.with_instructions(messages, registry)
        else:
            self.history = list(messages)
        self.records: list[ToolRecord] = []
        self.usage = Usage()
        self.attempts: list[Attempt] = []
        self.requests = 0
        self.tool_turns = 0
        self.background = BackgroundTasks()
        self.repeat_counts: dict[str, int] = {}
        self.last_content: dict[str, tuple[str, str]] = {}
        self.repeat_overflow = False
        self.text_ids = itertools.count(1)
        self.parameters = {item.name: item.parameters for item in registry}

    # --- requests ---------------------------------------------------------------------------

    def request(self, offer_tools: bool) -> ChatResponse:
        self.deliver_background()
        problems = validate_messages(self.history)
        if problems:
            raise MessageChainError(problems)
        tools = self.registry.schemas() if offer_tools and self.protocol == "native" and len(self.registry) else None
        options = dict(self.options)
        if tools is None:
            options.pop("tool_choice", None)
            options.pop("parallel_tool_calls", None)
        self.emit(LoopEvent("request", step=self.tool_turns + 1, message="with tools" if tools else "without tools"))
        try:
            response = self.llm.chat(list(self.history), tools=tools, **options)
        except ToolsUnsupportedError as exc:
            if self.may_downgrade and self.requests == 0 and tools is not None:
                raise _Downgrade(str(exc)) from exc
            raise
        self.requests += 1
        self.usage = self.usage + response.usage
        self.attempts.extend(response.attempts)
        return response

    def interpret(self, response: ChatResponse) -> tuple[str, Any]:
        """("answer", text) | ("cut", None) | ("calls", (assistant message, [_Call, ...]))."""
        message = response.message
        if self.protocol == "native":
            if not message.tool_calls:
                return "answer", message.content or ""
            if response.finish_reason == "length":
                return "cut", None
            calls = []
            for call in message.tool_calls:
                arguments, error = _parse_native_arguments(call.arguments)
                calls.append(_Call(call.id, call.name, call.arguments, arguments, error))
            return "calls", (message.to_dict(), calls)
        step = text_react.parse_react(message.content or "", self.parameters)
        if isinstance(step, text_react.ReactAction):
            if response.finish_reason == "length":
                return "cut", None
            call = _Call(f"react_{next(self.text_ids)}", step.name, step.raw_input, step.arguments, step.error)
            return "calls", ({"role": "assistant", "content": step.transcript}, [call])
        return "answer", step.answer if isinstance(step, text_react.ReactFinal) else step.text

    # --- the loop ---------------------------------------------------------------------------

    def run(self) -> LoopResult:
        while True:
            if self.tool_turns >= self.settings.max_steps:
                return self.finish_forced("max_steps")
            response = self.request(offer_tools=True)
            kind, payload = self.interpret(response)
            if kind == "cut":
                self.tool_turns += 1
                self.emit(LoopEvent("notice", step=self.tool_turns, message="tool call cut off by length; not run"))
                self.history.append({"role": "user", "content": CUT_TOOL_CALL})
                continue
            if kind == "answer":
                if self.background.outstanding():  # let the model see the background results first
                    self.history.append({"role": "assistant", "content": response.message.content or ""})
                    self.emit(LoopEvent("notice", step=self.tool_turns, message="waiting for background tasks"))
                    self.background.wait_all()
                    continue
                answer, cut = self.complete(response, payload)
                answer = answer if answer.strip() else self.summary()
                return self.result(answer + ("\n\n" + NOTES["length"] if cut else ""), "length" if cut else "answer")
            assistant, calls = payload
            self.tool_turns += 1
            self.history.append(assistant)
            self.execute(calls)
            if self.repeat_overflow:
                return self.finish_forced("repeated_calls")

    def complete(self, response: ChatResponse, first: str) -> tuple[str, bool]:
        """Ask for continuations while the answer is cut by length; (joined answer, still cut)."""
        parts, raw = [first], response.message.content or ""
        finish, continuations = response.finish_reason, 0
        while finish == "length" and continuations < self.settings.max_continuations:
            self.history.append({"role": "assistant", "content": raw})
            self.history.append({"role": "user", "content": CONTINUE})
            response = self.request(offer_tools=False)
            continuations += 1
            raw, finish = response.message.content or "", response.finish_reason
            parts.append(raw)
        self.history.append({"role": "assistant", "content": raw})
        return "".join(parts), finish == "length"

    def finish_forced(self, reason: str) -> LoopResult:
        """One last request without tools; the answer says why the loop stopped."""
        self.background.wait_all()
        self.emit(LoopEvent("notice", step=self.tool_turns, message=f"stopping: {reason}"))
        prompt = FINAL_PROMPTS[reason].format(max_steps=self.settings.max_steps)
        if self.protocol == "text":
            prompt += " " + text_react.FINAL_NOW
        self.history.append({"role": "user", "content": prompt})
        response = self.request(offer_tools=False)
        raw = response.message.content or ""
        first = text_react.answer_text(raw) if self.protocol == "text" else raw
        answer, _cut = self.complete(response, first)
        if not answer.strip():
            answer = self.summary()
        note = NOTES[reason].format(max_steps=self.settings.max_steps)
        return self.result(f"{answer.rstrip()}\n\n{note}", reason)

    def summary(self) -> str:
        lines = ["The model gave no final answer. Tool results so far:"]
        for record in self.records:
            lines.append(f"- {record.tool}({record.raw_arguments}): {record.error or record.result[:300]}")
        return "\n".join(lines) if self.records else "The model gave no final answer."

    def result(self, answer: str, stopped_reason: str) -> LoopResult:
        return LoopResult(
            answer=answer,
            tool_records=tuple(self.records),
            messages=tuple(self.history),
            steps=self.requests,
            stopped_reason=stopped_reason,
            usage=self.usage,
            grounded=any(record.ok for record in self.records),
            protocol=self.protocol,
            attempts=tuple(self.attempts),
        )

    # --- running tools ----------------------------------------------------------------------

    def execute(self, calls: list[_Call]) -> None:
        """Run one turn's calls in parallel; append exactly one result per call, in call order."""
        step, started = self.tool_turns, time.perf_counter()
        plans: list[tuple[str, Any]] = []
        for position, call in enumerate(calls):
            self.emit(LoopEvent("tool_call", step=step, tool=call.name, call_id=call.call_id, arguments=call.raw_arguments))
            plans.append(self.plan(call, step, len(self.records) + position))
        contents: list[str] = []
        for call, (kind, detail) in zip(calls, plans, strict=True):
            if kind == "run":
                tool_timeout, pending = detail
                pending.wait(started + tool_timeout - time.perf_counter())
                content, record = self.finished(call, step, pending, tool_timeout)
            elif kind == "repeat":
                previous, previous_result = self.last_content[detail]
                content = (
                    f"You already called {call.name} with these exact arguments; it was not run again. "
                    f"Use the result you already have:\n{previous}"
                )
                record = self.record(call, step, previous_result, "repeated call: not run again, earlier result reused")
            else:
                content, record = detail
            key = self.repeat_key(call)
            if key is not None and kind != "repeat":
                self.last_content[key] = (content, record.result)
            self.records.append(record)
            contents.append(content)
            self.emit(
                LoopEvent("tool_result", step=step, tool=call.name, call_id=call.call_id, result=content,
                          error=record.error, duration_s=record.duration_s)
            )  # fmt: skip
        if self.protocol == "native":
            for call, content in zip(calls, contents, strict=True):
                self.history.append({"role": "tool", "tool_call_id": call.call_id, "content": content})
        else:
            self.history.append(text_react.observation_message("\n\n".join(contents)))

    @staticmethod
    def repeat_key(call: _Call) -> str | None:
        if call.arguments is None:
            return None
        return call.name + json.dumps(call.arguments, sort_keys=True, ensure_ascii=False, default=str)

    def record(self, call: _Call, step: int, result: str, error: str | None, duration_s: float = 0.0) -> ToolRecord:
        return ToolRecord(
            tool=call.name, arguments=call.arguments, result=result, error=error, duration_s=duration_s,
            call_id=call.call_id, raw_arguments=call.raw_arguments, step=step,
        )  # fmt: skip

    def plan(self, call: _Call, step: int, record_index: int) -> tuple[str, Any]:
        """("done", (content, record)) | ("run", (timeout, Pending)) | ("repeat", key)."""

        def failed(content: str, error: str) -> tuple[str, Any]:
            return "done", (content, self.record(call, step, "", error))

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
        key = self.repeat_key(call)
        assert key is not None
        count = self.repeat_counts[key] = self.repeat_counts.get(key, 0) + 1
        if count > self.settings.max_repeats:
            self.repeat_overflow = self.repeat_overflow or count > self.settings.max_repeats + 1
            return "repeat", key
        timeout = min(self.settings.tool_timeout_s, tool.timeout_s or self.settings.tool_timeout_s)
        work = functools.partial(tool.fn, **kwargs)
        if tool.background:
            task = self.background.start(
                work, call_id=call.call_id, tool=call.name, arguments=call.arguments, raw_arguments=call.raw_arguments,
                step=step, record_index=record_index, timeout_s=timeout,
            )  # fmt: skip
            content = json.dumps(
                {"background_task_id": task.task_id, "status": "running",
                 "message": "The task runs in the background; its result will arrive later in a <task_notification>."},
                ensure_ascii=False,
            )  # fmt: skip
            return "done", (content, self.record(call, step, content, f"still running in background ({task.task_id})"))
        return "run", (timeout, Pending(work, name=f"router-tool-{call.name}"))

    def finished(self, call: _Call, step: int, pending: Pending, timeout: float) -> tuple[str, ToolRecord]:
        if not pending.done:
            error = f"timed out after {timeout:g} s"
            content = f"Error: tool {call.name} did not finish within {timeout:g} s and was abandoned."
            return content, self.record(call, step, "", error, pending.duration_s)
        if pending.exception is not None:
            error = f"{type(pending.exception).__name__}: {pending.exception}"
            return f"Error: tool {call.name} failed: {error}", self.record(call, step, "", error, pending.duration_s)
        text = result_to_text(pending.value)
        record = self.record(call, step, text, result_error(pending.value), pending.duration_s)
        return _truncate(text, self.settings.max_result_chars), record

    def deliver_background(self) -> None:
        """Finished background tasks become one user message (only ever called before a request)."""
        blocks = []
        for task in self.background.collect():
            pending, error = task.pending, None
            if not pending.done:
                status, text = "timed_out", ""
                error = f"background task did not finish within {task.timeout_s:g} s"
            elif pending.exception is not None:
                status, text = "failed", ""
                error = f"{type(pending.exception).__name__}: {pending.exception}"
            else:
                text, error = result_to_text(pending.value), result_error(pending.value)
                status = "failed" if error else "completed"
            self.records[task.record_index] = ToolRecord(
                tool=task.tool, arguments=task.arguments, result=text, error=error, duration_s=pending.duration_s,
                call_id=task.call_id, raw_arguments=task.raw_arguments, step=task.step,
            )  # fmt: skip
            shown = _truncate(text, self.settings.max_result_chars) if text else f"Error: {error}"
            self.emit(LoopEvent("background_done", step=task.step, tool=task.tool, call_id=task.call_id,
                                result=shown, error=error, duration_s=pending.duration_s, message=task.task_id))  # fmt: skip
            blocks.append(notification(task.task_id, task.tool, status, shown))
        if blocks:
            self.history.append({"role": "user", "content": "\n\n".join(blocks)})


def run_tools(
    llm: LLMClient,
    messages: Sequence[Mapping[str, Any]],
    registry: ToolRegistry | None = None,
    *,
    max_steps: int = 8,
    tool_timeout_s: float = 30.0,
    max_repeats: int = 2,
    max_continuations: int = 2,
    max_result_chars: int = 8000,
    protocol: ProtocolName = "auto",
    provider: str | None = None,
    protocol_memory: ProtocolMemory | None = None,
    on_event: Callable[[LoopEvent], None] | None = None,
    **options: Any,
) -> LoopResult:
    """Run the model with tools until it answers; every bound still yields an answer.

    ``messages`` is the starting history (not modified). ``max_steps`` bounds the
    turns that call tools; an identical call runs at most ``max_repeats`` times.
    ``steps`` in the result counts model requests. ``protocol="auto"`` uses native
    function calling unless ``provider`` was remembered as unable to, or the first
    request raises ToolsUnsupportedError; then text ReAct (remembered). Other
    provider errors propagate. ``options`` go to ``llm.chat`` unchanged.
    """
    if protocol not in ("native", "text", "auto"):
        raise UsageError(f"unknown tool protocol {protocol!r}; use 'native', 'text' or 'auto'")
    if max_steps < 1 or max_repeats < 1 or max_continuations < 0 or tool_timeout_s <= 0 or max_result_chars < 1:
        raise UsageError("loop limits must be positive (max_steps, max_repeats, tool_timeout_s, max_result_chars)")
    registry = registry if registry is not None else ToolRegistry()
    memory = protocol_memory if protocol_memory is not None else DEFAULT_PROTOCOL_MEMORY
    provider_name = provider or _provider_of(llm)
    settings = _Settings(max_steps, tool_timeout_s, max_repeats, max_continuations, max_result_chars)

    def emit(event: LoopEvent) -> None:
        if on_event is not None:
            on_event(event)

    chosen: Literal["native", "text"] = "native" if protocol == "auto" else protocol
    if protocol == "auto" and provider_name and memory.is_downgraded(provider_name):
        chosen = "text"
    history = [dict(m) if isinstance(m, Mapping) else m for m in messages]  # never share dicts with the caller
    try:
        return _Run(llm, history, registry, settings, chosen, protocol == "auto", emit, options).run()
    except _Downgrade as exc:
        if provider_name:
            memory.remember(provider_name, str(exc))
        emit(LoopEvent("notice", message=f"provider refused native tools; switching to text ReAct ({exc})"))
        return _Run(llm, history, registry, settings, "text", False, emit, options).run()


__all__ = ["DEFAULT_PROTOCOL_MEMORY", "LoopEvent", "ProtocolMemory", "run_tools"]
