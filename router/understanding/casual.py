"""Casual typing put back into the words the cue tables list.

"whos", "whats", "cant", "im": people typing fast leave the apostrophe out, and the cue tables list
"who's", "can't", "i'm". Only a text with no apostrophe at all and one of these bare forms is rewritten,
so a carefully typed question costs one set test. In Chinese, the spoken 咋 ("咋办", "咋回事", "我该咋安排")
is 怎么 in every use, and the tables list 怎么.
"""

from __future__ import annotations

import re

from router.lazyre import LazyPattern

_S_STEMS = ("who", "what", "how", "where", "there", "that")
_NT_STEMS = ("do", "ca", "wo", "is", "are", "does", "did", "was", "were", "could", "should", "would", "have", "has")
_WHOLE = ("im", "ive", "youre", "theyre", "wat", "wats")
_BARE_CONTRACTION = LazyPattern(
    rf"\b(?:(?:{'|'.join(_S_STEMS)})s|(?:{'|'.join(_NT_STEMS)})nt|{'|'.join(_WHOLE)})\b"
)
_BARE_SET = frozenset({*(w + "s" for w in _S_STEMS), *(w + "nt" for w in _NT_STEMS), *_WHOLE})
"""The pattern and the cheap set test read the same three word lists, so they cannot disagree."""
_BARE_WORDS = {"wat": "what", "wats": "what's", "im": "i'm", "ive": "i've", "youre": "you're", "theyre": "they're", "cant": "can't", "wont": "won't"}


def restore_apostrophes(low: str, present: set[str]) -> str | None:
    """``low`` with the apostrophes casual typing left out put back; None when there is nothing to put back."""
    if "'" in low or _BARE_SET.isdisjoint(present):
        return None
    return _BARE_CONTRACTION.sub(_apostrophe, low)


def _apostrophe(found: re.Match[str]) -> str:
    """The word with its apostrophe put back."""
    word = found.group(0)
    if word in _BARE_WORDS:
        return _BARE_WORDS[word]
    return word[:-1] + "'s" if word.endswith("s") else word[:-2] + "n't"


def spoken_zh(text: str) -> str:
    """``text`` with the spoken 咋 written as the 怎么 the cue tables list ("这是咋回事" asks what "这是怎么回事" asks)."""
    return text.replace("咋", "怎么") if "咋" in text else text
