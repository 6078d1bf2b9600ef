"""``routing.learning``: routing that learns from outcomes (off by default).

Its own module so the schema keeps one field line for it; validated like every key
(unknown keys rejected with a suggestion, bounds on every number, ``file:line`` in errors).
"""

# No `from __future__ import annotations` here: see router.config.base.

from pydantic import Field

from router.config.base import _Strict, defaults


class SignalWeights(_Strict):
    """How much each implicit signal counts as a failed outcome, next to an explicit score (weight 1).

    A signal that fires records score 0 with its weight; an answer where none fires records
    score 1 with ``answered``. Explicit feedback on that answer replaces whatever was recorded."""

    error: float = Field(default=0.5, ge=0, le=1)
    """The tool loop ended on an error."""
    step_bound: float = Field(default=0.5, ge=0, le=1)
    """The tool loop hit its step bound (or kept repeating itself)."""
    refusal: float = Field(default=0.3, ge=0, le=1)
    content_filter: float = Field(default=0.3, ge=0, le=1)
    length: float = Field(default=0.5, ge=0, le=1)
    """The reply was cut at the length limit and not continued."""
    empty: float = Field(default=1.0, ge=0, le=1)
    """An empty reply (no text, no tool calls)."""
    repeat: float = Field(default=0.5, ge=0, le=1)
    """The same question (same messages) asked again by the same key within ``repeat_window_s``."""
    schema_failure: float = Field(default=0.7, ge=0, le=1)
    """The reply does not validate against the JSON schema the caller asked for (``response_format``)."""
    answered: float = Field(default=0.1, ge=0, le=1)
    """An answer where no signal fired: weak evidence of success (so implicit signals have a denominator)."""


class LearningSettings(_Strict):
    """A contextual bandit over the tiers, per kind of question (task type and topic).

    Outcomes (explicit feedback and implicit signals) move the difficulty score of a kind up or
    down; evidence decays with ``half_life_days``; state lives in the state store, so every process
    on one Redis learns as one."""

    enabled: bool = False
    explore_share: float = Field(default=0.05, ge=0, le=0.5)
    """Share of automatic decisions that try the other tier, to keep learning about it (never on
    an explicit request)."""
    half_life_days: float = Field(default=7.0, gt=0, le=3650)
    """Evidence loses half its weight after this long: a provider that got worse is noticed."""
    min_evidence: int = Field(default=20, ge=1, le=1_000_000)
    """Outcomes a kind needs before its learned adjustment is used."""
    adapt_outcomes: int = Field(default=20, ge=2, le=100_000)
    """The recent memory of a kind (drift): about its last this many outcomes, counted in that kind's own
    outcomes. When a kind's recent outcomes leave its long run (``half_life_days``), they decide for it."""
    feedback_window_s: float = Field(default=86_400.0, gt=0, le=30 * 86_400)
    """How long an answer id accepts feedback; later it is unknown (404)."""
    repeat_window_s: float = Field(default=300.0, gt=0, le=86_400)
    max_adjustment: float = Field(default=0.5, gt=0, le=1)
    """The largest change learning makes to a difficulty score."""
    signals: SignalWeights = Field(default_factory=defaults(SignalWeights))


__all__ = ["LearningSettings", "SignalWeights"]
