"""The local difficulty score: range, determinism, ordering by kind of work, reasons, cheap import.

How well it routes is measured by ``bench/eval_routing.py`` (leave-one-source-out APGR), not here:
these are behaviour checks on questions written for this file, not taken from any training table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from router.errors import UsageError
from router.routing.difficulty import decide, difficulty, exam_item, multiple_choice, threshold_for_share
from router.routing.difficulty_features import (
    WORD_PROBLEM_FEATURES,
    digit_share,
    exam_options,
    story_readings,
    word_problem,
)

REPO = Path(__file__).resolve().parents[1]
MODEL = REPO / "router" / "routing" / "difficulty_model.json"

QUESTIONS = [
    "hi",
    "",
    "What is the capital of France?",
    "Prove that there are infinitely many primes p such that p + 2 is also prime, or explain why this is open.",
    "小明有12个苹果，给了小红一半，又买了5个，现在一共有多少个？",
    "用 Python 写一个快速排序，并分析它的时间复杂度",
    "x" * 50_000,
    "数" * 20_000,
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_score_is_a_probability_and_deterministic(question: str) -> None:
    first = difficulty(question)
    assert 0.0 <= first <= 1.0
    assert difficulty(question) == first


# Where a strong model pays off: coding, maths, extraction, multi-step reasoning above writing,
# roleplay, chat and general knowledge, in both languages.
HARD_KINDS = [
    "Implement a thread-safe bounded queue in Java with blocking put and take, and explain the memory model guarantees.",
    "Show that every finite group of prime order is cyclic.",
    "用 C++ 实现一个支持撤销操作的文本编辑器数据结构，并分析复杂度",
    "证明：任意正整数 n 都满足 1+3+5+…+(2n-1) = n²",
    "Three logicians walk into a bar; the bartender asks if all want beer. The first two say 'I don't know', the third says 'yes'. Explain the reasoning precisely.",
]
EASY_KINDS = [
    "Write a cheerful haiku about spring rain.",
    "你好呀，今天过得怎么样？",
    "Pretend you are a friendly pirate and greet me.",
    "帮我写一段给同事的生日祝福",
    "Thanks, that was helpful!",
]


def test_kinds_of_work_order_the_score() -> None:
    hard = [difficulty(q) for q in HARD_KINDS]
    easy = [difficulty(q) for q in EASY_KINDS]
    assert min(hard) > max(easy), (hard, easy)


def test_within_a_kind_a_longer_problem_scores_higher() -> None:
    short = "A shop sells pens at 3 dollars each. How much do 4 pens cost?"
    long = (
        "A shop sells pens at 3 dollars each and notebooks at 5 dollars each. On Monday it sold twice as many pens "
        "as notebooks, on Tuesday 7 more notebooks than on Monday and half as many pens, and the two days brought "
        "in 262 dollars together. How many notebooks were sold on Tuesday?"
    )
    assert difficulty(long) > difficulty(short)


def test_threshold_for_share_is_monotone_and_bounded() -> None:
    shares = [0.0, 0.1, 0.3, 0.5, 0.9, 1.0]
    thresholds = [threshold_for_share(s) for s in shares]
    assert thresholds == sorted(thresholds, reverse=True)
    assert thresholds[0] > 1.0 and thresholds[-1] == 0.0
    for bad in (-0.1, 1.5, True, "0.3"):
        with pytest.raises(UsageError):
            threshold_for_share(bad)  # type: ignore[arg-type]


def test_decide_names_the_task_type_in_its_reason() -> None:
    decision = decide("Write a SQL query that finds duplicate emails", threshold=0.0)
    assert decision.tier == "strong" and decision.task == "coding"
    assert decision.reason == f"coding, difficulty {decision.score:.2f} >= 0.00 -> strong"
    assert decide("hi", threshold=0.99).reason.endswith("< 0.99 -> fast")
    with pytest.raises(UsageError):
        decide("hi", threshold=0.5, strong_share=0.3)
    with pytest.raises(UsageError):
        difficulty(123)  # type: ignore[arg-type]


def test_multiple_choice_is_read_from_option_lines() -> None:
    assert multiple_choice("Which gas do plants absorb?\nA. Oxygen\nB. Carbon dioxide\nC. Helium\nD. Neon")
    assert multiple_choice("下列哪项正确？\n(a) 甲\n(b) 乙")
    assert not multiple_choice("Plan A or plan B: which is better for a small team?")


def test_a_request_wrapping_options_is_not_a_bare_exam_item() -> None:
    item = "The tide is caused mainly by\nA. wind\nB. the Moon's gravity\nC. earthquakes\nD. salinity\nAnswer:"
    assert exam_item(item)
    assert not exam_item("Please read the question below and pick the best option.\n" + item)
    assert not exam_item("请阅读下面的题目并选择正确答案。\n" + item)
    assert not exam_item("Plan A or plan B: which is better for a small team?")


def test_an_exam_item_full_of_calculation_scores_below_a_scenario_of_the_same_length() -> None:
    scenario = (
        "A tenant signs a lease that forbids pets, later adopts a dog with the landlord's spoken consent, and the "
        "landlord's successor now seeks eviction. The tenant's strongest argument is that\nA. the clause is void\n"
        "B. the consent waived the clause\nC. the successor lacks standing\nD. dogs are not pets\nAnswer:"
    )
    calculation = (
        "A 2.5 kg mass at 3.0 m/s hits a 1.5 kg mass at rest; they stick. With g = 9.8 m/s2, 0.25 friction, and "
        "1.2 m of track, 4.1 s later the pair's speed in m/s is closest to what (to 2 decimals)?\nA. 1.88\nB. 0.94"
        "\nC. 2.31\nD. 0.47\nAnswer:"
    )
    assert exam_item(scenario) and exam_item(calculation)
    assert digit_share(calculation) > digit_share(scenario)
    assert difficulty(calculation) < difficulty(scenario)


def test_a_word_problem_with_more_steps_scores_higher_than_one_of_the_same_length() -> None:
    one_step = "Tom has 12 marbles in a big glass jar on the shelf of his room. How many marbles does Tom have in it?"
    chained = "Tom has 12 marbles, gives a third to Ann, then buys 5 more than he gave. How many marbles are left?"
    features = dict(zip(WORD_PROBLEM_FEATURES, word_problem(chained), strict=True))
    assert features["fraction"] == 1.0 and features["comparison"] == 1.0 and features["quantities"] == 2.0
    assert abs(len(one_step) - len(chained)) < 10
    assert difficulty(chained) > difficulty(one_step)


def test_a_word_problem_that_splits_among_people_in_stages_scores_above_a_plain_one() -> None:
    plain = "Maria has 24 red apples and 15 green apples in her basket at home. How many apples does Maria have?"
    chained = "Ana has 37 cards and gives a third to Ben and Cal, then Dee takes half of the rest. How many are left?"
    readings = dict(zip(WORD_PROBLEM_FEATURES, word_problem(chained), strict=True))
    assert readings["entities"] == 3.0 and readings["fraction_count"] == 2.0 and readings["stages"] == 3.0  # third, then, rest
    assert readings["unround_figures"] == 1.0 and readings["complement"] == 1.0
    assert abs(len(plain) - len(chained)) < 10
    assert difficulty(chained) > difficulty(plain)


def test_a_word_problem_reads_its_people_figures_and_question() -> None:
    text = ("Ana buys 3 boxes of 125 stamps from Ben. He gives her 2.5 times as many. "
            "If she sells the rest, how many does she have left?")
    r = dict(zip(WORD_PROBLEM_FEATURES, word_problem(text), strict=True))
    assert r["entities"] == 1.0  # "Ben"; a sentence's first word ("Ana", "He") is not counted as a name
    assert r["long_figures"] == 1.0 and r["longest_figure"] == 3.0 and r["decimal_figures"] == 1.0
    assert r["questions"] == 1.0 and r["question_quantities"] == 0.0 and r["hypothetical"] == 1.0
    assert r["complement"] == 1.0 and r["multiplicative"] == 1.0


def test_a_decision_takes_the_word_problem_readings_only_of_a_story() -> None:
    story = "Lena bakes 48 rolls, sells three quarters of them at the fair and gives 5 to her aunt. How many are left?"
    assert story_readings(story) == word_problem(story)
    equation = "Solve for x when 3x + 7 = 25 and then check the value you found by substituting it back in."
    terse = "What is 17 times 23?"
    for text in (equation, terse):
        assert story_readings(text) is None


def test_an_exam_items_options_are_read_without_their_letters() -> None:
    item = ("Which organ filters the blood?\nA. The kidney\n(B) The lung,\nstill breathing\nC) The skin\nD. The ear\n"
            "Answer:")
    assert exam_options(item) == "The kidney The lung, still breathing The skin The ear"
    assert exam_options("No options here, just a question?") == ""


def test_an_exam_items_embedding_reads_its_options_not_its_stem() -> None:
    """Two items with the same options and stems of the same length (no digits) score the same: the
    embedding term reads what the options are, the stem counts by its length."""
    options = "\nA. a tax on imports\nB. a subsidy for exports\nC. a quota on steel\nD. a tariff on grain\nAnswer:"
    first = "Which policy would a small open economy use to protect its farmers?" + options
    second = "Which measure would a large trading nation use to shield its mines?" + options
    assert len(first) == len(second) and exam_item(first) and exam_item(second)
    assert difficulty(first) == difficulty(second)
    other = first.replace("a quota on steel", "a ban on wheat")
    assert difficulty(other) != difficulty(first) or exam_options(other) == exam_options(first)


def test_shipped_parameters_carry_their_provenance() -> None:
    data = json.loads(MODEL.read_text(encoding="utf-8"))
    assert data["version"] == 5 and "LICENSES.difficulty_model.md" in data["about"]
    assert data["branches"]["choice"]["semantic"]["embedding"] == "wordllama l2_supercat_256"
    assert data["branches"]["choice"]["semantic"]["reading"] == "options"
    assert set(data["loso_apgr"]) == {"gsm8k", "mmlu", "arena_bench_v1", "h2o", "routerarena"}
    licences = (MODEL.parent / "LICENSES.difficulty_model.md").read_text(encoding="utf-8")
    assert licences.count("Apache License") >= 4 and "RouterArena" in licences and "arena-hard-auto" in licences
    assert "wordllama" in licences and "MIT License" in licences


def test_import_loads_neither_the_parameters_nor_heavy_modules() -> None:
    code = (
        "import sys, router, router.routing.difficulty as d\n"
        "assert d._params.cache_info().currsize == 0, 'parameters loaded at import'\n"
        "heavy = [m for m in ('numpy', 'json', 'pydantic', 'yaml') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "assert 0 <= router.difficulty('What is 365*24?') <= 1\n"
        "assert d._params.cache_info().currsize == 1\n"
        "assert 'numpy' not in sys.modules\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
