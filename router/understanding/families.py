"""Which cue families a question's text matches: the inner loop of reading a question.

Words, phrases and Chinese terms are found by set intersection and substring tests (C-level work); the
few families that need a pattern run only when the text has what the pattern cannot match without
(a hint word, a digit, a maths symbol), so most texts run none of them.
"""

from __future__ import annotations

import re
from itertools import pairwise

from router.lazyre import LazyPattern
from router.understanding.cues import Compiled

_ERROR_NAME = re.compile(r"[a-z]{2,}(?:error|exception)\b")
_CODE_HINTS = ("`", "def ", "print(", "console.", "=>", "()", "import ", "#include", "select ", "<", "{", "--")
"""Substrings without which the code-marks pattern cannot match (a method call "x.y(" and a closing ";"
are tested apart: "(" and ";" alone are in most prose)."""
_METHOD_CALL = re.compile(r"\.[a-z_]+\(")
_YEARISH = re.compile(r"[12]\d{3}")
_LETTER_B = (" b ", "，b", ",b", " b)", "b）", "b、", "b：", "b:", "b.")
"""Marks of a second lettered alternative, without one of which the lettered branch cannot match."""
_NEEDS_DIGITS = frozenset({"currency conversion"})
_NEEDS_SYMBOLS = frozenset({"formula marks"})
_TITLE = LazyPattern(r"《[^》]{1,20}》", ascii="")
"""A title's words are the work's name ("《百年孤独》" is a novel, not a feeling)."""
FUNCTION_WORDS = frozenset({"sqrt", "log", "log2", "log10", "ln", "sin", "cos", "tan", "exp", "factorial", "power",
                            "squared", "cubed", "root"})
"""Words that name a function of a number: the function pattern runs only when one is a word of the text
(substring tests would pass on "using", "explain", "important" and run it on nearly every text)."""


_OR_BOUND = re.compile(r" or (?:more|less|fewer|so|higher|lower|above|below|older|younger|later|earlier|longer|shorter"
                       r"|greater|over|under|bigger|smaller|not)\b")


def bounds_only(window: str) -> bool:
    """Every "or" of the text bounds a quantity ("cities with 5 or more listings", "30 or so"): no alternatives."""
    return " or " in window and window.count(" or ") == len(_OR_BOUND.findall(window))


def family_hits(
    c: Compiled, low: str, window: str, digits: bool, tokens: list[str], present: set[str], has_cjk: bool
) -> dict[int, str]:
    """Family index -> the text that matched it: words, phrases and Chinese terms by set intersection
    and substring tests (C-level work, no Python loop over the text), then the few patterns.

    The intersections are walked in sorted order: a set's order changes with each process's string hash
    seed, and with it which term a family cites and the order scores are summed in."""
    hits: dict[int, str] = {}
    words = c.words
    for token in sorted(present & c.word_set):
        for index in words[token]:
            hits.setdefault(index, token)
    candidates = c.phrase_pairs.intersection(pairwise(tokens))
    if candidates:
        joined = ""
        phrases = c.phrases
        for pair in sorted(candidates):
            for phrase, longer, index in phrases[pair]:
                if index in hits:
                    continue
                if longer:
                    joined = joined or " " + " ".join(tokens) + " "
                    if phrase not in joined:
                        continue
                hits[index] = phrase.strip()
    if ("error" in low or "exception" in low) and _ERROR_NAME.search(low):
        hits.setdefault(c.code_family, "error name")
    if has_cjk:
        zh = c.zh
        terms_in = _TITLE.sub("《》", low) if "《" in low else low
        if "物理降温" in terms_in:
            terms_in = terms_in.replace("物理降温", "物理散热")  # a fever's first aid, no weather
        for char in sorted(c.zh_first.intersection(terms_in)):
            for term, indices in zh[char]:
                if term in terms_in:
                    for index in indices:
                        hits.setdefault(index, term)
    marks = (any(mark in low for mark in _CODE_HINTS) or low.rstrip().endswith(";")
             or ("(" in window and _METHOD_CALL.search(window) is not None))
    # The formula pattern needs a maths symbol, or a bracket after a function name or "f".
    symbols = any(ch in window for ch in "^=∫∑∏√∞≤≥≠²³π") or (
        "(" in window and (not FUNCTION_WORDS.isdisjoint(present) or "f" in present or "lim" in present))
    # "<", ">" and "|" are maths only outside code ("|x - 3| < 5", not "if n < 10" in a programming task)
    comparison = any(ch in window for ch in "<>|") and c.programming_family not in hits
    bounded = bounds_only(window)
    enumeration = ("、" in window or (" or " in window and ", " in window and not bounded)
                   or any(m in window for m in _LETTER_B))  # "A 租隔壁，B 换新店面": alternatives lettered
    years = digits and _YEARISH.search(window) is not None
    for index, family in c.patterned:
        if index in hits:
            continue
        if index == c.code_family and not marks:
            continue
        if family.name in _NEEDS_DIGITS and not digits:
            continue
        if family.name == "historical date" and not years:
            continue
        if (
            family.hinted
            and family.hint_words.isdisjoint(present)
            and not any(hint in window for hint in family.hints)
            and not (has_cjk and any(hint in window for hint in family.zh_hints))
        ):
            continue
        if family.name in _NEEDS_SYMBOLS and not symbols:
            continue
        if family.name == "inequality" and not (comparison and c.code_family not in hits):
            continue
        if family.name == "enumerated alternatives" and not enumeration:
            continue
        found_rx = family.pattern.search(window)  # type: ignore[union-attr]
        if found_rx:
            hits[index] = found_rx.group(0)
    if bounded and hits.get(c.alternative_family) == "or":
        del hits[c.alternative_family]  # "only cities with 5 or more listings": a bound, no alternative
    return hits


__all__ = ["FUNCTION_WORDS", "bounds_only", "family_hits"]
