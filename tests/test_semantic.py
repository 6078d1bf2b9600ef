"""The exam items' semantic signal (``router.routing.semantic``): local, read from the installed wordllama
wheel, loaded only when an exam item is scored, and absent without breaking the score.

Each check runs in a fresh interpreter, so what is loaded (and what is not) is the process's own doing."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAM_ITEM = (
    "Which of the following best describes the function of the mitochondria in a eukaryotic cell?\n"
    "A. Protein synthesis\nB. ATP production through cellular respiration\nC. Lipid storage\nD. DNA replication\n"
    "Answer:"
)
needs_wordllama = pytest.mark.skipif(importlib.util.find_spec("wordllama") is None,
                                     reason="wordllama is a default dependency; this environment lacks it")


def _run(code: str, home: Path, extra_path: str = "") -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(p for p in (extra_path, str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    env.pop("HF_HUB_OFFLINE", None)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False,
                          timeout=120)


@needs_wordllama
def test_an_exam_item_is_read_from_the_installed_wheel_without_a_download(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from router.routing import semantic\n"
        f"v = semantic.mean_vector({EXAM_ITEM!r})\n"
        "assert v is not None and v.shape == (semantic.DIM,) and float(v @ v) > 0.0, v\n"
        f"assert (semantic.mean_vector({EXAM_ITEM!r}) == v).all()\n"
        "weights = tuple(float(x) for x in v[::-1])\n"
        f"folded = semantic.projection(weights)({EXAM_ITEM!r})\n"
        "assert abs(folded - float(v @ v[::-1])) < 1e-4 * abs(folded), (folded, float(v @ v[::-1]))\n"
        "loaded = [m for m in ('wordllama', 'huggingface_hub', 'requests') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
        "print(' '.join(f'{x:.6f}' for x in v[:4]))\n"
    )
    first, second = _run(code, tmp_path), _run(code, tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout  # the same vector in every process: no hash seed in it
    assert not any(tmp_path.iterdir()), list(tmp_path.rglob("*"))  # nothing cached or downloaded


@needs_wordllama
def test_the_embedding_moves_an_exam_items_score_and_only_an_exam_items(tmp_path: Path) -> None:
    code = (
        "import sys, router\n"
        "from router.routing import difficulty as d\n"
        "open_score = router.difficulty('Write a short poem about autumn leaves.')\n"
        "assert 'numpy' not in sys.modules and 'tokenizers' not in sys.modules\n"
        f"q = {EXAM_ITEM!r}\n"
        "assert d.exam_item(q)\n"
        "score = router.difficulty(q)\n"
        "assert 'numpy' in sys.modules\n"
        "branch = d._params().branches['choice']\n"
        "term = d._semantic_term(branch, q, 'en')\n"
        "assert term != 0.0 and 0.0 < score < 1.0\n"
        "assert d._semantic_term(branch, q, 'zh') == 0.0\n"
        "print(term)\n"
    )
    result = _run(code, tmp_path)
    assert result.returncode == 0, result.stderr


def test_without_wordllama_the_score_goes_on_without_the_term(tmp_path: Path) -> None:
    """An install without the wheel's files (here: a wordllama package that ships none) scores every
    question, says once why the semantic term is off, and never reaches for a download."""
    fake = tmp_path / "site"
    (fake / "wordllama").mkdir(parents=True)
    (fake / "wordllama" / "__init__.py").write_text("raise ImportError('must not be imported')\n", encoding="utf-8")
    code = (
        "import logging, sys, router\n"
        "logging.basicConfig(level=logging.WARNING, stream=sys.stderr)\n"
        "from router.routing import semantic\n"
        f"q = {EXAM_ITEM!r}\n"
        "assert semantic.mean_vector(q) is None and semantic.projection((0.0,) * semantic.DIM) is None\n"
        "assert not semantic.available()\n"
        "scores = [router.difficulty(q), router.difficulty(q)]\n"
        "assert 0.0 < scores[0] == scores[1] < 1.0\n"
        "assert 'huggingface_hub' not in sys.modules\n"
    )
    result = _run(code, tmp_path / "home", extra_path=str(fake))
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("semantic signal is off") == 1, result.stderr
    assert "wordllama" in result.stderr
