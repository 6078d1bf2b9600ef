"""Text ReAct: the parser on sloppy small-model output, and the loop speaking it."""

from __future__ import annotations

from typing import Any

import pytest

from router.clients.mock import ScriptedLLM, text_response, tool_call_response
from router.loop.chain import validate_messages
from router.loop.run import CUT_TOOL_CALL, run_tools
from router.loop.text_react import (
    ReactAction,
    ReactFinal,
    ReactText,
    answer_text,
    build_instructions,
    parse_action_input,
    parse_react,
    with_instructions,
)
from router.tools.registry import ToolRegistry, tool

PARAMS = {"get_weather": ["city"], "add": ["a", "b"]}


@pytest.mark.parametrize(
    ("text", "name", "arguments"),
    [
        ('Thought: need weather\nAction: get_weather\nAction Input: {"city": "北京"}', "get_weather", {"city": "北京"}),
        ("Action: get_weather\nAction Input: ```json\n{\"city\": \"北京\"}\n```", "get_weather", {"city": "北京"}),
        ("Action: get_weather\nAction Input: {'city': '北京'}", "get_weather", {"city": "北京"}),
        ("**Action:** `get_weather`\n**Action Input:** {\"city\": \"上海\"}", "get_weather", {"city": "上海"}),
        ("Action：get_weather\nAction Input：{\"city\": \"广州\"}", "get_weather", {"city": "广州"}),
        ("action: add\naction input: {\"a\": 1, \"b\": 2, \"ok\": true, \"x\": null}", "add",
         {"a": 1, "b": 2, "ok": True, "x": None}),
        ("Action: get_weather\nAction Input: 北京", "get_weather", {"city": "北京"}),
        ('Action: get_weather\nAction Input: "北京"', "get_weather", {"city": "北京"}),
        ("Action: ping", "ping", {}),
        ('Action: get_weather({"city": "深圳"})', "get_weather", {"city": "深圳"}),
        ('Action: get_weather\nAction Input: here you go {"city": "杭州"} thanks', "get_weather", {"city": "杭州"}),
        (
            'Thought: x\nAction: add\nAction Input: {"a": 1, "b": 2}\nObservation: 3\nThought: done\nFinal Answer: 3',
            "add",
            {"a": 1, "b": 2},
        ),
    ],
)  # fmt: skip
def test_actions(text: str, name: str, arguments: dict[str, Any]) -> None:
    step = parse_react(text, PARAMS)
    assert isinstance(step, ReactAction)
    assert step.name == name
    assert step.arguments == arguments
    assert step.error is None


def test_invented_observation_is_cut_from_the_transcript() -> None:
    text = 'Thought: x\nAction: add\nAction Input: {"a": 1, "b": 2}\nObservation: 3\nFinal Answer: 3'
    step = parse_react(text, PARAMS)
    assert isinstance(step, ReactAction)
    assert step.transcript == 'Thought: x\nAction: add\nAction Input: {"a": 1, "b": 2}'


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('Action: add\nAction Input: {"a": 1, "b": ', "Action Input is not valid JSON"),
        ("Action: add\nAction Input: [1, 2]", "Action Input must be a JSON object like"),
        ("Action: add\nAction Input: 3", "Action Input must be a JSON object like"),
    ],
)
def test_unreadable_action_input_is_an_error_not_empty_arguments(text: str, error: str) -> None:
    step = parse_react(text, PARAMS)
    assert isinstance(step, ReactAction)
    assert step.arguments is None
    assert step.error is not None and step.error.startswith(error)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("Thought: I know\nFinal Answer: 北京今天晴朗。", "北京今天晴朗。"),
        ("Final Answer: line one\nline two\n", "line one\nline two"),
        ("Final Answer: 42\nThought: I should double check\nAction: add", "42"),
        ("final answer：```\ncode\n```", "code"),
        ("**Final Answer:** 好的", "好的"),
    ],
)
def test_final_answers(text: str, answer: str) -> None:
    step = parse_react(text)
    assert step == ReactFinal(answer)


def test_plain_text_without_markers() -> None:
    assert parse_react("Thought: hmm\nThe answer is 7.") == ReactText("The answer is 7.")
    assert parse_react("") == ReactText("")
    assert answer_text("Final Answer: 9") == "9"
    assert answer_text("just text") == "just text"
    assert answer_text('Action: add\nAction Input: {"a": 1}') == ""


def test_parse_action_input_directly() -> None:
    assert parse_action_input("") == ({}, None)
    assert parse_action_input("{'a': True}") == ({"a": True}, None)
    assert parse_action_input("`{\"a\": 1}`") == ({"a": 1}, None)
    assert parse_action_input("北京", ["city"]) == ({"city": "北京"}, None)
    assert parse_action_input("city=北京", ["city"]) == ({"city": "北京"}, None)
    assert parse_action_input("city: 上海", ["city"]) == ({"city": "上海"}, None)
    assert parse_action_input('a=1, b="x, y"', ["a", "b"]) == ({"a": 1, "b": "x, y"}, None)
    assert parse_action_input("a = 1\nb = 2", ["a", "b"]) == ({"a": 1, "b": 2}, None)
    arguments, error = parse_action_input("北京", ["a", "b"])
    assert arguments is None and error is not None


@tool
def add(a: int, b: int) -> int:
    """Add two integers.

    Args:
        a: first
        b: second
    """
    return a + b


@tool
def boom() -> str:
    """Fails."""
    raise RuntimeError("nope")


REGISTRY = ToolRegistry([add, boom])
QUESTION = [{"role": "user", "content": "1+2?"}]


def test_instructions_describe_every_tool() -> None:
    text = build_instructions(REGISTRY)
    assert "Action: <the tool name, one of: add, boom>" in text
    assert '- add: Add two integers.' in text
    assert '"a": {"type": "integer", "description": "first"}' in text
    system = [{"role": "system", "content": "Be brief."}, *QUESTION]
    history = with_instructions(system, REGISTRY)
    assert history[0]["content"].startswith("Be brief.\n\nYou can use tools.")
    assert system[0]["content"] == "Be brief."
    assert with_instructions(QUESTION, REGISTRY)[0]["role"] == "system"


def run_text(script: list[Any], **kwargs: Any) -> tuple[ScriptedLLM, Any]:
    llm = ScriptedLLM(script)
    result = run_tools(llm, QUESTION, REGISTRY, protocol="text", **kwargs)
    for recorded in llm.calls:
        assert recorded.tools is None
        assert validate_messages(recorded.messages) == []
    return llm, result


def test_text_loop_records_like_native() -> None:
    llm, result = run_text(
        [text_response('Thought: add\nAction: add\nAction Input: {"a": 1, "b": 2}'), text_response("Final Answer: 3")]
    )
    assert result.protocol == "text" and result.answer == "3" and result.stopped_reason == "answer"
    [record] = result.tool_records
    assert (record.tool, record.arguments, record.result, record.error, record.step) == ("add", {"a": 1, "b": 2}, "3", None, 1)
    assert record.call_id == "react_1"
    second = llm.calls[1].messages
    assert second[-2] == {"role": "assistant", "content": 'Thought: add\nAction: add\nAction Input: {"a": 1, "b": 2}'}
    assert second[-1] == {"role": "user", "content": "Observation: 3"}
    assert result.grounded

    native = ScriptedLLM([tool_call_response(("add", {"a": 1, "b": 2})), text_response("3")])
    native_record = run_tools(native, QUESTION, REGISTRY, protocol="native").tool_records[0]
    assert (native_record.tool, native_record.arguments, native_record.result, native_record.error) == (
        record.tool, record.arguments, record.result, record.error,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("reply", "observation"),
    [
        ('Action: add\nAction Input: {"a": 1', "Observation: Error: Action Input is not valid JSON"),
        ("Action: divide\nAction Input: {}", "Observation: Error: unknown tool 'divide'. Available tools: add, boom."),
        ('Action: add\nAction Input: {"a": 1}', "Observation: Error: invalid arguments for add: b: Field required."),
        ("Action: boom", "Observation: Error: tool boom failed: RuntimeError: nope"),
    ],
)
def test_text_errors_become_observations(reply: str, observation: str) -> None:
    llm, result = run_text([text_response(reply), text_response("Final Answer: sorry")])
    assert llm.calls[1].messages[-1]["content"].startswith(observation)
    assert result.tool_records[0].error is not None
    assert not result.grounded and result.answer == "sorry"


def test_text_max_steps() -> None:
    replies = [text_response(f'Action: add\nAction Input: {{"a": {i}, "b": 0}}') for i in range(3)]
    llm, result = run_text([*replies, text_response("Thought: ok\nFinal Answer: about 1")], max_steps=2)
    assert result.stopped_reason == "max_steps"
    assert result.answer.startswith("about 1\n\n[注意")
    assert "Final Answer:" in llm.calls[-1].messages[-1]["content"]


def test_text_action_cut_by_length_is_not_run() -> None:
    llm, result = run_text(
        [text_response('Action: add\nAction Input: {"a": 1, "b', finish_reason="length"), text_response("Final Answer: ?")]
    )
    assert result.tool_records == ()
    assert llm.calls[1].messages[-1] == {"role": "user", "content": CUT_TOOL_CALL}


def test_text_final_answer_continuation() -> None:
    _, result = run_text([text_response("Final Answer: 12", finish_reason="length"), text_response("34")])
    assert result.answer == "1234" and result.stopped_reason == "answer"


def test_text_plain_reply_is_the_answer() -> None:
    _, result = run_text([text_response("It is 3.")])
    assert result.answer == "It is 3." and not result.grounded
