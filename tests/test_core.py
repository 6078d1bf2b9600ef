"""Router facade: routing, mode choice, fallbacks, keys, honest answers."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from router import (
    AllProvidersFailedError,
    MissingAPIKeyError,
    ProviderUnavailableError,
    Router,
    ScriptedLLM,
    UsageError,
    parse_config,
    text_response,
    tool_call_response,
    validate_messages,
)

CONFIG = textwrap.dedent(
    """\
    default: alpha
    fallbacks: [alpha, beta]
    retry: {max_wait_s: 0, cooldown_s: 60, failures_before_cooldown: 5}
    providers:
      alpha:
        client: openai
        base_url: https://alpha.example/v1
        api_key_env: ROUTER_TEST_ALPHA_KEY
        aliases: [alpha, 阿尔法]
        max_retries: 0
        models:
          - {id: alpha-1, default: true, price_in: 1.0, price_out: 2.0}
          - {id: alpha-big}
      beta:
        client: openai
        base_url: https://beta.example/v1
        api_key_env: ROUTER_TEST_BETA_KEY
        aliases: [beta]
        max_retries: 0
        models:
          - {id: beta-1, default: true}
      tiny:
        client: mock
        aliases: [tiny]
        small_model: true
        capabilities: {tools: false}
        models:
          - {id: tiny-1, default: true}
    """
)


@pytest.fixture(autouse=True)
def _keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTER_TEST_ALPHA_KEY", "alpha-secret")
    monkeypatch.setenv("ROUTER_TEST_BETA_KEY", "beta-secret")


def make(text: str = CONFIG, **clients: ScriptedLLM) -> Router:
    return Router(parse_config(text, "test.yaml"), clients=clients, sleep=lambda _s: None)


def test_cot_answer_reports_route_mode_usage_and_cost() -> None:
    alpha = ScriptedLLM([text_response("Because 2+2=4.")])
    answer = make(alpha=alpha).ask("Why is 2+2 equal to 4? Explain step by step.", mode="cot")
    assert answer.text == "Because 2+2=4."
    assert (answer.provider, answer.model, answer.mode) == ("alpha", "alpha-1", "cot")
    assert answer.route_reason == "default provider"
    assert answer.mode_reason == "requested"
    assert answer.usage.completion_tokens > 0
    assert answer.cost == pytest.approx(answer.usage.completion_tokens * 2.0 / 1_000_000)
    assert answer.tool_records == () and answer.warnings == ()


def test_react_answer_records_tools_and_keeps_protocol() -> None:
    alpha = ScriptedLLM([tool_call_response(("calculator", {"expression": "789*654"})), text_response("516006")])
    answer = make(alpha=alpha).ask("帮我算一下 789*654", mode="react")
    assert answer.text == "516006"
    assert [(r.tool, r.arguments, r.error) for r in answer.tool_records] == [("calculator", {"expression": "789*654"}, None)]
    assert json.loads(answer.tool_records[0].result)["result"] == 516006
    assert answer.grounded is True
    assert answer.warnings == ()
    assert all(validate_messages(call.messages) == [] for call in alpha.calls)
    assert alpha.calls[0].tools, "react offers tools"


def test_react_answer_without_tools_is_flagged() -> None:
    alpha = ScriptedLLM([text_response("It is sunny, I guess.")])
    answer = make(alpha=alpha).ask("今天南京天气怎么样？", mode="react")
    assert answer.grounded is False
    assert any("without any tool call" in w for w in answer.warnings)


def test_mode_is_chosen_locally_without_model_calls() -> None:
    alpha = ScriptedLLM([text_response("plan A wins")] * 3)
    answer = make(alpha=alpha).ask("We need to cut cloud costs by 40%. What approaches exist and which should we start with?")
    assert answer.mode == "tot"
    assert len(alpha.calls) == 3  # generate, score, choose: no extra call to pick the mode
    assert set(answer.stages) == {"approaches", "scores", "choice"}


def test_question_request_routes_to_named_provider() -> None:
    beta = ScriptedLLM([text_response("beta here")])
    answer = make(beta=beta).ask("用 beta 回答：为什么天空是蓝色的？", mode="cot")
    assert answer.provider == "beta"
    assert "beta" in answer.route_reason


def test_explicit_provider_and_model_win() -> None:
    alpha = ScriptedLLM([text_response("big")])
    answer = make(alpha=alpha).ask("hello", mode="cot", provider="alpha", model="alpha-big")
    assert (answer.provider, answer.model) == ("alpha", "alpha-big")


def test_failure_falls_back_and_records_attempts() -> None:
    alpha = ScriptedLLM([ProviderUnavailableError("boom", provider="alpha", status=503)])
    beta = ScriptedLLM([text_response("from beta")])
    answer = make(alpha=alpha, beta=beta).ask("hello", mode="cot")
    assert answer.text == "from beta"
    assert answer.provider == "beta"
    kinds = [(a.provider, a.ok, a.error_kind) for a in answer.attempts]
    assert kinds == [("alpha", False, "unavailable"), ("beta", True, None)]


def test_all_providers_failing_raises_with_attempts() -> None:
    alpha = ScriptedLLM([ProviderUnavailableError("down", provider="alpha")])
    beta = ScriptedLLM([ProviderUnavailableError("down too", provider="beta")])
    with pytest.raises(AllProvidersFailedError) as info:
        make(alpha=alpha, beta=beta).ask("hello", mode="cot")
    assert [a.provider for a in info.value.attempts] == ["alpha", "beta"]


def test_default_without_key_moves_to_fallback_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROUTER_TEST_ALPHA_KEY")
    beta = ScriptedLLM([text_response("beta answers")])
    answer = make(beta=beta).ask("hello", mode="cot")
    assert answer.provider == "beta"
    skipped = answer.attempts[0]
    assert (skipped.provider, skipped.error_kind) == ("alpha", "no_key")
    assert "ROUTER_TEST_ALPHA_KEY" in (skipped.error or "")
    assert "alpha-secret" not in repr(answer)


def test_explicit_provider_without_key_is_an_error_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROUTER_TEST_ALPHA_KEY")
    with pytest.raises(MissingAPIKeyError) as info:
        make(beta=ScriptedLLM([])).ask("hello", mode="cot", provider="alpha")
    assert info.value.env_var == "ROUTER_TEST_ALPHA_KEY"
    assert "--provider mock" in str(info.value)


def test_no_key_anywhere_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROUTER_TEST_ALPHA_KEY")
    monkeypatch.delenv("ROUTER_TEST_BETA_KEY")
    with pytest.raises(MissingAPIKeyError, match="ROUTER_TEST_ALPHA_KEY"):
        make().ask("hello", mode="cot")


def test_provider_without_tools_runs_react_through_text_protocol() -> None:
    tiny = ScriptedLLM(
        [
            text_response('Thought: I should compute.\nAction: calculator\nAction Input: {"expression": "2+3"}'),
            text_response("Final Answer: 5"),
        ]
    )
    answer = make(tiny=tiny).ask("用计算器算一下两数之和", mode="react", provider="tiny")  # no expression: nothing to pre-run
    assert answer.text.strip() == "5"
    assert [r.tool for r in answer.tool_records] == ["calculator"]
    assert all(call.tools is None for call in tiny.calls), "no native tools sent to a tools:false provider"
    assert any("small local model" in w for w in answer.warnings)


def test_unknown_mode_and_empty_question_are_usage_errors() -> None:
    router = make(alpha=ScriptedLLM([]))
    with pytest.raises(UsageError, match="unknown mode 'poetry'"):
        router.ask("hi", mode="poetry")
    with pytest.raises(UsageError, match="empty"):
        router.ask("   ")


def test_from_yaml_follows_router_provider(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "providers.yaml"
    path.write_text(CONFIG, encoding="utf-8")
    monkeypatch.setenv("ROUTER_PROVIDER", "tiny")
    answer = Router.from_yaml(path).ask("hello", mode="cot")
    assert answer.provider == "tiny"


def test_history_reaches_the_model() -> None:
    alpha = ScriptedLLM([text_response("Your name is Ada.")])
    history = [{"role": "user", "content": "My name is Ada."}, {"role": "assistant", "content": "Hi Ada!"}]
    make(alpha=alpha).ask("What is my name?", mode="cot", history=history)
    sent = alpha.calls[0].messages
    assert {"role": "user", "content": "My name is Ada."} in sent
    assert sent[-1]["role"] == "user" and "What is my name?" in sent[-1]["content"]


def test_a_refusal_carries_a_warning() -> None:
    from router.types import AssistantMessage, ChatResponse

    refusal = ChatResponse(AssistantMessage(content=None, refusal="No."), finish_reason="stop")
    answer = make(alpha=ScriptedLLM([refusal])).ask("Why is the sky blue?", mode="cot")
    assert answer.text == "No." and answer.refused and any("refused" in w for w in answer.warnings)
    gateway = make(alpha=ScriptedLLM([refusal]))
    from router.aio import run_sync

    direct = run_sync(gateway.achat([{"role": "user", "content": "hi"}]))
    assert direct.text == "No." and direct.refused
    assert any("refused" in w for w in direct.warnings)
