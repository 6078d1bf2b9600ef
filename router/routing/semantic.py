"""A semantic reading of a question: the mean of its tokens' static embeddings.

Cue tables and length say little about *which* exam questions a stronger model gets right that a
weaker one misses; what the question is about does (``bench/train_difficulty.py`` measured it on MMLU
subjects held out). The embeddings are wordllama's (``l2_supercat_256``: 256 numbers per token of
the Llama-2 vocabulary, distilled from LLM token embeddings, MIT licence), read straight from the files
its wheel ships. Its own loader is never called: it looks for the bundled tokenizer in the wrong
folder and then tries a download, and nothing here may reach the network at run time.

A question is read at its first 600 and last 300 characters (where its subject and its request are),
split on white space; each word's token ids come from the packaged tokenizer once and are then
remembered (bounded), so a decision costs dictionary look-ups, one gather and a dot product. The
vector is the L2-normalised mean of the token vectors: training (``bench/train_difficulty.py``) and
``router.difficulty`` both call :func:`embed`, so they read a question the same way.

numpy, tokenizers and the 16 MB table load on the first call (a few tenths of a second), never at
import, and only ``router.difficulty`` on an exam item calls it. When wordllama, numpy or tokenizers is
missing, :func:`embed` returns None and the score goes without this term (logged once).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

DIM = 256
EMBEDDING = "wordllama l2_supercat_256"
"""The name the shipped weights carry, checked when they load."""
_HEAD, _TAIL = 600, 300
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


def available() -> bool:
    """Whether the embeddings are installed (loads them)."""
    return _table() is not None


def embed(text: str) -> Any | None:
    """The question's unit vector (a numpy array of ``DIM`` floats), or None without the embeddings or words."""
    table = _table()
    if table is None:
        return None
    if len(text) > _HEAD + _TAIL:
        text = text[:_HEAD] + " " + text[-_TAIL:]
    ids: list[int] = []
    for word in text.split():
        ids.extend(_ids(word))
    if not ids:
        return None
    total = table.vectors.take(ids, axis=0).sum(axis=0)  # the mean's direction: it is normalised next
    norm = float(total @ total) ** 0.5
    return total / norm if norm > 0.0 else None


__all__ = ["DIM", "EMBEDDING", "available", "embed"]
