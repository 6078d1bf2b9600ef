"""``arun_tools``: the one function-calling loop every mode runs on (``run_tools`` is its sync face).

The loop owns the protocol rules so nobody else has to get them right: the
assistant message with tool_calls goes back verbatim, each call gets exactly one
tool message right after it, every failure becomes text the model can read, and
every bound still ends in an answer that says why it stopped. The same loop
speaks native function calling or, for models without it, text ReAct, and streams
its text when asked.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from router.errors import MalformedResponseError, MessageChainError, ToolsUnsupportedError, UsageError
from router.loop import text_react
from router.loop.chain import validate_messages
from router.loop.memory import DEFAULT_PROTOCOL_MEMORY, ProtocolMemory
from router.loop.notes import CONTINUE, CUT_TOOL_CALL, FINAL_PROMPTS, NOTES, without_own_instructions
from router.loop.settings import loop_settings
from router.loop.tool_runner import LoopEvent, PreparedCall, ToolRunner, parse_native_arguments
from router.tools.registry import ToolRegistry
from router.types import (
    NO_OPTIONS,
    Answer,
    AssistantMessage,
    Attempt,
    ChatResponse,
    NoticeEvent,
    RequestOptions,
    RestartEvent,
    TextEvent,
    ToolCall,
    Usage,
)

if TYPE_CHECKING:
    from router.clients.base import LLMClient
    from router.config import LoopSettings

ProtocolName = Literal["native", "text", "auto"]


class _Downgrade(Exception):
    """The server refused native tools; carries who refused and the refused attempts."""

    def __init__(self, reason: str, provider: str | None, attempts: tuple[Attempt, ...]) -> None:
        super().__init__(reason)
        self.provider = provider
        self.attempts = attempts


class _Run:
    """State of one loop run (one protocol)."""

    def __init__(
        self,
        llm: LLMClient,
        messages: Sequence[Mapping[str, Any]],
        registry: ToolRegistry,
        settings: LoopSettings,
        protocol: Literal["native", "text"],
        may_downgrade: bool,
        emit: Callable[[LoopEvent], None],
        options: RequestOptions,
        stream: bool,
    ) -> None:
        self.llm, self.registry, self.settings, self.protocol = llm, registry, settings, protocol
        self.may_downgrade, self.emit, self.options, self.stream = may_downgrade, emit, options, stream
        if protocol == "text" and len(registry):
            self.history = text_react.with_instructions(messages, registry)
        else:
            self.history = list(messages)
        self.tools = ToolRunner(registry, settings=settings, emit=emit)
        self.usage = Usage()
        self.attempts: list[Attempt] = []
        self.requests = 0
        self.tool_turns = 0
        self.text_ids = itertools.count(1)
        self.parameters = {item.name: item.parameters for item in registry}
        self.schemas = {item.name: item.schema["function"].get("parameters", {}) for item in registry}
        self.streamed = False
        self.offered = False
        self.refused = False
        self.filtered = False
        """An answer turn ended with finish_reason content_filter: never reported as a complete answer."""

    # --- requests ---------------------------------------------------------------------------

    async def request(self, offer_tools: bool) -> ChatResponse:
        """Validate, then send; background results are reported first (never inside a tool block)."""
        notice = self.tools.collect_background()
        if notice:
            self.history.append({"role": "user", "content": notice})
        problems = validate_messages(self.history)
        if problems:
            raise MessageChainError(problems)
        tools = self.registry.schemas() if offer_tools and self.protocol == "native" and len(self.registry) else None
        self.offered = tools is not None
        options = self.options if tools is not None else replace(self.options, tool_choice=None, parallel_tool_calls=None)
        try:
            if self.stream and self.protocol == "native":
                response = await self._streamed(tools, options)
            else:
                response = await self.llm.achat(list(self.history), tools=tools, options=options)
        except ToolsUnsupportedError as exc:
            if self.may_downgrade and self.requests == 0 and tools is not None:
                raise _Downgrade(str(exc), exc.provider, exc.attempts) from exc
            raise
        self.requests += 1
        self.usage = self.usage + response.usage
        self.attempts.extend(response.attempts)
        return response

    async def _streamed(self, tools: list[dict[str, Any]] | None, options: RequestOptions) -> ChatResponse:
        final: ChatResponse | None = None
        async for event in self.llm.astream(list(self.history), tools=tools, options=options):
            if event.kind == "done":
                final = event.response
            elif event.kind == "restart":  # the chain restarts the answer on another model: shown text is void
                self.emit(RestartEvent(event.text))
            elif event.kind in ("text", "reasoning") and event.text:
                self.streamed = self.streamed or event.kind == "text"
                self.emit(TextEvent(event.text, reasoning=event.kind == "reasoning"))
        if final is None:
            raise MalformedResponseError("the stream ended without a final response")
        return final

    def interpret(self, response: ChatResponse) -> tuple[str, Any]:
        """("answer", text) | ("cut", None) | ("calls", (assistant message, [PreparedCall, ...]))."""
        message = response.message
        if self.protocol == "native" and not message.tool_calls and self.offered:
            message = self.recover_text_calls(message)
        if self.protocol == "native":
            if not message.tool_calls:
                self.refused = not message.content and bool(message.refusal)
                return "answer", message.content or message.refusal or ""
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

    def recover_text_calls(self, message: AssistantMessage) -> AssistantMessage:
        """Servers without a tool parser write calls as text (``<tool_call>``, ``[TOOL_CALLS]``, bare
        JSON, ``f(x=1)``): when every name is an offered tool, they become real calls, recorded as such."""
        from router.loop.textcalls import recover_tool_calls

        recovered = recover_tool_calls(message.content, self.schemas)
        if recovered is None:
            return message
        calls = tuple(ToolCall(f"textcall_{next(self.text_ids)}", c.name, c.arguments) for c in recovered.calls)
        self.emit(NoticeEvent(f"recovered {len(calls)} tool call(s) written as text ({recovered.format})"))
        return replace(message, content=recovered.text, tool_calls=calls)

    # --- the loop ---------------------------------------------------------------------------

    async def run_planned(self, planned: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Calls the router recognised in the question, run before the first request (step 0)
        and written into history exactly as if the model had asked for them."""
        calls = [
            PreparedCall(f"router_{next(self.text_ids)}", name, json.dumps(args, ensure_ascii=False), dict(args))
            for name, args in planned
        ]
        if not calls:
            return
        contents = await self.tools.run_turn(calls, 0)
        if self.protocol == "native":
            self.history.append(AssistantMessage("", tuple(ToolCall(c.call_id, c.name, c.raw_arguments) for c in calls)).to_dict())
            for call, content in zip(calls, contents, strict=True):
                self.history.append({"role": "tool", "tool_call_id": call.call_id, "content": content})
        else:
            transcript = "\n".join(f"Action: {c.name}\nAction Input: {c.raw_arguments}" for c in calls)
            self.history.append({"role": "assistant", "content": transcript})
            self.history.append(text_react.observation_message("\n\n".join(contents)))

    async def run(self) -> Answer:
        while True:
            at_bound = self.tool_turns >= self.settings.max_steps
            response = await self.request(offer_tools=not at_bound)
            kind, payload = self.interpret(response)
            if at_bound and kind != "answer":
                # The model still wanted tools after the last tool turn: now it is cut short.
                return await self.finish_forced("max_steps")
            if kind == "cut":
                self.tool_turns += 1
                self.emit(NoticeEvent("tool call cut off by length; not run"))
                self.history.append({"role": "user", "content": CUT_TOOL_CALL})
                continue
            if kind == "answer":
                if self.tools.outstanding():  # let the model see the background results first
                    self.history.append({"role": "assistant", "content": response.message.content or ""})
                    self.emit(NoticeEvent("waiting for background tasks"))
                    await self.tools.wait_background()
                    continue
                answer, cut = await self.complete(response, payload)
                answer = answer if answer.strip() else self.summary()
                return self.result(answer + ("\n\n" + NOTES["length"] if cut else ""), "length" if cut else "answer")
            assistant, calls = payload
            self.tool_turns += 1
            self.history.append(assistant)
            contents = await self.tools.run_turn(calls, self.tool_turns)
            if self.protocol == "native":
                for call, content in zip(calls, contents, strict=True):
                    self.history.append({"role": "tool", "tool_call_id": call.call_id, "content": content})
            else:
                self.history.append(text_react.observation_message("\n\n".join(contents)))
            if self.tools.repeat_overflow:
                return await self.finish_forced("repeated_calls")

    def direct_answer(self) -> str | None:
        """The answer the router's own tool call gave, when it needs no model (``loop.planned``)."""
        from router.loop.planned import direct_answer

        question = next((str(m.get("content") or "") for m in self.history if m.get("role") == "user"), "")
        return direct_answer(self.tools.records, question)

    async def answer_from_planned(self) -> Answer:
        """One answer turn without a tool loop: a small model on the text protocol wanders off into
        more Actions (v0.1.0's SmolLM called get_current_time four times after the calculator).
        A calculator figure the reply does not state is appended with a note (``loop.planned``)."""
        from router.loop.planned import with_calculator_figure

        last = self.history[-1]
        self.history[-1] = {**last, "content": f"{last['content']}\n\n{FINAL_PROMPTS['planned']}"}
        response = await self.request(offer_tools=False)
        raw = response.message.content or ""
        if isinstance(text_react.parse_react(raw, self.parameters), text_react.ReactAction):
            self.history.append({"role": "assistant", "content": raw})  # more Actions: not an answer, not run
            answer, cut = "", False
        else:
            answer, cut = await self.complete(response, text_react.answer_text(raw))
        answer = with_calculator_figure(answer, self.tools.records)
        answer = answer if answer.strip() else self.summary()
        return self.result(answer + ("\n\n" + NOTES["length"] if cut else ""), "length" if cut else "answer")

    async def complete(self, response: ChatResponse, first: str) -> tuple[str, bool]:
        """Ask for continuations while the answer is cut by length; (joined answer, still cut)."""
        parts, raw = [first], response.message.content or ""
        finish, continuations = response.finish_reason, 0
        self.filtered = self.filtered or finish == "content_filter"
        while finish == "length" and continuations < self.settings.max_continuations:
            self.history.append({"role": "assistant", "content": raw})
            self.history.append({"role": "user", "content": CONTINUE})
            response = await self.request(offer_tools=False)
            continuations += 1
            raw, finish = response.message.content or "", response.finish_reason
            self.filtered = self.filtered or finish == "content_filter"
            parts.append(raw)
        self.history.append({"role": "assistant", "content": raw})
        return without_own_instructions("".join(parts)), finish == "length"

    async def finish_forced(self, reason: str) -> Answer:
        """One last request without tools; the answer says why the loop stopped."""
        await self.tools.wait_background()
        self.emit(NoticeEvent(f"stopping ({reason}): asking for a final answer without tools"))
        prompt = FINAL_PROMPTS[reason].format(max_steps=self.settings.max_steps)
        if self.protocol == "text":
            prompt += " " + text_react.FINAL_NOW
        self.history.append({"role": "user", "content": prompt})
        response = await self.request(offer_tools=False)
        raw = response.message.content or ""
        first = text_react.answer_text(raw) if self.protocol == "text" else raw
        answer, _cut = await self.complete(response, first)
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

    def result(self, answer: str, stopped_reason: str) -> Answer:
        if self.filtered:  # partial (or no) text the provider's filter stopped: the answer says so
            note = NOTES["content_filter"]
            if self.stream and self.streamed:
                self.emit(TextEvent("\n\n" + note))
            answer = f"{answer.rstrip()}\n\n{note}"
        if self.stream and not self.streamed:
            self.emit(TextEvent(answer))  # text ReAct (or a forced final answer) arrives whole
        records = tuple(self.tools.records)
        return Answer(
            text=answer,
            mode="react",
            provider="",
            model="",
            tool_records=records,
            messages=tuple(self.history),
            steps=self.requests,
            stopped_reason=stopped_reason,
            usage=self.usage,
            grounded=any(record.ok for record in records),
            protocol=self.protocol,
            attempts=tuple(self.attempts),
            refused=self.refused,
            finish_reason="content_filter" if self.filtered else "stop",
        )


async def arun_tools(
    llm: LLMClient,
    messages: Sequence[Mapping[str, Any]],
    registry: ToolRegistry | None = None,
    *,
    settings: LoopSettings | None = None,
    options: RequestOptions | None = None,
    protocol: ProtocolName = "auto",
    protocol_memory: ProtocolMemory | None = None,
    on_event: Callable[[LoopEvent], None] | None = None,
    stream: bool = False,
    planned_calls: Sequence[tuple[str, dict[str, Any]]] = (),
) -> Answer:
    """Run the model with tools until it answers; every bound still yields an answer.

    ``messages`` is the starting history (not modified). ``settings.max_steps`` bounds
    the turns that call tools (the model then gets one more turn without tools, and
    the answer is marked cut short only if it still wanted tools); an identical call
    runs at most ``max_repeats`` times. ``steps`` in the result counts model
    requests. ``protocol="auto"`` uses native function calling unless the client's
    provider was remembered as unable to, or the first request raises
    ToolsUnsupportedError (the error names who refused; that provider is
    remembered) and then text ReAct. Other provider errors propagate.
    """
    if protocol not in ("native", "text", "auto"):
        raise UsageError(f"unknown tool protocol {protocol!r}; use 'native', 'text' or 'auto'")
    registry = registry if registry is not None else ToolRegistry()
    settings = settings if settings is not None else loop_settings()
    memory = protocol_memory if protocol_memory is not None else DEFAULT_PROTOCOL_MEMORY
    options = options if options is not None else NO_OPTIONS

    def emit(event: LoopEvent) -> None:
        if on_event is not None:
            on_event(event)

    provider = getattr(llm, "provider", None)
    chosen: Literal["native", "text"] = "native" if protocol == "auto" else protocol
    if protocol == "auto" and isinstance(provider, str) and await memory.ais_downgraded(provider):
        chosen = "text"
    history = [dict(m) if isinstance(m, Mapping) else m for m in messages]  # never share dicts with the caller
    try:
        run = _Run(llm, history, registry, settings, chosen, protocol == "auto", emit, options, stream)
        await run.run_planned(planned_calls)
        if planned_calls and chosen == "text" and (direct := run.direct_answer()) is not None:
            return run.result(direct, "answer")  # the tool result is the answer: no small-model call at all
        if planned_calls and chosen == "text" and run.tools.records and all(r.ok for r in run.tools.records):
            return await run.answer_from_planned()  # a small model whose tool need the router already met
        return await run.run()
    except _Downgrade as exc:
        if exc.provider:
            await memory.aremember(exc.provider, str(exc))
        emit(NoticeEvent(f"{exc.provider or 'the provider'} refused native tools; switching to text ReAct ({exc})"))
        text_run = _Run(llm, history, registry, settings, "text", False, emit, options, stream)
        text_run.attempts.extend(exc.attempts)
        await text_run.run_planned(planned_calls)
        if planned_calls and (direct := text_run.direct_answer()) is not None:
            return text_run.result(direct, "answer")
        if planned_calls and text_run.tools.records and all(r.ok for r in text_run.tools.records):
            return await text_run.answer_from_planned()
        return await text_run.run()


def run_tools(
    llm: LLMClient,
    messages: Sequence[Mapping[str, Any]],
    registry: ToolRegistry | None = None,
    *,
    settings: LoopSettings | None = None,
    max_steps: int | None = None,
    tool_timeout_s: float | None = None,
    max_repeats: int | None = None,
    max_continuations: int | None = None,
    max_result_chars: int | None = None,
    options: RequestOptions | None = None,
    protocol: ProtocolName = "auto",
    protocol_memory: ProtocolMemory | None = None,
    on_event: Callable[[LoopEvent], None] | None = None,
    stream: bool = False,
) -> Answer:
    """The sync face of ``arun_tools`` (run on the core loop); the keyword limits override ``settings``."""
    from router.aio import run_sync

    merged = loop_settings(
        settings, max_steps=max_steps, tool_timeout_s=tool_timeout_s, max_repeats=max_repeats,
        max_continuations=max_continuations, max_result_chars=max_result_chars,
    )  # fmt: skip
    run = arun_tools(
        llm, messages, registry, settings=merged, options=options, protocol=protocol,
        protocol_memory=protocol_memory, on_event=on_event, stream=stream,
    )  # fmt: skip
    return run_sync(run)


__all__ = [
    "DEFAULT_PROTOCOL_MEMORY",
    "LoopEvent",
    "ProtocolMemory",
    "arun_tools",
    "loop_settings",
    "run_tools",
    "without_own_instructions",
]
