"""Live data and schedule entries: what is looked up now, and what is filed for later.

A value that changes over time, asked for now with nothing to compute it from, is looked up; so is a
recent match result. The same words inside a text to rework, a puzzle's premises, a remark, a word
problem or an exam item belong to that text, so a look-up is capped there. A schedule entry is a short
dated statement (not a question, not past) with a person, an activity or a clock time.
"""

from __future__ import annotations

from router.lazyre import LazyPattern
from router.understanding import readings
from router.understanding.cues import Compiled
from router.understanding.language import CJK

CURRENT_CHARS = 120
"""A current value is asked in a short line."""
TALK = frozenset({"feelings", "greeting/thanks", "personal advice"})
HOW_TO = ("how do i", "how can i", "how to ", "how would i", "how do you", "how should i", "怎么设置", "如何设置",
          "怎么让", "如何让", "怎么才能", "如何才能")
_DEFINITIONAL = ("difference between", "what causes", "why is", "why are", "why do", "why does", "define ",
                 "definition of", "in simple terms", "区别", "原理", "为什么", "为啥", "是什么原因",
                 "tell apart", "apart from", "tell the difference", "how can you tell", "how do you tell", "怎么分辨", "怎么区分")
"""A kind of thing explained or told apart ("how can you tell hail damage apart from blistering"): no value to fetch."""


_CODE_REQUESTS = ("sketch", "script", "code:", "code for", "a program", "a function", "写个", "写一个", "脚本", "代码", "程序")
"""Code asked for: what it reads or fetches (a sensor's humidity, a price feed) is its input, not a look-up."""


def weigh_live_data(scores: dict[str, float], evidence: list[tuple[str, str, float]], names: set[str],
                    signals: dict[str, str], low: str, present: set[str], has_cjk: bool, *, length: int,
                    short: int, long: int, numbers: int, question_form: bool, interjection: bool,
                    text_work: bool, material: bool, lettered: bool, exact: bool, puzzle: bool) -> None:
    """Add a current value or a recent result to ``scores``, and cap a look-up where its words are context."""
    if (length <= CURRENT_CHARS and not numbers and not text_work and not material
            and (names.isdisjoint(TALK) or (question_form and names & TALK == {"feelings"} and interjection))
            and not exact):
        asked_now = "deictic" in signals or any(m in low for m in readings.MARKET_NOW)
        if asked_now and (value := readings.current_value(low, present, has_cjk)):
            scores["live_data"] += 1.6
            evidence.append(("live_data", f"a current value '{value}' + '{signals.get('deictic', 'market')}'", 1.6))
        elif result := readings.recent_result(low):
            scores["live_data"] += 3.0
            evidence.append(("live_data", f"a recent result '{result}'", 3.0))
    # Live data: a live noun, helped by "today/now" in a short question; in a long text a price or a
    # stock mentioned without "now" and without a question is context, not a look-up.
    if not question_form and "deictic" not in signals:
        scores["live_data"] *= 0.5
    rates_given = numbers >= 2 and "%" in low  # "先涨价10%再降价10%，现在的价格": a story's prices, computed
    if scores["live_data"] >= 0.8 and "deictic" in signals and length <= short and not rates_given:
        scores["live_data"] += 1.4
    elif "deictic" not in signals and length > long:
        scores["live_data"] = min(scores["live_data"], 1.0)  # a long text's storms and strikes are its story
    small_talk = not question_form and ("greeting/thanks" in names or "feelings" in names)
    if scores["live_data"] > 0 and "deictic" not in signals and any(d in low for d in _DEFINITIONAL):
        scores["live_data"] = min(scores["live_data"], 1.0)  # "the difference between a hurricane and a typhoon"
    if lettered or (scores["live_data"] > 0 and readings.inline_options(low)):  # an exam item's options are all it needs
        scores["live_data"] = 0.0
    if scores["coding"] >= 3.0 and (any(h in low for h in HOW_TO) or any(r in low for r in _CODE_REQUESTS)):
        # "how do I upgrade to the latest version of node": steps; "arduino sketch please: DHT22 reads temp/humidity
        # ...": the readings are the program's input, nothing to look up
        scores["live_data"] = min(scores["live_data"], 1.0)
    if text_work or material or small_talk or puzzle or (scores["live_data"] > 0 and readings.past_era(low)):
        # a past era's prices and shops have stopped changing; the text's (the puzzle's premises', a remark's) weather and clock words are not a look-up
        scores["live_data"] = min(scores["live_data"], 1.0)


def dated_entry(c: Compiled, body: str, low: str, digits: bool, signals: dict[str, str]) -> tuple[str, float] | None:
    """A time with a person, an activity or a clock time in a statement: its time and weight, or None."""
    when = signals.get("time word") or (_match(c.time_expression, low) if digits or CJK.search(low) else None)
    if not when:
        return None
    person = _match(c.person, body)
    activity = signals.get("activity") or _match(c.activity, low)
    clock = _match(c.clock, low)
    if not (person or activity or clock):
        return None
    weight = 1.6 + (1.4 if person or activity else 0.0) + (1.0 if person and activity else 0.0)
    weight += 0.6 if clock else 0.0
    return when, weight


_UPCOMING = ("tomorrow", "tmrw", "tmr", "tonight", "next ", "later", "upcoming", "this weekend", "monday", "tuesday",
             "wednesday", "thursday", "friday", "saturday", "sunday", "明天", "后天", "下周", "下个", "下星期", "下礼拜",
             "待会", "一会儿", "周一", "周二", "周三", "周四", "周五", "周六", "周日", "星期")


def exclaimed(low: str) -> bool:
    """Whether a line ends in an exclamation ("took her first steps today!!", "今天考了满分！")."""
    return low.rstrip().endswith(("!", "！"))


def exclaimed_news(c: Compiled, low: str) -> bool:
    """An exclamation about what happened, with no time still to come and no clock time: news shared, no
    entry to file ("my daughter took her first steps today!!", "宝宝今天第一次叫妈妈了！！"); "dentist
    tomorrow at 3pm!" still files."""
    return exclaimed(low) and not any(u in low for u in _UPCOMING) and c.clock.search(low) is None


def _match(pattern: LazyPattern, text: str) -> str | None:
    found = pattern.search(text)
    return found.group(0) if found else None
