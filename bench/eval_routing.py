"""How well ``router.difficulty`` routes between a strong and a weak model on sources it was not fitted on.

    python bench/eval_routing.py            # every table in shared/datasets (found next to the repo)
    python bench/eval_routing.py --data DIR # another copy laid out the same way

Leave-one-source-out: each held-out source (GSM8K, MMLU by groups of subjects, arena_bench_v1, h2o,
routerarena) is scored by the shipped recipe (``bench/train_difficulty.py``) refitted on every other
source, so no figure is on a row the model was fitted on. Printed per source, in the same run:
APGR and CPT(50%) of ``difficulty``, of question length and of random routing (mean of 20 seeds)
(RouteLLM's metrics: see ``shared/datasets/routellm/README.md``); the calibration check (the share
sent to the strong tier on each held-out source with the threshold its refitted model gives for
strong_share 0.2 / 0.3 / 0.5); the AUC of the shipped score on ``tests/data/open_ended_sanity.jsonl``
(MT-Bench-like prompts labelled hard/easy by category, never fitted on); and the decision latency
(understanding + score + threshold, the understanding's cache cleared before every question; CPU
time of one core, next to a baseline of one regex pass over the same question).

Two more held-out figures, for tables of the same kind as a shared one (new GSM8K questions, MMLU
subjects not in shared/): GSM8K scored in five folds of its questions (two shuffles), each fold by a
model fitted on everything else (the word-problem term is fitted on GSM8K, so the source-out GSM8K row above runs
without it); and MMLU scored subject by subject by a model fitted without that subject, then APGR
over 40 draws of 10 subjects pooled, next to length on the same draws.

Each held-out source also gets a paired bootstrap (200 resamples of its rows, seed 0) of APGR(difficulty)
minus APGR(length): the 5-95% interval says how much of a margin is the source's sampling noise (on
the recipe of 2026-12-02: arena_bench_v1's 292 prompts about +-0.04, h2o's 60 about +-0.08, GSM8K's
1,003 +-0.04, MMLU's 10,813 +-0.014), so a change of a point or two on one of them is not evidence.

Targets (issue 17): APGR >= max(length, random) + 0.05 on every held-out source; the balanced
share within 5 points of the target on every held-out source (with the tracker); p99 <= 1 ms. Exit status 1 when one is missed.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import routing_tables as rt
import train_difficulty as td

MARGIN = 0.05
SHARE_TOLERANCE = 0.05
P99_TARGET_MS = 1.0
FOLD_SEEDS = (0, 1)
"""Two splits of GSM8K into folds: a gain seen on one split only is that split's noise."""
SANITY = Path(__file__).resolve().parent.parent / "tests" / "data" / "open_ended_sanity.jsonl"


def cpt50(scores: Sequence[float], rows: Sequence[rt.Row]) -> float:
    curve = td.pgr_curve(scores, rows)
    n = len(curve) - 1
    return next((k / n for k, value in enumerate(curve) if value >= 0.5), 1.0)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency(questions: Sequence[str]) -> tuple[float, float, float, float]:
    """Decision p50/p99 in ms and the same for one regex pass; CPU time of this thread, median of 3 passes."""
    from router.routing import semantic
    from router.routing.difficulty import decide, threshold_for_share
    from router.understanding import analyse

    gc.collect()
    gc.freeze()
    threshold = threshold_for_share(0.3)
    decide(questions[0], threshold=threshold)  # loads parameters and tables: not part of a decision
    semantic.available()  # loads the exam items' embeddings (on the first exam item otherwise)
    pattern = re.compile(r"[A-Za-z]+")
    runs = []
    for _ in range(3):
        decision, baseline = [], []
        for q in questions:
            analyse._understand.cache_clear()
            start = time.thread_time()
            decide(q, threshold=threshold)
            decision.append((time.thread_time() - start) * 1e3)
            start = time.thread_time()
            pattern.findall(q)
            baseline.append((time.thread_time() - start) * 1e3)
        runs.append((percentile(decision, 0.5), percentile(decision, 0.99), percentile(baseline, 0.5), percentile(baseline, 0.99)))
    return tuple(sorted(r[k] for r in runs)[1] for k in range(4))  # type: ignore[return-value]


def bootstrap_margin(scores: Sequence[float], rows: Sequence[rt.Row], resamples: int = 200,
                     seed: int = 0) -> tuple[float, float]:
    """5th and 95th percentiles of APGR(scores) - APGR(length) over paired resamples of the rows: the noise
    of a source's margin over length, each resample scored by ``td.apgr`` itself."""
    length = [float(len(r.prompt)) for r in rows]
    rng = random.Random(seed)
    n = len(rows)
    diffs = []
    for _ in range(resamples):
        picks = [rng.randrange(n) for _ in range(n)]
        sample = [rows[j] for j in picks]
        diffs.append(td.apgr([scores[j] for j in picks], sample) - td.apgr([length[j] for j in picks], sample))
    diffs.sort()
    return diffs[int(0.05 * resamples)], diffs[int(0.95 * resamples) - 1]


def question_folds(rows: Sequence[rt.Row], readings: Sequence[td.Reading], source: str, folds: int = 5,
                   seed: int = 0) -> tuple[float, float]:
    """APGR of ``source`` scored fold by fold of its questions (shuffled by ``seed``), and length's."""
    import random

    idx = [j for j, r in enumerate(rows) if r.source == source]
    random.Random(seed).shuffle(idx)
    scores: dict[int, float] = {}
    for f in range(folds):
        held = idx[f::folds]
        scores.update(zip(held, td.scores_without(rows, readings, held), strict=True))
    sub = [rows[j] for j in idx]
    return td.apgr([scores[j] for j in idx], sub), td.apgr([float(len(r.prompt)) for r in sub], sub)


def subject_draws(rows: Sequence[rt.Row], readings: Sequence[td.Reading], data: Path | None = None, draws: int = 40,
                  size: int = 10) -> tuple[float, float, float]:
    """Mean APGR over draws of ``size`` MMLU subjects, each subject scored without itself; length's; and
    the 10th percentile of the difference."""
    import random

    subjects = rt.mmlu_subjects(list(rows), data)
    names = sorted(set(subjects.values()))
    scores: dict[int, float] = {}
    for name in names:
        held = [j for j, s in subjects.items() if s == name]
        scores.update(zip(held, td.scores_without(rows, readings, held), strict=True))
    rng = random.Random(1)
    mine, length = [], []
    for _ in range(draws):
        chosen = set(rng.sample(names, min(size, len(names))))
        idx = [j for j, s in subjects.items() if s in chosen]
        sub = [rows[j] for j in idx]
        mine.append(td.apgr([scores[j] for j in idx], sub))
        length.append(td.apgr([float(len(r.prompt)) for r in sub], sub))
    gaps = sorted(a - b for a, b in zip(mine, length, strict=True))
    return sum(mine) / draws, sum(length) / draws, gaps[len(gaps) // 10]


def sanity_auc() -> tuple[float, dict[str, float]]:
    import json

    from router.routing.difficulty import difficulty

    records = [json.loads(line) for line in SANITY.read_text(encoding="utf-8").splitlines() if line.strip()]

    def auc(rs: list[dict[str, str]]) -> float:
        hard = [difficulty(r["prompt"]) for r in rs if r["label"] == "hard"]
        easy = [difficulty(r["prompt"]) for r in rs if r["label"] == "easy"]
        return sum((h > e) + 0.5 * (h == e) for h in hard for e in easy) / (len(hard) * len(easy))

    return auc(records), {lang: auc([r for r in records if r["lang"] == lang]) for lang in ("en", "zh")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=None)
    args = parser.parse_args()
    rows = rt.load(args.data)
    if not rows:
        print("no tables found")
        return 1
    ok = True
    print("rows: " + "  ".join(f"{g}={sum(1 for r in rows if r.group == g)}" for g in sorted({r.group for r in rows})))

    questions = [r.prompt for r in rows]
    p50, p99, b50, b99 = latency(questions[:: max(1, len(questions) // 3000)])
    print(f"decision latency (understanding + score + threshold, cache cleared): p50 {p50:.3f} ms  p99 {p99:.3f} ms"
          f"  (CPU time; one regex pass: p50 {b50:.3f} ms, p99 {b99:.3f} ms; p99 ratio {p99 / max(b99, 1e-9):.0f}x;"
          f" load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    if p99 > P99_TARGET_MS:
        ok = False
        print(f"  MISSED: p99 {p99:.3f} ms > {P99_TARGET_MS} ms")

    readings = td.read(rows)
    scores = td.loso(rows, readings)
    print(f"\nleave-one-source-out (recipe {td.SHIPPED}: refitted without the source scored; MMLU without each group of subjects)")
    units = [(s, [j for j, r in enumerate(rows) if r.source == s]) for s in td.HELD_OUT]
    units += [(g, [j for j, r in enumerate(rows) if r.group == g]) for g in sorted(rt.MMLU_GROUPS)]
    for name, idx in units:
        if len(idx) < 20:
            continue
        sub = [rows[j] for j in idx]
        mine = [scores[j] for j in idx]
        length = [float(len(r.prompt)) for r in sub]
        a, lgt, rnd = td.apgr(mine, sub), td.apgr(length, sub), td.random_apgr(sub)
        bar = max(lgt, rnd) + MARGIN
        flag = "" if a >= bar else f"  MISSED: < max(length, random) + {MARGIN} = {bar:.3f}"
        if flag and name in td.HELD_OUT:
            ok = False
        noise = ""
        if name in td.HELD_OUT:
            low, high = bootstrap_margin(mine, sub)
            noise = f"  (minus length, 5-95%: {low:+.3f} .. {high:+.3f})"
        print(f"  {name:<16} n={len(sub):>5}  APGR {a:.3f} (CPT50 {cpt50(mine, sub):.2f})  length {lgt:.3f}  random {rnd:.3f}"
              f"{noise}{flag}")

    if any(r.source == "gsm8k" for r in rows):
        for seed in FOLD_SEEDS:
            a, lgt = question_folds(rows, readings, "gsm8k", seed=seed)
            print(f"{'' if seed else chr(10)}new GSM8K questions (5 folds of its questions, shuffled by seed {seed}, each scored"
                  f" without itself): APGR {a:.3f}  length {lgt:.3f}")
    if any(r.source == "mmlu" for r in rows):
        a, lgt, p10 = subject_draws(rows, readings, args.data)
        print(f"MMLU subjects not fitted on (each scored without itself; 40 draws of 10 subjects pooled): APGR {a:.3f}"
              f"  length {lgt:.3f}  (10th percentile of the difference {p10:+.3f})")

    print("\ncalibration on held-out sources: share sent to strong with the refitted model's threshold;"
          " then the same questions in a shuffled stream with the router's ShareTracker (whole stream, warm-up included)")
    from router.routing.share import WARMUP, ShareTracker

    shares: dict[float, list[float]] = {0.2: [], 0.3: [], 0.5: []}
    tracked: dict[float, list[float]] = {0.2: [], 0.3: [], 0.5: []}
    for source in td.HELD_OUT:
        train = [j for j, r in enumerate(rows) if r.source != source]
        held = [j for j, r in enumerate(rows) if r.source == source]
        if not held or not train:
            continue
        shipped = td.ship([rows[j] for j in train], [readings[j] for j in train], {})
        quantiles = shipped["calibration"]
        model = td.fit([rows[j] for j in train], [readings[j] for j in train])
        held_scores = [td.shipped_score(shipped, model, readings[j]) for j in held]
        stream = list(held_scores)
        random.Random(0).shuffle(stream)
        cells = []
        for share in shares:
            position = (1.0 - share) * (len(quantiles) - 1)  # type: ignore[arg-type]
            threshold = quantiles[int(position)]  # type: ignore[index]
            routed = sum(1 for s in held_scores if s >= threshold) / len(held_scores)
            tracker, sent = ShareTracker(), 0
            for score in stream:
                sent += score >= tracker.threshold(share, threshold)
                tracker.observe(score)
            shares[share].append(routed)
            if len(stream) >= 2 * WARMUP:  # a shorter stream is mostly warm-up: the shipped threshold decides
                tracked[share].append(sent / len(stream))
            cells.append(f"{share:.1f}->{routed:.3f} (tracked {sent / len(stream):.3f})")
        print(f"  {source:<16} " + "  ".join(cells))
    for share, values in shares.items():
        balanced = sum(values) / len(values)
        worst = max(abs(v - share) for v in tracked[share])
        verdict = "ok" if worst <= SHARE_TOLERANCE else "MISSED"
        if verdict == "MISSED":
            ok = False
        print(f"  target {share:.1f}: fixed threshold, balanced over held-out sources {balanced:.3f}; with the tracker,"
              f" worst source of at least {2 * WARMUP} questions off by {worst:.3f} ({verdict})")

    figure, by_lang = sanity_auc()
    print(f"\nshipped parameters on the open-ended sanity set (never fitted on): AUC {figure:.3f}"
          f" (en {by_lang['en']:.3f}, zh {by_lang['zh']:.3f})")
    print("\nall targets met" if ok else "\nsome targets missed (see MISSED above)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
