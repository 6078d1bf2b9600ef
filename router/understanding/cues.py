"""The vocabulary the understanding reads: cue families per kind of work, in English and Chinese.

Each family is a *kind* of evidence (translation verbs, proof verbs, live-data nouns, genre
nouns ...) written as general vocabulary, never as example sentences. A family has English
words and phrases (looked up word by word in one pass over the lowered text: a dict look-up
per word, which is what keeps a question under a millisecond), Chinese terms (substring
tests, only when the text has Chinese in it) and, for the few cues that need structure, a
regular expression over the lowered text. Everything is built on first use (``compiled()``):
``import router`` pays for none of it.

The tables live in modules by concern (``cue_text``, ``cue_work``, ``cue_world``, ``cue_signals``,
``cue_patterns``, ``cue_names``); this module assembles them and builds the look-up structures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from router.lazyre import LazyPattern
from router.understanding.cue_patterns import (
    ACTIVITY,
    CLOCK,
    EXPRESSION,
    LENGTH,
    MATH_FUNCTION,
    NUMBER,
    PERCENT_OF,
    PERSON,
    TIME_EXPRESSION,
    WORD,
    ZH_NUMBER,
)
from router.understanding.cue_signals import HINTS, OPTION_FAMILIES, SIGNALS
from router.understanding.cue_signals import SUBSTRING_HINTS as _SUBSTRING_HINTS
from router.understanding.cue_text import PROSE_AND_TALK, TRANSLATION
from router.understanding.cue_work import TECHNICAL
from router.understanding.cue_world import WORLD

# (task, family name, weight, English words and phrases "|"-separated, Chinese terms "|"-separated,
#  regex over the lowered text or "").
FAMILIES: tuple[tuple[str, str, float, str, str, str], ...] = (*TRANSLATION, *TECHNICAL, *PROSE_AND_TALK, *WORLD)
"""In this order (the order breaks ties between equal weights and orders a reason's evidence)."""

@dataclass(frozen=True)
class Family:
    task: str
    name: str
    weight: float
    hints: tuple[str, ...]
    """Substrings of the text (its pattern window) of which one must be present for the pattern to run."""
    hint_words: frozenset[str]
    """Or one of these words among the text's words."""
    zh_hints: tuple[str, ...]
    """Or one of these Chinese substrings (tested only when the text has Chinese in it)."""
    hinted: bool
    """Whether the family has any hint at all (no hint: the pattern always runs)."""
    pattern: LazyPattern | None


@dataclass(frozen=True)
class Compiled:
    families: tuple[Family, ...]
    """Task families first, then the option families (task ``"options"``), then the signals (task ``"signal"``)."""
    words: dict[str, tuple[int, ...]]
    """One English word (and its plural forms) -> the families it belongs to."""
    word_set: frozenset[str]
    """The keys of ``words``: one C-level set intersection with a text's words finds every hit."""
    phrases: dict[tuple[str, str], tuple[tuple[str, bool, int], ...]]
    """A phrase's first two words -> (" the whole phrase ", longer than two words, family): the text's
    word pairs intersected with these keys find the candidates; only longer phrases then need a
    substring test on the text's joined words."""
    phrase_pairs: frozenset[tuple[str, str]]
    code_family: int
    imperative_family: int
    advice_family: int
    calendar_family: int
    programming_family: int
    topical_families: tuple[int, ...]
    list_family: int
    alternative_family: int
    """Index of "list request" ("what are some ...": knowledge, unless a choice among them is asked)."""
    """The topic-noun families ("world facts", "everyday know-how"): they count only in short questions."""
    """Index of the "personal advice" family (without a first person it is a question about the world)."""
    """Index of the "imperative write" family (it does not count when the thing to write is code)."""
    """Index of the "code marks" family (error names found while reading words count for it)."""
    word: re.Pattern[str]
    zh: dict[str, tuple[tuple[str, tuple[int, ...]], ...]]
    """First character -> (Chinese term, its families), longest first."""
    zh_first: frozenset[str]
    """The first characters of every Chinese term: intersected with a text's characters."""
    patterned: tuple[tuple[int, Family], ...]
    """The families that have a regular expression, with their index."""
    number: LazyPattern
    zh_number: LazyPattern
    expression: LazyPattern
    math_function: LazyPattern
    percent_of: LazyPattern
    time_expression: LazyPattern
    clock: LazyPattern
    person: LazyPattern
    activity: LazyPattern
    length: LazyPattern


_NO_FORMS = frozenset({"ruby", "python", "java", "rust", "swift", "perl", "dart", "lua", "scala", "shell", "node",
                       "solve", "simplify", "integrate", "differentiate", "factorise", "factorize", "derive", "prove",
                    "evaluate", "compute", "calculate", "translate", "extract", "implement", "debug", "compile"})
"""Names ("rubies" are gems) and requests as verbs ("it simplifies", "this proves" describe, they do not ask)
get no -s forms."""


_WORD_HINT = re.compile(r"[a-z][a-z'+#-]*")
_CJK_HINT = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")


def _forms(word: str) -> tuple[str, ...]:
    """A listed word and its plurals ("bug" -> "bugs", "century" -> "centuries"), so that reading a
    text needs no stemming: one set look-up per word."""
    if not word.isalpha() or len(word) < 3 or word in _NO_FORMS:
        return (word,)
    forms = [word, word + "s", word + "'s"]
    if word.endswith(("s", "x", "ch", "sh")):
        forms.append(word + "es")
    if word.endswith("y") and word[-2] not in "aeiou":
        forms.append(word[:-1] + "ies")
    return tuple(forms)


@lru_cache(maxsize=1)
def compiled() -> Compiled:
    """Every table and pattern, built once on first use."""
    specs = [(t, n, w, en, zh, rx) for t, n, w, en, zh, rx in FAMILIES]
    specs += [("options", n, w, en, zh, rx) for n, w, en, zh, rx in OPTION_FAMILIES]
    specs += [("signal", n, 0.0, en, zh, "") for n, en, zh in SIGNALS]
    families: list[Family] = []
    words: dict[str, list[int]] = {}
    phrases: dict[tuple[str, str], list[tuple[str, bool, int]]] = {}
    terms: dict[str, list[int]] = {}
    for index, (task, name, weight, en, zh, rx) in enumerate(specs):
        hints = HINTS.get(name, ())
        as_words = frozenset(() if name in _SUBSTRING_HINTS else (h for h in hints if _WORD_HINT.fullmatch(h)))
        substrings = tuple(h for h in hints if h not in as_words and not _CJK_HINT.search(h))
        zh_hints = tuple(h for h in hints if h not in as_words and _CJK_HINT.search(h))
        families.append(
            Family(task, name, weight, substrings, as_words, zh_hints, bool(hints), LazyPattern(rx) if rx else None)
        )
        for term in (t for t in zh.split("|") if t):
            terms.setdefault(term, []).append(index)
        for entry in (e.strip() for e in en.split("|")):
            if not entry:
                continue
            parts = entry.split()
            if len(parts) == 1:
                for form in _forms(parts[0]):
                    words.setdefault(form, []).append(index)
            else:
                entry_ = (" " + " ".join(parts) + " ", len(parts) > 2, index)
                phrases.setdefault((parts[0], parts[1]), []).append(entry_)
                if len(parts) == 2 and parts[1].isalpha():  # "central bank's", "monthly payments"
                    phrases.setdefault((parts[0], parts[1] + "'s"), []).append(entry_)
                    if len(parts[1]) > 2 and not parts[1].endswith("s"):
                        phrases.setdefault((parts[0], parts[1] + "s"), []).append(entry_)

    def c(pattern: str) -> LazyPattern:
        return LazyPattern(pattern)

    first: dict[str, list[tuple[str, tuple[int, ...]]]] = {}
    for term, indices in terms.items():
        first.setdefault(term[0], []).append((term, tuple(dict.fromkeys(indices))))

    return Compiled(
        families=tuple(families),
        words={k: tuple(dict.fromkeys(v)) for k, v in words.items()},
        word_set=frozenset(words),
        phrases={k: tuple(v) for k, v in phrases.items()},
        phrase_pairs=frozenset(phrases),
        code_family=next(i for i, f in enumerate(families) if f.name == "code marks"),
        imperative_family=next(i for i, f in enumerate(families) if f.name == "imperative write"),
        advice_family=next(i for i, f in enumerate(families) if f.name == "personal advice"),
        calendar_family=next(i for i, f in enumerate(families) if f.name == "calendar request"),
        programming_family=next(i for i, f in enumerate(families) if f.name == "programming vocabulary"),
        list_family=next(i for i, f in enumerate(families) if f.name == "list request"),
        alternative_family=next(i for i, f in enumerate(families) if f.name == "alternative"),
        topical_families=tuple(i for i, f in enumerate(families) if f.name in ("world facts", "everyday know-how")),
        word=re.compile(WORD),
        zh={k: tuple(sorted(v, key=lambda e: -len(e[0]))) for k, v in first.items()},
        zh_first=frozenset(first),
        patterned=tuple((i, f) for i, f in enumerate(families) if f.pattern is not None),
        number=c(NUMBER),
        zh_number=c(ZH_NUMBER),
        expression=c(EXPRESSION),
        math_function=c(MATH_FUNCTION),
        percent_of=c(PERCENT_OF),
        time_expression=c(TIME_EXPRESSION),
        clock=c(CLOCK),
        person=c(PERSON),
        activity=c(ACTIVITY),
        length=c(LENGTH),
    )


__all__ = ["FAMILIES", "OPTION_FAMILIES", "SIGNALS", "Compiled", "Family", "compiled"]
