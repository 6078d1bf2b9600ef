"""What the difficulty score reads inside a kind of work, beyond the task type.

Two small readings, each measured on the shared tables before it was kept (``bench/train_difficulty.py``):

* ``word_problem`` for maths: the structure of a word problem (how many sentences, clauses and
  quantities, fractions, comparisons, what is left over, large figures, decimals). A problem that
  chains more steps is the one a weaker model gets wrong; its length alone says part of it.
* ``digit_share`` for multiple choice: on exam questions answered with a letter, the strong model's
  advantage is smallest on calculation items (a worked answer is often not reduced to a letter, and
  both tiers miss long computations), and largest on long scenarios to reason through.

Pure Python; the patterns compile on the first maths question, not at import (importing ``router``
stays cheap). Bounded: only the first ``_MAX_CHARS`` characters are read.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

_MAX_CHARS = 3000
WORD_PROBLEM_FEATURES: tuple[str, ...] = (
    "log_chars", "log_words", "sentences", "clauses", "quantities", "distinct_quantities", "number_words",
    "fraction", "decimal", "percent", "money", "magnitude", "comparison", "remainder", "sequence", "time_unit",
    "rate",
)
"""The order of ``word_problem``'s numbers, which the shipped weights follow."""


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    return {
        "number": re.compile(r"\d[\d,]*(?:\.\d+)?"),
        "number_word": re.compile(
            r"\b(?:half|twice|double|triple|third|quarter|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
            r"twelve|fifteen|twenty|thirty|forty|fifty|hundred|thousand|dozen)\b|[一二两三四五六七八九十百千万半倍]",
            re.IGNORECASE,
        ),
        "sentence_end": re.compile(r"[.!?](?:\s|$)|[。！？]"),
        "fraction": re.compile(r"\d\s*/\s*\d|\b(?:half|third|quarter|fifth|fraction)|分之|一半", re.IGNORECASE),
        "decimal": re.compile(r"\d\.\d"),
        "percent": re.compile(r"%|\bpercent|百分", re.IGNORECASE),
        "comparison": re.compile(r"\b(?:more|less|fewer|than|times as)\b|比|多|少", re.IGNORECASE),
        "remainder": re.compile(r"\b(?:left|remain\w*|rest)\b|剩", re.IGNORECASE),
        "sequence": re.compile(r"\b(?:if|after|before|then)\b|如果|之后|然后", re.IGNORECASE),
        "time_unit": re.compile(r"\b(?:hour|minute|week|day|month|year)s?\b|小时|分钟|星期|天|月|年", re.IGNORECASE),
        "rate": re.compile(r"\b(?:per|each|every|rate)\b|每", re.IGNORECASE),
    }


def word_problem(text: str) -> tuple[float, ...]:
    """The numbers named by ``WORD_PROBLEM_FEATURES``, for one maths question."""
    text = text[:_MAX_CHARS]
    p = _patterns()
    numbers = p["number"].findall(text)
    values = [float(n.replace(",", "")) for n in numbers if n.replace(",", "").replace(".", "", 1).isdigit()]
    return (
        math.log1p(len(text)),
        math.log1p(len(text.split())),
        float(len(p["sentence_end"].findall(text))),
        float(text.count(",") + text.count("，")),
        float(len(numbers)),
        float(len(set(numbers))),
        float(len(p["number_word"].findall(text))),
        float(bool(p["fraction"].search(text))),
        float(bool(p["decimal"].search(text))),
        float(bool(p["percent"].search(text))),
        float("$" in text or "¥" in text or "元" in text),
        max((math.log10(v + 1.0) for v in values), default=0.0),
        float(bool(p["comparison"].search(text))),
        float(bool(p["remainder"].search(text))),
        float(bool(p["sequence"].search(text))),
        float(bool(p["time_unit"].search(text))),
        float(bool(p["rate"].search(text))),
    )


def is_word_problem(readings: tuple[float, ...]) -> bool:
    """At least two quantities (figures or number words): what the word-problem weights were fitted on."""
    return readings[4] + readings[6] >= 2.0


def digit_share(text: str) -> float:
    """Digits per character of the question (an exam item's trailing "Answer:" cue is not counted)."""
    body = text[:_MAX_CHARS]
    cut = body.rfind("Answer:")
    if cut > 0:
        body = body[:cut]
    return sum(c.isdigit() for c in body) / max(1, len(body))


__all__ = ["WORD_PROBLEM_FEATURES", "digit_share", "is_word_problem", "word_problem"]
