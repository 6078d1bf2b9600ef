"""The four ways of answering, behind one ``run_mode``.

* ``cot``      one request with a step-by-step instruction.
* ``few_shot`` worked examples (providers.yaml ``modes.few_shot_examples``, or the
               seeds' time/person/event ones) as user/assistant pairs, then the question.
* ``react``    the shared tool loop (``router.loop.run.arun_tools``); nothing else in the
               library calls tools, so the protocol rules live in one place.
* ``tot``      three requests: n distinct approaches -> a 1-10 score with a reason for
               each -> the best one in detail. The stages are kept so a user can see
               why the final choice won.

Prompts follow the question's language. ``history`` (earlier user/assistant turns
of a REPL) goes right before the question in every request.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from router.errors import MalformedResponseError, UsageError
from router.modes.prompts import DEFAULT_FEW_SHOT_EXAMPLES, Language, detect_language, prompts_for
from router.types import NO_OPTIONS, Answer, Attempt, ChatResponse, Event, RequestOptions, TextEvent, Usage

if TYPE_CHECKING:
    from router.clients.base import LLMClient
    from router.config import LoopSettings, RouterConfig
    from router.loop.run import ProtocolMemory
    from router.tools.registry import ToolRegistry

MODES: tuple[str, ...] = ("cot", "few_shot", "react", "tot")

ModeResult = Answer
"""A mode fills the one result type; ``Router`` adds who answered and why (old name kept)."""

EventSink = Callable[[Event], None]


@dataclass
class _Session:
    """One mode run's plumbing: every request goes through ``ask`` so usage, attempts and
    streaming are handled once for all the prompt-only modes."""

    llm: LLMClient
    stream: bool
    on_event: EventSink | None
    options: RequestOptions
    usage: Usage = field(default_factory=Usage)
    attempts: list[Attempt] = field(default_factory=list)
    requests: int = 0
    cut_by_length: bool = False
    refused: bool = False
    filtered: bool = False

    async def ask(self, messages: list[dict[str, Any]]) -> str:
        response = await self._stream(messages) if self.stream else await self.llm.achat(messages, options=self.options)
        self.requests += 1
        self.usage = self.usage + response.usage
        self.attempts.extend(response.attempts)
        if response.finish_reason == "length":
            self.cut_by_length = True
        self.filtered = self.filtered or response.finish_reason == "content_filter"
        message = response.message
        if not message.content and message.refusal:
            self.refused = True
            return message.refusal
        # Reasoning models sometimes put everything in reasoning_content (the seeds do the same).
        return message.content or message.reasoning_content or ""

    async def _stream(self, messages: list[dict[str, Any]]) -> ChatResponse:
        final: ChatResponse | None = None
        async for event in self.llm.astream(messages, options=self.options):
            if event.kind == "done":
                final = event.response
            elif event.kind == "restart":  # the chain restarts the answer on another model: shown text is void
                from router.types import RestartEvent

                self.emit(RestartEvent(event.text))
            elif event.kind in ("text", "reasoning") and event.text:
                self.emit(TextEvent(event.text, reasoning=event.kind == "reasoning"))
        if final is None:
            raise MalformedResponseError("the stream ended without a final response")
        return final

    def emit(self, event: Event) -> None:
        if self.on_event is not None:
            self.on_event(event)

    def emit_text(self, text: str) -> None:
        if self.stream:
            self.emit(TextEvent(text))

    def result(self, mode: str, text: str, messages: list[dict[str, Any]], stages: dict[str, str] | None = None) -> Answer:
        return Answer(
            text=text,
            mode=mode,
            provider="",
            model="",
            steps=self.requests,
            usage=self.usage,
            stopped_reason="length" if self.cut_by_length else "answer",
            stages=dict(stages or {}),
            messages=(*messages, {"role": "assistant", "content": text}),
            attempts=tuple(self.attempts),
            refused=self.refused,
            finish_reason="content_filter" if self.filtered else "stop",
        )


def _history(history: Sequence[Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    turns = [dict(message) for message in history or ()]
    for i, message in enumerate(turns):
        if message.get("role") not in ("user", "assistant", "system"):
            raise UsageError(f"history[{i}] has role {message.get('role')!r}; expected user or assistant turns")
    return turns


def _few_shot_examples(config: RouterConfig) -> list[tuple[str, str]]:
    configured = [(e.question, e.answer) for e in config.modes.few_shot_examples]
    return configured or list(DEFAULT_FEW_SHOT_EXAMPLES)


async def arun_mode(
    mode: str,
    question: str,
    llm: LLMClient,
    *,
    config: RouterConfig,
    registry: ToolRegistry | None = None,
    history: Sequence[Mapping[str, Any]] | None = None,
    on_event: EventSink | None = None,
    language: Language | None = None,
    protocol: str = "auto",
    protocol_memory: ProtocolMemory | None = None,
    stream: bool = False,
    loop: LoopSettings | None = None,
    options: RequestOptions | None = None,
    pre_run_tools: bool = False,
) -> Answer:
    """Answer ``question`` in ``mode``.

    ``options`` go to every model request; ``loop`` (default ``config.loop``) bounds
    react's tool loop. ``protocol`` and ``protocol_memory`` only matter to react
    (where a provider's refusal of native tools is remembered; a Router keeps its
    own). With ``stream=True`` text deltas reach ``on_event`` as ``TextEvent``s.
    ``pre_run_tools`` (small models): a tool need plain in the question is run first.
    """
    if mode not in MODES:
        raise UsageError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
    if language is None:
        language = detect_language(question)
    elif language not in ("zh", "en"):
        raise UsageError(f"unknown language {language!r} (choose zh or en)")
    turns = _history(history)
    options = options if options is not None else NO_OPTIONS
    if mode == "react":
        from router.loop.run import arun_tools  # the loop pulls in tools and messages: only when react runs
        from router.tools.registry import ToolRegistry

        messages = [{"role": "system", "content": prompts_for(language).react_system}, *turns, {"role": "user", "content": question}]
        tools = registry if registry is not None else ToolRegistry.default()
        planned: list[tuple[str, dict[str, Any]]] = []
        if pre_run_tools:
            from router.modes.pretools import recognise

            call = recognise(question, frozenset(tools.names()))
            planned = [(call.tool, call.arguments)] if call else []
        return await arun_tools(
            llm, messages, tools, settings=loop or config.loop, options=options, protocol=protocol,  # type: ignore[arg-type]
            protocol_memory=protocol_memory, on_event=on_event, stream=stream, planned_calls=planned,
        )  # fmt: skip
    session = _Session(llm, stream, on_event, options)
    if mode == "cot":
        return await _cot(session, question, turns, language)
    if mode == "few_shot":
        return await _few_shot(session, question, turns, language, config)
    return await _tot(session, question, turns, language, config.modes.tot_branches)


def run_mode(mode: str, question: str, llm: LLMClient, **kwargs: Any) -> Answer:
    """The sync face of ``arun_mode`` (run on the core loop)."""
    from router.aio import run_sync

    return run_sync(arun_mode(mode, question, llm, **kwargs))


async def _cot(session: _Session, question: str, turns: list[dict[str, Any]], language: Language) -> Answer:
    prompts = prompts_for(language)
    messages = [
        {"role": "system", "content": prompts.cot_system},
        *turns,
        {"role": "user", "content": prompts.cot_user.format(question=question)},
    ]
    return session.result("cot", await session.ask(messages), messages)


async def _few_shot(
    session: _Session, question: str, turns: list[dict[str, Any]], language: Language, config: RouterConfig
) -> Answer:
    messages: list[dict[str, Any]] = [{"role": "system", "content": prompts_for(language).few_shot_system}]
    for example_question, example_answer in _few_shot_examples(config):
        messages.append({"role": "user", "content": example_question})
        messages.append({"role": "assistant", "content": example_answer})
    messages.extend(turns)
    messages.append({"role": "user", "content": question})
    return session.result("few_shot", await session.ask(messages), messages)


def _tot_sections(language: Language) -> tuple[str, str, str]:
    """The headers the final text shows, split out of the template so streaming prints the same text."""
    template = prompts_for(language).tot_text
    first, rest = template.split("{approaches}")
    second, rest = rest.split("{scores}")
    third, _ = rest.split("{choice}")
    return first, second, third


async def _tot(session: _Session, question: str, turns: list[dict[str, Any]], language: Language, n: int) -> Answer:
    prompts = prompts_for(language)
    head_approaches, head_scores, head_choice = _tot_sections(language)

    async def stage(system: str, user: str, header: str) -> tuple[str, list[dict[str, Any]]]:
        messages = [{"role": "system", "content": system}, *turns, {"role": "user", "content": user}]
        session.emit_text(header)
        return await session.ask(messages), messages

    approaches, _ = await stage(
        prompts.tot_approaches_system, prompts.tot_approaches_user.format(n=n, question=question), head_approaches
    )
    scores, _ = await stage(
        prompts.tot_scores_system,
        prompts.tot_scores_user.format(n=n, question=question, approaches=approaches),
        head_scores,
    )
    choice, last = await stage(
        prompts.tot_choice_system,
        prompts.tot_choice_user.format(question=question, approaches=approaches, scores=scores),
        head_choice,
    )
    text = prompts.tot_text.format(approaches=approaches, scores=scores, choice=choice)
    stages = {"approaches": approaches, "scores": scores, "choice": choice}
    return session.result("tot", text, last, stages)


__all__ = ["MODES", "ModeResult", "arun_mode", "run_mode"]
