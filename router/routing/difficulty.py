"""How likely the strong tier answers a question better than the fast one.

``difficulty(question)`` blends two linear scores over the features of
``difficulty_features`` and squashes the blend to [0, 1]: a *structure* model (length,
numbers, formulae, code, domain cues) and a *shape* model (plus stem and answer-option
shape). Multiple-choice questions take the shape model alone; open questions blend the
structure model in, because the shape model's open-question weights come from GSM8K alone
and misrank open-ended prompts (proofs, derivations) it never saw. Parameters are trained by
``bench/train_difficulty.py`` on RouteLLM's GSM8K and MMLU tables and shipped as
``difficulty_model.json`` next to this file. Local and deterministic: no network,
no model call, pure Python, well under a millisecond. The JSON is read on the
first call, not at import, so ``import router`` stays cheap.

``threshold_for_share(0.3)`` turns a cost/quality knob ("send about 30% of the
questions up a tier") into a score threshold, using the quantiles of the scores of
a calibration sample shipped with the parameters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from router.errors import ConfigError, UsageError
from router.routing.difficulty_features import FEATURE_NAMES, features

_MODEL_FILE = "difficulty_model.json"
DEFAULT_STRONG_SHARE = 0.3


@dataclass(frozen=True)
class _Params:
    weights: tuple[tuple[tuple[int, float], ...], ...]
    """Per component, (feature index, weight / feature scale) for its non-zero weights."""
    offsets: tuple[float, ...]
    """Per component, what turns the dot product into its standardised score: bias - sum(w * mean / scale) - centre."""
    spreads: tuple[float, ...]
    gate: int
    """Index of the feature that says "multiple choice" (>= 0.5)."""
    closed: tuple[float, ...]
    open: tuple[float, ...]
    standardise: tuple[tuple[float, float], tuple[float, float]]
    """(centre, spread) of the blend on the fitted questions: multiple choice, then open."""
    squash: tuple[float, float]
    calibration: tuple[float, ...]
    """Ascending score quantiles of the calibration sample (evenly spaced, 0 to 1)."""


@dataclass(frozen=True)
class Difficulty:
    """One decision: the score, the threshold it was compared with, and the tier chosen."""

    score: float
    threshold: float
    tier: Literal["fast", "strong"]

    @property
    def reason(self) -> str:
        sign = ">=" if self.tier == "strong" else "<"
        return f"difficulty {self.score:.2f} {sign} {self.threshold:.2f} -> {self.tier}"


@lru_cache(maxsize=1)
def _params() -> _Params:
    import json  # here, not at import: the import of router stays cheap
    from importlib import resources

    path = resources.files("router.routing") / _MODEL_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        names = tuple(data["features"])
        mean = [float(v) for v in data["mean"]]
        scale = [float(v) or 1.0 for v in data["scale"]]
        weights, offsets, spreads = [], [], []
        for comp in data["components"]:
            w = [float(v) / s for v, s in zip(comp["weights"], scale, strict=True)]
            weights.append(tuple((i, v) for i, v in enumerate(w) if v))
            offsets.append(float(comp["bias"]) - sum(wi * m for wi, m in zip(w, mean, strict=True)) - float(comp["center"]))
            spreads.append(float(comp["spread"]) or 1.0)
        gate = data["gate"]
        params = _Params(
            weights=tuple(weights),
            offsets=tuple(offsets),
            spreads=tuple(spreads),
            gate=names.index(gate["feature"]),
            closed=tuple(float(v) for v in gate["closed"]),
            open=tuple(float(v) for v in gate["open"]),
            standardise=tuple(  # type: ignore[arg-type]
                (float(gate["standardise"][k][0]), float(gate["standardise"][k][1]) or 1.0) for k in ("closed", "open")
            ),
            squash=(float(data["squash"][0]), float(data["squash"][1])),
            calibration=tuple(float(v) for v in data["calibration"]),
        )
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        raise ConfigError(f"unreadable difficulty parameters: {exc.__class__.__name__}: {exc}", path=str(path)) from exc
    if names != FEATURE_NAMES or len(mean) != len(names) or not (
        len(params.closed) == len(params.open) == len(params.weights)
    ):
        raise ConfigError(
            "difficulty parameters do not match the feature extractor (retrain: python bench/train_difficulty.py)",
            path=str(path),
        )
    if len(params.calibration) < 2:
        raise ConfigError("difficulty parameters carry no calibration sample", path=str(path))
    return params


def difficulty(question: str) -> float:
    """Estimated chance in [0, 1] that the strong tier answers better than the fast one."""
    if not isinstance(question, str):
        raise UsageError(f"difficulty() takes the question as a string, got {type(question).__name__}")
    p = _params()
    row = features(question)
    closed = row[p.gate] >= 0.5
    mix = p.closed if closed else p.open
    raw = 0.0
    for share, weights, offset, spread in zip(mix, p.weights, p.offsets, p.spreads, strict=True):
        if share:
            raw += share * (sum(w * row[i] for i, w in weights) + offset) / spread
    center, spread = p.standardise[0 if closed else 1]
    raw = (raw - center) / spread
    z = p.squash[0] + p.squash[1] * raw
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


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
    score = difficulty(question)
    return Difficulty(score, threshold, "strong" if score >= threshold else "fast")


__all__ = ["DEFAULT_STRONG_SHARE", "Difficulty", "decide", "difficulty", "threshold_for_share"]
