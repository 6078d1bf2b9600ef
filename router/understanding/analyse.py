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

Deterministic and pure Python; the patterns compile on first use.
"""

from __future__ import annotations

import math
import re
import zlib
from functools import lru_cache

from router.understanding.cues import Compiled, Lazy, compiled
from router.understanding.types import TASK_TYPES, VECTOR_DIMENSION, Understanding

_MAX_CHARS = 800
"""Longer texts are read at their start and end (where the request is): bounded time."""
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")
_SKETCH_TOKEN = re.compile(r"[a-z]+|[\u3400-\u9fff]")
_YEAR = re.compile(r"^(?:1[0-9]{3}|20[0-9]{2})$")
_DIGIT = re.compile(r"\d")
_ZH_NUMERAL = re.compile(r"[一二两三四五六七八九十百千万半]")
_CODE_HINTS = ("`", "def ", "print(", "console.", "=>", "()", "import ", "#include", "select ", "<", "{", ";", "(", "--")
_FUNCTION_HINTS = ("sqrt", "log", "ln", "sin", "cos", "tan", "exp", "factorial", "power", "to the", "squared", "cubed",
                   "!", "次方", "次幂", "根号", "平方根", "阶乘")
_LENGTH_HINTS = ("word", "sentence", "paragraph", "line", "bullet", "字", "no more than")
_NEEDS_DIGITS = frozenset({"currency conversion"})
_NEEDS_SYMBOLS = frozenset({"formula marks"})
_PATTERN_CHARS = 400
"""Patterns read at most this much of a text: its start and its end."""
_SCHEDULE_CHARS = 200
"""A schedule entry is a short statement."""
_NAMED_NUMBER = re.compile(r"(?<=[\w,] )[A-Z][A-Za-z]+ \d+")
_TEXT_TASKS = frozenset({"translation", "writing", "roleplay"})
_SKETCH = VECTOR_DIMENSION - len(TASK_TYPES) - 9
_FLAGS = ("exact_figure", "format", "length", "proof", "options", "code")


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
    for index, matched in _family_hits(c, low, window, digits).items():
        family = c.families[index]
        if family.task == "signal":
            signals[family.name] = matched
        elif family.task == "options":
            options += family.weight
        else:
            scores[family.task] += family.weight
            names.add(family.name)
            evidence.append((family.task, f"{family.name} '{matched.strip()[:40]}'", family.weight))

    constraints: set[str] = set()
    question_form = "?" in low or "？" in low or "question word" in signals
    proof = "proof verb" in names
    text_work = any(scores[t] >= 3.5 for t in _TEXT_TASKS)
    if proof:
        constraints.add("proof")
    if "code marks" in names or scores["coding"] >= 3.0:
        constraints.add("code")

    # Quantities: years and numbers inside names ("Apollo 11") are not operands.
    numbers: list[str] = []
    if digits or _ZH_NUMERAL.search(low):
        named = {m.group(0).rsplit(" ", 1)[1] for m in _NAMED_NUMBER.finditer(body)} if digits else set()
        numbers = [n for n in c.number.findall(low) if not _YEAR.match(n) and n not in named]

    # An exact figure: a ready-made expression, a percentage of an amount, a unit conversion,
    # a finance formula with its inputs. Never inside a proof, a text to rework, or code.
    if (numbers or digits) and not proof and not text_work and "code" not in constraints:
        exact = None
        expression = c.expression.search(window) if digits else None
        if expression is None and digits and any(k in window for k in _FUNCTION_HINTS):
            expression = c.math_function.search(window)
        if expression and ("calculate" in signals or len(body) <= 60 or "=?" in low.replace(" ", "")) and not re.search(
            re.escape(expression.group(0)) + r"[^=]{0,12}=\s*\d", low
        ):
            exact = f"expression '{expression.group(0).strip()}'"
        elif any(k in window for k in ("%", "折", "百分之")) and (percent := c.percent_of.search(window)) is not None:
            exact = f"percentage '{percent.group(0).strip()}'"
        elif "conversion" in signals:
            exact = f"conversion '{signals['conversion']}'"
        elif "exact finance" in names and len(numbers) >= 2:
            exact = f"finance formula with {len(numbers)} inputs"
        if exact:
            constraints.add("exact_figure")
            scores["maths"] += 3.6
            evidence.append(("maths", f"exact figure: {exact}", 3.6))
        elif len(numbers) >= 2 and "quantity question" in signals:
            # A word problem asks for a quantity; "how much should I save" asks for advice.
            weight = 1.0 if "advice modal" in signals else 2.6
            if "narrative" in signals:
                weight += 0.6
            scores["maths"] += weight
            evidence.append(("maths", f"word problem: {len(numbers)} numbers + '{signals['quantity question']}'", weight))
        elif len(numbers) >= 2 and question_form:
            scores["maths"] += 1.2
            evidence.append(("maths", f"{len(numbers)} numbers in a question", 1.2))

    # Live data: a live noun, helped by "today/now".
    if scores["live_data"] >= 0.8 and "deictic" in signals:
        scores["live_data"] += 1.4
    if text_work:
        scores["live_data"] = min(scores["live_data"], 1.0)
        scores["schedule"] = 0.0

    # A schedule entry: a short dated statement (not a question, not past) with a person, an activity
    # or a clock time.
    blocked = text_work or "greeting/thanks" in names or "feelings" in names or scores["live_data"] >= 2.2
    if len(body) <= _SCHEDULE_CHARS and not question_form and not blocked and "past time" not in signals:
        when = signals.get("time word") or (_match(c.time_expression, low) if digits or _CJK.search(low) else None)
        if when:
            person = _match(c.person, body)
            activity = signals.get("activity") or _match(c.activity, low)
            clock = _match(c.clock, low)
            if person or activity or clock:
                weight = 1.6 + (1.4 if person or activity else 0.0) + (1.0 if person and activity else 0.0)
                weight += 0.6 if clock else 0.0
                scores["schedule"] += weight
                evidence.append(("schedule", f"dated statement '{when.strip()}'", weight))

    # Options to weigh: their pressure also says "this is a decision", which is reasoning.
    if options:
        scores["reasoning"] += 0.5 * options
    thinking = 0.5 + scores["maths"] + scores["reasoning"] - 0.5 * options
    if options >= 2.4 and options > thinking and not text_work:
        constraints.add("options")
    if "format" in signals:
        constraints.add("format")
    if "length" in signals or (digits and any(k in window for k in _LENGTH_HINTS) and c.length.search(window)):
        constraints.add("length")

    # No cue at all: a short line is conversation, a longer question asks for knowledge.
    if max(scores.values()) <= 0.9:
        fallback = "chat" if len(body) < 40 and not question_form else "knowledge"
        scores[fallback] += 1.0
    task = max(TASK_TYPES, key=lambda t: (scores[t], -TASK_TYPES.index(t)))
    probabilities = _softmax(scores)
    language = detect_language(body)
    chosen = tuple(why for t, why, _ in sorted(evidence, key=lambda e: -e[2]) if t == task)[:3]
    return Understanding(
        task=task,
        language=language,
        constraints=frozenset(constraints),
        confidence=round(probabilities[task], 4),
        vector=_vector(low, probabilities, constraints, len(numbers)),
        evidence=chosen,
        scores=tuple((t, round(scores[t], 3)) for t in TASK_TYPES),
    )


def _match(pattern: Lazy, text: str) -> str | None:
    found = pattern.search(text)
    return found.group(0) if found else None


def _family_hits(c: Compiled, low: str, window: str, digits: bool) -> dict[int, str]:
    """Family index -> the text that matched it: words and phrases in one pass, then Chinese terms and patterns."""
    hits: dict[int, str] = {}
    tokens = c.word.findall(low)
    words, phrases = c.words, c.phrases
    code = False
    for i, token in enumerate(tokens):
        found = words.get(token)
        if found is None and len(token) > 3 and token[-1] == "s":
            found = words.get(token[:-1])
        if found:
            for index in found:
                hits.setdefault(index, token)
        starts = phrases.get(token)
        if starts:
            for rest, index in starts:
                if index not in hits and tuple(tokens[i + 1 : i + 1 + len(rest)]) == rest:
                    hits[index] = token + " " + " ".join(rest)
        if not code and len(token) > 6 and token.endswith(("error", "exception")):
            code = True
    if code:
        hits.setdefault(c.code_family, "error name")
    if _CJK.search(low) is not None:
        first = c.zh
        for position, char in enumerate(low):
            entries = first.get(char)
            if entries:
                for term, indices in entries:
                    if low.startswith(term, position):
                        for index in indices:
                            hits.setdefault(index, term)
    marks = any(mark in low for mark in _CODE_HINTS)
    symbols = any(ch in window for ch in "^(=∫∑∏√∞≤≥≠²³π")
    enumeration = "、" in window or " or " in window
    for index, family in enumerate(c.families):
        if index in hits:
            continue
        pattern = family.pattern
        if pattern is None:
            continue
        if index == c.code_family and not marks:
            continue
        if family.name in _NEEDS_DIGITS and not digits:
            continue
        if family.hints and not any(hint in window for hint in family.hints):
            continue
        if family.name in _NEEDS_SYMBOLS and not symbols:
            continue
        if family.name == "enumerated alternatives" and not enumeration:
            continue
        found_rx = pattern.search(window)
        if found_rx:
            hits[index] = found_rx.group(0)
    return hits


def _softmax(scores: dict[str, float]) -> dict[str, float]:
    top = max(scores.values())
    exps = {t: math.exp(s - top) for t, s in scores.items()}
    total = sum(exps.values())
    return {t: v / total for t, v in exps.items()}


def detect_language(text: str) -> str:
    """ISO 639-1 code of the script that dominates: zh, ja, ko, ru, else en for Latin text."""
    if _KANA.search(text):
        return "ja"
    if _HANGUL.search(text):
        return "ko"
    cjk = len(_CJK.findall(text))
    words = len(_LATIN_WORD.findall(text))
    if cjk and cjk >= words:
        return "zh"
    if not words and _CYRILLIC.search(text):
        return "ru"
    return "en"


def _vector(low: str, probabilities: dict[str, float], constraints: set[str], numbers: int) -> tuple[float, ...]:
    """Task probabilities, constraint flags, size, then a signed hashed sketch of words and characters."""
    head = [probabilities[t] for t in TASK_TYPES]
    head += [1.0 if flag in constraints else 0.0 for flag in _FLAGS]
    head += [1.0 if _CJK.search(low) else 0.0, min(1.0, math.log1p(len(low)) / 8.0), min(1.0, numbers / 10.0)]
    sketch = [0.0] * _SKETCH
    tokens = _SKETCH_TOKEN.findall(low[:400])
    for i, token in enumerate(tokens):
        # Latin words alone; CJK characters in pairs (Chinese words are mostly two characters).
        gram = token + tokens[i + 1] if token >= "\u3400" and i + 1 < len(tokens) else token
        h = zlib.crc32(gram.encode("utf-8"))
        sketch[h % _SKETCH] += 1.0 if h & 0x80000000 else -1.0
    norm = math.sqrt(sum(v * v for v in sketch)) or 1.0
    return tuple(head + [v / norm for v in sketch])


__all__ = ["detect_language", "understand"]
