"""Fit the learned reading (``router/understanding/learned_reading.json``): logistic regression over words.

    python bench/train_learned_reading.py               # fit on every run set in tests/data, write the model
    python bench/train_learned_reading.py --check       # leave-one-set-out: the model alone, per set
    python bench/train_learned_reading.py --first-runs  # the cues as each set found them, with and without it

Rows: the labelled questions of ``tests/data/natural_holdout*.jsonl`` (questions written in many voices,
English and Chinese, each with its mode and task type), ``modes_holdout*.jsonl`` and the shared
``modes_dev.jsonl`` (a mode only: the cues' task stands in, and they read every one of those rows right); a
set not yet run is never fitted on. ``tests/data/train_natural*.jsonl`` are rows written blind for fitting
only (same format, other voices): every fit uses them, no check scores them. The label is
the reading the mode rests on: ``calc`` (react, maths), ``live`` (react, live_data), ``schedule`` and
``extraction`` (few_shot), ``select`` (cot, extraction: items kept by a condition), ``tot``, and ``cot`` for
everything else.

``--first-runs`` is how ``SURE``, ``SURE_OF_STRUCTURE`` and ``SURE_OF_TOOL`` were chosen. The cues were shaped by every set here, so their score on a
set today says nothing about a new one. But the code as it stood when a set had its first run had not
seen that set: its readings are the cues' real errors on new phrasing. For each set in ``FIRST_RUNS`` the
code of that commit reads the set (a temporary git worktree; the cues alone, without any learned reading that
commit shipped), the model is fitted without the set, and
the cues' mode is replaced by the model's wherever ``learned_reading.overrules`` says so at each pair of
thresholds (and the sum is not one to work in steps, as in the product).
"""

from __future__ import annotations

import argparse
import base64
import json
import subprocess
import sys
import tempfile
from collections import Counter
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
DATA = REPO / "tests" / "data"
OUT = REPO / "router" / "understanding" / "learned_reading.json"
READINGS = ("cot", "tot", "live", "calc", "schedule", "extraction", "select")
L2 = 1.0
MIN_COUNT = 2
STEPS = 300
RATE = 5.0
KEEP = 0.02
"""A feature whose weights all lie within this of their mean moves no probability: left out of the file."""
FIRST_RUNS = {"natural_holdout18": "e16fe3a", "natural_holdout19": "28d31fb", "natural_holdout20": "66ad6c2",
              "natural_holdout21": "ac3f778", "natural_holdout22": "ac3f778", "natural_holdout23": "ac3f778",
              "natural_holdout24": "241e05f", "natural_holdout25": "35cb1a3", "natural_holdout26": "35cb1a3",
              "natural_holdout27": "8c3b207", "natural_holdout28": "8c3b207", "natural_holdout29": "d46774d",
              "natural_holdout30": "eeec4ce", "natural_holdout31": "eeec4ce", "natural_holdout32": "eeec4ce",
              "natural_holdout33": "35edaaa", "natural_holdout34": "35edaaa",
              "natural_holdout35": "b931207", "natural_holdout36": "b931207",
              "natural_holdout37": "8cba33a", "natural_holdout38": "8cba33a",
              "natural_holdout39": "4155d35", "natural_holdout40": "4155d35",
              "natural_holdout41": "12b228c", "natural_holdout42": "12b228c",
              "natural_holdout43": "2a2c347", "natural_holdout44": "2a2c347",
              "natural_holdout45": "927d626", "natural_holdout46": "927d626",
              "natural_holdout47": "0951826", "natural_holdout48": "0951826",
              "natural_holdout49": "58cf63a", "natural_holdout50": "58cf63a",
              "natural_holdout51": "58cf63a", "natural_holdout52": "58cf63a",
              "natural_holdout53": "bbf0be0", "natural_holdout54": "bbf0be0",
              "natural_holdout55": "bbf0be0", "natural_holdout56": "bbf0be0",
              "natural_holdout61": "e583b6e", "natural_holdout62": "e583b6e",
              "natural_holdout63": "e583b6e", "natural_holdout64": "e583b6e",
              "natural_holdout65": "ba7399a", "natural_holdout66": "ba7399a",
              "natural_holdout67": "ba7399a", "natural_holdout68": "ba7399a",
              "natural_holdout57": "7beb675", "natural_holdout58": "7beb675",
              "natural_holdout59": "7beb675", "natural_holdout60": "7beb675",
              "natural_holdout69": "6e65c15", "natural_holdout70": "6e65c15",
              "natural_holdout71": "6e65c15", "natural_holdout72": "6e65c15",
              "natural_holdout73": "2d74b59", "natural_holdout74": "2d74b59",
              "natural_holdout75": "2d74b59", "natural_holdout76": "2d74b59",
              "natural_holdout77": "93d2bf6", "natural_holdout78": "93d2bf6",
              "natural_holdout79": "93d2bf6", "natural_holdout80": "93d2bf6",
              "natural_holdout81": "f276178", "natural_holdout82": "f276178",
              "natural_holdout83": "f276178", "natural_holdout84": "f276178",
              "natural_holdout85": "ccec5c7", "natural_holdout86": "ccec5c7",
              "natural_holdout87": "ccec5c7", "natural_holdout88": "ccec5c7",
              "natural_holdout89": "ef41576", "natural_holdout90": "ef41576",
              "natural_holdout91": "ef41576", "natural_holdout92": "ef41576",
              "natural_holdout93": "0a9e97f", "natural_holdout94": "0a9e97f",
              "natural_holdout95": "0a9e97f", "natural_holdout96": "0a9e97f",
              "natural_holdout97": "bc58e0e", "natural_holdout98": "bc58e0e", "natural_holdout100": "bc58e0e",
              "natural_holdout99": "dfdff4e", "natural_holdout101": "24c2047", "natural_holdout104": "24c2047"}
"""Each set and the commit its first run was made on (bench/eval_modes.py's docstring records them)."""


def reading(row: dict[str, str]) -> str:
    mode, task = row["mode"], row["task"]
    if mode == "react":
        return "calc" if task == "maths" else "live"
    if mode == "few_shot":
        return "schedule" if task == "schedule" else "extraction"
    if mode == "cot" and task == "extraction":
        return "select"
    return mode


def _sets() -> dict[str, list[dict[str, str]]]:
    from heldout_sets import held_out

    paths = held_out(sorted(DATA.glob("natural_holdout*.jsonl")) + sorted(DATA.glob("modes_holdout*.jsonl")))
    paths.append(REPO.parent / "shared" / "datasets" / "modes_dev.jsonl")
    sets = {p.stem: [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
            for p in paths if p.is_file()}
    import router.understanding.learned_reading as lr
    from router.understanding import analyse, understand

    lr.ENABLED = False  # the cues' own task, not one the model being replaced revised
    try:
        for rows in sets.values():  # the mode sets name no task: the cues' (right on every one of them) stands in
            for r in rows:
                r.setdefault("task", understand(r["question"]).task)
    finally:
        lr.ENABLED = True
        analyse._understand.cache_clear()
    return sets


@cache
def _training_only() -> list[dict[str, str]]:
    """The rows written to be fitted on: part of every fold's training, never a set that is scored."""
    # read once: every fold of --check and --first-runs adds them (callers concatenate, never mutate)
    return [json.loads(line) for p in sorted(DATA.glob("train_natural*.jsonl"))
            for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]


def fit(rows: list[dict[str, str]]) -> dict[str, object]:
    import numpy as np

    from router.understanding.learned_reading import features

    found = [features(r["question"]) for r in rows]
    seen = Counter(f for fs in found for f in fs)
    vocabulary = {f: i for i, f in enumerate(sorted(f for f, n in seen.items() if n >= MIN_COUNT))}
    width = len(vocabulary) + 1  # the last column is the bias
    # x is binary and sparse (a question has some dozens of features of thousands): keep it as (row, column)
    # pairs, so a step costs the pairs, not rows x features (the dense product took most of a --check's hour).
    pairs = [(i, vocabulary[f]) for i, fs in enumerate(found) for f in fs if f in vocabulary]
    pairs += [(i, width - 1) for i in range(len(rows))]
    at_row = np.array([i for i, _ in pairs], dtype=np.int64)
    at_col = np.array([j for _, j in pairs], dtype=np.int64)
    y = np.eye(len(READINGS))[[READINGS.index(reading(r)) for r in rows]]
    w = np.zeros((width, len(READINGS)))
    n = len(rows)
    for _ in range(STEPS):  # full-batch gradient descent on the L2-penalised log loss
        z = np.stack([np.bincount(at_row, weights=w[at_col, k], minlength=n) for k in range(len(READINGS))], axis=1)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = p - y
        xtg = np.stack([np.bincount(at_col, weights=g[at_row, k], minlength=width) for k in range(len(READINGS))], axis=1)
        w -= RATE * (xtg + L2 * w) / n
    kept = [(f, i) for f, i in vocabulary.items() if float(np.ptp(w[i])) > KEEP]
    flat = np.array([w[i] for _, i in kept], dtype="<f4").reshape(-1)
    return {"readings": list(READINGS), "bias": [round(float(v), 4) for v in w[-1]],
            "features": "\n".join(f for f, _ in kept), "weights": base64.b64encode(flat.tobytes()).decode("ascii"),
            "rows": n, "l2": L2, "min_count": MIN_COUNT}


def _use(model: dict[str, object]) -> None:
    import router.understanding.learned_reading as lr

    lr._MODEL_FILE = _write_tmp(model)
    lr._model.cache_clear()


def _write_tmp(model: dict[str, object]) -> str:
    path = REPO / "router" / "understanding" / "learned_reading_check.json"
    path.write_text(json.dumps(model, ensure_ascii=False), encoding="utf-8")
    return path.name


def _without(sets: dict[str, list[dict[str, str]]], name: str) -> list[dict[str, str]]:
    return [r for other, rs in sets.items() if other != name for r in rs] + _training_only()


def _alone(sets: dict[str, list[dict[str, str]]]) -> None:
    from router.understanding.learned_reading import read

    hits = total = 0
    for name, rows in sets.items():
        _use(fit(_without(sets, name)))
        h = sum((got := read(r["question"])) is not None and got[1] == r["mode"] for r in rows)
        print(f"  {name:<20} model alone {h}/{len(rows)}")
        hits, total = hits + h, total + len(rows)
    print(f"leave-one-set-out, the model alone: {hits}/{total} = {hits / total:.1%}")


_DUMP = """
import json, sys
sys.path.insert(0, sys.argv[1])
from router.modes.select import classify
try:  # a commit that ships the learned reading: the cues as they were are that commit's without it
    import router.understanding.learned_reading as lr
    lr.ENABLED = False
except ImportError:
    pass
for line in sys.stdin:
    c = classify(json.loads(line)["question"])
    print(json.dumps([c.mode, c.task]))
"""


def _first_runs(sets: dict[str, list[dict[str, str]]]) -> None:
    from router.understanding.learned_reading import TOOLS, overrules, read, structure
    from router.understanding.readings import worked_in_steps

    pairs = [(sure, held, tool) for sure in (0.5, 0.7, 0.9) for held in (0.5, 0.7, 0.8, 0.9, 1.01) for tool in (0.9, 1.01)]
    counts: Counter[object] = Counter()
    totals: Counter[str] = Counter()
    for name, commit in FIRST_RUNS.items():
        rows = sets[name]
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp) / "tree"
            subprocess.run(["git", "-C", str(REPO), "worktree", "add", "-q", "--detach", str(tree), commit], check=True)
            try:
                out = subprocess.run([sys.executable, "-c", _DUMP, str(tree)], input="".join(
                    json.dumps(r, ensure_ascii=False) + "\n" for r in rows), capture_output=True, text=True, check=True)
            finally:
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)], check=True)
        read_then = [json.loads(line) for line in out.stdout.splitlines()]
        _use(fit(_without(sets, name)))
        seconds = [read(r["question"]) for r in rows]
        # the product asks this of the text with its apostrophes restored; the plain lower case is near enough
        worked = [s is not None and s[0] == "calc" and worked_in_steps(r["question"], r["question"].lower())
                  for s, r in zip(seconds, rows, strict=True)]
        for (mode, task), second, steps, r in zip(read_then, seconds, worked, rows, strict=True):
            totals[r["lang"]] += 1
            counts["cues", r["lang"]] += mode == r["mode"]
            counts["model", r["lang"]] += (second[1] if second is not None else mode) == r["mode"]
            first = reading({"mode": mode, "task": task})  # the cues' mode and task, as a label would name them
            for pair in pairs:
                won = second is not None and not steps and overrules(first, second, task, *pair)
                counts[pair, r["lang"]] += (second[1] if won else mode) == r["mode"]
                kind = "tool" if first in TOOLS else "structure" if structure(first, task) else ""
                if won and kind:  # a tool or a structure the cues found, overruled
                    counts[pair, kind, "won"] += second[1] == r["mode"]
                    counts[pair, kind, "lost"] += mode == r["mode"]
        print(f"  {name} (first run on {commit}, {len(rows)} rows)", flush=True)

    def figure(key: object) -> str:
        right = {lang: counts[key, lang] for lang in totals}
        return f"{sum(right.values()):>4} right (" + ", ".join(
            f"{lang} {right[lang] / totals[lang]:.1%}" for lang in sorted(totals)) + ")"

    print(f"all {sum(totals.values())} rows: the cues as they were {figure('cues')}; the model alone (the cues "
          f"for a text it does not read) {figure('model')}; the model overruling the cues' plain reasoning from SURE, "
          "a structure they found from SURE_OF_STRUCTURE, a tool from SURE_OF_TOOL:")
    for pair in pairs:
        print(f"  SURE={pair[0]:<4} SURE_OF_STRUCTURE={pair[1]:<5} SURE_OF_TOOL={pair[2]:<5} {figure(pair)}"
              f"   (structures overruled {counts[pair, 'structure', 'won']} rightly, {counts[pair, 'structure', 'lost']} "
              f"wrongly; tools {counts[pair, 'tool', 'won']}, {counts[pair, 'tool', 'lost']})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="leave-one-set-out, the model alone; writes nothing")
    parser.add_argument("--first-runs", action="store_true", help="the cues of each set's first run, with the model")
    args = parser.parse_args()
    sets = _sets()
    try:
        if args.check:
            _alone(sets)
            return 0
        if args.first_runs:
            _first_runs(sets)
            return 0
    finally:
        (REPO / "router" / "understanding" / "learned_reading_check.json").unlink(missing_ok=True)
    extra = _training_only()
    model = fit([r for rows in sets.values() for r in rows] + extra)
    OUT.write_text(json.dumps(model, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    print(f"{OUT.relative_to(REPO)}: {model['rows']} rows from {len(sets)} sets and {len(extra)} training rows, {model['features'].count(chr(10)) + 1} features, "
          f"{OUT.stat().st_size / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
