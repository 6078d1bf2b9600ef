"""Choosing how to answer (cot / few_shot / react / tot) without asking a model.

The seeds ask the LLM to pick a mode on every question: one extra round trip and
tokens before the real work starts. Here the mode follows from what the question *is*,
read once by ``router.understanding`` (the same reading the router's difficulty uses, so
the two can never disagree about a question):

* react    the answer lives outside the model: live data (weather, rates, prices, news,
           the clock) or an exact figure a calculator should produce (an expression, a
           percentage of an amount, a unit conversion, compound interest, a loan payment).
* few_shot fill a fixed template: a schedule entry or a structured extraction.
* tot      plans to weigh: choice, comparison, options, "which is best".
* cot      everything else: proofs, word problems, code, puzzles, explanations, writing,
           translation and rewriting, conversation.

Because the kind of work comes first, a proof is never arithmetic, a text to translate or
rewrite is never a schedule entry, and a number in a chat is not a sum. Only when the
confidence is low (``selector: hybrid``) or the config says so (``selector: llm``) is a model
consulted, and its reply can never make things worse than the local choice.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from router.clients.base import LLMClient
    from router.config import RouterConfig
    from router.understanding import Understanding

MODES: tuple[str, ...] = ("cot", "few_shot", "react", "tot")
_TASK_MODE: dict[str, str] = {  # per task, the mode its scores count for
    "live_data": "react",
    "schedule": "few_shot",
    "extraction": "few_shot",
}
"""Every other task is answered by reasoning (cot) unless its constraints say otherwise."""
_OPTIONS_SCORE = 3.0
_DEFAULT_THRESHOLD = 0.55


@dataclass(frozen=True)
class ModeChoice:
    """``confidence`` is the local scorer's probability for ``mode`` (also when the model chose it)."""

    mode: str
    confidence: float
    reason: str
    source: str  # "local", "llm" or "llm-fallback"
    scores: tuple[tuple[str, float], ...] = ()
    task: str = ""
    """The task type the understanding read (empty for a model's choice without one)."""


def mode_for(u: Understanding) -> str:
    """The mode for one understanding: the rule the docstring of this module states (kept with the
    understanding's readings, which its learned reading is compared with)."""
    from router.understanding.learned_reading import READING_MODE, reading_of

    return READING_MODE[reading_of(u.task, u.constraints)]


def _mode_scores(u: Understanding, mode: str) -> dict[str, float]:
    """Per mode, the strongest task evidence behind it; the chosen mode keeps at least its task's score."""
    task_scores = dict(u.scores)
    scores = dict.fromkeys(MODES, 0.0)
    selection = "selection" in u.constraints  # items kept by a condition: its extraction score is reasoning's
    for task, score in task_scores.items():
        m = "cot" if selection and task == "extraction" else _TASK_MODE.get(task, "cot")
        scores[m] = max(scores[m], score)
    if "exact_figure" in u.constraints:
        scores["react"] = max(scores["react"], task_scores.get("maths", 0.0))
        scores["cot"] = min(scores["cot"], max(v for t, v in task_scores.items() if t != "maths" and _TASK_MODE.get(t, "cot") == "cot"))
    if "options" in u.constraints:
        scores["tot"] = max(_OPTIONS_SCORE, task_scores.get(u.task, 0.0))
    scores[mode] = max(scores[mode], task_scores.get(u.task, 0.0))
    return scores


def _softmax(scores: dict[str, float]) -> dict[str, float]:
    top = max(scores.values())
    exps = {m: math.exp(s - top) for m, s in scores.items()}
    total = sum(exps.values())
    return {m: v / total for m, v in exps.items()}


def classify(question: str) -> ModeChoice:
    """The local choice: deterministic, no model; reads the question's understanding."""
    from router.understanding import understand

    u = understand(question)
    mode = mode_for(u)
    scores = _mode_scores(u, mode)
    probabilities = _softmax(scores)
    cues = "; ".join(u.evidence) if u.evidence else "no distinctive cue"
    reason = f"{u.summary}: {cues}"
    if mode == "react" and u.task == "maths":
        reason += " -> calculator"
    elif mode == "tot":
        reason += " -> options to weigh"
    return ModeChoice(
        mode=mode,
        confidence=round(probabilities[mode], 4),
        reason=reason,
        source="local",
        scores=tuple((m, round(scores[m], 3)) for m in MODES),
        task=u.task,
    )


# --- the model as a second opinion ------------------------------------------------------------

_LLM_PROMPT = {
    "zh": (
        "判断下面用户的问题适合哪种回答模式，只输出一个词：tot、react、few_shot 或 cot。\n"
        "规则：需要一步步推理/数学解题/公式推导的输出 cot；固定模板化抽取信息（时间/人物/事项）的输出 few_shot；"
        "需要调用工具（天气/时间/计算/新闻/汇率等实时信息）的输出 react；开放性问题/多方案对比找最优的输出 tot。\n"
        "问题：{question}"
    ),
    "en": (
        "Decide which answering mode suits the user's question. Reply with exactly one word: tot, react, few_shot or cot.\n"
        "Rules: step-by-step reasoning / maths problems / derivations -> cot; fixed-template extraction of information "
        "(time/person/event) -> few_shot; needs tools (weather, time, calculation, news, exchange rates, live data) -> "
        "react; open questions comparing several plans to find the best -> tot.\n"
        "Question: {question}"
    ),
}
# Longest / most specific names first so that no name swallows another; boundaries keep
# "tot" out of "total" and "cot" out of "cotton". Compiled on first use: only the llm and
# hybrid selectors read a model's reply, and the local one must not pay for these at start-up.
@cache
def _reply_names() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return (
        ("tot", re.compile(r"(?<![a-z])(?:tot|tree[- ]of[- ]thoughts?)(?![a-z])|思维树", re.I)),
        ("react", re.compile(r"(?<![a-z])re-?act(?![a-z])|工具调用|调用工具", re.I)),
        ("few_shot", re.compile(r"(?<![a-z])few[-_ ]?shot(?![a-z])|少样本|小样本|示例抽取|模板抽取", re.I)),
        ("cot", re.compile(r"(?<![a-z])(?:cot|chain[- ]of[- ]thoughts?)(?![a-z])|思维链", re.I)),
    )


def parse_mode_reply(text: str) -> str | None:
    """The mode named in a model's reply, or None when it names none."""
    for mode, pattern in _reply_names():
        if pattern.search(text):
            return mode
    return None


def _settings(config: RouterConfig | None) -> tuple[str, float]:
    if config is None:
        return "hybrid", _DEFAULT_THRESHOLD
    return config.modes.selector, config.modes.confidence_threshold


def select_mode(question: str, llm: LLMClient | None = None, config: RouterConfig | None = None) -> ModeChoice:
    """Local choice; the llm is asked only when given and the config (or low confidence) calls for it.

    Without a config an llm is consulted as in ``selector: hybrid``.
    """
    local = classify(question)
    selector, threshold = _settings(config)
    if llm is None or selector == "local" or (selector == "hybrid" and local.confidence >= threshold):
        return local
    from router.modes.prompts import detect_language

    prompt = _LLM_PROMPT[detect_language(question)].format(question=question)
    try:
        response = llm.chat([{"role": "user", "content": prompt}], tools=None)
        reply = response.message.content or ""
    except Exception as exc:  # the second opinion is optional: any failure keeps the local choice
        return _fallback(local, f"model call failed ({type(exc).__name__})")
    mode = parse_mode_reply(reply)
    if mode is None:
        return _fallback(local, f"model reply named no mode ({reply.strip()[:40]!r})")
    why = "selector: llm" if selector == "llm" else f"local confidence {local.confidence:.2f} < {threshold:.2f}"
    # The model gives no probability; confidence stays what the local scorer thinks of the returned mode.
    confidence = round(_softmax(dict(local.scores))[mode], 4)
    return ModeChoice(mode, confidence, f"model chose {mode} ({why})", "llm", local.scores, local.task)


def _fallback(local: ModeChoice, why: str) -> ModeChoice:
    return ModeChoice(
        local.mode, local.confidence, f"{why}; local: {local.reason}", "llm-fallback", local.scores, local.task
    )


def auto_select(question: str, llm: LLMClient | None = None, config: RouterConfig | None = None) -> str:
    """Just the mode name (the seeds' function, minus the mandatory model call)."""
    return select_mode(question, llm, config).mode


__all__ = ["MODES", "ModeChoice", "auto_select", "classify", "mode_for", "parse_mode_reply", "select_mode"]
