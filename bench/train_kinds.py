"""Fit the shipped kinds model (``router/routing/kinds_model.json``): the topic centroids the learner
keys its finer cells by (``router.routing.kinds``).

    python bench/train_kinds.py                   # fit on every shared prompt, write the JSON
    python bench/train_kinds.py --exclude mmlu:social --output /tmp/kinds-no-social.json
                                                  # fit without some groups/sources (a held-out check)

Binary tf-idf of ``kinds.tokens`` over the prompts of every routing table in shared/ (``routing_tables``),
each source weighing the same (a sample of at most ``--per-source`` prompts each); words in fewer than
``--min-df`` sampled prompts are dropped. The centroids are the (unit) mean of each group of the tables:
``routing_tables``' four MMLU domains (science, maths, humanities, social: not the bench's MMLU
categories), GSM8K, the Arena prompts, h2o, and each RouterArena benchmark family (29 in all).
``--unlabelled`` fits a seeded spherical k-means instead (``--k``, ``--choice-k``); measured: purity of
the bench's kinds in a 6-kind mix 0.66 (k 32) and 0.71 (16 open + 16 multiple choice) against 0.72 for
the groups, and the groups did better in ``bench/learning.py``. Each centroid keeps its ``--keep``
heaviest words. Only prompts and their table's groups are read, never a model's score: the centroids
say what questions are alike, not which tier answers them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import routing_tables as rt  # noqa: E402

from router.routing.difficulty import multiple_choice  # noqa: E402
from router.routing.kinds import tokens  # noqa: E402
from router.understanding import understand  # noqa: E402

OUTPUT = REPO / "router" / "routing" / "kinds_model.json"


def main(argv: list[str] | None = None) -> int:
    import numpy as np

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--k", type=int, default=32)
    parser.add_argument("--per-source", type=int, default=2000)
    parser.add_argument("--min-df", type=int, default=4)
    parser.add_argument("--keep", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--exclude", default="", help="comma-separated sources or groups (mmlu:stem) to leave out")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--unlabelled", dest="labelled", action="store_false",
                        help="spherical k-means with --k centroids instead of one centroid per group of the tables")
    parser.add_argument("--choice-k", type=int, default=0,
                        help="fit this many centroids on multiple-choice prompts apart (0: one fit over all)")
    args = parser.parse_args(argv)
    excluded = {x for x in args.exclude.split(",") if x}
    rng = random.Random(args.seed)
    by_source: dict[str, list[str]] = {}
    label_of: dict[str, str] = {}
    for row in rt.load():
        if row.source in excluded or row.group in excluded:
            continue
        by_source.setdefault(row.source, []).append(row.prompt)
        label_of[row.prompt] = row.group
    if args.labelled:
        import csv

        csv.field_size_limit(1 << 30)
        path = rt.shared_dir() / "routing-open" / "routerarena" / "scores_wide.csv"
        for r in csv.DictReader(open(path, encoding="utf-8")):
            if r["prompt"] in label_of:
                label_of[r["prompt"]] = "routerarena:" + r["dataset"].replace("-", "_").split("_")[0]
    docs: list[frozenset[str]] = []
    choice_docs: list[bool] = []
    labels: list[str] = []
    for source in sorted(by_source):
        prompts = sorted(set(by_source[source]))
        rng.shuffle(prompts)
        for prompt in prompts[: args.per_source]:
            docs.append(tokens(prompt, understand(prompt).task, multiple_choice(prompt)))
            choice_docs.append(multiple_choice(prompt))
            labels.append(label_of[prompt])
        print(f"{source}: {min(len(prompts), args.per_source)} prompts")
    df: dict[str, int] = {}
    for doc in docs:
        for word in doc:
            df[word] = df.get(word, 0) + 1
    vocab = sorted(w for w, n in df.items() if n >= args.min_df)
    index = {w: i for i, w in enumerate(vocab)}
    idf = np.array([math.log(len(docs) / df[w]) for w in vocab])
    x = np.zeros((len(docs), len(vocab)))
    for i, doc in enumerate(docs):
        for word in doc:
            j = index.get(word)
            if j is not None:
                x[i, j] = idf[j]
    norms = np.linalg.norm(x, axis=1)
    is_choice = np.array(choice_docs)[norms > 0]
    x = x[norms > 0] / norms[norms > 0, None]
    gen = np.random.default_rng(args.seed)
    groups = [(x, args.k)] if not args.choice_k else [(x[~is_choice], args.k), (x[is_choice], args.choice_k)]
    if args.labelled:
        named = np.array(labels)[norms > 0]
        kept = [g for g in sorted(set(named)) if (named == g).sum() >= args.min_df]
        centres = np.vstack([x[named == g].sum(axis=0) for g in kept])
        centres /= np.linalg.norm(centres, axis=1, keepdims=True)
        print("labelled centroids:", ", ".join(kept))
    else:
        centres = np.vstack([_kmeans(np, part, k, gen) for part, k in groups])
    args.k = len(centres)
    sizes = np.bincount(np.argmax(x @ centres.T, axis=1), minlength=args.k)
    words: dict[str, list[list[float]]] = {}
    for c in range(args.k):
        top = np.argsort(-centres[c])[: args.keep]
        for j in top:
            if centres[c, j] > 0:
                words.setdefault(vocab[j], []).append([c, round(float(idf[j] * centres[c, j]), 5)])
        label = ", ".join(vocab[j] for j in top[:6])
        print(f"centroid {c:>2}: {sizes[c]:>5} prompts: {label}")
    model = {"k": args.k, "fitted_on": len(docs), "excluded": sorted(excluded), "words": dict(sorted(words.items()))}
    args.output.write_text(json.dumps(model, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.output} ({args.output.stat().st_size // 1024} KB, {len(words)} words)")
    return 0


def _kmeans(np, x, k, gen):  # type: ignore[no-untyped-def]
    """Spherical k-means: unit centres, cosine assignment (40 rounds; an empty centre restarts at a random point)."""
    centres = x[gen.choice(len(x), k, replace=False)]
    for _ in range(40):
        assign = np.argmax(x @ centres.T, axis=1)
        for c in range(k):
            members = x[assign == c]
            centres[c] = members.sum(axis=0) if len(members) else x[gen.integers(len(x))]
        centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    return centres


if __name__ == "__main__":
    sys.exit(main())
