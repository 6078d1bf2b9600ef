"""Which language a question is in, by the script that dominates it.

Only a text with both Chinese and Latin script needs counting; every other text is told by the first
script it shows. The large ranges compile on first use (``router.lazyre``).
"""

from __future__ import annotations

import re

from router.lazyre import LazyPattern

CJK = LazyPattern(r"[\u3400-\u9fff\uf900-\ufaff]", ascii="")  # large ranges: router.lazyre
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = LazyPattern(r"[\uac00-\ud7af]", ascii="")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")

WORD_OR_HAN = LazyPattern(r"[a-z]+|[\u3400-\u9fff]", ascii=r"[a-z]+")
"""A lower-cased text's Latin words and single Han characters: the units the hashed vector and the word
fallback both read (Chinese has no spaces, so a character, or a pair of them, stands for a word)."""

def detect_language(text: str) -> str:
    """ISO 639-1 code of the script that dominates: zh, ja, ko, ru, else en for Latin text."""
    return script_language(text, CJK.search(text) is not None)


def script_language(text: str, has_cjk: bool) -> str:
    """``detect_language`` told whether there is Chinese script: only a text with both scripts needs counting."""
    if not has_cjk:
        if _KANA.search(text) or _HANGUL.search(text):
            return "ja" if _KANA.search(text) else "ko"
        if _CYRILLIC.search(text) and not _LATIN_WORD.search(text):
            return "ru"
        return "en"
    if _KANA.search(text):
        return "ja"
    if _HANGUL.search(text):
        return "ko"
    cjk = len(CJK.findall(text))
    words = len(_LATIN_WORD.findall(text))
    if cjk and cjk >= words:
        return "zh"
    if not words and _CYRILLIC.search(text):
        return "ru"
    return "en"


__all__ = ["CJK", "WORD_OR_HAN", "detect_language", "script_language"]
