"""What the difficulty score reads inside a kind of work, beyond the task type.

Two small readings, each measured on the shared tables before it was kept (``bench/train_difficulty.py``):

* ``word_problem`` for maths: the structure of a word problem (how many sentences, clauses and
  quantities, fractions, comparisons, what is left over, large figures, decimals). A problem that
  chains more steps is the one a weaker model gets wrong; its length alone says part of it.
* ``digit_share`` for multiple choice: on exam questions answered with a letter, the strong model's
  advantage is smallest on calculation items (a worked answer is often not reduced to a letter, and
  both tiers miss long computations), and largest on long scenarios to reason through.

Pure Python; the patterns compile on the first maths question, not at import (importing ``router``
stays cheap). Bounded: a word problem is read in its first 720 characters, a digit share in 3,000.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

_MAX_CHARS = 3000
_WORD_PROBLEM_CHARS = 720
"""A word problem is a paragraph (GSM8K's longest is 713 characters): longer texts are read at their first 720."""
WORD_PROBLEM_FEATURES: tuple[str, ...] = (
    "log_chars", "log_words", "sentences", "clauses", "quantities", "distinct_quantities", "number_words",
    "fraction", "decimal", "percent", "money", "magnitude", "comparison", "remainder", "sequence", "time_unit",
    "rate",
)
"""The order of ``word_problem``'s numbers, which the shipped weights follow."""

_NUMBER_WORDS = frozenset(
    "half twice double triple third quarter one two three four five six seven eight nine ten eleven twelve fifteen "
    "twenty thirty forty fifty hundred thousand dozen".split()
)
_FRACTION_WORDS = frozenset({"half", "halves", "third", "thirds", "quarter", "quarters", "fifth", "fifths", "fraction"})
_COMPARISON_WORDS = frozenset({"more", "less", "fewer", "than", "times"})
_REMAINDER_WORDS = frozenset({"left", "remain", "remains", "remaining", "remainder", "rest"})
_SEQUENCE_WORDS = frozenset({"if", "after", "before", "then"})
_TIME_WORDS = frozenset({"hour", "hours", "minute", "minutes", "week", "weeks", "day", "days", "month", "months",
                         "year", "years"})
_RATE_WORDS = frozenset({"per", "each", "every", "rate"})
_ZH = {
    "number_words": "一二两三四五六七八九十百千万半倍",
    "fraction": ("分之", "一半"),
    "comparison": ("比",),
    "remainder": ("剩",),
    "sequence": ("如果", "之后", "然后"),
    "time_unit": ("小时", "分钟", "星期", "天", "月", "年"),
    "rate": ("每",),
}


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], ...]:
    return (
        re.compile(r"\d[\d,]*(?:\.\d+)?"),
        re.compile(r"[a-z]+"),
        re.compile(r"[.!?](?:\s|$)|[。！？]"),
        re.compile(r"\d\s*/\s*\d"),
        re.compile(r"[\u4e00-\u9fff]"),
        re.compile("[" + _ZH["number_words"] + "]"),
    )


def word_problem(text: str) -> tuple[float, ...]:
    """The numbers named by ``WORD_PROBLEM_FEATURES``, for one maths question.

    One pass each for figures, words and sentence ends; every word family is a set lookup."""
    text = text[:_WORD_PROBLEM_CHARS]
    number, word, sentence_end, ratio, han, han_number = _patterns()
    numbers = number.findall(text)
    words = word.findall(text.lower())
    present = set(words)
    cjk = han.search(text) is not None
    values = [float(n.replace(",", "")) for n in numbers if n.replace(",", "").replace(".", "", 1).isdigit()]

    def family(names: frozenset[str], key: str) -> float:
        return float(not present.isdisjoint(names) or (cjk and any(t in text for t in _ZH[key])))

    number_words = sum(1 for w in words if w in _NUMBER_WORDS)
    if cjk:
        number_words += len(han_number.findall(text))
    return (
        math.log1p(len(text)),
        math.log1p(len(text.split())),
        float(len(sentence_end.findall(text))),
        float(text.count(",") + text.count("，")),
        float(len(numbers)),
        float(len(set(numbers))),
        float(number_words),
        float(("/" in text and ratio.search(text) is not None) or family(_FRACTION_WORDS, "fraction") > 0),
        float(any(n.find(".") > 0 for n in numbers)),
        float("%" in text or "percent" in present or (cjk and "百分" in text)),
        float("$" in text or "¥" in text or "元" in text),
        max((math.log10(v + 1.0) for v in values), default=0.0),
        family(_COMPARISON_WORDS, "comparison"),
        family(_REMAINDER_WORDS, "remainder"),
        family(_SEQUENCE_WORDS, "sequence"),
        family(_TIME_WORDS, "time_unit"),
        family(_RATE_WORDS, "rate"),
    )


def is_word_problem(text: str, readings: tuple[float, ...]) -> bool:
    """A story with at least two quantities (figures or number words) and no equation to solve: what the
    word-problem weights were fitted on. An equation, an integral or a terse exercise is another kind of
    maths, where a short question is not an easy one."""
    head = text[:_WORD_PROBLEM_CHARS]
    return (readings[4] + readings[6] >= 2.0 and readings[1] >= math.log1p(15)
            and "=" not in head and "^" not in head and "∫" not in head)


def digit_share(text: str) -> float:
    """ASCII digits per character of the question (an exam item's trailing "Answer:" cue is not counted)."""
    body = text[:_MAX_CHARS]
    cut = body.rfind("Answer:")
    if cut > 0:
        body = body[:cut]
    return sum(body.count(d) for d in "0123456789") / max(1, len(body))


__all__ = ["WORD_PROBLEM_FEATURES", "digit_share", "is_word_problem", "word_problem"]
