"""recover_tool_calls: tool calls written as text are recovered, ordinary answers never are."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from router.loop.textcalls import MAX_EXAMINED_CHARS, RecoveredCalls, TextToolCall, recover_tool_calls
from router.tools.registry import ToolRegistry

REPO = Path(__file__).resolve().parent.parent
SAMPLE = Path(__file__).resolve().parent / "data" / "bfcl_textcalls_sample.jsonl"
SHARED = Path(os.environ.get("ROUTER_SHARED_DIR") or REPO.parent / "shared")  # CI: shared/ beside the clone
GSM8K = SHARED / "datasets" / "routellm" / "gsm8k_responses.csv"

TOOLS: dict[str, dict[str, Any]] = {
    s["function"]["name"]: s["function"]["parameters"] for s in ToolRegistry.default().schemas()
} | {"math.add": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}}


def _calls(found: RecoveredCalls | None) -> list[tuple[str, dict[str, Any]]]:
    assert found is not None
    return [(call.name, json.loads(call.arguments)) for call in found.calls]


CALC = ("calculator", {"expression": "1+1"})
WEATHER = ("get_weather", {"city": "北京"})


# --- hermes / qwen -------------------------------------------------------------------------------


def test_hermes_one_call_with_canonical_arguments() -> None:
    found = recover_tool_calls('<tool_call>{"name":"calculator","arguments":{"expression":"1+1"}}</tool_call>', TOOLS)
    assert found == RecoveredCalls((TextToolCall("calculator", '{"expression": "1+1"}'),), "hermes", "")


def test_hermes_several_calls_lead_in_and_missing_final_close() -> None:
    content = (
        "Let me check.\n<tool_call>\n"
        '{"name": "calculator", "arguments": {"expression": "1+1"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "北京"}}\n<|im_end|>'
    )
    found = recover_tool_calls(content, TOOLS)
    assert _calls(found) == [CALC, WEATHER]
    assert found is not None and found.format == "hermes" and found.text == "Let me check."
    assert '"北京"' in found.calls[1].arguments  # ensure_ascii=False


@pytest.mark.parametrize(
    "content",
    [
        '<tool_call>{"name":"rm_rf","arguments":{}}</tool_call>',  # not a registered tool
        '<tool_call>{"name":"calculator","arguments":{"expression":"1"}}</tool_call> and then I will answer.',
        '<tool_call>{"name":"calculator","arguments":["1+1"]}</tool_call>',  # arguments not an object
        '<tool_call>{"name":"calculator","arguments":{"expression":"1"}} more text',
        '<tool_call>{"name":"calculator","arguments":{"x":NaN}}</tool_call>',
        "<tool_call>not json</tool_call>",
        '<tool_call>{"name":"calculator","arguments":{}}</tool_call><tool_call>{"name":"nope","arguments":{}}</tool_call>',
    ],
)
def test_hermes_rejects_anything_but_registered_calls(content: str) -> None:
    assert recover_tool_calls(content, TOOLS) is None


def test_hermes_unclosed_tag_is_accepted_only_at_the_very_end() -> None:
    call = '<tool_call>{"name":"calculator","arguments":{"expression":"1+1"}}'
    assert _calls(recover_tool_calls(call, TOOLS)) == [CALC]
    assert recover_tool_calls(call + "\nThe answer is 2.", TOOLS) is None


def test_reasoning_before_hermes_calls_is_kept_as_text() -> None:
    content = '<think>Need arithmetic.</think>\n\n<tool_call>\n{"name": "calculator", "arguments": {"expression": "1+1"}}\n</tool_call>'
    found = recover_tool_calls(content, TOOLS)
    assert _calls(found) == [CALC] and found is not None and found.text == "<think>Need arithmetic.</think>"


# --- mistral -------------------------------------------------------------------------------------


def test_mistral_list_form() -> None:
    content = '[TOOL_CALLS] [{"name":"calculator","arguments":{"expression":"1+1"},"id":"abcdefghi"},{"name":"get_weather","arguments":{"city":"北京"}}]</s>'
    found = recover_tool_calls(content, TOOLS)
    assert _calls(found) == [CALC, WEATHER] and found is not None and found.format == "mistral"


def test_mistral_args_form_with_and_without_call_id() -> None:
    content = (
        '[TOOL_CALLS]calculator[ARGS]{"expression":"1+1"}[TOOL_CALLS]get_weather[CALL_ID]x1y2z3w4v[ARGS]{"city":"北京"}'
    )
    assert _calls(recover_tool_calls(content, TOOLS)) == [CALC, WEATHER]


@pytest.mark.parametrize(
    "content",
    [
        "[TOOL_CALLS]calculator",  # no [ARGS]
        '[TOOL_CALLS]shell[ARGS]{"cmd":"ls"}',
        '[TOOL_CALLS][{"name":"calculator","arguments":"not an object"}]',
        '[TOOL_CALLS][{"name":"calculator","arguments":{}}] trailing words',
        "[TOOL_CALLS][]",
    ],
)
def test_mistral_negatives(content: str) -> None:
    assert recover_tool_calls(content, TOOLS) is None


# --- whole-content JSON and fenced JSON ----------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        '{"name": "calculator", "parameters": {"expression": "1+1"}}',
        '<|python_tag|>{"name": "calculator", "arguments": {"expression": "1+1"}}<|eom_id|>',
        '{"type": "function", "name": "calculator", "arguments": "{\\"expression\\": \\"1+1\\"}"}',
        '  \n```json\n{"name": "calculator", "arguments": {"expression": "1+1"}}\n```\n',
        '```\n[{"name": "calculator", "arguments": {"expression": "1+1"}}]\n```',
    ],
)
def test_whole_content_json_is_a_call(content: str) -> None:
    assert _calls(recover_tool_calls(content, TOOLS)) == [CALC]


def test_json_list_of_calls() -> None:
    content = (
        '[{"name":"calculator","arguments":{"expression":"1+1"}},{"name":"get_weather","parameters":{"city":"北京"}}]'
    )
    found = recover_tool_calls(content, TOOLS)
    assert _calls(found) == [CALC, WEATHER] and found is not None and found.format == "json"


@pytest.mark.parametrize(
    "content",
    [
        '{"name": "Alice", "arguments": {}}',  # a "name" that is not a tool
        '{"name": "calculator", "age": 3}',  # no arguments
        '{"name": "calculator", "arguments": {}, "description": "adds"}',  # not exactly a call object
        '{"name": "calculator", "arguments": {}, "parameters": {}}',
        '{"name": "calculator", "type": "tool", "arguments": {}}',
        '{"name": "calculator", "arguments": {"expression": "1"}} is what a call looks like.',
        'Here is an example:\n```json\n{"name": "calculator", "arguments": {"expression": "1+1"}}\n```',
        '```json\n{"name": "calculator", "arguments": {}}\n```\nThen the tool answers.',
        '```json\n{"name":"calculator","arguments":{}}\n```\n```json\n{"name":"calculator","arguments":{}}\n```',
        '```yaml\n{"name": "calculator", "arguments": {}}\n```',
        '[{"name": "calculator", "arguments": {}}, {"name": "Bob", "arguments": {}}]',
        '[{"name": "calculator", "arguments": {}}, 3]',
        "[1, 2, 3]",
        "{}",
    ],
)
def test_json_that_is_not_a_call(content: str) -> None:
    assert recover_tool_calls(content, TOOLS) is None


# --- python call syntax --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('calculator(expression="1+1")', [CALC]),
        ("calculator('1+1')", [CALC]),  # positional: the schema's first parameter
        ('[calculator(expression="1+1"), get_weather(city="北京")]', [CALC, WEATHER]),
        ('calculator(expression="1+1")\nget_weather(city="北京")', [CALC, WEATHER]),
        ('```tool_code\nget_weather(city="北京")\n```', [WEATHER]),
        ("math.add(a=-1, b=+2)", [("math.add", {"a": -1, "b": 2})]),
        ("get_current_time()", [("get_current_time", {})]),
        ("get_weather(city=null)", [("get_weather", {"city": None})]),
        ("math.add(a=[1, (2, 3)], b={'k': True})", [("math.add", {"a": [1, [2, 3]], "b": {"k": True}})]),
    ],
)
def test_python_calls(content: str, expected: list[tuple[str, dict[str, Any]]]) -> None:
    found = recover_tool_calls(content, TOOLS)
    assert _calls(found) == expected and found is not None and found.format == "python"


@pytest.mark.parametrize(
    "content",
    [
        "print(f(x=1))",
        'To compute it, call `calculator(expression="1+1")` and read the result.',
        'You could write calculator(expression="1+1") here.',
        'x = calculator(expression="1+1")',
        'calculator(expression="1+1").result',
        "calculator(expression=eval('1+1'))",  # never evaluated
        "calculator(expression=x)",
        "calculator(expression=1e999)",
        "calculator(*args)",
        "calculator(**kwargs)",
        "calculator('1', '2')",  # more positional values than parameters
        "calculator('1', expression='2')",
        "math.add(a={1: 2})",
        'os.system("rm -rf /")',
        "```python\nimport os\nos.system('ls')\n```",
        "42",
        "#### 3",
    ],
)
def test_python_negatives(content: str) -> None:
    assert recover_tool_calls(content, TOOLS) is None


# --- limits --------------------------------------------------------------------------------------


def test_no_tools_or_oversized_content_is_not_examined() -> None:
    call = 'calculator(expression="1+1")'
    assert recover_tool_calls(call, {}) is None
    assert recover_tool_calls(None, TOOLS) is None
    padded = call + " " * MAX_EXAMINED_CHARS
    assert recover_tool_calls(padded, TOOLS) is None


@pytest.mark.parametrize(
    "content",
    [
        "[" * 60_000,
        "{" * 60_000,
        "<tool_call>" * 5_000,
        "[TOOL_CALLS]" * 5_000,
        "[TOOL_CALLS]x[ARGS]" * 3_000,
        "```json\n" + " \n" * 30_000,
        "calculator(" * 5_000 + ")" * 5_000,
        '<tool_call>{"name":"calculator","arguments":' + "[" * 30_000,
        "(" * 100 + "calculator()" + ")" * 100,
        "x" + "</s>" * 16_000,
        "[" + ", ".join(['calculator(expression="1")'] * 2_000) + "]",  # more calls than MAX_CALLS
    ],
)
def test_adversarial_inputs_end_without_an_exception(content: str) -> None:
    assert recover_tool_calls(content, TOOLS) is None


FRAGMENTS = st.sampled_from(
    [
        "<tool_call>",
        "</tool_call>",
        "[TOOL_CALLS]",
        "[ARGS]",
        "[CALL_ID]",
        "```",
        "```json\n",
        '{"name": "calculator", "arguments": ',
        '{"expression": "1+1"}',
        "}",
        "]",
        "[",
        "calculator(",
        "expression=",
        ")",
        ",",
        '"',
        "\\",
        "\n",
        " ",
        "NaN",
        "<|python_tag|>",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(FRAGMENTS, st.text(max_size=8)), max_size=40).map("".join))
def test_random_text_never_crashes_and_results_are_well_formed(content: str) -> None:
    found = recover_tool_calls(content, TOOLS)
    if found is not None:
        assert found.calls and all(call.name in TOOLS for call in found.calls)
        assert all(isinstance(json.loads(call.arguments), dict) for call in found.calls)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
IDENTIFIERS = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True).filter(lambda s: s not in {"if", "in", "is", "or"})


def _py_literal(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(_py_literal, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_py_literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(IDENTIFIERS.filter(str.isidentifier), JSON_VALUES, max_size=4))
def test_any_json_arguments_round_trip_in_every_format(arguments: dict[str, Any]) -> None:
    import keyword

    tools = {"lookup": {"type": "object", "properties": {k: {} for k in arguments}}}
    body = json.dumps(arguments, ensure_ascii=False)
    renders = {
        "hermes": f'<tool_call>{{"name": "lookup", "arguments": {body}}}</tool_call>',
        "mistral": f"[TOOL_CALLS]lookup[ARGS]{body}",
        "json": f'{{"name": "lookup", "parameters": {body}}}',
        "fenced_json": f'```json\n{{"name": "lookup", "arguments": {body}}}\n```',
    }
    if not any(keyword.iskeyword(k) for k in arguments):
        renders["python"] = "lookup(" + ", ".join(f"{k}={_py_literal(v)}" for k, v in arguments.items()) + ")"
    for fmt, content in renders.items():
        found = recover_tool_calls(content, tools)
        assert found is not None and found.format == fmt, content
        assert _calls(found) == [("lookup", arguments)]


# --- the committed BFCL sample (bench/textcalls_corpus.py --write-sample) --------------------------


def _sample() -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert "Apache-2.0" in rows[0]["_meta"]
    return rows[1:]


SAMPLE_ROWS = _sample()


def test_sample_covers_every_format_and_category() -> None:
    assert len(SAMPLE_ROWS) >= 150
    assert {row["format"] for row in SAMPLE_ROWS} == {"hermes", "mistral", "json", "fenced_json", "python"}
    categories = {row["id"].rsplit("_", 1)[0] for row in SAMPLE_ROWS}
    assert categories == {"simple_python", "multiple", "parallel", "parallel_multiple"}


@pytest.mark.parametrize("row", SAMPLE_ROWS, ids=lambda row: f"{row['id']}-{row['format']}")
def test_bfcl_sample_is_recovered_exactly(row: dict[str, Any]) -> None:
    found = recover_tool_calls(row["content"], row["tools"])
    assert found is not None and found.format == row["format"]
    assert _calls(found) == [(call["name"], call["arguments"]) for call in row["expected"]]


# --- false positives on real model answers --------------------------------------------------------


def test_no_false_positives_on_gsm8k_answers() -> None:
    import csv

    if not GSM8K.exists():
        message = f"gsm8k answers not found at {GSM8K} (shared/ must sit beside the clone, or set ROUTER_SHARED_DIR)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with GSM8K.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        columns = [c for c in reader.fieldnames or [] if c.endswith("_response")]
        answers = [row[c] for row in reader for c in columns if row[c].strip()]
    assert len(columns) == 2 and len(answers) > 1_900
    tools = dict(TOOLS)
    for row in SAMPLE_ROWS:
        tools.update(row["tools"])
    wrongly = [answer[:120] for answer in answers if recover_tool_calls(answer, tools) is not None]
    assert wrongly == []


def test_a_fence_inside_a_json_string_in_a_fenced_call_is_still_the_call() -> None:
    content = '```json\n{"name": "calculator", "arguments": {"expression": "```"}}\n```'
    found = recover_tool_calls(content, {"calculator": {"type": "object", "properties": {"expression": {"type": "string"}}}})
    assert found is not None and found.calls[0].arguments == '{"expression": "```"}'
    two_blocks = '```json\n{"name": "calculator", "arguments": {}}\n```\nand then\n```json\n{"a": 1}\n```'
    assert recover_tool_calls(two_blocks, {"calculator": {}}) is None
