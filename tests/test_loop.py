"""run_tools driven by ScriptedLLM through every fault of the issue (native protocol)."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from router.clients.mock import ScriptedLLM, text_response, tool_call_response
from router.errors import (
    MessageChainError,
    ProviderUnavailableError,
    ScriptExhaustedError,
    ToolsUnsupportedError,
    UsageError,
)
from router.loop.chain import validate_messages
from router.loop.run import CONTINUE, CUT_TOOL_CALL, LoopEvent, ProtocolMemory, run_tools
from router.tools.registry import ToolRegistry, tool
from router.types import AssistantMessage, Attempt, ChatResponse, RequestOptions, ToolCall, Usage

QUESTION = [{"role": "system", "content": "sys"}, {"role": "user", "content": "q"}]


class Calls:
    """Counts tool executions (thread-safe: tools run in worker threads)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen: list[tuple[str, Any]] = []

    def add(self, name: str, value: Any) -> None:
        with self.lock:
            self.seen.append((name, value))


@pytest.fixture
def ran() -> Calls:
    return Calls()


@pytest.fixture
def registry(ran: Calls) -> ToolRegistry:
    @tool
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        ran.add("add", (a, b))
        return a + b

    @tool
    def city_info(city: str) -> dict[str, Any]:
        """Facts about a city."""
        ran.add("city_info", city)
        return {"城市": city, "人口": 100}

    @tool
    def sleepy(seconds: float, label: str = "") -> str:
        """Sleep then return the label."""
        time.sleep(seconds)
        ran.add("sleepy", label)
        return label

    @tool
    def boom(reason: str) -> str:
        """Always fails."""
        ran.add("boom", reason)
        raise ValueError(reason)

    @tool
    def big(size: int) -> str:
        """A large result."""
        return "x" * size

    @tool
    def fails_softly(what: str) -> dict[str, str]:
        """Returns an error result instead of raising."""
        return {"error": f"no {what}"}

    @tool
    def ping() -> str:
        """No arguments."""
        ran.add("ping", None)
        return "pong"

    return ToolRegistry([add, city_info, sleepy, boom, big, fails_softly, ping])


def ids(response: ChatResponse) -> list[str]:
    return [call.id for call in response.message.tool_calls]


def assert_every_request_valid(llm: ScriptedLLM) -> None:
    for recorded in llm.calls:
        assert validate_messages(recorded.messages) == []


def tool_messages(messages: Any) -> list[dict[str, Any]]:
    return [m for m in messages if m["role"] == "tool"]


def test_plain_answer_is_not_grounded(registry: ToolRegistry) -> None:
    llm = ScriptedLLM([text_response("42")])
    result = run_tools(llm, QUESTION, registry)
    assert result.answer == "42"
    assert result.stopped_reason == "answer"
    assert result.grounded is False
    assert result.tool_records == ()
    assert result.steps == 1
    assert result.protocol == "native"
    assert llm.calls[0].tools == registry.schemas()
    assert list(result.messages) == [*QUESTION, {"role": "assistant", "content": "42"}]


def test_one_call_round_trip(registry: ToolRegistry, ran: Calls) -> None:
    ask = tool_call_response(("add", {"a": 2, "b": 3}))
    llm = ScriptedLLM([ask, text_response("5")])
    result = run_tools(llm, QUESTION, registry)
    assert_every_request_valid(llm)
    second = llm.calls[1].messages
    assert second[2] == ask.message.to_dict()  # appended verbatim
    assert second[3] == {"role": "tool", "tool_call_id": ids(ask)[0], "content": "5"}
    assert ran.seen == [("add", (2, 3))]
    [record] = result.tool_records
    assert (record.tool, record.arguments, record.result, record.error) == ("add", {"a": 2, "b": 3}, "5", None)
    assert (record.call_id, record.raw_arguments, record.step) == (ids(ask)[0], '{"a": 2, "b": 3}', 1)
    assert record.duration_s >= 0
    assert result.grounded is True
    assert result.answer == "5" and result.steps == 2


def test_parallel_calls_keep_call_order(registry: ToolRegistry) -> None:
    ask = tool_call_response(
        ("sleepy", {"seconds": 0.2, "label": "slow"}),
        ("sleepy", {"seconds": 0.0, "label": "fast"}),
        ("sleepy", {"seconds": 0.1, "label": "mid"}),
    )
    llm = ScriptedLLM([ask, text_response("ok")])
    started = time.perf_counter()
    result = run_tools(llm, QUESTION, registry)
    elapsed = time.perf_counter() - started
    assert_every_request_valid(llm)
    msgs = tool_messages(llm.calls[1].messages)
    assert [(m["tool_call_id"], m["content"]) for m in msgs] == list(zip(ids(ask), ["slow", "fast", "mid"], strict=True))
    assert [r.result for r in result.tool_records] == ["slow", "fast", "mid"]
    assert elapsed < 0.3 + 5  # sanity only; the speed-up is measured by bench/parallel_tools.py


def test_non_string_result_is_json_with_unicode(registry: ToolRegistry) -> None:
    ask = tool_call_response(("city_info", {"city": "北京"}))
    llm = ScriptedLLM([ask, text_response("ok")])
    result = run_tools(llm, QUESTION, registry)
    assert tool_messages(llm.calls[1].messages)[0]["content"] == '{"城市": "北京", "人口": 100}'
    assert result.tool_records[0].result == '{"城市": "北京", "人口": 100}'


@pytest.mark.parametrize(
    ("raw", "content", "error"),
    [
        (
            '{"a": 1, "b":',
            "Error: the arguments are not valid JSON (Expecting value: line 1 column 14 (char 13)). "
            "The tool add was not run; send the arguments as one JSON object.",
            "the arguments are not valid JSON (Expecting value: line 1 column 14 (char 13))",
        ),
        (
            "[1, 2]",
            "Error: the arguments must be a JSON object, got list. "
            "The tool add was not run; send the arguments as one JSON object.",
            "the arguments must be a JSON object, got list",
        ),
        (
            '"a=1"',
            "Error: the arguments must be a JSON object, got str. "
            "The tool add was not run; send the arguments as one JSON object.",
            "the arguments must be a JSON object, got str",
        ),
    ],
)
def test_unreadable_arguments_never_run_the_tool(
    registry: ToolRegistry, ran: Calls, raw: str, content: str, error: str
) -> None:
    ask = tool_call_response(("add", raw))
    llm = ScriptedLLM([ask, text_response("sorry")])
    result = run_tools(llm, QUESTION, registry)
    assert_every_request_valid(llm)
    assert ran.seen == []
    assert tool_messages(llm.calls[1].messages) == [{"role": "tool", "tool_call_id": ids(ask)[0], "content": content}]
    [record] = result.tool_records
    assert record.arguments is None and record.raw_arguments == raw and record.error == error
    assert result.grounded is False


def test_empty_argument_string_means_no_arguments(registry: ToolRegistry, ran: Calls) -> None:
    llm = ScriptedLLM([tool_call_response(("ping", "")), text_response("pong!")])
    result = run_tools(llm, QUESTION, registry)
    assert ran.seen == [("ping", None)]
    assert result.tool_records[0].result == "pong" and result.tool_records[0].arguments == {}


def test_unknown_tool(registry: ToolRegistry) -> None:
    ask = tool_call_response(("search_web", {"q": "x"}))
    llm = ScriptedLLM([ask, text_response("no")])
    result = run_tools(llm, QUESTION, registry)
    assert tool_messages(llm.calls[1].messages)[0]["content"] == (
        "Error: unknown tool 'search_web'. Available tools: add, city_info, sleepy, boom, big, fails_softly, ping."
    )
    assert result.tool_records[0].error == "unknown tool 'search_web'"


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"a": 1}, "b: Field required"),
        ({"a": 1, "b": "two"}, "b: Input should be a valid integer, unable to parse string as an integer"),
        ({"a": 1, "b": 2, "c": 3}, "c: Extra inputs are not permitted"),
    ],
)
def test_validation_error_goes_back_to_the_model(
    registry: ToolRegistry, ran: Calls, arguments: dict[str, Any], problem: str
) -> None:
    llm = ScriptedLLM([tool_call_response(("add", arguments)), text_response("fixed")])
    result = run_tools(llm, QUESTION, registry)
    content = tool_messages(llm.calls[1].messages)[0]["content"]
    assert content == f"Error: invalid arguments for add: {problem}. Fix the arguments and call add again."
    assert ran.seen == []
    assert result.tool_records[0].error == f"invalid arguments for add: {problem}"


def test_exception_becomes_tool_message(registry: ToolRegistry) -> None:
    llm = ScriptedLLM([tool_call_response(("boom", {"reason": "kaput"})), text_response("it failed")])
    result = run_tools(llm, QUESTION, registry)
    assert tool_messages(llm.calls[1].messages)[0]["content"] == "Error: tool boom failed: ValueError: kaput"
    assert result.tool_records[0].error == "ValueError: kaput"
    assert result.answer == "it failed" and result.grounded is False


def test_error_result_marks_record_failed(registry: ToolRegistry) -> None:
    llm = ScriptedLLM([tool_call_response(("fails_softly", {"what": "data"})), text_response("none")])
    result = run_tools(llm, QUESTION, registry)
    assert tool_messages(llm.calls[1].messages)[0]["content"] == '{"error": "no data"}'
    assert result.tool_records[0].error == "no data"
    assert result.grounded is False


def test_per_tool_timeout(registry: ToolRegistry) -> None:
    ask = tool_call_response(("sleepy", {"seconds": 3, "label": "late"}), ("add", {"a": 1, "b": 1}))
    llm = ScriptedLLM([ask, text_response("partial")])
    result = run_tools(llm, QUESTION, registry, tool_timeout_s=0.2)
    msgs = tool_messages(llm.calls[1].messages)
    assert msgs[0]["content"] == "Error: tool sleepy did not finish within 0.2 s and was abandoned."
    assert msgs[1]["content"] == "2"
    assert result.tool_records[0].error == "timed out after 0.2 s"
    assert result.grounded is True


def test_tool_level_timeout_is_tighter_than_the_loop(ran: Calls) -> None:
    @tool(timeout_s=0.1)
    def stuck() -> str:
        """Never finishes in time."""
        time.sleep(2)
        return "late"

    llm = ScriptedLLM([tool_call_response(("stuck", {})), text_response("gave up")])
    result = run_tools(llm, QUESTION, ToolRegistry([stuck]), tool_timeout_s=30)
    assert result.tool_records[0].error == "timed out after 0.1 s"


def test_oversized_result_is_truncated_with_a_note(registry: ToolRegistry) -> None:
    llm = ScriptedLLM([tool_call_response(("big", {"size": 500})), text_response("long")])
    result = run_tools(llm, QUESTION, registry, max_result_chars=100)
    content = tool_messages(llm.calls[1].messages)[0]["content"]
    assert content == "x" * 100 + "\n[truncated: the result had 500 characters; only the first 100 are shown]"
    assert result.tool_records[0].result == "x" * 500


def test_repeated_calls_are_answered_then_stopped(registry: ToolRegistry, ran: Calls) -> None:
    same = [tool_call_response(("add", {"b": 2, "a": 1} if i % 2 else {"a": 1, "b": 2})) for i in range(4)]
    llm = ScriptedLLM([*same, text_response("3")])
    result = run_tools(llm, QUESTION, registry, max_repeats=2)
    assert_every_request_valid(llm)
    assert ran.seen == [("add", (1, 2)), ("add", (1, 2))]  # canonical arguments: key order does not matter
    final_messages = llm.calls[-1].messages
    contents = [m["content"] for m in tool_messages(final_messages)]
    reused = "You already called add with these exact arguments; it was not run again. Use the result you already have:\n3"
    assert contents == ["3", "3", reused, reused]
    assert final_messages[-1]["role"] == "user"
    assert final_messages[-1]["content"].startswith("[router] You keep repeating the same tool call")
    assert llm.calls[-1].tools is None
    assert result.stopped_reason == "repeated_calls"
    assert result.answer.startswith("3\n\n[注意 / note: stopped because the model kept repeating")
    assert [r.error for r in result.tool_records] == [
        None,
        None,
        "repeated call: not run again, earlier result reused",
        "repeated call: not run again, earlier result reused",
    ]
    assert result.tool_records[2].result == "3"
    assert result.grounded is True


def test_repeated_failing_calls_are_stopped_too(registry: ToolRegistry, ran: Calls) -> None:
    """A model resending the same unknown tool or the same broken JSON is caught like any repeat."""
    unknown = [tool_call_response(("multiply", {"a": 2, "b": 3})) for _ in range(4)]
    llm = ScriptedLLM([*unknown, text_response("I cannot multiply here.")])
    result = run_tools(llm, QUESTION, registry, max_repeats=2, max_steps=8)
    assert_every_request_valid(llm)
    assert ran.seen == []
    contents = [m["content"] for m in tool_messages(llm.calls[-1].messages)]
    assert contents[0].startswith("Error: unknown tool 'multiply'")
    assert contents[2].startswith("You already called multiply with these exact arguments; it was not run again.")
    assert "Error: unknown tool 'multiply'" in contents[2]
    assert result.stopped_reason == "repeated_calls"
    assert llm.calls[-1].tools is None
    assert result.tool_records[2].error == "repeated call: not run again, earlier attempt failed: unknown tool 'multiply'"
    assert result.grounded is False

    broken = [tool_call_response(("add", '{"a": 1, "b": ')) for _ in range(4)]
    llm = ScriptedLLM([*broken, text_response("giving up")])
    result = run_tools(llm, QUESTION, registry, max_repeats=2, max_steps=8)
    assert ran.seen == [] and result.stopped_reason == "repeated_calls"
    assert all(record.result == "" for record in result.tool_records)  # never ran, not even with {}


def test_repeats_within_one_turn(registry: ToolRegistry, ran: Calls) -> None:
    ask = tool_call_response(*[("add", {"a": 5, "b": 5})] * 3)
    llm = ScriptedLLM([ask, text_response("10")])
    result = run_tools(llm, QUESTION, registry, max_repeats=1)
    assert len(ran.seen) == 1
    assert [m["content"].splitlines()[-1] for m in tool_messages(llm.calls[-1].messages)] == ["10", "10", "10"]
    assert result.stopped_reason == "repeated_calls"


def test_a_complete_answer_after_the_last_tool_turn_is_not_cut_short(registry: ToolRegistry) -> None:
    steps = [tool_call_response(("add", {"a": i, "b": 1})) for i in range(2)]
    llm = ScriptedLLM([*steps, text_response("the sums are 1 and 2")])
    result = run_tools(llm, QUESTION, registry, max_steps=2)
    assert_every_request_valid(llm)
    assert [c.tools is not None for c in llm.calls] == [True, True, False]  # the model always gets a tool-less turn
    assert llm.calls[-1].messages[-1]["role"] == "tool"  # and no router instruction was added to it
    assert result.stopped_reason == "answer" and result.answer == "the sums are 1 and 2"
    assert len(result.tool_records) == 2 and result.steps == 3


def test_max_steps_cuts_short_only_when_the_model_still_wants_tools(registry: ToolRegistry) -> None:
    steps = [tool_call_response(("add", {"a": i, "b": 1})) for i in range(3)]
    llm = ScriptedLLM([*steps, text_response("[router] The tool step limit (2) has been reached.\nbest guess: 2")])
    result = run_tools(llm, QUESTION, registry, max_steps=2)
    assert_every_request_valid(llm)
    assert [c.tools is not None for c in llm.calls] == [True, True, False, False]
    last_prompt = llm.calls[-1].messages[-1]
    assert last_prompt["role"] == "user" and "tool step limit (2)" in last_prompt["content"]
    assert result.stopped_reason == "max_steps"
    assert result.answer == (
        "best guess: 2\n\n[注意 / note: stopped at the tool step limit (2) while the model still wanted tools; "
        "this answer was cut short and may be incomplete]"
    )  # our own instruction, quoted back by the model, never reaches the answer
    assert len(result.tool_records) == 2 and result.steps == 4


def test_max_steps_with_empty_final_reply_still_answers(registry: ToolRegistry) -> None:
    llm = ScriptedLLM([tool_call_response(("add", {"a": 1, "b": 1})), tool_call_response(("add", {"a": 2, "b": 1})), text_response("")])
    result = run_tools(llm, QUESTION, registry, max_steps=1)
    assert result.stopped_reason == "max_steps"
    assert result.answer.startswith("The model gave no final answer. Tool results so far:\n- add(")
    assert "cut short" in result.answer


def test_max_steps_final_reply_with_tool_calls_is_not_executed(registry: ToolRegistry, ran: Calls) -> None:
    llm = ScriptedLLM([tool_call_response(("ping", {})), tool_call_response(("ping", {})), text_response("done")])
    result = run_tools(llm, QUESTION, registry, max_steps=1)
    assert len(ran.seen) == 1
    assert validate_messages(result.messages) == []
    assert result.stopped_reason == "max_steps" and result.answer.startswith("done")


def test_length_continuations_are_joined(registry: ToolRegistry) -> None:
    llm = ScriptedLLM(
        [
            text_response("Hello ", finish_reason="length"),
            text_response("wor", finish_reason="length"),
            text_response("ld", finish_reason="stop"),
        ]
    )
    result = run_tools(llm, QUESTION, registry)
    assert_every_request_valid(llm)
    assert result.answer == "Hello world"
    assert result.stopped_reason == "answer"
    assert [c.tools is None for c in llm.calls] == [False, True, True]
    assert llm.calls[1].messages[-2:] == [
        {"role": "assistant", "content": "Hello "},
        {"role": "user", "content": CONTINUE},
    ]


def test_length_continuations_are_bounded(registry: ToolRegistry) -> None:
    llm = ScriptedLLM([text_response("a", finish_reason="length"), text_response("b", finish_reason="length")])
    result = run_tools(llm, QUESTION, registry, max_continuations=1)
    assert result.stopped_reason == "length"
    assert result.answer == "ab\n\n[注意 / note: the answer was cut off by the length limit]"
    assert len(llm.calls) == 2


def test_tool_call_cut_by_length_is_never_run(registry: ToolRegistry, ran: Calls) -> None:
    cut = tool_call_response(("add", '{"a": 1, "b"'), finish_reason="length")
    llm = ScriptedLLM([cut, tool_call_response(("add", {"a": 1, "b": 2})), text_response("3")])
    result = run_tools(llm, QUESTION, registry)
    assert_every_request_valid(llm)
    assert ran.seen == [("add", (1, 2))]
    second = llm.calls[1].messages
    assert second == [*QUESTION, {"role": "user", "content": CUT_TOOL_CALL}]
    assert [r.raw_arguments for r in result.tool_records] == ['{"a": 1, "b": 2}']


def test_broken_history_raises_before_sending(registry: ToolRegistry) -> None:
    llm = ScriptedLLM([text_response("never")])
    broken = [*QUESTION, {"role": "tool", "tool_call_id": "x", "content": "orphan"}]
    with pytest.raises(MessageChainError) as info:
        run_tools(llm, broken, registry)
    assert info.value.problems == ["message 2 (tool): orphan tool message for 'x' (no pending tool call)"]
    assert llm.calls == []


def test_provider_errors_propagate(registry: ToolRegistry) -> None:
    llm = ScriptedLLM([tool_call_response(("ping", {})), ProviderUnavailableError("down", provider="p")])
    with pytest.raises(ProviderUnavailableError, match="down"):
        run_tools(llm, QUESTION, registry)
    with pytest.raises(ScriptExhaustedError):
        run_tools(ScriptedLLM([]), QUESTION, registry)


def test_caller_messages_are_not_mutated(registry: ToolRegistry) -> None:
    history = [dict(m) for m in QUESTION]
    snapshot = json.dumps(history)
    run_tools(ScriptedLLM([tool_call_response(("ping", {})), text_response("ok")]), history, registry)
    run_tools(ScriptedLLM([text_response("ok")]), history, registry, protocol="text")
    assert json.dumps(history) == snapshot


def test_usage_attempts_and_options(registry: ToolRegistry) -> None:
    attempt_a = Attempt("p", "m", ok=False, error_kind="rate_limit", error="429")
    attempt_b = Attempt("p", "m", ok=True)
    first = ChatResponse(
        AssistantMessage(content="", tool_calls=(ToolCall("c1", "ping", "{}"),)),
        finish_reason="tool_calls",
        usage=Usage(10, 2, 12),
        attempts=(attempt_a, attempt_b),
    )
    second = ChatResponse(AssistantMessage(content="done"), usage=Usage(20, 3, 23), attempts=(attempt_b,))
    llm = ScriptedLLM([first, second])
    result = run_tools(llm, QUESTION, registry, options=RequestOptions(temperature=0.2, tool_choice="auto"))
    assert result.usage == Usage(30, 5, 35)
    assert result.attempts == (attempt_a, attempt_b, attempt_b)
    assert llm.calls[0].options == RequestOptions(temperature=0.2, tool_choice="auto")


def test_tool_choice_dropped_when_no_tools_are_offered(registry: ToolRegistry) -> None:
    llm = ScriptedLLM([tool_call_response(("ping", {})), text_response("x")])
    run_tools(llm, QUESTION, registry, max_steps=1, options=RequestOptions(tool_choice="auto", temperature=0))
    assert llm.calls[1].tools is None
    assert llm.calls[1].options == RequestOptions(temperature=0)


def test_events_for_uis(registry: ToolRegistry) -> None:
    events: list[LoopEvent] = []
    ask = tool_call_response(("add", {"a": 1, "b": 2}), ("boom", {"reason": "r"}))
    run_tools(ScriptedLLM([ask, text_response("ok")]), QUESTION, registry, on_event=events.append)
    kinds = [(e.kind, getattr(e, "name", "")) for e in events]
    assert kinds == [
        ("tool_call", "add"),
        ("tool_call", "boom"),
        ("tool_result", "add"),
        ("tool_result", "boom"),
    ]
    assert events[0].arguments == '{"a": 1, "b": 2}' and events[0].call_id == ids(ask)[0]
    assert events[2].result == "3" and events[2].error is None
    assert events[3].error == "ValueError: r"
    with pytest.raises(AttributeError):
        events[0].kind = "x"  # type: ignore[misc]


def test_empty_registry_sends_no_tools() -> None:
    llm = ScriptedLLM([text_response("hi")])
    result = run_tools(llm, QUESTION, ToolRegistry())
    assert llm.calls[0].tools is None and result.answer == "hi"


@pytest.mark.parametrize(
    "kwargs", [{"protocol": "xml"}, {"max_steps": 0}, {"max_repeats": 0}, {"tool_timeout_s": 0}, {"max_continuations": -1}]
)
def test_bad_limits_are_usage_errors(registry: ToolRegistry, kwargs: dict[str, Any]) -> None:
    with pytest.raises(UsageError):
        run_tools(ScriptedLLM([]), QUESTION, registry, **kwargs)


# --- protocol downgrade ----------------------------------------------------------------------


def test_auto_downgrades_to_text_and_remembers(registry: ToolRegistry, ran: Calls) -> None:
    memory = ProtocolMemory()
    llm = ScriptedLLM(
        [
            ToolsUnsupportedError("tools are not supported", provider="local", status=400),
            text_response('Thought: add them\nAction: add\nAction Input: {"a": 2, "b": 2}'),
            text_response("Final Answer: 4"),
        ],
        provider="local",
    )
    result = run_tools(llm, QUESTION, registry, protocol_memory=memory)
    assert result.protocol == "text" and result.answer == "4" and result.grounded
    assert ran.seen == [("add", (2, 2))]
    assert memory.is_downgraded("local")
    assert llm.calls[0].tools is not None and llm.calls[1].tools is None
    assert "Action Input" in llm.calls[1].messages[0]["content"]
    assert llm.calls[2].messages[-1] == {"role": "user", "content": "Observation: 4"}
    # next run for the same provider starts in text mode directly
    again = ScriptedLLM([text_response("Final Answer: 5")], provider="local")
    second = run_tools(again, QUESTION, registry, protocol_memory=memory)
    assert second.protocol == "text" and again.calls[0].tools is None
    # another provider is unaffected
    other = ScriptedLLM([text_response("6")], provider="cloud")
    assert run_tools(other, QUESTION, registry, protocol_memory=memory).protocol == "native"
    memory.forget("local")
    assert not memory.is_downgraded("local")


def test_native_protocol_does_not_downgrade(registry: ToolRegistry) -> None:
    llm = ScriptedLLM([ToolsUnsupportedError("no tools")])
    with pytest.raises(ToolsUnsupportedError):
        run_tools(llm, QUESTION, registry, protocol="native", protocol_memory=ProtocolMemory())


def test_tools_unsupported_later_in_the_run_propagates(registry: ToolRegistry) -> None:
    llm = ScriptedLLM([tool_call_response(("ping", {})), ToolsUnsupportedError("no tools")])
    with pytest.raises(ToolsUnsupportedError):
        run_tools(llm, QUESTION, registry, protocol_memory=ProtocolMemory())


# --- background tools ------------------------------------------------------------------------


@pytest.fixture
def background_registry(registry: ToolRegistry) -> ToolRegistry:
    @tool(background=True)
    def export_data(name: str, seconds: float = 0.2) -> dict[str, Any]:
        """A long export that runs in the background."""
        time.sleep(seconds)
        return {"status": "completed", "task": name}

    @tool(background=True, timeout_s=0.1)
    def never_ends() -> str:
        """Hangs."""
        time.sleep(3)
        return "late"

    registry.register(export_data)
    registry.register(never_ends)
    return registry


def _notification(messages: Any) -> dict[str, Any]:
    [note] = [m for m in messages if m["role"] == "user" and "<task_notification>" in m["content"]]
    return note


def test_background_task_placeholder_then_notification(background_registry: ToolRegistry) -> None:
    ask = tool_call_response(("export_data", {"name": "pip-sim"}), ("add", {"a": 123, "b": 456}))
    llm = ScriptedLLM([ask, text_response("已启动任务，123+456=579"), text_response("任务 pip-sim 已完成")])
    result = run_tools(llm, QUESTION, background_registry)
    assert_every_request_valid(llm)
    placeholder = json.loads(tool_messages(llm.calls[1].messages)[0]["content"])
    task_id = placeholder["background_task_id"]
    assert placeholder["status"] == "running" and task_id.startswith("bg_")
    assert tool_messages(llm.calls[1].messages)[1]["content"] == "579"
    # the interim answer is kept, the loop waited, then told the model in a user message
    final = llm.calls[2].messages
    assert final[-2] == {"role": "assistant", "content": "已启动任务，123+456=579"}
    note = final[-1]
    assert note["role"] == "user"
    assert f"<task_id>{task_id}</task_id>" in note["content"]
    assert "<status>completed</status>" in note["content"]
    assert '<result>{"status": "completed", "task": "pip-sim"}</result>' in note["content"]
    assert result.answer == "任务 pip-sim 已完成"
    record = result.tool_records[0]
    assert record.tool == "export_data" and record.ok
    assert record.result == '{"status": "completed", "task": "pip-sim"}'
    assert record.duration_s >= 0.2


def test_background_notification_comes_before_the_next_request(background_registry: ToolRegistry) -> None:
    first = tool_call_response(("export_data", {"name": "a", "seconds": 0.0}))
    llm = ScriptedLLM([first, tool_call_response(("sleepy", {"seconds": 0.1})), text_response("done")])
    # the export is already finished when the second request is prepared... or at least by the third
    result = run_tools(llm, QUESTION, background_registry)
    assert_every_request_valid(llm)
    everything = llm.calls[-1].messages
    note_index = everything.index(_notification(everything))
    assert everything[note_index - 1]["role"] == "tool"  # never between an assistant message and its tools
    assert result.tool_records[0].ok and result.tool_records[0].result == '{"status": "completed", "task": "a"}'


def test_background_timeout_is_reported(background_registry: ToolRegistry) -> None:
    llm = ScriptedLLM([tool_call_response(("never_ends", {})), text_response("started"), text_response("it hung")])
    result = run_tools(llm, QUESTION, background_registry)
    note = _notification(llm.calls[-1].messages)
    assert "<status>timed_out</status>" in note["content"]
    assert result.tool_records[0].error == "background task did not finish within 0.1 s"
    assert result.answer == "it hung" and not result.grounded


def test_background_results_waited_for_before_forced_final(background_registry: ToolRegistry) -> None:
    llm = ScriptedLLM(
        [tool_call_response(("export_data", {"name": "z", "seconds": 0.1})), text_response("waiting"), text_response("final")]
    )
    result = run_tools(llm, QUESTION, background_registry, max_steps=1)
    assert_every_request_valid(llm)
    assert "<status>completed</status>" in _notification(llm.calls[-1].messages)["content"]
    assert llm.calls[-1].tools is None  # the tool-less turn after the bound, once the results are in
    assert result.stopped_reason == "answer" and result.tool_records[0].ok


def test_blank_answer_is_replaced_by_an_honest_summary(registry: ToolRegistry) -> None:
    llm = ScriptedLLM([tool_call_response(("add", {"a": 1, "b": 1})), text_response("  \n")])
    result = run_tools(llm, QUESTION, registry)
    assert result.stopped_reason == "answer"
    assert result.answer == 'The model gave no final answer. Tool results so far:\n- add({"a": 1, "b": 1}): 2'
    assert run_tools(ScriptedLLM([text_response("")]), QUESTION, registry).answer == "The model gave no final answer."


def test_non_object_message_is_a_chain_error(registry: ToolRegistry) -> None:
    llm = ScriptedLLM([text_response("never")])
    with pytest.raises(MessageChainError, match="message 1: must be an object"):
        run_tools(llm, [QUESTION[0], "hello"], registry)  # type: ignore[list-item]
    assert llm.calls == []


@pytest.mark.parametrize(
    "content",
    [
        '<tool_call>{"name": "add", "arguments": {"a": 2, "b": 3}}</tool_call>',
        '[TOOL_CALLS][{"name": "add", "arguments": {"a": 2, "b": 3}}]',
        '{"name": "add", "parameters": {"a": 2, "b": 3}}',
        "add(a=2, b=3)",
    ],
)
def test_tool_calls_written_as_text_are_run_as_real_calls(registry: ToolRegistry, content: str) -> None:
    llm = ScriptedLLM([text_response(content), text_response("5")])
    result = run_tools(llm, QUESTION, registry)
    assert_every_request_valid(llm)
    assert [(r.tool, r.arguments, r.result) for r in result.tool_records] == [("add", {"a": 2, "b": 3}, "5")]
    assistant = llm.calls[1].messages[-2]
    assert assistant["tool_calls"][0]["function"] == {"name": "add", "arguments": '{"a": 2, "b": 3}'}
    assert result.answer == "5"


def test_an_answer_that_merely_contains_json_is_not_a_call(registry: ToolRegistry) -> None:
    text = 'Use this config: {"name": "add", "arguments": {"a": 1}} and you are done.'
    result = run_tools(ScriptedLLM([text_response(text)]), QUESTION, registry)
    assert result.tool_records == () and result.answer == text


def test_a_refusal_is_the_answer_and_is_marked(registry: ToolRegistry) -> None:
    refusal = ChatResponse(AssistantMessage(content=None, refusal="I can't help with that."), finish_reason="stop")
    result = run_tools(ScriptedLLM([refusal]), QUESTION, registry)
    assert result.answer == "I can't help with that." and result.refused
