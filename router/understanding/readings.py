"""Structural readings that single words cannot give, each the shape of a kind of work.

* a current value: a subject whose value changes over time, asked about with "now/today" and
  no numbers to compute with ("how much is X rn", "现在X是多少") is a look-up, not knowledge;
* a recent result: "did <team> win" with a recent time is a score to look up;
* calendar arithmetic: a weekday, a number of days and "what day" is a counting riddle whose
  calendar is given, not a clock to read;
* a rate riddle: one number repeated for workers, items and time ("3 cats catch 3 mice in 3
  minutes") is the classic trick question, reasoning more than a word problem;
* a unit conversion written in Chinese (a number with its unit, then "是几/多少" another unit);
* a clock time said of now ("it's 3am") describes the moment, it is no entry to file.

Patterns compile on first use (``router.lazyre``); most run only after a cheap substring test.
"""

from __future__ import annotations

import re

from router.lazyre import LazyPattern

_VALUE_EN = LazyPattern(
    r"\bhow much (?:is|are|does|do)\b|\b(?:trading|going|sitting|selling) (?:at|for)\b|"
    r"\bwhat(?:'s|s| is| are)\b.{1,40}\bat\b(?! (?:home|work|school|night|the (?:end|start|moment)))|"
    r"\bwhat(?:'s|s| is)\b.{1,40}\bup to\s*[?!.]*$|"
    r"\bwhat (?:does|do|are|is) [\w' .-]{1,30}? charg(?:e|es|ing)\b|"
    r"\b(?:price|prices|cost|costs|fee|fees|fare|fares|toll|tolls|rate|rates|level|levels|value|worth|up or down|cancelled|canceled|delayed|running|"
    r"open|closed|crowded|busy|packed|sold out|available|score|scores|result|results|standings)\b"
)
"""Questions after a value or a state: "how much is", "trading at", "what's X at", "what does X charge", a price,
a fee, a rate, open or cancelled."""
MARKET_NOW = ("trading at", "trading for", "going at", "going for", "selling at", "selling for", "sitting at", "jackpot")
"""A market's present tense: these ask for a current value without "now"."""
_VALUE_ZH = LazyPattern(r"多少|什么价|啥价|几块|涨了|跌了|涨没涨|跌没跌|涨还是跌|行情|价位", ascii="")
_PERSONAL = frozenset({"i", "i'm", "im", "i've", "my", "me", "mine", "you", "your", "you're", "we", "our"})
"""Talk about oneself or the listener ("us" is left out: "the mortgage rate in the us")."""
_RESULT = LazyPattern(r"\b(?:did|do|does|will)\b [\w' .&-]{1,30}? \b(?:win|lose|beat|draw|tie)\b")
_RECENT = ("last night", "yesterday", "this weekend", "tonight", "today", "this morning", "this afternoon")
_INLINE_OPTIONS = LazyPattern(r"\ba[.)] .{1,80}\bb[.)] |\na[.)] [^\n]+\nb[.)] ")
"""Lettered answers on one line ("A. 3 hours B. 6 hours"): an exam item lists its numbers as options."""
_ZH_UNITS = "厘米|公分|毫米|米|公里|千米|英里|英尺|英寸|码|斤|公斤|千克|克|吨|磅|盎司|升|毫升|加仑|摄氏度|华氏度|亩|平方米|平方英尺"
_ZH_CONVERSION = LazyPattern(
    rf"(?:\d+(?:\.\d+)?|(?<![\u4e00-\u9fff])[一两二三四五六七八九十百千半]+)\s*(?:{_ZH_UNITS})[^，。？?！!]{{0,4}}"
    r"(?:是|等于|合|折合|换成|换算成|相当于)[^，。？?]{0,3}(?:几|多少)|"
    r"(?:华氏|摄氏)\s*\d+(?:\.\d+)?\s*度[^，。？?]{0,4}(?:是|等于|合|换算成|相当于)[^，。？?]{0,4}(?:几|多少)|"
    # "轮胎气压写的1.6 bar，我的气压表是psi的，要打到多少psi": a reading in one unit, the figure asked in another
    rf"\d+(?:\.\d+)?\s*(?P<unit>bar|psi|kpa|mpa|{_ZH_UNITS})(?![a-z])[^？?]{{0,30}}?(?:多少|几)\s*(?!(?P=unit))"
    rf"(?:bar|psi|kpa|mpa|{_ZH_UNITS})(?![a-z])",
    ascii="",
)
_NOW_CLOCK = LazyPattern(
    r"\b(?:it's|it is|its) (?:already |almost |nearly |like |now |past )?\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o'clock)|"
    r"(?:已经|都)[\d一二三四五六七八九十两]+点(?:多|半)?了",
    ascii=r"\b(?:it's|it is|its) (?:already |almost |nearly |like |now |past )?\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o'clock)",
)


def current_value(low: str, present: set[str], has_cjk: bool) -> str | None:
    """The cue of a question after a value that changes over time (the caller checks "now/today",
    the absence of operands and of talk about oneself)."""
    if has_cjk:
        if "我" in low or "你" in low:
            return None
        found = _VALUE_ZH.search(low)
        if found:
            return found.group(0)
    if not present.isdisjoint(_PERSONAL):
        return None
    found = _VALUE_EN.search(low)
    return found.group(0) if found else None


def recent_result(low: str) -> str | None:
    """'did the <team> win last night': a result to look up."""
    if not any(r in low for r in _RECENT):
        return None
    found = _RESULT.search(low)
    return found.group(0) if found else None


_UNITS_EN = (
    "seconds|minutes|hours|days|weeks|months|ml|milliliters|millilitres|liters|litres|cups|tablespoons|teaspoons|tbsp|"
    "tsp|ounces|oz|pounds|lbs|grams|kg|kilograms|inches|feet|ft|yards|miles|meters|metres|km|kilometers|kilometres|"
    "cm|centimeters|centimetres|mm|gallons|quarts|pints|acres|hectares|bytes|kb|mb|gb|tb|kilobytes|megabytes|gigabytes|"
    "terabytes|knots|mph|kph|kmh|km/h|psi|kpa|kcal|calories|kilojoules|kj|watts|kw|kilowatts|horsepower|hp|mpg|stone|"
    "tons|tonnes"
)
_UNIT_CONVERSION = LazyPattern(
    rf"\bhow many (?:{_UNITS_EN}) (?:is|are) \d[\d.,/]*\s*(?:{_UNITS_EN})\b|"
    rf"\bhow many (?:{_UNITS_EN}) (?:are )?(?:in|make|per) (?:a |an |one |\d[\d.,/]*\s*)(?:[a-z]+ )?(?:{_UNITS_EN[:-1]}|"
    r"second|minute|hour|day|week|month|year|years|cup|tablespoon|teaspoon|ounce|pound|gram|inch|foot|yard|mile|meter|"
    r"metre|gallon|quart|pint|acre|byte)\b"
)
"""'how many minutes in 3.75 hours': one unit asked in another (both named, the amount given)."""


_AMOUNT_IN_UNIT = LazyPattern(
    rf"(?<![\w.])\d[\d,]*(?:\.\d+)?\s*(?:{_UNITS_EN}|hour|minute|second|day|week|mile|pound|gallon|liter|litre|cup|foot|inch|yard)"
    rf" (?:in|to|into|as) (?:a decimal of )?(?:{_UNITS_EN}|hours|minutes|celsius|fahrenheit)\b"
    r"|(?<![\w.])-?\d+(?:\.\d+)?\s*(?:°\s*|degrees? )?(?:f|c|fahrenheit|celsius)\b (?:in|to|into) (?:°\s*)?(?:f|c|celsius|fahrenheit|kelvin)\b"
)
"""'45 minutes in hours', '10 km to miles', '78 degrees F to C': an amount with its unit, then the unit wanted."""


_LENGTH_UNIT = r"(?:m|ft|feet|foot|meters?|metres?|yards?|yd|in|inches)"
_AREA_IN_UNIT = LazyPattern(
    rf"\d+(?:\.\d+)?\s*{_LENGTH_UNIT}?\s*(?:x|by|×|\*)\s*\d+(?:\.\d+)?\s*{_LENGTH_UNIT}\b.{{0,60}}?"
    r"\b(?:in|to|into) (?:square|sq\.?) ?(?:feet|foot|ft|meters?|metres?|m|yards?)\b"
)
"""'84 m x 36 m ... in square feet': an area from its sides, in another unit."""
_SHORT = 160
"""A conversion said in passing ("45 minutes in hours", "that a year") is a short question's whole request."""
_PER_PERIOD = LazyPattern(
    r"\b(?:how much|what) (?:is|would|will|does) (?:that|it|this) (?:be |come to |work out to |add up to )?(?:over |in |for )?"
    r"(?:a|an|per|each|every|one) (?:year|month|week|day|hour)\b"
)
"""'2,340 every two weeks, how much is that a year': a given rate restated per another period."""


def unit_conversion(low: str) -> str | None:
    """The conversion asked, when the text names a unit, an amount and the unit it wants."""
    if "how many" in low:
        found = _UNIT_CONVERSION.search(low)
        if found:
            return found.group(0)
    if len(low) > _SHORT:
        return None
    if found := _AREA_IN_UNIT.search(low):
        return found.group(0)
    if (" that " in low or " this " in low or " it " in low) and (found := _PER_PERIOD.search(low)):
        return found.group(0)
    if " in " not in low and " to " not in low and " into " not in low and " as " not in low:
        return None
    found = _AMOUNT_IN_UNIT.search(low)
    return found.group(0) if found else None


_UNIT_TOTAL = LazyPattern(
    r"(?:每平|每平米|每平方米?|单价)[^，。？?]{0,4}[\d一二两三四五六七八九十][^？?]{0,30}(?:总价|总额|总金额|总费用|一共|总共|合计)"
    r"|(?:总价|总额|总金额|总费用|一共|总共|合计)[^？?]{0,30}(?:每平|每平米|每平方米?|单价)[^，。？?]{0,4}[\d一二两三四五六七八九十]",
    ascii="",
)
"""'80平米，每平3万5，总价多少': a unit price times a quantity, asked as a total."""


_PRACTICAL_ZH = LazyPattern(
    r"(?:挣|赚|收|拿|付|交|到手|报销|提成|佣金|工资|车费|运费|利息)[了得到回]?(?:多少|几块)|应该收|该收多少|能拿多少",
    ascii="",
)
_PRACTICAL_EN = LazyPattern(
    r"^(?:quick (?:calc|math|maths)|calc|payroll(?: check)?|timesheet(?: check)?|sanity check(?: the math)?)\b"
    r"|\b(?:gross|net|take[- ]home) pay\b|\bhow much (?:do|will|would|should|did) (?:i|we) (?:make|earn|get|owe|pay|charge|clear|net)\b"
    r"|\bwhat (?:do|will|would|did) (?:i|we) (?:actually |really |even |roughly )?(?:make|earn|owe|clear|net)\b|\bwhat'?s my (?:pay|commission|cut|total)\b"
    r"|\bpro[- ]?rat(?:a|ed)\b|\bprorat(?:e|ed|ion)\b",
)
_OWED_EN = LazyPattern(
    r"\b(?:what|how much) (?:do|does|will|would|did|should) (?:they|he|she|each (?:person|guest|of us|of them|one)|everyone|"
    r"the (?:patron|customer|client|tenant|guest|member))"
    r" owe\b|\btotal (?:owed|due)\b"
)
"""A bill owed by someone served ("what do they owe total?", "total due"): searched only where "owe" or "due" is."""
_PAYOUT_EN = LazyPattern(
    r"\b(?:what|how much) (?:do|does|will|would|should|did) (?:the )?(?:carrier|insurer|insurance(?: company)?|policy|plan|"
    r"warranty|company|employer|fund) (?:actually |really )?(?:pay|owe|cover|reimburse)\b"
)
"""A payout by an insurer or a plan on given figures ("80% coinsurance ... loss is $60k ... what does the carrier pay")."""
_PRICED_LINE = re.compile(r"[A-Z][a-z]+ (?:is|was) (?=[$€£¥]?\d)")
_TOTAL_PLEASE = re.compile(r"(?:^|[.!?]\s+)total(?: please| pls| cost| due| owed)?\s*\?\s*$")
"""A note of prices ending on its total asked ("Boarding is $38 a night ... Total please?")."""
_PAYOUT_HINTS = (" pay", " owe", " cover", " reimburse")
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|my|we|our)\b")
_ASKER_ZH = ("我", "咱", "今天", "这单", "这趟", "这个月", "本月", "这周", "上个月", "上周", "这次")
_TEXTBOOK_ZH = ("小明", "小红", "小华", "小刚", "小丽", "小强", "小芳", "某", "甲", "乙", "应用题", "同学")


_FIGURE_ASKED_EN = LazyPattern(
    r"\bhow (?:many|much)\b|\bwhat(?:'s| is| are| was|s)? (?:the |my |our |his |her |their |a )?(?:grand |final |overall |actual )?"
    r"(?:total|rate|gross|net|bill|"
    r"invoice|value|cost|price|fee|balance|dose|profit|margin|abv|amount|pay|cut|share)\b|\bwhat (?:total|rate|amount)\b"
    r"|\bwhat (?:[a-z]+ )?(?:%|percent|percentage)(?= do| is| would| should| will| does| of| to)"
    r"|\bwhat (?:[a-z/]+ ){1,4}(?:do|would|will|should) (?:i|we) (?:get|end up with)\b|\bwhat(?:'s| is) left\b"
    r"|\b(?:work out|figure out|calc(?:ulate)?) (?:the |my |our )?(?:total|bill|cost|amount|rate|dose)\b"
    r"|(?:^|[.!?]\s+)total [\w ]{1,25}\?\s*$",
)
_ASKING_FOR_ME_EN = re.compile(r"\b(?:i|i'm|i've|my|me|we|our|us)\b")
_STORY_NAME = re.compile(r"(?:^|[.!?]\s+)(?:[A-Z][a-z]+ (?:and [A-Z][a-z]+ )?(?:is|was|has|had|wants|buys|bought|makes|"
                         r"made|earns|works|gets|got|sells|sold|runs|ran|needs|decides|decided|goes|went|spends|spent)\b)")
"""A story's subject ("Janet sells ...", "Tom and Ann bought ..."): a textbook problem's character."""
_METHOD_ASKED = ("walk me through", "show me how", "show your work", "show the work", "step by step", "set it up",
                 "explain", "思路", "过程", "怎么算", "步骤", "讲讲", "讲下", "合理", "合适", "应该存")
"""The way to the figure asked for (or advice on it): worked in steps, not handed to a calculator."""
_HYPOTHETICAL_EN = re.compile(r"^(?:if|suppose|say) (?:i|we)\b")
_FIGURE_ASKED_ZH = ("多少", "几个", "几箱", "几袋", "几天", "几块", "几元", "算下", "算一下", "帮我算", "算算")
_ASKER_ZH_OWN = ("我", "咱", "帮我", "给我")
DEMONSTRATIVE_FEW = re.compile(r"[这那哪]几")
_EACH_HAS_COUNT = re.compile(r"各有(?:多少|几)")
_NORM_ASKED = LazyPattern(
    r"\bhow (?:many|much|long)\b[^?]{0,40}\b(?:is|are) (?:enough|normal|healthy|too much)\b|"
    r"(?<![最至]少)(?:多久|多长时间|几个?小时|多少)才(?:算)?(?:够|合适|正常|健康)|(?:控制|保持)在多少(?:比较|最)?(?:合适|好)|"
    r"多少(?:比较|最)(?:合适|正常)",
    ascii=r"\bhow (?:many|much|long)\b[^?]{0,40}\b(?:is|are) (?:enough|normal|healthy|too much)\b",
)
"""A norm asked ("小学生每天睡多久才够？10点睡6点半起", "how many hours of sleep is enough for a 7 year old"): the
amounts told are the asker's case, judged against the norm, not operands of a count."""


_NORM_HINTS = ("enough", "normal", "healthy", "too much", "才", "在多少", "多少比较", "多少最")
"""Substrings without which ``_NORM_ASKED`` cannot match."""


def norm_asked(low: str) -> bool:
    """Whether the question asks what amount is enough or normal (advice on a norm, nothing to compute)."""
    return any(h in low for h in _NORM_HINTS) and _NORM_ASKED.search(low) is not None


def no_count_asked(asked: str, low: str) -> bool:
    """Whether the quantity question's words ``asked`` ask no count here: "这几个岗位里 哪些..." (these few),
    "各有啥好处" (what each has), "睡多久才够" (a norm)."""
    if asked.startswith("几"):  # "这几天别给我排别的事", "这几个岗位里": these few
        return asked not in DEMONSTRATIVE_FEW.sub("", low)
    if asked == "各有":
        return _EACH_HAS_COUNT.search(low) is None
    return norm_asked(low)
_MEANING = re.compile(r"\bwhat (?:do|does|did)\b.{1,60}\b(?:mean|stand for)\b|是什么意思|啥意思|什么意思")
_NEED_ZH = re.compile(r"够不够|够吗|还剩多少|还差多少|(?:要|得|需要)[开买备订带拿用配装准备]{0,2}几[桶箱袋包卷片块瓶罐盒张套个支]"
                      r"|要买多少|得买多少|需要买多少|能用几天|能吃几天|能喝几天|各(?:要|需要|得)(?:准备|买|备)?多少")
_AMOUNT = re.compile(r"\d+(?:\.\d+)?")


_PAST_ERA = LazyPattern(
    r"民国|晚清|清末|清朝|明朝|宋朝|唐朝|汉朝|元朝|秦朝|古代|古时候|上世纪|解放前|[一二三四五六七八九\d]十?年代"
    r"|\bback in the (?:day|days|1[5-9]\d0s|'?[2-9]0s)\b|\bin the (?:1[5-9]\d0s|'[2-9]0s)\b|\b1[0-9]th century\b"
    r"|\b(?:did|was|were)\b.{0,60}\bin the (?:early |mid |late )?[2-9]0s\b"
    r"|\b(?:medieval|victorian|historically)\b|\bancient\b(?! (?:version|release|build|laptop|phone|computer|pc|copy|install))|\bduring (?:the )?(?:ww[12i]+|world war|the war|the depression)\b"
)
"""A past era named ("民国时候", "back in the 1920s", "victorian"): what it asks about has stopped changing."""


def past_era(low: str) -> bool:
    """'民国时候上海的书店', 'what were pubs like in victorian london': history, whatever its nouns; nothing live."""
    return _PAST_ERA.search(low) is not None


_SCORE_LINE = LazyPattern(
    r"\b(?:leading|led|lead|won|win|lost|lose|losing|winning|beat|beating|trailing|tied|down|up|score was|final(?: score)?"
    r"|ended)\s+(?:by\s+|at\s+)?\d+\s*-\s*\d+\b|\b\d+\s*-\s*\d+\s+(?:win|loss|lead|victory|defeat|final|at half)\b"
    r"|(?:比分|领先|落后|输了|赢了|输|赢|打成|战平)\s*\d+\s*[-:：比]\s*\d+"
)
"""A match score ("lost in OT after leading 12-3", "领先3比1"): its dash is no subtraction."""


def score_line(low: str) -> bool:
    """'we lost in OT after leading 12-3 i cant even': a score told, nothing to compute."""
    return _SCORE_LINE.search(low) is not None


_CHARACTER = re.compile(r"(?:^|[.!?]\s+)([A-Z][a-z]+)(?:'s)? (?:[a-z]+s|[a-z]+ed|ate|ran|had|has|is|was|took|made|got|saw|"
                        r"wanted|bought|sold|spent|went)\b|[a-z,] ([A-Z][a-z]{2,})\b")
"""Someone named: a capitalised word opening a sentence with a verb after it ("John takes", "Sid traveled"),
or one inside a sentence ("the store, Sloane counts", "at Rydell Elementary")."""


def names_someone(text: str) -> bool:
    """A story of named people or places ("John takes care of 10 dogs", "Sloane counts 100 customers"): the
    textbook's way of telling a problem; the roles a note opens with ("Patron has") are nobody's name."""
    return any((m.group(1) or m.group(2)).lower() not in _ROLES for m in _CHARACTER.finditer(text))


def asks_meaning(low: str) -> bool:
    """'what do 1v9 and jg diff mean', '这个3.2.1是什么意思': what words or marks mean, nothing to compute."""
    return _MEANING.search(low) is not None


_ROLES = frozenset({"patron", "customer", "client", "tenant", "patient", "guest", "member", "employee", "buyer",
                    "seller", "resident", "driver", "rider", "caller", "user", "vendor", "student", "order", "job",
                    "rent", "shipping", "tax", "total", "price", "cost", "parking", "delivery", "insurance", "tuition",
                    "membership", "subscription", "item", "bill", "deposit", "balance", "payment", "salary", "wage",
                    "insured", "claimant", "policyholder", "insurer", "carrier", "loss", "claim", "coverage", "premium",
                    "deductible", "building", "policy", "vehicle", "overtime", "rate", "shift", "wall", "room", "floor",
                    "roof", "tank", "pool", "load", "we", "you", "our", "my", "reimbursement", "mileage", "boarding"})
"""Roles and amounts a note's sentence opens with ("Patron has three books 11 days late", "Rent is $1,450"):
capitalised as the first word, they are nobody's name."""


def story_problem(text: str, low: str) -> bool:
    """A textbook's character does the sums ("Peter works 38 hours", "小明买了"): worked in steps, whoever reads it."""
    return (any(m.group(0).lstrip(" .!?").split(" ", 1)[0].lower() not in _ROLES for m in _STORY_NAME.finditer(text))
            or any(t in low for t in _TEXTBOOK_ZH))


def worked_in_steps(text: str, low: str) -> bool:
    """A sum the asker wants worked, not handed to a calculator: a textbook's story, or the way to the figure
    (or advice on it) asked for. The learned reading never overrules this into a sum: its words do not see it."""
    return story_problem(text, low) or any(m in low for m in _METHOD_ASKED)


def practical_sum(low: str, has_cjk: bool, text: str) -> str | None:
    """A sum of the asker's own pay, fare, price or commission on given amounts ('今天跑了38单，每单4.5元，
    我一共挣了多少', 'payroll check: 38 hours at $27.40 ...'): a calculator's job. A textbook word problem
    (a named child, 某商品, 甲乙) is worked in steps; the caller has found two or more operands. ``text``
    is the question as written: a story's character is told by its capital letter."""
    if has_cjk:
        if any(t in low for t in _TEXTBOOK_ZH):
            return None
        if not any(a in low for a in _ASKER_ZH):
            # nobody's own, but a need of real life on real amounts ("买音箱花了1299 ... 够不够每人一把",
            # "每面3.2米宽 ... 要几桶"): a textbook's figures are round, a bill's or a wall's are not
            need = _NEED_ZH.search(low)
            amounts = _AMOUNT.findall(low)
            unround = any("." in a or int(a) >= 100 for a in amounts)
            return need.group(0) if need and len(amounts) >= 3 and unround else None
        found = _PRACTICAL_ZH.search(low) or _NEED_ZH.search(low)  # "今天预约了137个人 要开几瓶": today's need
        if found is None and any(a in low for a in _ASKER_ZH_OWN) and not any(m in low for m in _METHOD_ASKED):
            # the asker's own amounts and a figure asked of them, in any words ("我陪了23天 ... 该给我多少")
            asked = DEMONSTRATIVE_FEW.sub("", low)  # "这几个岗位里 哪些是...": these few, no count asked
            return next((k for k in _FIGURE_ASKED_ZH if k in asked), None)
    else:
        found = _PRACTICAL_EN.search(low) or (_OWED_EN.search(low) if " owe" in low or " due" in low else None)
        if found and ((found.group(0).endswith(" pay") and not _FIRST_PERSON.search(low))
                      or (found.group(0).endswith(" owe") and story_problem(text, low))):
            return None  # "Peter works 38 hours ... his gross pay": a textbook's worker, worked in steps
        if found is None and low.rstrip().endswith("?") and (total := _TOTAL_PLEASE.search(low)) is not None:
            # "Boarding is $38 a night ... Total please?": a priced line opens the note, nobody's story
            return None if story_problem(_PRICED_LINE.sub("", text), low) else total.group(0).strip()
        if found is None and any(h in low for h in _PAYOUT_HINTS) and (payout := _PAYOUT_EN.search(low)) is not None:
            return None if story_problem(text, low) else payout.group(0)
        if (found is None and _ASKING_FOR_ME_EN.search(low) and not worked_in_steps(text, low)
                and not _HYPOTHETICAL_EN.search(low)):
            # the asker's own amounts and a figure asked of them ("tabs are 75 mg, how many tabs is that")
            found = _FIGURE_ASKED_EN.search(low)
    return found.group(0) if found else None


_SCALE = LazyPattern(r"(?<![\d:.])1\s*[:：]\s*\d{1,7}(?![\d:])(?=[^?？]{0,40}?(?:scale|比例|模型|model|map|地图))"
                     r"|\b(?:scale|比例尺)\s*(?:of\s*)?1\s*[:：比/]\s*\d{1,7}|\b1/\d{1,4} scale\b")
_SCALED_AMOUNT = LazyPattern(r"\d+(?:\.\d+)?\s*(?:cm|mm|m|km|inches|inch|in|ft|feet|foot|厘米|毫米|米|公里)(?![a-z])")
_SCALE_WORDS = ("scale", "比例", "模型", "model", "map", "地图")
_REAL_ASKED = ("how long", "how far", "how big", "how tall", "how wide", "how high", "real ", "actual", "in real life",
               "多长", "多远", "多大", "多高", "多宽", "实际", "真实")


def scale_conversion(low: str) -> str | None:
    """'the 1:25 scale model is 147 cm long, how long was the real ship in meters': a length through a scale."""
    if (("1:" not in low and "1：" not in low and "1/" not in low and "1 :" not in low)
            or not any(r in low for r in _REAL_ASKED) or not any(w in low for w in _SCALE_WORDS)):
        return None
    found = _SCALE.search(low)
    if found is None or _SCALED_AMOUNT.search(low) is None:
        return None
    return found.group(0)


def unit_total(low: str) -> str | None:
    """A total asked from a unit price and a quantity."""
    found = _UNIT_TOTAL.search(low)
    return found.group(0) if found else None


def inline_options(low: str) -> bool:
    """Lettered answers on one line: an exam item, whose options are all it needs."""
    return _INLINE_OPTIONS.search(low) is not None


def zh_conversion(low: str) -> str | None:
    """'175厘米是几英尺': a quantity with its unit asked in another unit."""
    found = _ZH_CONVERSION.search(low)
    return found.group(0) if found else None


def clock_now(low: str) -> bool:
    """'it's 3am', '都十二点了': the time of the moment spoken of, not an entry."""
    return _NOW_CLOCK.search(low) is not None


__all__ = ["asks_meaning", "clock_now", "current_value", "inline_options", "names_someone", "no_count_asked", "norm_asked",
           "past_era", "practical_sum", "recent_result", "scale_conversion", "score_line", "story_problem", "unit_conversion",
           "unit_total", "worked_in_steps", "zh_conversion"]
