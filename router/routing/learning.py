"""Routing that learns from outcomes: a contextual bandit over the tiers, per kind of question.

The prior is the difficulty score (``routing.difficulty``): strong when it reaches the
threshold. Learning adds to that score, per kind of question, how much more the strong tier
gained over the fast one on this deployment's own traffic than the prior expected:

* **Kinds** are two cells per question: its task type (``router.understanding``) and, within
  what the task type says, its topic: the nearest of the shipped word centroids
  (``routing.kinds``; an MMLU category spreads over several task types, so the task type alone
  moves whole types instead of the kind that changed). A cell's residuals (below) are shrunk
  toward its parent's (the topic's toward the task's, the task's toward zero) on little
  evidence, and a normalised least-mean-squares fit on the understanding's semantic vector
  learns what the cells did not explain.
* **Outcomes** (explicit feedback, implicit signals: ``routing.outcomes``) are kept as
  exponentially decayed sums in the state store (``decay_add``: pure increments, so racing
  processes never lose one), per tier: a line of outcome against difficulty over all traffic,
  and per cell the residuals from that line. Comparing residuals, not raw means, keeps the
  fast tier from looking better merely because it gets the easier questions of a kind. The
  mean adjustment of recent decisions is taken out: kinds trade the strong share, the share
  itself stays the user's ``strong_share``.
* **Only what the evidence shows**: the adjustment is used only when it exceeds ``_GATE``
  standard errors of itself (the sampling error of the two tiers' shrunk means, from their
  outcome variance and decayed counts); otherwise the prior decides. A kind whose few outcomes
  disagree with each other, or whose topic mixes kinds that gain differently, stays where the
  prior put it: on tables where the prior is right, learning mostly leaves it alone, and where
  a weak tier fails a kind outright the difference is many standard errors.
* **Drift**: each cell also keeps recent means whose memory is counted in that cell's own
  outcomes (a running mean, then one over ``adapt_outcomes``: the step is fixed when deciding and
  kept with the answer, so these are pure increments too). They are compared with the cell's
  *older* outcomes (its long-run sums less what the recent means stand for), in the cell's own
  means, not against the all-traffic line: a kind that changed moves that line, and every other
  kind's residual with it. When they differ by more than ``_DRIFT_Z`` standard errors, the
  recent mean decides for that cell, on top of the gated adjustment, and the outcomes of its
  decisions stay out of the all-traffic line while it lasts (so the kinds that did not change
  keep their reference). It stays while no new outcome comes: a kind sent up does not fall
  back for want of fast outcomes.
* **Exploration** sends ``explore_share`` of the automatic decisions to the other tier, taken
  among the nearest ``explore_share`` of decisions to the threshold (``Explorer``: the share
  holds to within four decisions over any window); explicit requests never reach the learner.
* A store that cannot be reached means the prior, said once in the log.

One ``decay_read`` (one Redis round trip) per decision.
"""

from __future__ import annotations

import logging
import math
import operator
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from router.errors import StateStoreUnavailableError
from router.routing.explore import Explorer

if TYPE_CHECKING:
    from router.config.learning import LearningSettings
    from router.state.base import StateStore

log = logging.getLogger("router.learning")

ARMS = ("fast", "strong")
"""The tiers the difficulty decision chooses between: what the learner adjusts."""
STATS_KEY = "learning:v1"
_SHRINK = 6.0
"""Pseudo-outcomes each kind's residual is shrunk with (toward its task, the task toward 0)."""
_DRIFT_Z = 3.0
"""Standard errors by which a cell's recent outcomes must leave its older ones before they decide for it."""
_GATE = 2.5
"""Standard errors a kind's learned adjustment must exceed to be used (below it, the prior decides). Chosen
among 2, 2.5 and 3 on ``bench/learning.py --seeds 21,22``; its figures are reported on other seeds."""
_VAR_FLOOR = 0.05
"""The least outcome variance assumed (a tier that always fails a kind still has some doubt)."""
_RIDGE = 1.0
"""Pull of the per-tier slope of outcome on difficulty toward 0 (in weight x score^2)."""
_CENTRE_OVER = 500
"""Recent decisions whose mean adjustment is taken out (per process)."""
_STEP = 0.05
"""Step size of the normalised least-mean-squares fit of outcomes on the semantic vector."""
_MODEL_MARGIN = 0.1
"""How much better (mean score) another model of the tier must do before it goes first."""


@dataclass(frozen=True)
class Kind:
    """What the learner knows a question by: its cells (the task type) and its semantic vector."""

    task: str
    cells: tuple[str, ...]
    vector: tuple[float, ...] = ()


@dataclass(frozen=True)
class Decision:
    """What was decided, kept with the answer so its outcome can be counted where it belongs."""

    kind: Kind
    tier: str
    model: str
    score: float
    explored: bool = False
    base: float = 0.0
    """The outcome expected for this tier when deciding (line + kind + vector terms): what an outcome corrects."""
    recent: tuple[tuple[float, float, float, float], ...] = ()
    """Per cell of ``kind``, this tier's recent means when deciding: (outcome, difficulty, weight, step); an
    outcome moves each by step x (its value - the mean): memory counted in that cell's own outcomes."""
    drifting: bool = False
    """The kind had drifted when deciding: the outcome counts for its cells, not for the all-traffic line (one kind
    that changed must not move every other kind's reference)."""


@dataclass(frozen=True)
class Advice:
    """The learner's word on one decision; ``routing.auto.choose`` applies it."""

    kind: Kind
    delta: float = 0.0
    """Added to the difficulty score (0.0: the prior decides)."""
    evidence: int = 0
    """Outcomes (decayed) behind ``delta``."""
    prefer: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Tier -> "provider/model" in the order learned outcomes favour (only where they differ)."""
    expected: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)
    """Tier -> (intercept, slope, offset): expected outcome = intercept + slope * difficulty + offset."""
    explorer: Explorer | None = field(default=None, compare=False, repr=False)
    recent: Mapping[str, tuple[tuple[float, float, float, float], ...]] = field(default_factory=dict)
    """Tier -> per cell (outcome, difficulty, weight, step) of the recent means: kept with the decision."""
    drifting: bool = False
    """This kind's recent outcomes left its long run: its outcomes stay out of the all-traffic line."""

    def note(self) -> str:
        """The piece of the route reason that says what learning did."""
        if self.evidence and abs(self.delta) >= 0.005:
            return f" (learned {self.delta:+.2f} from {self.evidence} outcomes)"
        return ""

    def explores(self, margin: float) -> bool:
        """Take the other tier this time? ``margin``: how far the learned score is from the threshold."""
        return self.explorer is not None and self.explorer.explores(margin)

    def decision(self, tier: str, score: float, explored: bool) -> Decision:
        a, b, offset = self.expected.get(tier, (0.0, 0.0, 0.0))
        return Decision(self.kind, tier, "", score, explored, a + b * score + offset, self.recent.get(tier, ()),
                        self.drifting)


@lru_cache(maxsize=16)
def _vector_fields(tier: str, dimension: int) -> tuple[str, ...]:
    return tuple(f"v|{tier}|{j}" for j in range(dimension))


def _stats_fields(kind: Kind) -> list[str]:
    out = [f"*|{t}|{s}" for t in ARMS for s in ("n", "d", "dd", "r", "rd")]
    out += [f"{c}|{t}|{s}" for c in kind.cells for t in ARMS for s in ("n", "d", "r", "er", "ed", "eo")]
    for t in ARMS:
        out += _vector_fields(t, len(kind.vector))
    return out


def outcome_increments(decision: Decision, score: float, weight: float) -> dict[str, float]:
    """The sums one outcome adds (``weight`` negative withdraws it exactly)."""
    d, r, w, t = decision.score, score, weight, decision.tier
    out: dict[str, float] = {}
    if t in ARMS and not decision.drifting:
        out.update({f"*|{t}|n": w, f"*|{t}|d": w * d, f"*|{t}|dd": w * d * d, f"*|{t}|r": w * r,
                    f"*|{t}|rd": w * r * d})  # fmt: skip
    if t in ARMS:
        for cell in decision.kind.cells:
            out.update({f"{cell}|{t}|n": w, f"{cell}|{t}|d": w * d, f"{cell}|{t}|r": w * r})
        for cell, (er, ed, eo, step) in zip(decision.kind.cells, decision.recent, strict=False):
            out.update({f"{cell}|{t}|er": w * step * (r - er), f"{cell}|{t}|ed": w * step * (d - ed),
                        f"{cell}|{t}|eo": w * step * (1.0 - eo)})  # fmt: skip
        vector = decision.kind.vector
        if vector:  # one normalised least-mean-squares step toward what the line and the kind did not explain
            step = _STEP * w * (r - decision.base) / (sum(x * x for x in vector) + 1e-9)
            out.update({f"v|{t}|{j}": step * x for j, x in enumerate(vector) if x})
    if decision.model:
        model_cell = f"{decision.kind.task}|{t}|m:{decision.model}"
        out.update({f"{model_cell}|n": w, f"{model_cell}|r": w * r})
    return out


class Learner:
    """Adjusts the tier choice per kind of question from outcomes kept in ``store``."""

    def __init__(
        self,
        settings: LearningSettings,
        store: StateStore,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        understand: Callable[[str], Any] | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.clock = clock
        self._understand = understand
        self._explorer = Explorer(settings.explore_share, rng)
        self._half_life_s = settings.half_life_days * 86_400.0
        self._warned = False
        self._recent: deque[float] = deque(maxlen=_CENTRE_OVER)
        self._recent_sum = 0.0
        self._lock = threading.Lock()
        self._field_cache: dict[tuple[tuple[str, ...], int, tuple[tuple[str, str], ...]], list[str]] = {}

    @property
    def half_life_s(self) -> float:
        return self._half_life_s

    @property
    def ttl_s(self) -> float:
        """Stats outlive twenty half-lives since the last outcome (by then they weigh under 1e-6)."""
        return 20 * self._half_life_s

    # -- kinds ---------------------------------------------------------------------------

    def kind(self, question: str) -> Kind:
        understood = self._understood(question)
        task = str(understood.task)
        vector = tuple(float(v) for v in understood.vector)
        from router.routing.difficulty import multiple_choice
        from router.routing.kinds import NO_TOPIC, topic

        near = topic(question, task, multiple_choice(question))
        return Kind(task, (task,) if near == NO_TOPIC else (task, f"k{near}"), vector)

    def _understood(self, question: str) -> Any:
        if self._understand is None:
            from router.understanding import understand  # here: import router stays cheap

            self._understand = understand
        return self._understand(question)

    # -- deciding ------------------------------------------------------------------------

    async def advise(self, question: str, tiers: Mapping[str, Sequence[str]] | None = None) -> Advice:
        """The learned adjustment for this question's kind (one store read)."""
        kind = self.kind(question)
        models = [(tier, entry) for tier, entries in (tiers or {}).items() for entry in entries]
        fields = self._fields(kind, models)
        try:
            values = await self.store.decay_read(STATS_KEY, fields, self.clock(), self._half_life_s)
        except StateStoreUnavailableError as exc:  # a store without a fallback: the prior, never a failed request
            self._degraded(str(exc))
            return Advice(kind, explorer=self._explorer)
        if getattr(self.store, "degraded", False):
            self._degraded("the shared state store is unreachable")
            return Advice(kind, explorer=self._explorer)
        self._warned = False
        stats = dict(zip(fields, values, strict=True))
        delta, evidence, expected, recent, drifting = self._delta(kind, stats)
        return Advice(kind, delta, evidence, self._prefer(kind, models, stats), expected, self._explorer, recent,
                      drifting)

    def _fields(self, kind: Kind, models: Sequence[tuple[str, str]]) -> list[str]:
        """The fields one decision reads (cached: a few per task type and tier set)."""
        key = (kind.cells, len(kind.vector), tuple(models))
        fields = self._field_cache.get(key)
        if fields is None:
            if len(self._field_cache) > 256:
                self._field_cache.clear()
            fields = _stats_fields(kind)
            fields += [f"{kind.task}|{tier}|m:{entry}|{s}" for tier, entry in models for s in ("n", "r")]
            self._field_cache[key] = fields
        return fields

    def _degraded(self, why: str) -> None:
        if not self._warned:
            self._warned = True
            log.warning("routing.learning: %s; routing by the prior (difficulty alone) until it is back", why)

    def _delta(self, kind: Kind, stats: Mapping[str, float]) -> tuple[float, int, dict[str, tuple[float, float, float]],
                                                                    dict[str, tuple[tuple[float, float, float, float], ...]], bool]:
        line = {t: _line(stats, t) for t in ARMS}
        residual: dict[str, float] = dict.fromkeys(ARMS, 0.0)
        spread: dict[str, float] = dict.fromkeys(ARMS, 0.25 / _SHRINK)  # no cell with evidence: the prior's doubt
        changed: dict[str, float] = dict.fromkeys(ARMS, 0.0)
        floor = 1.0 / self.settings.adapt_outcomes
        recent = {t: tuple(_recent_state(stats, cell, t, floor) for cell in kind.cells) for t in ARMS}
        total = sum(stats[f"*|{t}|n"] for t in ARMS)
        used = total
        for index, cell in enumerate(kind.cells):
            counts = {t: stats[f"{cell}|{t}|n"] for t in ARMS}
            if sum(counts.values()) < self.settings.min_evidence:
                break
            for t in ARMS:
                a, b = line[t]
                n, sr, sd = counts[t], stats[f"{cell}|{t}|r"], stats[f"{cell}|{t}|d"]
                off = sr - a * n - b * sd
                parent = residual[t]
                residual[t] = (off + _SHRINK * parent) / (n + _SHRINK)
                m = sr / n if n > 1e-9 else 0.5
                var = max(_VAR_FLOOR, min(0.25, m * (1.0 - m)))  # the outcome variance in this cell
                # the sampling variance of that shrunk mean (a tier without outcomes here adds no doubt: it is the prior)
                spread[t] = var * max(n, 0.0) / (n + _SHRINK) ** 2
                # drift: the cell's recent mean (memory counted in its own outcomes) against its older outcomes,
                # in its own means (not the all-traffic line, which a kind that changed moves for every kind)
                er, ed, eo, step = recent[t][index]
                changed[t] = 0.0
                c = min(1.0 / step, 0.5 * n) if eo > 0.5 else 0.0  # outcomes the recent means stand for
                if c > 2.0:
                    rm, rd = er / eo, ed / eo
                    older = n - c
                    om, od = (sr - c * rm) / older, (sd - c * rd) / older
                    if abs((rm - om) - b * (rd - od)) > _DRIFT_Z * math.sqrt(var * (1.0 / c + 1.0 / older)):
                        changed[t] = (rm - m) - b * (rd - sd / n)
            used = sum(counts.values())
        if kind.vector and _STEP:
            for t in ARMS:
                weights = map(stats.__getitem__, _vector_fields(t, len(kind.vector)))
                residual[t] += sum(map(operator.mul, weights, kind.vector))
        expected = {t: (line[t][0], line[t][1], residual[t] + changed[t]) for t in ARMS}
        drifting = bool(changed["strong"] or changed["fast"])
        if total < self.settings.min_evidence:
            return 0.0, 0, expected, recent, drifting
        cap = self.settings.max_adjustment
        raw = residual["strong"] - residual["fast"]
        raw -= self._centre(raw)
        if abs(raw) <= _GATE * math.sqrt(spread["strong"] + spread["fast"]):
            raw = 0.0  # not shown by the evidence: the prior decides
        # a kind whose recent outcomes left its long run moves on its own: the others keep theirs
        raw += changed["strong"] - changed["fast"]
        return max(-cap, min(cap, raw)), round(used), expected, recent, drifting

    def _centre(self, raw: float) -> float:
        """The mean raw adjustment of recent decisions: learning moves questions between kinds, it does not
        move the strong share (the cost the user chose with ``strong_share``)."""
        with self._lock:
            if len(self._recent) == self._recent.maxlen:
                self._recent_sum -= self._recent[0]
            self._recent.append(raw)
            self._recent_sum += raw
            return self._recent_sum / _CENTRE_OVER  # a process that has seen little takes little out

    def _prefer(self, kind: Kind, models: Sequence[tuple[str, str]], stats: Mapping[str, float]) -> dict[str, tuple[str, ...]]:
        """Within a tier, models whose outcomes on this task are clearly better go first."""
        out: dict[str, tuple[str, ...]] = {}
        by_tier: dict[str, list[tuple[str, float]]] = {}
        for tier, entry in models:
            n = stats[f"{kind.task}|{tier}|m:{entry}|n"]
            if n >= self.settings.min_evidence:
                by_tier.setdefault(tier, []).append((entry, stats[f"{kind.task}|{tier}|m:{entry}|r"] / n))
        for tier, scored in by_tier.items():
            if len(scored) < 2:
                continue
            ranked = sorted(scored, key=lambda em: -em[1])
            if ranked[0][1] - ranked[-1][1] >= _MODEL_MARGIN:
                out[tier] = tuple(entry for entry, _ in ranked)
        return out

    # -- outcomes ------------------------------------------------------------------------

    async def observe(self, decision: Decision, score: float, weight: float, at: float) -> None:
        """Count one outcome observed at ``at``."""
        await self.correct(decision, (0.0, 0.0), (score, weight), at)

    async def correct(self, decision: Decision, old: tuple[float, float], new: tuple[float, float], at: float) -> None:
        """Replace the outcome ``old`` (score, weight) counted at ``at`` by ``new``: one store write."""
        increments = outcome_increments(decision, new[0], new[1]) if new[1] else {}
        if old[1]:
            for name, value in outcome_increments(decision, old[0], -old[1]).items():
                increments[name] = increments.get(name, 0.0) + value
        if increments:
            await self.store.decay_add(STATS_KEY, increments, at, self._half_life_s, self.ttl_s)


def _recent_state(stats: Mapping[str, float], cell: str, tier: str, floor: float) -> tuple[float, float, float, float]:
    """(outcome, difficulty, weight, step) of a cell's recent means: the step is a running mean's until it
    reaches ``floor`` (one over ``adapt_outcomes``), then stays there."""
    n = max(0.0, stats[f"{cell}|{tier}|n"])
    return (stats[f"{cell}|{tier}|er"], stats[f"{cell}|{tier}|ed"], stats[f"{cell}|{tier}|eo"],
            max(floor, 1.0 / (n + 1.0)))  # fmt: skip


def _line(stats: Mapping[str, float], tier: str) -> tuple[float, float]:
    """(intercept, slope) of outcome on difficulty for ``tier`` over all traffic (ridge on the slope)."""
    n = stats[f"*|{tier}|n"]
    if n <= 1e-9:
        return 0.0, 0.0
    sd, sdd, sr, srd = (stats[f"*|{tier}|{s}"] for s in ("d", "dd", "r", "rd"))
    sxx = max(0.0, sdd - sd * sd / n)
    slope = (srd - sd * sr / n) / (sxx + _RIDGE)
    return (sr - slope * sd) / n, slope


__all__ = ["ARMS", "Advice", "Decision", "Explorer", "Kind", "Learner", "outcome_increments"]
