"""MCP tools in the one tool loop: real MCP servers (stdio and streamable HTTP subprocesses), scripted models.

Each test runs ``Router.ask(..., mode="react")`` with a ScriptedLLM and checks what the
model was offered, what came back in the tool messages, the records, and that every
request sent keeps the protocol rules (``validate_messages`` is the upstream's check).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from mcp_harness import HttpMcpServer, config_text, http_server_yaml, stdio_server_yaml

from router import Router, validate_messages
from router.clients.mock import FunctionLLM, ScriptedLLM, text_response, tool_call_response
from router.config import parse_config


@pytest.fixture(scope="module")
def http_server() -> Iterator[HttpMcpServer]:
    server = HttpMcpServer()
    yield server
    server.stop()


@pytest.fixture(scope="module", params=["stdio", "http"])
def transport(request: pytest.FixtureRequest, http_server: HttpMcpServer) -> str:
    return str(request.param)


def servers_yaml(transport: str, http_server: HttpMcpServer, **kw: object) -> str:
    if transport == "stdio":
        return stdio_server_yaml(**kw)  # type: ignore[arg-type]
    return http_server_yaml(http_server.url, **kw)  # type: ignore[arg-type]


class Relay:
    """The model a shared Router talks to: each test puts its own ScriptedLLM behind it."""

    current: ScriptedLLM | None = None

    def client(self) -> FunctionLLM:
        return FunctionLLM(lambda messages, tools: self.current.chat(messages, tools=tools), provider="scripted")  # type: ignore[union-attr]


RELAY = Relay()


@pytest.fixture(scope="module")
def shared(transport: str, http_server: HttpMcpServer) -> Iterator[Router]:
    """One Router per transport, its server started once for the module's tests."""
    router = Router(parse_config(config_text(servers_yaml(transport, http_server, timeout_s=60))), clients={"scripted": RELAY.client()})
    yield router
    router.close()


def ask(router: Router, llm: ScriptedLLM, question: str) -> object:
    RELAY.current = llm
    return router.ask(question, mode="react")


def offered(llm: ScriptedLLM, index: int = 0) -> list[str]:
    return [t["function"]["name"] for t in llm.calls[index].tools or []]


def chain_ok(llm: ScriptedLLM) -> bool:
    return all(validate_messages(call.messages) == [] for call in llm.calls)


def test_a_call_and_a_multi_tool_turn(shared: Router, transport: str) -> None:
    llm = ScriptedLLM(
        [
            tool_call_response(("notes_add_note", {"title": f"t-{transport}", "text": "buy milk and eggs"})),
            tool_call_response(
                ("notes_get_note", {"title": f"t-{transport}"}), ("notes_count_words", {"text": "buy milk and eggs", "min_length": 4})
            ),
            text_response("The note says: buy milk and eggs (2 long words)."),
        ]
    )
    answer = ask(shared, llm, "save a note and read it back")
    assert answer.text.startswith("The note says")
    assert {"notes_add_note", "notes_get_note", "calculator"} <= set(offered(llm))
    schema = next(t for t in llm.calls[0].tools if t["function"]["name"] == "notes_add_note")["function"]["parameters"]
    assert schema["required"] == ["title", "text"] and schema["properties"]["title"]["type"] == "string"
    records = answer.tool_records
    assert [(r.server, r.server_tool) for r in records] == [("notes", "add_note"), ("notes", "get_note"), ("notes", "count_words")]
    assert records[1].result == "buy milk and eggs" and records[2].result == "2"
    assert records[0].arguments == {"title": f"t-{transport}", "text": "buy milk and eggs"}
    assert all(r.ok and r.duration_s > 0 for r in records)
    last = llm.calls[2].messages
    assistant, first, second = last[-3:]
    assert [first["tool_call_id"], second["tool_call_id"]] == [c["id"] for c in assistant["tool_calls"]]
    assert second["content"] == "2"
    assert chain_ok(llm) and answer.grounded


def test_tool_error_and_bad_arguments_become_tool_messages(shared: Router) -> None:
    llm = ScriptedLLM(
        [
            tool_call_response(("notes_get_note", {"title": "never written"}), ("notes_add_note", {"title": 7})),
            text_response("There is no such note."),
        ]
    )
    answer = ask(shared, llm, "read the note 'never written'")
    missing, invalid = answer.tool_records
    assert "no note titled 'never written'" in (missing.error or "") and missing.server == "notes"
    assert "invalid arguments for notes_add_note" in (invalid.error or "")
    assert "title: 7 is not of type 'string'" in invalid.error and "'text' is a required property" in invalid.error
    contents = [m["content"] for m in llm.calls[1].messages if m["role"] == "tool"]
    assert "no note titled 'never written'" in contents[0] and contents[0].startswith("Error:")
    assert "Fix the arguments" in contents[1]
    assert chain_ok(llm) and answer.text == "There is no such note."
    # the invalid call never reached the server: no note titled 7 exists
    check = ScriptedLLM([tool_call_response(("notes_get_note", {"title": "7"})), text_response("none")])
    assert not ask(shared, check, "read note 7").tool_records[0].ok


def test_image_and_resource_blocks_are_described(shared: Router) -> None:
    llm = ScriptedLLM([tool_call_response(("notes_picture", {})), text_response("A picture.")])
    record = ask(shared, llm, "show the picture").tool_records[0]
    assert record.result.splitlines() == [
        "a one-pixel picture",
        "[image: image/png, 72 bytes; not shown as text]",
        "[resource: note://readme, text/plain]",
        "readme text",
    ]


def test_results_obey_max_result_chars(transport: str, http_server: HttpMcpServer) -> None:
    text = config_text(servers_yaml(transport, http_server)).replace("tool_timeout_s: 60}", "tool_timeout_s: 60, max_result_chars: 100}")
    llm = ScriptedLLM(
        [
            tool_call_response(("notes_add_note", {"title": "long", "text": "x" * 5000})),
            tool_call_response(("notes_get_note", {"title": "long"})),
            text_response("long"),
        ]
    )
    with Router(parse_config(text), clients={"scripted": llm}) as router:
        answer = router.ask("store and read a long note", mode="react")
    shown = [m["content"] for m in llm.calls[2].messages if m["role"] == "tool"][-1]
    assert shown.startswith("x" * 100) and "[truncated: the result had 5000 characters" in shown
    assert len(answer.tool_records[1].result) == 5000  # the record keeps what the server sent


def test_list_changed_refreshes_the_tools(transport: str, http_server: HttpMcpServer) -> None:
    name = f"grown_{transport}"
    with Router(parse_config(config_text(servers_yaml(transport, http_server))), clients={"scripted": RELAY.client()}) as router:
        first = ScriptedLLM([tool_call_response(("notes_add_tool", {"name": name})), text_response("added")])
        ask(router, first, "grow a tool")
        assert f"notes_{name}" not in offered(first)
        second = ScriptedLLM([tool_call_response((f"notes_{name}", {"value": "hi"})), text_response("used")])
        answer = ask(router, second, "use the new tool")
        assert f"notes_{name}" in offered(second)
        assert answer.tool_records[0].result == f"{name}: hi" and answer.tool_records[0].server_tool == name


def test_a_slow_call_times_out_and_the_server_keeps_serving(transport: str, http_server: HttpMcpServer) -> None:
    text = config_text(servers_yaml(transport, http_server), tool_timeout_s=1.5)
    llm = ScriptedLLM(
        [
            tool_call_response(("notes_slow", {"seconds": 6})),
            tool_call_response(("notes_count_words", {"text": "still here"})),
            text_response("slow"),
        ]
    )
    with Router(parse_config(text), clients={"scripted": llm}) as router:
        answer = router.ask("wait a while", mode="react")
    slow, after = answer.tool_records
    assert "1.5 s" in (slow.error or "") and slow.duration_s < 5
    assert "did not finish within 1.5 s" in next(m["content"] for m in llm.calls[1].messages if m["role"] == "tool")
    assert after.ok and after.result == "2"
    assert chain_ok(llm)


def test_headers_env_sends_the_secret_without_showing_it(http_server: HttpMcpServer, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "Bearer tracker-SECRET-0123456789abcdef"
    monkeypatch.setenv("TRACKER_AUTH", secret)
    text = config_text(http_server_yaml(http_server.url, extra="      headers_env: {Authorization: TRACKER_AUTH}\n"))
    assert secret not in text
    llm = ScriptedLLM([tool_call_response(("notes_auth_header", {})), text_response("ok")])
    with Router(parse_config(text), clients={"scripted": llm}) as router:
        answer = router.ask("who am I", mode="react")
    assert answer.tool_records[0].result == secret  # the header reached the server
    monkeypatch.delenv("TRACKER_AUTH")
    llm = ScriptedLLM([text_response("no tools")])
    with Router(parse_config(text), clients={"scripted": llm}) as router:
        answer = router.ask("who am I", mode="react")
    problem = next(w for w in answer.warnings if "MCP server 'notes'" in w)
    assert "environment variable TRACKER_AUTH is not set" in problem and secret not in json.dumps(answer.to_dict())


def test_env_names_pass_through_to_a_stdio_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTES_TOKEN", "notes-token-value")
    monkeypatch.setenv("NOT_PASSED", "hidden")
    text = config_text(stdio_server_yaml(extra="      env: [NOTES_TOKEN]\n"))
    llm = ScriptedLLM(
        [tool_call_response(("notes_env_value", {"name": "NOTES_TOKEN"}), ("notes_env_value", {"name": "NOT_PASSED"})), text_response("ok")]
    )
    with Router(parse_config(text), clients={"scripted": llm}) as router:
        answer = router.ask("what token", mode="react")
    assert [r.result for r in answer.tool_records] == ["notes-token-value", "<unset>"]
