"""The mock provider as an offline demo: the question's language, the tools a question plainly needs
(built-ins and a user's own), distinct tot stages, deterministic and labelled as a mock."""

from __future__ import annotations

import json
import re

import pytest

from router import Router, ToolRegistry, tool
from router.clients.mock import MockLLM
from router.config import load_config
from router.routing.names import route_model
from router.routing.plan import plan


@tool
def order_status(order_id: str) -> dict[str, str]:
    """Look up an order.

    Args:
        order_id: the id printed on the receipt.
    """
    return {"order_id": order_id, "status": "shipped"}


@tool
def convert_currency(amount: float, source: str, target: str) -> str:
    """Convert money between currencies at today's exchange rate."""
    return f"{amount:g} {source} is {amount * 7:g} {target}"


@pytest.fixture(scope="module")
def router_() -> Router:
    registry = ToolRegistry.default()
    registry.register(order_status)
    registry.register(convert_currency)
    return Router.from_yaml(registry=registry)


def test_arithmetic_is_computed_by_the_calculator_and_answered_in_english(router_: Router) -> None:
    answer = router_.ask("How much is 12 * (3 + 4)?", provider="mock", mode="react")
    assert [(r.tool, r.ok) for r in answer.tool_records] == [("calculator", True)]
    assert "84" in answer.text and "{" not in answer.text, "the result is read, not dumped as JSON"
    assert answer.text.startswith("[mock]")


def test_a_chinese_question_gets_a_chinese_answer(router_: Router) -> None:
    answer = router_.ask("请计算 15*4 等于多少", provider="mock", mode="react")
    assert answer.text.startswith("根据工具结果") and "60" in answer.text and "[mock]" in answer.text
    plain = router_.ask("你好，介绍一下你自己", provider="mock", mode="cot")
    assert re.search(r"[\u4e00-\u9fff]", plain.text.split("：")[0]) and plain.text.startswith("[mock]")


def test_the_time_in_a_named_place_calls_the_time_tool(router_: Router) -> None:
    answer = router_.ask("What time is it in Tokyo right now?", provider="mock", mode="react")
    [record] = answer.tool_records
    assert record.tool == "get_current_time" and record.arguments == {"timezone": "Asia/Tokyo"}
    assert "Asia/Tokyo" in answer.text and json.loads(record.result)["time"][:5] in answer.text


def test_a_users_tool_is_called_by_name_with_arguments_from_the_question(router_: Router) -> None:
    answer = router_.ask("Where is my order B-2291?", provider="mock", mode="react")
    [record] = answer.tool_records
    assert record.tool == "order_status" and record.arguments == {"order_id": "B-2291"}
    assert "shipped" in answer.text and answer.grounded


def test_a_users_tool_is_called_by_its_description(router_: Router) -> None:
    answer = router_.ask("How much is 250 EUR in JPY at the current exchange rate?", provider="mock", mode="react")
    [record] = answer.tool_records
    assert record.tool == "convert_currency"
    assert record.arguments == {"amount": 250.0, "source": "EUR", "target": "JPY"}


@pytest.mark.parametrize("question", ["Tell me a joke about cats", "Why do people like music?", "Summarise the plot of Hamlet"])
def test_no_tool_is_called_without_a_plain_need(router_: Router, question: str) -> None:
    answer = router_.ask(question, provider="mock", mode="react")
    assert answer.tool_records == ()
    assert answer.text.startswith("[mock]") and question in answer.text


def test_tot_stages_are_three_distinct_approaches_scores_and_a_choice(router_: Router) -> None:
    answer = router_.ask("Which message queue should a five-person team adopt?", provider="mock", mode="tot")
    approaches = re.findall(r"^\d\. (.+)$", answer.stages["approaches"], re.M)
    assert len(approaches) == 3 and len(set(approaches)) == 3
    assert "Which message queue" not in answer.stages["approaches"], "stages do not echo the prompt"
    scores = [int(s) for s in re.findall(r"(\d+)/10", answer.stages["scores"])]
    assert len(scores) == 3
    best = scores.index(max(scores)) + 1
    assert f"approach {best}" in answer.stages["choice"].lower()
    zh = router_.ask("小团队应该选哪个消息队列？", provider="mock", mode="tot")
    assert "【方案】" in zh.text and len(set(re.findall(r"^\d\. (.+)$", zh.stages["approaches"], re.M))) == 3


def test_the_mock_is_deterministic() -> None:
    messages = [{"role": "user", "content": "Where is order Z-1?"}]
    tools = ToolRegistry([order_status]).schemas()
    first, second = MockLLM().chat(messages, tools=tools), MockLLM().chat(messages, tools=tools)
    assert [(c.name, c.arguments) for c in first.message.tool_calls] == [(c.name, c.arguments) for c in second.message.tool_calls]
    assert first.message.tool_calls[0].name == "order_status"


def test_a_named_provider_is_not_preceded_by_unneeded_no_key_skips(router_: Router, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DEEPSEEK_API_KEY", "OPENAI_API_KEY", "MOONSHOT_API_KEY", "DASHSCOPE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    answer = router_.ask("hello", provider="mock", mode="cot")
    assert [a.provider for a in answer.attempts] == ["mock"], answer.attempts


def test_the_no_key_notice_is_given_in_every_mode_when_the_embedded_model_answers(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    for name in ("DEEPSEEK_API_KEY", "OPENAI_API_KEY", "MOONSHOT_API_KEY", "DASHSCOPE_API_KEY", "ROUTER_PROVIDER"):
        monkeypatch.delenv(name, raising=False)
    config = load_config()
    for needs_tools in (False, True):  # cot/few_shot/tot, then react
        chosen = plan(config, route_model("hello", config), needs_tools=needs_tools, embedded_available=lambda: True)
        assert chosen.first.provider == "embedded"
        assert chosen.notice is not None and "DEEPSEEK_API_KEY" in chosen.notice


def test_models_listed_over_http_are_only_those_that_can_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DEEPSEEK_API_KEY", "OPENAI_API_KEY", "MOONSHOT_API_KEY", "DASHSCOPE_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-listing")
    ids = [model_id for model_id, _ in Router.from_yaml().models()]
    assert "openai/gpt-4o" in ids and "mock/mock-model" in ids
    assert not any(i.startswith(("deepseek/", "kimi/", "qwen/", "claude/")) for i in ids)
