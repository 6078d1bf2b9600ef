"""Fakes that satisfy ``LLMClient``: shipped, public, for users' own tests.

* ``MockLLM``    keyword-scripted model of the tutorials; backs the ``mock`` provider.
* ``ScriptedLLM`` replays given replies (or raises given exceptions) in order and
                  records every call; running out of script is a loud error.
* ``FunctionLLM`` the reply is whatever ``fn(messages, tools)`` returns.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from router.errors import ScriptExhaustedError, UsageError
from router.types import NO_OPTIONS, AssistantMessage, ChatResponse, RequestOptions, StreamEvent, ToolCall, Usage


def text_response(text: str, *, finish_reason: str = "stop", model: str = "scripted", reasoning: str | None = None) -> ChatResponse:
    """A ChatResponse carrying plain text (handy when writing scripts)."""
    return ChatResponse(
        AssistantMessage(content=text, reasoning_content=reasoning),
        finish_reason=finish_reason,
        usage=Usage(0, max(1, len(text) // 4), max(1, len(text) // 4)),
        model=model,
        provider="scripted",
    )


_call_ids = itertools.count(1)


def tool_call_response(*calls: tuple[str, Any], finish_reason: str = "tool_calls", model: str = "scripted") -> ChatResponse:
    """A ChatResponse asking for tools; each call is ``(name, arguments)``.

    ``arguments`` may be a dict (encoded as JSON) or a raw string (sent as is, so
    scripts can feed the loop broken JSON on purpose).
    """
    tool_calls = tuple(
        ToolCall(
            id=f"call_{next(_call_ids)}",
            name=name,
            arguments=args if isinstance(args, str) else json.dumps(args, ensure_ascii=False),
        )
        for name, args in calls
    )
    return ChatResponse(AssistantMessage(content="", tool_calls=tool_calls), finish_reason=finish_reason, model=model, provider="scripted")


def stream_events(response: ChatResponse) -> Iterator[StreamEvent]:
    """Replays a complete response as stream events, ending with ``done``."""
    message = response.message
    if message.reasoning_content:
        yield StreamEvent("reasoning", text=message.reasoning_content)
    for piece in re.findall(r".{1,16}", message.content or "", flags=re.S):
        yield StreamEvent("text", text=piece)
    for index, call in enumerate(message.tool_calls):
        yield StreamEvent("tool_call", index=index, tool_call_id=call.id, name=call.name, text=call.arguments)
    yield StreamEvent("done", response=response)


@dataclass(frozen=True)
class RecordedCall:
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None
    options: RequestOptions


class _Recording:
    """Keeps a deep copy of every request so tests can check what was really sent.

    The fakes answer in memory, so their sync methods answer directly and the async
    ones wrap the same code: both satisfy ``LLMClient``.
    """

    provider = "scripted"

    def __init__(self, model: str = "scripted", provider: str | None = None) -> None:
        self.calls: list[RecordedCall] = []
        self.model = model
        if provider is not None:
            self.provider = provider
        self.closed = False

    def _record(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, options: RequestOptions | None) -> None:
        self.calls.append(RecordedCall(copy.deepcopy(messages), copy.deepcopy(tools), options or NO_OPTIONS))

    def _reply(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> ChatResponse:
        raise NotImplementedError

    def chat(
        self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None, options: RequestOptions | None = None
    ) -> ChatResponse:
        self._record(messages, tools, options)
        return self._reply(messages, tools)

    def stream(
        self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None, options: RequestOptions | None = None
    ) -> Iterator[StreamEvent]:
        self._record(messages, tools, options)
        return stream_events(self._reply(messages, tools))

    async def achat(
        self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None, options: RequestOptions | None = None
    ) -> ChatResponse:
        return self.chat(messages, tools=tools, options=options)

    async def astream(
        self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None, options: RequestOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        for event in self.stream(messages, tools=tools, options=options):
            yield event

    def close(self) -> None:
        self.closed = True

    async def aclose(self) -> None:
        self.close()


class ScriptedLLM(_Recording):
    """Returns the scripted ``ChatResponse``s in order; an exception in the script is raised."""

    def __init__(
        self, responses: Iterable[ChatResponse | BaseException], *, provider: str = "scripted", model: str = "scripted"
    ) -> None:
        super().__init__(model, provider)
        if isinstance(responses, str | bytes | ChatResponse) or not isinstance(responses, Iterable):
            raise UsageError(
                f"ScriptedLLM takes a list of replies, got {type(responses).__name__}; "
                "e.g. ScriptedLLM([text_response('hi')])"
            )
        self._script = list(responses)
        for index, item in enumerate(self._script):
            if isinstance(item, ChatResponse | BaseException):
                continue
            if isinstance(item, str):
                hint = f"wrap text in text_response(): ScriptedLLM([text_response({item[:30]!r})])"
            else:
                hint = "use text_response(...), tool_call_response(...) or an exception instance"
            raise UsageError(f"ScriptedLLM script item {index} is a {type(item).__name__}, not a ChatResponse; {hint}")
        self._position = 0

    @property
    def remaining(self) -> int:
        return len(self._script) - self._position

    def _reply(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> ChatResponse:
        if self._position >= len(self._script):
            raise ScriptExhaustedError(
                f"ScriptedLLM script exhausted: call #{len(self.calls)} but only {len(self._script)} replies were scripted"
            )
        item = self._script[self._position]
        self._position += 1
        if isinstance(item, BaseException):
            raise item
        return item


class FunctionLLM(_Recording):
    """The reply is ``fn(messages, tools)``: a ChatResponse, or a str taken as plain text."""

    provider = "function"

    def __init__(
        self,
        fn: Callable[[list[dict[str, Any]], list[dict[str, Any]] | None], ChatResponse | str],
        *,
        provider: str = "function",
        model: str = "function",
    ) -> None:
        super().__init__(model, provider)
        self._fn = fn

    def _reply(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> ChatResponse:
        result = self._fn(messages, tools)
        return text_response(result, model="function") if isinstance(result, str) else result


class MockLLM(_Recording):
    """The tutorials' keyword model, grown into an offline demo: no network, no tokens, deterministic.

    * last message is a tool result -> a final answer in the question's language that
      reads the result (a figure, the time, the weather's fields), never raw JSON
    * a question that plainly needs an offered tool -> a call to it: the built-ins as the
      router itself recognises them (``modes.pretools``) or by keyword, and a user's own
      tool whose name or description matches the question, arguments taken from the question
    * a tree-of-thought stage -> three (or ``n``) distinct approaches, scores, a choice
    * anything else -> a short answer in the question's language that says it is a mock
    Every text answer starts with ``[mock]``: nobody should mistake it for a model.
    """

    provider = "mock"

    def __init__(self, model: str = "mock-model", provider: str = "mock") -> None:
        super().__init__(model, provider)
        self._ids = itertools.count(1)

    def _reply(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> ChatResponse:
        from router.clients.mock_script import answer_from_tools, choose_call, plain_answer, question_of, tot_stage

        last = messages[-1] if messages else {"role": "user", "content": ""}
        question = question_of(messages)
        if last.get("role") == "tool":
            return self._respond(AssistantMessage(content=answer_from_tools(messages, question)))
        call = choose_call(question, tools or [])
        if call is not None:
            return self._call(*call)
        staged = tot_stage(messages)
        if staged is not None:
            return self._respond(AssistantMessage(content=staged))
        return self._respond(AssistantMessage(content=plain_answer(question)))

    def _call(self, name: str, arguments: dict[str, Any]) -> ChatResponse:
        call = ToolCall(id=f"call_mock_{next(self._ids)}", name=name, arguments=json.dumps(arguments, ensure_ascii=False))
        return self._respond(AssistantMessage(content="", tool_calls=(call,)), finish_reason="tool_calls")

    def _respond(self, message: AssistantMessage, finish_reason: str = "stop") -> ChatResponse:
        size = len(message.content or "") // 4 + 1
        return ChatResponse(message, finish_reason=finish_reason, usage=Usage(10, size, 10 + size), model=self.model, provider=self.provider)


__all__ = ["FunctionLLM", "MockLLM", "RecordedCall", "ScriptedLLM", "stream_events", "text_response", "tool_call_response"]
