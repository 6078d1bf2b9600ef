"""Reading one question: task type, language, hard constraints, and a small vector.

Cue families (``cues.py``) add their weight to a task once each; structural readings add
what single words cannot say: a ready-made expression to evaluate, a word problem (several
quantities and a question asking for one), an exact figure (finance formulas, percentages,
unit conversions), a dated statement with a person or an activity (a schedule entry).
Some readings exclude others, because they say what the question *is*:

* a proof is never arithmetic: symbols inside a proof do not make it a calculation;
* text to translate or rewrite is never a schedule, a calculation or live data: its time
  words and numbers belong to the text, not to the request;
* writing, roleplay, thanks and feelings are not schedule entries either, and a past time
  ("yesterday") never makes one;
* years and numbers that are part of a name ("Apollo 11") are not quantities.

The readings live by concern: ``casual`` (apostrophes casual typing leaves out), ``given_text`` (a text
handed over, whose greetings are its own), ``figures`` (quantities and exact figures), ``timely`` (live data
and schedule entries), ``fallback`` (the words of labelled questions, when the cues are weak),
``learned_reading`` (a second reading by words) and ``vetoes`` (where the cues' structure stands against it);
this module weighs them. Deterministic and pure Python; the patterns compile on first use.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from router.understanding import fallback as task_fallback
from router.understanding import figures, given_text, learned_reading, readings, riddles, timely, vetoes
from router.understanding.casual import restore_apostrophes, spoken_zh
from router.understanding.cues import FAMILIES, compiled
from router.understanding.families import family_hits
from router.understanding.language import CJK, detect_language, script_language, to_simplified
from router.understanding.reweigh import CHOICE_PRESSURE, reweigh
from router.understanding.types import TASK_TYPES, Understanding
from router.understanding.vector import question_vector
from router.understanding.vetoes import no_choice, vetoed

_MAX_CHARS = 600
"""Longer texts are read at their first and last 300 characters: the request sits at the start
("Given these records, extract ...") or at the end (a pasted text, then "summarise it"), and the
middle is the material, which would only add its own vocabulary. It bounds the time of a reading
(decision p99 under 1 ms) whatever the caller sends."""
_FRAMING = re.compile(
    r"\b(?:expert|assistant|specialist|analyst|ai|model|bot|chatbot|classifier|grader|judge|evaluator|system|tool|"
    r"annotator|helper|given|provided|asked|tasked)\b|助手|专家|模型|分类器"
)
"""Roles that frame a task ("you are a helpful assistant", "you are an expert in ...") rather than a character."""
_DIGIT = re.compile(r"\d")
_LENGTH_HINTS = ("word", "sentence", "paragraph", "line", "bullet", "字", "no more than")
_PATTERN_CHARS = 300
"""Patterns (the costly part of a reading) read at most this much of a text: its first and last 150
characters, where a request's structure ("you are a ...", "write a ...", a sum) is."""
_SCHEDULE_CHARS = 200
"""A schedule entry is a short statement."""
_TEXT_TASKS = frozenset({"translation", "writing", "roleplay"})
_HABITUAL = ("every night", "every morning", "each night", "always", "usually", "每天", "每晚", "总是", "经常", "老是")
_PUZZLE = frozenset({"constraint puzzle", "deduction", "logic puzzle"})
_TOPICAL = frozenset({"world facts", "everyday know-how"})
_TOPICAL_CHARS = 200
"""Topic nouns (a recipe, a river) say what a short question is about; in a long text or a word problem
they are the text's material."""
_MATERIAL_ONLY = frozenset({"operation on items", "exact finance", "summarise verb"})
"""Families read as signals, not scores: operations ("find", "classify" ...) count only over a text the
question hands over, finance terms only as the inputs of an exact figure (talk of interest rates is not a sum)."""
_ASKING_OPENERS = frozenset({"is", "are", "was", "were", "will", "does", "did", "has", "any", "am", "isn't", "aren't", "won't",
                             "didn't", "doesn't", "wasn't", "anyone", "anybody"})
"""A line that opens with one of these asks, with or without a question mark ("is it gonna rain later")."""
_FALLBACK_CHARS = 300
"""The fallback model was fitted on questions, not on long pastes or exam items."""
_FALLBACK_WEIGHT = 1.6
"""Above ``fallback.WEAK``: the model's task wins over the weak cues it was consulted for."""
_LIVE = frozenset(name for task, name, *_ in FAMILIES if task == "live_data")
"""The names of the live-data families."""
_CODE_HOW = ("how do i", "how can i", "how to ", "how would you", "design a ", "design an ", "怎么", "如何")
_RIDDLE_CHARS = 160
"""A rate riddle is one short sentence; a long word problem repeats its numbers for other reasons."""
_INTERJECTIONS = frozenset(f"feelings '{w}'" for w in ("lol", "haha", "lmao", "omg", "ugh", "哈哈", "rofl", "smh"))
"""The evidence of a feelings cue that is only an interjection."""
_CODE_ASKS = ("write", "explain", "how do", "how to", "how can", "写", "解释", "怎么", "如何")
"""A request for code: the times it names ("a cron job at 02:30 on Mondays") are its parameters, not an entry."""


def understand(text: str) -> Understanding:
    """What kind of work ``text`` asks for (cached per text)."""
    if not isinstance(text, str):
        from router.errors import UsageError

        raise UsageError(f"understand() takes the question as a string, got {type(text).__name__}")
    return _understand(text)


@lru_cache(maxsize=4096)
def _understand(text: str) -> Understanding:
    body = text.strip()
    if len(body) > _MAX_CHARS:
        body = body[: _MAX_CHARS // 2] + "\n" + body[-_MAX_CHARS // 2 :]
    has_cjk = CJK.search(body) is not None  # lower-casing and the apostrophes put back below leave Han alone
    if has_cjk:
        body = spoken_zh(to_simplified(body))  # "現在台北幾度" asks what "现在台北几度" asks
    c = compiled()
    low = body.lower()
    digits = _DIGIT.search(low) is not None
    scores = dict.fromkeys(TASK_TYPES, 0.0)
    evidence: list[tuple[str, str, float]] = []
    names: set[str] = set()
    signals: dict[str, str] = {}
    options = 0.0
    # Patterns read a request, which sits at the start or the end of a long text.
    window = low if len(low) <= _PATTERN_CHARS else low[: _PATTERN_CHARS // 2] + "\n" + low[-_PATTERN_CHARS // 2 :]
    tokens = c.word.findall(low)
    present = set(tokens)
    if (restored := restore_apostrophes(low, present)) is not None:
        # "whos", "whats", "cant", "im": the apostrophe casual typing leaves out
        low = restored
        window = low if len(low) <= _PATTERN_CHARS else low[: _PATTERN_CHARS // 2] + "\n" + low[-_PATTERN_CHARS // 2 :]
        tokens = c.word.findall(low)
        present = set(tokens)
    for index, matched in family_hits(c, low, window, digits, tokens, present, has_cjk).items():
        family = c.families[index]
        if family.task == "signal" or family.name in _MATERIAL_ONLY:
            signals[family.name] = matched
        elif family.name == "take a role" and _FRAMING.search(matched):
            continue  # "You are an expert classifier ..." frames a task; it hands over no character
        elif family.name == "greeting/thanks" and not given_text.opens(matched, low, tokens):
            continue  # "hi" deep inside a long text is someone else's greeting
        elif family.name == "own move asked" and not vetoes.own_move_alone(low, matched):
            continue
        elif family.task == "options":
            options += family.weight
            if family.name in vetoes.ASKED_OUTRIGHT:
                names.add(family.name)  # the vetoes read it
        else:
            scores[family.task] += family.weight
            names.add(family.name)
            evidence.append((family.task, f"{family.name} '{matched.strip()[:40]}'", family.weight))

    if "quantity question" in signals and readings.no_count_asked(signals["quantity question"], low):
        del signals["quantity question"]  # "这几个岗位里 哪些...": these few; "各有啥好处"; "睡多久才够": a norm
    reweigh(c, low, present, scores, names, options)
    # "any idea if the park is packed today lol": a trailing interjection colours a question, it makes no talk
    interjection = "feelings" in names and any(e[1] in _INTERJECTIONS for e in evidence if e[0] == "chat")
    write_code = "imperative write" in names and scores["coding"] > 0
    if write_code:
        # "Write a python function ...": the thing to write is code, not a piece of prose
        scores["writing"] -= c.families[c.imperative_family].weight
        names.discard("imperative write")
        evidence[:] = [e for e in evidence if not e[1].startswith("imperative write")]
    constraints: set[str] = set()
    question_form = "?" in low or "？" in low or "question word" in signals or bool(tokens and tokens[0] in _ASKING_OPENERS)
    proof = "proof verb" in names
    text_work = any(scores[t] >= 3.5 for t in _TEXT_TASKS)
    if proof:
        constraints.add("proof")
    if "code marks" in names or scores["coding"] >= 3.0:
        constraints.add("code")

    # A text handed over to work on (a block after a colon or a newline, pointed at by "below",
    # "these", "下面" ...): an operation over it is extraction, and its news words, prices and
    # dates belong to the text, not to the request.
    fields = given_text.fields_asked(low, has_cjk)
    if "operation on items" not in signals and fields:
        signals["operation on items"] = fields
    # "which of these invoices are overdue? INV-101 ...": items of a given text kept by a condition
    selection = None if fields else (given_text.condition_asked(body, low, has_cjk) or given_text.asked_of_quote(body))
    if selection is not None:
        signals.setdefault("operation on items", selection)
        if "format" in signals and given_text.names_material(low, signals["format"]):
            del signals["format"]  # "下面是学校给的课后服务清单，哪些是周二周四上的": the list handed over, no format asked
    operation = "extraction request" in names or "operation on items" in signals
    if operation and "extraction request" not in names and any(q in low for q in given_text.QUESTION_HANDED):
        # "Read the following question and answer in \boxed{}": what is handed over is a question to
        # answer, of its own kind; "answer in" / "return the result" say how to answer, not what to do.
        operation = False
    lettered = "\n" in body and given_text.OPTION_LINES.search(body) is not None
    material = (selection is not None and not lettered) or (given_text.has_material(body, lettered, has_cjk) and (
        operation or any(r in low for r in given_text.REFERENCES)))
    if scores["coding"] >= 3.0 and "extraction request" in names and (not material or any(h in low for h in timely.HOW_TO)):
        # "how do I format a date in js", "用Python提取网页链接": code that extracts, no text to extract from
        scores["extraction"] = min(scores["extraction"], 1.0)
        operation = False
    elif "extraction request" in names and not material and any(h in low for h in timely.HOW_TO):
        # "how do I put these into a table in Word": asks how to do it, hands over nothing to do it on
        scores["extraction"] = min(scores["extraction"], 1.0)
    if (not operation and material and question_form
            and any(p in re.split(r"[:：\n]", low, maxsplit=1)[0] for p in given_text.IN_TEXT)):
        operation = True  # a field of the given text asked for before it ("the code in this message: ...")
    if "code marks" in names and "extraction request" not in names:
        operation = False  # "return", "list" and "each" inside a code paste are the code's words
    if material and operation and not text_work:
        weight = 2.0 + (1.6 if "operation on items" in signals else 0.0) + (0.6 if "format" in signals else 0.0)
        scores["extraction"] += weight
        evidence.append(("extraction", "an operation over a given text", weight))

    if "summarise verb" in signals:
        if material or any(r in window for r in given_text.SUMMARY_OBJECTS):
            scores["translation"] += 3.8
            names.add("rewrite verb")
            evidence.append(("translation", f"summarise a given text '{signals['summarise verb']}'", 3.8))
        else:
            scores["knowledge"] += 1.2
    text_work = any(scores[t] >= 3.5 for t in _TEXT_TASKS)

    # A riddle about days ("if yesterday were tomorrow ...") gives its own calendar: no clock needed.
    if own_calendar := riddles.own_calendar(low, digits):
        scores["reasoning"] += 3.0
        scores["live_data"] = min(scores["live_data"], 1.0)
        evidence.append(("reasoning", own_calendar, 3.0))

    # Quantities: years, ordinals and numbers inside names ("Apollo 11") are not operands.
    numbers, quantities = figures.quantities(c, body, low, digits, present, signals)
    if (len(body) > _TOPICAL_CHARS or quantities >= 2) and not names.isdisjoint(_TOPICAL):
        # a word problem's cake and a pasted story's island are the material, not what is asked about
        for index in c.topical_families:
            if c.families[index].name in names:
                scores[c.families[index].task] -= c.families[index].weight
                names.discard(c.families[index].name)
    if (len(body) <= _RIDDLE_CHARS and not proof and not lettered and "code" not in constraints
            and riddles.rate_riddle(numbers, low)):
        scores["reasoning"] += 3.4
        evidence.append(("reasoning", "one number for workers, items and time (a rate riddle)", 3.4))
    if has_cjk and numbers and "conversion" not in signals and (converted := readings.zh_conversion(low)):
        signals["conversion"] = converted

    # An exact figure: a ready-made expression, a percentage of an amount, a unit conversion,
    # a finance formula with its inputs. Never inside a proof, a text to rework, or code.
    # "how many tablespoons in a quarter cup": a conversion whose amount is written in words
    worded = not digits and "how many" in low and readings.unit_conversion(low) is not None
    word_problem = False
    quoted_figures = material and given_text.figures_quoted(body)
    if ((numbers or digits or quantities >= 2 or worded) and not proof and not text_work and "code" not in constraints
            and not (material and operation) and not quoted_figures):
        # "足金报价多少一克": a market quote's 一克 and 这两天 are no operands (it gives no digit)
        quote = "market data" in names and not digits
        exact = figures.exact_figure(c, body, low, window, digits, present, signals, numbers, has_cjk)
        if (exact and options >= CHOICE_PRESSURE and "quantity question" not in signals
                and (question_form or "calculate" not in signals) and figures.date_arithmetic(low) is None):
            # "should I put an extra $300 a month on my 5.5% loan or into my 401k?": a choice between uses of
            # money, whose amounts are its premises; a note with no question mark ("take the lump sum or the
            # annuity") asks it just the same, unless it asks for a computation; "which date should I tell the
            # patient" asks one date counted, no choice
            exact = None
        if exact and riddles.told_as_riddle(low):
            exact = None  # "riddle a customer told me: ... a fake $100 bill ... how much did he lose": a trick to see
        if exact:
            constraints.add("exact_figure")
            scores["maths"] += 3.6
            evidence.append(("maths", f"exact figure: {exact}", 3.6))
        elif quantities >= 2 and not quote and ("quantity question" in signals or (
                "calculate" in signals and "narrative" in signals and _PUZZLE.isdisjoint(names))):
            # A word problem asks for a quantity; "how much should I save" asks for advice.
            weight = 1.0 if "advice modal" in signals else 2.6
            if "narrative" in signals:
                weight += 0.6
            scores["maths"] += weight
            asked = signals.get("quantity question") or signals["calculate"]
            evidence.append(("maths", f"word problem: {quantities} quantities + '{asked}'", weight))
            word_problem = True
            if "deictic" not in signals:  # the fog that covers the problem's city is no forecast to fetch
                scores["live_data"] = min(scores["live_data"], 0.5)
        elif (len(numbers) >= 2 and question_form and not (options >= CHOICE_PRESSURE and not names.isdisjoint(vetoes.ASKED_OUTRIGHT))
              and not readings.norm_asked(low)):  # a plan's figures are its limits; a norm's are the asker's case
            scores["maths"] += 1.2
            evidence.append(("maths", f"{len(numbers)} numbers in a question", 1.2))

    if ("exact finance" in signals and not numbers and not lettered and signals["exact finance"] != "interests"
            and figures.explains(low, present)
            and not any(d in low for d in ("difference", "区别"))):  # "APY vs APR, the difference?": two terms defined
        scores["maths"] += 1.8  # "复利是怎么回事 讲讲": the maths of money explained, no figure to work out
        evidence.append(("maths", f"a finance idea explained '{signals['exact finance']}'", 1.8))

    # A value that changes over time, asked for now and with nothing to compute it from, is looked up.
    timely.weigh_live_data(scores, evidence, names, signals, low, present, has_cjk, length=len(body),
                           short=_SCHEDULE_CHARS, long=_PATTERN_CHARS, numbers=len(numbers), question_form=question_form,
                           interjection=interjection, text_work=text_work, material=material, lettered=lettered,
                           exact="exact_figure" in constraints, puzzle=not _PUZZLE.isdisjoint(names))
    if options and ((options >= CHOICE_PRESSURE and "deictic" not in signals and "live-data noun" in names
                     and len(names & _LIVE) == 1) or vetoes.news_then_move(low)):
        # "厦门 无锡 上海 选哪场 主要想天气好点": the weather is what the choice is weighed by, not a forecast asked for;
        # "鱼价现在低，是压塘还是现在就卖": the price is told, the move asked
        scores["live_data"] = min(scores["live_data"], 1.0)
    if material or lettered:  # a greeting inside a pasted email is the email's; an exam question is no chat
        scores["chat"] = min(scores["chat"], 0.9)
    if text_work or (material and scores["extraction"] >= 3.5):
        scores["schedule"] = 0.0

    # A schedule entry: a short dated statement (not a question, not past) with a person, an activity
    # or a clock time.
    habitual = any(h in low for h in _HABITUAL)  # "I wake up at 3am every night" is a habit, not an entry
    news = not question_form and "calendar request" not in names and timely.exclaimed_news(c, low)
    blocked = (text_work or news or "greeting/thanks" in names or "feelings" in names or scores["live_data"] >= 2.2
               or (habitual and "calendar request" not in names) or options >= 2.4
               or (len(body) <= _SCHEDULE_CHARS and readings.clock_now(low))
               or (scores["coding"] >= 3.0 and "calendar request" not in names and any(a in low for a in _CODE_ASKS))
               or ("fare search" in names and "calendar request" not in names)  # "cheapest flight ... next friday"
               or (has_cjk and "还是" in low and "calendar request" not in names))  # 还是 asks which: an entry states one plan
    if len(body) <= _SCHEDULE_CHARS and not question_form and not blocked and "past time" not in signals:
        if entry := timely.dated_entry(c, body, low, digits, signals):
            scores["schedule"] += entry[1]
            evidence.append(("schedule", f"dated statement '{entry[0].strip()}'", entry[1]))

    if (options and scores["coding"] >= 3.0 and any(h in low for h in _CODE_HOW) and not any(a in low for a in vetoes.ALTERNATIVES)
            and "decision request" not in names):  # "钢琴、游泳、编程只能留两个，怎么取舍" asks a decision
        options = 0.0  # "linux 怎么查看端口被哪个进程占用": which process, asked inside a how-to, is no choice
    compared = bool(options) and vetoes.fact_compared(low)
    if options and (compared or vetoes.told_apart(low) or no_choice(low)):
        # "coopers hawk vs sharpie id tips? always mix them up": two things told apart, none chosen; "which
        # medicines should never be taken with grapefruit": a rule asked
        options = 0.0
    # Options to weigh: their pressure also says "this is a decision", which is reasoning.
    if options:
        scores["reasoning"] += 0.5 * options
    thinking = 0.5 + scores["maths"] + scores["reasoning"] - 0.5 * options
    # A riddle's alternatives ("a kilo of feathers or a kilo of steel") are its premises, not plans to weigh.
    riddle = not _PUZZLE.isdisjoint(names) or "quantity comparison" in names
    if options >= 2.4 and options > thinking and not text_work and not riddle:
        constraints.add("options")
    if ("options" in constraints and scores["coding"] >= scores["reasoning"] and not lettered and not write_code
            and names.isdisjoint({"code marks", "implement", "explain"})):
        # "Vue or React for a new project?": a decision between tools, not code to write
        scores["reasoning"] = scores["coding"] + 0.1
        evidence.append(("reasoning", "a decision between tools", scores["reasoning"]))
    if "format" in signals:
        constraints.add("format")
    if "length" in signals or (digits and any(k in window for k in _LENGTH_HINTS) and c.length.search(window)):
        constraints.add("length")

    guessed = None
    # Weak cues: the words of labelled questions of each kind decide (router.understanding.fallback).
    # Three or more quantities make a word problem the numbers read better than words do.
    if (max(scores.values()) <= task_fallback.WEAK and len(body) <= _FALLBACK_CHARS and not lettered and quantities < 3
            and (guess := task_fallback.predict(body)) is not None and guess[1] >= task_fallback.MIN_PROBABILITY):
        told = not question_form and guess[0] != "chat" and timely.exclaimed(low)  # "we closed on the house today!!!"
        told = told or (compared and guess[0] == "reasoning")  # a fact's candidate answers are worded like a choice
        if not told and task_fallback.fits(guess[0], low, present, signals, material, scores["live_data"] > 0 or "deictic" in signals, has_cjk):
            scores[guess[0]] += _FALLBACK_WEIGHT
            evidence.append((guess[0], f"worded like {guess[0]} questions ({guess[1]:.2f})", _FALLBACK_WEIGHT))
            guessed = guess[0]
    # No cue at all: a short line is conversation, a longer question asks for knowledge.
    if max(scores.values()) <= 0.9:
        talk = not question_form and not compared and (len(body) < 40 or "about me" in names or timely.exclaimed(low))
        fallback = "chat" if talk else "knowledge"
        scores[fallback] += 1.0
    task = max(TASK_TYPES, key=scores.__getitem__)  # ties go to the earlier type
    if task == "extraction" and selection is not None and "format" not in signals:
        # read item by item against the condition: reasoning, no record to fill; the items are no plans to weigh
        constraints.add("selection")
        constraints.discard("options")
    # A second reading by words (router.understanding.learned_reading): when it is sure enough (overrules)
    # and the mode the cues' reading stands for differs, its reading wins; exam items with lettered options
    # are the cues'.
    if not lettered and (second := learned_reading.read(body)) is not None:
        first = learned_reading.reading_of(task, constraints)
        # a rework guessed from words alone is no structure the cues found ("launch on Etsy, Shopify, Amazon
        # Handmade - which first" is worded like writing): held to the plain bar
        if (learned_reading.overrules(first, second, task, guessed=task == guessed)
                and not vetoed(second, task=task, constraints=constraints, names=names, scores=scores, low=low, body=body,
                               material=material, question_form=question_form, word_problem=word_problem,
                               own_calendar=own_calendar is not None, quoted_figures=quoted_figures)):
            task = learned_reading.revise(second[0], task, constraints, scores, body)
            scores[task] = max(scores.values()) + 0.5
            evidence.append((task, f"worded like {second[0]} questions ({second[2]:.2f})", scores[task]))
    if (task != "reasoning" and learned_reading.reading_of(task, constraints) == "tot"
            and not (word_problem and task == "maths")):
        # plans weighed against each other are a decision whatever they are about ("存定期、买国债还是买银行理财",
        # "per head, per tray, or cost-plus pricing?"): the work is reasoning, for the mode and the routing alike;
        # a word problem whose story has someone deciding ("Fern is trying to decide between ...") stays a sum
        task = "reasoning"
        scores[task] = max(scores.values()) + 0.1
        evidence.append((task, "plans to weigh", scores[task]))
    probabilities = _softmax(scores)
    language = script_language(body, has_cjk)
    chosen = tuple(why for t, why, _ in sorted(evidence, key=lambda e: -e[2]) if t == task)[:3]
    return Understanding(
        task=task,
        language=language,
        constraints=frozenset(constraints),
        confidence=round(probabilities[task], 4),
        vector=question_vector(low, probabilities, constraints, len(numbers), has_cjk),
        evidence=chosen,
        scores=tuple((t, round(scores[t], 3)) for t in TASK_TYPES),
    )


def _softmax(scores: dict[str, float]) -> dict[str, float]:
    top = max(scores.values())
    exps = {t: math.exp(s - top) for t, s in scores.items()}
    total = sum(exps.values())
    return {t: v / total for t, v in exps.items()}


__all__ = ["detect_language", "understand"]
