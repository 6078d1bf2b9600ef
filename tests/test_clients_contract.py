"""One contract, both real clients, real HTTP against the local fake server.

Nothing inside openai, litellm or httpx is patched: the fake server decides what
goes over the wire and the assertions look at what the clients made of it (and
at what they sent). Resilience is exercised through ``ResilientClient`` with an
injected ``sleep`` that records waits instead of sleeping.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from fake_openai_server import (
    CutStream,
    FakeOpenAIServer,
    Malformed,
    RateLimited,
    RawChunks,
    ServerError,
    Slow,
    Text,
    ToolCalls,
    ToolsUnsupported,
    Unauthorized,
)

from router.aio import run_sync
from router.clients.base import LLMClient
from router.clients.resilient import Candidate, ResilientClient
from router.config import RetrySettings
from router.errors import (
    AllProvidersFailedError,
    AuthenticationError,
    MalformedResponseError,
    ProviderError,
    ProviderUnavailableError,
    RateLimitError,
    ToolsUnsupportedError,
)
from router.state.base import BreakerPolicy
from router.state.breaker import CircuitBreaker
from router.state.memory import MemoryStore
from router.types import RequestOptions, StreamEvent, ToolCall, Usage

KEY = "sk-contract-test-key-0000"
QUESTION = [{"role": "user", "content": "What is the weather in Paris?"}]
WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}

ClientFactory = Callable[..., LLMClient]


def build(kind: str, server: FakeOpenAIServer, *, provider: str = "fake", timeout_s: float = 5.0) -> LLMClient:
    if kind.startswith("openai"):
        from router.clients.openai import OpenAIClient

        transport = {"openai-sdk": "sdk", "openai-aiohttp": "lean-aiohttp"}.get(kind, "auto")
        return OpenAIClient(base_url=server.base_url, api_key=KEY, model="fake-model", provider=provider, timeout_s=timeout_s,
                            transport=transport)
    from router.clients.litellm import LiteLLMClient

    return LiteLLMClient(model="fake-model", api_key=KEY, base_url=server.base_url, provider=provider, timeout_s=timeout_s)


@pytest.fixture(params=["openai", "openai-aiohttp", "openai-sdk", "litellm"])
def make(request: pytest.FixtureRequest) -> ClientFactory:
    kind = request.param

    def factory(server: FakeOpenAIServer, **kwargs: Any) -> LLMClient:
        return build(kind, server, **kwargs)

    return factory


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def resilient(*candidates: Candidate, waits: list[float], **kwargs: Any) -> ResilientClient:
    kwargs.setdefault("retry", RetrySettings(max_wait_s=5.0, cooldown_s=30.0, failures_before_cooldown=100))
    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    return ResilientClient(list(candidates), sleep=sleep, base_delay_s=0.1, **kwargs)


def collect(events: Any) -> tuple[list[StreamEvent], Any]:
    seen = list(events)
    assert seen[-1].kind == "done" and seen[-1].response is not None
    assert all(e.kind != "done" for e in seen[:-1])
    return seen, seen[-1].response


# --- plain requests ---------------------------------------------------------------------


def test_plain_text(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("Sunny, 21°C.", usage=(12, 5)))
    response = make(fake_server).chat(QUESTION, options=RequestOptions(temperature=0.2))
    assert response.message.content == "Sunny, 21°C."
    assert response.message.tool_calls == ()
    assert response.finish_reason == "stop"
    assert response.usage == Usage(12, 5, 17)
    assert response.provider == "fake"
    assert response.latency_s > 0
    body = fake_server.last_body
    assert body["model"] == "fake-model"
    assert body["messages"] == QUESTION
    assert body["temperature"] == 0.2
    assert "tools" not in body
    assert fake_server.requests[-1].headers["authorization"] == f"Bearer {KEY}"


def test_one_tool_call_and_history_is_sent_with_empty_content(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ToolCalls((("get_weather", '{"city": "Paris"}'),)))
    client = make(fake_server)
    response = client.chat(QUESTION, tools=[WEATHER_TOOL])
    assert response.message.tool_calls == (ToolCall("call_0", "get_weather", '{"city": "Paris"}'),)
    assert response.message.content == ""
    assert response.finish_reason == "tool_calls"
    assert fake_server.last_body["tools"] == [WEATHER_TOOL]

    # the call goes back into history; an assistant message with content None must be sent as ""
    history = [
        *QUESTION,
        {"role": "assistant", "content": None, "tool_calls": [c.to_dict() for c in response.message.tool_calls]},
        {"role": "tool", "tool_call_id": "call_0", "content": "Sunny"},
    ]
    fake_server.enqueue(Text("It is sunny in Paris."))
    final = client.chat(history, tools=[WEATHER_TOOL])
    assert final.message.content == "It is sunny in Paris."
    sent = fake_server.last_body["messages"]
    assert sent[1]["content"] == ""
    assert sent[1]["tool_calls"][0]["id"] == "call_0"
    assert sent[1]["tool_calls"][0]["function"] == {"name": "get_weather", "arguments": '{"city": "Paris"}'}
    assert sent[2] == {"role": "tool", "tool_call_id": "call_0", "content": "Sunny"}
    assert history[1]["content"] is None  # the caller's history is not modified


def test_parallel_tool_calls(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ToolCalls((("get_weather", '{"city": "Oslo"}'), ("get_weather", '{"city": "Rome"}'))))
    response = make(fake_server).chat(QUESTION, tools=[WEATHER_TOOL])
    assert [(c.id, c.name, json.loads(c.arguments)) for c in response.message.tool_calls] == [
        ("call_0", "get_weather", {"city": "Oslo"}),
        ("call_1", "get_weather", {"city": "Rome"}),
    ]


def test_reasoning_content_chat_and_stream(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("42", reasoning="6 times 7"), Text("42", reasoning="six sevens"))
    client = make(fake_server)
    response = client.chat(QUESTION)
    assert (response.message.content, response.message.reasoning_content) == ("42", "6 times 7")
    events, streamed = collect(client.stream(QUESTION))
    assert "".join(e.text for e in events if e.kind == "reasoning") == "six sevens"
    assert streamed.message.reasoning_content == "six sevens"
    assert streamed.message.content == "42"


# --- streaming ----------------------------------------------------------------------------


def test_streamed_text(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("The quick brown fox jumps.", chunk_size=3, usage=(9, 8)))
    events, response = collect(make(fake_server).stream(QUESTION))
    texts = [e.text for e in events if e.kind == "text"]
    assert len(texts) > 3
    assert "".join(texts) == "The quick brown fox jumps."
    assert response.message.content == "The quick brown fox jumps."
    assert response.finish_reason == "stop"
    assert response.usage == Usage(9, 8, 17)
    assert fake_server.last_body["stream"] is True


def test_streamed_fragmented_parallel_tool_calls(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(
        ToolCalls((("get_weather", '{"city": "Oslo", "unit": "C"}'), ("get_time", '{"tz": "Europe/Rome"}')), chunk_size=2)
    )
    events, response = collect(make(fake_server).stream(QUESTION, tools=[WEATHER_TOOL]))
    assert sum(1 for e in events if e.kind == "tool_call") > 10
    assert response.message.tool_calls == (
        ToolCall("call_0", "get_weather", '{"city": "Oslo", "unit": "C"}'),
        ToolCall("call_1", "get_time", '{"tz": "Europe/Rome"}'),
    )
    assert response.finish_reason == "tool_calls"


def test_streamed_tool_call_with_empty_names_and_interleaved_text(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    def piece(args: str, name: str | None = "") -> dict[str, Any]:
        return {"tool_calls": [{"index": 0, "function": {"name": name, "arguments": args}}]}

    fake_server.enqueue(
        RawChunks(
            (
                {"content": "Let me check. "},
                {"tool_calls": [{"index": 0, "id": "call_x", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]},
                piece('{"ci'),
                {"content": "One moment."},
                piece('ty": '),
                piece('"Paris"}', name=None),
            ),
            finish_reason="tool_calls",
        )
    )
    _, response = collect(make(fake_server).stream(QUESTION, tools=[WEATHER_TOOL]))
    assert response.message.tool_calls == (ToolCall("call_x", "get_weather", '{"city": "Paris"}'),)
    assert response.message.content == "Let me check. One moment."


# --- the async API (the core the sync one runs on) ----------------------------------------------


def test_async_chat_stream_and_tools(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(
        Text("Sunny.", usage=(3, 2)),
        ToolCalls((("get_weather", '{"city": "Oslo"}'), ("get_weather", '{"city": "Rome"}')), chunk_size=3),
        Text("streamed words", chunk_size=3),
    )
    client = make(fake_server)

    async def run() -> tuple[Any, Any, list[StreamEvent]]:
        plain = await client.achat(QUESTION, options=RequestOptions(temperature=0.3, max_tokens=20))
        sent = fake_server.last_body
        assert (sent["temperature"], sent["max_tokens"]) == (0.3, 20)
        with_tools = await client.achat(QUESTION, tools=[WEATHER_TOOL], options=RequestOptions(tool_choice="auto"))
        assert fake_server.last_body["tool_choice"] == "auto"
        events = [event async for event in client.astream(QUESTION)]
        await client.aclose()
        return plain, with_tools, events

    plain, with_tools, events = asyncio.run(run())
    assert (plain.message.content, plain.usage, plain.provider) == ("Sunny.", Usage(3, 2, 5), "fake")
    assert [c.id for c in with_tools.message.tool_calls] == ["call_0", "call_1"]
    assert "".join(e.text for e in events if e.kind == "text") == "streamed words"
    assert events[-1].kind == "done" and events[-1].response.message.content == "streamed words"


def test_tool_fields_are_not_sent_without_tools(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("plain"))
    make(fake_server).chat(QUESTION, options=RequestOptions(tool_choice="auto", parallel_tool_calls=False, extra_body={"top_k": 5}))
    body = fake_server.last_body
    assert "tool_choice" not in body and "parallel_tool_calls" not in body
    assert body["top_k"] == 5


def test_async_errors_are_router_errors(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Unauthorized(), CutStream(after_chunks=3), Malformed())
    client = make(fake_server)

    async def run() -> list[type[BaseException]]:
        seen: list[type[BaseException]] = []
        for attempt in (client.achat(QUESTION), _drain(client.astream(QUESTION)), client.achat(QUESTION)):
            try:
                await attempt
            except ProviderError as exc:
                seen.append(type(exc))
        await client.aclose()
        return seen

    assert asyncio.run(run()) == [AuthenticationError, ProviderUnavailableError, MalformedResponseError]


async def _drain(events: Any) -> None:
    async for _event in events:
        pass


def test_one_client_serves_the_sync_api_and_several_event_loops(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    """Connection pools belong to one loop: the client keeps one per loop instead of breaking."""
    fake_server.default_reply = Text("ok")
    client = make(fake_server)
    assert client.chat(QUESTION).message.content == "ok"
    for _ in range(2):
        assert asyncio.run(client.achat(QUESTION)).message.content == "ok"
    assert client.chat(QUESTION).message.content == "ok"
    client.close()


def test_early_stop_releases_the_stream(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("a fairly long answer that the caller stops reading", chunk_size=2), Text("next"))
    client = make(fake_server)

    async def run() -> str | None:
        events = client.astream(QUESTION)
        async for _event in events:
            break
        await events.aclose()  # type: ignore[attr-defined]
        answer = (await client.achat(QUESTION)).message.content
        await client.aclose()
        return answer

    assert asyncio.run(run()) == "next"


# --- errors straight from the client -----------------------------------------------------------


def test_tools_unsupported_is_its_own_error(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ToolsUnsupported())
    with pytest.raises(ToolsUnsupportedError) as caught:
        make(fake_server).chat(QUESTION, tools=[WEATHER_TOOL])
    assert caught.value.status == 400
    assert "tools are not supported" in str(caught.value)


def test_malformed_json_body(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Malformed(), Malformed())
    client = make(fake_server)
    with pytest.raises(MalformedResponseError):
        client.chat(QUESTION)
    with pytest.raises(ProviderError):
        list(client.stream(QUESTION))


def test_cut_stream_is_unavailable(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(CutStream(after_chunks=3))
    seen: list[StreamEvent] = []
    with pytest.raises(ProviderUnavailableError):
        for event in make(fake_server).stream(QUESTION):
            seen.append(event)
    assert seen and all(e.kind == "text" for e in seen)  # it was cut after some text, with no done event


def test_401_is_authentication_error(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Unauthorized())
    with pytest.raises(AuthenticationError) as caught:
        make(fake_server).chat(QUESTION)
    assert caught.value.status == 401
    assert caught.value.retryable is False


# --- retries, fallback, cooldown ------------------------------------------------------------


def test_retry_on_429_honours_retry_after_capped(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(RateLimited(retry_after=2), Text("finally"))
    waits: list[float] = []
    client = resilient(Candidate("fake", "fake-model", make(fake_server), max_retries=3), waits=waits)
    response = client.chat(QUESTION)
    assert response.message.content == "finally"
    assert waits == [2.0]  # Retry-After honoured
    assert [(a.ok, a.error_kind, a.wait_s) for a in response.attempts] == [(False, "rate_limit", 2.0), (True, None, 0.0)]
    # a Retry-After beyond max_wait_s (5 s): no waiting at all, the error moves on at once
    fake_server.enqueue(RateLimited(retry_after=120), Text("never"))
    with pytest.raises(AllProvidersFailedError):
        client.chat(QUESTION)
    assert waits == [2.0] and len(fake_server.requests) == 3


def test_rate_limit_error_carries_retry_after(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(RateLimited(retry_after=7))
    with pytest.raises(RateLimitError) as caught:
        make(fake_server).chat(QUESTION)
    assert caught.value.retry_after == 7.0


def test_retry_on_500_with_exponential_backoff(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ServerError(), ServerError(503), Text("recovered"))
    waits: list[float] = []
    client = resilient(Candidate("fake", "fake-model", make(fake_server), max_retries=2), waits=waits)
    response = client.chat(QUESTION)
    assert response.message.content == "recovered"
    assert len(waits) == 2
    assert 0.05 <= waits[0] <= 0.1 and 0.1 <= waits[1] <= 0.2  # base 0.1 doubling, with jitter
    assert [a.error_kind for a in response.attempts] == ["unavailable", "unavailable", None]
    assert len(fake_server.requests) == 3  # the SDKs did not retry on their own


def test_retry_on_timeout(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Slow(3.0), Text("in time"))
    waits: list[float] = []
    client = resilient(Candidate("fake", "fake-model", make(fake_server, timeout_s=0.3), max_retries=1), waits=waits)
    response = client.chat(QUESTION)
    assert response.message.content == "in time"
    assert [a.error_kind for a in response.attempts] == ["timeout", None]
    assert len(waits) == 1


def test_no_retry_on_401(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Unauthorized(), Text("never served"))
    waits: list[float] = []
    client = resilient(Candidate("fake", "fake-model", make(fake_server), max_retries=3), waits=waits)
    with pytest.raises(AllProvidersFailedError) as caught:
        client.chat(QUESTION)
    assert waits == []
    assert len(fake_server.requests) == 1
    assert [a.error_kind for a in caught.value.attempts] == ["auth"]
    assert "fake/fake-model: auth" in str(caught.value)
    assert isinstance(caught.value.__cause__, AuthenticationError)


def test_fallback_to_a_second_provider(make: ClientFactory, make_fake_server: Callable[[], FakeOpenAIServer]) -> None:
    primary, secondary = make_fake_server(), make_fake_server()
    primary.enqueue(ServerError(), ServerError())
    secondary.enqueue(Text("from the backup"))
    waits: list[float] = []
    client = resilient(
        Candidate("primary", "fake-model", make(primary, provider="primary"), max_retries=1),
        Candidate("secondary", "fake-model", make(secondary, provider="secondary"), max_retries=1),
        waits=waits,
    )
    response = client.chat(QUESTION)
    assert response.message.content == "from the backup"
    assert response.provider == "secondary"
    assert [(a.provider, a.ok, a.error_kind) for a in response.attempts] == [
        ("primary", False, "unavailable"),
        ("primary", False, "unavailable"),
        ("secondary", True, None),
    ]
    assert len(waits) == 1  # one backoff between the primary's two tries, none before falling back


def test_auth_failure_falls_back_without_retry(make: ClientFactory, make_fake_server: Callable[[], FakeOpenAIServer]) -> None:
    primary, secondary = make_fake_server(), make_fake_server()
    primary.enqueue(Unauthorized())
    secondary.enqueue(Text("backup"))
    client = resilient(
        Candidate("primary", "fake-model", make(primary, provider="primary"), max_retries=3),
        Candidate("secondary", "fake-model", make(secondary, provider="secondary")),
        waits=[],
    )
    assert client.chat(QUESTION).provider == "secondary"
    assert len(primary.requests) == 1


def test_an_open_circuit_skips_a_failing_provider(make: ClientFactory, make_fake_server: Callable[[], FakeOpenAIServer]) -> None:
    primary, secondary = make_fake_server(), make_fake_server()
    secondary.default_reply = Text("backup")
    clock = Clock()
    breaker = CircuitBreaker(MemoryStore(clock=clock), BreakerPolicy(failures=2, window_s=60, cooldown_s=30), clock=clock)
    client = resilient(
        Candidate("primary", "fake-model", make(primary, provider="primary"), max_retries=1),
        Candidate("secondary", "fake-model", make(secondary, provider="secondary"), max_retries=0),
        waits=[],
        clock=clock,
        breaker=breaker,
    )
    primary.enqueue(ServerError(), ServerError())
    assert client.chat(QUESTION).provider == "secondary"
    assert len(primary.requests) == 2
    assert run_sync(breaker.state("primary/fake-model")).state == "open"

    second = client.chat(QUESTION)  # primary is skipped: no request reaches it
    assert second.provider == "secondary"
    assert len(primary.requests) == 2
    assert second.attempts[0].provider == "primary" and second.attempts[0].error_kind == "circuit_open"

    clock.now += 31  # cooldown over: primary is tried again and answers
    primary.enqueue(Text("primary is back"))
    third = client.chat(QUESTION)
    assert third.provider == "primary"
    assert len(primary.requests) == 3


def test_tools_unsupported_is_neither_retried_nor_falls_back(
    make: ClientFactory, make_fake_server: Callable[[], FakeOpenAIServer]
) -> None:
    primary, secondary = make_fake_server(), make_fake_server()
    primary.enqueue(ToolsUnsupported())
    secondary.enqueue(Text("should not be asked"))
    waits: list[float] = []
    client = resilient(
        Candidate("primary", "fake-model", make(primary, provider="primary"), max_retries=3),
        Candidate("secondary", "fake-model", make(secondary, provider="secondary")),
        waits=waits,
    )
    with pytest.raises(ToolsUnsupportedError):
        client.chat(QUESTION, tools=[WEATHER_TOOL])
    assert waits == [] and len(primary.requests) == 1 and secondary.requests == []


def test_stream_retries_before_the_first_event_only(make: ClientFactory, fake_server: FakeOpenAIServer) -> None:
    # cut after the role chunk: nothing was shown yet, so a retry is safe
    fake_server.enqueue(CutStream(Text("unused"), after_chunks=1), Text("second try", chunk_size=4))
    waits: list[float] = []
    client = resilient(Candidate("fake", "fake-model", make(fake_server), max_retries=2), waits=waits)
    _, response = collect(client.stream(QUESTION))
    assert response.message.content == "second try"
    assert [a.error_kind for a in response.attempts] == ["unavailable", None]

    # cut after text was yielded: the retry starts with a restart event (discard what was shown)
    fake_server.enqueue(CutStream(Text("a long answer that gets cut", chunk_size=3), after_chunks=3), Text("again"))
    events = list(client.stream(QUESTION))
    kinds = [e.kind for e in events]
    assert "restart" in kinds
    after = kinds.index("restart")
    assert "".join(e.text for e in events[after:] if e.kind == "text") == "again"
    assert fake_server.pending == 0


def test_every_candidate_failing_lists_the_attempts(make: ClientFactory, make_fake_server: Callable[[], FakeOpenAIServer]) -> None:
    primary, secondary = make_fake_server(), make_fake_server()
    primary.enqueue(RateLimited(retry_after=1), RateLimited(retry_after=1))
    secondary.enqueue(ServerError())
    client = resilient(
        Candidate("primary", "fake-model", make(primary, provider="primary"), max_retries=1),
        Candidate("secondary", "fake-model", make(secondary, provider="secondary"), max_retries=0),
        waits=[],
    )
    with pytest.raises(AllProvidersFailedError) as caught:
        client.chat(QUESTION)
    message = str(caught.value)
    assert "\n" not in message
    assert "primary/fake-model: rate_limit: HTTP 429: rate limit reached x2" in message
    assert "secondary/fake-model: unavailable: HTTP 500" in message
    assert [a.provider for a in caught.value.attempts] == ["primary", "primary", "secondary"]


# --- building clients from the config ---------------------------------------------------------


def test_make_client_builds_what_the_config_says(fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from router.clients.factory import NO_KEY, make_client
    from router.clients.litellm import LiteLLMClient
    from router.clients.mock import MockLLM
    from router.clients.openai import OpenAIClient
    from router.config import parse_config

    monkeypatch.setenv("CONTRACT_TEST_KEY", KEY)
    config = parse_config(
        f"""
default: keyed
providers:
  keyed:
    client: openai
    base_url: {fake_server.base_url}
    api_key_env: CONTRACT_TEST_KEY
    timeout_s: 7
    models: [{{id: first}}, {{id: second, default: true}}]
  local:
    client: openai
    base_url: {fake_server.base_url}
    models: [{{id: local-model}}]
  viallm:
    client: litellm
    base_url: {fake_server.base_url}
    models: [{{id: some-model}}]
  mock:
    client: mock
    models: [{{id: mock-model}}]
""",
        "make-client.yaml",
    )
    keyed = make_client(config, "keyed")
    assert isinstance(keyed, OpenAIClient)
    assert (keyed.provider, keyed.model, keyed.timeout_s) == ("keyed", "second", 7)
    assert make_client(config, "keyed", "first").model == "first"  # type: ignore[attr-defined]
    assert isinstance(make_client(config, "mock"), MockLLM)

    fake_server.enqueue(Text("local answer"), Text("litellm answer"))
    assert make_client(config, "local").chat(QUESTION).message.content == "local answer"
    assert fake_server.requests[-1].headers["authorization"] == f"Bearer {NO_KEY}"
    via_litellm = make_client(config, "viallm")
    assert isinstance(via_litellm, LiteLLMClient)
    assert via_litellm.chat(QUESTION).message.content == "litellm answer"
    assert fake_server.last_body["model"] == "some-model"  # sent as openai/some-model to the base_url


def test_shipped_models_carry_their_wire_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """providers.yaml says what each model demands; make_client hands it to the client (both copies agree)."""
    from pathlib import Path

    from router.clients.factory import make_client
    from router.clients.wire import WireRules
    from router.config import load_config

    root = Path(__file__).resolve().parents[1]
    assert (root / "providers.yaml").read_text() == (root / "router" / "providers.yaml").read_text()
    config = load_config(root / "providers.yaml")
    for name in ("DEEPSEEK_API_KEY", "DASHSCOPE_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.setenv(name, "sk-rules-test")
    expected = {
        ("deepseek", "deepseek-chat"): WireRules(reasoning_echo="tool_turns"),
        ("deepseek", "deepseek-reasoner"): WireRules(reasoning_echo="none", strict_alternation=True),
        ("qwen", "qwq-plus"): WireRules(stream_only=True),
        ("qwen", "qwen-plus"): WireRules(),
        ("openai", "gpt-4o-mini"): WireRules(),
    }
    for (provider, model), rules in expected.items():
        assert make_client(config, provider, model).rules == rules, (provider, model)  # type: ignore[attr-defined]


def test_litellm_model_names() -> None:
    from router.clients.litellm import litellm_model_name

    providers = {"openai", "anthropic", "gemini"}
    assert litellm_model_name("qwen-plus", "http://x/v1", providers) == "openai/qwen-plus"
    assert litellm_model_name("Qwen/Qwen2.5-7B", "http://x/v1", providers) == "openai/Qwen/Qwen2.5-7B"
    assert litellm_model_name("anthropic/claude-3-5-haiku-latest", None, providers) == "anthropic/claude-3-5-haiku-latest"
    assert litellm_model_name("gemini/gemini-2.0-flash", "http://proxy/v1", providers) == "gemini/gemini-2.0-flash"


def test_importing_the_client_modules_stays_cheap() -> None:
    import subprocess
    import sys

    code = (
        "import sys, router.clients.base, router.clients.resilient, router.clients.streaming, router.redaction, "
        "router.clients.openai, router.clients.litellm; "
        "heavy = [m for m in ('openai', 'litellm', 'httpx', 'httpx2') if m in sys.modules]; "
        "assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --- pieces of the error mapping ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tools are not supported", True),
        ("Unrecognized request argument supplied: tools", True),
        ("This model does not support function calling", True),
        ("'tool_choice' is not supported for this model", True),
        ("registry.ollama.ai/library/gemma:2b does not support tools", True),
        ('"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', True),
        ("tools param requires --jinja flag", True),
        ("No endpoints found that support tool use.", True),
        ("Invalid schema for function 'get_weather': 'city' is not valid", False),
        ("messages with role 'tool' must be a response to a preceding message with 'tool_calls'", False),
        ("Invalid value for 'temperature'", False),
    ],
)
def test_tools_unsupported_messages(text: str, expected: bool) -> None:
    from router.clients.openai import says_tools_unsupported

    assert says_tools_unsupported(text) is expected


def test_retry_after_forms() -> None:
    import time
    from email.utils import formatdate

    from router.clients.openai import retry_after_seconds

    assert retry_after_seconds({"retry-after": "3"}) == 3.0
    assert retry_after_seconds({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    in_a_minute = retry_after_seconds({"retry-after": formatdate(time.time() + 60, usegmt=True)})
    assert in_a_minute is not None and 50 < in_a_minute <= 60
    assert retry_after_seconds({"retry-after": "soon"}) is None
    assert retry_after_seconds({}) is None
    assert retry_after_seconds(None) is None
