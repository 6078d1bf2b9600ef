"""MCP pieces without a server: names, the config section, result text, argument checks, tool choice."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from router.config import parse_config
from router.errors import ConfigError, ToolArgumentsError
from router.tools.mcp.choose import choose_tools
from router.tools.mcp.names import assign_names
from router.tools.mcp.results import result_text

VALID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
BASE = "default: m\nproviders:\n  m: {client: mock, models: [{id: m}]}\n"


def test_names_are_valid_everywhere_deterministic_and_distinct() -> None:
    tools = ["search.issues", "search issues", "search/issues", "get", "x" * 80, "x" * 81, "工具", "a" * 70 + "b"]
    names = assign_names("tracker", tools, taken={"tracker_get"})
    assert all(VALID.match(n) for n in names.values()) and len(set(names.values())) == len(tools)
    assert names == assign_names("tracker", list(reversed(tools)), taken={"tracker_get"})  # order does not matter
    assert names["get"] != "tracker_get" and names["get"].startswith("tracker_get_")  # clashes with a taken name
    assert {names["search.issues"], names["search issues"]} != {"tracker_search_issues"}  # siblings both hashed
    assert assign_names("tracker", ["search.issues"]) == {"search.issues": "tracker_search_issues"}
    assert len(names["x" * 80]) == 64 and names["x" * 80] != names["x" * 81]


def test_config_section_is_validated_with_file_and_line() -> None:
    def error(section: str) -> str:
        with pytest.raises(ConfigError) as info:
            parse_config(BASE + "mcp:\n  servers:\n" + section, "p.yaml")
        return str(info.value)

    assert error("    a:\n      command: [x]\n      url: http://h/mcp\n").startswith("p.yaml:6: mcp.servers.a: give exactly one")
    assert error("    a:\n      command: [x]\n      envv: [A]\n") == "p.yaml:8: mcp.servers.a.envv: unknown key"
    assert "not an environment variable name" in error("    a:\n      command: [x]\n      env: [not a name]\n")
    secret = "sk-proj-abcdefghijklmnopqrstuvwx0123456789"
    message = error(f"    a:\n      url: http://h/mcp\n      headers_env: {{Authorization: {secret}}}\n")
    assert "looks like a secret" in message and secret not in message
    message = error("    a:\n      url: http://user:hunter2@h/mcp\n")
    assert "credentials" in message and "hunter2" not in message
    assert "headers_env is for HTTP servers" in error("    a:\n      command: [x]\n      headers_env: {A: B}\n")
    assert "server name" in error("    'bad name':\n      command: [x]\n")
    assert "p.yaml:8: mcp.servers.a.timeout_s: Input should be greater than 0" in error("    a:\n      command: [x]\n      timeout_s: 0\n")
    config = parse_config(BASE + "mcp:\n  servers:\n    a:\n      command: [srv, --port, 8931]\n", "p.yaml")
    assert config.mcp.servers["a"].command == ["srv", "--port", "8931"] and config.mcp.servers["a"].transport == "stdio"


def block(kind: str, **fields: object) -> SimpleNamespace:
    return SimpleNamespace(type=kind, **fields)


def test_result_text_joins_text_and_describes_the_rest() -> None:
    result = SimpleNamespace(
        content=[
            block("text", text="first"),
            block("audio", data="AAAA", mime_type="audio/wav"),
            block("resource_link", uri="file:///r.txt", name="r", mime_type="text/plain"),
            block("resource", resource=SimpleNamespace(uri="mem://b", mime_type="application/pdf", blob="QUJD")),
            block("text", text="last"),
        ],
        structured_content=None,
    )
    assert result_text(result).splitlines() == [
        "first",
        "[audio: audio/wav, 3 bytes; not shown as text]",
        "[resource link: file:///r.txt (r), text/plain]",
        "[resource: mem://b, application/pdf, 3 bytes; not shown as text]",
        "last",
    ]
    assert result_text(SimpleNamespace(content=[], structured_content={"n": 1})) == '{"n": 1}'


def fake_tool(name: str, description: str, properties: dict[str, object] | None = None) -> SimpleNamespace:
    schema = {"type": "function", "function": {"name": name, "description": description,
              "parameters": {"type": "object", "properties": properties or {}}}}  # fmt: skip
    return SimpleNamespace(name=name, server_tool=name, schema=schema)


def test_tool_choice_keeps_the_relevant_tools_within_both_bounds() -> None:
    tools = [fake_tool(f"ledger_op_{i}", f"Operation {i} on ledger records.") for i in range(100)]
    tools.insert(37, fake_tool("convert_currency", "Convert an amount between currencies at today's rate", {"amount": {"type": "number"}}))
    choice = choose_tools("How much is 20 euros in yen? convert it", tools, max_tools=5, max_chars=100_000)
    assert len(choice.offered) == 5
    assert "convert_currency" in [t.name for t in choice.offered] and len(choice.left_out) == 96
    note = choice.note(5)
    assert note is not None and note.startswith("MCP tools: offered the 5 of 101") and "ledger_op_" in note
    small = choose_tools("anything", tools[:3], max_tools=5, max_chars=100_000)
    assert small.left_out == () and small.note(5) is None
    tight = choose_tools("convert currency", tools, max_tools=50, max_chars=1000)
    assert sum(len(str(t.schema)) for t in tight.offered) < 1400 and len(tight.offered) < 50


def test_arguments_are_checked_against_the_input_schema() -> None:
    from router.tools.mcp.tool import McpTool

    connection = SimpleNamespace(name="s", settings=SimpleNamespace(timeout_s=5.0))
    schema = {"type": "object", "properties": {"q": {"type": "string", "minLength": 2}, "n": {"type": "integer", "maximum": 10}},
              "required": ["q"], "additionalProperties": False}  # fmt: skip
    tool = McpTool(connection, "s_find", "find", "Find things.", schema)  # type: ignore[arg-type]
    assert tool.validate({"q": "ok", "n": 3}) == {"q": "ok", "n": 3}
    with pytest.raises(ToolArgumentsError) as info:
        tool.validate({"q": "x", "n": 11, "extra": True})
    text = str(info.value)
    assert text.startswith("invalid arguments for s_find: ") and "'x' is too short" in text and "11 is greater than" in text
    assert tool.parameters == ["q", "n"] and tool.required == ["q"] and tool.schema["function"]["parameters"] == schema
    broken = McpTool(connection, "s_b", "b", "", {"type": "object", "properties": {"q": {"type": 7}}})  # type: ignore[arg-type]
    assert broken.validate({"q": 1}) == {"q": 1}  # a broken schema: the server checks its own arguments
