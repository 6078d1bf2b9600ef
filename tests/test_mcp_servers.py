"""MCP servers that crash, are missing, or have 200 tools; the text ReAct protocol and a real HTTP model.

Real subprocess servers (``tests/mcp_servers/notes_server.py``, built with the SDK's
``MCPServer``); models are scripted (ScriptedLLM, or the fake OpenAI server over HTTP).
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from fake_openai_server import FakeOpenAIServer, Text, ToolCalls
from mcp_harness import SERVER, HttpMcpServer, config_text, http_server_yaml, stdio_server_yaml

from router import Router, validate_messages
from router.cli import main as cli_main
from router.clients.mock import FunctionLLM, ScriptedLLM, text_response, tool_call_response
from router.config import parse_config


def test_a_crash_mid_call_is_a_tool_result_and_the_server_restarts() -> None:
    llm = ScriptedLLM(
        [
            tool_call_response(("notes_pid", {})),
            tool_call_response(("notes_crash", {"code": 3})),
            tool_call_response(("notes_pid", {})),
            text_response("it came back"),
        ]
    )
    with Router(parse_config(config_text(stdio_server_yaml())), clients={"scripted": llm}) as router:
        answer = router.ask("crash the server and check it is back", mode="react")
        before, crash, after = answer.tool_records
        assert before.ok and after.ok and before.result != after.result  # a new process answered
        assert "closed the connection during the call to 'crash'" in (crash.error or "")
        assert "restarted on the next use" in crash.error and "crashing on purpose" in crash.error  # its stderr
        message = [m for m in llm.calls[2].messages if m["role"] == "tool"][-1]
        assert message["content"].startswith("Error: tool notes_crash failed") and message["tool_call_id"]
        assert all(validate_messages(call.messages) == [] for call in llm.calls)
        assert router.mcp.connections["notes"].starts == 2


def test_an_http_server_that_goes_away_mid_call_is_reconnected_when_it_is_back() -> None:
    server = HttpMcpServer()
    try:
        llm = ScriptedLLM([tool_call_response(("notes_pid", {})), tool_call_response(("notes_slow", {"seconds": 30})), text_response("a")])
        again = ScriptedLLM([tool_call_response(("notes_pid", {})), text_response("b")])
        script = iter([llm, again])  # one ScriptedLLM per question, behind one client
        current: list[ScriptedLLM] = []

        def reply(messages: list[dict[str, object]], tools: list[dict[str, object]] | None) -> object:
            if len(messages) <= 2:  # a new question (system + user)
                current[:] = [next(script)]
            return current[0].chat(messages, tools=tools)

        with Router(parse_config(config_text(http_server_yaml(server.url))), clients={"scripted": FunctionLLM(reply)}) as router:
            import threading

            def kill_during_slow(event: object) -> None:  # the server dies while the slow call is in flight
                if getattr(event, "kind", "") == "tool_call" and getattr(event, "name", "") == "notes_slow":
                    threading.Timer(1.0, server.process.kill).start()

            first = router.ask("pid, then something slow", mode="react", on_event=kill_during_slow)
            assert first.tool_records[0].ok
            assert "closed the connection during the call to 'slow'" in (first.tool_records[1].error or "")
            server.stop()
            server = HttpMcpServer(port=server.port)
            second = router.ask("pid again", mode="react")
            assert second.tool_records[0].ok and second.tool_records[0].result != first.tool_records[0].result
            assert all(validate_messages(call.messages) == [] for call in (*llm.calls, *again.calls))
    finally:
        server.stop()


def test_a_server_that_is_not_installed_is_named_and_the_others_still_serve(tmp_path: Path) -> None:
    servers = stdio_server_yaml() + "    tracker:\n      command: [notes-mcp-not-installed, --stdio]\n"
    llm = ScriptedLLM([tool_call_response(("notes_count_words", {"text": "one two"})), text_response("2 words")])
    events: list[object] = []
    with Router(parse_config(config_text(servers)), clients={"scripted": llm}) as router:
        answer = router.ask("count the words in 'one two'", mode="react", on_event=events.append)
    problem = "MCP server 'tracker' (stdio: notes-mcp-not-installed --stdio): command 'notes-mcp-not-installed' is not installed"
    assert any(w.startswith(problem) for w in answer.warnings)
    assert any(getattr(e, "text", "").startswith(problem) for e in events)
    assert answer.tool_records[0].result == "2" and "notes_count_words" in {t["function"]["name"] for t in llm.calls[0].tools}
    # a relative command is looked for from cwd, which is taken from the config file's folder
    config = tmp_path / "providers.yaml"
    config.write_text(config_text("    local:\n      command: [./bin/server]\n      cwd: .\n"), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert cli_main(["tools", "--config", str(config)], stdout=out, stderr=err) == 1
    assert f"command './bin/server' is not installed (no executable file at {tmp_path}/bin/server)" in err.getvalue()
    assert "calculator" in out.getvalue()


def test_a_200_tool_server_offers_only_the_allowlist() -> None:
    allow = "      tools: [invoice_op_000, weather_op_001, add_note]\n"
    servers = stdio_server_yaml(args="--tools, 200", extra=allow)
    llm = ScriptedLLM([tool_call_response(("notes_weather_op_001", {"query": "Oslo"})), text_response("done")])
    with Router(parse_config(config_text(servers)), clients={"scripted": llm}) as router:
        answer = router.ask("weather records for Oslo", mode="react")
    names = [t["function"]["name"] for t in llm.calls[0].tools]
    assert [n for n in names if n.startswith("notes_")] == ["notes_add_note", "notes_invoice_op_000", "notes_weather_op_001"]
    assert answer.tool_records[0].result == "weather tool 1: Oslo"
    assert not any("not offered" in w for w in answer.warnings)


def test_a_200_tool_server_without_allowlist_is_bounded_by_relevance() -> None:
    servers = stdio_server_yaml(args="--tools, 200")
    llm = ScriptedLLM([text_response("no call")])
    mcp_extra = "  max_tools_per_request: 8\n"
    with Router(parse_config(config_text(servers, mcp_extra=mcp_extra)), clients={"scripted": llm}) as router:
        answer = router.ask("How many words are in this sentence? count them", mode="react")
    sent = [t["function"]["name"] for t in llm.calls[0].tools]
    mcp_tools = [n for n in sent if n.startswith("notes_")]
    assert len(mcp_tools) == 8 and "notes_count_words" in mcp_tools
    assert {"calculator", "get_current_time", "get_weather"} <= set(sent)  # built-ins are always offered
    note = next(w for w in answer.warnings if w.startswith("MCP tools: offered the 8 of 210"))
    assert "not offered: " in note and "notes_count_words" not in note.split("not offered: ")[1]
    assert len(json.dumps(llm.calls[0].tools)) < 8000


def test_text_react_provider_uses_mcp_tools_with_the_same_rules() -> None:
    text = config_text(stdio_server_yaml()).replace(
        "scripted: {client: mock, models: [{id: scripted}]}", "scripted: {client: mock, capabilities: {tools: false}, models: [{id: scripted}]}"
    )
    llm = ScriptedLLM(
        [
            text_response('Thought: store it\nAction: notes_add_note\nAction Input: {"title": "r", "text": "react works"}'),
            text_response('Thought: bad input\nAction: notes_get_note\nAction Input: {"title": 5}'),
            text_response('Thought: read it\nAction: notes_get_note\nAction Input: {"title": "r"}'),
            text_response("Thought: done\nFinal Answer: react works"),
        ]
    )
    with Router(parse_config(text), clients={"scripted": llm}) as router:
        answer = router.ask("store and read a note", mode="react")
    assert answer.protocol == "text" and answer.text == "react works"
    assert [r.server_tool for r in answer.tool_records] == ["add_note", "get_note", "get_note"]
    assert "title: 5 is not of type 'string'" in (answer.tool_records[1].error or "")
    assert answer.tool_records[2].result == "react works"
    assert all(call.tools is None for call in llm.calls)
    assert "notes_add_note" in llm.calls[0].messages[0]["content"]  # the tools are described in the prompt
    observations = [m["content"] for m in llm.calls[3].messages if m["role"] == "user" and m["content"].startswith("Observation")]
    assert observations[-1] == "Observation: react works" and "not of type" in observations[-2]
    assert all(validate_messages(call.messages) == [] for call in llm.calls)


def test_native_protocol_over_http_keeps_the_chain_for_the_upstream(tmp_path: Path, fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTER_MCP_KEY", "sk-mcp-test-0123456789")
    fake_server.enqueue(
        ToolCalls((("notes_add_note", '{"title": "wire", "text": "over http"}'), ("notes_count_words", '{"text": "over http"}')), id_prefix="a_"),
        ToolCalls((("notes_get_note", '{"title": "wire"}'), ("notes_get_note", '{"title": 1}')), id_prefix="b_"),
        Text("over http, 2 words"),
    )
    config = tmp_path / "providers.yaml"
    config.write_text(
        f"""\
default: upstream
providers:
  upstream:
    client: openai
    base_url: {fake_server.base_url}
    api_key_env: ROUTER_MCP_KEY
    models: [{{id: fake-model}}]
mcp:
  servers:
    notes:
      command: [{sys.executable}, {SERVER}]
      timeout_s: 60
""",
        encoding="utf-8",
    )
    with Router.from_yaml(config) as router:
        answer = router.ask("store, count and read a note", mode="react")
    bodies = [r.body for r in fake_server.requests if r.body is not None]
    assert len(bodies) == 3 and all(validate_messages(body["messages"]) == [] for body in bodies)
    assistant, *tools = bodies[2]["messages"][-3:]
    assert [t["tool_call_id"] for t in tools] == [c["id"] for c in assistant["tool_calls"]]
    assert tools[0]["content"] == "over http" and "invalid arguments for notes_get_note" in tools[1]["content"]
    assert [r.server_tool for r in answer.tool_records] == ["add_note", "count_words", "get_note", "get_note"]
    assert answer.text == "over http, 2 words"
