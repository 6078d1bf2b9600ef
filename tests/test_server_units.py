"""The server's pieces that need no running core: keys, error mapping, wire parsing, metrics, one-piece writes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from router.config import parse_config
from router.errors import (
    AllProvidersFailedError,
    AuthenticationError,
    BadRequestError,
    ConfigError,
    MessageChainError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    RateLimitError,
    UsageError,
)
from router.server.app import header_value
from router.server.auth import KeyCheck
from router.server.http_errors import from_exception
from router.server.metrics import Metrics
from router.server.protocol import HeadHoldingTransport
from router.server.wire import WireError, parse_request, request_options
from router.types import Attempt, RequestOptions

BASE = "default: m\nproviders:\n  m:\n    client: mock\n    models: [{id: mock-model}]\n"


# --- keys --------------------------------------------------------------------------------------


def test_keys_come_from_the_named_variables_and_only_they_pass() -> None:
    keys = KeyCheck.from_env(["A_KEY", "B_KEY"], host="0.0.0.0", environ={"A_KEY": "sk-aaaaaaaa", "B_KEY": "sk-bbbbbbbb"})
    assert keys.allows(b"Bearer sk-aaaaaaaa") and keys.allows(b"bearer sk-bbbbbbbb")
    assert not keys.allows(b"Bearer sk-cccccccc") and not keys.allows(None) and not keys.allows(b"sk-aaaaaaaa")


def test_no_keys_is_open_on_loopback_and_refused_elsewhere() -> None:
    assert KeyCheck.from_env([], host="127.0.0.1", environ={}).open
    assert KeyCheck.from_env([], host="::1", environ={}).open
    with pytest.raises(ConfigError, match=r"refusing to serve on 0\.0\.0\.0"):
        KeyCheck.from_env([], host="0.0.0.0", environ={})


def test_an_unset_key_variable_is_named_and_no_value_is_shown() -> None:
    with pytest.raises(ConfigError, match="names B_KEY, which is not set") as caught:
        KeyCheck.from_env(["A_KEY", "B_KEY"], host="127.0.0.1", environ={"A_KEY": "sk-secret-value"})
    assert "sk-secret-value" not in str(caught.value)


def test_yaml_server_section_takes_variable_names_not_keys() -> None:
    config = parse_config(BASE + "server: {api_key_envs: [ROUTER_KEY], max_concurrency: 8}\n")
    assert config.server.api_key_envs == ["ROUTER_KEY"] and config.server.max_concurrency == 8
    with pytest.raises(ConfigError) as caught:
        parse_config(BASE + "server: {api_key_envs: [sk-proj-abcdef123456]}\n")
    assert "sk-proj-abcdef123456" not in str(caught.value) and "environment variable names" in str(caught.value)
    with pytest.raises(ConfigError, match="unknown key"):
        parse_config(BASE + "server: {max_concurency: 8}\n")


# --- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("exc", "status", "code"),
    [
        (RateLimitError("slow down", provider="p", retry_after=2.5), 429, "upstream_rate_limited"),
        (AuthenticationError("bad key", provider="p"), 502, "upstream_auth_failed"),
        (ProviderTimeoutError("too slow", provider="p"), 504, "upstream_timeout"),
        (ProviderUnavailableError("down", provider="p"), 502, "upstream_unavailable"),
        (BadRequestError("context too long", provider="p"), 400, "upstream_bad_request"),
        (UsageError("unknown provider 'x' (known: a)"), 404, "model_not_found"),
        (UsageError("the question is empty"), 400, "invalid_request"),
        (MessageChainError(["message 2 (tool): orphan"]), 400, "invalid_messages"),
        (TimeoutError(), 504, "request_timeout"),
        (KeyError("internal detail"), 500, "internal_error"),
    ],
)
def test_errors_map_to_openai_statuses(exc: BaseException, status: int, code: str) -> None:
    fail = from_exception(exc)
    assert (fail.status, fail.code) == (status, code)
    body = fail.body()["error"]
    assert set(body) == {"message", "type", "param", "code"}  # type: ignore[arg-type]
    assert "internal detail" not in str(body) and "Traceback" not in str(body)


def test_rate_limit_carries_retry_after_and_exhausted_chains_are_judged_by_their_attempts() -> None:
    assert from_exception(RateLimitError("x", retry_after=2.5)).headers() == [(b"retry-after", b"3")]
    limited = AllProvidersFailedError("all failed", attempts=(Attempt("a", "m", ok=False, error_kind="rate_limit", wait_s=4),))
    assert from_exception(limited).status == 429 and from_exception(limited).retry_after == 4
    mixed = AllProvidersFailedError("all failed", attempts=(
        Attempt("a", "m", ok=False, error_kind="rate_limit"), Attempt("b", "m", ok=False, error_kind="unavailable")))
    assert from_exception(mixed).status == 503 and from_exception(mixed).code == "all_providers_failed"


# --- wire ----------------------------------------------------------------------------------------


def test_request_fields_become_typed_options() -> None:
    request = parse_request({"model": "auto", "messages": [{"role": "user", "content": "hi"}], "temperature": 0.3,
                             "max_completion_tokens": 50, "max_tokens": 10, "stop": "END", "presence_penalty": 0.5},
                            max_messages=10)
    options = request_options(request)
    assert (options.temperature, options.max_tokens, options.stop) == (0.3, 50, ("END",))
    assert options.extra_body == {"presence_penalty": 0.5}


@pytest.mark.parametrize("extra", [{}, {"stream": True, "stream_options": {"include_usage": True}}, {"n": 1},
                                   {"store": True, "metadata": {"k": "v"}}, {"mode": "cot"}])
def test_a_request_without_tuning_has_default_options(extra: dict[str, object]) -> None:
    request = parse_request({"model": "auto", "messages": [{"role": "user", "content": "hi"}], **extra}, max_messages=10)
    assert request_options(request) == RequestOptions()


@pytest.mark.parametrize("field", ["temperature", "top_p", "seed", "user", "presence_penalty", "tool_choice"])
def test_any_tuning_field_reaches_the_options(field: str) -> None:
    value = {"temperature": 0.5, "top_p": 0.5, "seed": 7, "user": "u", "presence_penalty": 0.1, "tool_choice": "none"}[field]
    request = parse_request({"model": "auto", "messages": [{"role": "user", "content": "hi"}], field: value},
                            max_messages=10)
    assert request_options(request) != RequestOptions()


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"model": "auto", "messages": []}, "messages"),
        ({"model": "auto", "messages": [{"role": "user", "content": "x"}], "n": 2}, "n"),
        ({"model": "auto", "messages": [{"role": "user", "content": "x"}], "functions": []}, "legacy"),
        ({"model": "auto", "messages": [{"role": "user", "content": "x"}], "mode": "magic"}, "mode"),
        ({"model": "auto", "messages": [{"role": "user", "content": "x"}], "temperature": 9}, "temperature"),
        ([1, 2], "JSON object"),
    ],
)
def test_bad_requests_name_the_field(body: Any, needle: str) -> None:
    with pytest.raises(WireError, match=needle) as caught:
        parse_request(body, max_messages=10)
    assert caught.value.status == 400


def test_header_values_stay_latin1_safe() -> None:
    assert header_value("explicit request: 用 kimi") == b"explicit request: %E7%94%A8 kimi"
    assert header_value("line\r\nbreak") == b"line%0D%0Abreak"
    assert header_value("plain") == b"plain"


# --- metrics -------------------------------------------------------------------------------------


def test_metrics_render_prometheus_text() -> None:
    metrics = Metrics(open_circuits=lambda: [("deepseek", "deepseek-chat")])
    metrics.requests.inc((("endpoint", "/v1/chat/completions"), ("status", "200")))
    metrics.latency.observe(0.02, (("endpoint", "/v1/chat/completions"),))
    metrics.record_answer("deepseek", "deepseek-chat", 10, 5, 0.001, fell_back=True)
    assert metrics.open_circuits is not None
    text = metrics.render(metrics.open_circuits())
    assert 'router_requests_total{endpoint="/v1/chat/completions",status="200"} 1' in text
    assert 'router_request_duration_seconds_bucket{endpoint="/v1/chat/completions",le="0.025"} 1' in text
    assert 'router_request_duration_seconds_bucket{endpoint="/v1/chat/completions",le="0.01"} 0' in text
    assert 'router_request_duration_seconds_count{endpoint="/v1/chat/completions"} 1' in text
    assert 'router_tokens_total{provider="deepseek",model="deepseek-chat",kind="prompt"} 10' in text
    assert 'router_fallbacks_total{provider="deepseek",model="deepseek-chat"} 1' in text
    assert "router_open_circuits 1" in text and 'router_circuit_open{provider="deepseek",model="deepseek-chat"} 1' in text


# --- one-piece responses -------------------------------------------------------------------------


class RecordingTransport:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str) -> Any:
        return None


def test_head_and_body_leave_in_one_write_and_a_lone_head_is_flushed_next_turn() -> None:
    async def run() -> list[bytes]:
        real = RecordingTransport()
        transport = HeadHoldingTransport(real)  # type: ignore[arg-type]
        transport.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
        transport.write(b"{}")
        transport.write(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n")  # a stream's head, body later
        await asyncio.sleep(0)
        transport.write(b"5\r\nhello\r\n")
        transport.close()
        assert real.closed and transport.get_extra_info("x") is None
        return real.writes

    assert asyncio.run(run()) == [
        b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}",
        b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n",
        b"5\r\nhello\r\n",
    ]
