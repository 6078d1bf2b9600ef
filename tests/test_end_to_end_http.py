"""The whole stack over real HTTP: Router -> resilience -> real clients -> fake server -> tool loop.

Each piece has its own suite; these tests check that they keep the protocol
rules together, as a user would run them: built from YAML, nothing injected.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from fake_openai_server import FakeOpenAIServer, RateLimited, ServerError, Text, ToolCalls, ToolsUnsupported

from router import Router, validate_messages

KEY = "sk-e2e-SECRET-0123456789abcdef"


def write_config(tmp_path: Path, first: FakeOpenAIServer, second: FakeOpenAIServer, client: str = "openai") -> Path:
    path = tmp_path / "providers.yaml"
    path.write_text(
        f"""\
default: first
fallbacks: [first, second]
retry: {{max_wait_s: 0.05, cooldown_s: 60, failures_before_cooldown: 5}}
providers:
  first:
    client: {client}
    base_url: {first.base_url}
    api_key_env: ROUTER_E2E_KEY
    max_retries: 1
    timeout_s: 5
    models: [{{id: first-model, default: true, price_in: 1, price_out: 2}}]
  second:
    client: {client}
    base_url: {second.base_url}
    api_key_env: ROUTER_E2E_KEY
    max_retries: 0
    timeout_s: 5
    models: [{{id: second-model, default: true}}]
""",
        encoding="utf-8",
    )
    return path


@pytest.fixture
def servers(make_fake_server: Callable[[], FakeOpenAIServer], monkeypatch: pytest.MonkeyPatch) -> tuple[FakeOpenAIServer, FakeOpenAIServer]:
    monkeypatch.setenv("ROUTER_E2E_KEY", KEY)
    monkeypatch.delenv("ROUTER_PROVIDER", raising=False)
    return make_fake_server(), make_fake_server()


def bodies(server: FakeOpenAIServer) -> list[dict]:
    return [r.body for r in server.requests if r.body is not None]


@pytest.mark.parametrize("client", ["openai", "litellm"])
def test_react_round_trip_keeps_the_protocol_on_the_wire(
    client: str, servers: tuple[FakeOpenAIServer, FakeOpenAIServer], tmp_path: Path
) -> None:
    first, second = servers
    first.enqueue(
        ToolCalls((("calculator", '{"expression": "789*654"}'), ("get_current_time", '{"timezone": "Asia/Tokyo"}'))),
        Text("789*654 = 516006; it is evening in Tokyo."),
    )
    router = Router.from_yaml(write_config(tmp_path, first, second, client))
    answer = router.ask("帮我算一下 789*654，再告诉我东京现在几点", mode="react")

    assert answer.text == "789*654 = 516006; it is evening in Tokyo."
    assert (answer.provider, answer.model) == ("first", "first-model")
    assert [r.tool for r in answer.tool_records] == ["calculator", "get_current_time"]
    assert json.loads(answer.tool_records[0].result)["result"] == 516006
    assert answer.grounded and answer.warnings == ()
    assert answer.cost is not None and answer.cost > 0

    sent = bodies(first)
    assert len(sent) == 2 and not second.requests
    assert all(validate_messages(body["messages"]) == [] for body in sent)
    assert sent[0]["tools"] and {t["function"]["name"] for t in sent[0]["tools"]} >= {"calculator", "get_current_time"}
    assistant, tool_1, tool_2 = sent[1]["messages"][-3:]
    assert assistant["content"] == ""  # not null: some servers reject it
    assert [c["function"]["arguments"] for c in assistant["tool_calls"]] == [
        '{"expression": "789*654"}',
        '{"timezone": "Asia/Tokyo"}',
    ]
    assert [tool_1["tool_call_id"], tool_2["tool_call_id"]] == [c["id"] for c in assistant["tool_calls"]]
    assert all(KEY not in json.dumps(body) for body in sent)


def test_retry_then_fallback_is_recorded(servers: tuple[FakeOpenAIServer, FakeOpenAIServer], tmp_path: Path) -> None:
    first, second = servers
    first.enqueue(RateLimited(retry_after=0.01), ServerError(503))
    second.enqueue(Text("second answers"))
    answer = Router.from_yaml(write_config(tmp_path, first, second)).ask("hello", mode="cot")
    assert answer.text == "second answers"
    assert answer.provider == "second"
    assert [(a.provider, a.ok, a.error_kind) for a in answer.attempts] == [
        ("first", False, "rate_limit"),
        ("first", False, "unavailable"),
        ("second", True, None),
    ]
    assert answer.attempts[0].wait_s == pytest.approx(0.01, abs=0.005)
    assert all(KEY not in (a.error or "") for a in answer.attempts)


def test_tools_refused_downgrades_to_text_react_and_is_remembered(
    servers: tuple[FakeOpenAIServer, FakeOpenAIServer], tmp_path: Path
) -> None:
    first, second = servers
    first.enqueue(
        ToolsUnsupported(),
        Text('Thought: compute it.\nAction: calculator\nAction Input: {"expression": "6*7"}'),
        Text("Final Answer: 42"),
        Text("Final Answer: still text mode"),
    )
    router = Router.from_yaml(write_config(tmp_path, first, second))
    answer = router.ask("计算 6*7", mode="react")
    assert answer.text.strip() == "42"
    assert [(r.tool, r.error) for r in answer.tool_records] == [("calculator", None)]
    assert answer.attempts[0].error_kind == "bad_request", answer.attempts
    sent = bodies(first)
    assert "tools" in sent[0] and all("tools" not in body for body in sent[1:])
    assert all(validate_messages(body["messages"]) == [] for body in sent)
    observation = sent[2]["messages"][-1]
    assert observation["role"] == "user" and "Observation:" in observation["content"] and "42" in observation["content"]

    again = router.ask("计算 1+1", mode="react")  # the downgrade is remembered: no tools sent at all
    assert again.text.strip() == "still text mode"
    assert "tools" not in bodies(first)[-1]
    assert not second.requests
