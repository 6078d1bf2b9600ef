"""The local difficulty score: range, determinism, Chinese, cheap import, calibration on unseen questions.

``tests/data/difficulty_holdout.jsonl`` is a sample of the holdout that
``bench/train_difficulty.py`` keeps out of both the fit and the calibration sample
of the shipped parameters (RouteLLM's GSM8K/MMLU tables, Apache-2.0).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from router.errors import UsageError
from router.routing.difficulty import decide, difficulty, threshold_for_share

REPO = Path(__file__).resolve().parents[1]
HOLDOUT = REPO / "tests" / "data" / "difficulty_holdout.jsonl"
MODEL = REPO / "router" / "routing" / "difficulty_model.json"


def holdout() -> list[dict[str, object]]:
    with HOLDOUT.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


QUESTIONS = [
    "hi",
    "",
    "What is the capital of France?",
    "Prove that there are infinitely many primes p such that p + 2 is also prime, or explain why this is open.",
    "Janet has 3 times as many apples as Tom. Tom gives her 4, and then she has 22. How many did Tom start with?",
    "小明有12个苹果，给了小红一半，又买了5个，现在一共有多少个？",
    "请证明：对任意正整数 n，n^3 - n 能被 6 整除。",
    "用 Python 写一个快速排序，并分析它的时间复杂度",
    "帮我写一首关于春天的小诗",
    "x" * 50_000,
    "数" * 20_000,
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_score_is_a_probability_and_deterministic(question: str) -> None:
    first = difficulty(question)
    assert 0.0 <= first <= 1.0
    assert difficulty(question) == first


def test_chinese_questions_are_scored_by_content() -> None:
    proof = difficulty("请证明：对任意正整数 n，n^3 - n 能被 6 整除，并写出详细的推导过程。")
    poem = difficulty("帮我写一首关于春天的小诗")
    greeting = difficulty("你好")
    assert proof > poem
    assert proof > greeting


def test_reasoning_heavy_questions_score_above_chit_chat() -> None:
    hard = difficulty(
        "Let f(x) = x^3 - 6x^2 + 11x - 6. Find all real roots, then compute the integral of f from 0 to 3 "
        "and explain each step."
    )
    easy = difficulty("Write a short, friendly greeting for a birthday card.")
    assert hard > easy


def test_threshold_for_share_is_monotone_and_bounded() -> None:
    thresholds = [threshold_for_share(s) for s in (0.0, 0.1, 0.2, 0.3, 0.5, 0.8, 1.0)]
    assert thresholds == sorted(thresholds, reverse=True)
    assert thresholds[-1] == 0.0
    assert thresholds[0] > 1.0  # no score reaches it: nothing goes up
    for bad in (-0.1, 1.5, "0.3", True, float("nan")):
        with pytest.raises(UsageError):
            threshold_for_share(bad)  # type: ignore[arg-type]


def test_holdout_is_outside_the_fitted_and_calibrated_questions() -> None:
    """The fixture obeys the holdout rule recorded with the parameters."""
    import hashlib

    model = json.loads(MODEL.read_text(encoding="utf-8"))
    percent = model["holdout"]["percent"]
    for record in holdout():
        digest = hashlib.sha1(str(record["prompt"]).encode("utf-8")).hexdigest()
        assert int(digest[:8], 16) % 100 < percent


@pytest.mark.parametrize("share", [0.2, 0.3, 0.5])
def test_calibration_hits_the_target_share_on_unseen_questions(share: float) -> None:
    threshold = threshold_for_share(share)
    records = holdout()
    routed = sum(1 for r in records if decide(str(r["prompt"]), threshold=threshold).tier == "strong")
    assert abs(routed / len(records) - share) <= 0.05, (share, routed / len(records))


def test_score_ranks_unseen_questions_better_than_chance() -> None:
    """Routing the top 30% of held-out questions by score gains more than a random 30% would."""
    records = holdout()
    ranked = sorted(records, key=lambda r: -difficulty(str(r["prompt"])))
    top = ranked[: int(0.3 * len(records))]
    gain_top = sum(float(r["strong"]) - float(r["weak"]) for r in top) / len(top)  # type: ignore[arg-type]
    gain_all = sum(float(r["strong"]) - float(r["weak"]) for r in records) / len(records)  # type: ignore[arg-type]
    assert gain_top > 1.2 * gain_all


def test_decide_explains_itself() -> None:
    decision = decide("hi", threshold=0.5)
    assert decision.tier == "fast"
    assert decision.reason.startswith(f"difficulty {decision.score:.2f} < 0.50 -> fast")
    assert decide("hi", threshold=0.0).tier == "strong"
    with pytest.raises(UsageError):
        decide("hi", threshold=0.5, strong_share=0.3)
    with pytest.raises(UsageError):
        difficulty(123)  # type: ignore[arg-type]


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


def test_option_and_stem_shape_features_read_english_and_chinese() -> None:
    from router.routing.difficulty_features import FEATURE_NAMES, features

    def named(question: str) -> dict[str, float]:
        row = features(question)
        assert len(row) == len(FEATURE_NAMES)
        return dict(zip(FEATURE_NAMES, row, strict=True))

    mc = named("Which of the following is NOT a prime?\nA. 2\nB. 3\nC. 9\nD. all of the above\nAnswer:")
    assert mc["negated_stem"] == mc["catch_all_option"] == mc["which_of_the_following"] == 1.0
    assert mc["open_stem_words"] == 0.0  # open-question copies stay silent for multiple choice
    english = named("Tom buys half a dozen eggs for $3.50. How many more than 2 does he have?")
    chinese = named("小明用了一半的钱，又花了3.5元，比小红多了多少？")
    for name in ("stem_fractions", "stem_money", "stem_decimals", "stem_compare"):
        assert english[name] > 0.0 and chinese[name] > 0.0, name
        assert english[f"open_{name}"] == english[name]
