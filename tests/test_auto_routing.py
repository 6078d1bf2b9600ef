"""``model="auto"``: the mode and the difficulty score pick the tier; the planner checks keys and context."""

from __future__ import annotations

import io
import json
import textwrap

import pytest

from router import Router, ScriptedLLM, UsageError, parse_config, text_response, tool_call_response
from router.routing.auto import LatencyBook, choose
from router.routing.difficulty import difficulty

CONFIG = textwrap.dedent(
    """\
    default: cheap
    fallbacks: [cheap]
    retry: {max_wait_s: 0}
    limits: {max_question_chars: 2000000}  # the window check, not the size cap, is under test here
    routing:
      strategy: fixed
      threshold: 0.5
      tiers:
        fast: [cheap/cheap-1, notools/plain-1]
        strong: [big/big-1]
        reasoning: [thinker/think-1]
    providers:
      cheap:
        client: mock
        models: [{id: cheap-1, context_window: 400, price_in: 0.1, price_out: 0.2}]
      notools:
        client: mock
        capabilities: {tools: false}
        models: [{id: plain-1, price_in: 0.01, price_out: 0.01}]
      big:
        client: mock
        aliases: [bigco]
        models: [{id: big-1, context_window: 100000, price_in: 5, price_out: 15}]
      thinker:
        client: mock
        models: [{id: think-1, context_window: 64000, price_in: 1, price_out: 4}]
    """
)
HARD = (
    "Let f be a continuous function on [0, 1] with f(0) = f(1). Prove that for every positive integer n there "
    "exists x such that f(x + 1/n) = f(x), and determine whether the statement holds for non-integer reciprocals."
)
EASY = "hi there"


@pytest.fixture
def config():  # type: ignore[no-untyped-def]
    return parse_config(CONFIG, "auto.yaml")


def scripted(name: str, *replies: object) -> ScriptedLLM:
    return ScriptedLLM(list(replies) or [text_response(f"from {name}")] * 4, provider=name, model=name)  # type: ignore[arg-type]


def router(config, **clients: ScriptedLLM) -> Router:  # type: ignore[no-untyped-def]
    names = ("cheap", "notools", "big", "thinker")
    return Router(config, clients={n: clients.get(n) or scripted(n) for n in names})


def test_the_score_orders_a_proof_above_a_greeting() -> None:
    assert difficulty("Prove that there are infinitely many primes.") > difficulty(EASY)


def with_threshold(value: float):  # type: ignore[no-untyped-def]
    """The same config with every question scored hard (0.0) or easy (1.0): tier rules tested apart from the score."""
    return parse_config(CONFIG.replace("threshold: 0.5", f"threshold: {value}"), "auto.yaml")


def test_tier_per_mode() -> None:
    easy, hard = with_threshold(1.0), with_threshold(0.0)
    assert choose(HARD, "tot", easy).tier == "reasoning"  # comparing plans always goes up
    assert choose(HARD, "few_shot", hard).tier == "fast"  # template extraction always goes to the cheapest
    assert choose(HARD, "cot", easy).tier == "fast"
    judged = choose(HARD, "cot", hard)
    assert judged.tier == "reasoning" and judged.reason.startswith("auto: maths, difficulty ")
    assert "hard cot -> reasoning tier: thinker/think-1" in judged.reason
    assert choose(HARD, "react", hard).tier == "strong"  # react follows the score, among tool-capable models


@pytest.mark.parametrize(
    ("question", "task"),
    [
        ("Write a Rust function that parses an ISO 8601 date without a crate", "coding"),
        ("给我写一首关于故乡的现代诗", "writing"),
        ("把这段话翻译成英文：明天上午十点开会", "translation"),
    ],
)
def test_the_route_reason_names_the_task_type(question: str, task: str) -> None:
    judged = choose(question, "cot", with_threshold(0.5))
    assert judged.reason.startswith(f"auto: {task}, difficulty {judged.score:.2f} ")
    assert ("-> strong" in judged.reason) == (judged.score >= 0.5)


def test_within_a_tier_the_cheaper_then_the_faster_comes_first(config) -> None:  # type: ignore[no-untyped-def]
    assert choose(EASY, "cot", config).candidates == (("notools", "plain-1"), ("cheap", "cheap-1"))
    book = LatencyBook()
    book.observe("cheap", "cheap-1", 0.2)
    assert choose(EASY, "cot", config, book).candidates[0] == ("notools", "plain-1")  # price first


def test_react_never_gets_a_model_without_native_tools(config) -> None:  # type: ignore[no-untyped-def]
    choice = choose(EASY, "react", config)
    assert choice.candidates == (("cheap", "cheap-1"),)
    r = router(config, cheap=scripted("cheap", tool_call_response(("calculator", {"expression": "2+2"})), text_response("4")))
    answer = r.ask("What is 2+2?", mode="react", model="auto")
    assert (answer.provider, answer.text) == ("cheap", "4")


def test_auto_answers_and_says_why() -> None:
    answer = router(with_threshold(0.0)).ask(HARD, mode="cot", model="auto")
    assert answer.provider == "thinker"
    assert answer.route_reason.startswith("auto: maths, difficulty") and answer.route_reason.endswith("thinker/think-1")


def test_strategy_auto_in_yaml_applies_without_asking(config) -> None:  # type: ignore[no-untyped-def]
    auto = parse_config(CONFIG.replace("strategy: fixed", "strategy: auto"), "auto.yaml")
    assert router(auto).ask(HARD, mode="tot").provider == "thinker"
    assert router(config).ask(HARD, mode="tot").provider == "cheap"  # fixed: today's behaviour, the default


def test_an_explicit_request_beats_auto(config) -> None:  # type: ignore[no-untyped-def]
    auto = parse_config(CONFIG.replace("strategy: fixed", "strategy: auto"), "auto.yaml")
    assert router(auto).ask(HARD, mode="tot", provider="big").provider == "big"
    assert router(auto).ask("ask bigco: " + HARD, mode="tot").provider == "big"
    assert router(auto).ask(EASY, mode="cot", model="strong").provider == "big"  # a tier named as the model


def test_a_prompt_too_large_for_a_window_goes_to_a_larger_one_before_any_call(config) -> None:  # type: ignore[no-untyped-def]
    cheap = scripted("cheap")
    r = router(config, cheap=cheap)
    long_question = "Summarise: " + "lorem ipsum dolor sit amet " * 200  # ~1,800 tokens > 80% of 400
    answer = r.ask(long_question, mode="cot")
    assert cheap.calls == [] and answer.provider == "thinker"  # the smallest window that fits
    skip = next(a for a in answer.attempts if a.provider == "cheap")
    assert skip.error_kind == "context_window" and "400-token window" in (skip.error or "")
    with pytest.raises(UsageError, match="fits no configured model"):
        r.ask("x " * 400_000, mode="cot")


def test_cli_model_auto_prints_the_route_reason(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from router.cli import main

    path = tmp_path / "providers.yaml"
    path.write_text(CONFIG.replace("threshold: 0.5", "threshold: 0.0"), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["--config", str(path), "--model", "auto", "--mode", "cot", "--json", HARD], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    answer = json.loads(out.getvalue())
    assert answer["provider"] == "thinker" and answer["route_reason"].startswith("auto: maths, difficulty")
    err = io.StringIO()
    assert main(["--config", str(path), "--model", "auto", "--mode", "cot", HARD], stdout=io.StringIO(), stderr=err) == 0
    assert "[route] thinker/think-1: auto: maths, difficulty" in err.getvalue()
