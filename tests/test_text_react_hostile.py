"""The text-ReAct parser on hostile replies: it always returns a step, reads only a bounded prefix.

Speed is measured by bench/hostile_inputs.py, not asserted here.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from router.loop.text_react import (
    MAX_INPUT_CHARS,
    MAX_PARSE_CHARS,
    ReactAction,
    ReactFinal,
    ReactText,
    parse_action_input,
    parse_react,
)

PARAMS = {"calculator": ["expression"], "get_weather": ["city"]}
_PIECES = st.sampled_from(
    ["```", "```json", "\n", " ", "\t", "Action:", "Action Input:", "Final Answer:", "Thought:", "{", "}", '"', "'",
     "calculator", "city=北京", ",", "**", "__", ":", "：", "(", ")", "x", "1+1", "Observation:"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=60).map("".join))
def test_any_reply_of_markers_and_fences_gives_a_step(reply: str) -> None:
    step = parse_react(reply, PARAMS)
    assert isinstance(step, ReactAction | ReactFinal | ReactText)
    if isinstance(step, ReactAction):
        assert (step.arguments is None) == (step.error is not None)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_arbitrary_text_as_action_input_gives_arguments_or_an_error(raw: str) -> None:
    arguments, error = parse_action_input(raw, ["expression"])
    assert (arguments is None) != (error is None)


def test_unclosed_fence_followed_by_blank_lines_is_read_as_is() -> None:
    reply = "Action: calculator\nAction Input: ```" + " \n" * 5000 + "1+1"
    step = parse_react(reply, PARAMS)
    assert isinstance(step, ReactAction)
    assert step.name == "calculator"
    assert step.arguments == {"expression": "1+1"}


def test_unclosed_fence_in_a_final_answer_keeps_the_answer() -> None:
    step = parse_react("Final Answer: ```" + " " * 5000 + "8760", PARAMS)
    assert isinstance(step, ReactFinal)
    assert step.answer.endswith("8760")


def test_a_fenced_single_line_value_is_not_mistaken_for_a_language_tag() -> None:
    step = parse_react("Action: get_weather\nAction Input: ```北京```", PARAMS)
    assert isinstance(step, ReactAction)
    assert step.arguments == {"city": "北京"}


def test_markers_beyond_the_parse_cap_are_not_read() -> None:
    reply = "x" * (MAX_PARSE_CHARS + 10) + "\nAction: calculator\nAction Input: {\"expression\": \"1\"}"
    step = parse_react(reply, PARAMS)
    assert isinstance(step, ReactText)


def test_a_long_final_answer_is_never_cut() -> None:
    answer = "word " * (MAX_PARSE_CHARS // 2)
    step = parse_react("Final Answer: " + answer, PARAMS)
    assert isinstance(step, ReactFinal)
    assert step.answer == answer.strip()


def test_an_oversized_action_input_is_refused_unread() -> None:
    raw = "{\"expression\": \"" + "1+" * MAX_INPUT_CHARS + "1\"}"
    arguments, error = parse_action_input(raw, ["expression"])
    assert arguments is None
    assert error is not None and "too long" in error


def test_deeply_nested_brackets_do_not_raise_a_recursion_error() -> None:
    step = parse_react("Action: calculator\nAction Input: " + "[" * 15_000, PARAMS)
    assert isinstance(step, ReactAction)  # a bare value for the one-parameter tool: the calculator refuses it
    assert step.arguments == {"expression": "[" * 15_000}
    arguments, error = parse_action_input("[" * 15_000, ["a", "b"])
    assert arguments is None and error
