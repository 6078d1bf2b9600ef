"""ResilientClient, circuit breakers and the planner with scripted clients (no network)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from router.aio import run_sync
from router.clients.base import LLMClient, SyncClient
from router.clients.mock import MockLLM, ScriptedLLM, text_response
from router.clients.resilient import Candidate, LazyClient, ResilientClient, summarize
from router.config import RetrySettings, parse_config
from router.errors import (
    AllProvidersFailedError,
    AuthenticationError,
    BadRequestError,
    MalformedResponseError,
    MissingAPIKeyError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    RateLimitError,
    ScriptExhaustedError,
    ToolsUnsupportedError,
)
from router.routing.names import Route
from router.routing.plan import plan
from router.state.base import BreakerPolicy
from router.state.breaker import CircuitBreaker
from router.state.memory import MemoryStore
from router.types import Attempt, RequestOptions, StreamEvent

Q = [{"role": "user", "content": "hi"}]
SETTINGS = RetrySettings(max_wait_s=8.0, cooldown_s=60.0, failures_before_cooldown=100)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def chain(*candidates: Candidate, waits: list[float] | None = None, **kwargs: Any) -> ResilientClient:
    kwargs.setdefault("retry", SETTINGS)
    sink = waits if waits is not None else []

    async def sleep(seconds: float) -> None:
        sink.append(seconds)

    return ResilientClient(list(candidates), sleep=sleep, base_delay_s=1.0, rng=random.Random(7), **kwargs)


def unavailable() -> ProviderUnavailableError:
    return ProviderUnavailableError("HTTP 503: busy", provider="a", status=503)


# --- retry policy ----------------------------------------------------------------------------


def test_transient_errors_are_retried_then_succeed() -> None:
    script = ScriptedLLM([unavailable(), ProviderTimeoutError("slow"), MalformedResponseError("junk"), text_response("ok")])
    waits: list[float] = []
    response = chain(Candidate("a", "m", script, max_retries=3), waits=waits).chat(Q)
    assert response.message.content == "ok"
    assert [a.error_kind for a in response.attempts] == ["unavailable", "timeout", "malformed", None]
    assert [a.wait_s for a in response.attempts] == [*waits, 0.0]
    assert len(script.calls) == 4


def test_backoff_doubles_with_jitter_and_is_capped() -> None:
    client = chain(Candidate("a", "m", ScriptedLLM([])))
    for n, (low, high) in enumerate([(0.5, 1.0), (1.0, 2.0), (2.0, 4.0), (4.0, 8.0), (8.0, 8.0), (8.0, 8.0)], start=1):
        wait = client.backoff_s(n, unavailable())
        assert low <= wait <= high, (n, wait)
    waits = {client.backoff_s(1, unavailable()) for _ in range(20)}
    assert len(waits) > 1  # jittered


def test_retry_after_is_honoured_and_capped() -> None:
    client = chain(Candidate("a", "m", ScriptedLLM([])))
    assert client.backoff_s(1, RateLimitError("slow down", retry_after=3.0)) == 3.0
    assert client.backoff_s(1, RateLimitError("slow down", retry_after=3600.0)) == 8.0
    assert client.backoff_s(1, RateLimitError("slow down", retry_after=0.0)) == 0.0
    assert 0.5 <= client.backoff_s(1, RateLimitError("no header")) <= 1.0


@pytest.mark.parametrize("error", [AuthenticationError("HTTP 401: no", status=401), BadRequestError("HTTP 422: bad", status=422)])
def test_auth_and_bad_request_are_not_retried_but_fall_back(error: Exception) -> None:
    first = ScriptedLLM([error, text_response("never")])
    second = ScriptedLLM([text_response("from b")])
    waits: list[float] = []
    response = chain(Candidate("a", "m", first, max_retries=5), Candidate("b", "m", second), waits=waits).chat(Q)
    assert response.message.content == "from b"
    assert waits == [] and len(first.calls) == 1
    assert [(a.provider, a.ok) for a in response.attempts] == [("a", False), ("b", True)]


def test_tools_unsupported_stops_everything() -> None:
    first = ScriptedLLM([ToolsUnsupportedError("HTTP 400: tools are not supported", status=400)])
    second = ScriptedLLM([text_response("never")])
    with pytest.raises(ToolsUnsupportedError):
        chain(Candidate("a", "m", first, max_retries=3), Candidate("b", "m", second)).chat(Q, tools=[{"type": "function"}])
    assert len(first.calls) == 1 and second.calls == []


def test_foreign_errors_propagate_untouched() -> None:
    with pytest.raises(ScriptExhaustedError):
        chain(Candidate("a", "m", ScriptedLLM([])), Candidate("b", "m", ScriptedLLM([text_response("x")]))).chat(Q)


def test_all_failing_raises_with_every_attempt_and_a_one_line_summary() -> None:
    first = ScriptedLLM([unavailable(), unavailable()])
    second = ScriptedLLM([AuthenticationError("HTTP 401", status=401)])
    with pytest.raises(AllProvidersFailedError) as caught:
        chain(Candidate("a", "m1", first, max_retries=1), Candidate("b", "m2", second)).chat(Q)
    error = caught.value
    assert str(error) == "all providers failed: a/m1: unavailable: HTTP 503: busy x2; b/m2: auth: HTTP 401"
    assert [a.error_kind for a in error.attempts] == ["unavailable", "unavailable", "auth"]
    assert error.attempts[0].wait_s > 0 and error.attempts[1].wait_s == 0
    assert isinstance(error.__cause__, AuthenticationError)
    assert error.kind == "exhausted" and not error.retryable


def test_options_and_tools_reach_the_client() -> None:
    script = ScriptedLLM([text_response("ok")])
    tools = [{"type": "function", "function": {"name": "f"}}]
    chain(Candidate("a", "m", script)).chat(Q, tools=tools, options=RequestOptions(temperature=0))
    assert script.calls[0].tools == tools
    assert script.calls[0].options == RequestOptions(temperature=0)


def test_resilient_client_is_an_llm_client() -> None:
    assert isinstance(chain(Candidate("a", "m", MockLLM())), LLMClient)
    with pytest.raises(ValueError):
        ResilientClient([])


# --- circuit breakers ------------------------------------------------------------------------


def breaker(clock: Clock, failures: int, cooldown_s: float = 60.0) -> CircuitBreaker:
    return CircuitBreaker(MemoryStore(clock=clock), BreakerPolicy(failures=failures, window_s=30.0, cooldown_s=cooldown_s), clock=clock)


def test_open_circuits_are_skipped_and_bad_requests_do_not_count() -> None:
    clock = Clock()
    gate = breaker(clock, failures=2)
    a = ScriptedLLM([BadRequestError("bad"), BadRequestError("bad"), unavailable(), unavailable(), text_response("a back")])
    b = ScriptedLLM([text_response("b")] * 5)
    client = chain(Candidate("a", "m", a, max_retries=0), Candidate("b", "m", b, max_retries=0), clock=clock, breaker=gate)
    client.chat(Q)
    client.chat(Q)
    assert run_sync(gate.state("a/m")).state == "closed"  # bad requests say nothing about the provider's health
    client.chat(Q)
    client.chat(Q)
    assert run_sync(gate.state("a/m")).state == "open"
    skipped = client.chat(Q)
    assert skipped.attempts[0] == Attempt("a", "m", ok=False, error_kind="circuit_open", error="skipped: circuit open, next probe in 60s")
    assert len(a.calls) == 4
    clock.now = 61  # half-open: one probe, which succeeds and closes the circuit
    assert client.chat(Q).message.content == "a back"
    assert run_sync(gate.state("a/m")).state == "closed"


def test_everything_open_fails_fast_without_calls() -> None:
    clock = Clock()
    gate = breaker(clock, failures=1)
    run_sync(gate.record_failure("a/m"))
    script = ScriptedLLM([text_response("never")])
    with pytest.raises(AllProvidersFailedError) as caught:
        chain(Candidate("a", "m", script), clock=clock, breaker=gate).chat(Q)
    assert script.calls == [] and caught.value.attempts[0].error_kind == "circuit_open"


def test_summarize_handles_no_attempts() -> None:
    assert summarize([]) == "no candidate to try"


# --- streaming -------------------------------------------------------------------------------


class BreaksAfterFirstEvent(SyncClient):
    provider, model = "a", "m"

    def __init__(self) -> None:
        self.calls = 0

    async def astream(self, messages: list[dict[str, Any]], *, tools: Any = None, options: Any = None) -> AsyncIterator[StreamEvent]:
        self.calls += 1
        yield StreamEvent("text", text="partial ")
        raise ProviderUnavailableError("stream cut")


def test_stream_falls_back_before_the_first_event_and_attaches_attempts() -> None:
    first = ScriptedLLM([unavailable()])
    second = ScriptedLLM([text_response("streamed answer")])
    events = list(chain(Candidate("a", "m", first, max_retries=0), Candidate("b", "m", second)).stream(Q))
    assert "".join(e.text for e in events if e.kind == "text") == "streamed answer"
    done = events[-1]
    assert done.kind == "done" and done.response is not None
    assert [(a.provider, a.ok) for a in done.response.attempts] == [("a", False), ("b", True)]


def test_stream_errors_after_text_restart_the_answer_on_the_next_try_with_a_restart_event() -> None:
    broken = BreaksAfterFirstEvent()
    backup = ScriptedLLM([text_response("whole answer")])
    notices: list[str] = []
    stream = chain(Candidate("a", "m", broken, max_retries=0), Candidate("b", "m", backup), notify=notices.append).stream(Q)
    events = list(stream)
    assert [e.kind for e in events[:2]] == ["text", "restart"]
    assert events[0].text == "partial " and "restarting" in events[1].text
    assert "".join(e.text for e in events[2:] if e.kind == "text") == "whole answer"
    assert broken.calls == 1 and len(backup.calls) == 1
    assert events[-1].response is not None and [a.ok for a in events[-1].response.attempts] == [False, True]
    assert any("restarting" in n for n in notices)


# --- chains from the config ------------------------------------------------------------------

CONFIG = """
default: alpha
fallbacks: [alpha, beta, notools, nokey, beta, mock]
providers:
  alpha:
    client: openai
    base_url: http://127.0.0.1:9/v1
    api_key_env: RESILIENCE_TEST_ALPHA_KEY
    max_retries: 1
    models: [{id: alpha-1}]
  beta:
    client: openai
    base_url: http://127.0.0.1:9/v1
    api_key_env: RESILIENCE_TEST_BETA_KEY
    models: [{id: beta-1}, {id: beta-2, default: true}]
  notools:
    client: openai
    base_url: http://127.0.0.1:9/v1
    capabilities: {tools: false, streaming: false}
    models: [{id: plain}]
  nokey:
    client: openai
    base_url: http://127.0.0.1:9/v1
    api_key_env: RESILIENCE_TEST_UNSET_KEY
    models: [{id: x}]
  mock:
    client: mock
    models: [{id: mock-model}]
"""


@pytest.fixture
def config(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.delenv("RESILIENCE_TEST_ALPHA_KEY", raising=False)
    monkeypatch.setenv("RESILIENCE_TEST_BETA_KEY", "beta-key-value-123")
    monkeypatch.delenv("RESILIENCE_TEST_UNSET_KEY", raising=False)
    return parse_config(CONFIG, "resilience.yaml")


def route(provider: str, explicit: bool = False, model: str | None = None) -> Route:
    return Route(provider, model or "", "test", explicit=explicit)


def test_plan_records_every_provider_it_passes_over(config: Any) -> None:
    # alpha (default) has no key, nokey neither, beta appears twice: each skip is recorded once, with its reason
    planned = plan(config, route("alpha"), embedded_available=lambda: False)
    assert [(c.provider, c.model_id) for c in planned.candidates] == [("beta", "beta-2"), ("notools", "plain"), ("mock", "mock-model")]
    assert [(a.provider, a.error_kind, a.error) for a in planned.skipped] == [
        ("alpha", "no_key", "RESILIENCE_TEST_ALPHA_KEY is not set"),
        ("nokey", "no_key", "RESILIENCE_TEST_UNSET_KEY is not set"),
    ]
    assert planned.candidates[0].settings.max_retries == 2 and planned.candidates[0].model.id == "beta-2"


def test_plan_for_react_skips_fallbacks_without_tools_and_says_so(config: Any) -> None:
    planned = plan(config, route("mock"), needs_tools=True, embedded_available=lambda: False)
    assert [c.provider for c in planned.candidates] == ["mock", "beta"]
    assert ("notools", "capability") in [(a.provider, a.error_kind) for a in planned.skipped]


def test_an_explicit_provider_without_a_key_is_an_error_naming_every_variable(config: Any) -> None:
    with pytest.raises(MissingAPIKeyError) as caught:
        plan(config, route("alpha", explicit=True), embedded_available=lambda: False)
    assert "RESILIENCE_TEST_ALPHA_KEY" in str(caught.value)


def test_injected_clients_count_as_available(config: Any) -> None:
    planned = plan(config, route("alpha", explicit=True, model="alpha-1"), injected={"alpha"}, embedded_available=lambda: False)
    assert (planned.first.provider, planned.first.model_id) == ("alpha", "alpha-1")


def test_lazy_fallbacks_are_built_only_when_needed() -> None:
    built: list[str] = []

    def factory() -> LLMClient:
        built.append("b")
        return ScriptedLLM([text_response("b")])

    client = chain(Candidate("a", "m", MockLLM()), Candidate("b", "m", LazyClient(factory, "b", "m")))
    response = client.chat([{"role": "user", "content": "hello"}])
    assert response.provider == "a" and response.attempts == (Attempt("a", "m", ok=True, latency_s=response.attempts[0].latency_s),)
    assert built == [] and "built" not in repr(client.candidates[1].client)


def test_a_fallback_that_cannot_be_built_is_recorded_and_skipped() -> None:
    def no_key() -> LLMClient:
        raise MissingAPIKeyError("b", "SOME_KEY")

    client = chain(
        Candidate("a", "m", ScriptedLLM([unavailable()]), max_retries=0),
        Candidate("b", "m", LazyClient(no_key, "b", "m")),
        Candidate("c", "m", ScriptedLLM([text_response("c")])),
    )
    response = client.chat(Q)
    assert response.provider == "c" and response.message.content == "c"
    assert [a.error_kind for a in response.attempts] == ["unavailable", "config", None]


def test_an_empty_reply_is_a_failed_attempt_that_falls_back() -> None:
    client = chain(Candidate("a", "m", ScriptedLLM([text_response(""), text_response("  ")]), max_retries=0),
                   Candidate("b", "m", ScriptedLLM([text_response("real answer")])))  # fmt: skip
    response = client.chat(Q)
    assert response.message.content == "real answer"
    assert [(a.provider, a.error_kind) for a in response.attempts] == [("a", "malformed"), ("b", None)]


def test_a_429_beyond_the_wait_cap_falls_back_at_once() -> None:
    waits: list[float] = []
    first = ScriptedLLM([RateLimitError("HTTP 429: slow down", retry_after=3600.0), text_response("never")])
    client = chain(Candidate("a", "m", first, max_retries=3), Candidate("b", "m", ScriptedLLM([text_response("b")])), waits=waits)
    assert client.chat(Q).message.content == "b"
    assert waits == [] and len(first.calls) == 1


def test_retries_are_announced_with_the_providers_reason() -> None:
    notes: list[str] = []
    client = chain(Candidate("a", "m", ScriptedLLM([RateLimitError("HTTP 429: slow down", provider="a", retry_after=2.0), text_response("ok")])),
                   notify=notes.append)  # fmt: skip
    client.chat(Q)
    assert notes == ["a: rate_limit: HTTP 429: slow down; retrying in 2.0 s"]
