"""Routing that learns from outcomes: a contextual bandit over the tiers, per kind of question.

The prior is the difficulty score (``routing.difficulty``): strong when it reaches the
threshold. Learning adds to that score, per kind of question, how much more the strong tier
gained over the fast one on this deployment's own traffic than the prior expected:

* **Kinds** come from the question understanding: the task type (coarse) and a neighbourhood
  of its semantic vector within the task (fine: the signs of a few fixed projections), so a
  question nobody asked before still lands where similar ones taught something. The fine cell
  shrinks toward its task, the task toward zero (no evidence: the prior).
* **Outcomes** (explicit feedback, implicit signals: ``routing.outcomes``) are kept as
  exponentially decayed sums in the state store (``decay_add``: pure increments, so racing
  processes never lose one), per tier: a line of outcome against difficulty over all traffic,
  and per kind the residuals from that line. Comparing residuals, not raw means, keeps the
  fast tier from looking better merely because it gets the easier questions of a kind.
* **Exploration** flips ``explore_share`` of the automatic decisions to the other tier, one at
  a random position in each block of ``1 / explore_share`` decisions (so the share holds to
  within a decision, not only on average); explicit requests never reach the learner.
* A store that cannot be reached means the prior, said once in the log.

One ``decay_read`` (one Redis round trip) per decision.
"""

from __future__ import annotations

import hashlib
import logging
import math
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from router.errors import StateStoreUnavailableError

if TYPE_CHECKING:
    from router.config.learning import LearningSettings
    from router.state.base import StateStore

log = logging.getLogger("router.learning")

ARMS = ("fast", "strong")
"""The tiers the difficulty decision chooses between: what the learner adjusts."""
STATS_KEY = "learning:v1"
_SHRINK = 6.0
"""Pseudo-outcomes each kind's residual is shrunk with (toward its task, the task toward 0)."""
_RIDGE = 1.0
"""Pull of the per-tier slope of outcome on difficulty toward 0 (in weight x score^2)."""
_PLANES = 3
"""Fixed projections of the semantic vector whose signs name the neighbourhood within a task."""
_MODEL_MARGIN = 0.1
"""How much better (mean score) another model of the tier must do before it goes first."""


@dataclass(frozen=True)
class Kind:
    """What the learner knows a question by: the cells it counts in, coarse to fine."""

    task: str
    cells: tuple[str, ...]


@dataclass(frozen=True)
class Advice:
    """The learner's word on one decision; ``routing.auto.choose`` applies it."""

    kind: Kind
    delta: float = 0.0
    """Added to the difficulty score (0.0: the prior decides)."""
    evidence: int = 0
    """Outcomes (decayed) behind ``delta``."""
    explore: bool = False
    """Take the other tier this time."""
    prefer: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Tier -> "provider/model" in the order learned outcomes favour (only where they differ)."""

    def note(self) -> str:
        """The piece of the route reason that says what learning did."""
        if self.evidence and abs(self.delta) >= 0.005:
            return f" (learned {self.delta:+.2f} from {self.evidence} outcomes)"
        return ""


@dataclass(frozen=True)
class Decision:
    """What was decided, kept with the answer so its outcome can be counted where it belongs."""

    kind: Kind
    tier: str
    model: str
    score: float
    explored: bool = False


def _stats_fields(cells: Sequence[str]) -> list[str]:
    out = [f"*|{t}|{s}" for t in ARMS for s in ("n", "d", "dd", "r", "rd")]
    out += [f"{c}|{t}|{s}" for c in cells for t in ARMS for s in ("n", "d", "r")]
    return out


def outcome_increments(decision: Decision, score: float, weight: float) -> dict[str, float]:
    """The sums one outcome adds (``weight`` negative withdraws it)."""
    d, r, w, t = decision.score, score, weight, decision.tier
    out: dict[str, float] = {}
    if t in ARMS:
        out.update({f"*|{t}|n": w, f"*|{t}|d": w * d, f"*|{t}|dd": w * d * d, f"*|{t}|r": w * r,
                    f"*|{t}|rd": w * r * d})  # fmt: skip
        for cell in decision.kind.cells:
            out.update({f"{cell}|{t}|n": w, f"{cell}|{t}|d": w * d, f"{cell}|{t}|r": w * r})
    if decision.model:
        model_cell = f"{decision.kind.task}|{t}|m:{decision.model}"
        out.update({f"{model_cell}|n": w, f"{model_cell}|r": w * r})
    return out


class Explorer:
    """Exactly one exploratory decision at a random position in each block of ``1 / share`` decisions."""

    def __init__(self, share: float, rng: random.Random | None = None) -> None:
        self._block = max(1, round(1 / share)) if share > 0 else 0
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        self._position = 0
        self._pick = self._rng.randrange(self._block) if self._block else -1

    def next(self) -> bool:
        if not self._block:
            return False
        with self._lock:
            explore = self._position == self._pick
            self._position += 1
            if self._position == self._block:
                self._position, self._pick = 0, self._rng.randrange(self._block)
            return explore


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
        self._planes: tuple[tuple[float, ...], ...] | None = None

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
        task = str(getattr(understood, "task", "chat"))
        vector = tuple(getattr(understood, "vector", ()) or ())
        cells = [task]
        if vector:
            cells.append(f"{task}~{self._neighbourhood(vector)}")
        return Kind(task, tuple(cells))

    def _understood(self, question: str) -> Any:
        if self._understand is None:
            try:
                from router.understanding import understand
            except ImportError:  # until the question understanding lands: one kind for every question
                return None
            self._understand = understand
        return self._understand(question)

    def _neighbourhood(self, vector: Sequence[float]) -> str:
        planes = self._planes
        if planes is None or len(planes[0]) != len(vector):
            planes = self._planes = _planes_for(len(vector))
        bits = 0
        for plane in planes:
            bits = bits * 2 + (sum(p * v for p, v in zip(plane, vector, strict=False)) >= 0.0)
        return str(bits)

    # -- deciding ------------------------------------------------------------------------

    async def advise(self, question: str, tiers: Mapping[str, Sequence[str]] | None = None) -> Advice:
        """The learned adjustment for this question's kind, and whether to explore now."""
        kind = self.kind(question)
        explore = self._explorer.next()
        models = [(tier, entry) for tier, entries in (tiers or {}).items() for entry in entries]
        fields = _stats_fields(kind.cells)
        fields += [f"{kind.task}|{tier}|m:{entry}|{s}" for tier, entry in models for s in ("n", "r")]
        try:
            values = await self.store.decay_read(STATS_KEY, fields, self.clock(), self._half_life_s)
        except StateStoreUnavailableError as exc:  # a store without a fallback: the prior, never a failed request
            self._degraded(str(exc))
            return Advice(kind, explore=explore)
        if getattr(self.store, "degraded", False):
            self._degraded("the shared state store is unreachable")
            return Advice(kind, explore=explore)
        self._warned = False
        stats = dict(zip(fields, values, strict=True))
        delta, evidence = self._delta(kind, stats)
        return Advice(kind, delta, evidence, explore, self._prefer(kind, models, stats))

    def _degraded(self, why: str) -> None:
        if not self._warned:
            self._warned = True
            log.warning("routing.learning: %s; routing by the prior (difficulty alone) until it is back", why)

    def _delta(self, kind: Kind, stats: Mapping[str, float]) -> tuple[float, int]:
        line = {t: _line(stats, t) for t in ARMS}
        residual: dict[str, float] = dict.fromkeys(ARMS, 0.0)
        used = 0.0
        for position, cell in enumerate(kind.cells):
            counts = {t: stats[f"{cell}|{t}|n"] for t in ARMS}
            total = sum(counts.values())
            if total < self.settings.min_evidence:
                if position == 0:
                    return 0.0, 0
                break  # the fine cell has too little: the task's estimate stands
            for t in ARMS:
                a, b = line[t]
                off = stats[f"{cell}|{t}|r"] - a * counts[t] - b * stats[f"{cell}|{t}|d"]
                residual[t] = (off + _SHRINK * residual[t]) / (counts[t] + _SHRINK)
            used = total
        cap = self.settings.max_adjustment
        delta = max(-cap, min(cap, residual["strong"] - residual["fast"]))
        return delta, round(used)

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


def _line(stats: Mapping[str, float], tier: str) -> tuple[float, float]:
    """(intercept, slope) of outcome on difficulty for ``tier`` over all traffic (ridge on the slope)."""
    n = stats[f"*|{tier}|n"]
    if n <= 1e-9:
        return 0.0, 0.0
    sd, sdd, sr, srd = (stats[f"*|{tier}|{s}"] for s in ("d", "dd", "r", "rd"))
    sxx = max(0.0, sdd - sd * sd / n)
    slope = (srd - sd * sr / n) / (sxx + _RIDGE)
    return (sr - slope * sd) / n, slope


def _planes_for(dimension: int) -> tuple[tuple[float, ...], ...]:
    """Fixed pseudo-random directions (the same in every process: seeded by the dimension)."""
    out = []
    for i in range(_PLANES):
        seed = hashlib.sha256(f"router-learning-plane:{dimension}:{i}".encode()).digest()
        rng = random.Random(seed)
        plane = [rng.gauss(0.0, 1.0) for _ in range(dimension)]
        norm = math.sqrt(sum(p * p for p in plane)) or 1.0
        out.append(tuple(p / norm for p in plane))
    return tuple(out)


__all__ = ["ARMS", "Advice", "Decision", "Explorer", "Kind", "Learner", "outcome_increments"]
