"""``model="auto"``: which tier, and which model of it, answers one question.

RouteLLM and OpenRouter's auto router pick strong or weak from the question
alone. Here the *answering mode* takes part too, because it says what kind of
work the model will do: ``tot`` compares plans (the reasoning tier, else strong),
``few_shot`` fills a template (the cheapest tier), ``react`` needs native tool
calls (only tool-capable models, or the text protocol when none is), and ``cot``
follows the local difficulty score, as does anything else. The score and the mode read the same
understanding of the question (``router.understanding``), and the reason names its task type. Within a tier the
cheaper model comes first, then the faster one by observed latency. Whether a
candidate has a key and whether the prompt fits its context window is decided
by the planner, which records every candidate it passes over.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from router.config import ModelConfig, RouterConfig
    from router.routing.learning import Advice
    from router.routing.share import ShareTracker


@dataclass(frozen=True)
class AutoChoice:
    tier: str
    candidates: tuple[tuple[str, str], ...]
    """(provider, model id) in the order to try: the tier's models, best first."""
    reason: str
    score: float | None = None
    explored: bool = False
    """``routing.learning`` sent this question to the other tier to learn about it."""


class LatencyBook:
    """Observed latency per provider/model (exponentially weighted), to break ties between equals."""

    def __init__(self, weight: float = 0.3) -> None:
        self._weight = weight
        self._seen: dict[tuple[str, str], float] = {}
        self._lock = threading.Lock()

    MAX_ENTRIES = 1024
    """Model names come from callers (the server's ``model`` field): past this many the book starts again."""

    def observe(self, provider: str, model: str, seconds: float) -> None:
        with self._lock:
            if len(self._seen) >= self.MAX_ENTRIES and (provider, model) not in self._seen:
                self._seen.clear()
            old = self._seen.get((provider, model))
            self._seen[(provider, model)] = seconds if old is None else old + self._weight * (seconds - old)

    def get(self, provider: str, model: str) -> float:
        with self._lock:
            return self._seen.get((provider, model), float("inf"))


def choose(question: str, mode: str, config: RouterConfig, latency: LatencyBook | None = None,
           advice: Advice | None = None, share: ShareTracker | None = None) -> AutoChoice:
    """The tier for this question and mode, and its models in the order to try (``advice``: what
    ``routing.learning`` learned about this kind of question; ``share``: the recent scores that keep
    ``strong_share`` true on this traffic, unless the config gives an explicit threshold)."""
    from router.routing.difficulty import DEFAULT_STRONG_SHARE, decide

    routing = config.routing
    judged = decide(question, strong_share=routing.strong_share, threshold=routing.threshold)
    if share is not None and routing.threshold is None:
        wanted = DEFAULT_STRONG_SHARE if routing.strong_share is None else routing.strong_share
        adapted = share.threshold(wanted, judged.threshold)
        share.observe(judged.score)
        if adapted != judged.threshold:
            judged = replace(judged, threshold=adapted, tier="strong" if judged.score >= adapted else "fast")
    learned = judged.score + (advice.delta if advice else 0.0)
    tier = "strong" if learned >= judged.threshold else "fast"
    # "coding, difficulty 0.81 >= 0.62 -> strong": the task type the mode choice read too
    head = f"{judged.task}, " if judged.task else ""
    why = f"{head}difficulty {judged.score:.2f}{advice.note() if advice else ''} {'>=' if tier == 'strong' else '<'} {judged.threshold:.2f} -> {tier}"
    explored = advice is not None and advice.explores(abs(learned - judged.threshold))
    if explored:
        tier = "fast" if tier == "strong" else "strong"
        why += f"; exploring -> {tier}"
    if mode == "tot":
        tier = _first_defined(config, "reasoning", "strong")
        why += f"; tot -> {tier} tier"
    elif mode == "cot" and judged.tier == "strong" and "reasoning" in routing.tiers:
        tier = "reasoning"
        why += "; hard cot -> reasoning tier"
    elif mode == "few_shot":
        tier = _first_defined(config, "fast", "strong")
        why += f"; few_shot extraction -> {tier} tier"
    if tier not in routing.tiers:
        tier = _first_defined(config, "strong", "fast")
    entries = [(p, m) for p, m in routing.tier(tier) if p in config.providers]
    if mode == "react":
        capable = [(p, m) for p, m in entries if config.provider(p).capabilities_for(m).tools]
        if capable:
            entries = capable
        else:
            why += "; no tool-capable model in the tier: text ReAct"
    book = latency or LatencyBook()
    entries.sort(key=lambda pm: (_price(config.provider(pm[0]).model(pm[1])), book.get(*pm)))
    preferred = advice.prefer.get(tier, ()) if advice else ()
    if preferred:  # learned: a model of this tier that did clearly better on this kind goes first
        entries.sort(key=lambda pm: preferred.index(f"{pm[0]}/{pm[1]}") if f"{pm[0]}/{pm[1]}" in preferred else len(preferred))
        why += "; learned model order"
    first = f"{entries[0][0]}/{entries[0][1]}" if entries else "none"
    explored = explored and tier in ("fast", "strong") and mode not in ("tot", "few_shot")
    return AutoChoice(tier, tuple(entries), f"auto: {why}: {first}", judged.score, explored)


def _first_defined(config: RouterConfig, *names: str) -> str:
    return next((name for name in names if name in config.routing.tiers), names[-1])


def _price(model: ModelConfig) -> float:
    """Blended USD per million tokens (1:1 in/out); unknown prices sort last."""
    if model.price_in is None or model.price_out is None:
        return float("inf")
    return model.price_in + model.price_out


__all__ = ["AutoChoice", "LatencyBook", "choose"]
