"""How likely the strong tier answers a question better than the fast one.

``difficulty(question)`` reads the question's understanding (``router.understanding``, the same
reading the mode choice uses, so the two never disagree about what a question is). Bare exam items
(options on their own lines and nothing asked of the model before them) and everything else are two
branches, because they gain differently:

* open questions and requests: a *task-type prior*, blended by the task probabilities (coding, maths,
  extraction and multi-step reasoning gain; writing, roleplay, humanities and general knowledge gain
  little), the question's log length standardised within its task type, and for a maths word problem
  its structure (``difficulty_features.word_problem``: a problem that chains more steps is harder);
* exam items: their length (long scenarios gain most), their digit share (calculations least), and
  what their options are: a ridge over the static embedding of the options' text
  (``difficulty_features.exam_options``, ``routing.semantic``: wordllama's token vectors, read from its
  wheel, loaded on the first exam item, never at import).

The sum is squashed to [0, 1] by a logistic of its value standardised within the branch (0.5 is a
typical question of its branch). Parameters are trained by ``bench/train_difficulty.py`` on every
routing table in shared/ (RouteLLM's GSM8K and MMLU, arena-hard-auto's arena_bench_v1, h2o-LLM-eval,
RouterArena: every model in them, each source weighing the same) and shipped as
``difficulty_model.json`` next to this file, with the tables' licences in
``LICENSES.difficulty_model.md``. Figures: ``bench/eval_routing.py`` (leave-one-source-out APGR, new
GSM8K questions, MMLU subjects held out). Local and deterministic: no network, no model call, pure
Python. The JSON is read on the first call, not at import.

``threshold_for_share(0.3)`` turns a cost/quality knob ("send about 30% of the questions up a tier")
into a score threshold, using the quantiles of the scores of the fitted prompts (each source
weighing the same) shipped with the parameters; ``routing.share.ShareTracker`` then keeps the share
true on the traffic a router actually sees.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from router.errors import ConfigError, UsageError
from router.routing.difficulty_features import (
    WORD_PROBLEM_FEATURES,
    digit_share,
    exam_options,
    story_readings,
)
from router.routing.semantic import DIM as SEMANTIC_DIM
from router.routing.semantic import EMBEDDING as SEMANTIC_EMBEDDING
from router.routing.semantic import Projection, projection

_MODEL_FILE = "difficulty_model.json"
SEMANTIC_READING = "options"
"""What the exam branch's embedding weights read (``difficulty_features.exam_options``), checked on load."""
_MATHS = 1
"""Index of "maths" in ``TASK_TYPES`` (checked when the parameters load)."""
DEFAULT_STRONG_SHARE = 0.3
_CHOICE_LINE = re.compile(r"^\s*\(?[A-Da-d][.):]\s", re.MULTILINE)
"""Compiled at import: one small pattern, a few microseconds."""
_REQUEST_OPENING = re.compile(r"\s*(?:please|read|answer|choose|select|pick|determine|decide|identify|solve)\b|\s*请",
                              re.IGNORECASE)
"""A text that opens by asking the model to do something is a request, even with options in it."""


@dataclass(frozen=True)
class _Branch:
    prior: tuple[float, ...]
    length_mean: tuple[float, ...]
    length_sd: tuple[float, ...]
    alpha: float
    gamma: float
    centre: float
    spread: float
    """The raw score's mean and spread on the branch's fitted questions: the squash standardises by them."""
    word_problem: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]] | None = None
    """Mean, scale and weights over ``difficulty_features.word_problem`` (open branch; maths questions)."""
    beta: float = 0.0
    word_problem_base: float = 0.0
    """Added (times ``beta``) to a word problem read as maths: a plain one adds nothing, a chained one more."""
    digits: tuple[float, float, float] | None = None
    """Mean, spread and weight of ``difficulty_features.digit_share`` (exam branch)."""
    semantic: tuple[tuple[float, ...], float] | None = None
    """Weights over ``routing.semantic.mean_vector`` and an offset (exam branch): what an exam item is about."""


@dataclass(frozen=True)
class _Params:
    branches: dict[str, _Branch]
    calibration: tuple[float, ...]
    """Ascending score quantiles of the calibration sample (evenly spaced, 0 to 1)."""


def multiple_choice(question: str) -> bool:
    """Options on their own lines ("A. ...", "(b) ..."): at least two of them."""
    return len(_CHOICE_LINE.findall(question[:4000])) >= 2


def exam_item(question: str) -> bool:
    """A bare multiple-choice item: options, and nothing addressed to the model before them.

    Exam items and requests gain differently: on bare items answered with a letter the strong model
    gains most on long scenarios and least on calculations, while a request that wraps a question
    ("Please read the following question and ...") gains by its kind of work like any request."""
    return multiple_choice(question) and _REQUEST_OPENING.match(question) is None


@dataclass(frozen=True)
class Difficulty:
    """One decision: the score, the threshold it was compared with, the tier chosen, and the task type read."""

    score: float
    threshold: float
    tier: Literal["fast", "strong"]
    task: str = ""

    @property
    def reason(self) -> str:
        sign = ">=" if self.tier == "strong" else "<"
        head = f"{self.task}, " if self.task else ""
        return f"{head}difficulty {self.score:.2f} {sign} {self.threshold:.2f} -> {self.tier}"


@lru_cache(maxsize=1)
def _params() -> _Params:
    import json  # here, not at import: the import of router stays cheap
    from importlib import resources

    from router.understanding import TASK_TYPES

    path = resources.files("router.routing") / _MODEL_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        tasks = tuple(data["tasks"])
        branches = {
            name: _Branch(
                tuple(float(v) for v in b["prior"]),
                tuple(float(v) for v in b["length_mean"]),
                tuple(float(v) or 1.0 for v in b["length_sd"]),
                float(b["alpha"]),
                float(b["gamma"]),
                float(b["centre"]),
                float(b["spread"]) or 1.0,
                _triple(b.get("word_problem")),
                float(b.get("beta", 0.0)),
                digits=tuple(float(v) for v in b["digits"]) if b.get("digits") else None,  # type: ignore[arg-type]
                word_problem_base=float(b.get("word_problem_base", 0.0)),
                semantic=_semantic_fields(b.get("semantic")),
            )
            for name, b in data["branches"].items()
        }
        params = _Params(
            branches=branches,
            calibration=tuple(float(v) for v in data["calibration"]),
        )
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ConfigError(f"unreadable difficulty parameters: {exc.__class__.__name__}: {exc}", path=str(path)) from exc
    shapes_ok = "open" in branches and all(
        len(b.prior) == len(b.length_mean) == len(b.length_sd) == len(TASK_TYPES) for b in branches.values()
    )
    shapes_ok = shapes_ok and all(
        b.word_problem is None or all(len(part) == len(WORD_PROBLEM_FEATURES) for part in b.word_problem)
        for b in branches.values()
    ) and all(b.digits is None or len(b.digits) == 3 for b in branches.values())
    shapes_ok = shapes_ok and all(b.semantic is None or len(b.semantic[0]) == SEMANTIC_DIM for b in branches.values())
    if tasks != TASK_TYPES or not shapes_ok:
        raise ConfigError(
            "difficulty parameters do not match the understanding (retrain: python bench/train_difficulty.py)",
            path=str(path),
        )
    if TASK_TYPES[_MATHS] != "maths":
        raise ConfigError("difficulty parameters: the task types changed order (update _MATHS)", path=str(path))
    if len(params.calibration) < 2:
        raise ConfigError("difficulty parameters carry no calibration sample", path=str(path))
    return params


def _semantic_fields(value: object) -> tuple[tuple[float, ...], float] | None:
    if not value:
        return None
    if value["embedding"] != SEMANTIC_EMBEDDING:  # type: ignore[index]
        raise ValueError(f"semantic weights are for {value['embedding']!r}, not {SEMANTIC_EMBEDDING!r}")  # type: ignore[index]
    if value.get("reading") != SEMANTIC_READING:  # type: ignore[attr-defined]
        raise ValueError(f"semantic weights read {value.get('reading')!r}, not {SEMANTIC_READING!r}")  # type: ignore[attr-defined]
    return tuple(map(float, value["weights"])), float(value["offset"])  # type: ignore[index]


def reads_semantic(language: str) -> bool:
    """Whether an exam item's embedding is read: wordllama's vocabulary is English-centred and its Chinese
    similarity weak, and no Chinese exam item was fitted on."""
    return language != "zh"


@lru_cache(maxsize=1)
def _projection() -> Projection | None:
    """The exam branch's embedding weights folded into the token table, built on the first exam item."""
    semantic = _params().branches["choice"].semantic
    return projection(semantic[0]) if semantic else None


def _semantic_term(branch: _Branch, question: str, language: str) -> float:
    """The exam item's embedding term, read on its options; nothing (the fitted items' average) without the
    embeddings. Only the exam branch carries one."""
    if branch.semantic is None or not reads_semantic(language):
        return 0.0
    reading = _projection()
    value = reading(exam_options(question)) if reading is not None else None
    return 0.0 if value is None else value + branch.semantic[1]


def _triple(value: object) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]] | None:
    if not value:
        return None
    mean, scale, weights = value  # type: ignore[misc]
    return tuple(map(float, mean)), tuple(float(v) or 1.0 for v in scale), tuple(map(float, weights))


def _within(branch: _Branch, question: str, maths: float, proof: bool, is_maths: bool) -> float:
    """The branch's readings beyond task and length: a word problem's structure (read when the question
    is at all maths, never for a proof; whole when it is read as maths, whose probability wobbles between
    word problems for reasons that say nothing of their difficulty, and weighed by that probability
    otherwise, so a request of another kind that mentions figures is not pushed up) and an exam item's
    digit share."""
    value = 0.0
    if branch.word_problem is not None and maths >= 0.05 and not proof:
        mean, scale, weights = branch.word_problem
        readings = story_readings(question)
        if readings is not None:
            structure = sum(w * (x - m) / s for w, x, m, s in zip(weights, readings, mean, scale, strict=True))
            value += branch.beta * (structure + branch.word_problem_base if is_maths else maths * structure)
    if branch.digits is not None:
        mean, spread, weight = branch.digits
        value += weight * (digit_share(question) - mean) / (spread or 1.0)
    return value


def _score(question: str) -> tuple[float, str]:
    from router.understanding import TASK_TYPES, understand

    if not isinstance(question, str):
        raise UsageError(f"difficulty() takes the question as a string, got {type(question).__name__}")
    p = _params()
    u = understand(question)
    branch = p.branches.get("choice") if exam_item(question) else None
    branch = branch or p.branches["open"]
    task = TASK_TYPES.index(u.task)
    raw = branch.alpha * sum(prob * prior for prob, prior in zip(u.vector, branch.prior, strict=False))
    raw += branch.gamma * (math.log1p(len(question)) - branch.length_mean[task]) / branch.length_sd[task]
    raw += _within(branch, question, u.vector[_MATHS], "proof" in u.constraints, task == _MATHS)
    raw += _semantic_term(branch, question, u.language)
    z = (raw - branch.centre) / branch.spread
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z)))), u.task


def difficulty(question: str) -> float:
    """How much a stronger model is expected to gain on this question, in [0, 1] (higher: send it up)."""
    return _score(question)[0]


def threshold_for_share(share: float) -> float:
    """The score above which about ``share`` of questions lie (so they go to the strong tier).

    Interpolates the calibration quantiles. ``share`` 0 gives a threshold no score
    reaches; 1 gives 0, so every question goes up."""
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0.0 <= share <= 1.0:
        raise UsageError(f"strong_share must be a number between 0 and 1, got {share!r}")
    if share == 0.0:
        return math.nextafter(1.0, math.inf)
    if share == 1.0:
        return 0.0
    q = _params().calibration
    position = (1.0 - share) * (len(q) - 1)
    low = math.floor(position)
    high = min(low + 1, len(q) - 1)
    return q[low] + (q[high] - q[low]) * (position - low)


def decide(question: str, *, strong_share: float | None = None, threshold: float | None = None) -> Difficulty:
    """Score a question and choose fast or strong; ``threshold`` wins over ``strong_share``."""
    if threshold is not None and strong_share is not None:
        raise UsageError("give strong_share or threshold, not both")
    if threshold is None:
        threshold = threshold_for_share(DEFAULT_STRONG_SHARE if strong_share is None else strong_share)
    score, task = _score(question)
    return Difficulty(score, threshold, "strong" if score >= threshold else "fast", task)


__all__ = ["DEFAULT_STRONG_SHARE", "SEMANTIC_READING", "Difficulty", "decide", "difficulty", "exam_item", "multiple_choice", "reads_semantic",
           "threshold_for_share"]
