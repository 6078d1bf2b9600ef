"""A semantic reading of a question: the mean of its tokens' static embeddings.

Cue tables and length say little about *which* exam questions a stronger model gets right that a
weaker one misses; what the question is about does (``bench/train_difficulty.py`` measured it on MMLU
subjects held out). The embeddings are wordllama's (``l2_supercat_256``: 256 numbers per token of
the Llama-2 vocabulary, distilled from LLM token embeddings, MIT licence), read straight from the files
its wheel ships. Its own loader is never called: it looks for the bundled tokenizer in the wrong
folder and then tries a download, and nothing here may reach the network at run time.

A text is read at its first 300 and last 100 characters (``router.difficulty`` passes an exam item's
options, which rank held-out subjects' items better than the whole item did; a longer window measured
the same and costs more), split on white space and
tokenized word by word by the packaged tokenizer. Its reading is the mean of its token vectors
(:func:`mean_vector`, what ``bench/train_difficulty.py`` fits on). The score only ever needs one
linear reading of that mean, so :func:`projection` folds the fitted weights into one number per token
when the table loads, and a decision is a dictionary look-up per word (each word's numbers are
remembered, bounded): no vector is touched. Normalising the mean measured the same.

numpy, tokenizers and the 16 MB table load on the first call (a few tenths of a second), never at
import, and only ``router.difficulty`` on an exam item calls it. When wordllama, numpy or tokenizers is
missing, :func:`projection` returns None and the score goes without this term (logged once).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

DIM = 256
EMBEDDING = "wordllama l2_supercat_256"
"""The name the shipped weights carry, checked when they load."""
_HEAD, _TAIL = 300, 100
_WORD_CACHE = 1 << 16
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Table:
    tokenizer: Any
    vectors: Any
    """float32 array, one row of ``DIM`` numbers per token id."""


def _files() -> tuple[str, str] | None:
    """The tokenizer and weight files inside the installed wordllama wheel, found without importing it."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        return None
    base = Path(next(iter(spec.submodule_search_locations)))
    tokenizer, weights = base / "tokenizers" / "l2_supercat_tokenizer_config.json", base / "weights" / "l2_supercat_256.safetensors"
    return (str(tokenizer), str(weights)) if tokenizer.is_file() and weights.is_file() else None


@lru_cache(maxsize=1)
def _table() -> _Table | None:
    files = _files()
    try:
        if files is None:
            raise ImportError("wordllama's packaged tokenizer and weights were not found")
        import numpy as np
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
    except ImportError as exc:
        _log.warning("router.difficulty: the semantic signal is off (%s; pip install 'wordllama>=0.4.0.post1,<0.5'):"
                     " scores use task, length and structure only", exc)
        return None
    vectors = load_file(files[1])["embedding.weight"]
    if vectors.ndim != 2 or vectors.shape[1] != DIM:
        _log.warning("router.difficulty: the semantic signal is off (wordllama's table is %s, not %d wide)",
                     vectors.shape, DIM)
        return None
    return _Table(Tokenizer.from_file(files[0]), np.ascontiguousarray(vectors, dtype=np.float32))


@lru_cache(maxsize=_WORD_CACHE)
def _ids(word: str) -> tuple[int, ...]:
    table = _table()
    return tuple(table.tokenizer.encode(word, add_special_tokens=False).ids) if table is not None else ()


def _words(text: str) -> list[str]:
    if len(text) > _HEAD + _TAIL:
        text = text[:_HEAD] + " " + text[-_TAIL:]
    return text.split()


def available() -> bool:
    """Whether the embeddings are installed (loads them)."""
    return _table() is not None


def mean_vector(text: str) -> Any | None:
    """The mean of the question's token vectors (a numpy array of ``DIM`` floats), or None without the
    embeddings or words: what ``bench/train_difficulty.py`` fits its weights on."""
    table = _table()
    ids = [i for word in _words(text) for i in _ids(word)] if table is not None else []
    return table.vectors.take(ids, axis=0).mean(axis=0) if ids else None


class Projection:
    """``weights @ mean_vector(text)``, folded into one number per token: a decision sums a few numbers
    per word (each word's sum and count remembered, bounded) and touches no vector."""

    def __init__(self, per_token: list[float]) -> None:
        self._per_token = per_token
        self._seen: dict[str, tuple[float, int]] = {}

    def __call__(self, text: str) -> float | None:
        total, count = 0.0, 0
        seen = self._seen
        for word in _words(text):
            known = seen.get(word)
            if known is None:
                ids = _ids(word)
                known = (sum(map(self._per_token.__getitem__, ids)), len(ids))
                if len(seen) >= _WORD_CACHE:
                    seen.clear()
                seen[word] = known
            total += known[0]
            count += known[1]
        return total / count if count else None


def projection(weights: tuple[float, ...]) -> Projection | None:
    """The reading ``weights @ mean_vector(text)`` for these ``DIM`` weights, or None without the embeddings."""
    table = _table()
    if table is None:
        return None
    import numpy as np

    if len(weights) != DIM:
        raise ValueError(f"{len(weights)} semantic weights for {DIM}-wide embeddings")
    return Projection((table.vectors @ np.asarray(weights, dtype=np.float32)).astype(float).tolist())


__all__ = ["DIM", "EMBEDDING", "Projection", "available", "mean_vector", "projection"]
