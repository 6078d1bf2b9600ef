"""Agent frameworks that speak the new dialects run a tool round trip through ``router serve``.

* openai-agents, whose default model speaks the Responses API (``OpenAIResponsesModel``);
* pydantic-ai's ``AnthropicModel``, which speaks Anthropic Messages through the ``anthropic`` SDK.

Each framework runs its own tool (the router is a transparent gateway here); the upstream is the
scripted OpenAI-compatible FakeOpenAIServer, and what reached it must keep the chain rules.
* Claude Code, the coding agent (the CLI bundled in the ``claude-agent-sdk`` wheel), over Anthropic
  Messages: it runs its own Bash tool, and the command's real output reaches the upstream as the
  tool result. Its upstream answers by what each request holds (tools offered, a tool result present),
  since the agent's side requests are not ours to script one by one.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from dialect_checks import chain_ok
from fake_openai_server import FakeOpenAIServer, Text, ToolCalls
from server_harness import SERVER_KEY, ServerThread


@pytest.fixture
def server(serve_gateway: Callable[..., ServerThread]) -> ServerThread:
    return serve_gateway()


def _tool_turns(fake: FakeOpenAIServer) -> list[dict[str, Any]]:
    """The upstream request that carried the tool result, chain-checked."""
    [body] = [b for b in fake.bodies if b and any(m.get("role") == "tool" for m in b["messages"])]
    chain_ok(body["messages"])
    return body["messages"]


@pytest.mark.parametrize("stream", [False, True])
def test_openai_agents_runs_its_tool_through_the_responses_dialect(server: ServerThread, fake_server: FakeOpenAIServer,
                                                                    stream: bool) -> None:
    import agents
    from openai import AsyncOpenAI

    ran: list[str] = []

    @agents.function_tool
    def get_weather(city: str) -> str:
        """The weather in a city."""
        ran.append(city)
        return f"sunny in {city}"

    fake_server.enqueue(ToolCalls((("get_weather", '{"city": "Paris"}'),), chunk_size=4, id_prefix="call_ag_"),
                        Text("It is sunny in Paris."))
    client = AsyncOpenAI(base_url=server.url + "/v1", api_key=SERVER_KEY, max_retries=0)
    model = agents.OpenAIResponsesModel(model="auto", openai_client=client)
    agent = agents.Agent(name="weather", instructions="Use the tool.", tools=[get_weather], model=model)
    config = agents.RunConfig(tracing_disabled=True)

    async def main() -> str:
        if stream:
            result = agents.Runner.run_streamed(agent, "weather in Paris?", run_config=config)
            async for _ in result.stream_events():
                pass
            return str(result.final_output)
        return str((await agents.Runner.run(agent, "weather in Paris?", run_config=config)).final_output)

    assert asyncio.run(main()) == "It is sunny in Paris."
    assert ran == ["Paris"]  # the framework ran its own tool, once
    sent = _tool_turns(fake_server)
    assert sent[0] == {"role": "system", "content": "Use the tool."}
    assert sent[2]["tool_calls"][0]["id"] == "call_ag_0"
    assert json.loads(sent[2]["tool_calls"][0]["function"]["arguments"]) == {"city": "Paris"}
    assert sent[3] == {"role": "tool", "tool_call_id": "call_ag_0", "content": "sunny in Paris"}


def test_pydantic_ai_anthropic_model_runs_its_tool_through_the_messages_dialect(server: ServerThread,
                                                                                fake_server: FakeOpenAIServer) -> None:
    import pydantic_ai
    from anthropic import AsyncAnthropic
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.providers.anthropic import AnthropicProvider

    ran: list[str] = []
    fake_server.enqueue(ToolCalls((("get_time", '{"tz": "CET"}'), ("get_time", '{"tz": "JST"}')), id_prefix="call_pa_"),
                        Text("Noon in Paris, evening in Tokyo."))
    client = AsyncAnthropic(base_url=server.url, api_key=SERVER_KEY, max_retries=0)
    model = AnthropicModel("auto", provider=AnthropicProvider(anthropic_client=client))
    agent = pydantic_ai.Agent(model, instructions="Use the tool for times.")

    @agent.tool_plain
    def get_time(tz: str) -> str:
        """The time in a timezone."""
        ran.append(tz)
        return {"CET": "12:00", "JST": "20:00"}[tz]

    result = agent.run_sync("time in Paris and Tokyo?")
    assert result.output == "Noon in Paris, evening in Tokyo."
    assert sorted(ran) == ["CET", "JST"]
    sent = _tool_turns(fake_server)
    calls = next(m for m in sent if m.get("tool_calls"))["tool_calls"]
    assert [c["id"] for c in calls] == ["call_pa_0", "call_pa_1"]
    results = [m for m in sent if m["role"] == "tool"]
    assert [(m["tool_call_id"], m["content"]) for m in results] == [("call_pa_0", "12:00"), ("call_pa_1", "20:00")]


class _Agentic(FakeOpenAIServer):
    """Answers like a model driving an agent: call Bash when it is offered, then report what the tool said."""

    def _next_reply(self) -> Any:
        body = self.requests[-1].body or {}
        results = [m for m in body.get("messages", []) if m.get("role") == "tool"]
        if results:
            return Text(f"The tool said: {str(results[-1].get('content'))[:200]}")
        if "Bash" in [t["function"]["name"] for t in body.get("tools") or []]:
            return ToolCalls((("Bash", json.dumps({"command": "echo hello-from-the-tool",
                                                   "description": "Print a greeting"})),), id_prefix="call_cc_")
        return Text("ok")


def test_claude_code_runs_its_bash_tool_through_the_messages_dialect(tmp_path: Any,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import subprocess
    from pathlib import Path

    import claude_agent_sdk
    from server_harness import UPSTREAM_KEY_ENV, make_engine, upstream_config

    from router.config import ServerSettings
    from router.server.app import create_app
    from router.server.auth import KeyCheck

    cli = Path(claude_agent_sdk.__file__).parent / "_bundled" / "claude"
    monkeypatch.setenv(UPSTREAM_KEY_ENV, "sk-upstream-test")
    with _Agentic() as upstream:
        app = create_app(make_engine(upstream_config(upstream.base_url)), ServerSettings(),
                         keys=KeyCheck([SERVER_KEY.encode()]))
        gateway = ServerThread(app).start()
        try:
            env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
                   "ANTHROPIC_BASE_URL": gateway.url, "ANTHROPIC_API_KEY": SERVER_KEY, "ANTHROPIC_MODEL": "auto",
                   "ANTHROPIC_SMALL_FAST_MODEL": "auto", "ANTHROPIC_DEFAULT_HAIKU_MODEL": "auto",
                   "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
                   "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
            done = subprocess.run([str(cli), "-p", "Print a greeting with Bash.", "--allowedTools", "Bash",
                                   "--output-format", "json", "--model", "auto"], env=env, cwd=tmp_path,
                                  capture_output=True, text=True, timeout=240)
        finally:
            gateway.stop()
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["is_error"] is False and result["result"] == "The tool said: hello-from-the-tool"
    sent = _tool_turns(upstream)
    calls = next(m for m in sent if m.get("tool_calls"))["tool_calls"]
    [answer] = [m for m in sent if m["role"] == "tool"]
    assert calls[0]["id"] == "call_cc_0" and answer["tool_call_id"] == "call_cc_0"
    assert "hello-from-the-tool" in answer["content"]  # what Claude Code's own Bash really printed
