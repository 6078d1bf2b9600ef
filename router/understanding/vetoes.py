"""When the words' second reading may not replace what the cues read.

The learned reading (``router.understanding.learned_reading``) knows a question by its words and character
pairs. Where a structure of the text says what the work is and the words say otherwise, the structure
wins: each rule here is a kind a first run found the words misread, fixed by its shape, not its words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Set

from router.understanding import figures, given_text, learned_reading, readings, riddles
from router.understanding.cues import FAMILIES

CODE_WRITTEN = frozenset({"code marks", "spreadsheet formula"})
"""Code or a formula written out: the sums in it are its own."""
ASKED_OUTRIGHT = frozenset({"plan asked", "decision request", "own move asked"})
"""Option families that ask for the plan or the decision in so many words ("help me plan", "help me decide", "到底要不要搞",
"怎么取舍"): named, so that a reading by words cannot take the choice for an explanation."""
_HARM_ASKED = re.compile(r"\bis (?:it |[\w-]+ ){0,3}(?:bad|safe|harmful|dangerous|unhealthy) (?:for|to)\b")
"""'is chlorine bad for kids' lungs if they swim 6 days a week': a question of what things do, no value to fetch."""
_NOW = re.compile(r"\b(?:today|tonight|tomorrow|now|right now|this (?:week|weekend|morning|afternoon|evening))\b")
_ORIGIN_ASKED = re.compile(r"\b(?:origins?|history)\b|历史|起源|由来|来历")
"""A past asked for ("whats the origin of apres ski culture"): history, unless a now is asked with it."""
_NOW_ALSO = ("these days", "currently", "latest", "yet", "最新", "今天", "现在", "目前", "最近", "这几天", "明天", "今晚", "本周", "这周")
_OWN_MOVE = re.compile(r"(?:该不该|要不要|应不应该|是否应该|should i|should we)\b")
"""A question that opens on the asker's own move ("要不要裸辞？"): a decision, whatever its "now"."""
_LIVE = frozenset(name for task, name, *_ in FAMILIES if task == "live_data")
_NO_CHOICE_HINTS = ("which", "哪些", "how d", "else", "还是别的")
"""Substrings without which ``NO_CHOICE`` cannot match: most questions skip its search."""


TELL_APART = ("tell apart", "tell them apart", "tell the difference", "id tips", "identification tips", "mix them up",
              "mixing them up", "distinguish", "区分", "分辨", "怎么分清", "分不清", "warning signs", "symptoms", "signs of")
"""Two things told apart: the alternatives are what is identified, not what is chosen."""


_ASKED_BEFORE = re.compile(r"[吗呢？?]|怎么|如何|你说|要紧|严重|\b(?:what|how|why|is it|does|do i|can i)\b")
"""A question asked before the asker's own move: "这是药的副作用吗 一般怎么处理 要不要换药" asks what the thing is
and what is done about it, the move one part of the advice; "你说这辈子值不值" muses aloud."""


def own_move_alone(low: str, matched: str) -> bool:
    """Whether the asker's own move (``own move asked``) is the one question the text asks."""
    return _ASKED_BEFORE.search(low, 0, max(low.find(matched.strip(), 0), 0)) is None


def told_apart(low: str) -> bool:
    """Whether alternatives are named to be told apart, with no choice asked ("coopers hawk vs sharpie id tips?")."""
    return any(t in low for t in TELL_APART) and given_text.choice_asked(low) is None


def no_choice(low: str) -> bool:
    """Whether alternatives are named where no choice is asked (``NO_CHOICE``)."""
    return any(h in low for h in _NO_CHOICE_HINTS) and NO_CHOICE.search(low) is not None


_FACT_COMPARED = re.compile(
    r"是[^，。？?！!\s]{1,8}的[^，。？?！!\s]{0,4}还是[^，。？?！!\s]{1,8}的|"
    r"哪(?:个|种|样)(?:更|比较)?(?:耐用|结实|耐磨|隔音|保温|放得久|用得久|寿命长|防潮|防水|防腐|不容易坏)|"
    r"\bis (?:[\w'-]+ ){1,3}an? [\w'-]+ or (?:an? )?[\w'-]+ (?:tradition|custom|holiday|dish|word|invention|practice|belief)\b|"
    r"\bwhich (?:one |kind |type )?(?:lasts|holds up|wears|stays (?:dry|sound))(?: longer| better)?\b|"
    r"\b(?:mean|average)s? or (?:the )?median\b|\bmedian or (?:the )?(?:mean|average)\b|"
    r"(?:平均数|平均值|均值)还是中位数|中位数还是(?:平均数|平均值|均值)"
)
"""Alternatives that are answers to a question of fact: which faith a rite belongs to ("是佛教的规矩还是道教的"),
which material lasts ("不锈钢锅和铁锅哪个更耐用"), which statistic describes a skewed set ("mean or median"): the
asker chooses nothing, so nothing is weighed."""
_FACT_HINTS = ("还是", "哪", " or ", "lasts", "holds up", "wears", "stays")
"""Substrings without which ``_FACT_COMPARED`` cannot match: most questions skip its search."""
_ASKERS_MOVE = re.compile(r"我|咱|\b(?:i|we|my|our|me|us)\b")
"""Whose the choice is: with the asker in it, the same comparison may be the asker's decision."""


def fact_compared(low: str) -> bool:
    """Whether alternatives compare answers to a question of fact (``_FACT_COMPARED``)."""
    if not any(h in low for h in _FACT_HINTS) or (m := _FACT_COMPARED.search(low)) is None:
        return False
    return "median" in m.group() or "中位数" in m.group() or _ASKERS_MOVE.search(low) is None


_CLAUSES = re.compile(r"[，,。；;！!\n]+|\.\s")
_ALTERNATIVES_MOVED = re.compile(r"还是|\b(?:should|do|shall) (?:i|we)\b[^?]*\bor\b")
_VALUE_ASKED = re.compile(r"[?？吗]|多少|几块|什么价|啥价|查|搜|涨了还是|还是[降跌]|\b(?:how much|what(?:'s| is)|is it|are they|"
                          r"look up|check|search|find|up or down|higher or lower)\b")


def news_then_move(low: str) -> bool:
    """Whether values are told first and alternatives asked after them ("玉米价格现在跌了，是先囤着还是马上卖掉", "gas is
    cheap right now, should i fill both tanks or wait", "先跌了30%又涨了30%，现在比原来高了还是低了"): what is told is the
    ground of a decision or of a sum, and nothing is looked up."""
    clauses = [c for c in _CLAUSES.split(low) if c.strip()]
    if len(clauses) < 2 or _ALTERNATIVES_MOVED.search(clauses[-1]) is None:
        return False
    return (all(_VALUE_ASKED.search(c) is None for c in clauses[:-1])
            and _VALUE_ASKED.search(clauses[-1], 0, max(clauses[-1].find("还是") + 3, 3)) is None)


_TEXT_READINGS = frozenset({"extraction", "select"})
"""The learned readings that work on a given text: fields to fill, items kept by a condition."""
NO_CHOICE = re.compile(r"\bwhich\b[^?]{0,40}?\b(?:should|must|can|may)(?:n't| never| not)\b|"
                       r"\bwhich (?!(?:one|ones|option|options|way)\b)[\w'-]+(?: [\w'-]+){0,2} (?:usually|typically|normally|commonly|generally|tend)\b"
                       r"(?! (?:to be )?(?:better|best|wiser|smarter|cheaper|safer|worth|the (?:better|best|smarter|right))\b)|哪些[^？?]{0,12}(?:不能|不可以|千万别|禁止)|"
                       r"\bhow (?:do|does|did) (?!i\b|we\b|you\b)[\w'-]+(?: [\w'-]+){0,3} (?:decide|choose|pick|rank|select|determine)\b|"
                       r"\bor (?:something|anything) else\s*\?\s*$|还是别的(?:什么)?[？?]?\s*$")
"""Alternatives named where no choice is asked: 'which cleaning chemicals should never be mixed', '哪些药不能一起吃' (a
rule); 'which frequencies usually go first' (what tends to happen); 'how do Michelin inspectors decide whether a restaurant gets one, two or three stars' (how others decide); 'what
were mason's marks for? pay tallies, signatures, or something else?' (candidate answers to a question of fact)."""
_YES_NO = re.compile(r"(?:does|do|did|is|are|was|were|can|could|will|has|have)\b")
_OR_JUST = re.compile(r"\bor (?:just|only|also|both|neither)\b")
"""A question opening on its verb with "or just" asks whether ("does FDIC cover money market funds or just
savings"): its "or" names the possible answers, not plans to choose between, unless choice words ask a pick."""
_EXPLAINED = ("思路", "讲讲", "讲解", "解释", "explain", "walk me through", "show me how")
"""The way to a known answer asked to be explained: no plan of the asker's to weigh."""
_CODE_DESIGN = re.compile(r"\b(?:design|architect|model) (?:a|an|the|my|our) (?:[\w-]+ ){0,3}(?:database|schema|tables?|api|"
                          r"service|backend|data model|class(?:es)?)\b")
"""'how would you design a small database to track ...': code to design, not plans to weigh (unless alternatives are named)."""
ALTERNATIVES = (" or ", " vs", "versus", "还是", "或者")
"""Words that name alternatives to choose between (code asked "how to" with none of them asks no choice)."""
_NEGATED = re.compile(r"n't\b|\bnot\b|\bneither\b|\bnor\b|不是|不选|没有?|也不")
"""A logic grid's clues are negations ("Ann didn't do metal or tile", "李家选的不是粉也不是白")."""
_COLUMNS = re.compile(r"\bcolumns?\b|[几两三四五六七八九十\d]列")
_OPENS_ON_CHOICE = re.compile(r"^(?!(?:can|could|would|will|are|is|am|do|does|did|was|were|what|how|why|who|which|explain|tell|"
                             r"please)\b)[\w'.&+-]+(?: [\w'.&+-]+){0,2} (?:or|vs\.?|versus) [\w' .&+-]{1,40}\?")
"""'natural ferment or inoculate for my Pinot? ...': the question is the two alternatives themselves."""
_A_NOT_A = re.compile(r"([\u4e00-\u9fff])[不没]\1")
"""'堵不堵', '开没开': a Chinese question asked without a question mark."""


def vetoed(second: tuple[str, str, float], *, task: str, constraints: Set[str], names: Set[str],
           scores: Mapping[str, float], low: str, body: str, material: bool, question_form: bool,
           word_problem: bool, own_calendar: bool, quoted_figures: bool) -> bool:
    """Whether the cues' reading of ``body`` stands against the learned reading ``second`` (reading, mode,
    probability), however sure the words are."""
    reading = second[0]
    if reading == "calc":
        # a textbook's story or the way asked for is worked in steps; "what do '1v9' and 'jg diff' mean" asks
        # what words mean; a score's dash subtracts nothing; a sum inside code is the code's; a word problem of
        # named people ("John takes care of 10 dogs ...") is a textbook's unless the words are surer
        if (readings.worked_in_steps(body, low) or readings.asks_meaning(low) or readings.score_line(low)
                or not names.isdisjoint(CODE_WRITTEN) or quoted_figures or readings.norm_asked(low)
                or riddles.told_as_riddle(low) or ("plan asked" in names and "options" in constraints)
                or figures.mark_told(low, question_form)):
            return True  # ... a quoted clause's figures are the clause's; "睡多久才够" asks a norm; a riddle's sum is a
            # trick; "3 cooks, 140 covers ... how should we sequence the prep": a plan asked, no figure
        if word_problem and second[2] < learned_reading.SURE_OF_STORY and readings.names_someone(body):
            return True
    if reading in learned_reading.TOOLS and "selection" in constraints and material:
        return True  # the prices and times of items given to pick from are the items'
    if reading == "tot" and "code" in constraints and _CODE_DESIGN.search(low) and not any(a in low for a in ALTERNATIVES):
        return True
    if reading == "cot" and "exact_figure" in constraints and (readings.unit_conversion(low) or readings.zh_conversion(low)
                                                               or figures.clock_arithmetic(low)
                                                               or figures.weekday_through_rate(low, 2)):
        return True  # "1.6 bar ... 要打到多少psi", "starts 8:00am, 142 heats of 2 min 40 sec ... when does the last finish",
        # "holds 2,400 litres, 280 a day, filled Monday: what day does it run out"
    if reading == "tot" and "logic puzzle" in names and len(_NEGATED.findall(low)) >= 2:
        return True  # "each did one roof: metal, tile ... Ann didn't do metal or tile": one answer, deduced
    if reading == "tot" and "options" not in constraints and (told_apart(low) or fact_compared(low)):
        return True  # "是腰肌劳损还是腰椎间盘突出，怎么区分": two things told apart, none chosen
    if reading == "tot" and (no_choice(low) or (
            _YES_NO.match(low) is not None and _OR_JUST.search(low) is not None and given_text.choice_asked(low) is None)):
        return True  # "which X should never be mixed" asks for a rule; "does X cover A or just B" whether
    if reading == "live" and (own_calendar or readings.past_era(low) or (
            not question_form and "feelings" in names and scores["live_data"] == 0 and _A_NOT_A.search(low) is None)):
        return True  # a riddle gives its own calendar; a past era's shops are history; feelings told look nothing up
    if reading == "live" and news_then_move(low):
        return True  # "gas is cheap right now, should i fill both tanks or wait": the price told, the move asked
    if reading == "live" and "rewrite verb" in names and (material or given_text.handed_quote(body) is not None):
        return True  # "shorten this to a text message: 'Due to the forecast gale ...'": the handed text's news is its own
    if reading == "live" and names.isdisjoint(_LIVE) and (
            ("greeting/thanks" in names and not question_form)
            or ((fact_compared(low) or (scores["humanities"] >= 2.0 and _ORIGIN_ASKED.search(low)))
                and not _NOW.search(low) and not any(n in low for n in _NOW_ALSO))):
        return True  # "morning! harbour is like glass today" greets; "纸扎这门手艺有多少年历史了" asks history
    if reading == "live" and (readings.norm_asked(low) or (_HARM_ASKED.search(low) and not _NOW.search(low))):
        return True  # "房间湿度控制在多少比较合适": a norm asked, no current value
    if reading == "live" and "options" in constraints and names.isdisjoint(_LIVE) and _OWN_MOVE.match(low):
        return True  # "要不要裸辞？存款够撑一年，现在每天上班都想吐": a decision asked, with nothing of the world to look up
    if ("options" in constraints and second[1] == "cot" and not any(e in low for e in _EXPLAINED)
            and (not names.isdisjoint(ASKED_OUTRIGHT) or _OPENS_ON_CHOICE.match(low))):
        # "help me plan peak staffing ... how would you approach it", "钢琴、游泳、编程只能留两个，怎么取舍"; "过河问题 ...
        # 怎么安排 讲讲思路" asks the way to a known answer explained
        return True
    if "release asked" in names and second[1] == "cot" and not material:
        return True  # "has X pushed a new app version this month": which release is out, whatever the words are about
    if reading in _TEXT_READINGS and not material and not names.isdisjoint(CODE_WRITTEN):
        return True  # code asked for with no text handed over ("wps表格 身份证号提取出生日期的公式") has no fields
    # a given text put into a named format (a csv, a table) is a record to fill, whatever its words
    # (or columns named: "put them in columns (hive, date, queen seen):")
    return second[1] == "cot" and task == "extraction" and material and ("format" in constraints or _COLUMNS.search(low) is not None)


__all__ = ["ALTERNATIVES", "ASKED_OUTRIGHT", "CODE_WRITTEN", "NO_CHOICE", "TELL_APART", "fact_compared", "news_then_move", "no_choice", "own_move_alone", "told_apart",
           "vetoed"]
