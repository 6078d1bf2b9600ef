"""``run_tools``: the one function-calling loop every mode runs on.

The loop owns the protocol rules so nobody else has to get them right: the
assistant message with tool_calls goes back verbatim, each call gets exactly one
tool message right after it, every failure becomes text the model can read, and
every bound still ends in an answer that says why it stopped. The same loop
speaks native function calling or, for models without it, text ReAct.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from router.clients.base import LLMClient
from router.errors import MessageChainError, ToolsUnsupportedError, UsageError
from router.loop import text_react
from router.loop.chain import validate_messages
from router.loop.tool_runner import LoopEvent, PreparedCall, ToolRunner, parse_native_arguments
from router.tools.registry import ToolRegistry
from router.types import Attempt, ChatResponse, LoopResult, Usage

ProtocolName = Literal["native", "text", "auto"]

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


class _Downgrade(Exception):
    """The server refused native tools; carries the refused attempts so the record stays whole."""

    def __init__(self, reason: str, attempts: tuple[Attempt, ...]) -> None:
        super().__init__(reason)
        self.attempts = attempts


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
        self.tools = ToolRunner(
            registry,
            tool_timeout_s=settings.tool_timeout_s,
            max_repeats=settings.max_repeats,
            max_result_chars=settings.max_result_chars,
            emit=emit,
        )
        self.usage = Usage()
        self.attempts: list[Attempt] = []
        self.requests = 0
        self.tool_turns = 0
        self.text_ids = itertools.count(1)
        self.parameters = {item.name: item.parameters for item in registry}

    # --- requests ---------------------------------------------------------------------------

    def request(self, offer_tools: bool) -> ChatResponse:
        """Validate, then send; background results are reported first (never inside a tool block)."""
        notice = self.tools.collect_background()
        if notice:
            self.history.append({"role": "user", "content": notice})
        problems = validate_messages(self.history)
        if problems:
            raise MessageChainError(problems)
        tools = self.registry.schemas() if offer_tools and self.protocol == "native" and len(self.registry) else None
        options = dict(self.options)
        if tools is None:
            options.pop("tool_choice", None)
            options.pop("parallel_tool_calls", None)
        self.emit(LoopEvent("request", step=self.tool_turns + 1, text="with tools" if tools else "without tools"))
        try:
            response = self.llm.chat(list(self.history), tools=tools, **options)
        except ToolsUnsupportedError as exc:
            if self.may_downgrade and self.requests == 0 and tools is not None:
                raise _Downgrade(str(exc), exc.attempts) from exc
            raise
        self.requests += 1
        self.usage = self.usage + response.usage
        self.attempts.extend(response.attempts)
        return response

    def interpret(self, response: ChatResponse) -> tuple[str, Any]:
        """("answer", text) | ("cut", None) | ("calls", (assistant message, [PreparedCall, ...]))."""
        message = response.message
        if self.protocol == "native":
            if not message.tool_calls:
                return "answer", message.content or ""
            if response.finish_reason == "length":
                return "cut", None
            calls = []
            for call in message.tool_calls:
                arguments, error = parse_native_arguments(call.arguments)
                calls.append(PreparedCall(call.id, call.name, call.arguments, arguments, error))
            return "calls", (message.to_dict(), calls)
        step = text_react.parse_react(message.content or "", self.parameters)
        if isinstance(step, text_react.ReactAction):
            if response.finish_reason == "length":
                return "cut", None
            call = PreparedCall(f"react_{next(self.text_ids)}", step.name, step.raw_input, step.arguments, step.error)
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
                self.emit(LoopEvent("notice", step=self.tool_turns, text="tool call cut off by length; not run"))
                self.history.append({"role": "user", "content": CUT_TOOL_CALL})
                continue
            if kind == "answer":
                if self.tools.outstanding():  # let the model see the background results first
                    self.history.append({"role": "assistant", "content": response.message.content or ""})
                    self.emit(LoopEvent("notice", step=self.tool_turns, text="waiting for background tasks"))
                    self.tools.wait_background()
                    continue
                answer, cut = self.complete(response, payload)
                answer = answer if answer.strip() else self.summary()
                return self.result(answer + ("\n\n" + NOTES["length"] if cut else ""), "length" if cut else "answer")
            assistant, calls = payload
            self.tool_turns += 1
            self.history.append(assistant)
            contents = self.tools.run_turn(calls, self.tool_turns)
            if self.protocol == "native":
                for call, content in zip(calls, contents, strict=True):
                    self.history.append({"role": "tool", "tool_call_id": call.call_id, "content": content})
            else:
                self.history.append(text_react.observation_message("\n\n".join(contents)))
            if self.tools.repeat_overflow:
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
        self.tools.wait_background()
        self.emit(LoopEvent("notice", step=self.tool_turns, text=f"stopping ({reason}): asking for a final answer without tools"))
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
        records = self.tools.records
        lines = ["The model gave no final answer. Tool results so far:"]
        for record in records:
            lines.append(f"- {record.tool}({record.raw_arguments}): {record.error or record.result[:300]}")
        return "\n".join(lines) if records else "The model gave no final answer."

    def result(self, answer: str, stopped_reason: str) -> LoopResult:
        records = tuple(self.tools.records)
        return LoopResult(
            answer=answer,
            tool_records=records,
            messages=tuple(self.history),
            steps=self.requests,
            stopped_reason=stopped_reason,
            usage=self.usage,
            grounded=any(record.ok for record in records),
            protocol=self.protocol,
            attempts=tuple(self.attempts),
        )


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
        emit(LoopEvent("notice", text=f"provider refused native tools; switching to text ReAct ({exc})"))
        text_run = _Run(llm, history, registry, settings, "text", False, emit, options)
        text_run.attempts.extend(exc.attempts)
        return text_run.run()


__all__ = ["DEFAULT_PROTOCOL_MEMORY", "LoopEvent", "ProtocolMemory", "run_tools"]
