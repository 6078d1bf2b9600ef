"""validate_messages (the chain rules) and format_chain (the --verbose printer)."""

from __future__ import annotations

from typing import Any

import pytest

from router.loop.chain import format_chain, validate_messages


def call(call_id: str, name: str = "get_weather", arguments: str = '{"city": "北京"}') -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def calls(*ids: str) -> dict[str, Any]:
    return {"role": "assistant", "content": "", "tool_calls": [call(i) for i in ids]}


def tool(call_id: str, content: str = "{}") -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


USER = {"role": "user", "content": "查天气"}
SYSTEM = {"role": "system", "content": "你是助手"}


def test_valid_chains() -> None:
    assert validate_messages([]) == []
    assert validate_messages([SYSTEM, USER]) == []
    chain = [
        SYSTEM,
        USER,
        calls("call_1", "call_2"),
        tool("call_1"),
        tool("call_2"),
        {"role": "user", "content": "<task_notification>...</task_notification>"},
        calls("call_3"),
        tool("call_3"),
        calls("call_1", "call_2"),  # ids reused in a later turn (Kimi numbers calls per turn)
        tool("call_1"),
        tool("call_2"),
        {"role": "assistant", "content": "完成"},
    ]
    assert validate_messages(chain) == []


@pytest.mark.parametrize(
    ("chain", "expected"),
    [
        (
            [USER, calls("call_1", "call_2"), tool("call_1")],
            ["message 1 (assistant): no tool message for call_2 (history ends)"],
        ),
        (
            [USER, calls("call_1", "call_2"), tool("call_2"), tool("call_1")],
            ["message 2 (tool): answers 'call_2' out of order; expected 'call_1' first"],
        ),
        (
            [USER, calls("call_1"), tool("call_9")],
            ["message 2 (tool): tool_call_id 'call_9' does not match; expected 'call_1'"],
        ),
        (
            [USER, calls("call_1", "call_2"), tool("call_1"), {"role": "user", "content": "请继续"}, tool("call_2")],
            [
                "message 3 (user): comes between message 1 (assistant tool_calls) and its tool messages; still missing call_2",
                "message 4 (tool): orphan tool message for 'call_2' (no pending tool call)",
            ],
        ),
        (
            [USER, calls("call_1"), {"role": "assistant", "content": "hi"}],
            [
                "message 2 (assistant): comes between message 1 (assistant tool_calls) and its tool messages; "
                "still missing call_1"
            ],
        ),
        ([USER, tool("call_1")], ["message 1 (tool): orphan tool message for 'call_1' (no pending tool call)"]),
        (
            [USER, calls("call_1", "call_1"), tool("call_1"), tool("call_1")],
            ["message 1 (assistant) tool_calls[1]: duplicate tool call id 'call_1' within one assistant message"],
        ),
        (  # reused across turns (Kimi numbers per turn) is fine; a result still pairs with its own turn
            [USER, calls("functions.add:0"), tool("functions.add:0"), calls("functions.add:0"), USER],
            ["message 4 (user): comes between message 3 (assistant tool_calls) and its tool messages; "
             "still missing functions.add:0"],
        ),
        ([{"role": "robot", "content": "x"}], ["message 0: invalid role 'robot'"]),
        (
            [USER, {"role": "function", "name": "f", "content": "x"}],
            ["message 1: invalid role 'function' (the legacy function-calling protocol is not supported)"],
        ),
        (
            [USER, {"role": "assistant", "content": None, "function_call": {"name": "f", "arguments": "{}"}}],
            ["message 1 (assistant): legacy function_call mixed with tool_calls protocol"],
        ),
        ([{"role": "user"}], ["message 0 (user): content is missing"]),
        (["hello"], ["message 0: must be an object, got str"]),
        ([USER, calls("call_1"), {"role": "tool", "tool_call_id": "call_1", "content": {"a": 1}}],
         ["message 2 (tool): content must be a string"]),
        (
            [USER, {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function",
                                                                        "function": {"name": "f", "arguments": {}}}]},
             tool("c1")],
            ["message 1 (assistant) tool_calls[0]: function.arguments must be a JSON string"],
        ),
        (
            [USER, {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {}}]}],
            ["message 1 (assistant) tool_calls[0]: missing id"],
        ),
        (
            [USER, {"role": "assistant", "content": "", "tool_calls": {"id": "x"}}],
            ["message 1 (assistant): tool_calls must be a list"],
        ),
        (
            [USER, {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "web", "function": {}}]},
             tool("c1")],
            ["message 1 (assistant) tool_calls[0]: type must be 'function'",
             "message 1 (assistant) tool_calls[0]: function.name missing"],
        ),
    ],
)  # fmt: skip
def test_violations(chain: list[Any], expected: list[str]) -> None:
    assert validate_messages(chain) == expected


def test_not_a_list() -> None:
    assert validate_messages("nope") == ["messages must be a list of message objects"]  # type: ignore[arg-type]


def test_format_chain_shows_roles_calls_and_ids() -> None:
    chain = [
        SYSTEM,
        USER,
        calls("call_1", "call_2"),
        tool("call_1", '{"天气": "晴朗"}'),
        tool("call_2", "x" * 300),
        {"role": "assistant", "content": "北京今天晴朗。\n温度 3 度"},
    ]
    text = format_chain(chain, width=40)
    lines = text.splitlines()
    assert lines[0] == "[0] system    你是助手"
    assert lines[1] == "[1] user      查天气"
    assert lines[2] == "[2] assistant"
    assert lines[3] == '      -> call_1 get_weather({"city": "北京"})'
    assert lines[4] == '      -> call_2 get_weather({"city": "北京"})'
    assert lines[5] == '[3] tool      <- call_1 {"天气": "晴朗"}'
    assert lines[6] == "[4] tool      <- call_2 " + "x" * 39 + "…"
    assert lines[7] == "[5] assistant 北京今天晴朗。 温度 3 度"
    assert "!!" not in text


def test_format_chain_lists_problems() -> None:
    text = format_chain([USER, calls("call_1")])
    assert text.splitlines()[-2:] == [
        "!! chain invalid (1 problem(s)):",
        "!!   message 1 (assistant): no tool message for call_1 (history ends)",
    ]
