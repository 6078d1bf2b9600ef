"""Plain frozen dataclasses that travel inside router.

Clients normalise every provider's reply into these, so the loop, the modes and
the CLI never see SDK objects. ``to_dict`` gives the OpenAI wire format that goes
back into a message history.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal


@dataclass(frozen=True)
class ToolCall:
    """One function call requested by the model; ``arguments`` is the raw JSON string."""

    id: str
    name: str
    arguments: str
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """Provider fields of the call that must go back unchanged (Gemini's ``extra_content`` thought signature)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.extra,
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


@dataclass(frozen=True)
class AssistantMessage:
    """The model's turn, normalised from any provider; ``to_dict`` puts it back into history as it came."""

    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    reasoning_content: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """Other provider fields of the message, kept so history goes back as it came."""
    refusal: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The message to append to history.

        With tool calls the content is ``""`` rather than null: several
        OpenAI-compatible servers reject a null content there. ``reasoning_content``
        is kept here; whether it is sent back is the client's per-model rule
        (``capabilities.reasoning_echo``), applied when the request is built.
        """
        message: dict[str, Any] = {**self.extra, "role": "assistant", "content": self.content or ""}
        if self.tool_calls:
            message["tool_calls"] = [call.to_dict() for call in self.tool_calls]
        if self.reasoning_content:
            message["reasoning_content"] = self.reasoning_content
        return message


@dataclass(frozen=True)
class RequestOptions:
    """What a caller may tune on the model's request, typed, instead of ``**options`` passed down.

    ``None`` means "the provider's default" and is never sent. ``extra_body`` is
    merged into the request body as is (provider-specific switches).
    """

    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = None
    stop: tuple[str, ...] | None = None
    seed: int | None = None
    tool_choice: str | Mapping[str, Any] | None = None
    parallel_tool_calls: bool | None = None
    response_format: Mapping[str, Any] | None = None
    user: str | None = None
    extra_body: Mapping[str, Any] = field(default_factory=dict)

    def to_kwargs(self, *, with_tools: bool = True) -> dict[str, Any]:
        """The request fields that are set; tool fields only when tools are offered."""
        out: dict[str, Any] = {}
        for name in ("temperature", "top_p", "max_tokens", "seed", "response_format", "user"):
            value = getattr(self, name)
            if value is not None:
                out[name] = dict(value) if isinstance(value, Mapping) else value
        if self.stop is not None:
            out["stop"] = list(self.stop)
        if with_tools:
            if self.tool_choice is not None:
                out["tool_choice"] = self.tool_choice
            if self.parallel_tool_calls is not None:
                out["parallel_tool_calls"] = self.parallel_tool_calls
        return out


NO_OPTIONS = RequestOptions()


@dataclass(frozen=True)
class Usage:
    """Token counts of one call, or of a whole answer (``+`` adds the attempts and steps up)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    cache_read_tokens: int = 0
    """Prompt tokens served from the provider's prompt cache (part of ``prompt_tokens``), when it reports them."""
    cache_write_tokens: int = 0
    """Prompt tokens written to the provider's prompt cache (part of ``prompt_tokens``), when it reports them."""

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.total_tokens + other.total_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
        )


@dataclass(frozen=True)
class Attempt:
    """One try against one provider, kept so an answer can say what happened."""

    provider: str
    model: str
    ok: bool
    error_kind: str | None = None
    error: str | None = None
    wait_s: float = 0.0
    latency_s: float = 0.0
    deployment: str | None = None
    """The configured deployment name (never its key or URL); None: the provider's implicit one."""
    retry_after_s: float | None = None
    """A rate-limited try: how long the provider said to wait (its Retry-After), when it said."""


@dataclass(frozen=True)
class ChatResponse:
    """One model call's result, whichever provider and SDK produced it."""

    message: AssistantMessage
    finish_reason: str | None = "stop"
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    provider: str = ""
    latency_s: float = 0.0
    attempts: tuple[Attempt, ...] = ()
    deployment: str | None = None


StreamEventKind = Literal["text", "reasoning", "tool_call", "restart", "done"]
"""``restart``: the stream broke after text was shown and starts again on a fallback (``text`` says why):
discard every delta received so far."""


@dataclass(frozen=True)
class StreamEvent:
    """A piece of a streamed reply.

    ``text`` carries the delta for ``text`` / ``reasoning``; ``tool_call`` events
    carry the fragment (``index``, ``tool_call_id``, ``name``, ``text`` = argument
    piece). The last event is ``done`` with the assembled ``response``.
    """

    kind: StreamEventKind
    text: str = ""
    index: int | None = None
    tool_call_id: str | None = None
    name: str | None = None
    response: ChatResponse | None = None


@dataclass(frozen=True)
class ToolRecord:
    """What one tool call really did: the evidence an answer is grounded on."""

    tool: str
    arguments: dict[str, Any] | None
    result: str
    error: str | None = None
    duration_s: float = 0.0
    call_id: str = ""
    raw_arguments: str = ""
    step: int = 0
    server: str = ""
    """The MCP server that ran the call ("" for built-in and @tool tools)."""
    server_tool: str = ""
    """The tool's own name on that MCP server (``tool`` is the name the model saw)."""

    @property
    def ok(self) -> bool:
        return self.error is None


StoppedReason = Literal[
    "answer",  # the model answered without asking for tools
    "max_steps",  # the step bound was hit; a last tool-less request produced the answer
    "repeated_calls",  # the model kept repeating itself; asked for the final answer
    "length",  # the answer was cut by length too often; the joined parts are returned
    "error",  # the final request failed; the answer explains
]


@dataclass(frozen=True)
class Answer:
    """The result of ``Router.ask``: the text plus everything needed to trust it."""

    text: str
    mode: str
    provider: str
    model: str
    route_reason: str = ""
    mode_reason: str = ""
    tool_records: tuple[ToolRecord, ...] = ()
    grounded: bool = False
    steps: int = 0
    usage: Usage = field(default_factory=Usage)
    cost: float | None = None
    latency_s: float = 0.0
    attempts: tuple[Attempt, ...] = ()
    stopped_reason: str = "answer"
    warnings: tuple[str, ...] = ()
    stages: dict[str, str] = field(default_factory=dict)
    messages: tuple[dict[str, Any], ...] = ()
    finish_reason: str = "stop"
    protocol: str = "native"
    """How tools were offered: native function calling or the text ReAct protocol."""
    tool_calls: tuple[ToolCall, ...] = ()
    """Calls the model asked for and nobody ran: only when the caller brought its own tools (gateway)."""
    reasoning_content: str | None = None
    refused: bool = False
    """The model refused (its ``refusal`` text is the answer)."""
    id: str = ""
    """Unique per answer: what ``Router.feedback`` takes; the server's response id (chat completion ``id``)."""
    deployment: str | None = None
    """Which of the provider's ``deployments`` answered (its configured name); None: the implicit one."""

    @property
    def answer(self) -> str:
        """The text, under the name the loop's result used to have."""
        return self.text

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)


LoopResult = Answer
"""The loop fills the same result type as the modes and ``Router.ask`` (old name kept)."""


# --- the one event union UIs see (CLI printer, server SSE, on_event callbacks) ---------------


@dataclass(frozen=True)
class NoticeEvent:
    """Something the user should read: a fallback, a retry, the no-key notice."""

    text: str
    kind: Literal["notice"] = "notice"


@dataclass(frozen=True)
class ModeEvent:
    """The answering mode chosen and why (the CLI's ``[mode]`` line), before any model call."""

    mode: str
    reason: str
    kind: Literal["mode"] = "mode"


@dataclass(frozen=True)
class RouteEvent:
    """Who is about to answer and why (the CLI's ``[route]`` line), emitted before the call."""

    provider: str
    model: str
    reason: str
    kind: Literal["route"] = "route"


@dataclass(frozen=True)
class ToolCallEvent:
    """A tool call about to run (the CLI's ``->`` line)."""

    name: str
    call_id: str
    arguments: str
    step: int = 0
    kind: Literal["tool_call"] = "tool_call"


@dataclass(frozen=True)
class ToolCallDeltaEvent:
    """A piece of a tool call the model is still writing (gateway streams: the caller runs its own tools).

    ``index`` tells the calls of one reply apart; ``call_id`` and ``name`` are set once
    known (usually on the first piece); ``arguments`` is the next fragment of the
    argument JSON, so the fragments of one call joined are its arguments so far.
    The complete calls arrive in ``DoneEvent.answer.tool_calls``, whose ids and
    arguments are authoritative (a missing id is generated there).
    """

    index: int
    call_id: str | None
    name: str | None
    arguments: str = ""
    kind: Literal["tool_call_delta"] = "tool_call_delta"


@dataclass(frozen=True)
class ToolResultEvent:
    """A tool call's result or error, as the model will read it (the CLI's ``<-`` line)."""

    name: str
    call_id: str
    result: str
    error: str | None = None
    duration_s: float = 0.0
    step: int = 0
    background: bool = False
    server: str = ""
    """The MCP server that ran it ("" for built-in and ``@tool`` tools)."""
    kind: Literal["tool_result"] = "tool_result"


@dataclass(frozen=True)
class TextEvent:
    """A delta of the answer (``reasoning=True``: of the model's visible reasoning)."""

    text: str
    reasoning: bool = False
    kind: Literal["text"] = "text"


@dataclass(frozen=True)
class RestartEvent:
    """The answer broke after text was shown and starts again on another model: discard the text shown so far."""

    reason: str
    kind: Literal["restart"] = "restart"


@dataclass(frozen=True)
class DoneEvent:
    """The last event of every run: the whole answer, for consumers that only read events."""

    answer: Answer
    kind: Literal["done"] = "done"


Event = (
    NoticeEvent | ModeEvent | RouteEvent | ToolCallEvent | ToolCallDeltaEvent | ToolResultEvent | TextEvent | RestartEvent
    | DoneEvent
)


__all__ = [
    "NO_OPTIONS",
    "Answer",
    "AssistantMessage",
    "Attempt",
    "ChatResponse",
    "DoneEvent",
    "Event",
    "LoopResult",
    "ModeEvent",
    "NoticeEvent",
    "RequestOptions",
    "RestartEvent",
    "RouteEvent",
    "StoppedReason",
    "StreamEvent",
    "StreamEventKind",
    "TextEvent",
    "ToolCall",
    "ToolCallDeltaEvent",
    "ToolCallEvent",
    "ToolRecord",
    "ToolResultEvent",
    "Usage",
]
