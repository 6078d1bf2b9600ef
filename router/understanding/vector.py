"""The small vector an understanding carries: task probabilities, constraint flags, size, and a hashed sketch.

The sketch is signed feature hashing of words (and of Chinese character pairs) with crc32, which is the
same in every process, unlike ``hash``: a vector stored by one process means the same in another.
"""

from __future__ import annotations

import math
import zlib

from router.understanding.language import WORD_OR_HAN
from router.understanding.types import TASK_TYPES, VECTOR_DIMENSION

_SKETCH = VECTOR_DIMENSION - len(TASK_TYPES) - 9
_SLOTS: dict[str, int] = {}
"""Word -> its sketch slot and sign (crc32 is the same in every process, unlike ``hash``); bounded."""
_SLOTS_MAX = 50_000
_FLAGS = ("exact_figure", "format", "length", "proof", "options", "code")


def question_vector(
    low: str, probabilities: dict[str, float], constraints: set[str], numbers: int, has_cjk: bool
) -> tuple[float, ...]:
    """Task probabilities, constraint flags, size, then a signed hashed sketch of words and characters."""
    head = [probabilities[t] for t in TASK_TYPES]
    head += [1.0 if flag in constraints else 0.0 for flag in _FLAGS]
    head += [1.0 if has_cjk else 0.0, min(1.0, math.log1p(len(low)) / 8.0), min(1.0, numbers / 10.0)]
    sketch = [0.0] * _SKETCH
    tokens = WORD_OR_HAN.findall(low[:400])
    if has_cjk:
        # Latin words alone; CJK characters in pairs (Chinese words are mostly two characters).
        last = len(tokens) - 1
        grams = [t + tokens[i + 1] if t >= "\u3400" and i < last else t for i, t in enumerate(tokens)]
    else:
        grams = tokens
    slots = _SLOTS
    for gram in grams:
        slot = slots.get(gram)
        if slot is None:
            h = zlib.crc32(gram.encode("utf-8"))
            slot = (h % _SKETCH) * 2 + (1 if h & 0x80000000 else 0)
            if len(slots) < _SLOTS_MAX:
                slots[gram] = slot
        sketch[slot >> 1] += 1.0 if slot & 1 else -1.0
    norm = math.hypot(*sketch) or 1.0
    return tuple(head + [v / norm for v in sketch])


__all__ = ["question_vector"]
