"""Families that change what another family's words mean: a list to choose from, a puzzle's premises,
advice about nobody's own situation, a reminder to write, a verb called inside code, a piece of software to
write. Run on the cue scores before the structural readings, so those see the corrected kinds."""

from __future__ import annotations

import re

from router.understanding import timely
from router.understanding.cues import FAMILIES, Compiled
from router.understanding.given_text import earliest

CHOICE_PRESSURE = 2.4
"""Options pressure at which a list asked for is a set of alternatives to weigh (one choice family)."""
_PREMISES = frozenset({"constraint puzzle", "deduction"})
"""Families whose match says the text is a puzzle's premises ("logic puzzle" has words such as "logic" that
name a subject too)."""
_REMINDERS = ("remind me", "reminder", "提醒我", "提醒一下", "记一下", "记下")
_TEACHING = ("explain", "teach", "解释", "怎么讲", "怎么教", "跟他说", "跟她说", "跟孩子说", "讲讲")
"""A request to explain something to someone (a child, a student): what is explained decides the kind."""
_FIRST_PERSON = frozenset({"i", "i'm", "im", "i've", "i'd", "my", "me", "mine", "we", "our", "us"})
_TRANSLATE_SAID = re.compile(r"\btranslat\w*\b(?!\s*\()|翻译|翻成|译成|译为")
"""A translation asked in words; "translate([t,t,t])" is a function called inside code."""
_SOFTWARE = re.compile(r"(?:写|做|开发|搞)[^，。？?！!]{0,24}?(?:页面|网页|小程序|插件|脚本|接口)"
                       r"|\b(?:write|build|make|create|code|draft)\b[^.,;:?!]{0,30}?\b(?:app|page|website|web page|plugin|extension|script|bot)\b")
"""What a "write me a ..." builds when it is software: code, not prose."""
_PLAINLY = re.compile(r"\bin (?:plain|simple|simpler) (?:english|language|terms|words)\b")
_POINTERS = (":", "\n", '"', "“", "this ", "these ", "the following", "below")
"""Marks that point at a text handed over."""
_GIVEN = (*_POINTERS, "rewrite", "rephrase", "reword", "turn ")
"""Signs of a text handed over to rework."""
_HANDED = (*_POINTERS, "：", "「", "这段", "这篇", "这封", "这条", "下面", "以下", "如下")
"""Signs of a text handed over with a request to compose (the piece is then a rework of it)."""
_WEIGHTS = {name: weight for _, name, weight, *_ in FAMILIES}
"""A task family's weight by its name."""


def reweigh(c: Compiled, low: str, present: set[str], scores: dict[str, float], names: set[str], options: float) -> None:
    """Families that change what another family's words mean: a list to choose from, a puzzle's premises,
    advice about nobody's own situation, a reminder to write, a how-to about scheduling, a verb inside code,
    software to write."""
    if "list request" in names and options >= CHOICE_PRESSURE:
        # "what are some options ... and which would you pick": the list is there to choose from
        scores["knowledge"] -= c.families[c.list_family].weight
        names.discard("list request")
    if not names.isdisjoint(_PREMISES):
        # "if all metals conduct heat ...": a syllogism's or a puzzle's nouns are its premises, not its topic
        scores["knowledge"] = min(scores["knowledge"], 1.2)
        scores["humanities"] = min(scores["humanities"], 1.2)
    if "personal advice" in names and present.isdisjoint(_FIRST_PERSON) and "我" not in low:
        # "is it safe to eat eggs past the date": a question about the world, nobody's own situation
        weight = c.families[c.advice_family].weight
        scores["chat"] -= weight
        scores["knowledge"] += weight
    if "personal advice" in names and scores["maths"] > 0 and any(t in low for t in _TEACHING):
        # "my son asked why any number to the power of zero is one, how do I explain it": the fact to teach
        # is the question; the child asking is its audience
        scores["chat"] -= c.families[c.advice_family].weight
        scores["maths"] += 1.0
    if "calendar request" in names and scores["writing"] > 0 and _reminds_first(low):
        # "提醒我周五写周报", "remind me to write the report": the piece to write is the entry's activity
        scores["writing"] = min(scores["writing"], 1.0)
    if "translate verb" in names and scores["coding"] >= 3.0 and not _TRANSLATE_SAID.search(low):
        # "module box(...){... translate([t,t,t]) cube(...)} how do i add a lid": the verb is the code's
        scores["translation"] -= _WEIGHTS["translate verb"]
        names.discard("translate verb")
    if "rewrite verb" in names and _PLAINLY.search(low) and not any(g in low for g in _GIVEN):
        # "medicare advantage vs medigap, whats the actual difference in plain english": how to explain, no text to rework
        scores["translation"] -= _WEIGHTS["rewrite verb"]
        names.discard("rewrite verb")
    if "compose a piece" in names and "greeting/thanks" in names:
        # "写段话 谢谢她帮忙带娃", "write a thank you card": the thanks are the piece's words, not said to us
        scores["chat"] -= _WEIGHTS["greeting/thanks"]
        names.discard("greeting/thanks")
    if "compose a piece" in names and "rewrite verb" in names and not any(h in low for h in _HANDED):
        # "写一篇年度工作总结 正式一点": the tone of the piece to write; no text is handed over to rework
        scores["translation"] -= _WEIGHTS["rewrite verb"]
        names.discard("rewrite verb")
    if "rewrite verb" in names and options >= CHOICE_PRESSURE and not any(h in low for h in _HANDED):
        # "在纠结要不要改成24小时营业 ... 值不值": the thing changed is the asker's plan, no text handed over to rework
        scores["translation"] -= _WEIGHTS["rewrite verb"]
        names.discard("rewrite verb")
    if "spreadsheet formula" in names and "science vocabulary" in names:
        # "want a count of yes in one cell": a spreadsheet's cell, no biology
        scores["knowledge"] -= _WEIGHTS["science vocabulary"]
        names.discard("science vocabulary")
    if "compose a piece" in names and scores["coding"] >= 3.0 and _SOFTWARE.search(low):
        # "帮我写个微信小程序页面 显示社区通知列表": the piece to write is software
        scores["writing"] -= _WEIGHTS["compose a piece"]
        names.discard("compose a piece")
    if "plan asked" in names and "maths vocabulary" in names:
        # "4 pickers, 22 brix ... how should I sequence the pick?": the plan's verbs and figures are its own, no maths
        scores["maths"] -= _WEIGHTS["maths vocabulary"]
        names.discard("maths vocabulary")
    if "calendar request" in names and any(h in low for h in timely.HOW_TO):
        # "how do I schedule a script to run every monday": asks how to do it, files nothing
        scores["schedule"] -= c.families[c.calendar_family].weight
        names.discard("calendar request")


def _reminds_first(low: str) -> bool:
    """Whether a reminder request comes before the first writing verb."""
    remind = earliest(low, _REMINDERS)
    write = earliest(low, ("write", "写", "draft"))
    return remind != -1 and (write == -1 or remind < write)
