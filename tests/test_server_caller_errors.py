"""Caller mistakes, misconfiguration and who answered, on the gateway (issue 18: items 5, 6, 8-11, 14, 15, 19, 20).

Through HTTP against the app on 127.0.0.1, the fake upstream behind it. A caller's
mistake is a 4xx in OpenAI's error shape and never moves a provider's breaker.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fake_openai_server import FakeOpenAIServer, RateLimited, ServerError, Text
from server_harness import SERVER_KEY, UPSTREAM_KEY_ENV, ServerThread, check, make_engine, parse_sse, upstream_config

from router.config import ServerSettings
from router.server.app import create_app
from router.server.auth import KeyCheck

AUTH = {"Authorization": f"Bearer {SERVER_KEY}"}
HELLO = [{"role": "user", "content": "hello"}]


@pytest.fixture
def serve(fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., ServerThread]]:
    monkeypatch.setenv(UPSTREAM_KEY_ENV, "sk-upstream-test")
    started: list[ServerThread] = []

    def start(extra: str = "", **settings: Any) -> ServerThread:
        config = upstream_config(fake_server.base_url, extra=extra)
        app = create_app(make_engine(config), ServerSettings(**settings), keys=KeyCheck([SERVER_KEY.encode()]))
        server = ServerThread(app).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def _post(server: ServerThread, body: Any, **kwargs: Any) -> httpx.Response:
    content = body if isinstance(body, bytes) else json.dumps(body, separators=(",", ":")).encode()
    return httpx.post(server.url + "/v1/chat/completions", headers={**AUTH, "content-type": "application/json"},
                      content=content, timeout=30, **kwargs)


def _error(response: httpx.Response, status: int, code: str) -> str:
    assert response.status_code == status, response.text[:300]
    error = check("error", response.json())["error"]
    assert error["code"] == code, error
    assert "\n" not in error["message"] and "Traceback" not in error["message"]
    return str(error["message"])


# --- 5. cheap checks first ------------------------------------------------------------------------


def test_too_many_messages_is_refused_before_the_request_is_validated(serve: Any) -> None:
    server = serve(max_messages=100, max_body_bytes=8 * 1024 * 1024)
    body = {"model": "auto", "temperature": 7, "messages": [{"role": "user", "content": "x"}] * 140_000}
    message = _error(_post(server, body), 400, "too_many_messages")  # not the temperature: counted first
    assert "140,000 messages (counted before parsing), the limit is 100" in message
    fewer = {**body, "messages": body["messages"][:150]}  # a small body is parsed, then counted exactly
    assert "150 messages, the limit is 100" in _error(_post(server, fewer), 400, "too_many_messages")


# --- 6. a lone surrogate is the caller's mistake --------------------------------------------------


def test_a_lone_surrogate_is_a_400_and_never_opens_the_breaker(serve: Any, fake_server: FakeOpenAIServer) -> None:
    server = serve()
    fake_server.default_reply = Text("fine")
    bad = b'{"model": "fake/fake-model", "messages": [{"role": "user", "content": "broken \\ud800 text"}]}'
    for _ in range(6):  # twice the breaker's threshold
        message = _error(_post(server, bad), 400, "invalid_request")
        assert "lone surrogate" in message
    assert not fake_server.requests, "nothing that cannot be encoded is sent"
    good = _post(server, {"model": "fake/fake-model", "messages": HELLO})
    attempts = good.json()["router"]["attempts"]
    assert good.status_code == 200 and [(a["provider"], a["ok"]) for a in attempts] == [("fake", True)]
    assert "router_open_circuits 0" in httpx.get(server.url + "/metrics", headers=AUTH).text


# --- 8. caller mistakes are 400s, never 500s --------------------------------------------------------


def test_json_nested_100000_deep_is_a_400(serve: Any) -> None:
    server = serve()
    deep = b'{"model": "auto", "messages": [{"role": "user", "content": ' + b"[" * 100_000 + b"]" * 100_000 + b"}]}"
    assert "nested too deeply" in _error(_post(server, deep), 400, "invalid_json")


def test_a_mode_request_whose_last_message_is_not_the_users_is_a_400(serve: Any) -> None:
    server = serve()
    body = {"model": "auto", "mode": "cot", "messages": [*HELLO, {"role": "assistant", "content": "hi"}]}
    assert "last message must be the user's question" in _error(_post(server, body), 400, "invalid_messages")


def test_a_blank_question_in_mode_is_a_400(serve: Any) -> None:
    server = serve()
    body = {"model": "auto", "mode": "cot", "messages": [{"role": "user", "content": "  \n "}]}
    assert "the question is empty" in _error(_post(server, body), 400, "invalid_messages")


# --- 9. a missing provider key is the gateway's problem, and a retry will not fix it ----------------


def test_a_missing_provider_key_says_the_gateway_is_misconfigured_and_is_not_retried(
        serve: Any, fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    server = serve()
    monkeypatch.delenv(UPSTREAM_KEY_ENV)  # read when the provider is about to be used
    raw = _post(server, {"model": "fake/fake-model", "messages": HELLO})
    message = _error(raw, 500, "gateway_misconfigured")
    assert raw.headers["x-should-retry"] == "false"
    assert UPSTREAM_KEY_ENV in message and "retrying will not help" in message and "--provider" not in message

    from openai import InternalServerError, OpenAI

    client = OpenAI(base_url=server.url + "/v1", api_key=SERVER_KEY, max_retries=2)
    with pytest.raises(InternalServerError):
        client.chat.completions.create(model="fake/fake-model", messages=HELLO)  # type: ignore[arg-type]
    metrics = httpx.get(server.url + "/metrics", headers=AUTH).text
    assert 'router_requests_total{endpoint="/v1/chat/completions",status="500"} 2' in metrics  # one each, no retries
    assert not fake_server.requests


# --- 10. the provider's Retry-After ----------------------------------------------------------------


def test_every_candidate_rate_limited_passes_on_the_providers_retry_after(serve: Any, fake_server: FakeOpenAIServer) -> None:
    server = serve()
    fake_server.enqueue(RateLimited(3600), RateLimited(3600))  # the default and its fallback
    raw = _post(server, {"model": "auto", "messages": HELLO})
    _error(raw, 429, "upstream_rate_limited")
    assert raw.headers["retry-after"] == "3600"


# --- 11. a streamed fallback names who answered ----------------------------------------------------


def test_a_streamed_fallback_names_the_provider_that_answered_from_the_first_byte(
        serve: Any, fake_server: FakeOpenAIServer) -> None:
    server = serve()
    fake_server.enqueue(ServerError(500), Text("answered by the fallback", chunk_size=4))
    raw = _post(server, {"model": "auto", "messages": HELLO, "stream": True})
    assert raw.status_code == 200
    assert raw.headers["x-router-provider"] == "other" and raw.headers["x-router-model"] == "other-model"
    chunks, done = parse_sse(raw.content)
    assert done and {c["model"] for c in chunks} == {"other/other-model"}
    assert "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"]) == (
        "answered by the fallback")


# --- 14. tool results as text parts ----------------------------------------------------------------


TOOL_TURN = [
    {"role": "user", "content": "what is 6*7?"},
    {"role": "assistant", "content": None,
     "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "calc", "arguments": '{"x": "6*7"}'}}]},
]
TOOLS = [{"type": "function", "function": {"name": "calc", "parameters": {"type": "object"}}}]


def test_a_tool_result_as_text_parts_is_accepted(serve: Any, fake_server: FakeOpenAIServer) -> None:
    server = serve()
    fake_server.enqueue(Text("42 it is"))
    parts = [{"type": "text", "text": "42"}, {"type": "text", "text": "(exact)"}]
    reply = _post(server, {"model": "auto", "tools": TOOLS,
                           "messages": [*TOOL_TURN, {"role": "tool", "tool_call_id": "call_1", "content": parts}]})
    assert reply.status_code == 200, reply.text
    sent = fake_server.last_body["messages"][-1]
    assert sent == {"role": "tool", "tool_call_id": "call_1", "content": "42\n(exact)"}


def test_a_tool_result_of_another_shape_is_still_refused(serve: Any) -> None:
    server = serve()
    image = [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]
    reply = _post(server, {"model": "auto", "tools": TOOLS,
                           "messages": [*TOOL_TURN, {"role": "tool", "tool_call_id": "call_1", "content": image}]})
    _error(reply, 400, "invalid_messages")


# --- 15. n > 1 -------------------------------------------------------------------------------------


def test_n_above_one_is_refused_in_one_clear_line(serve: Any) -> None:
    server = serve()
    message = _error(_post(server, {"model": "auto", "n": 3, "messages": HELLO}), 400, "unsupported_parameter")
    assert message.startswith("n: only one choice is produced per request (n=3)")


# --- 19. max_question_chars on every path ----------------------------------------------------------


def test_max_question_chars_bounds_the_plain_gateway_path(serve: Any, fake_server: FakeOpenAIServer) -> None:
    server = serve(extra="limits: {max_question_chars: 1000}")
    long = [{"role": "user", "content": "x" * 1001}]
    assert "limits.max_question_chars (1,000)" in _error(_post(server, {"model": "auto", "messages": long}), 400,
                                                         "question_too_long")
    assert not fake_server.requests


# --- 20. no model and auto honour default: ---------------------------------------------------------


SMALL_TIERS = """
routing:
  tiers:
    fast: [tiny/tiny-model]
    strong: [tiny/tiny-model]
"""


def _small_local(base_url: str) -> str:
    return f"""  tiny:
    client: openai
    base_url: {base_url}
    small_model: true
    max_retries: 0
    models: [{{id: tiny-model, default: true}}]
""" + SMALL_TIERS


def test_no_model_means_the_configured_default(serve: Any, fake_server: FakeOpenAIServer) -> None:
    config = upstream_config(fake_server.base_url, extra=_small_local(fake_server.base_url))
    assert config.default == "fake" and config.providers["tiny"].small_model
    server = serve(extra=_small_local(fake_server.base_url))
    fake_server.default_reply = Text("8760")
    reply = _post(server, {"messages": [{"role": "user", "content": "What is 365*24?"}]})
    assert reply.status_code == 200 and reply.json()["model"] == "fake/fake-model"


def test_auto_never_prefers_a_small_local_model_over_a_default_that_can_answer(
        serve: Any, fake_server: FakeOpenAIServer) -> None:
    server = serve(extra=_small_local(fake_server.base_url))
    fake_server.default_reply = Text("8760")
    reply = _post(server, {"model": "auto", "messages": [{"role": "user", "content": "What is 365*24?"}]})
    assert reply.status_code == 200 and reply.json()["model"] == "fake/fake-model", reply.json()["router"]
