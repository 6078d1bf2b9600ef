"""Property: whatever a model does, every request keeps the chain rules and the loop ends with an answer."""

from __future__ import annotations

import json
import os
import time
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from router.clients.mock import FunctionLLM, text_response, tool_call_response
from router.loop.chain import validate_messages
from router.loop.run import run_tools
from router.tools.registry import ToolRegistry, tool
from router.types import ChatResponse


@tool
def add(a: int, b: int) -> int:
    """Add."""
    return a + b


@tool
def explode(reason: str) -> str:
    """Raises."""
    raise RuntimeError(reason)


@tool
def slow(label: str) -> str:
    """Slower than the loop's tool timeout in these tests."""
    time.sleep(0.15)
    return label


@tool(background=True)
def job(name: str) -> dict[str, str]:
    """A short background job."""
    time.sleep(0.01)
    return {"done": name}


REGISTRY = ToolRegistry([add, explode, slow, job])

CALLS = st.one_of(
    st.builds(lambda a, b: ("add", {"a": a, "b": b}), st.integers(0, 3), st.integers(0, 3)),  # small range: repeats
    st.just(("add", '{"a": 1, "b": ')),  # broken JSON
    st.just(("add", "[1, 2]")),  # not an object
    st.just(("add", {"a": "x", "b": 1})),  # validation error
    st.just(("no_such_tool", {"q": 1})),
    st.just(("explode", {"reason": "bang"})),
    st.just(("slow", {"label": "late"})),
    st.builds(lambda n: ("job", {"name": n}), st.sampled_from(["a", "b"])),
)

TURNS = st.one_of(
    st.tuples(st.just("text"), st.text(min_size=1, max_size=12), st.sampled_from(["stop", "length"])),
    st.tuples(st.just("tools"), st.lists(CALLS, min_size=1, max_size=4), st.sampled_from(["tool_calls", "tool_calls", "length"])),
)


def _react(call: tuple[str, Any]) -> str:
    name, arguments = call
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return f"Thought: use a tool\nAction: {name}\nAction Input: {raw}"


def _script(turns: list[tuple[str, Any, str]], protocol: str) -> list[ChatResponse]:
    script = []
    for kind, body, finish in turns:
        if kind == "text":
            text = body if protocol == "native" else f"Final Answer: {body}"
            script.append(text_response(text, finish_reason=finish))
        elif protocol == "native":
            script.append(tool_call_response(*body, finish_reason=finish))
        else:
            script.append(text_response(_react(body[0]), finish_reason="length" if finish == "length" else "stop"))
    return script


@settings(max_examples=int(os.environ.get("ROUTER_PROPERTY_EXAMPLES", "60")), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    turns=st.lists(TURNS, min_size=0, max_size=7),
    protocol=st.sampled_from(["native", "native", "text"]),
    max_steps=st.integers(1, 4),
    max_repeats=st.integers(1, 2),
)
def test_any_script_keeps_the_chain_valid_and_ends_with_an_answer(
    turns: list[tuple[str, Any, str]], protocol: str, max_steps: int, max_repeats: int
) -> None:
    script = _script(turns, protocol)

    def reply(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> ChatResponse | str:
        return script.pop(0) if script else ("Final Answer: fallback" if protocol == "text" else "fallback")

    llm = FunctionLLM(reply)
    result = run_tools(
        llm,
        [{"role": "user", "content": "go"}],
        REGISTRY,
        protocol=protocol,  # type: ignore[arg-type]
        max_steps=max_steps,
        max_repeats=max_repeats,
        max_continuations=1,
        tool_timeout_s=0.05,
    )

    for recorded in llm.calls:
        assert validate_messages(recorded.messages) == []
    assert validate_messages(list(result.messages)) == []
    assert isinstance(result.answer, str) and result.answer.strip()
    assert result.stopped_reason in {"answer", "max_steps", "repeated_calls", "length"}
    assert result.steps == len(llm.calls)
    assert result.grounded == any(record.ok for record in result.tool_records)
    if result.stopped_reason in {"max_steps", "repeated_calls"}:
        assert "[注意 / note: stopped" in result.answer
    assert all(record.error is None or record.error for record in result.tool_records)
    assert not any(r.error and r.error.startswith("still running in background") for r in result.tool_records)
    if protocol == "native":
        tool_ids = [m["tool_call_id"] for m in result.messages if m["role"] == "tool"]
        assert tool_ids == [record.call_id for record in result.tool_records]
        assert sum(1 for m in result.messages if m.get("tool_calls")) <= max_steps  # tool turns are bounded
    else:
        assert all(recorded.tools is None for recorded in llm.calls)
        observations = [m for m in result.messages if m["role"] == "user" and m["content"].startswith("Observation: ")]
        assert len(observations) == len(result.tool_records) <= max_steps
    # a call that could not be read never ran
    for record in result.tool_records:
        if record.arguments is None:
            assert record.result == ""
