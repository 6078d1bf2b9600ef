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


_WEATHER = re.compile(r"天气|气温|下雨|weather|rain|temperature|forecast", re.I)
_CALC = re.compile(r"计算|等于|算一下|calculate|compute|what is [\d(]", re.I)
_EXPRESSION = re.compile(r"[\d.()\s]+(?:\s*(?:\*\*|[-+*/×÷^%])\s*[\d.()\s]+)+")
_CITY_ZH = re.compile(r"([\u4e00-\u9fff]{2,4}?)(?:今天|明天|现在|的)?(?:天气|气温)")
_CITY_EN = re.compile(r"\b(?:in|at|for)\s+([A-Z][a-zA-Z]+(?:\s[A-Z][a-zA-Z]+)?)")
_ZH_NOISE = re.compile(r"^(?:今天|明天|现在|请问|查一下|帮我查)")


def _guess_city(question: str) -> str:
    match = _CITY_ZH.search(question)
    if match:
        return _ZH_NOISE.sub("", match.group(1)) or "北京"
    match = _CITY_EN.search(question)
    return match.group(1) if match else "北京"


def _guess_expression(question: str) -> str:
    match = _EXPRESSION.search(question)
    if not match:
        return "1+1"
    return match.group(0).strip().replace("×", "*").replace("÷", "/").replace("^", "**")


class MockLLM(_Recording):
    """The tutorials' keyword model: no network, no tokens, predictable.

    * last message is a tool result -> a final answer quoting it
    * weather question -> a ``get_weather`` call (city guessed from the question)
    * 计算 / 等于 / calculate -> a ``calculator`` call (expression taken from the question)
    * anything else -> a canned answer that says it came from the mock
    Tool calls are only made when the request offers that tool.
    """

    provider = "mock"

    def __init__(self, model: str = "mock-model", provider: str = "mock") -> None:
        super().__init__(model, provider)
        self._ids = itertools.count(1)

    def _reply(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> ChatResponse:
        last = messages[-1] if messages else {"role": "user", "content": ""}
        offered = {t.get("function", {}).get("name") for t in tools or []}
        if last.get("role") == "tool":
            results = []
            for message in reversed(messages):
                if message.get("role") != "tool":
                    break
                results.append(str(message.get("content", "")))
            text = "根据工具结果：" + "；".join(reversed(results))
            return self._respond(AssistantMessage(content=text))
        question = str(last.get("content") or "")
        if "get_weather" in offered and _WEATHER.search(question):
            return self._call("get_weather", {"city": _guess_city(question)})
        if "calculator" in offered and _CALC.search(question):
            return self._call("calculator", {"expression": _guess_expression(question)})
        return self._respond(AssistantMessage(content=f"[mock] 这是模拟模型的回答 / a scripted mock answer to: {question[:200]}"))

    def _call(self, name: str, arguments: dict[str, Any]) -> ChatResponse:
        call = ToolCall(id=f"call_mock_{next(self._ids)}", name=name, arguments=json.dumps(arguments, ensure_ascii=False))
        return self._respond(AssistantMessage(content="", tool_calls=(call,)), finish_reason="tool_calls")

    def _respond(self, message: AssistantMessage, finish_reason: str = "stop") -> ChatResponse:
        size = len(message.content or "") // 4 + 1
        return ChatResponse(message, finish_reason=finish_reason, usage=Usage(10, size, 10 + size), model=self.model, provider=self.provider)


__all__ = ["FunctionLLM", "MockLLM", "RecordedCall", "ScriptedLLM", "stream_events", "text_response", "tool_call_response"]
