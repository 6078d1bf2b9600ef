"""The cue families and structural patterns the local mode classifier scores.

Kept apart from the scoring so the vocabulary can grow without touching the
logic. Each family is a *kind* of evidence (live-data nouns, proof verbs, choice
words ...), written as general vocabulary in both languages, never as example
sentences; see ``mode_classifier`` for how they are weighed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


def _en(words: str) -> str:
    """English alternatives with letter boundaries that also hold next to Chinese characters
    (``\\b`` does not: CJK characters count as word characters)."""
    return rf"(?<![a-z])(?:{words})(?![a-z])"


@dataclass(frozen=True)
class Cue:
    mode: str
    name: str
    weight: float
    pattern: re.Pattern[str]


def _cue(mode: str, name: str, weight: float, pattern: str) -> Cue:
    return Cue(mode, name, weight, re.compile(pattern, re.I))


_WEEKDAY_EN = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
_MONTH_EN = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
_ZH_DIGIT = "一二两三四五六七八九十百千万零半"

CUES: tuple[Cue, ...] = (
    # --- react: the answer lives outside the model -------------------------------------
    _cue("react", "live-data noun", 2.6,
         _en(r"weather|forecast|temperature outside|raining|snowing|rain|snow|humidity|air quality|aqi|sunny|windy|"
             r"umbrella|uv index|pollen|how (?:hot|cold|warm|humid) is it|degrees outside|wear a (?:coat|jacket)")
         + r"|天气|气温|下雨|下雪|降雨|降温|雾霾|空气质量|刮风|台风|晴天|带伞|紫外线|多少度|几度|冷不冷|热不热|穿外套|穿什么"),
    # Asking for a current value is live data; naming an asset alone ("if a stock falls 10% ...")
    # is only weak evidence until a "today/now" joins it.
    _cue("react", "market data", 2.6,
         _en(r"exchange rate|stock price|share price|price of (?:gold|oil|bitcoin|btc)|market cap|gold price|oil price|"
             r"forex|quote for")
         + r"|汇率|股价|行情|市值|金价|油价|币价|报价|涨跌|收盘价|开盘价"),
    _cue("react", "market asset", 1.4,
         _en(r"stocks?|shares|bitcoin|btc|ethereum|eth|crypto|nasdaq|dow jones|s&p 500")
         + r"|股票|比特币|以太坊|纳斯达克|道琼斯|大盘|A股|港股|美股|上证|深证|恒生|沪深|创业板|基金净值"),
    _cue("react", "currency conversion", 2.4,
         r"\d[\d,.]*\s*(?:usd|eur|gbp|jpy|cny|rmb|dollars?|euros?|pounds?|yen|yuan|美元|欧元|英镑|日元|人民币|港币|韩元)"
         r"[^.?？。]{0,25}(?:in|to|into|换|兑|等于|是多少|合)"
         r"|(?:美元|欧元|英镑|日元|人民币|港币)兑"
         r"|(?<![a-z])(?:usd|eur|gbp|jpy|cny|rmb|hkd|krw|aud|cad|chf|btc)\s*(?:to|/|兑|换)\s*(?:usd|eur|gbp|jpy|cny|rmb|hkd|krw|aud|cad|chf)(?![a-z])"),
    _cue("react", "news", 2.6, _en(r"news|headlines?|breaking|trending") + r"|新闻|头条|热搜|最新消息|快讯|时事"),
    _cue("react", "clock/calendar", 2.6,
         _en(r"what time is it|current time|local time|time is it|time now|time zone|what day is (?:it|today)|"
             r"today'?s date|what(?:'s| is) the date")
         + r"|几点了|几点钟|现在几点|时间是多少|当地时间|时区|今天(?:是)?(?:几号|星期几|周几|礼拜几)|几月几号"),
    _cue("react", "live status", 2.0,
         _en(r"traffic (?:now|today|right now|report|conditions|update)|flight status|delayed|score of|final score|"
             r"who won|opening hours|open now|in stock|tracking|population of")
         + r"|路况|堵车吗|航班|比分|赛果|谁赢了|营业时间|余票|快递到哪|物流"),
    _cue("react", "temporal deictic", 0.9,
         _en(r"now|right now|today|tonight|currently|current|latest|live|real-?time|at the moment|this week|tomorrow|"
             r"recent|recently|up-to-date|so far this")
         + r"|今天|现在|目前|当前|最新|实时|此刻|今晚|明天|最近|眼下|当下"),
    _cue("react", "lookup verb", 1.6,
         _en(r"look up|lookup|search(?: for)?|google (?:it|this|that|for)|fetch|check (?:the|what|how|if|whether)|find out|browse")
         + r"|查一下|查询|查查|查下|搜索|搜一下|帮我查|上网查|检索"),
    _cue("react", "calculate verb", 1.0,
         _en(r"calculate|compute|evaluate|work out|how much is|what is|what's|equals?") + r"|算一下|算算|帮我算|计算器|等于多少|是多少|得多少"),
    _cue("react", "unit conversion", 1.8,
         _en(r"convert|conversion") + r"[^.?]{0,40}" + _en(r"to|into|in") + r"|换算|转换成|是多少(?:公里|英里|米|斤|磅|度)"),
    # --- cot: the answer needs a chain of reasoning ---------------------------------------
    _cue("cot", "proof/derivation", 3.0,
         _en(r"prove|proof|show that|demonstrate that|derive|derivation|deduce|theorem|lemma|induction")
         + r"|证明|求证|推导|推出|演绎|数学归纳"),
    _cue("cot", "step-by-step", 2.5,
         _en(r"step[- ]by[- ]step|each step|show (?:your |the )?work|reasoning|think through|walk me through|"
             r"explain (?:how|your)")
         + r"|一步步|一步一步|逐步|分步|写出过程|解题过程|详细过程|推理|思路清晰"),
    _cue("cot", "solve/equation", 2.2,
         _en(r"solve|solving|solution to|equation|equations|inequality|simplify|factori[sz]e|find (?:x|y|the value)")
         + r"|方程|求解|解方程|解出|不等式|化简|因式分解|求[xyzn]|求值"),
    _cue("cot", "why/explanation", 2.0,
         _en(r"why|how come|explain|explanation|what causes|reason (?:why|for)|how (?:does|do|did|can) .{1,40} work|principle")
         + r"|为什么|为何|原理|原因|怎么回事|解释|机制|是怎么.{0,6}的"),
    _cue("cot", "maths vocabulary", 1.4,
         _en(r"probability|chance|odds|area|perimeter|volume|triangle|circle|square root|prime|integer|odd|even|"
             r"divisible|remainder|fraction|ratio|average|mean|derivative|integral|function|sequence|series|angle|"
             r"degrees|speed|distance|interest|percent|percentage|sum of|product of|twice|half|times as")
         + r"|概率|几率|面积|周长|体积|三角形|质数|素数|整数|奇数|偶数|整除|余数|分数|比例|平均|导数|积分|函数|数列|"
           r"等差|等比|角度|速度|路程|距离|利息|百分之|倍|相遇|追上|工程|浓度|鸡兔|半径|直径|圆形|圆周|圆的"),
    # Which of two *quantities* is larger is a reasoning question, not a choice between plans.
    _cue("cot", "quantity comparison", 2.6,
         _en(r"which is (?:heavier|lighter|larger|bigger|greater|smaller|longer|shorter|faster|slower|older|higher|"
             r"lower|more likely|closer|farther)|which number")
         + r"|哪个(?:更|比较)?(?:大|小|重|轻|多|少|长|短|快|慢|高|低)(?![方法])|谁(?:更)?(?:大|多|重|快)"),
    _cue("cot", "hypothetical", 0.8, _en(r"if|suppose|assume|given that|when") + r"|如果|假设|假如|已知|若"),
    _cue("cot", "logic puzzle", 2.0,
         _en(r"puzzle|riddle|logic(?:al)?|lying|tells the truth|truth-?teller|liar") + r"|谜题|逻辑|说谎|说真话|推断|谁是"),
    # --- few_shot: fill a fixed template --------------------------------------------------
    _cue("few_shot", "extraction request", 3.5,
         _en(r"extract|parse|pull out|identify the (?:time|date|person|people|event)|fill in|structured|"
             r"in the format|format (?:it|this|as)|key fields|break (?:it|this) down into")
         + r"|提取|抽取|抽出|识别出|整理成|整理为|格式化|按照?.{0,12}格式|结构化|填表|按.{0,6}模板|拆分成"),
    _cue("few_shot", "template fields", 2.0,
         _en(r"time\s*[,/;、]\s*(?:place\s*[,/;、]\s*)?(?:person|people|who)|person\s*[,/;、]\s*(?:event|activity)|"
             r"who\s*[,/]\s*what\s*[,/]\s*when|date and time")
         + r"|时间[、/，,和及与]\s*(?:地点[、/，,和及与]\s*)?人物|人物[、/，,和及与]\s*(?:事项|事件|事情)|事项|字段"),
    # --- tot: choose among plans ------------------------------------------------------------
    _cue("tot", "choice", 2.4,
         _en(r"which (?:one|option|is better|should|would|plan|approach|path|is best|is the best|is more|to choose)|"
             r"should i (?:choose|pick|go with|take|learn|buy|rent|accept)|choose between|pick between|decide between|"
             r"or should|what should i choose|which of")
         + r"|哪个|哪种|哪一个|哪家|选哪|怎么选|如何选|该选|选择哪|怎么决策|如何决策|哪[里儿]?.{0,6}(?:更?好|合适|划算)[？?呢]"),
    _cue("tot", "comparison", 2.2,
         _en(r"compare|comparison|versus|vs\.?|pros and cons|trade-?offs?|weigh|better|worse|advantages and disadvantages|"
             r"worth it|more cost-effective|strengths and weaknesses")
         + r"|比较|对比|优劣|利弊|优缺点|权衡|更好|划算|哪个好|孰优孰劣|值不值"),
    # Bare alternatives and yes/no decisions lean towards weighing options, but only weakly.
    _cue("tot", "alternative", 1.0, _en(r"or|whether") + r"|还是|或者|要不要|该不该|是否应该"),
    # Three or more listed alternatives: "snowball, avalanche, or consolidation", "奶茶、卖花还是便利店".
    # Chinese lists use the enumeration comma 、 (the clause comma ， is not a list); English "A, B, or C".
    _cue("tot", "enumerated alternatives", 1.6,
         r"[^、，,。？?！!]{1,12}、[^、，,。？?！!]{1,12}(?:、[^、，,。？?！!]{1,12}){0,6}(?:还是|或者|或)"
         r"|(?<![a-z])[a-z][\w' -]{0,24}, [\w' -]{1,25},? or (?=\w)"),
    _cue("tot", "superlative way", 1.6,
         _en(r"(?:best|smartest|cheapest|fastest|easiest|safest|wisest|most \w+) (?:way|option|approach|choice|plan|move|strategy)")
         + r"|最.{1,4}的(?:办法|方式|方法|选择|做法)"),
    _cue("tot", "options/plans", 1.8,
         _en(r"options|alternatives|approaches|strategies|strategy|plans|ideas|solutions|ways to|proposals|"
             r"several|multiple|various|a few|different")
         + r"|方案|思路|办法|策略|选项|途径|路线|几种|多种|多个|不同的|出路"),
    _cue("tot", "best/rank", 1.8,
         _en(r"best|optimal|most suitable|strongest|most effective|rank|ranking|prioriti[sz]e|evaluate|recommend|"
             r"decide|decision|pick the|choose the|select the|most (?:feasible|practical|viable|promising|realistic)")
         + r"|最优|最好|最佳|最合适|最划算|最有效|最可行|最靠谱|最实际|排序|排名|评估|评价|推荐|建议|决策|决定|选出|选一个|[选挑]出?最"),
    _cue("tot", "brainstorm/plan", 1.8,
         _en(r"brainstorm|propose|come up with|suggest|plan (?:a|an|the|my|our)|design (?:a|an)|how (?:should|can|could) "
             r"(?:i|we|a|an|the|our|my)")
         + r"|头脑风暴|出主意|想办法|规划|策划|设计一个|怎么办|如何(?:提高|降低|提升|减少|增加|改善|解决)|怎样才能"),
)

# --- structural features ---------------------------------------------------------------------

NUMBER = re.compile(rf"\d+(?:[.,]\d+)*|[{_ZH_DIGIT}]+(?=分之|个|只|辆|本|元|块|岁|天|小时|分钟|米|公里|千米|人|次|倍|头|条|%)")
# Operators between numbers, as symbols or words: "789*654", "(3+4)/2", "2^32", "2 to the power of 40",
# "98765 除以 321". A number followed by a unit or 倍 is a quantity, not an operand.
_OPERATOR = (
    r"\*\*|[+\-*/×÷^]|x(?=\s*\d)|mod|to the power of|raised to(?: the power of)?|times|multiplied by|divided by|"
    r"plus|minus|乘以|除以|加上|减去|乘|除|加|减"
)
EXPRESSION = re.compile(
    rf"[(（]?\s*\d+(?:\.\d+)?\s*[)）]?\s*(?:{_OPERATOR})\s*[(（]?\s*\d+(?:\.\d+)?", re.I
)
# A percentage applied to an amount: "17.5% of 880", "18% tip on a $64.50 bill", "880的15%".
PERCENT_OF = re.compile(
    r"\d+(?:\.\d+)?\s*%\s*(?:of|的|tip|tax|vat|discount|off|on|interest)[^.?!。？,，;]{0,20}?\d"
    r"|\d+(?:\.\d+)?\s*的\s*\d+(?:\.\d+)?\s*%|百分之[\d一二三四五六七八九十]+(?:点\d+)?的\d",
    re.I,
)
MATH_FUNCTION = re.compile(
    r"\d+\s*to the\s*\d+(?:st|nd|rd|th)?(?:\s*power)?|\d+\s*次[方幂]|"
    r"(?:sqrt|log|ln|sin|cos|tan|exp|factorial)\s*\(?\s*\d|square root of \d|\d+\s*(?:squared|cubed|factorial|!)"
    r"|\d+\s*的\s*[\d一二三四五六七八九十]+\s*次方|根号\s*\d+(?![^，。,.]*是无理数)|\d+\s*的平方根|\d+\s*的阶乘",
    re.I,
)
VARIABLE = re.compile(r"\d\s*[a-z](?![a-z])|(?<![a-z])[a-z]\s*(?:[\^²³]|[+\-*/=]\s*\d)|=\s*[a-z]\b|[a-z]\s*=", re.I)
QUANTITY_QUESTION = re.compile(
    _en(r"how many|how much|how old|how long|how far|how fast|what is the (?:probability|chance|total|area|sum|average)|"
        r"when will|when does|when do|at what time will|what fraction|what percentage")
    + r"|多少|几个|几只|几岁|几天|几小时|几分钟|多长|多久|多远|多大|几倍|各有|各是|是几|有几",
    re.I,
)
NARRATIVE = re.compile(
    _en(r"has|have|had|gives?|gave|buys?|bought|sells?|sold|travels?|leaves?|runs?|walks?|shares?|split|each|"
        r"together|remaining|left|costs?|spent|earns?|rolled|drawn|picks?")
    + r"|有|给了|买了|卖了|用了|剩下|还剩|一共|共有|每人|每个|分给|出发|相距|同时|花了|比.{1,6}多|比.{1,6}少",
    re.I,
)

TIME_EXPRESSION = re.compile(
    r"明天|后天|大后天|今天|今晚|明早|明晚|昨天|下周[一二三四五六日天末]?|这周[一二三四五六日天末]?|本周[一二三四五六日天末]?|"
    r"周[一二三四五六日天末]|星期[一二三四五六日天]|礼拜[一二三四五六日天]|月底|月初|年底|年初|"
    r"\d{1,2}月\d{1,2}[日号]|[\d一二三四五六七八九十]+号|[上下中]午|早上|晚上|傍晚|凌晨|清晨|那天|当天|"
    r"元旦|春节|除夕|清明|端午|中秋|国庆|圣诞|情人节|假期|放假|"
    rf"[\d{_ZH_DIGIT}]+点(?:半|[\d{_ZH_DIGIT}]+分?)?|"
    + _en(rf"tomorrow|tonight|today|yesterday|next (?:week|month|{_WEEKDAY_EN})|this (?:{_WEEKDAY_EN}|weekend|morning|"
          rf"afternoon|evening)|on (?:{_WEEKDAY_EN})|{_WEEKDAY_EN}|noon|midnight|morning|afternoon|evening|weekend|"
          rf"christmas|new year'?s?(?: eve| day)?|thanksgiving|easter|after work|every (?:day|week|{_WEEKDAY_EN})|"
          rf"(?:{_MONTH_EN})\.? \d{{1,2}}")
    + r"|(?<![a-z\d])at \d{1,2}(?::\d{2})?|\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}",
    re.I,
)
PERSON = re.compile(
    r"(?:和|跟|与|陪|约了?|同|找|见|给)[\u4e00-\u9fff]{1,3}|"
    r"医生|大夫|老师|经理|总监|[王李张刘陈杨赵黄周吴徐孙马胡朱郭何罗高林][总工姐哥]|律师|教授|客户|老板|同事|"
    r"妈妈|爸爸|爷爷|奶奶|外婆|外公|老婆|老公|女朋友|男朋友|朋友|孩子|儿子|女儿|领导|导师|教练|师傅|"
    r"[表堂]?[哥姐弟妹]|叔叔|阿姨|舅舅|姑姑|姨妈|伯伯|同学|室友|邻居|房东|"
    r"(?:接|送|看望|探望|拜访)[\u4e00-\u9fff]{1,3}|"
    r"(?<![A-Za-z])(?:with|meet|call|visit|see|email|text)\s+(?:(?:Dr|Mr|Ms|Mrs|Prof)\.?\s+)?[A-Z][a-z]+|"
    r"(?<![A-Za-z])(?:Dr|Mr|Ms|Mrs|Prof)\.?\s+[A-Z][a-z]+|"
    r"(?<![A-Za-z])(?:with|call|visit|pick up|drop off|take)\s+(?:my\s+|the\s+|our\s+)?(?:mom|mum|dad|mother|father|boss|team|client|manager|kids|children|son|daughter|partner|"
    r"doctor|dentist|teacher|wife|husband|friend|friends|family|parents|grandma|grandpa|colleague|colleagues)\b",
)
ACTIVITY = re.compile(
    r"吃饭|吃午饭|吃晚饭|午饭|晚饭|早饭|聚餐|聚会|开会|会议|例会|见面|复诊|看病|体检|面试|约会|打球|羽毛球|篮球|"
    r"视频|通话|打电话|电话|签合同|签约|出差|上课|家长会|喝茶|喝咖啡|咖啡|看电影|拜访|汇报|答辩|培训|接机|送机|"
    r"婚礼|生日|聚|旅游|爬山|跑步|健身|去[\u4e00-\u9fff]{1,4}|回[\u4e00-\u9fff]{1,3}|"
    r"开[\u4e00-\u9fff]{0,3}会|[周例晨早年班]会|交[\u4e00-\u9fff]{1,3}|提交|完成[\u4e00-\u9fff]{1,4}|办[\u4e00-\u9fff]{1,3}|"
    + _en(r"meeting|meet|lunch|dinner|breakfast|brunch|coffee|call|interview|appointment|tennis|golf|football|"
          r"game|class|lesson|session|date|drinks|visit|review|sync|standup|check-?up|haircut|party|wedding|"
          r"flight|trip|presentation|demo|workshop|yoga|gym|movie|concert|pick up|drop off|deadline|submit|"
          r"practice|rehearsal|recital|shift"),
    re.I,
)
QUESTION_FORM = re.compile(
    r"[?？]|吗|呢|什么|怎么|为什么|哪|如何|是否|多少|几(?!点|月|号|日)|"
    + _en(r"what|how|why|which|when|where|who|whom|whose|is it|are there|can you|could you|should|do i|does|did"),
    re.I,
)
LIVE_FAMILIES = frozenset(
    {"live-data noun", "market data", "market asset", "news", "clock/calendar", "live status", "currency conversion"}
)


__all__ = [
    "ACTIVITY",
    "CUES",
    "EXPRESSION",
    "LIVE_FAMILIES",
    "MATH_FUNCTION",
    "NARRATIVE",
    "NUMBER",
    "PERCENT_OF",
    "PERSON",
    "QUANTITY_QUESTION",
    "QUESTION_FORM",
    "TIME_EXPRESSION",
    "VARIABLE",
    "Cue",
]
