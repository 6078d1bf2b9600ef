"""Semantic signals for ``router.difficulty``, compared on held-out figures only.

    python bench/semantic_candidates.py               # the wordllama candidates (about a minute)
    python bench/semantic_candidates.py --ngrams      # also hashed words and characters (slower: 2,048 columns)

Each candidate is a ridge of the (source-standardised) target on a question's features, every source
weighing the same, fitted without the rows it scores, and stacked on the previous recipe
(``bench/train_difficulty.py``'s candidate G, scored without the same rows): score = logit(G) +
LAMBDA * (the ridge's prediction in its own spreads). Three held-out schemes, as ``bench/eval_routing.py``
uses: each source held out (MMLU by groups of subjects), MMLU subjects held out one by one (APGR over 40
draws of 10 pooled), GSM8K questions in five folds. Candidates:

* ``exam``: wordllama's mean token vector (``router.routing.semantic.mean_vector``), exam items only:
  what ``train_difficulty``'s candidate S ships (its own fit standardises slightly differently);
* ``both``: the same on open questions too (a ridge per branch), never on maths word problems
  (their structure term decides there);
* ``pooled``: one ridge over every row, word problems included;
* ``both+task``: ``both`` with the understanding's task probabilities beside the embedding;
* ``knn``: the mean target of the 100 nearest fitted items of the same branch (cosine), not a ridge;
* ``ngrams`` (``--ngrams``): hashed words, word pairs and Chinese characters (2,048 buckets, presence
  over the square root of the count) instead of the embedding, both branches, no dependency.

LAMBDA 0.5 and 1 and the ridge 10 are printed side by side; every figure is out of sample, but picking
among them by these figures makes the best one a little optimistic.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import zlib
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import routing_tables as rt
import train_difficulty as td

from router.routing import semantic
from router.understanding import TASK_TYPES

RIDGE = 10.0
LAMBDAS = (0.5, 1.0)


def _logit(p: float) -> float:
    p = min(max(p, 1e-12), 1 - 1e-12)
    return math.log(p / (1 - p))


def ngram_features(rows: list[rt.Row], dim: int = 2048) -> np.ndarray:
    import re

    word = re.compile(r"[a-z]+|\d+|[\u4e00-\u9fff]|[^\sa-z\d\u4e00-\u9fff]")
    x = np.zeros((len(rows), dim), np.float32)
    for i, r in enumerate(rows):
        tokens = ["0" if t[0].isdigit() else t for t in word.findall(r.prompt[:2000].lower())]
        terms = set(tokens) | {a + " " + b for a, b in itertools.pairwise(tokens)}
        for term in terms:
            x[i, zlib.crc32(term.encode()) % dim] = 1.0
        x[i] /= math.sqrt(max(1, len(terms)))
    return x


class Harness:
    def __init__(self, rows: list[rt.Row], readings: list[td.Reading]) -> None:
        self.rows, self.readings, self.n = rows, readings, len(rows)
        self.source = np.array([r.source for r in rows])
        self.choice = np.array([g.choice for g in readings])
        self.word_problem = np.array([bool(g.word_problem) and not g.choice for g in readings])
        self.subjects = rt.mmlu_subjects(rows)
        gsm = [j for j, r in enumerate(rows) if r.source == "gsm8k"]
        random.Random(0).shuffle(gsm)  # the folds of bench/eval_routing.py
        self.gsm_folds = [gsm[f::5] for f in range(5)]
        self.schemes: dict[str, list[list[int]]] = {
            "loso": [[j for j, r in enumerate(rows) if r.group == g] for g in sorted({r.group for r in rows})],
            "subjects": [[j for j, s in self.subjects.items() if s == name] for name in sorted(set(self.subjects.values()))],
            "gsm": self.gsm_folds,
        }
        self._grams: dict[tuple[int, bool, bool, int], dict[str, np.ndarray]] = {}
        self.base: dict[str, np.ndarray] = {}
        for scheme, folds in self.schemes.items():
            scores = np.zeros(self.n)
            for held in folds:
                scores[held] = [_logit(s) for s in td.scores_without(rows, readings, held, "G")]
            self.base[scheme] = scores

    def signal(self, x: np.ndarray, held: list[int], branches: bool, fit_mask: np.ndarray, knn: int = 0) -> np.ndarray:
        """The ridge's (or kNN's) prediction for ``held``, in spreads of its fitted rows, 0 where it does not apply."""
        held_set = set(held)
        train = np.array([j for j in range(self.n) if j not in held_set])
        train_rows = [self.rows[j] for j in train]
        y = np.array(td.standardised_targets(train_rows))
        w = np.array(rt.source_weights(train_rows))
        held_a = np.array(held)
        out = np.zeros(len(held))
        branch = self.choice if branches else np.zeros(self.n, bool)
        for b in sorted(set(branch.tolist())):
            tm = (branch[train] == b) & fit_mask[train]
            hm = (branch[held_a] == b) & fit_mask[held_a]
            if tm.sum() < 50 or not hm.any():
                continue
            xt, yt, wt = x[train[tm]].astype(np.float64), y[tm], w[tm]
            xh = x[held_a[hm]].astype(np.float64)
            if knn:
                sims = xh @ xt.T
                top = np.argpartition(-sims, knn, axis=1)[:, :knn]
                pred = yt[top].mean(axis=1)
                out[hm] = (pred - pred.mean()) / (pred.std() or 1.0)
                continue
            total = wt.sum()
            mean = (wt[:, None] * xt).sum(axis=0) / total
            gram = self._gram(x, held_a, train, tm, w, b, branches, fit_mask) - total * np.outer(mean, mean)
            z = xt - mean
            beta = np.linalg.solve(gram + RIDGE * np.trace(gram) / x.shape[1] * np.eye(x.shape[1]),
                                   z.T @ (wt * (yt - (wt * yt).sum() / total)))
            fitted = z @ beta
            centre = (wt * fitted).sum() / total
            spread = math.sqrt((wt * (fitted - centre) ** 2).sum() / total) or 1.0
            out[hm] = ((xh - mean) @ beta - centre) / spread
        return out

    def _gram(self, x: np.ndarray, held: np.ndarray, train: np.ndarray, tm: np.ndarray, w: np.ndarray, b: bool,
              branches: bool, fit_mask: np.ndarray) -> np.ndarray:
        """The weighted (uncentred) Gram matrix of the fitted rows: each source's full one, built once per
        candidate, less its held-out rows' (a source's weight is one over its fitted rows)."""
        branch = self.choice if branches else np.zeros(self.n, bool)
        key = (id(x), b, branches, id(fit_mask))
        if key not in self._grams:
            self._grams = {k: v for k, v in self._grams.items() if k[0] == id(x)}
            self._grams[key] = {}
            for source in sorted(set(self.source.tolist())):
                rows = np.flatnonzero((self.source == source) & (branch == b) & fit_mask)
                xs = x[rows].astype(np.float64)
                self._grams[key][source] = xs.T @ xs
        held_in = held[(branch[held] == b) & fit_mask[held]]
        weight = {s: float(w[self.source[train] == s][0]) for s in set(self.source[train[tm]].tolist())}
        gram = np.zeros((x.shape[1], x.shape[1]))
        for source, g in self._grams[key].items():
            if source not in weight:
                continue
            mine = held_in[self.source[held_in] == source]
            xh = x[mine].astype(np.float64)
            gram += weight[source] * (g - xh.T @ xh)
        return gram

    def figures(self, x: np.ndarray, branches: bool, fit_mask: np.ndarray, knn: int = 0) -> dict[float, dict[str, float]]:
        stacked = {lam: {scheme: self.base[scheme].copy() for scheme in self.schemes} for lam in LAMBDAS}
        for scheme, folds in self.schemes.items():
            for held in folds:
                sig = self.signal(x, held, branches, fit_mask, knn)
                for lam in LAMBDAS:
                    stacked[lam][scheme][held] += lam * sig
        return {lam: self.table(scores) for lam, scores in stacked.items()}

    def table(self, scores: dict[str, np.ndarray]) -> dict[str, float]:
        out = {}
        for source in td.HELD_OUT:
            idx = [j for j, r in enumerate(self.rows) if r.source == source]
            out[source] = td.apgr(scores["loso"][idx].tolist(), [self.rows[j] for j in idx])
        names = sorted(set(self.subjects.values()))
        rng, draws = random.Random(1), []
        for _ in range(40):
            chosen = set(rng.sample(names, 10))
            idx = [j for j, s in self.subjects.items() if s in chosen]
            draws.append(td.apgr(scores["subjects"][idx].tolist(), [self.rows[j] for j in idx]))
        out["mmlu subjects"] = sum(draws) / len(draws)
        gsm = sorted(j for fold in self.gsm_folds for j in fold)
        out["new gsm8k"] = td.apgr(scores["gsm"][gsm].tolist(), [self.rows[j] for j in gsm])
        return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ngrams", action="store_true")
    args = parser.parse_args()
    if not semantic.available():
        print("needs wordllama (a default dependency): pip install 'wordllama>=0.4.0.post1,<0.5'")
        return 1
    rows = rt.load()
    readings = td.read(rows)
    h = Harness(rows, readings)
    vectors = np.array([v if (v := semantic.mean_vector(r.prompt)) is not None else np.zeros(semantic.DIM, np.float32)
                        for r in rows])
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = vectors / np.where(norms > 0, norms, 1.0)
    everything, no_word_problems = np.ones(h.n, bool), ~h.word_problem
    exam_only = h.choice.copy()
    tasks = np.array([g.probs for g in readings])
    candidates = [
        ("exam", vectors, True, exam_only, 0),
        ("both", vectors, True, no_word_problems, 0),
        ("pooled", vectors, False, everything, 0),
        ("both+task", np.hstack([vectors, tasks]), True, no_word_problems, 0),
        ("knn", unit, True, no_word_problems, 100),
    ]
    if args.ngrams:
        candidates.append(("ngrams", ngram_features(rows), True, no_word_problems, 0))
    print(f"{len(rows)} rows; {len(TASK_TYPES)} task types; held out: sources (MMLU by groups), MMLU subjects, GSM8K folds")
    base = h.table(h.base)
    columns = list(base)
    print(f"{'candidate':<22}" + "".join(f"{c:>15}" for c in columns))
    print(f"{'G (no signal)':<22}" + "".join(f"{base[c]:>15.3f}" for c in columns))
    length = {c: float("nan") for c in columns}
    for source in td.HELD_OUT:
        idx = [j for j, r in enumerate(rows) if r.source == source]
        length[source] = td.apgr([float(len(rows[j].prompt)) for j in idx], [rows[j] for j in idx])
    print(f"{'length':<22}" + "".join(f"{length[c]:>15.3f}" for c in columns))
    for name, x, branches, mask, knn in candidates:
        for lam, table in h.figures(x, branches, mask, knn).items():
            print(f"{name + f' lambda {lam}':<22}" + "".join(f"{table[c]:>15.3f}" for c in columns))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
