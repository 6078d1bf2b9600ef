"""What a question looks like, as numbers, for the difficulty score.

The features describe *kinds* of questions, not particular questions: length and
structure, numbers and operators, multi-step and reasoning cues, negated or
compound questions, and broad domains (maths, science, law, medicine, code,
ethics, ...), in English and Chinese. They are what lets a score trained on
GSM8K and some MMLU subjects rank questions it never saw. No lexical hashing:
leave-subject-out runs showed word identities memorise subjects instead.

Pure Python, a handful of regex passes and set look-ups: well under 1 ms.
"""

from __future__ import annotations

import math
import re

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_RAW_WORD = re.compile(r"[A-Za-z]+")
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_NUMBER = re.compile(r"(?<![a-z])\d+(?:[.,]\d+)*(?:\s*/\s*\d+)?")
_OPERATOR = re.compile(r"[+*/=^<>≤≥≠±×÷√∑∫∂πθλμσΔ]|\d ?- ?\d")
_CHOICE = re.compile(r"^\s*(?:\(?[A-Ja-j][.)]|[A-J]:)\s+(.*)$", re.MULTILINE)
_SENTENCE = re.compile(r"[.!?。！？；;]+(?:\s|$)|[。！？]")
_STATEMENT = re.compile(r"(?:statement|scenario)\s*\d\s*\|", re.IGNORECASE)
_FORMULA = re.compile(r"\^ ?\d|(?<=[a-z])\((?=[a-z0-9])|(?<=[a-z])_\d")
_FORMULA_WORDS = frozenset("sqrt log ln sin cos tan mod lim det gcd lcm".split())
_CODE_MARKS = ("```", "def ", "return ", "print(", "==", "!=", "++", "->", "{\n", ";\n", "}\n", "int ", "import ")
# Stem cues: English words looked up in the stem's word list (one dict look-up per word), marks by
# one regex pass, Chinese terms by substring (only when the question has Chinese in it).
_STEM_CUE_NAMES = ("ands", "fractions", "decimals", "money", "percent", "measures", "compare", "symbols",
                   "letters", "quotes")
_STEM_CUE_WORDS: dict[str, int] = {
    word: _STEM_CUE_NAMES.index(cue)
    for cue, words in (
        ("ands", "and"),
        ("fractions", "half third quarter twice thrice double triple fifth"),
        ("money", "dollar dollars cent cents"),
        ("percent", "percent percentage"),
        ("measures", "feet foot inch inches yard yards mile miles pound pounds ounce ounces gallon gallons cup cups "
         "liter liters meter meters cm km kg gram grams dozen"),
        ("compare", "more less fewer than times"),
    )
    for word in words.split()
}
_STEM_CUE_MARKS = re.compile(
    r"(?P<fractions>\d+/\d+)|(?P<decimals>\d\.\d)|(?P<money>[$¥€£])|(?P<percent>%)"
    r"|(?P<symbols>[()\[\]{}^=<>+*/\\|~≡∨∧→↔∀∃])|(?P<quotes>[\"“”「」])"
)
_STEM_CUE_CJK: tuple[tuple[int, tuple[str, ...]], ...] = tuple(
    (_STEM_CUE_NAMES.index(cue), terms)
    for cue, terms in (
        ("ands", ("和", "并且", "而且")),
        ("fractions", ("一半", "分之", "倍")),
        ("money", ("元", "块钱")),
        ("percent", ("百分之",)),
        ("measures", ("公里", "千克", "公斤", "升", "米")),
        ("compare", ("比", "多了", "少了", "更多", "更少")),
    )
)
_MAX_EXAMINED = 1200
"""Longer questions are examined at their start and end only (where the question is): bounded time."""
_UNIT = re.compile(
    r"\d\s*(?:%|km|kg|g|mg|ml|l|m|cm|mm|s|ms|h|hz|khz|mhz|v|w|kw|j|n|pa|mol|k|°|dollars?|cents?|hours?|minutes?|"
    r"seconds?|days?|weeks?|months?|years?|miles?|feet|inches|pounds?|元|块|米|公里|千克|克|小时|分钟|天|岁|个|只|人)",
    re.IGNORECASE,
)

# Cue words by group: a token counts in every group it is listed in.
_GROUPS: dict[str, str] = {
    "math": "equation equations integral derivative polynomial polynomials matrix matrices vector vectors prime primes "
    "function functions integer integers probability sum product ratio factor factors divisible remainder "
    "solve root roots square cube logarithm exponent exponential theorem proof prove lemma group groups ring "
    "rings field fields subgroup homomorphism isomorphic abelian permutation modulo variance deviation mean "
    "median regression coefficient slope graph angle triangle circle radius area volume perimeter",
    "physics": "velocity acceleration force energy momentum mass charge electron electrons photon wavelength "
    "frequency voltage current resistance circuit magnetic electric gravitational friction kinetic potential "
    "pressure temperature heat thermal quantum particle particles wave waves lens orbit",
    "chemistry": "molecule molecules reaction reactions acid acids base bases ph bond bonds ion ions oxidation "
    "compound compounds solution concentration molar mole moles electrons atom atoms atomic isotope enthalpy",
    "law": "court courts statute plaintiff defendant contract contracts constitutional constitution law laws "
    "legal liable liability tort negligence jurisdiction appeal appellate judge jury evidence testimony "
    "crime criminal prosecution convicted amendment treaty sovereign",
    "medicine": "patient patients diagnosis symptom symptoms disease diseases treatment clinical syndrome therapy "
    "infection chronic acute dose mg blood cell cells tissue gene genes genetic protein muscle nerve virus "
    "viral bacteria drug drugs physician hospital pain cancer",
    "code": "code program programs algorithm algorithms array arrays python java javascript function compile "
    "compiler runtime recursion recursive loop pointer binary hash stack queue tree trees sql bug debug "
    "complexity boolean string strings variable variables",
    "logic": "valid invalid argument arguments premise premises conclusion implies entails fallacy syllogism "
    "contradiction tautology consistent inconsistent necessarily sufficient necessary",
    "ethics": "morally moral immoral wrong ethics ethical virtue utilitarian duty ought obligation permissible",
    "economics": "gdp inflation demand supply price prices market markets monopoly tax taxes interest unemployment "
    "fiscal monetary elasticity marginal cost costs revenue profit investment bank",
    "humanities": "history historian century war empire king religion religious culture society social "
    "political politics government author novel poem poet philosopher philosophy passage",
    "quantity": "total each every per remaining left twice half times more less fewer than altogether "
    "average percent percentage cost costs spend spends spent earn earns earned pay pays paid",
    "reasoning": "why prove derive explain calculate compute determine estimate evaluate find solve justify "
    "analyze analyse compare deduce infer",
    "negation": "not except incorrect false least never",
    "create": "write compose story poem essay email letter draft summarize summarise rewrite translate "
    "brainstorm describe introduce imagine slogan tweet blog",
    "steps": "then after before first second third next finally later afterwards remaining initially",
}
_WORD_GROUPS: dict[str, tuple[str, ...]] = {}
for _group, _words in _GROUPS.items():
    for _w in _words.split():
        _WORD_GROUPS[_w] = (*_WORD_GROUPS.get(_w, ()), _group)

_CJK_GROUPS: dict[str, tuple[str, ...]] = {
    "math": ("方程", "积分", "导数", "多项式", "矩阵", "向量", "质数", "素数", "函数", "整数", "概率", "余数", "平方",
             "开方", "对数", "指数", "定理", "证明", "群", "方差", "三角形", "圆", "半径", "面积", "体积", "周长", "角"),
    "physics": ("速度", "加速度", "力", "能量", "动量", "质量", "电荷", "电子", "波长", "频率", "电压", "电流",
                "电阻", "电路", "磁", "摩擦", "压强", "温度", "量子"),
    "chemistry": ("分子", "反应", "酸", "碱", "化学键", "离子", "氧化", "化合物", "溶液", "浓度", "摩尔", "原子"),
    "law": ("法院", "法律", "法条", "原告", "被告", "合同", "宪法", "侵权", "管辖", "上诉", "判决", "证据", "犯罪"),
    "medicine": ("患者", "病人", "诊断", "症状", "疾病", "治疗", "临床", "感染", "剂量", "血", "细胞", "基因",
                 "蛋白", "病毒", "细菌", "药", "医生", "医院", "癌"),
    "code": ("代码", "程序", "算法", "数组", "编译", "递归", "循环", "指针", "二叉", "哈希", "栈", "队列", "函数",
             "字符串", "变量", "复杂度", "python", "java"),
    "logic": ("有效", "论证", "前提", "结论", "推出", "蕴含", "谬误", "三段论", "矛盾", "充分", "必要"),
    "ethics": ("道德", "不道德", "伦理", "应该", "义务"),
    "economics": ("通货膨胀", "需求", "供给", "价格", "市场", "垄断", "税", "利率", "失业", "成本", "利润", "投资"),
    "humanities": ("历史", "世纪", "战争", "帝国", "皇帝", "宗教", "文化", "社会", "政治", "政府", "作者", "小说",
                   "诗", "哲学"),
    "quantity": ("一共", "总共", "每", "剩", "倍", "一半", "多少", "平均", "百分之", "花了", "赚"),
    "reasoning": ("为什么", "证明", "推导", "解释", "计算", "求", "解", "估算", "判断", "分析", "比较"),
    "negation": ("不是", "不正确", "错误", "除了", "不属于", "最少"),
    "create": ("写", "作文", "故事", "诗歌", "邮件", "信", "总结", "翻译", "改写", "介绍", "描述", "想象", "文案"),
    "steps": ("然后", "之后", "之前", "首先", "其次", "接着", "最后", "再"),
}

GROUP_NAMES: tuple[str, ...] = tuple(_GROUPS)
# Features whose effect differs between open questions and multiple choice: repeated for open ones.
_STEM_SHAPE = ("stem_words", "stem_commas", *(f"stem_{name}" for name in _STEM_CUE_NAMES), "stem_max_number",
               "stem_names")
_OPEN = ("log_chars", "log_sentences", "log_numbers", "distinct_numbers", "log_operators", "units",
         "avg_word_len", "cue_steps", "cue_quantity", "cue_reasoning", "cue_math", *_STEM_SHAPE)
_NEGATED_STEM = re.compile(r"\b(?:NOT|EXCEPT|LEAST|FALSE|INCORRECT)\b|不是|不正确|错误的是|除了")
_CATCH_ALL = ("all of the above", "none of the above", "both", "neither", "以上都", "以上均", "都不")
_ROMAN_OPTION = re.compile(r"^(?:i|ii|iii|iv)(?:\s|,|$)")
_VERDICT_PAIR = re.compile(r"(?:true|false|wrong|not wrong)\s*,\s*(?:true|false|wrong|not wrong)")
_CONTENT_WORD = re.compile(r"[a-z]{4,}")
_NAME_INSIDE = re.compile(r"(?<=[a-z,;:] )[A-Z][a-z]+")
_QUESTION_END = re.compile(r"[?？]\s*$")

FEATURE_NAMES: tuple[str, ...] = (
    "log_chars",
    "log_units",
    "cjk_ratio",
    "log_sentences",
    "questions",
    "log_numbers",
    "distinct_numbers",
    "decimals_fractions",
    "log_operators",
    "formula",
    "units",
    "code",
    "choices",
    "choice_numeric",
    "choice_log_len",
    "choice_len_spread",
    "statement_pairs",
    "passage",
    "avg_word_len",
    "long_word_ratio",
    "capital_ratio",
    "newline_ratio",
    *_STEM_SHAPE,
    "negated_stem",
    "catch_all_option",
    "roman_options",
    "blank",
    "completion_stem",
    "which_of_the_following",
    "short_options",
    "log_longest_option",
    "option_stem_overlap",
    "verdict_pair_options",
    *(f"cue_{g}" for g in GROUP_NAMES),
    *(f"any_{g}" for g in GROUP_NAMES),
    *(f"open_{name}" for name in _OPEN),
)


def _log(x: float) -> float:
    return math.log1p(x)


def features(question: str) -> list[float]:
    """The feature vector, in FEATURE_NAMES order."""
    full = question.strip()
    n_chars = len(full)
    text = full if n_chars <= _MAX_EXAMINED else full[:600] + "\n" + full[-(_MAX_EXAMINED - 600) :]
    lower = text.lower()
    stretch = n_chars / len(text) if text else 1.0  # >1 when only part of a long question is examined
    cjk = len(_CJK.findall(text)) * stretch
    words = _WORD.findall(lower)
    units = len(words) * stretch + cjk / 1.6  # about 1.6 Chinese characters per English word of content

    choice_texts = _CHOICE.findall(text)
    stem = text
    if len(choice_texts) >= 2:
        first = _CHOICE.search(text)
        stem = text[: first.start()] if first else text
    numbers = _NUMBER.findall(stem)
    choice_numeric = sum(1 for c in choice_texts if _NUMBER.search(c)) / len(choice_texts) if choice_texts else 0.0
    choice_lens = [len(c) for c in choice_texts]
    choice_mean = sum(choice_lens) / len(choice_lens) if choice_lens else 0.0
    spread = (max(choice_lens) - min(choice_lens)) / (choice_mean + 1.0) if choice_lens else 0.0

    counts = dict.fromkeys(GROUP_NAMES, 0)
    for w in words:
        for g in _WORD_GROUPS.get(w, ()):
            counts[g] += 1
    if cjk:
        for g, terms in _CJK_GROUPS.items():
            counts[g] += sum(1 for t in terms if t in text)
    for phrase, group in (("how many", "quantity"), ("how much", "quantity"), ("more than", "quantity"),
                          ("step by step", "reasoning"), ("which of the following", "negation")):
        if phrase in lower:
            counts[group] += 1
    norm = max(units, 1.0)

    long_words = sum(1 for w in words if len(w) >= 9)
    raw_words = _RAW_WORD.findall(stem)
    capitals = sum(1 for w in raw_words if w[0].isupper())
    row = [
        _log(n_chars),
        _log(units),
        cjk / n_chars if n_chars else 0.0,
        _log(len(_SENTENCE.findall(text))),
        min(text.count("?") + text.count("？"), 3),
        _log(len(numbers)),
        _log(len(set(numbers))),
        min(sum(1 for n in numbers if "." in n or "/" in n), 3),
        _log(len(_OPERATOR.findall(text))),
        _log(len(_FORMULA.findall(lower)) + sum(1 for w in words if w in _FORMULA_WORDS)),
        _log(len(_UNIT.findall(stem))),
        _log(sum(lower.count(mark) for mark in _CODE_MARKS)),
        1.0 if len(choice_texts) >= 2 else 0.0,
        choice_numeric,
        _log(choice_mean),
        min(spread, 3.0),
        1.0 if _STATEMENT.search(text) else 0.0,
        1.0 if n_chars > 1200 or "following information" in lower or "passage" in lower else 0.0,
        sum(len(w) for w in words) / len(words) if words else 0.0,
        long_words / len(words) if words else 0.0,
        capitals / len(raw_words) if raw_words else 0.0,
        min(text.count("\n") / norm, 1.0),
    ]
    row.extend(_shape(stem, numbers, choice_texts, words if stem is text else None, cjk / stretch))
    row.extend(min(counts[g] / norm * 10.0, 3.0) for g in GROUP_NAMES)
    row.extend(1.0 if counts[g] else 0.0 for g in GROUP_NAMES)
    if len(choice_texts) < 2:
        row.extend(row[i] for i in _OPEN_INDEX)
    else:
        row.extend(0.0 for _ in _OPEN_INDEX)
    return row


def _shape(stem: str, numbers: list[str], choice_texts: list[str], words: list[str] | None, cjk: float) -> list[float]:
    """Stem shape (how much there is to track) and answer-option shape (what kind of choice it is)."""
    lower = stem.lower()
    values = []
    for n in numbers:
        try:
            values.append(float(n.replace(",", "").split("/")[0]))
        except ValueError:
            continue
    if words is None:  # a multiple-choice stem: tokenise it (else the whole text's tokens are reused)
        words = _WORD.findall(lower)
        cjk = len(_CJK.findall(stem)) if cjk else 0.0
    cues = [0] * len(_STEM_CUE_NAMES)
    letters = _STEM_CUE_NAMES.index("letters")
    for w in words:
        index = _STEM_CUE_WORDS.get(w)
        if index is not None:
            cues[index] += 1
        elif len(w) == 1:
            cues[letters] += 1
    for match in _STEM_CUE_MARKS.finditer(stem):
        cues[_STEM_CUE_NAMES.index(match.lastgroup or "symbols")] += 1
    if cjk:
        for index, terms in _STEM_CUE_CJK:
            cues[index] += sum(stem.count(t) for t in terms)
    row = [_log(len(words) + cjk / 1.6), _log(stem.count(",") + stem.count("，"))]
    row.extend(_log(c) for c in cues)
    row.append(_log(max(values)) if values else 0.0)
    row.append(_log(len(set(_NAME_INSIDE.findall(stem)))))
    options = [c.lower() for c in choice_texts] if len(choice_texts) >= 2 else []
    option_words = [len(c.split()) for c in options]
    stem_words = {w for w in words if len(w) >= 4} if options else set()
    row += [
        1.0 if _NEGATED_STEM.search(stem) else 0.0,
        1.0 if any(c.startswith(_CATCH_ALL) for c in options) else 0.0,
        1.0 if any(_ROMAN_OPTION.match(c) for c in options) else 0.0,
        1.0 if "___" in stem else 0.0,
        1.0 if options and not _QUESTION_END.search(stem.strip()) else 0.0,
        1.0 if "which of the following" in lower or "下列" in stem or "以下哪" in stem else 0.0,
        sum(1 for w in option_words if w <= 2) / len(option_words) if option_words else 0.0,
        _log(max(option_words)) if option_words else 0.0,
        sum(len(set(_CONTENT_WORD.findall(c)) & stem_words) for c in options) / len(options) if options else 0.0,
        1.0 if _VERDICT_PAIR.search(" ".join(options)) else 0.0,
    ]
    return row


_OPEN_INDEX = tuple(FEATURE_NAMES.index(name) for name in _OPEN)

_SHAPE_NAMES = frozenset(
    (*_STEM_SHAPE, *(f"open_{name}" for name in _STEM_SHAPE), "negated_stem", "catch_all_option", "roman_options",
     "blank", "completion_stem", "which_of_the_following", "short_options", "log_longest_option",
     "option_stem_overlap", "verdict_pair_options")
)
STRUCTURE_FEATURES: tuple[str, ...] = tuple(name for name in FEATURE_NAMES if name not in _SHAPE_NAMES)
"""The structure-based features (length, numbers, operators, formulae, code, cue-word domains):
the first score's set. The stem and option *shape* features sharpen the ranking within GSM8K-like
word problems and multiple choice, but on open-ended prompts their weights (learnt from GSM8K alone)
extrapolate badly; the shipped score blends a model on this set in for open questions."""
