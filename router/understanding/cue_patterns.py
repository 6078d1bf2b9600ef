"""Structural patterns over the lowered text: numbers, expressions, percentages, dates and clock times,
people and activities (the sources; ``cues.compiled()`` compiles them on first use).
"""

from __future__ import annotations

_ZH_DIGIT = "一二两三四五六七八九十百千万零半"
_MONTH_EN = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
# Structural patterns, over the lowered text (PERSON over the original: it reads capitals).
NUMBER = r"\d+(?:[.,]\d+)*(?!\d|st\b|nd\b|rd\b|th\b)"
"""Numbers with digits (ordinals are positions, not quantities); Chinese numerals apart (``ZH_NUMBER``)
so that the digits pattern starts with a character class the regex engine can skip to."""
ZH_NUMBER = (rf"[{_ZH_DIGIT}]+(?=分之|个|只|辆|本|元|块|岁|天|小时|分钟|米|公里|千米|人|次|倍|头|条|%|颗|杯|年|斤|克|公斤|千克|磅|"
             r"盎司|升|毫升|加仑|英里|英尺|英寸|尺|寸|码|亩|吨)")
_OPERATOR = (
    r"\*\*|[+*/×÷^]|\s-(?=\s*\d)|-(?=\s+\d)|x(?=\s*\d)|mod|to the power(?: of)?|raised to(?: the power of)?|times|"
    r"multiplied by|divided by|plus|minus|乘以|除以|加上|减去|乘|除|加|减"
)
EXPRESSION = rf"(?<![a-z^_])[(（]?\s*\d+(?:\.\d+)?\s*[)）]?\s*(?:{_OPERATOR})\s*[(（]?\s*\d+(?:\.\d+)?(?![a-z])"
MATH_FUNCTION = (
    r"\d+\s*to the\s*\d+(?:st|nd|rd|th)?(?:\s*power)?|\d+\s*次[方幂]|"
    r"(?:sqrt|log|ln|sin|cos|tan|exp|factorial)\s*\(?\s*\d+(?:\.\d+)?(?![a-z\d.])|(?:square root|sqrt|cube root) of \d|\d+\s*(?:squared|cubed|factorial|!)"
    r"|\d+\s*的\s*[\d一二三四五六七八九十]+\s*次方|根号\s*\d+|\d+\s*的平方根|\d+\s*的阶乘|\d+\s*的(?:平方|立方)(?!根)"
)
PERCENT_OF = (
    r"\d+(?:\.\d+)?\s*%\s*(?:[a-z]+\s+)?(?:of|from|的|tip|tax|vat|discount|off|on|interest)[^.?!。？;]{0,20}?\d"
    r"|\d+(?:\.\d+)?\s*的\s*\d+(?:\.\d+)?\s*%|百分之[\d一二三四五六七八九十]+(?:点\d+)?的\d"
    r"|打[\d一二三四五六七八九]+(?:\.\d)?折|[\d一二三四五六七八九]折(?:后|以后|之后|是多少|是几|多少钱|等于)"
    r"|\d+(?:\.\d+)?\s*的\s*[\d一二三四五六七八九]+(?:\.\d)?折"
    r"|(?<![\d.,])\d+(?:[.,]\d+)*(?:(?!after|之后|以后)[^.?!。？;\d%]){1,24}?\d+(?:\.\d+)?\s*%\s*(?:[a-z]+\s+)?"
    r"[交缴扣收付的]?(?:tip|tax|vat|discount|off|interest|fee|commission|markup|税率|税|利率|手续费|提成|小费|折扣|服务费)"
    r"|(?<![\d.,])\d+(?:[.,]\d+)*[^.?!。？;\d%]{1,12}?(?:涨价|降价|上涨|下降|下跌|增长|提高|降低|增加|减少|涨了?|降了?)\s*"
    r"\d+(?:\.\d+)?\s*%|(?<![\d.,])\d+(?:[.,]\d+)*[^.?!。？;\d%]{1,24}?(?:tip|tax|vat|fee|commission|增值税|税率|税|手续费|服务费|"
    r"社保|公积金|佣金|提成|扣掉|扣除|减去|去掉)[^.?!。？;\d%]{0,6}?\s*(?:at|of|is|为|是|[:：])?\s*\d+(?:\.\d+)?\s*%|(?:tip|tax|vat|discount|interest|commission|markup) (?:on|of|for) [$€£¥]?\d[\d,.]*\s*"
    r"(?:at|with|of)?\s*\d+(?:\.\d+)?\s*%"
)
"""A rate of an amount: the rate first ("18% of 240"), the amount first ("$186.40 with an 18% tip"; an amount
"after" a rate is the result, and asking for the original is a word problem), or an amount changed by a rate
("原价1200，先涨价10%")."""
LENGTH = (
    r"\bin (?:one|a single|\d+|two|three|five|ten) (?:sentences?|words?|paragraphs?|lines?|bullet points?)\b|"
    r"\bunder \d+ words|\bat most \d+ words|\bno more than \d+|[\d一二三四五六七八九十百]+字"
)
"""Length limits with a number in them (the word-level ones are the ``length`` signal)."""
_ONE_OCLOCK_AFTER = (r"(?:(?<![\u4e00-\u9fff])|(?<=上午|下午|中午|凌晨|晚上|早上|夜里|半夜|深夜|今天|明天|后天|今晚|明早|每天)"
                     r"|(?<=[号日]))")
"""一点 is one o'clock after a time of day, a day, or nothing Chinese at all ("明天一点", "周五 一点"); after any
other character it is "a bit" ('贵一点', '正式一点', '活泼一点')."""
TIME_EXPRESSION = (
    r"\d{1,2}月\d{1,2}[日号]|[\d一二三四五六七八九十]+号|"
    rf"(?<![{_ZH_DIGIT}])(?!一点)[\d{_ZH_DIGIT}]{{1,3}}点(?:半|[\d{_ZH_DIGIT}]+分?)?(?![儿心])|"
    rf"{_ONE_OCLOCK_AFTER}一点(?:半|[\d{_ZH_DIGIT}]+分?)?(?![儿心点也都不没])|"
    rf"\bthe \d{{1,2}}(?:st|nd|rd|th)\b|\b(?:{_MONTH_EN})\.? \d{{1,2}}\b|"
    r"(?<![a-z\d])at \d{1,2}(?::\d{2})?(?!\s*(?:%|percent|degrees|years|km|mph))|\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)"
    r"|\d{1,2}:\d{2}"
)
"""Dates and clock times with digits (the word-level ones are the ``time word`` signal)."""
CLOCK = r"\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}|[\d一二三四五六七八九十两]+点"
PERSON = (
    r"(?:和|跟|与|陪|约了?|同|找|见)[\u4e00-\u9fff]{1,3}|"
    r"医生|大夫|老师|经理|总监|[王李张刘陈杨赵黄周吴徐孙马胡朱郭何罗高林][总工姐哥]|律师|教授|客户|老板|同事|"
    r"妈妈|爸爸|爷爷|奶奶|外婆|外公|老婆|老公|女朋友|男朋友|朋友|孩子|儿子|女儿|领导|导师|教练|师傅|"
    r"叔叔|阿姨|舅舅|姑姑|姨妈|伯伯|同学|室友|邻居|房东|爸妈|"
    r"(?:接|送|看望|探望|拜访)[\u4e00-\u9fff]{1,3}|"
    r"(?<![A-Za-z])(?:with|meet|call|visit|see|email|text)\s+(?:(?:Dr|Mr|Ms|Mrs|Prof)\.?\s+)?[A-Z][a-z]+|"
    r"(?<![A-Za-z])(?:Dr|Mr|Ms|Mrs|Prof)\.?\s+[A-Z][a-z]+|"
    r"(?<![A-Za-z])(?:with|call|visit|pick up|drop off|take)\s+(?:my\s+|the\s+|our\s+)?(?:mom|mum|dad|mother|father|"
    r"boss|team|client|manager|kids|children|son|daughter|partner|doctor|dentist|teacher|wife|husband|friend|friends|"
    r"family|parents|grandma|grandpa|colleague|colleagues|plumber|electrician)\b"
)
ACTIVITY = (
    r"去[\u4e00-\u9fff]{1,4}|回[\u4e00-\u9fff]{1,3}|开[\u4e00-\u9fff]{0,3}会|交[\u4e00-\u9fff]{1,3}|"
    r"完成[\u4e00-\u9fff]{1,4}|办[\u4e00-\u9fff]{1,3}"
)
"""Chinese verb-object activities (the word-level ones are the ``activity`` signal)."""
WORD = r"[a-z0-9]+(?:[+#]+|(?:['.&-][a-z0-9]+)*)"
