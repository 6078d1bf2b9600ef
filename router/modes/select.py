"""Choosing how to answer (cot / few_shot / react / tot) without asking a model.

The seeds ask the LLM to pick a mode on every question: one extra round trip and
tokens before the real work starts. Here the default is a local, deterministic
scorer built from *families* of linguistic cues, not from example sentences, so
it carries over to questions it has never seen:

* react    needs the outside world or a calculator: live-data nouns (weather,
           rates, prices, news, clock) + temporal deictics (now, today, 最新),
           lookup verbs, and bare arithmetic ("2^32", "17.5% of 880").
* cot      needs reasoning: prove / derive / solve / step by step / why, maths
           vocabulary, and word problems (several numbers inside a narrative
           question with no ready-made expression to hand to a calculator).
* few_shot fixed-template extraction: extraction verbs and field names, or a
           schedule-like *statement* (time expression + person or activity,
           no question form).
* tot      open choice between plans: compare / which / 还是 / best / options /
           brainstorm / trade-offs vocabulary.

Each family adds its weight to its mode once; a softmax over the four scores is
the confidence. Only when the confidence is low (``selector: hybrid``) or the
config says so (``selector: llm``) is a model consulted, and its reply can never
make things worse than the local choice.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from router.modes.cues import (
    ACTIVITY,
    CUES,
    EXPRESSION,
    LIVE_FAMILIES,
    MATH_FUNCTION,
    NARRATIVE,
    NUMBER,
    PERCENT_OF,
    PERSON,
    QUANTITY_QUESTION,
    QUESTION_FORM,
    TIME_EXPRESSION,
    VARIABLE,
)

if TYPE_CHECKING:
    from router.clients.base import LLMClient
    from router.config import RouterConfig

MODES: tuple[str, ...] = ("cot", "few_shot", "react", "tot")
_PRIOR: dict[str, float] = {"cot": 0.5, "few_shot": 0.0, "react": 0.0, "tot": 0.0}
"""With no cue at all a question is answered by plain reasoning, as in the seeds."""
_TEMPERATURE = 1.0
_DEFAULT_THRESHOLD = 0.55
_MAX_CHARS = 1200


@dataclass(frozen=True)
class ModeChoice:
    """``confidence`` is the local scorer's probability for ``mode`` (also when the model chose it)."""

    mode: str
    confidence: float
    reason: str
    source: str  # "local", "llm" or "llm-fallback"
    scores: tuple[tuple[str, float], ...] = ()




@dataclass(frozen=True)
class _Evidence:
    mode: str
    name: str
    weight: float
    text: str


def _cue_evidence(question: str) -> list[_Evidence]:
    found = []
    has_number = NUMBER.search(question) is not None
    for cue in CUES:
        if cue.name == "calculate verb" and not has_number:
            continue  # "what is the capital of France" asks for a fact, not a sum
        match = cue.pattern.search(question)
        if match:
            found.append(_Evidence(cue.mode, cue.name, cue.weight, match.group(0).strip()))
    return found


def _structural_evidence(question: str, cues: list[_Evidence]) -> list[_Evidence]:
    """Features that look at the shape of the question rather than at single words."""
    found: list[_Evidence] = []
    names = {e.name for e in cues}
    algebra = VARIABLE.search(question) is not None and (
        "solve/equation" in names or "=" in question or re.search(r"[xyz]\s*\^|\d[xyz]\b", question, re.I)
    )
    expression = EXPRESSION.search(question) or PERCENT_OF.search(question) or MATH_FUNCTION.search(question)
    numbers = NUMBER.findall(question)
    question_form = QUESTION_FORM.search(question) is not None
    if expression and not algebra:
        # A ready-made expression goes to the calculator, even inside a sentence.
        found.append(_Evidence("react", "arithmetic expression", 3.6, expression.group(0).strip()))
    elif algebra:
        found.append(_Evidence("cot", "algebra with variables", 2.2, VARIABLE.search(question).group(0)))  # type: ignore[union-attr]
    if not expression and len(numbers) >= 2 and (question_form or QUANTITY_QUESTION.search(question)):
        # Word problems ask for a quantity; numbers in a question that asks for something else
        # ("lose 5 kg in 3 months: which plan?") are only weak evidence of maths.
        quantity = QUANTITY_QUESTION.search(question)
        weight = 2.6 if quantity else 1.2
        if NARRATIVE.search(question):
            weight += 0.6
        live = names & LIVE_FAMILIES
        if not live:
            found.append(_Evidence("cot", "word problem", weight, f"{len(numbers)} numbers"
                                   + (f" + '{quantity.group(0)}'" if quantity else "")))
    when = TIME_EXPRESSION.search(question)
    if when and not question_form and not (names & LIVE_FAMILIES):
        # A dated statement is a note to file away; a person or an activity makes it a schedule entry.
        person = PERSON.search(question)
        activity = ACTIVITY.search(question)
        weight = 1.6 + (1.4 if person or activity else 0.0) + (1.0 if person and activity else 0.0)
        parts = [f"time '{when.group(0).strip()}'"]
        parts += [f"person '{person.group(0).strip()}'"] if person else []
        parts += [f"activity '{activity.group(0).strip()}'"] if activity else []
        found.append(_Evidence("few_shot", "schedule statement", weight, ", ".join(parts)))
    return found


def _softmax(scores: dict[str, float]) -> dict[str, float]:
    top = max(scores.values())
    exps = {m: math.exp((s - top) / _TEMPERATURE) for m, s in scores.items()}
    total = sum(exps.values())
    return {m: v / total for m, v in exps.items()}


def classify(question: str) -> ModeChoice:
    """The local choice: deterministic, no model, a few dozen regex searches."""
    text = question.strip()
    if len(text) > _MAX_CHARS:
        # A pasted document: its opening and the request at its end decide; keeps the cost bounded.
        text = text[: _MAX_CHARS // 2] + "\n" + text[-_MAX_CHARS // 2 :]
    cues = _cue_evidence(text)
    evidence = cues + _structural_evidence(text, cues)
    scores = dict(_PRIOR)
    for item in evidence:
        scores[item.mode] += item.weight
    # Live data questions phrased with "today/now" are the strongest react signal there is.
    names = {e.name for e in evidence}
    if names & LIVE_FAMILIES and "temporal deictic" in names:
        scores["react"] += 0.8
    probabilities = _softmax(scores)
    mode = max(MODES, key=lambda m: (scores[m], -MODES.index(m)))
    supporting = [e for e in evidence if e.mode == mode]
    if supporting:
        supporting.sort(key=lambda e: -e.weight)
        reason = ", ".join(f"{e.name} ('{e.text}')" for e in supporting[:3])
    else:
        reason = "no distinctive cue; plain reasoning"
    return ModeChoice(
        mode=mode,
        confidence=round(probabilities[mode], 4),
        reason=reason,
        source="local",
        scores=tuple((m, round(scores[m], 3)) for m in MODES),
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
# "tot" out of "total" and "cot" out of "cotton".
_REPLY_NAMES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("tot", re.compile(r"(?<![a-z])(?:tot|tree[- ]of[- ]thoughts?)(?![a-z])|思维树", re.I)),
    ("react", re.compile(r"(?<![a-z])re-?act(?![a-z])|工具调用|调用工具", re.I)),
    ("few_shot", re.compile(r"(?<![a-z])few[-_ ]?shot(?![a-z])|少样本|小样本|示例抽取|模板抽取", re.I)),
    ("cot", re.compile(r"(?<![a-z])(?:cot|chain[- ]of[- ]thoughts?)(?![a-z])|思维链", re.I)),
)


def parse_mode_reply(text: str) -> str | None:
    """The mode named in a model's reply, or None when it names none."""
    for mode, pattern in _REPLY_NAMES:
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
    return ModeChoice(mode, confidence, f"model chose {mode} ({why})", "llm", local.scores)


def _fallback(local: ModeChoice, why: str) -> ModeChoice:
    return ModeChoice(local.mode, local.confidence, f"{why}; local: {local.reason}", "llm-fallback", local.scores)


def auto_select(question: str, llm: LLMClient | None = None, config: RouterConfig | None = None) -> str:
    """Just the mode name (the seeds' function, minus the mandatory model call)."""
    return select_mode(question, llm, config).mode


__all__ = ["MODES", "ModeChoice", "auto_select", "classify", "parse_mode_reply", "select_mode"]
