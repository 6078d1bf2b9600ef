"""The task type of a question no cue speaks for: a small naive Bayes over words and word pairs.

Cue tables read a question through vocabulary someone listed; a question in words nobody listed
("is the 101 freeway closed near santa barbara") gets no cue at all, and the old rule then called it
knowledge or chat. This model was trained (``bench/train_task_fallback.py``) on the labelled
questions in ``tests/data`` (natural phrasing in English and Chinese, one label per kind of work) and
shipped as ``task_fallback.json``: word counts per task type, English words and word pairs, Chinese
characters and character pairs. It is read only when the cues are weak, so it cannot overrule a
reading the cues are sure of; it loads on its first use (``import router`` pays nothing).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from router.understanding.language import WORD_OR_HAN

_MODEL_FILE = "task_fallback.json"
ENABLED = True
"""``bench/train_task_fallback.py --check`` turns the model off to score the cues alone."""
WEAK = 1.5
"""The model speaks only when no cue family scored more than this (one weak family, or none)."""
MIN_PROBABILITY = 0.5
_READ_CHARS = 300
"""The request sits at the start of a question; the model reads as much as its training rows had."""


def features(text: str) -> set[str]:
    """Lower-cased English words and word pairs, Chinese characters and character pairs."""
    tokens = WORD_OR_HAN.findall(text.lower()[:_READ_CHARS])
    out: set[str] = set()
    previous = "^"
    for token in tokens:
        out.add(token)
        if token >= "\u3400":
            if previous >= "\u3400":
                out.add(previous + token)
        else:
            out.add(previous + "_" + token)
        previous = token
    return out


@lru_cache(maxsize=1)
def _model() -> tuple[tuple[str, ...], tuple[float, ...], tuple[float, ...], dict[str, list[list[int]]]]:
    """(tasks, per-task constant, per-task cost of one known feature, feature -> [[task index, count], ...]).

    score(task) = log prior + sum over the text's known features of log((count + alpha) / (total + alpha * V)),
    split into a per-feature cost paid by every task and a gain for the tasks that saw the feature. Gains
    are computed when read: building them all would cost more than the file's parse.
    """
    import json  # here: import router stays cheap
    from importlib import resources

    data: Any = json.loads((resources.files("router.understanding") / _MODEL_FILE).read_text(encoding="utf-8"))
    tasks = tuple(data["tasks"])
    alpha = float(data["alpha"])
    vocabulary = len(data["counts"])
    documents = [float(d) for d in data["documents"]]
    n = sum(documents)
    prior = tuple(math.log(d / n) for d in documents)
    cost = tuple(math.log(alpha) - math.log(float(t) + alpha * vocabulary) for t in data["totals"])
    largest = max((count for entries in data["counts"].values() for _, count in entries), default=0)
    _GAIN[:] = [math.log1p(count / alpha) for count in range(largest + 1)]
    return tasks, prior, cost, data["counts"]


_GAIN: list[float] = []
"""log((count + alpha) / alpha) for every count in the table, filled when it loads."""


def predict(text: str, among: tuple[str, ...] | None = None) -> tuple[str, float] | None:
    """The likeliest task type (of ``among``, when given) and its probability, or None when the text has no
    known feature."""
    if not ENABLED:
        return None
    tasks, prior, cost, counts = _model()
    known = [counts[f] for f in features(text) if f in counts]
    if not known:
        return None
    scores = [p + len(known) * c for p, c in zip(prior, cost, strict=True)]
    gain = _GAIN
    for entries in known:
        for index, count in entries:
            scores[index] += gain[count]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    allowed = range(len(tasks)) if among is None else [i for i, t in enumerate(tasks) if t in among]
    best = max(allowed, key=scores.__getitem__)
    return tasks[best], exps[best] / sum(exps)



_TECHNICAL = frozenset({"go", "web", "webpage", "website", "site", "page", "pages", "app", "apps", "browser", "server",
                        "file", "files", "folder", "button", "error", "install", "program", "script", "data", "thread",
                        "process", "function", "variable", "string", "array", "query", "table", "column", "login",
                        "password", "email", "laptop", "computer", "phone", "windows", "mac", "ios", "android", "wifi",
                        "network", "router", "printer", "keyboard", "screen", "software", "update", "version", "race"})
"""Words of a technical object: code needs one, so a how-to about a carpet or a wedding is no coding
question however much its wording looks like one ("how do I ..." opens most coding questions)."""


def fits(task: str, low: str, present: set[str], signals: dict[str, str], material: bool, live: bool,
         has_cjk: bool) -> bool:
    """Whether the model's task has what that kind of work needs: an extraction a text to work on, a
    schedule entry a time, a look-up a question that is no "why" (a why asks for a reason), code a
    technical object, a schedule entry no question (Chinese is left to the model: its words are characters, not in ``_TECHNICAL``)."""
    if task == "extraction":
        return material
    if task == "schedule":  # an entry states a time; a question about one asks ("要不要去医院")
        return ("time word" in signals or any(ch.isdigit() for ch in low)) and "question word" not in signals
    if task == "live_data":
        return "why" not in present and "为什么" not in low and "为啥" not in low and live
    if task == "coding":
        return not present.isdisjoint(_TECHNICAL) or has_cjk
    return True


__all__ = ["features", "fits", "predict"]
