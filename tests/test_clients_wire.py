"""Real provider wire behaviour (issue 10), through both real clients, streamed and not.

Every case is served over real HTTP by the local scripted server: replies recorded
from live providers (tests/data/provider_wire) and hand-written shapes that real
providers document (Gemini's thought signatures, DeepSeek's finish reasons, Kimi's
usage, DashScope's stream-only models, llama.cpp without --jinja). Requests go
through the async API (``asyncio.run`` in the test body); the sync API runs the
same code, which test_clients_contract.py covers.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fake_openai_server import FakeOpenAIServer, Malformed, Replay, Status, Text, cassette, cassette_names

from router.clients.base import LLMClient
from router.clients.wire import WireRules, prepare_messages
from router.errors import (
    AuthenticationError,
    BadRequestError,
    ContextWindowExceededError,
    MalformedResponseError,
    ProviderUnavailableError,
    StreamOnlyError,
    ToolsUnsupportedError,
    TruncatedResponseError,
)
from router.types import AssistantMessage, ChatResponse, ToolCall, Usage

KEY = "sk-wire-test-key-0000"
QUESTION = [{"role": "user", "content": "What is 2+3 and 2*3?"}]
TOOL = {"type": "function", "function": {"name": "calculator", "parameters": {"type": "object", "properties": {}}}}


def build(kind: str, server: FakeOpenAIServer, **kwargs: Any) -> LLMClient:
    kwargs.setdefault("provider", "fake")
    if kind.startswith("openai"):
        from router.clients.openai import OpenAIClient

        kwargs.setdefault("transport", {"openai-sdk": "sdk", "openai-aiohttp": "lean-aiohttp"}.get(kind, "auto"))
        return OpenAIClient(base_url=server.base_url, api_key=kwargs.pop("api_key", KEY), model="fake-model", **kwargs)
    from router.clients.litellm import LiteLLMClient

    return LiteLLMClient(model="fake-model", api_key=kwargs.pop("api_key", KEY), base_url=server.base_url, **kwargs)


@pytest.fixture(params=["openai", "openai-aiohttp", "openai-sdk", "litellm"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(params=[False, True], ids=["json", "stream"])
def streamed(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


async def _ask(client: LLMClient, messages: list[dict[str, Any]], tools: Any, streamed: bool) -> ChatResponse:
    try:
        if not streamed:
            return await client.achat(messages, tools=tools)
        events = [event async for event in client.astream(messages, tools=tools)]
        assert events[-1].kind == "done" and events[-1].response is not None
        return events[-1].response
    finally:
        await client.aclose()


def ask(client: LLMClient, streamed: bool, messages: list[dict[str, Any]] = QUESTION, tools: Any = (TOOL,)) -> ChatResponse:
    return asyncio.run(_ask(client, messages, list(tools) if tools else None, streamed))


def chunk(delta: dict[str, Any], finish: str | None = None, **choice: Any) -> dict[str, Any]:
    return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "fake-model",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, **choice}]}


def completion(message: dict[str, Any], finish: str = "stop") -> dict[str, Any]:
    return {"id": "c", "object": "chat.completion", "created": 1, "model": "fake-model",
            "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}}


def calls_reply(calls: list[dict[str, Any]], sse: tuple[dict[str, Any], ...] | None = None) -> Replay:
    """The same tool calls as one JSON reply and, unless given, as one chunk per call."""
    streamed = sse or tuple(chunk({"tool_calls": [{**call, "index": i}]}) for i, call in enumerate(calls))
    return Replay(body=completion({"content": None, "tool_calls": calls}, "tool_calls"), sse=(*streamed, chunk({}, "tool_calls")))


def call(call_id: str, name: str, arguments: Any, **extra: Any) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}, **extra}


# --- replies recorded from live providers ---------------------------------------------------


@pytest.mark.parametrize("name", cassette_names())
def test_recorded_replies(kind: str, name: str, fake_server: FakeOpenAIServer) -> None:
    replay = cassette(name)
    streamed = replay.sse is not None
    fake_server.enqueue(replay)
    response = ask(build(kind, fake_server), streamed)
    assert response.finish_reason == "tool_calls"
    calls = response.message.tool_calls
    assert calls and all(c.name for c in calls)
    assert len({c.id for c in calls}) == len(calls), "ids unique within the turn"
    for c in calls:
        assert isinstance(json.loads(c.arguments), dict)
    assert response.message.to_dict()["tool_calls"][0]["function"]["arguments"] == calls[0].arguments


# --- reasoning models with tools -----------------------------------------------------------------


def _history_with_reasoning() -> list[dict[str, Any]]:
    old = AssistantMessage("", (ToolCall("a1", "calculator", "{}"),), reasoning_content="old thinking").to_dict()
    now = AssistantMessage("", (ToolCall("b1", "calculator", "{}"),), reasoning_content="current thinking").to_dict()
    return [
        {"role": "user", "content": "first question"},
        old,
        {"role": "tool", "tool_call_id": "a1", "content": "1"},
        AssistantMessage("first answer", reasoning_content="final thoughts").to_dict(),
        {"role": "user", "content": "second question"},
        now,
        {"role": "tool", "tool_call_id": "b1", "content": "2"},
    ]


@pytest.mark.parametrize(
    ("echo", "kept"),
    [("tool_turns", ["current thinking"]), ("none", []), ("all", ["old thinking", "final thoughts", "current thinking"])],
)
def test_reasoning_echo_rule_applies_to_the_request(
    kind: str, streamed: bool, echo: Any, kept: list[str], fake_server: FakeOpenAIServer
) -> None:
    history = _history_with_reasoning()
    before = json.dumps(history)
    fake_server.enqueue(Replay(body=completion({"content": "3"}), sse=(chunk({"content": "3"}), chunk({}, "stop"))))
    ask(build(kind, fake_server, rules=WireRules(reasoning_echo=echo)), streamed, history)
    sent = fake_server.last_body["messages"]
    assert [m["reasoning_content"] for m in sent if "reasoning_content" in m] == kept
    assert [m["role"] for m in sent] == [m["role"] for m in history]
    assert json.dumps(history) == before, "the caller's history is not changed"


def test_strict_alternation_merges_consecutive_messages(kind: str, streamed: bool, fake_server: FakeOpenAIServer) -> None:
    history = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Context: it rains."},
        {"role": "user", "content": "Should I take an umbrella?"},
        {"role": "assistant", "content": "Yes.", "reasoning_content": "rain"},
        {"role": "assistant", "content": "Definitely."},
        {"role": "user", "content": "Thanks"},
    ]
    fake_server.enqueue(Replay(body=completion({"content": "ok"}), sse=(chunk({"content": "ok"}), chunk({}, "stop"))))
    rules = WireRules(reasoning_echo="none", strict_alternation=True)
    ask(build(kind, fake_server, rules=rules), streamed, history, tools=None)
    assert fake_server.last_body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Context: it rains.\n\nShould I take an umbrella?"},
        {"role": "assistant", "content": "Yes.\n\nDefinitely."},
        {"role": "user", "content": "Thanks"},
    ]


def test_gemini_thought_signature_goes_back_unchanged(kind: str, streamed: bool, fake_server: FakeOpenAIServer) -> None:
    signature = {"google": {"thought_signature": "CpQBAdHtim9+sig=="}}
    fake_server.enqueue(calls_reply([call("function-call-1", "calculator", '{"e": "2+3"}', extra_content=signature)]))
    client_kind = build(kind, fake_server)
    response = ask(client_kind, streamed)
    (made,) = response.message.tool_calls
    assert made.extra == {"extra_content": signature}
    history = [*QUESTION, response.message.to_dict(), {"role": "tool", "tool_call_id": made.id, "content": "5"}]
    fake_server.enqueue(Replay(body=completion({"content": "5"}), sse=(chunk({"content": "5"}), chunk({}, "stop"))))
    ask(build(kind, fake_server), streamed, history)
    echoed = fake_server.last_body["messages"][1]["tool_calls"][0]
    assert echoed["extra_content"] == signature
    assert echoed["id"] == "function-call-1"


def test_prepare_messages_copies_only_what_changes() -> None:
    plain = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    assert prepare_messages(plain) is plain


# --- tool calls in unusual shapes ----------------------------------------------------------------


def test_arguments_as_an_object(kind: str, streamed: bool, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(calls_reply([call("c1", "calculator", {"expression": "2+3", "exact": True})]))
    (made,) = ask(build(kind, fake_server), streamed).message.tool_calls
    assert isinstance(made.arguments, str)
    assert json.loads(made.arguments) == {"expression": "2+3", "exact": True}


def test_ids_reused_within_a_turn_are_made_unique_in_order(kind: str, streamed: bool, fake_server: FakeOpenAIServer) -> None:
    calls = [call("calculator:0", "calculator", '{"e": "2+3"}'), call("calculator:0", "calculator", '{"e": "2*3"}')]
    # streamed without index: each chunk a whole call carrying the same id
    sse = tuple(chunk({"tool_calls": [c]}) for c in calls)
    fake_server.enqueue(calls_reply(calls, sse=sse))
    made = ask(build(kind, fake_server), streamed).message.tool_calls
    assert [(c.id, json.loads(c.arguments)) for c in made] == [("calculator:0", {"e": "2+3"}), ("calculator:0_2", {"e": "2*3"})]


def test_cumulative_argument_chunks(kind: str, fake_server: FakeOpenAIServer) -> None:
    pieces = ['{"e', '{"e": "2', '{"e": "2+3"', '{"e": "2+3"}', '{"e": "2+3"}']
    sse = (
        chunk({"tool_calls": [{"index": 0, "id": "c1", "type": "function", "function": {"name": "calculator", "arguments": ""}}]}),
        *(chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]}) for p in pieces),
        chunk({}, "tool_calls"),
    )
    fake_server.enqueue(Replay(sse=sse))
    (made,) = ask(build(kind, fake_server), True).message.tool_calls
    assert made.arguments == '{"e": "2+3"}'


def test_empty_object_then_the_full_one(kind: str, fake_server: FakeOpenAIServer) -> None:
    sse = (
        chunk({"tool_calls": [{"index": 0, "id": "c1", "type": "function", "function": {"name": "calculator", "arguments": "{}"}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"e": "2*3"}'}}]}),
        chunk({}, "tool_calls"),
    )
    fake_server.enqueue(Replay(sse=sse))
    (made,) = ask(build(kind, fake_server), True).message.tool_calls
    assert json.loads(made.arguments) == {"e": "2*3"}


def test_fragments_without_index(kind: str, fake_server: FakeOpenAIServer) -> None:
    sse = (
        chunk({"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "calculator", "arguments": '{"e": '}}]}),
        chunk({"tool_calls": [{"function": {"arguments": '"2+3"}'}}]}),
        chunk({"tool_calls": [{"id": "c2", "type": "function", "function": {"name": "calculator", "arguments": '{"e": "2*3"}'}}]}),
        chunk({}, "tool_calls"),
    )
    fake_server.enqueue(Replay(sse=sse))
    made = ask(build(kind, fake_server), True).message.tool_calls
    assert [(c.id, json.loads(c.arguments)) for c in made] == [("c1", {"e": "2+3"}), ("c2", {"e": "2*3"})]


def test_invalid_json_arguments_are_kept_raw_for_the_loop(kind: str, streamed: bool, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(calls_reply([call("c1", "calculator", '{"e": "2+3"')]))
    (made,) = ask(build(kind, fake_server), streamed).message.tool_calls
    assert made.arguments == '{"e": "2+3"'  # the loop answers this call with the parse error


# --- replies that cannot be read, and errors with reasons ----------------------------------------------


@pytest.mark.parametrize(
    "body",
    [b"<html><body>502 Bad Gateway</body></html>", b"\x00garbage", b'{"id": "x", "choices": []}', b'{"choices": null}',
     b'[{"choices": []}]', b'{"choices": [{"index": 0, "message": "hello", "finish_reason": "stop"}]}',
     b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": 42}, "finish_reason": "stop"}]}',
     b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": [{"id": "x", "function": "f"}]}}]}'],
    ids=["html", "garbage", "no-choices", "null-choices", "list", "message-string", "content-number", "function-string"],
)
def test_unreadable_replies_are_malformed(kind: str, body: bytes, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Malformed(body))
    with pytest.raises(MalformedResponseError) as caught:
        ask(build(kind, fake_server), False)
    assert caught.value.retryable


@pytest.mark.parametrize(
    "chunks",
    [(b"<html>",), ({"choices": None},), ({"choices": [{"index": 0, "delta": "text"}]},),
     ({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": "f"}]}}]},)],
    ids=["html", "null-choices", "delta-string", "function-string"],
)
def test_unreadable_stream_chunks_are_malformed(kind: str, chunks: tuple[Any, ...], fake_server: FakeOpenAIServer) -> None:
    if isinstance(chunks[0], bytes):
        fake_server.enqueue(Malformed(chunks[0]))
    else:
        fake_server.enqueue(Replay(sse=chunks))
    with pytest.raises(MalformedResponseError):
        ask(build(kind, fake_server), True)


def test_json_list_error_body_gives_its_message(kind: str, streamed: bool, fake_server: FakeOpenAIServer) -> None:
    body = [{"error": {"code": 400, "message": 'Invalid JSON payload received. Unknown name "foo"', "status": "INVALID_ARGUMENT"}}]
    fake_server.enqueue(Status(400, raw_body=json.dumps(body).encode()))
    with pytest.raises(BadRequestError) as caught:
        ask(build(kind, fake_server), streamed)
    assert str(caught.value) == 'fake/fake-model: HTTP 400: Invalid JSON payload received. Unknown name "foo"'


def test_tools_refused_with_a_500_are_tools_unsupported(kind: str, streamed: bool, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Status(500, "tools param requires --jinja flag"), Status(500, "tools param requires --jinja flag"))
    with pytest.raises(ToolsUnsupportedError) as caught:
        ask(build(kind, fake_server), streamed)
    assert caught.value.status == 500 and not caught.value.retryable
    with pytest.raises(ProviderUnavailableError):  # without tools offered it is an ordinary 500
        ask(build(kind, fake_server), streamed, tools=None)


@pytest.mark.parametrize(
    "message",
    [
        "This model's maximum context length is 16385 tokens. However, your messages resulted in 20000 tokens.",
        "Invalid request: Your request exceeded model token limit: 8192",
        "<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 30720]",
    ],
    ids=["openai-deepseek", "kimi", "qwen"],
)
def test_context_window_exceeded(kind: str, streamed: bool, message: str, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Status(400, message))
    with pytest.raises(ContextWindowExceededError) as caught:
        ask(build(kind, fake_server), streamed)
    assert str(caught.value) == f"fake/fake-model: HTTP 400: {message}"
    assert isinstance(caught.value, BadRequestError) and not caught.value.retryable


def test_a_key_ending_with_a_newline_is_named_by_its_variable(kind: str, streamed: bool, fake_server: FakeOpenAIServer) -> None:
    key = "sk-deepseek-secret-value-1234\n"
    fake_server.default_reply = Text("never")
    client = build(kind, fake_server, api_key=key, provider="deepseek", key_env="DEEPSEEK_API_KEY")
    with pytest.raises(AuthenticationError) as caught:
        ask(client, streamed)
    assert str(caught.value) == "deepseek/fake-model: illegal header value: the key in DEEPSEEK_API_KEY ends with a newline"
    assert key.strip() not in repr(caught.value.__cause__) and not caught.value.retryable


# --- stream-only models, finish reasons and fields ---------------------------------------------------------


STREAM_ONLY = Status(400, "This model only support stream mode, please enable the stream parameter to access the model.")


def test_stream_only_model_answers_plain_requests_by_streaming(kind: str, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("streamed answer", reasoning="thinking"))
    response = ask(build(kind, fake_server, rules=WireRules(stream_only=True)), False)
    assert response.message.content == "streamed answer" and response.message.reasoning_content == "thinking"
    assert [body["stream"] for body in fake_server.bodies if body] == [True]


def test_stream_only_error_is_recognised_and_learned(kind: str, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(STREAM_ONLY)
    with pytest.raises(StreamOnlyError):
        ask(build(kind, fake_server), True)

    async def twice(client: LLMClient) -> list[str | None]:
        answers = [(await client.achat(QUESTION)).message.content, (await client.achat(QUESTION)).message.content]
        await client.aclose()
        return answers

    fake_server.clear()
    fake_server.enqueue(STREAM_ONLY, Text("first"), Text("second"))
    assert asyncio.run(twice(build(kind, fake_server))) == ["first", "second"]
    assert [bool(body and body.get("stream")) for body in fake_server.bodies] == [False, True, True]


def test_insufficient_system_resource_is_a_retryable_failure(kind: str, streamed: bool, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("The answer is", finish_reason="insufficient_system_resource"))
    with pytest.raises(TruncatedResponseError) as caught:
        ask(build(kind, fake_server), streamed)
    assert caught.value.retryable and "insufficient_system_resource" in str(caught.value)


def test_content_filter_is_returned_with_its_finish_reason(kind: str, streamed: bool, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("Partial", finish_reason="content_filter"))
    response = ask(build(kind, fake_server), streamed)
    assert (response.finish_reason, response.message.content) == ("content_filter", "Partial")


def test_refusal_field(kind: str, streamed: bool, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(
        Replay(body=completion({"content": None, "refusal": "I can't help with that."}),
               sse=(chunk({"refusal": "I can't "}), chunk({"refusal": "help with that."}), chunk({}, "stop")))
    )
    message = ask(build(kind, fake_server), streamed).message
    assert (message.content, message.refusal) == (None, "I can't help with that.")


def test_usage_inside_the_choice_of_a_stream(kind: str, fake_server: FakeOpenAIServer) -> None:
    usage = {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}
    fake_server.enqueue(Replay(sse=(chunk({"content": "hi"}), chunk({}, "stop", usage=usage))))
    assert ask(build(kind, fake_server), True).usage == Usage(12, 5, 17)


# --- every recorded quirk in both modes (issue 18) ------------------------------------------------------------


def _as_stream(body: dict[str, Any]) -> tuple[Any, ...]:
    """A recorded JSON reply as the chunks the same server would stream: top-level fields kept, each tool
    call in two argument fragments by index, then the finish chunk and a usage chunk."""
    head = {k: v for k, v in body.items() if k not in ("choices", "usage", "object")}
    choice = body["choices"][0]
    message = choice["message"]

    def piece(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    chunks = [piece({"role": "assistant", "content": ""})]
    if message.get("reasoning_content"):
        chunks.append(piece({"reasoning_content": message["reasoning_content"]}))
    if message.get("content"):
        chunks.append(piece({"content": message["content"]}))
    for i, made in enumerate(message.get("tool_calls") or ()):
        arguments = made["function"]["arguments"]
        first = {**made, "index": i, "function": {"name": made["function"]["name"], "arguments": arguments[: len(arguments) // 2]}}
        chunks += [piece({"tool_calls": [first]}), piece({"tool_calls": [{"index": i, "function": {"arguments": arguments[len(arguments) // 2 :]}}]})]
    chunks.append(piece({}, choice["finish_reason"]))
    chunks.append({**head, "object": "chat.completion.chunk", "choices": [], "usage": body.get("usage")})
    return (*chunks, "[DONE]")


def _as_json(chunks: tuple[Any, ...]) -> dict[str, Any]:
    """A recorded stream as the one JSON reply it adds up to (fragments joined by index, in this test's own
    simple way, so the assembler under test is not checked against itself)."""
    objects = [c for c in chunks if isinstance(c, dict)]
    text, reasoning, calls, finish, usage = "", "", {}, None, None
    for item in objects:
        usage = item.get("usage") or usage
        for choice in item.get("choices") or ():
            delta = choice.get("delta") or {}
            text += delta.get("content") or ""
            reasoning += delta.get("reasoning_content") or ""
            for fragment in delta.get("tool_calls") or ():
                slot = calls.setdefault(fragment.get("index", len(calls)), {"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
                slot["id"] = slot["id"] or fragment.get("id") or ""
                slot["function"]["name"] = slot["function"]["name"] or (fragment.get("function") or {}).get("name") or ""
                slot["function"]["arguments"] += (fragment.get("function") or {}).get("arguments") or ""
            finish = choice.get("finish_reason") or finish
    message = {"role": "assistant", "content": text or None, "tool_calls": [calls[i] for i in sorted(calls)]}
    if reasoning:
        message["reasoning_content"] = reasoning
    head = {k: v for k, v in objects[0].items() if k not in ("choices", "usage", "object")}
    return {**head, "object": "chat.completion", "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage}


def _both_modes(name: str) -> tuple[dict[str, Any], tuple[Any, ...]]:
    replay = cassette(name)
    if replay.body is not None:
        return replay.body, _as_stream(replay.body)
    assert replay.sse is not None
    return _as_json(replay.sse), replay.sse


@pytest.mark.parametrize("name", cassette_names())
def test_recorded_replies_in_both_modes(kind: str, streamed: bool, name: str, fake_server: FakeOpenAIServer) -> None:
    body, sse = _both_modes(name)
    fake_server.enqueue(Replay(body=body, sse=sse))
    response = ask(build(kind, fake_server), streamed)
    recorded = body["choices"][0]["message"]
    assert response.finish_reason == "tool_calls"
    assert [(c.id, c.name, json.loads(c.arguments)) for c in response.message.tool_calls] == [
        (c["id"], c["function"]["name"], json.loads(c["function"]["arguments"])) for c in recorded["tool_calls"]
    ]
    assert (response.message.content or None) == (recorded.get("content") or None)
    assert response.message.reasoning_content == (recorded.get("reasoning_content") or None)
    assert response.usage.total_tokens == body["usage"]["total_tokens"]


KIMI_TURNS = ["TestOpenAICompatibleCommon__groq-kimi-k2__multi_tool", "TestOpenAICompatibleCommon__avian-kimi__multi_tool_streaming"]


@pytest.mark.parametrize("name", KIMI_TURNS)
def test_turn_scoped_kimi_ids_go_back_unchanged_turn_after_turn(kind: str, streamed: bool, name: str, fake_server: FakeOpenAIServer) -> None:
    """Kimi numbers its calls per turn (functions.add:0 every turn): two recorded turns in one history are a
    valid chain, and both clients send it back exactly as it came."""
    from router.loop.chain import validate_messages

    body, sse = _both_modes(name)
    history: list[dict[str, Any]] = list(QUESTION)
    for _turn in range(2):
        fake_server.enqueue(Replay(body=body, sse=sse))
        message = ask(build(kind, fake_server), streamed, history).message
        history.append(message.to_dict())
        history += [{"role": "tool", "tool_call_id": c.id, "content": "5"} for c in message.tool_calls]
    ids = [[c["id"] for c in m["tool_calls"]] for m in history if m.get("tool_calls")]
    assert ids == [["functions.add:0", "functions.multiply:1"]] * 2
    assert validate_messages(history) == []
    fake_server.enqueue(Replay(body=completion({"content": "5 and 6"}), sse=(chunk({"content": "5 and 6"}), chunk({}, "stop"))))
    assert ask(build(kind, fake_server), streamed, history).message.content == "5 and 6"
    sent = fake_server.last_body["messages"]
    assert [[c["id"] for c in m["tool_calls"]] for m in sent if m.get("tool_calls")] == ids
    assert [m.get("tool_call_id") for m in sent if m["role"] == "tool"] == [i for turn in ids for i in turn]


def test_content_filter_with_no_content_is_a_filtered_reply_not_a_malformed_one(
    kind: str, streamed: bool, fake_server: FakeOpenAIServer
) -> None:
    """The other content_filter shape (OpenAI / Azure): nothing left of the reply, ``content: null``."""
    fake_server.enqueue(Replay(body=completion({"content": None}, "content_filter"),
                               sse=(chunk({"role": "assistant"}), chunk({}, "content_filter"))))  # fmt: skip
    response = ask(build(kind, fake_server), streamed)
    assert response.finish_reason == "content_filter"
    assert not response.message.content and not response.message.tool_calls
