"""Quantities and exact figures: the numbers a question computes with, and the figure it asks for.

Years, ages and numbers inside names ("Apollo 11") are not operands; number words are ("half of Leo's
age and five years younger"). An exact figure is a ready-made expression, a percentage of an amount, a
unit conversion, a finance formula with its inputs, a ratio of given amounts, a date counted from a given
date or a time from a given clock time, a relative change, a figure to a precision asked, a pace, a dose, a
size: something a calculator should produce. A reason asked for ("why does 1/3 + 1/3 + 1/3 equal 1?") or a
reading judged against a norm ("is 140/90 high?") computes nothing.
"""

from __future__ import annotations

import re

from router.lazyre import LazyPattern
from router.understanding import readings
from router.understanding.cues import Compiled
from router.understanding.families import FUNCTION_WORDS

_YEAR = re.compile(r"^(?:1[0-9]{3}|20[0-9]{2})$")
_AGE = re.compile(r"(\d+)[- ]years?[- ]old|aged (\d+)|(\d+)岁")
ZH_NUMERAL = LazyPattern(r"[一二两三四五六七八九十百千万半]", ascii="")
_TO_THE = re.compile(r"\d\s*(?:to the\s*\d|!)")
_FUNCTION_HINTS = ("次方", "次幂", "根号", "平方", "立方", "阶乘")
_NAMED_NUMBER = re.compile(r"[A-Z][A-Za-z]+ \d+")
"""A capitalised word and a number after a word or a comma ("... the Apollo 11 crew"): read with the
preceding characters tested on each match (a lookbehind first would make every position a candidate)."""
_NUMBER_WORDS = frozenset({"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                           "fifteen", "twenty", "thirty", "forty", "fifty", "hundred", "thousand", "dozen", "half",
                           "twice", "double", "triple", "third", "thirds", "quarter", "quarters", "thrice"})
"""English number words that count as a word problem's quantities ("one" is too often not a number)."""
_JUDGED = ("算高", "算低", "算正常", "偏高", "偏低", "高吗", "低吗", "正常吗", "算不算", "is that high", "is that low",
           "is that normal", "is this normal", "is it normal", "is it high", "is it low", "is that good", "is that bad",
           "too high", "too low", "normal for")
"""A reading judged against a norm ("血压140/90算高吗", "is 120/80 normal for my age"): its slash is no division."""
_EXPLAINED = frozenset({"why", "explain", "happened", "rule"})
_EXPLAINED_ALSO = ("为什么", "为啥", "怎么回事", "什么原理", "原理是", "什么道理", "how come")
"""A reason asked in other words ("月息0.5%，一年才6%，可实际利率更高，这是怎么回事"): the figures are the puzzle's, not a sum's."""


_STATISTIC = re.compile(r"\b(?:mean|median|average|averages|std dev|standard deviation|variance)\b|平均数|平均值|平均分|中位数|方差|标准差|众数|均值")
"""A statistic asked of numbers the question lists."""
_STATISTIC_HINTS = ("mean", "median", "average", "std", "deviation", "variance", "平均", "中位", "方差", "标准差", "众数", "均值")
"""Substrings without which ``_STATISTIC`` cannot match: most questions skip its search."""
_NUMBER_LIST = re.compile(r"(?:\d[\d.,]*\s*[a-z%]{0,3}[\s,、，;/]+){3,}\d")
"""Four or more numbers in a row ("78 85 92 61", "120ms 180ms 95ms 210ms"): the data the statistic is of."""
_OWN = frozenset({"i", "we", "my", "our", "me", "us", "i'm", "we're", "i've", "we've"})
_SHORT = 200
"""A question this short that gives three amounts and asks their statistic asks it of them."""
_CHANGE_ASKED = re.compile(r"\b(?:percent(?:age)?|%) (?:growth|change|increase|decrease|drop|rise|gain|loss|lift)\b|\bgrowth rate\b|"
                           r"\brelative (?:lift|uplift|change|increase|decrease|improvement|drop)\b|"
                           r"\bas a (?:percent|percentage)\b|增长率|增幅|涨幅|降幅|(?:增长|下降|上涨|下跌)了?百分之几|占比多少|占百分之几")
"""A relative change or share asked of given amounts ("37 of 212 were no-shows, what's the rate as a percent")."""


_CHANGE_HINTS = ("percent", "%", "growth", "relative", "增", "涨", "降", "跌", "占")
"""Substrings without which ``_CHANGE_ASKED`` cannot match."""


def quantities(c: Compiled, body: str, low: str, digits: bool, present: set[str],
               signals: dict[str, str]) -> tuple[list[str], int]:
    """The question's operands (numbers that are no year, age or name) and their count with number words."""
    numbers: list[str] = []
    if digits or ZH_NUMERAL.search(low):
        named = {m.group(0).rsplit(" ", 1)[1] for m in _NAMED_NUMBER.finditer(body)
                 if m.start() >= 2 and body[m.start() - 1] == " " and (body[m.start() - 2].isalnum() or body[m.start() - 2] in "_,")
                 } if digits else set()
        found = c.number.findall(low) if digits else []
        if ZH_NUMERAL.search(low):
            found += c.zh_number.findall(low)
        if digits and "quantity question" not in signals and ("old" in low or "aged" in low or "岁" in low):
            named |= {g for groups in _AGE.findall(low) for g in groups if g}
        numbers = [n for n in found if not _YEAR.match(n) and n not in named]
    return numbers, len(numbers) + len(present & _NUMBER_WORDS)


_GIVEN_DATE = LazyPattern(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?\b|"
    r"\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b|\d{1,2}月\d{1,2}[日号]|"
    r"\b\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b",
    ascii=r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?\b|"
          r"\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b|\b\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b",
)
_DATE_ASKED = LazyPattern(
    r"\b(?:what|which) (?:dates?|day of the month)\b|\bhow many (?:business |calendar |working |week|school )?days\b"
    r"[^?]{0,30}\b(?:from|between|until|till|through|to|before|after|left)\b|\bon what date\b|哪一?天[^，。]{0,6}(?:到期|截止|吃完|用完|结束|满)|"
    r"什么时候(?:能|可以)?(?:转正|到期|截止|满|结束|吃完|用完)|"
    r"(?:几月)?几[号日][^，。]{0,4}(?:到期|截止|吃完|用完|结束|满)|(?:到期|截止|吃完|用完)[^，。]{0,4}(?:是)?(?:哪一?天|几号)|"
    r"(?:最晚|最迟|最早)(?:是)?(?:哪一?天|几号)|(?:哪一?天|几号)之前|(?:哪一?天|几号|几月几[号日])(?:能|可以|才能|就能)",
    ascii=r"\b(?:what|which) (?:dates?|day of the month)\b|\bhow many (?:business |calendar |working |week|school )?days\b"
          r"[^?]{0,30}\b(?:from|between|until|till|through|to|before|after|left)\b",
)


_ROUNDING_ASKED = LazyPattern(
    r"\bto (?:one|two|three|[123]) decimals?(?: places?)?\b|\b(?:rounded|round it|round that) to\b|"
    r"\bto the nearest (?:cent|dollar|tenth|hundredth|whole number|percent|minute|quarter hour|quarter-hour|hour|day)\b|"
    r"保留(?:一|两|二|三|[123])位小数|精确到",
    ascii=r"\bto (?:one|two|three|[123]) decimals?(?: places?)?\b|\b(?:rounded|round it|round that) to\b|"
          r"\bto the nearest (?:cent|dollar|tenth|hundredth|whole number|percent|minute|quarter hour|quarter-hour|hour|day)\b",
)


_ROUNDING_HINTS = ("decimal", "round", "nearest", "保留", "精确")
_DATE_ASKED_HINTS = ("date", "days", "天", "几号", "几日", "什么时候")
"""Substrings without which the patterns above cannot match: most questions skip their search."""
_CHARGE_ASKED = re.compile(r"\b(?:what'?s|what is|how much is|how much) (?:the|my|our) (?:[\w-]+ )?(?:charge|bill|cost|fee|pay|total)\b")
"""A charge asked of the time between two clock times ("got it open at 2:15 pm. I bill $120/hr ... the labor charge")."""


def rounding_asked(low: str) -> str | None:
    """'FG% to one decimal please', '及格率是多少？保留一位小数': the precision of a figure to compute is given."""
    if not any(k in low for k in _ROUNDING_HINTS):
        return None
    found = _ROUNDING_ASKED.search(low)
    return found.group(0) if found else None


def date_arithmetic(low: str) -> str | None:
    """A calendar date given and a date, or a count of days, asked of it ("served October 28 ... 21 days to
    respond, what date is the deadline", "how many business days from Jan 6 through Jan 31"): a count on a
    calendar, exact, with no clock to read."""
    if not any(k in low for k in _DATE_ASKED_HINTS):
        return None
    if (asked := _DATE_ASKED.search(low)) is None or (given := _GIVEN_DATE.search(low)) is None:
        return None
    return f"{given.group(0)} ... {asked.group(0)}"


_PER_DAY = LazyPattern(r"\b\d[\d,]*(?:\.\d+)?\s*(?:[a-z]+\s){0,2}(?:a|per|each) day\b|(?:每天|一天|每日)[^，,。？?]{0,6}\d|\d+[^，,。？?\d]{0,4}(?:一天|每天)",
                       ascii=r"\b\d[\d,]*(?:\.\d+)?\s*(?:[a-z]+\s){0,2}(?:a|per|each) day\b")
_WEEKDAY_NAMED = LazyPattern(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|(?:周|星期|礼拜)[一二三四五六日天]",
                             ascii=r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b")
_WEEKDAY_WANTED = ("what day", "which day", "周几", "星期几", "礼拜几", "哪天", "哪一天")


def weekday_through_rate(low: str, given: int) -> str | None:
    """A weekday asked of a stock used up at a daily rate from a named weekday ("holds 2,400 litres, we use 280 a day,
    filled on Monday: what day does it run out"): the days are a division, the weekday a count from it; exact."""
    if given < 2 or not any(w in low for w in _WEEKDAY_WANTED) or (rate := _PER_DAY.search(low)) is None:
        return None
    return f"a weekday through a daily rate '{rate.group(0)}'" if _WEEKDAY_NAMED.search(low) else None


_CLOCK = LazyPattern(
    r"\b\d{1,2}:[0-5]\d:[0-5]\d(?:[,.]\d{1,3})?\b|"  # a timecode, "00:12:04,300"
    r"\b(?:[01]?\d|2[0-3]):[0-5]\d\s*(?:am|pm|a\.m\.|p\.m\.)?(?![\d:])|\b(?:[01]?\d|2[0-3])[0-5]\d ?z\b|"
    r"\b(?:1[0-2]|[1-9]) ?(?:am|pm|a\.m\.|p\.m\.)(?![a-z])|"
    r"(?<!\d)(?:[01]?\d|2[0-3])点(?:半|[0-5]?\d分?)?|(?:早上|上午|中午|下午|晚上|凌晨|傍晚)[一二两三四五六七八九十]{1,3}点半?",
    ascii=r"\b\d{1,2}:[0-5]\d:[0-5]\d(?:[,.]\d{1,3})?\b|"
          r"\b(?:[01]?\d|2[0-3]):[0-5]\d\s*(?:am|pm|a\.m\.|p\.m\.)?(?![\d:])|\b(?:[01]?\d|2[0-3])[0-5]\d ?z\b|"
          r"\b(?:1[0-2]|[1-9]) ?(?:am|pm|a\.m\.|p\.m\.)(?![a-z])",
)
"""A clock time given ("7:40am", "0612z", "10 pm", "8点半", "晚上七点"; not "快一点")."""
_DURATION = LazyPattern(
    r"\b\d+(?:\.\d+)?\s*(?:min|mins|minutes?|hrs?|hours?|h|s|secs?|seconds?)\b|\d+(?:\.\d+)?\s*(?:分钟|小时|个小时|秒)|"
    r"[一二两三四五六七八九十半]+(?:个)?(?:小时|分钟)",
    ascii=r"\b\d+(?:\.\d+)?\s*(?:min|mins|minutes?|hrs?|hours?|h|s|secs?|seconds?)\b",
)
_CLOCK_ASKED = LazyPattern(
    r"\bwhat time (?:does|do|will|would|did|is|are|am|should|must|can)\b|\bat what time\b|"
    r"\bwhen (?:does|do|will|would) (?:it|we|i|they|he|she|the [\w-]+(?: [\w-]+)?) (?:finish|end|be done|wrap up|get (?:in|there|back)|arrive|land|start)\b|"
    r"\bhow long (?:was|is|were|did|will|does)\b[^?]{0,40}\b(?:in )?hours? and minutes\b|\bin hours and minutes\b|"
    r"\bhow (?:long|much time) (?:between|from)\b|\bhours and minutes\?|\bwhere does it land\b|\bper[- ]second\b|"
    r"\bwhat was (?:her|his|my|the) (?:[\w-]+ ){0,2}split\b|"
    r"\bhow many (?:hours|minutes)(?: and minutes)? (?:was|is|were|did|will|does|do|in total|total)\b|"
    r"几点(?:能|可以|会|才|就|该)?(?:结束|完|做完|弄完|到|到达|出发|开始|下班|起飞|落地|收工|结束呢)?[？?吗呢]?|"
    r"(?:一共|总共|前后|中间)?(?:多长时间|几个小时|几小时|多少分钟|多少小时)",
    ascii=r"\bwhat time (?:does|do|will|would|did|is|are|am|should|must|can)\b|\bat what time\b|"
          r"\bwhen (?:does|do|will|would) (?:it|we|i|they|he|she|the [\w-]+(?: [\w-]+)?) (?:finish|end|be done|wrap up|get (?:in|there|back)|arrive|land|start)\b|"
          r"\bhow long (?:was|is|were|did|will|does)\b[^?]{0,40}\b(?:in )?hours? and minutes\b|\bin hours and minutes\b|"
          r"\bhow (?:long|much time) (?:between|from)\b|\bhours and minutes\?|\bwhere does it land\b|\bper[- ]second\b|"
          r"\bwhat was (?:her|his|my|the) (?:[\w-]+ ){0,2}split\b|"
          r"\bhow many (?:hours|minutes)(?: and minutes)? (?:was|is|were|did|will|does|do|in total|total)\b",
)
_CLOCK_MARKS = (":", "点", "am", "pm", "a.m", "p.m", "z")
_CLOCK_NEAR = re.compile(r"\d(?::\d|点|\s?[ap]\.?m|\s?z\b)|[一二两三四五六七八九十]点")
"""Without one of these marks, or a digit next to one, no clock time can be given: most questions skip the clock
reading's searches (a pattern that opens on a digit fails fast where ``_CLOCK``'s word boundaries do not)."""
_CLOCK_HINTS = ("time", "when", "hours", "minutes", "land", "second", "split", "charge", "bill", "cost", "fee", "pay", "total", "几点", "多长", "小时", "分钟")
_ENOUGH = ("才够", "够不够", "才算够", "合适吗", "正常吗", "enough", "should i", "should we", "how much sleep", "is that normal")
"""A norm asked of the times told ("小学生每天睡多久才够？10点睡6点半起"): advice, not a count on a clock."""


def clock_arithmetic(low: str) -> str | None:
    """A clock time given, with a second one or a duration, and a time or a duration asked of them ("mash-in at
    7:40am, 60 min rest ... what time does the boil finish", "block off 0612z, block on 1347z. how long in hours
    and minutes", "8点出门 路上40分钟 几点能到"): a count on a clock, exact."""
    if not any(k in low for k in _CLOCK_HINTS) or not any(m in low for m in _CLOCK_MARKS) or any(e in low for e in _ENOUGH):
        return None
    if _CLOCK_NEAR.search(low) is None:
        return None
    clocks = _CLOCK.findall(low)  # fewer texts give a clock time than use the words of a time asked
    if not clocks:
        return None
    charged = (asked := _CLOCK_ASKED.search(low)) is None
    if charged and (len(clocks) < 2 or (asked := _CHARGE_ASKED.search(low)) is None):
        return None  # a charge is asked of the time between two clock times
    if len(clocks) < 2 and _DURATION.search(low) is None and not _speed_and_distance(low):
        return None
    return f"{clocks[0].strip()} ... {asked.group(0).strip()}"


_SPEED = re.compile(r"\b\d+(?:\.\d+)?\s*(?:mph|km/h|kph|kmh|knots?|kts|(?:miles?|km|kilometers?|kilometres?) (?:an|per|a) hour)\b")
_LENGTH = re.compile(r"\b\d+(?:\.\d+)?\s*(?:miles?|mi|km|kilometers?|kilometres?|nautical miles?|nm|laps?)\b")


def _speed_and_distance(low: str) -> bool:
    """A speed and a distance given: the time they take is a duration ("left at 6:10, 9 knots, 22 nautical miles")."""
    if (speed := _SPEED.search(low)) is not None:
        return _LENGTH.search(low.replace(speed.group(0), " ")) is not None
    if (zh := _ZH_SPEED.search(low)) is not None:
        return _ZH_LENGTH.search(low.replace(zh.group(0), " ")) is not None
    return False


_PACE = re.compile(r"\b\d+(?:\.\d+)?\s*(?:min|mins|minutes)\s*(?:per|a|/)\s*(?:mile|km|kilometer|kilometre|lap)\b")
_DISTANCE = re.compile(r"\b\d+(?:\.\d+)?\s*(?:miles?|mi|km|kilometers?|kilometres?|laps?)\b")
_ZH_SPEED = LazyPattern(r"每(?:秒|分钟|分|小时)[^，,。？?]{0,4}\d+(?:\.\d+)?\s*(?:米|公里|千米|厘米)|"
                        r"\d+(?:\.\d+)?\s*(?:米|公里|千米)\s*/\s*(?:秒|分钟|小时)", ascii="")
_ZH_LENGTH = LazyPattern(r"\d+(?:\.\d+)?\s*(?:米|公里|千米|厘米)", ascii="")
_ZH_TIME_ASKED = ("几秒", "几分钟", "几个小时", "几小时", "多久", "多长时间", "多少秒", "多少分钟")
_ZH_TEXTBOOK = ("小明", "小红", "小华", "小刚", "小丽", "甲", "乙", "某")
_OWN_RATE = re.compile(r"\bat (?:that|this|the same|my|our) (?:pace|rate|speed)\b")
_DOSE_PER_KG = re.compile(r"\b\d+(?:\.\d+)?\s?(?:mg|mcg|ml|g)\s?(?:/|per|a)\s?kg\b")
_BODY_WEIGHT = re.compile(r"\b\d+(?:\.\d+)?\s?(?:kg|kilos?|lbs?|pounds)\b")
_TOLD_RATE = re.compile(r"\b1 (?:euro|dollar|pound|yen|usd|eur|gbp|cad|aud)s? ?= ?\d+(?:\.\d+)? ?(?:euros?|dollars?|pounds?|yen|usd|eur|gbp|cad|aud)\b")
_RATE_NEEDED = re.compile(r"\b[\w-]+ (?:per|a|an) (?:minute|hour|day|week|mile|km|lap|head|person) (?:needed|required|do (?:i|we) need)\b")
_RATE_UNITS = (" minute", " hour", " day", " week", " mile", " km", " lap", " head", " person")
_ANGLE_DMS = re.compile(r"\d{1,3}°\s?\d{1,2}['′]")
"""An angle in degrees and minutes ("N 37°15'20\" E"): a surveyor's bearing, added and subtracted exactly."""
_ANGLE_ASKED = re.compile(r"\bwhat(?:'s| is)\b|\?")
"""Asked of the angles (a deed's calls to put in a table are a record, not a sum)."""


def paced_or_angled(low: str) -> str | None:
    """A duration through a given pace and distance ("3.2 miles, she does about 18 min per mile. how long"), or a
    bearing or angle worked from two given in degrees and minutes: exact, a calculator's job."""
    if "how long" in low and (pace := _PACE.search(low)) and _DISTANCE.search(low.replace(pace.group(0), "")):
        return f"a time through a pace '{pace.group(0)}'"
    if ("how long" in low or "how many" in low) and (rate := _OWN_RATE.search(low)) and not _OWN.isdisjoint(low.split()):
        return f"a time at the asker's own rate '{rate.group(0)}'"  # "I sewed 3 hems in 1 hour 48 minutes. at that pace ..."
    if (any(t in low for t in _ZH_TIME_ASKED) and not any(t in low for t in _ZH_TEXTBOOK) and (speed := _ZH_SPEED.search(low))
            and _ZH_LENGTH.search(low.replace(speed.group(0), ""))):
        return f"a time through a given speed '{speed.group(0)}'"  # "皮带线速度每秒1.8米,线长126米,要走几秒"
    if "kg" in low and (dose := _DOSE_PER_KG.search(low)) and _BODY_WEIGHT.search(low.replace(dose.group(0), "")):
        return f"a dose through a given weight '{dose.group(0)}'"  # "2.2 mg per kg twice daily ... weighs 31.5 kg"
    if "=" in low and ("how many" in low or "how much" in low or "what's that" in low or "what is that" in low) and (
            told := _TOLD_RATE.search(low)):
        return f"a conversion at a rate told '{told.group(0)}'"  # "the rate is 1 euro = 1.08 dollars. how many euros"
    if (" need" in low or "required" in low) and any(u in low for u in _RATE_UNITS):
        if (needed := _RATE_NEEDED.search(low)) is not None:
            return f"a rate needed of given amounts '{needed.group(0)}'"  # "yards per minute needed if 12 minutes ..."
    if "°" in low and len(_ANGLE_DMS.findall(low)) >= 2 and _ANGLE_ASKED.search(low) and "table" not in low:
        return "an angle from angles in degrees and minutes"
    return None


_DIMENSION = re.compile(r"\b\d+(?:\.\d+)?\s?(?:m|cm|mm|ft|feet|in|inches|yd|yards|metres|meters)\b")
_SIZE_ASKED = re.compile(r"\bhow many (?:cubic|square|sq\.?|cu\.?) (?:metres|meters|feet|ft|yards|yd|m)\b|"
                         r"\bwhat(?:'s| is) the (?:volume|area|surface area)\b")


_SIZE_HINTS = ("square", "sq", "cu", "volume", "area")


def measured(low: str, given: int) -> str | None:
    """An area or a volume asked of dimensions given, one of them unround ("wall is 12.4m long, 2.1m high and 0.45m
    thick. how many cubic metres of rubble stone is that"): a job's quantities, a calculator's; a textbook's box is
    round ("3 cm by 4 cm by 5 cm") and worked in steps."""
    if given < 2 or not any(h in low for h in _SIZE_HINTS) or (asked := _SIZE_ASKED.search(low)) is None:
        return None
    dimensions = _DIMENSION.findall(low)
    if len(dimensions) < 2 or not any("." in d for d in dimensions):
        return None
    return f"a size of given dimensions '{asked.group(0)}'"


def explains(low: str, present: set[str]) -> bool:
    """Whether a reason or a meaning is asked: "why does 1/3 + 1/3 + 1/3 equal 1?" asks for a reason; "is 140/90
    high?" judges a reading, computes nothing; "explain the 50/30/20 rule", "what happened on 9/11": a named rule
    or a date is explained, not computed; "what does 24/7 mean" asks a meaning."""
    return (not _EXPLAINED.isdisjoint(present) or any(e in low for e in _EXPLAINED_ALSO) or any(j in low for j in _JUDGED)
            or ("what does" in low and ("mean" in present or "stand" in present)))


_MARK = re.compile(r"(?<![\d/.])\d{1,3}/\d{1,3}(?![\d/.])")
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _asks(low: str, signals: dict[str, str]) -> bool:
    """A question or a sum asked in so many words."""
    return "?" in low or "？" in low or "question word" in signals or "calculate" in signals


def mark_told(low: str, asked: bool) -> bool:
    """'JUST PASSED MY CERT 48/50 🎉', 'got 92/100 on the exam!!', '考了48/50 开心': a mark out of a total told among
    words, with no question and no sum asked, is news; '48/50' alone or 'what's 48/50' still asks."""
    if asked or "/" not in low or (mark := _MARK.search(low)) is None:
        return False
    rest = low.replace(mark.group(0), " ")
    return len(rest.split()) >= 3 or len(_HAN.findall(rest)) >= 3


def exact_figure(c: Compiled, body: str, low: str, window: str, digits: bool, present: set[str],
                 signals: dict[str, str], numbers: list[str], has_cjk: bool) -> str | None:
    """What exact figure the question asks for (its evidence), or None."""
    exact = None
    given = sum(n[0].isdigit() for n in numbers)  # amounts written in digits, not "一个正方形"
    expression = c.expression.search(window) if digits else None
    if expression is None and digits and (
        not FUNCTION_WORDS.isdisjoint(present) or any(k in window for k in _FUNCTION_HINTS)
        or ((" to the " in window or "!" in window) and _TO_THE.search(window))
    ):
        expression = c.math_function.search(window)
    explaining = explains(low, present)
    if expression and not explaining and not readings.score_line(window) and not mark_told(low, _asks(low, signals)) and (
        "calculate" in signals or len(body) <= 60 or "=?" in low.replace(" ", "")) and not re.search(
        re.escape(expression.group(0)) + r"[^=]{0,12}=\s*\d", low
    ):
        exact = f"expression '{expression.group(0).strip()}'"
    elif any(k in window for k in ("%", "折", "百分之", "percent")) and (
            percent := c.percent_of.search(_percent_sign(window))) is not None:
        exact = f"percentage '{percent.group(0).strip()}'"
    elif "conversion" in signals:
        exact = f"conversion '{signals['conversion']}'"
    elif (not explaining and any(h in window for h in _STATISTIC_HINTS) and (stat := _STATISTIC.search(window))
          and (_NUMBER_LIST.search(window) or (given >= 3 and len(body) <= _SHORT and not _OWN.isdisjoint(present)))):
        # "quiz scores: 78 85 92 61 ... mean and median pls"; "we ran 14 calls on A shift, 9 on B and 17 on C. average
        # per shift?" (the asker's own amounts; "a car travels 150 km in 2 hours ..." is a textbook's, worked in steps)
        exact = f"a statistic of given numbers '{stat.group(0)}'"
    elif (not explaining and given >= 2 and any(h in window for h in _CHANGE_HINTS)
          and (change := _CHANGE_ASKED.search(window))):
        exact = f"a change between given amounts '{change.group(0)}'"  # "1,340 patients in January, 1,512 by December. percent growth?"
    elif "exact finance" in signals and len(numbers) >= 2 and not explaining:
        exact = f"finance formula with {len(numbers)} inputs"
    elif "ratio asked" in signals and given >= 2 and not explaining:  # amounts, not "一个正方形"
        exact = f"a ratio of given amounts '{signals['ratio asked']}'"
    elif "savings growth" in signals and "%" in window and len(numbers) >= 2 and not explaining:
        exact = f"savings growth at a rate, {len(numbers)} inputs"
    elif given >= 2 and not explaining and (rounded := rounding_asked(low)):
        exact = f"a figure to a precision asked '{rounded}'"
    elif not explaining and (dated := date_arithmetic(low)):
        exact = f"a date counted from a given date '{dated}'"
    elif not explaining and (weekday := weekday_through_rate(low, given)):
        exact = weekday
    elif not explaining and (clocked := clock_arithmetic(low)):
        exact = f"a time counted on a clock '{clocked}'"
    elif not explaining and (worked := paced_or_angled(low) or measured(low, given)):
        exact = worked
    elif converted := readings.unit_conversion(low):
        exact = f"conversion '{converted}'"
    elif not explaining and (scaled := readings.scale_conversion(low)):
        exact = f"a length through a scale '{scaled}'"
    elif has_cjk and (total := readings.unit_total(low)):
        exact = f"a unit price times a quantity '{total}'"
    elif given >= 2 and not explaining and (sum_asked := readings.practical_sum(low, has_cjk, body)):
        exact = f"a practical sum on given amounts '{sum_asked}'"
    return exact


def _percent_sign(text: str) -> str:
    """'18 percent of 240' read as '18% of 240'."""
    return text.replace(" per cent", "%").replace(" percent", "%") if "percent" in text else text
