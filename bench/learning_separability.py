"""Can any learner that knows a question by its features send a drifted kind up without moving the others?

    python bench/learning_separability.py --seeds 31,32,33,34,35,36,37,38
    python bench/learning_separability.py --seeds 41,42,43,44 --signals cells,knn-words

The drift must-show of issue 21, as ``bench/learning.py`` reads it: after the fast tier starts failing every
question of one kind, 80% of that kind's latest questions go strong, and no other kind's strong share moves by
more than 0.10. A learner only knows a new question by its features (the task type, the topic, the words, the
understanding's vector); each question is new to it (the drift stream reuses a question once per pass). So the
best any learner can do is bounded by how well those features tell the drifted kind from the others.

This bench measures that bound, with an *oracle* in place of the outcomes: per user of ``bench/learning.py``
(same seeds, same streams, the same drifted kind), each question gets a signal computed from the true labels
(drifted kind or not) of the other questions of the stream, pooled the way a learner could pool evidence:

- ``cells``: the learner's cells (task type x nearest shipped word centroid), the labels' mean in the cell;
- ``topic``: the nearest centroid alone; ``soft3``: the three nearest centroids, weighed by their scores;
- ``knn-words`` / ``knn-vector``: the labels' mean over the 20 nearest questions by binary tf-idf words
  (``routing.kinds.tokens``) / by ``Understanding.vector`` (cosine), the question itself left out;
- ``logistic``: a logistic regression on those words fitted on half the stream's labels, read on the other half.

A learner that saw outcomes instead of labels sees less: only the chosen tier's, and a fast tier that failed
some of the kind's questions before the drift. The ideal decision sends a question up when its signal reaches a
cut; the prior's own strong decisions (strong share 0.3) stay strong. The cut is the highest that puts
``SENT_UP`` of the drifted kind on the strong tier; printed, per signal, how far that moves the worst other kind
(the share of its questions the prior sent fast that the cut sends up): mean and worst over the users, and how
many users stay within ``DISTURB_MAX``. Below ``DISTURB_MAX`` for a user means some learner could meet the
must-show there; above it, none that pools evidence that way can. Zero model calls.

Measured on main 3e631f9 (round v0.3.6), the drifted kind MMLU social sciences for 23 of the 32 users of seeds
31-38 and MMLU "other" for 9; the worst other kind moved, mean and worst over the users (users within 0.10):

| signal | seeds 31-38 (32 users; 17:38-17:45 UTC, load 3.1-2.9) | seeds 41-44 (16 users, not looked at before; load 2.9-2.4) |
| --- | --- | --- |
| cells (the learner's) | 0.49, 0.73 (0) | 0.56, 0.73 (0) |
| topic (nearest centroid) | 0.52, 0.77 (0) | 0.52, 0.84 (0) |
| soft3 (three nearest centroids) | 0.49, 0.62 (0) | 0.50, 0.64 (0) |
| knn-vector | 0.50, 0.68 (0) | 0.52, 0.72 (0) |
| knn-words | 0.28, 0.54 (1) | 0.30, 0.52 (0) |
| logistic (words, half the labels) | 0.26, 0.41 (2) | 0.24, 0.39 (1) |

The 20 neighbours were chosen among 5, 20 and 50 on seeds 31-34, where they read alike. So no learner that knows
a question by these features can send 80% of that kind up while moving every other kind by 0.10 or less: MMLU
social sciences reads like humanities, MMLU "other" like science. Pooling by shipped prototypes (soft) or by the
vector does no better than the cells even at the bound, so no such variant of the learner was built. A drift
confined to a cell (a task type, a topic) is sent up within tens of its outcomes with the other kind left alone
(``tests/test_learning.py``, the kind whose fast tier gets worse).
"""

from __future__ import annotations

import argparse
import collections
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import learning as bench

SIGNALS = ("cells", "topic", "soft3", "knn-words", "knn-vector", "logistic")
NEIGHBOURS = 20


def _features(prompts: list[str]) -> dict[str, object]:
    from router.routing import kinds
    from router.routing.difficulty import multiple_choice
    from router.routing.kinds import _model, tokens
    from router.understanding import understand

    count, table = _model(kinds.MODEL_OVERRIDE)
    out: dict[str, list[object]] = {"task": [], "scores": [], "tokens": [], "vector": []}
    for text in prompts:
        u = understand(text)
        words = tokens(text, str(u.task), multiple_choice(text))
        scores = [0.0] * count
        for word in words:
            for centroid, weight in table.get(word, ()):
                scores[centroid] += weight
        out["task"].append(str(u.task))
        out["scores"].append(scores)
        out["tokens"].append(words)
        out["vector"].append(u.vector)
    return out  # type: ignore[return-value]


def _pooled(groups: list[dict[object, float]], labels: list[bool]) -> list[float]:
    """Each question's signal: its groups' label means (weighed), the question itself left out."""
    num: collections.Counter[object] = collections.Counter()
    den: collections.Counter[object] = collections.Counter()
    for weights, label in zip(groups, labels, strict=True):
        for g, w in weights.items():
            num[g] += w * label
            den[g] += w
    return [sum(w * (num[g] - w * y) / max(den[g] - w, 1e-9) for g, w in weights.items())
            for weights, y in zip(groups, labels, strict=True)]  # fmt: skip


def _tfidf(token_sets: list[frozenset[str]]):  # type: ignore[no-untyped-def]
    import numpy as np

    df = collections.Counter(w for t in token_sets for w in t)
    vocab = {w: i for i, w in enumerate(df)}
    x = np.zeros((len(token_sets), len(vocab)))
    for i, words in enumerate(token_sets):
        for w in words:
            x[i, vocab[w]] = math.log(len(token_sets) / df[w])
    return x / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-9)


def _knn(x, labels: list[bool]) -> list[float]:  # type: ignore[no-untyped-def]
    import numpy as np

    x = x / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-9)
    sim = x @ x.T
    np.fill_diagonal(sim, -2.0)
    nearest = np.argsort(-sim, axis=1)[:, :NEIGHBOURS]
    return list(np.asarray(labels)[nearest].mean(axis=1))


def _logistic(x, labels: list[bool], seed: int) -> list[float]:  # type: ignore[no-untyped-def]
    import numpy as np

    y = np.asarray(labels, float)
    order = np.random.default_rng(seed).permutation(len(y))
    half, out = len(y) // 2, np.zeros(len(y))
    for train, test in ((order[:half], order[half:]), (order[half:], order[:half])):
        w, b, xs = np.zeros(x.shape[1]), 0.0, 3.0 * x[train]
        for _ in range(300):
            p = 1.0 / (1.0 + np.exp(-(xs @ w + b)))
            w -= 2.0 * (xs.T @ (p - y[train]) / len(train) + 1e-3 * w)
            b -= 2.0 * float(np.mean(p - y[train]))
        out[test] = 3.0 * x[test] @ w + b
    return list(out)


def signal(name: str, feats: dict[str, list], labels: list[bool], seed: int) -> list[float]:  # type: ignore[type-arg]
    import numpy as np

    tasks, scores = feats["task"], feats["scores"]
    if name in ("cells", "topic"):
        nearest = [max(range(len(s)), key=s.__getitem__) for s in scores]
        keys = [(t, c) if name == "cells" else c for t, c in zip(tasks, nearest, strict=True)]
        return _pooled([{k: 1.0} for k in keys], labels)
    if name == "soft3":
        groups = []
        for s in scores:
            top = sorted(range(len(s)), key=lambda c: -s[c])[:3]
            total = sum(max(s[c], 0.0) for c in top) or 1.0
            groups.append({c: max(s[c], 0.0) / total for c in top})
        return _pooled(groups, labels)
    if name == "knn-vector":
        return _knn(np.asarray(feats["vector"], float), labels)
    words = _tfidf(feats["tokens"])
    return _knn(words, labels) if name == "knn-words" else _logistic(words, labels, seed)


def moved(stream: list[bench.Row], kind: str, sig: list[float], prior_up: list[bool]) -> float:
    """The worst other kind's strong-share move under the cut that sends ``SENT_UP`` of ``kind`` up."""
    mine = sorted((s for s, r, up in zip(sig, stream, prior_up, strict=True) if r.kind == kind and not up),
                  reverse=True)  # fmt: skip
    total = sum(r.kind == kind for r in stream)
    need = max(0, math.ceil(bench.SENT_UP * total) - sum(up for r, up in zip(stream, prior_up, strict=True) if r.kind == kind))
    if need == 0:
        return 0.0
    cut = mine[min(need, len(mine)) - 1]
    worst = 0.0
    for other in {r.kind for r in stream} - {kind}:
        mask = [r.kind == other for r in stream]
        flipped = sum(m and not up and s >= cut for m, up, s in zip(mask, prior_up, sig, strict=True))
        worst = max(worst, flipped / sum(mask))
    return worst


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=4)
    parser.add_argument("--seeds", default="31,32,33,34,35,36,37,38")
    parser.add_argument("--signals", default=",".join(SIGNALS))
    args = parser.parse_args(argv)
    from router.routing.auto import choose

    names = [s for s in args.signals.split(",") if s]
    rows = bench.load_rows()
    config = bench.make_router(learning=False, knob="strong_share: 0.3", clock=[0.0]).config
    results: dict[str, list[float]] = {name: [] for name in names}
    drifted: collections.Counter[str] = collections.Counter()
    for seed in (int(s) for s in args.seeds.split(",") if s):
        for u, stream in enumerate(bench.users(rows, args.users, 6, 250, seed)):
            kind = bench.fine_kinds(stream, 1)[0]
            drifted[kind] += 1
            labels = [r.kind == kind for r in stream]
            scores = [choose(r.prompt, "cot", config).score or 0.0 for r in stream]
            cut = sorted(scores)[int(0.7 * len(scores))]  # the prior's strong share 0.3 on this stream
            prior_up = [s >= cut for s in scores]
            feats = _features([r.prompt for r in stream])
            for name in names:
                results[name].append(moved(stream, kind, signal(name, feats, labels, seed * 100 + u), prior_up))
    print(f"{sum(drifted.values())} users; drifted kinds {dict(drifted)}; sent up = {bench.SENT_UP:.0%} of the kind strong")
    for name, values in results.items():
        ok = sum(v <= bench.DISTURB_MAX for v in values)
        print(f"{name:<11} worst other kind moved: mean {statistics.mean(values):.2f}, worst {max(values):.2f}; "
              f"within {bench.DISTURB_MAX} for {ok} of {len(values)} users")
    return 0


if __name__ == "__main__":
    sys.exit(main())
