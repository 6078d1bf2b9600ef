"""``router serve`` with real clients (openai SDK, litellm, curl, httpx) against a running server.

Upstream is the scripted FakeOpenAIServer, reached by the Router through providers
config (``client: openai``). Every JSON body and SSE chunk is checked against
OpenAI's published schemas (tests/data/openai_chat_schemas.json).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fake_openai_server import FakeOpenAIServer, Slow, Text, ToolCalls, Unauthorized
from server_harness import (
    SERVER_KEY,
    UPSTREAM_KEY_ENV,
    ServerThread,
    check,
    make_engine,
    parse_sse,
    upstream_config,
)

from router.config import ServerSettings
from router.server.app import create_app
from router.server.auth import KeyCheck

AUTH = {"Authorization": f"Bearer {SERVER_KEY}"}
HELLO = [{"role": "user", "content": "hello"}]


@pytest.fixture
def serve(fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., ServerThread]]:
    """Start the app on a free port: ``serve(**server_settings)``; the upstream is ``fake_server``."""
    monkeypatch.setenv(UPSTREAM_KEY_ENV, "sk-upstream-test")
    started: list[ServerThread] = []

    def start(**settings: Any) -> ServerThread:
        config = upstream_config(fake_server.base_url)
        app = create_app(make_engine(config), ServerSettings(**settings), keys=KeyCheck([SERVER_KEY.encode()]))
        server = ServerThread(app).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def _openai(server: ServerThread, **kwargs: Any) -> Any:
    from openai import OpenAI

    return OpenAI(base_url=server.url + "/v1", api_key=SERVER_KEY, max_retries=0, **kwargs)


# --- the openai SDK -------------------------------------------------------------------------


def test_openai_sdk_json_answer_names_the_model_that_answered(serve: Any, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("Hello there", usage=(12, 3)))
    server = serve()
    raw = _openai(server).chat.completions.with_raw_response.create(model="auto", messages=HELLO, temperature=0.2)
    completion = raw.parse()
    assert completion.choices[0].message.content == "Hello there"
    assert completion.model == "fake/fake-model"
    assert completion.usage is not None and completion.usage.prompt_tokens == 12
    assert raw.headers["x-router-provider"] == "fake"
    assert raw.headers["x-router-model"] == "fake-model"
    assert "x-router-mode" in raw.headers and float(raw.headers["x-router-overhead-ms"]) >= 0
    body = check("response", json.loads(raw.http_response.content))
    assert body["router"]["attempts"][-1]["provider"] == "fake" and body["router"]["attempts"][-1]["ok"] is True
    sent = fake_server.requests[-1].body
    assert sent is not None and sent["model"] == "fake-model" and sent["temperature"] == 0.2
    assert sent["messages"][-1] == {"role": "user", "content": "hello"}


def test_openai_async_client(serve: Any, fake_server: FakeOpenAIServer) -> None:
    import asyncio

    from openai import AsyncOpenAI

    fake_server.enqueue(Text("one"), Text("two"))
    server = serve()

    async def main() -> list[str]:
        client = AsyncOpenAI(base_url=server.url + "/v1", api_key=SERVER_KEY, max_retries=0)
        async with client:
            replies = await asyncio.gather(*(client.chat.completions.create(model="fake", messages=HELLO) for _ in range(2)))
        return sorted(r.choices[0].message.content or "" for r in replies)

    assert asyncio.run(main()) == ["one", "two"]


def test_openai_sdk_streaming_with_usage(serve: Any, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("streamed answer", chunk_size=3, usage=(5, 4)))
    server = serve()
    stream = _openai(server).chat.completions.create(
        model="auto", messages=HELLO, stream=True, stream_options={"include_usage": True}
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == "streamed answer"
    finals = [c for c in chunks if c.choices and c.choices[0].finish_reason]
    assert finals and finals[-1].choices[0].finish_reason == "stop"
    assert chunks[-1].usage is not None and chunks[-1].usage.completion_tokens == 4
    assert finals[-1].model == "fake/fake-model"


def test_raw_stream_is_valid_sse_with_router_record_and_done(serve: Any, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("abcdef", chunk_size=2))
    server = serve()
    response = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, timeout=10,
                          json={"model": "auto", "messages": HELLO, "stream": True})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    chunks, done = parse_sse(response.content)
    assert done
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    finish = [c for c in chunks if c["choices"] and c["choices"][0]["finish_reason"]]
    assert len(finish) == 1 and finish[0]["router"]["provider"] == "fake"


# --- gateway: the client's own tools --------------------------------------------------------

WEATHER_TOOL = {
    "type": "function",
    "function": {"name": "get_weather", "description": "weather in a city",
                 "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
}


def test_client_side_tools_round_trip_passes_tool_calls_through_unchanged(serve: Any, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ToolCalls((("get_weather", '{"city": "Paris"}'),), id_prefix="call_up_"), Text("Sunny in Paris."))
    server = serve()
    client = _openai(server)
    messages: list[Any] = [{"role": "user", "content": "weather in Paris?"}]
    first = client.chat.completions.create(model="auto", messages=messages, tools=[WEATHER_TOOL])
    call = first.choices[0].message.tool_calls[0]
    assert first.choices[0].finish_reason == "tool_calls"
    assert (call.id, call.function.name, call.function.arguments) == ("call_up_0", "get_weather", '{"city": "Paris"}')
    assert fake_server.requests[-1].body["tools"][0]["function"]["name"] == "get_weather"  # type: ignore[index]
    messages += [first.choices[0].message.model_dump(exclude_none=True),
                 {"role": "tool", "tool_call_id": call.id, "content": "sunny, 21 C"}]
    second = client.chat.completions.create(model="auto", messages=messages, tools=[WEATHER_TOOL])
    assert second.choices[0].message.content == "Sunny in Paris."
    sent = fake_server.requests[-1].body["messages"]  # type: ignore[index]
    assert [m["role"] for m in sent] == ["user", "assistant", "tool"]
    assert sent[2]["tool_call_id"] == "call_up_0" and sent[1]["tool_calls"][0]["id"] == "call_up_0"


def test_streamed_tool_calls_arrive_piece_by_piece_with_their_ids(serve: Any, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ToolCalls((("get_weather", '{"city": "Oslo"}'), ("get_weather", '{"city": "Rome"}')),
                                  chunk_size=4))
    server = serve()
    response = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, timeout=10,
                          json={"model": "auto", "messages": HELLO, "stream": True, "tools": [WEATHER_TOOL]})
    chunks, done = parse_sse(response.content)
    calls = [tc for c in chunks if c["choices"] for tc in c["choices"][0]["delta"].get("tool_calls", [])]
    firsts = [c for c in calls if "id" in c]  # the first piece of each call names it, as OpenAI streams them
    assert [(c["index"], c["id"], c["type"], c["function"]["name"]) for c in firsts] == [
        (0, "call_0", "function", "get_weather"), (1, "call_1", "function", "get_weather")]
    joined: dict[int, str] = {}
    for call in calls:
        joined[call["index"]] = joined.get(call["index"], "") + call["function"].get("arguments", "")
    assert done and joined == {0: '{"city": "Oslo"}', 1: '{"city": "Rome"}'}
    assert len(calls) >= 8  # the arguments as they arrived (4 characters a piece upstream), not one lump at the end
    assert chunks[-1]["choices"][0]["finish_reason"] == "tool_calls"

    fake_server.enqueue(ToolCalls((("get_weather", '{"city": "Oslo"}'),), chunk_size=3))
    stream = _openai(server).chat.completions.create(model="auto", messages=HELLO, stream=True, tools=[WEATHER_TOOL])
    pieces = [tc.function.arguments for c in stream if c.choices for tc in c.choices[0].delta.tool_calls or ()
              if tc.function and tc.function.arguments]
    assert len(pieces) > 3 and "".join(pieces) == '{"city": "Oslo"}'


def test_a_broken_tool_chain_is_a_400_that_says_what_is_wrong(serve: Any, fake_server: FakeOpenAIServer) -> None:
    server = serve()
    messages = [
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
        {"role": "user", "content": "and?"},
    ]
    response = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, timeout=10,
                          json={"model": "auto", "messages": messages, "tools": [WEATHER_TOOL]})
    assert response.status_code == 400
    error = check("error", response.json())["error"]
    assert error["code"] == "invalid_messages" and "call_a" in error["message"] and "message 2" in error["message"]
    assert fake_server.requests == []


# --- other clients ---------------------------------------------------------------------------


def test_litellm_as_a_client(serve: Any, fake_server: FakeOpenAIServer) -> None:
    import litellm

    fake_server.enqueue(Text("via litellm"))
    server = serve()
    reply = litellm.completion(model="openai/auto", api_base=server.url + "/v1", api_key=SERVER_KEY, messages=HELLO)
    assert reply.choices[0].message.content == "via litellm"


def test_curl_streams_in_a_subprocess(serve: Any, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("curl sees this", chunk_size=4))
    server = serve()
    body = json.dumps({"model": "auto", "messages": HELLO, "stream": True})
    result = subprocess.run(
        ["curl", "-sN", "--max-time", "20", server.url + "/v1/chat/completions", "-H", f"Authorization: Bearer {SERVER_KEY}",
         "-H", "Content-Type: application/json", "-d", body],
        capture_output=True, timeout=30, check=True,
    )
    chunks, done = parse_sse(result.stdout)
    assert done and "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"]) == "curl sees this"


# --- access and limits -----------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer sk-wrong"}, {"Authorization": SERVER_KEY}])
def test_a_wrong_or_missing_key_is_a_401_that_does_not_echo_it(serve: Any, headers: dict[str, str]) -> None:
    server = serve()
    response = httpx.post(server.url + "/v1/chat/completions", headers=headers, json={"model": "auto", "messages": HELLO})
    assert response.status_code == 401
    assert check("error", response.json())["error"]["code"] == "invalid_api_key"
    assert "sk-wrong" not in response.text and SERVER_KEY not in response.text
    assert httpx.get(server.url + "/healthz").status_code == 200  # health needs no key


def test_the_openai_sdk_sees_a_wrong_key_as_authentication_error(serve: Any) -> None:
    from openai import AuthenticationError, OpenAI

    server = serve()
    with pytest.raises(AuthenticationError):
        OpenAI(base_url=server.url + "/v1", api_key="sk-wrong", max_retries=0).chat.completions.create(model="auto", messages=HELLO)


def test_an_oversized_body_is_refused_with_413(serve: Any, fake_server: FakeOpenAIServer) -> None:
    server = serve(max_body_bytes=4096)
    big = [{"role": "user", "content": "x" * 10_000}]
    response = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, json={"model": "auto", "messages": big})
    assert response.status_code == 413
    assert check("error", response.json())["error"]["code"] == "request_too_large"
    assert fake_server.requests == []


def test_too_many_messages_and_unknown_fields_are_400(serve: Any) -> None:
    server = serve(max_messages=2)
    many = [{"role": "user", "content": "a"}] * 3
    response = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, json={"model": "auto", "messages": many})
    assert response.status_code == 400 and check("error", response.json())["error"]["code"] == "too_many_messages"
    response = httpx.post(server.url + "/v1/chat/completions", headers=AUTH,
                          json={"model": "auto", "messages": HELLO, "temprature": 1})
    assert response.status_code == 400 and "temprature" in response.json()["error"]["message"]
    response = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, content=b"{not json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_json"


def test_the_concurrency_limit_answers_429_with_retry_after(serve: Any, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Slow(1.5, Text("slow answer")))
    server = serve(max_concurrency=1, retry_after_s=2)
    results: list[httpx.Response] = []
    first = threading.Thread(target=lambda: results.append(
        httpx.post(server.url + "/v1/chat/completions", headers=AUTH, json={"model": "auto", "messages": HELLO}, timeout=20)))
    first.start()
    import time

    deadline = time.monotonic() + 10
    while httpx.get(server.url + "/healthz").json()["in_flight"] < 1:
        assert time.monotonic() < deadline, "the first request never started"
        time.sleep(0.01)
    busy = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, json={"model": "auto", "messages": HELLO})
    first.join(timeout=20)
    assert busy.status_code == 429 and busy.headers["retry-after"] == "2"
    assert check("error", busy.json())["error"]["code"] == "server_busy"
    assert results and results[0].status_code == 200 and results[0].json()["choices"][0]["message"]["content"] == "slow answer"


# --- models, health, metrics, errors -----------------------------------------------------------


def test_models_health_and_metrics(serve: Any, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("counted", usage=(10, 5)))
    server = serve()
    models = check("models", httpx.get(server.url + "/v1/models", headers=AUTH).json())
    ids = [m["id"] for m in models["data"]]
    assert "auto" in ids and "fake/fake-model" in ids and "other/other-model" in ids
    httpx.post(server.url + "/v1/chat/completions", headers=AUTH, json={"model": "auto", "messages": HELLO})
    text = httpx.get(server.url + "/metrics", headers=AUTH).text
    assert 'router_requests_total{endpoint="/v1/chat/completions",status="200"} 1' in text
    assert 'router_tokens_total{provider="fake",model="fake-model",kind="completion"} 5' in text
    assert "router_overhead_seconds_bucket" in text and "router_open_circuits 0" in text
    assert httpx.get(server.url + "/metrics").status_code == 401


def test_unknown_model_is_404_model_not_found(serve: Any, fake_server: FakeOpenAIServer) -> None:
    server = serve()
    response = httpx.post(server.url + "/v1/chat/completions", headers=AUTH,
                          json={"model": "nosuchprovider/x", "messages": HELLO})
    assert response.status_code == 404
    assert check("error", response.json())["error"]["code"] == "model_not_found"


def test_upstream_auth_failure_is_a_502_not_the_callers_401(serve: Any, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Unauthorized(echo_key=True), Unauthorized(echo_key=True))
    server = serve()
    response = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, json={"model": "fake", "messages": HELLO})
    assert response.status_code in (502, 503)
    check("error", response.json())
    assert "sk-upstream-test" not in response.text and "Traceback" not in response.text


def test_mode_extension_answers_with_the_router_modes(serve: Any, fake_server: FakeOpenAIServer) -> None:
    fake_server.default_reply = Text("The answer is 4.")
    server = serve()
    raw = _openai(server).chat.completions.with_raw_response.create(
        model="auto", messages=[{"role": "user", "content": "What is 2+2? Think step by step."}], extra_body={"mode": "cot"})
    assert raw.headers["x-router-mode"] == "cot"
    body = check("response", json.loads(raw.http_response.content))
    assert "4" in body["choices"][0]["message"]["content"] and body["router"]["mode"] == "cot"


def test_mode_and_tools_together_are_refused(serve: Any) -> None:
    server = serve()
    response = httpx.post(server.url + "/v1/chat/completions", headers=AUTH,
                          json={"model": "auto", "messages": HELLO, "tools": [WEATHER_TOOL], "mode": "react"})
    assert response.status_code == 400 and response.json()["error"]["param"] == "mode"


# --- the command ------------------------------------------------------------------------------


def test_serve_refuses_a_public_address_without_keys(tmp_path: Any) -> None:
    config = tmp_path / "providers.yaml"
    config.write_text("default: mock\nproviders:\n  mock:\n    client: mock\n    models: [{id: mock-model}]\n")
    result = subprocess.run([sys.executable, "-m", "router", "serve", "--host", "0.0.0.0", "--config", str(config)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "no API keys configured" in lines[0]


# --- shutdown and broken streams -----------------------------------------------------------------


def _write_config(tmp_path: Any, base_url: str) -> str:
    from server_harness import upstream_config

    config = upstream_config(base_url)
    path = tmp_path / "providers.yaml"
    lines = ["default: fake", "fallbacks: [other]", "retry: {max_wait_s: 0.5}", "providers:"]
    for name, provider in config.providers.items():
        model = provider.default_model.id
        lines += [f"  {name}:", "    client: openai", f"    base_url: {provider.base_url}",
                  f"    api_key_env: {UPSTREAM_KEY_ENV}", "    max_retries: 0", f"    models: [{{id: {model}, default: true}}]"]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _wait_until_up(url: str, process: subprocess.Popen[Any]) -> None:
    import time

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read() if process.stderr else "server exited"
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)
    raise AssertionError("server did not come up")


def test_shutdown_during_a_stream_finishes_the_stream(tmp_path: Any, fake_server: FakeOpenAIServer) -> None:
    import os
    import signal
    import time
    from pathlib import Path

    from server_harness import free_port

    fake_server.enqueue(Slow(1.5, Text("finished despite the shutdown", chunk_size=5)))
    port = free_port()
    env = {**os.environ, UPSTREAM_KEY_ENV: "sk-upstream-test"}
    process = subprocess.Popen([sys.executable, str(Path(__file__).parent / "serve_app.py"),
                                _write_config(tmp_path, fake_server.base_url), str(port)],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, process)
        got: list[httpx.Response] = []
        client = threading.Thread(target=lambda: got.append(httpx.post(
            url + "/v1/chat/completions", headers=AUTH, timeout=30,
            json={"model": "auto", "messages": HELLO, "stream": True})))
        client.start()
        deadline = time.monotonic() + 10
        while not fake_server.requests:  # the request reached the upstream: it is in flight
            assert time.monotonic() < deadline
            time.sleep(0.01)
        process.send_signal(signal.SIGTERM)
        client.join(timeout=30)
        assert process.wait(timeout=30) in (0, -signal.SIGTERM)  # uvicorn re-raises the signal once drained
    finally:
        if process.poll() is None:
            process.kill()
    assert got and got[0].status_code == 200
    chunks, done = parse_sse(got[0].content)
    assert done and "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"]) == (
        "finished despite the shutdown")


def test_a_stream_cut_upstream_is_never_reported_as_complete(serve: Any, fake_server: FakeOpenAIServer) -> None:
    from fake_openai_server import CutStream

    fake_server.enqueue(CutStream(Text("this answer is cut off in the middle", chunk_size=3), after_chunks=4))
    server = serve()
    response = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, timeout=20,
                          json={"model": "fake", "messages": HELLO, "stream": True})
    if response.status_code != 200:  # failed before any text: a real status
        assert response.status_code >= 500 and check("error", response.json())
        return
    chunks, done = parse_sse(response.content)
    assert not done and "error" in chunks[-1], "a cut stream must end with an error event, not [DONE]"


def test_the_serve_command_answers(tmp_path: Any, fake_server: FakeOpenAIServer) -> None:
    import os
    import signal

    from server_harness import free_port

    fake_server.enqueue(Text("from the real command"))
    config = _write_config(tmp_path, fake_server.base_url)
    with open(config, "a") as handle:
        handle.write("server: {api_key_envs: [ROUTER_TEST_SERVER_KEY]}\n")
    port = free_port()
    env = {**os.environ, UPSTREAM_KEY_ENV: "sk-upstream-test", "ROUTER_TEST_SERVER_KEY": SERVER_KEY}
    process = subprocess.Popen([sys.executable, "-m", "router", "serve", "--port", str(port), "--config", config],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, process)
        # a cold process imports the SDKs on its first request: give it time on a loaded machine
        response = httpx.post(url + "/v1/chat/completions", headers=AUTH, json={"model": "auto", "messages": HELLO}, timeout=60)
        assert response.status_code == 200 and response.json()["choices"][0]["message"]["content"] == "from the real command"
        assert httpx.post(url + "/v1/chat/completions", json={"model": "auto", "messages": HELLO}).status_code == 401
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) in (0, -signal.SIGTERM)
    finally:
        if process.poll() is None:
            process.kill()
    assert SERVER_KEY not in (process.stderr.read() if process.stderr else "")


def test_a_client_that_hangs_up_mid_stream_stops_the_work(serve: Any, fake_server: FakeOpenAIServer) -> None:
    import socket
    import time

    fake_server.enqueue(Slow(2.0, Text("nobody is listening")))
    server = serve()
    body = json.dumps({"model": "auto", "messages": HELLO, "stream": True}).encode()
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                     b"authorization: Bearer " + SERVER_KEY.encode() + b"\r\ncontent-length: %d\r\n\r\n" % len(body) + body)
        deadline = time.monotonic() + 10
        while not fake_server.requests:
            assert time.monotonic() < deadline
            time.sleep(0.01)
    deadline = time.monotonic() + 10
    while 'code="client_disconnected"} 1' not in httpx.get(server.url + "/metrics", headers=AUTH).text:
        assert time.monotonic() < deadline, "the server did not notice the client leaving"
        time.sleep(0.05)
    assert httpx.get(server.url + "/healthz").json()["in_flight"] == 0


def test_each_key_has_its_own_daily_budget(fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """server.budget_usd_per_day_per_key: a key over its own limit gets 429 budget_exceeded; another key goes on."""
    monkeypatch.setenv(UPSTREAM_KEY_ENV, "sk-upstream-test")
    # each answer: 1,000,000 prompt tokens at 1 USD/M + 0 completion = 1 USD (the fake reports the usage given)
    fake_server.default_reply = Text("ok", usage=(1_000_000, 0))
    config = upstream_config(fake_server.base_url)
    settings = ServerSettings(budget_usd_per_day_per_key=1.5)
    keys = KeyCheck([b"sk-team-a-key-000000000001", b"sk-team-b-key-000000000002"], ["TEAM_A_KEY", "TEAM_B_KEY"])
    server = ServerThread(create_app(make_engine(config), settings, keys=keys)).start()
    try:
        def ask(key: str) -> httpx.Response:
            return httpx.post(server.url + "/v1/chat/completions", headers={"Authorization": f"Bearer {key}"},
                              json={"model": "auto", "messages": HELLO}, timeout=30)

        assert ask("sk-team-a-key-000000000001").status_code == 200  # 1 USD spent
        assert ask("sk-team-a-key-000000000001").status_code == 200  # 2 USD: the call that crossed is charged
        refused = ask("sk-team-a-key-000000000001")
        assert refused.status_code == 429 and check("error", refused.json())["error"]["code"] == "budget_exceeded"
        assert "TEAM_A_KEY" in refused.json()["error"]["message"] and "sk-team-a" not in refused.text
        assert ask("sk-team-b-key-000000000002").status_code == 200  # the other key's budget is its own
    finally:
        server.stop()
