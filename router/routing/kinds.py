"""Which local *kind* of work a question is: the nearest of a few dozen shipped word centroids.

The learner (``routing.learning``) learns per task type, and per this finer key. A task type
alone is too coarse for it (an MMLU category spreads over several task types, and one task type
over many categories), and the understanding's 64-number vector separates subjects weakly. The
centroids are unit means of binary tf-idf words (plus a few format marks: multiple choice, digits,
size, the task type) of the groups of the shared routing tables' prompts (four broad MMLU domains,
grade-school word problems, open chat prompts, each RouterArena benchmark family), fitted by
``bench/train_kinds.py`` and shipped as ``kinds_model.json``. Only the words a centroid weighs
most are kept, as word -> [(centroid, idf x weight)], so finding the nearest centroid is one
dictionary look-up per distinct word of the question (tens of microseconds in pure Python).
Words, not ids of questions, so a question nobody asked before lands with the questions it
resembles.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from router.errors import ConfigError

_MODEL_FILE = "kinds_model.json"
_WORD = re.compile(r"[a-z][a-z']{2,}|[\u3400-\u9fff]{2}")
_DIGIT = re.compile(r"\d")
_READ_CHARS = 600
"""The start and end of a long text: where its subject and request are."""
_STOP = frozenset(
    "the and for that this with from are was were what which who whom whose why how when where will would "
    "can could should shall may might must has have had not but its it's they them their there then than "
    "you your our his her she him also into onto out about any all each some such only very more most "
    "other been being does did doing done one two".split()
)
NO_TOPIC = -1
"""A question without a known word (or a missing model): the learner uses its task type alone."""


def tokens(text: str, task: str = "", choice: bool = False) -> frozenset[str]:
    """The distinct words and format marks the centroids are fitted on (training and lookup share this)."""
    low = text.lower()
    if len(low) > _READ_CHARS:
        low = low[: _READ_CHARS // 2] + " " + low[-_READ_CHARS // 2 :]
    words = set(_WORD.findall(low))
    words -= _STOP
    size = len(text)
    words.add("~short" if size < 120 else "~medium" if size < 600 else "~long")
    if choice:
        words.add("~choice")
    if _DIGIT.search(low):
        words.add("~digits")
    if task:
        words.add("~task:" + task)
    return frozenset(words)


@lru_cache(maxsize=1)
def _model(override: str | None = None) -> tuple[int, dict[str, tuple[tuple[int, float], ...]]]:
    import json  # here: import router stays cheap
    from importlib import resources

    path: Any = resources.files("router.routing") / _MODEL_FILE
    if override is not None:
        from pathlib import Path

        path = Path(override)
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
        count = int(data["k"])
        table = {str(w): tuple((int(c), float(v)) for c, v in pairs) for w, pairs in data["words"].items()}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"unreadable kinds model: {exc.__class__.__name__}: {exc}", path=str(path)) from exc
    return count, table


MODEL_OVERRIDE: str | None = None
"""A kinds model to read instead of the shipped one (``bench/learning.py --kinds-model``: a model fitted
without some of the tables, for a held-out figure). Set it before the first question."""


def centroid_count() -> int:
    return _model(MODEL_OVERRIDE)[0]


@lru_cache(maxsize=4096)
def topic(text: str, task: str = "", choice: bool = False) -> int:
    """The nearest centroid to ``text`` (cosine on binary tf-idf, over the words each centroid keeps),
    or ``NO_TOPIC`` for a text with none of them."""
    count, table = _model(MODEL_OVERRIDE)
    scores = [0.0] * count
    found = False
    for word in tokens(text, task, choice):
        entries = table.get(word)
        if entries:
            found = True
            for centroid, weight in entries:
                scores[centroid] += weight
    if not found:
        return NO_TOPIC
    return max(range(count), key=scores.__getitem__)


__all__ = ["NO_TOPIC", "centroid_count", "tokens", "topic"]
