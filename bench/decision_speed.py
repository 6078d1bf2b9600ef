"""How long one routing decision takes: ``understand()`` + ``difficulty`` + mode selection, uncached.

    python bench/decision_speed.py                 # every distinct prompt of the shared tables + tests/data sets
    python bench/decision_speed.py --limit 2000    # fewer texts (bounded time)

Every text is decided once per pass, ``--repeat`` passes, with the understanding's cache cleared
before each decision, so the figure is the reading itself, not a cache hit. A text's time is the
median of its passes: the passes are seconds apart, so a burst of another process that slows one
pass does not count, while a text that is slow to read is slow in every pass. p50/p99 are taken
over the texts. Time is
this thread's CPU time (``time.thread_time``), so other processes on a shared machine do not
inflate it the way wall time would; they still slow it through shared caches, so the load average
is printed next to it. A baseline measured in
the same run (one precompiled ``[A-Za-z]+`` findall over the same text) shows how fast the machine
is. Target (issue 17): p99 <= 1 ms. Exit status 1 when missed.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
P99_TARGET_MS = 1.0


def _texts(limit: int) -> list[str]:
    import routing_tables as rt

    seen: dict[str, None] = {}
    for row in rt.load(None):
        seen.setdefault(row.prompt, None)
    from heldout_sets import held_out

    for path in held_out(sorted((REPO / "tests" / "data").glob("*.jsonl"))):  # unrun sets stay unrun
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            text = row.get("question") or row.get("prompt") if isinstance(row, dict) else None
            if isinstance(text, str):
                seen.setdefault(text, None)
    texts = list(seen)
    step = max(1, len(texts) // limit) if limit else 1
    return texts[::step][: limit or None]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=4000, help="at most this many distinct texts (0: all)")
    parser.add_argument("--repeat", type=int, default=5, help="passes over the texts (each text's median counts)")
    args = parser.parse_args(argv)

    import re

    from router.modes.select import select_mode
    from router.routing import semantic
    from router.routing.difficulty import decide, threshold_for_share
    from router.understanding import analyse

    texts = _texts(args.limit)
    threshold = threshold_for_share(0.3)
    decide(texts[0], threshold=threshold)  # loads the parameters and builds the tables: not a decision
    semantic.available()  # loads the exam items' embeddings (on the first exam item otherwise)
    select_mode(texts[0])
    baseline_pattern = re.compile(r"[A-Za-z]+")
    gc.collect()
    gc.freeze()
    runs: list[list[float]] = [[] for _ in texts]
    base: list[list[float]] = [[] for _ in texts]
    for _ in range(args.repeat):
        for i, text in enumerate(texts):
            analyse._understand.cache_clear()
            start = time.thread_time()
            decide(text, threshold=threshold)
            select_mode(text)
            runs[i].append((time.thread_time() - start) * 1e3)
            start = time.thread_time()
            baseline_pattern.findall(text)
            base[i].append((time.thread_time() - start) * 1e3)
    decision = [statistics.median(r) for r in runs]
    baseline = [statistics.median(b) for b in base]
    p50, p99, worst = _percentile(decision, 0.5), _percentile(decision, 0.99), max(decision)
    b50, b99 = _percentile(baseline, 0.5), _percentile(baseline, 0.99)
    lengths = sorted(len(t) for t in texts)
    print(f"{len(texts)} distinct texts (median {lengths[len(lengths) // 2]} chars, longest {lengths[-1]}), "
          f"{args.repeat} passes (a text's median counts), cache cleared before each decision")
    print(f"understand + difficulty + mode: p50 {p50:.3f} ms  p99 {p99:.3f} ms  max {worst:.3f} ms  (CPU time)")
    print(f"baseline, one regex findall: p50 {b50:.4f} ms  p99 {b99:.4f} ms;  p99 ratio {p99 / max(b99, 1e-9):.0f}x")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    ok = p99 <= P99_TARGET_MS
    print("target met (p99 <= 1 ms)" if ok else f"TARGET MISSED: p99 {p99:.3f} ms > {P99_TARGET_MS} ms")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
