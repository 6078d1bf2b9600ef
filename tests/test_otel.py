"""OpenTelemetry GenAI spans, sent over OTLP/HTTP to a real receiver on 127.0.0.1 and decoded from protobuf."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the otel extra is not installed")

from fake_openai_server import FakeOpenAIServer, ServerError, Text, ToolCalls
from otlp_receiver import OTLPReceiver, ReceivedSpan
from server_harness import UPSTREAM_KEY_ENV, free_port, upstream_config

from router import Router

UPSTREAM_SECRET = "sk-upstream-otel-secret-4f9a1c77e2"
CLIENT = 3  # SpanKind.CLIENT in OTLP's enum
ERROR = 2  # Status.STATUS_CODE_ERROR


@pytest.fixture
def receiver() -> Iterator[OTLPReceiver]:
    started = OTLPReceiver().start()
    yield started
    started.stop()


@pytest.fixture
def traced_env(receiver: OTLPReceiver, monkeypatch: pytest.MonkeyPatch) -> OTLPReceiver:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint)
    monkeypatch.setenv("OTEL_SERVICE_NAME", "router-under-test")
    monkeypatch.setenv(UPSTREAM_KEY_ENV, UPSTREAM_SECRET)
    monkeypatch.delenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", raising=False)
    return receiver


def by_name(spans: list[ReceivedSpan], prefix: str) -> list[ReceivedSpan]:
    return [s for s in spans if s.name.startswith(prefix)]


def test_a_react_answer_is_one_request_span_with_its_attempts_and_tool_runs(
        traced_env: OTLPReceiver, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ToolCalls((("calculator", '{"expression": "365*24"}'),)), Text("It is 8760 hours."))
    router = Router(upstream_config(fake_server.base_url))
    answer = router.ask("How many hours are in a year of 365 days? zebra-marker", mode="react")
    router.close()  # flushes the exporter the router made
    assert "8760" in answer.text

    spans = traced_env.wait_for("invoke_agent")
    spans = traced_env.spans
    (request,) = by_name(spans, "invoke_agent router")
    chats = by_name(spans, "chat fake-model")
    (tool,) = by_name(spans, "execute_tool calculator")
    assert len(chats) == 2
    assert request.attributes["gen_ai.operation.name"] == "invoke_agent"
    assert request.attributes["gen_ai.provider.name"] == "fake"
    assert request.attributes["gen_ai.response.model"] == "fake-model"
    assert request.attributes["router.mode"] == "react"
    assert request.attributes["router.fallback_count"] == 0
    assert request.attributes["router.route_reason"] == answer.route_reason
    assert request.resource["service.name"] == "router-under-test"
    for chat in chats:
        assert chat.kind == CLIENT
        assert chat.parent_span_id == request.span_id and chat.trace_id == request.trace_id
        assert chat.attributes["gen_ai.operation.name"] == "chat"
        assert chat.attributes["gen_ai.provider.name"] == "fake"
        assert chat.attributes["gen_ai.request.model"] == "fake-model"
        assert chat.attributes["server.address"] == "127.0.0.1"
    assert {c.attributes["gen_ai.usage.input_tokens"] for c in chats} == {20, 11}
    assert {c.attributes["gen_ai.response.finish_reasons"] for c in chats} == {("tool_calls",), ("stop",)}
    assert tool.parent_span_id == request.span_id
    assert tool.attributes["gen_ai.operation.name"] == "execute_tool"
    assert tool.attributes["gen_ai.tool.call.id"] == answer.tool_records[0].call_id
    assert tool.end_ns >= tool.start_ns

    raw = traced_env.raw()
    assert b"zebra-marker" not in raw  # no prompt content by default
    assert b"8760" not in raw  # no tool result or reply content by default
    assert UPSTREAM_SECRET.encode() not in raw


def test_a_fallback_is_an_error_span_and_counted(traced_env: OTLPReceiver, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ServerError(500), Text("from the fallback"))
    router = Router(upstream_config(fake_server.base_url))
    answer = router.ask("Say hi", mode="cot")
    router.close()
    assert answer.provider == "other"
    traced_env.wait_for("invoke_agent")
    failed = [s for s in by_name(traced_env.spans, "chat ") if s.status_code == ERROR]
    assert failed and failed[0].attributes["gen_ai.request.model"] == "fake-model"
    assert failed[0].attributes["error.type"]
    (request,) = by_name(traced_env.spans, "invoke_agent")
    assert request.attributes["router.fallback_count"] == 1
    assert request.attributes["gen_ai.provider.name"] == "other"


def test_content_is_recorded_only_when_opted_in_and_keys_never(
        traced_env: OTLPReceiver, fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    fake_server.enqueue(Text(f"echoing {UPSTREAM_SECRET} back"))
    router = Router(upstream_config(fake_server.base_url))
    router.ask(f"zebra-marker: my key is {UPSTREAM_SECRET}", mode="cot")
    router.close()
    traced_env.wait_for("invoke_agent")
    (request,) = by_name(traced_env.spans, "invoke_agent")
    assert "zebra-marker" in request.attributes["gen_ai.input.messages"]
    assert "echoing" in request.attributes["gen_ai.output.messages"]
    assert UPSTREAM_SECRET.encode() not in traced_env.raw()


def test_tracing_is_off_and_unloaded_without_an_endpoint(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    code = textwrap.dedent("""
        import sys, router
        r = router.Router.from_yaml(sys.argv[1])
        a = r.ask("hi", provider="mock", mode="cot")
        print(r._telemetry is None, any(m.startswith("opentelemetry") for m in sys.modules))
    """)
    config = tmp_path / "providers.yaml"
    config.write_text("default: mock\nproviders:\n  mock: {client: mock, models: [{id: mock-1, default: true}]}\n")
    out = subprocess.run([sys.executable, "-c", code, str(config)], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "False"]


def test_router_serve_sends_spans_for_each_request(receiver: OTLPReceiver, fake_server: FakeOpenAIServer,
                                                   tmp_path: Path) -> None:
    import httpx

    fake_server.enqueue(Text("served"))
    config = tmp_path / "providers.yaml"
    config.write_text(textwrap.dedent(f"""\
        default: fake
        providers:
          fake:
            client: openai
            base_url: {fake_server.base_url}
            api_key_env: {UPSTREAM_KEY_ENV}
            max_retries: 0
            models: [{{id: fake-model, default: true}}]
        """))
    port = free_port()
    env = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint, "OTEL_BSP_SCHEDULE_DELAY": "100",
           UPSTREAM_KEY_ENV: UPSTREAM_SECRET}
    env.pop("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", None)
    server = subprocess.Popen([sys.executable, "-m", "router", "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--config", str(config)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline and server.poll() is None, "router serve did not start"
            time.sleep(0.1)
        reply = httpx.post(f"http://127.0.0.1:{port}/v1/chat/completions", timeout=10,
                           json={"model": "fake/fake-model", "messages": [{"role": "user", "content": "zebra-marker"}]})
        assert reply.status_code == 200, reply.text
        (chat,) = receiver.wait_for("chat fake-model")
        assert chat.attributes["gen_ai.usage.output_tokens"] == 7
        (request,) = receiver.wait_for("invoke_agent")
        assert request.attributes["router.operation"] == "chat"
        assert chat.parent_span_id == request.span_id
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
    raw = receiver.raw()
    assert b"zebra-marker" not in raw and UPSTREAM_SECRET.encode() not in raw
    assert json.dumps(reply.json()["choices"][0]["message"]["content"]) == '"served"'


def test_an_mcp_tool_run_names_its_server(traced_env: OTLPReceiver) -> None:
    pytest.importorskip("mcp", reason="the mcp extra is not installed")
    from mcp_harness import config_text, stdio_server_yaml

    from router.clients.mock import ScriptedLLM, text_response, tool_call_response
    from router.config import parse_config

    llm = ScriptedLLM([tool_call_response(("notes_count_words", {"text": "one two three"})), text_response("3 words")])
    router = Router(parse_config(config_text(stdio_server_yaml(timeout_s=60))), clients={"scripted": llm})
    answer = router.ask("How many words are in 'one two three'?", mode="react")
    router.close()
    assert answer.tool_records[0].server == "notes"
    (span,) = traced_env.wait_for("execute_tool notes_count_words")
    assert span.attributes["mcp.server.name"] == "notes"
    assert span.attributes["gen_ai.tool.type"] == "extension"
    assert b"one two three" not in traced_env.raw()
