"""How likely the strong tier answers a question better than the fast one.

``difficulty(question)`` reads the question's understanding (``router.understanding``, the same
reading the mode choice uses, so the two never disagree about what a question is). Multiple-choice
questions (options on their own lines) and open questions are two branches, each with

* a *task-type prior*, blended by the task probabilities: how much stronger models gain on that kind
  of work (on open questions coding, maths, extraction and multi-step reasoning gain, writing,
  roleplay, humanities and general knowledge gain little);
* a *within-type* term: the question's log length standardised within its task type (a long maths
  problem is harder than a short one; a long essay request is not a long proof).

The sum is squashed to [0, 1] by a logistic of its value standardised within the branch (0.5 is a
typical question of its branch, so one threshold sends a similar share of each branch up). Parameters are
trained by ``bench/train_difficulty.py`` on every routing table in shared/ (RouteLLM's GSM8K and MMLU,
arena-hard-auto's arena_bench_v1, h2o-LLM-eval, RouterArena: every model in them, each source weighing
the same) and shipped as ``difficulty_model.json`` next to this file, with the tables' licences in
``LICENSES.difficulty_model.md``. The recipe was chosen by leave-one-source-out APGR
(``bench/eval_routing.py``). Local and deterministic: no network, no model call, pure Python. The
JSON is read on the first call, not at import.

``threshold_for_share(0.3)`` turns a cost/quality knob ("send about 30% of the questions up a tier")
into a score threshold, using the quantiles of the scores of the fitted prompts (each source
weighing the same) shipped with the parameters.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from router.errors import ConfigError, UsageError

_MODEL_FILE = "difficulty_model.json"
DEFAULT_STRONG_SHARE = 0.3
_CHOICE_LINE = re.compile(r"^\s*\(?[A-Da-d][.):]\s", re.MULTILINE)
"""Compiled at import: one small pattern, a few microseconds."""


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


@dataclass(frozen=True)
class _Params:
    branches: dict[str, _Branch]
    calibration: tuple[float, ...]
    """Ascending score quantiles of the calibration sample (evenly spaced, 0 to 1)."""


def multiple_choice(question: str) -> bool:
    """Options on their own lines ("A. ...", "(b) ..."): at least two of them."""
    return len(_CHOICE_LINE.findall(question[:4000])) >= 2


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
    if tasks != TASK_TYPES or not shapes_ok:
        raise ConfigError(
            "difficulty parameters do not match the understanding (retrain: python bench/train_difficulty.py)",
            path=str(path),
        )
    if len(params.calibration) < 2:
        raise ConfigError("difficulty parameters carry no calibration sample", path=str(path))
    return params


def _score(question: str) -> tuple[float, str]:
    from router.understanding import TASK_TYPES, understand

    if not isinstance(question, str):
        raise UsageError(f"difficulty() takes the question as a string, got {type(question).__name__}")
    p = _params()
    u = understand(question)
    branch = p.branches.get("choice") if multiple_choice(question) else None
    branch = branch or p.branches["open"]
    task = TASK_TYPES.index(u.task)
    raw = branch.alpha * sum(prob * prior for prob, prior in zip(u.vector, branch.prior, strict=False))
    raw += branch.gamma * (math.log1p(len(question)) - branch.length_mean[task]) / branch.length_sd[task]
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


__all__ = ["DEFAULT_STRONG_SHARE", "Difficulty", "decide", "difficulty", "multiple_choice", "threshold_for_share"]
