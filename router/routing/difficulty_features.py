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
from collections import Counter
from functools import lru_cache
from typing import Any

_MAX_CHARS = 3000
_WORD_PROBLEM_CHARS = 720
"""A word problem is a paragraph (GSM8K's longest is 713 characters): longer texts are read at their first 720."""
WORD_PROBLEM_FEATURES: tuple[str, ...] = (
    "log_chars", "log_words", "sentences", "clauses", "quantities", "distinct_quantities", "number_words",
    "fraction", "decimal", "percent", "money", "magnitude", "comparison", "remainder", "sequence", "time_unit",
    "rate",
    # bookkeeping and arithmetic load (added 2026-12-02, chosen on new GSM8K questions in five folds)
    "unit_kinds", "unit_conversion", "entities", "multiplicative", "percent_count", "fraction_count", "derived_question",
    "question_chars", "question_quantities", "stages", "complement", "hypothetical", "most_in_a_sentence",
    "sentences_with_quantities", "questions", "long_figures", "longest_figure", "unround_figures", "decimal_figures",
    "figure_magnitudes", "magnitude_range",
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
_UNIT_FAMILIES = (
    frozenset("second seconds minute minutes hour hours day days week weeks month months year years".split()),
    frozenset("dollar dollars cent cents $".split()),
    frozenset("inch inches foot feet yard yards mile miles meter meters centimeters kilometers km cm".split()),
    frozenset("pound pounds ounce ounces gram grams kilograms kg lb lbs ton tons".split()),
    frozenset("gallon gallons liter liters cup cups quart quarts ml milliliters".split()),
)
_CONVERSIONS = tuple((frozenset(a.split()), frozenset(b.split())) for a, b in (
    ("minute minutes", "hour hours"), ("day days", "week weeks"), ("month months", "year years"),
    ("inch inches", "foot feet"), ("centimeters cm", "meter meters"), ("cent cents", "dollar dollars $"),
    ("ounce ounces", "pound pounds"), ("second seconds", "minute minutes"), ("day days", "year years month months"),
    ("hour hours", "day days week weeks"),
))
"""Two units of one dimension named in one problem: a conversion is a step of its own."""
_MULTIPLICATIVE = frozenset("twice double triple half times each per every quarter third thirds".split())
_FRACTION_COUNTED = frozenset("half third thirds quarter quarters fifth fifths".split())
_DERIVED = ("how much more", "how many more", "how much less", "how many fewer", "difference", "profit", "average",
            "altogether", "in total", "total", "combined", "left", "remain", "percent", "percentage", "change", "save",
            "earn", "lose", "longer", "older")
"""A question asking for a quantity derived from the others (a difference, a total, a rate) adds a step."""
_STAGES = frozenset("first second third next following then later finally rest remaining after".split())
_COMPLEMENT = frozenset("rest remaining except other others remainder".split())
_HYPOTHETICAL = frozenset("if would suppose assuming".split())
_ALL_UNITS = frozenset().union(*_UNIT_FAMILIES)
_COUNTED = _MULTIPLICATIVE | _FRACTION_COUNTED | _STAGES | _HYPOTHETICAL
_PUNCTUATION = ".,;:?!'\"()"
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
        re.compile(r"(?<=[.!?])\s+"),
    )


def word_problem(text: str) -> tuple[float, ...]:
    """The numbers named by ``WORD_PROBLEM_FEATURES``, for one maths question.

    One pass each for figures, words and sentence ends; every word family is a set lookup."""
    base, context = _base(text[:_WORD_PROBLEM_CHARS])
    return base + _bookkeeping(*context)


def story_readings(text: str) -> tuple[float, ...] | None:
    """``word_problem(text)`` for a story with at least two quantities (figures or number words) and no
    equation to solve, what the word-problem weights were fitted on; None for anything else. An
    equation, an integral or a terse exercise is another kind of maths, where a short question is not
    an easy one. The bookkeeping readings, the costlier half, are taken only once the first readings
    show a story."""
    head = text[:_WORD_PROBLEM_CHARS]
    if "=" in head or "^" in head or "∫" in head:
        return None
    base, context = _base(head)
    if base[4] + base[6] < 2.0 or base[1] < math.log1p(15):
        return None
    return base + _bookkeeping(*context)


def _base(text: str) -> tuple[tuple[float, ...], tuple[Any, ...]]:
    """The first readings, and what the bookkeeping readings go on to read."""
    number, word, sentence_end, ratio, han, han_number, sentence_split = _patterns()
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
    base = (
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
    return base, (text, words, present, numbers, values, number, sentence_split, ratio)


def _bookkeeping(text: str, words: list[str], present: set[str], numbers: list[str], values: list[float],
                 number: re.Pattern[str], sentence_split: re.Pattern[str], ratio: re.Pattern[str]) -> tuple[float, ...]:
    """How much a problem asks to keep track of: units and conversions, named people, multiplicative
    steps, stages, the question sentence and what it derives, and how awkward the figures are to
    compute with (long, unround, decimal, far apart in size). Their weights are fitted (on GSM8K, by
    ``bench/train_difficulty.py``) and not all point the way one guesses: fractions, stages, several
    people and unround figures go with the weak model's misses, while decimals (money in cents), many
    kinds of units and a percentage go with problems it solves."""
    sentences = [s for s in sentence_split.split(text.strip()) if s]
    asked = [s for s in sentences if s.rstrip().endswith("?")]
    question = (asked[-1] if asked else sentences[-1] if sentences else "").lower()
    per_sentence = [len(number.findall(s)) for s in sentences] if numbers else [0]
    names = {t for s in sentences for w in s.split()[1:] if w[0].isupper() or w[0] in _PUNCTUATION
             for t in (w.strip(_PUNCTUATION),) if len(t) > 1 and t[0].isupper() and t[1:].islower()}
    tally = Counter(w for w in words if w in _COUNTED)
    units = (present | ({"$"} if "$" in text else set())) & _ALL_UNITS
    digits = [n.replace(",", "").replace(".", "").strip("0") for n in numbers]
    magnitudes = [math.log10(v) for v in values if v > 0]
    return (
        float(sum(1 for family in _UNIT_FAMILIES if not units.isdisjoint(family)) if units else 0),
        float(sum(1 for a, b in _CONVERSIONS if not units.isdisjoint(a) and not units.isdisjoint(b)) if units else 0),
        float(len(names)),
        float(sum(tally[w] for w in _MULTIPLICATIVE)),
        float(text.count("%") + words.count("percent")),
        float((len(ratio.findall(text)) if "/" in text else 0) + sum(tally[w] for w in _FRACTION_COUNTED)),
        float(any(d in question for d in _DERIVED)),
        math.log1p(len(question)),
        float(len(number.findall(question))),
        float(sum(tally[w] for w in _STAGES)),
        float(not present.isdisjoint(_COMPLEMENT)),
        float(sum(tally[w] for w in _HYPOTHETICAL)),
        float(max(per_sentence)),
        float(sum(1 for n in per_sentence if n)),
        float(len(asked)),
        float(sum(1 for d in digits if len(d) >= 3)),
        float(max((len(d) for d in digits), default=0)),
        float(sum(1 for v in values if v >= 10 and v % 5)),
        float(sum(1 for n in numbers if "." in n)),
        sum(math.log10(v + 1.0) for v in values),
        max(magnitudes) - min(magnitudes) if magnitudes else 0.0,
    )


_OPTION_CHARS = 6000


@lru_cache(maxsize=1)
def _option_line() -> re.Pattern[str]:
    return re.compile(r"^\s*\(?[A-Da-d][.):]\s?(.*)$")


def exam_options(text: str) -> str:
    """An exam item's options, without their letters (up to four; a line that follows an option continues it).

    What an exam item's options are (figures, names, long statements, code) says more of where a
    stronger model gains than its stem does: on MMLU subjects held out, an embedding of the options
    alone ranked the items better than one of the stem and options together (``bench/train_difficulty.py``)."""
    body = text[:_OPTION_CHARS]
    cut = body.rfind("Answer:")
    if cut > 0:
        body = body[:cut]
    option = _option_line()
    options: list[str] = []
    for line in body.split("\n"):
        found = option.match(line) if len(options) < 4 else None
        if found is not None:
            options.append(found.group(1))
        elif options:
            options[-1] += " " + line
    return " ".join(o.strip() for o in options)


def digit_share(text: str) -> float:
    """ASCII digits per character of the question (an exam item's trailing "Answer:" cue is not counted)."""
    body = text[:_MAX_CHARS]
    cut = body.rfind("Answer:")
    if cut > 0:
        body = body[:cut]
    return sum(body.count(d) for d in "0123456789") / max(1, len(body))


__all__ = ["WORD_PROBLEM_FEATURES", "digit_share", "exam_options", "story_readings", "word_problem"]
