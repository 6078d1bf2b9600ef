"""Riddles: questions that give their own world, so their numbers and days are premises to reason from, not a
sum for a calculator or a calendar to look up.

A riddle about days ("if yesterday were tomorrow ...", "今天的前天是周一，那大后天是周几") brings its own calendar;
a rate riddle ("5 machines, 5 minutes, 5 widgets") repeats one number to mislead; a sum told as a riddle ("a fake
$100 bill ... how much did he lose") is a trick to see through.
"""

from __future__ import annotations

import re
from collections import Counter

from router.understanding.readings import inline_options

_DAY_WORDS = ("yesterday", "tomorrow", "today", "day after", "day before", "昨天", "明天", "今天", "后天", "前天")
_WEEKDAY = re.compile(r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|周[一二三四五六日天]|星期[一二三四五六日天]")
_WEEKDAY_GIVEN = re.compile(r"(?:是|was|is) ?(?:周[一二三四五六日天]|星期[一二三四五六日天]|礼拜[一二三四五六日天]|"
                            r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)")
_WEEKDAY_ASKED = ("周几", "星期几", "礼拜几", "what day", "which day")
_HYPOTHETICAL = ("if ", "suppose", "imagine", "如果", "假如", "假设", "要是")
_DAYS_AHEAD = re.compile(r"\d+\s*(?:days?|天)")
_WHICH_DAY = (*_WEEKDAY_ASKED, "day of the week")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "星期", "周", "礼拜")
_UNIT_PREFIXES = frozenset({"千", "百", "万", "十"})
_SPANS = ("minute", "hour", "day", "week", "分钟", "小时", "天")
_RIDDLE_WORDS = ("riddle", "brain teaser", "brainteaser", "trick question", "puzzle", "谜语", "脑筋急转弯", "智力题", "假钞", "假币",
                 "fake $", "fake bill", "fake note", "counterfeit")


def own_calendar(low: str, digits: bool) -> str | None:
    """What makes the question's calendar its own (its evidence), or None: a hypothetical with three day words, a
    weekday given and another asked of it, or a count of days from a given weekday."""
    day_words = sum(1 for d in _DAY_WORDS if d in low)
    hypothetical = any(h in low for h in _HYPOTHETICAL)
    if hypothetical and day_words + (1 if _WEEKDAY.search(low) else 0) >= 3:
        return "a riddle about days"
    if day_words >= 2 and _WEEKDAY_GIVEN.search(low) is not None and any(a in low for a in _WEEKDAY_ASKED):
        return "a riddle about days"
    if digits and calendar_arithmetic(low):  # "what day is it 45 days after a tuesday"
        return "counting days from a given weekday"
    return None


def calendar_arithmetic(low: str) -> bool:
    """A weekday, a count of days and a question for the day: the riddle gives its own calendar."""
    return (any(w in low for w in _WHICH_DAY) and any(w in low for w in _WEEKDAYS)
            and _DAYS_AHEAD.search(low) is not None)


def rate_riddle(numbers: list[str], low: str) -> bool:
    """The same number for the workers, the items and the time ("5 machines, 5 minutes, 5 widgets")."""
    written = [n for n in numbers if n not in _UNIT_PREFIXES]  # a lone 千 may be a unit's prefix (千米)
    if len(written) < 3 or not any(s in low for s in _SPANS) or inline_options(low):
        return False
    return Counter(written).most_common(1)[0][1] >= 3


def told_as_riddle(low: str) -> bool:
    """A sum told as a riddle ("a fake $100 bill ... how much did he lose"): a trick to see through, worked in steps,
    not handed to a calculator."""
    return any(w in low for w in _RIDDLE_WORDS)
