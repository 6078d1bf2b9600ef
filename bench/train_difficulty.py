"""Train the shipped difficulty parameters from RouteLLM's GSM8K and MMLU tables.

    python bench/train_difficulty.py                 # cross-validated figures, then write the JSON
    python bench/train_difficulty.py --no-write      # figures only
    python bench/train_difficulty.py --data DIR      # another copy of the tables
    python bench/train_difficulty.py --compare --no-write   # every candidate blend: CV, LSO, sanity AUC

The score blends two ridge regressions on the features of ``router.routing.difficulty_features``
(normal equations, so every cross-validation fold is the total statistics minus the fold's):
*structure* (STRUCTURE_FEATURES, raw gain, ridge 3: the first shipped score) and *shape* (every
feature, gain standardised per dataset, ridge 30: the second). Each is standardised by its fit's
spread; multiple choice takes the shape model, open questions ``BLEND["open"]`` of both; each branch
is standardised on its fitted questions and the result squashed to [0, 1] by a one-dimensional
logistic fit to "the strong model is right and the weak one wrong". Contaminated prompts are dropped, as RouteLLM does.

A fixed hash split keeps about 20% of the questions out of everything the shipped
file is fitted or calibrated on (the *holdout*); the calibration sample is the
shipped model's scores on the questions it was fitted on. The holdout rule is
recorded in the JSON so tests and ``bench/eval_routing.py`` can check calibration
and quality on questions the parameters never saw. Every figure printed here is
out-of-fold: no score is ever reported on a question its model was trained on.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from router.routing.difficulty_features import FEATURE_NAMES, STRUCTURE_FEATURES, features  # noqa: E402

WEAK = "mistralai/Mixtral-8x7B-Instruct-v0.1"
STRONG = "gpt-4-1106-preview"
OUTPUT = REPO / "router" / "routing" / "difficulty_model.json"
HOLDOUT_FIXTURE = REPO / "tests" / "data" / "difficulty_holdout.jsonl"
HOLDOUT_FIXTURE_SIZE = 1500
HOLDOUT_PERCENT = 20
RIDGE = 30.0
CALIBRATION_POINTS = 1001
SANITY = REPO / "tests" / "data" / "open_ended_sanity.jsonl"


def default_data_dir() -> Path:
    for candidate in (REPO.parent / "shared" / "datasets" / "routellm", Path("/work/shared/datasets/routellm")):
        if candidate.is_dir():
            return candidate
    return REPO.parent / "shared" / "datasets" / "routellm"


@dataclass(frozen=True)
class Item:
    prompt: str
    dataset: str
    subject: str
    weak: float
    strong: float


def prompt_hash(prompt: str) -> str:
    return hashlib.sha1(prompt.encode("utf-8")).hexdigest()


def in_holdout(prompt: str) -> bool:
    """The split rule recorded in the JSON: the first 8 hex digits of SHA-1, modulo 100."""
    return int(prompt_hash(prompt)[:8], 16) % 100 < HOLDOUT_PERCENT


def _truth(value: str) -> float:
    text = value.strip().lower()
    if text in ("true", "1", "yes"):
        return 1.0
    if text in ("false", "0", "no", ""):
        return 0.0
    return float(text)


def _contaminated(path: Path) -> set[str]:
    if not path.is_file():
        return set()
    with path.open(encoding="utf-8") as handle:
        return {json.loads(line)["eval_prompt"] for line in handle if line.strip()}


def _read_table(path: Path, dataset: str, subject: str, drop: set[str], weak: str, strong: str) -> list[Item]:
    csv.field_size_limit(10_000_000)
    with path.open(encoding="utf-8", newline="") as handle:
        return [
            Item(row["prompt"], dataset, subject, _truth(row[weak]), _truth(row[strong]))
            for row in csv.DictReader(handle)
            if row["prompt"] not in drop
        ]


def load_tables(data: Path, weak: str = WEAK, strong: str = STRONG) -> dict[str, list[Item]]:
    """Decontaminated items by dataset: ``gsm8k`` and ``mmlu`` (subject = file name)."""
    tables: dict[str, list[Item]] = {}
    gsm = data / "gsm8k_responses.csv"
    if gsm.is_file():
        tables["gsm8k"] = _read_table(gsm, "gsm8k", "gsm8k", _contaminated(data / "gsm8k_contaminated_prompts.jsonl"), weak, strong)
    mmlu_files = sorted((data / "mmlu").glob("mmlu_*.csv"))
    if mmlu_files:
        drop = _contaminated(data / "mmlu_contaminated_prompts.jsonl")
        tables["mmlu"] = [
            item
            for f in mmlu_files
            for item in _read_table(f, "mmlu", f.stem.removeprefix("mmlu_"), drop, weak, strong)
        ]
    for other in sorted(data.glob("*.csv")):
        if other.name != "gsm8k_responses.csv":
            tables[other.stem] = _read_table(other, other.stem, other.stem, set(), weak, strong)
    return tables


# --- metrics (shared with bench/eval_routing.py) -----------------------------------------


def pgr_curve(scores: Sequence[float], items: Sequence[Item]) -> list[float]:
    """PGR at every strong-call count k = 0..n, routing the k highest scores up.

    Ties are broken by prompt hash, so the curve is deterministic."""
    n = len(items)
    weak_q = sum(i.weak for i in items) / n
    strong_q = sum(i.strong for i in items) / n
    gap = strong_q - weak_q
    order = sorted(range(n), key=lambda j: (-scores[j], prompt_hash(items[j].prompt)))
    curve = [0.0]
    gain = 0.0
    for j in order:
        gain += items[j].strong - items[j].weak
        curve.append((gain / n) / gap if gap else 0.0)
    return curve


def apgr(curve: Sequence[float]) -> float:
    return sum(curve) / len(curve)


def cpt(curve: Sequence[float], target: float) -> float:
    """Smallest strong-call fraction whose PGR reaches ``target``."""
    n = len(curve) - 1
    return next((k / n for k, value in enumerate(curve) if value >= target), 1.0)


# --- fitting -------------------------------------------------------------------------------


def label_weak_wrong(item: Item) -> float:
    return 1.0 - item.weak


def label_strong_better(item: Item) -> float:
    return 1.0 if item.strong > item.weak else 0.0


def label_gain(item: Item) -> float:
    return item.strong - item.weak


LABELS: dict[str, Callable[[Item], float]] = {
    "weak_wrong": label_weak_wrong,
    "strong_better": label_strong_better,
    "gain": label_gain,
    "gain_std": label_gain,  # standardised per dataset by ``targets``
}


def targets(items: Sequence[Item], label: str) -> list[float]:
    """The regression targets. ``gain_std`` standardises the gain within each dataset: the
    score then ranks questions *within* a kind of question and carries no offset between
    kinds, so the share a threshold sends up depends less on the mix of questions."""
    y = [LABELS[label](i) for i in items]
    if label != "gain_std":
        return y
    moments: dict[str, tuple[float, float]] = {}
    for dataset in {i.dataset for i in items}:
        values = [v for v, i in zip(y, items, strict=True) if i.dataset == dataset]
        mean = sum(values) / len(values)
        moments[dataset] = (mean, math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)) or 1.0)
    return [(v - moments[i.dataset][0]) / moments[i.dataset][1] for v, i in zip(y, items, strict=True)]


@dataclass(frozen=True)
class Stats:
    """Sufficient statistics of a weighted ridge regression on standardised features (+ intercept)."""

    xtx: list[list[float]]
    xty: list[float]

    def __sub__(self, other: Stats) -> Stats:
        return Stats(
            [[a - b for a, b in zip(ra, rb, strict=True)] for ra, rb in zip(self.xtx, other.xtx, strict=True)],
            [a - b for a, b in zip(self.xty, other.xty, strict=True)],
        )


def standardiser(rows: Sequence[Sequence[float]]) -> tuple[list[float], list[float]]:
    n = len(rows)
    dims = len(rows[0])
    mean = [sum(r[d] for r in rows) / n for d in range(dims)]
    scale = [math.sqrt(sum((r[d] - mean[d]) ** 2 for r in rows) / n) or 1.0 for d in range(dims)]
    return mean, scale


def design(rows: Sequence[Sequence[float]], mean: Sequence[float], scale: Sequence[float]) -> list[list[float]]:
    return [[1.0, *((v - m) / s for v, m, s in zip(r, mean, scale, strict=True))] for r in rows]


def stats(x: Sequence[Sequence[float]], y: Sequence[float], w: Sequence[float]) -> Stats:
    try:  # the same sums, 100x faster, when numpy is at hand (training only: never the package)
        import numpy as np
    except ImportError:
        return _stats_python(x, y, w)
    a = np.asarray(x, dtype=float)
    wa = a * np.asarray(w, dtype=float)[:, None]
    return Stats((wa.T @ a).tolist(), (wa.T @ np.asarray(y, dtype=float)).tolist())


def _stats_python(x: Sequence[Sequence[float]], y: Sequence[float], w: Sequence[float]) -> Stats:
    dims = len(x[0])
    xtx = [[0.0] * dims for _ in range(dims)]
    xty = [0.0] * dims
    for row, target, weight in zip(x, y, w, strict=True):
        nz = [(i, v * weight) for i, v in enumerate(row) if v]
        for i, wv in nz:
            xty[i] += wv * target
            out = xtx[i]
            for j, v in enumerate(row):
                if v:
                    out[j] += wv * v
    return Stats(xtx, xty)


def solve(s: Stats, ridge: float) -> list[float]:
    """Weights (intercept first) from the normal equations, by Gauss-Jordan elimination."""
    dims = len(s.xty)
    a = [[*row, s.xty[i]] for i, row in enumerate(s.xtx)]
    for i in range(1, dims):
        a[i][i] += ridge
    for col in range(dims):
        pivot = max(range(col, dims), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col] or 1e-12
        a[col] = [v / p for v in a[col]]
        for r in range(dims):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [v - f * c for v, c in zip(a[r], a[col], strict=True)]
    return [a[i][dims] for i in range(dims)]


def predict(weights: Sequence[float], x: Sequence[Sequence[float]]) -> list[float]:
    return [sum(w * v for w, v in zip(weights, row, strict=True)) for row in x]


def platt(raw: Sequence[float], y: Sequence[float], steps: int = 200) -> tuple[float, float]:
    """One-dimensional logistic fit p = sigmoid(a + b * raw), by Newton's method."""
    a, b = 0.0, 1.0
    for _ in range(steps):
        ga = gb = haa = hab = hbb = 0.0
        for r, t in zip(raw, y, strict=True):
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, a + b * r))))
            e = p - t
            v = p * (1.0 - p)
            ga += e
            gb += e * r
            haa += v
            hab += v * r
            hbb += v * r * r
        det = haa * hbb - hab * hab
        if abs(det) < 1e-12:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) + abs(db) < 1e-9:
            break
    return a, b


def sample_weights(items: Sequence[Item], balance: bool) -> list[float]:
    """With ``balance``, each dataset weighs the same in total (MMLU would otherwise drown GSM8K)."""
    if not balance:
        return [1.0] * len(items)
    sizes: dict[str, int] = {}
    for item in items:
        sizes[item.dataset] = sizes.get(item.dataset, 0) + 1
    mean_size = len(items) / len(sizes)
    return [mean_size / sizes[i.dataset] for i in items]


@dataclass
class Setup:
    label: str = "gain_std"
    ridge: float = RIDGE
    balance: bool = True


def out_of_fold(items: Sequence[Item], x: list[list[float]], groups: Sequence[str], setup: Setup) -> list[float]:
    """Raw scores where each item is scored by a model fitted without its group."""
    y = targets(items, setup.label)
    w = sample_weights(items, setup.balance)
    total = stats(x, y, w)
    by_group: dict[str, list[int]] = {}
    for j, g in enumerate(groups):
        by_group.setdefault(g, []).append(j)
    scores = [0.0] * len(items)
    for members in by_group.values():
        held = stats([x[j] for j in members], [y[j] for j in members], [w[j] for j in members])
        weights = solve(total - held, setup.ridge)
        for j, s in zip(members, predict(weights, [x[j] for j in members]), strict=True):
            scores[j] = s
    return scores


@dataclass(frozen=True)
class Component:
    """One linear model of the shipped score: its label, ridge and the features it may use."""

    name: str
    setup: Setup
    features: tuple[str, ...]


COMPONENTS = (
    # the first shipped score: structure only, raw gain (ridge 3)
    Component("structure", Setup("gain", 3.0, True), STRUCTURE_FEATURES),
    # the second: + stem and option shape, gain standardised per dataset (ridge 30)
    Component("shape", Setup("gain_std", 30.0, True), FEATURE_NAMES),
)
GATE_FEATURE = "choices"
BLEND = {"closed": (0.0, 1.0), "open": (0.25, 0.75)}
"""Weights of the components' standardised scores: multiple choice (``closed``) takes the shape model
alone; open questions (word problems, and prompts like neither data set) blend the structure model in.
Chosen by a rule fixed before the run (see --compare): the largest structure weight (of 0.5, 0.35,
0.3, 0.25) whose 10-fold APGR still meets 0.65 on GSM8K and MMLU, leave-subject-out no worse than the
shape model's; the sanity set's AUC then only confirms (every blend is within its noise, ~0.87-0.90)."""


def _columns(names: Sequence[str]) -> list[int]:
    return [0, *(1 + FEATURE_NAMES.index(n) for n in names)]


def component_oof(items: Sequence[Item], x: list[list[float]], groups: Sequence[str], comp: Component) -> list[float]:
    """Out-of-fold scores of one component, standardised by its training folds' (balanced) spread,
    so components can be blended without any held-out question informing the scale."""
    cols = _columns(comp.features)
    xs = [[row[c] for c in cols] for row in x]
    y = targets(items, comp.setup.label)
    w = sample_weights(items, comp.setup.balance)
    total = stats(xs, y, w)
    by_group: dict[str, list[int]] = {}
    for j, g in enumerate(groups):
        by_group.setdefault(g, []).append(j)
    scores = [0.0] * len(items)
    for members in by_group.values():
        train = total - stats([xs[j] for j in members], [y[j] for j in members], [w[j] for j in members])
        weights = solve(train, comp.setup.ridge)
        center, spread = _spread(train, weights)
        for j, s in zip(members, predict(weights, [xs[j] for j in members]), strict=True):
            scores[j] = (s - center) / spread
    return scores


def _spread(s: Stats, weights: Sequence[float]) -> tuple[float, float]:
    """Weighted mean and standard deviation of a linear model's predictions, from the fit's statistics."""
    total = s.xtx[0][0]
    mean = sum(w * v for w, v in zip(weights, s.xtx[0], strict=True)) / total
    second = sum(wi * sum(wj * v for wj, v in zip(weights, row, strict=True)) for wi, row in zip(weights, s.xtx, strict=True))
    return mean, math.sqrt(max(second / total - mean * mean, 1e-12))


def blend(parts: Sequence[Sequence[float]], closed: Sequence[bool], weights: dict[str, tuple[float, ...]]) -> list[float]:
    out = []
    for j, is_closed in enumerate(closed):
        mix = weights["closed" if is_closed else "open"]
        out.append(sum(m * p[j] for m, p in zip(mix, parts, strict=True)))
    return out


def is_closed(rows: Sequence[Sequence[float]]) -> list[bool]:
    gate = FEATURE_NAMES.index(GATE_FEATURE)
    return [r[gate] >= 0.5 for r in rows]


def shipped_oof(items: Sequence[Item], rows: list[list[float]], groups: Sequence[str]) -> list[float]:
    """Out-of-fold scores of the shipped recipe (every component refitted without each group)."""
    mean, scale = standardiser(rows)
    x = design(rows, mean, scale)
    parts = [component_oof(items, x, groups, c) for c in COMPONENTS]
    return blend(parts, is_closed(rows), BLEND)


def kfold_groups(items: Sequence[Item], k: int) -> list[str]:
    return [f"fold{int(prompt_hash(i.prompt)[8:16], 16) % k}" for i in items]


def subject_groups(items: Sequence[Item], k: int) -> list[str]:
    """MMLU: one group per subject; other datasets: k folds."""
    return [i.subject if i.dataset == "mmlu" else f"fold{int(prompt_hash(i.prompt)[8:16], 16) % k}" for i in items]


def report(title: str, items: Sequence[Item], scores: Sequence[float]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for dataset in sorted({i.dataset for i in items}):
        idx = [j for j, i in enumerate(items) if i.dataset == dataset]
        curve = pgr_curve([scores[j] for j in idx], [items[j] for j in idx])
        out[dataset] = {"n": len(idx), "apgr": apgr(curve), "cpt50": cpt(curve, 0.5), "cpt80": cpt(curve, 0.8)}
        print(
            f"  {title:<28} {dataset:<8} n={len(idx):>5}  APGR {out[dataset]['apgr']:.3f}  "
            f"CPT(50%) {out[dataset]['cpt50']:.3f}  CPT(80%) {out[dataset]['cpt80']:.3f}"
        )
    return out


def featurise(items: Sequence[Item]) -> list[list[float]]:
    return [features(i.prompt) for i in items]


def fit_components(items: Sequence[Item], rows: list[list[float]]) -> tuple[list[float], list[float], list[dict[str, object]]]:
    """Fit every component on ``items``: the shared standardiser and, per component, full-length
    weights (zeros for the features it does not use) and the centre/spread that standardise it."""
    mean, scale = standardiser(rows)
    x = design(rows, mean, scale)
    fitted = []
    for comp in COMPONENTS:
        cols = _columns(comp.features)
        xs = [[row[c] for c in cols] for row in x]
        s = stats(xs, targets(items, comp.setup.label), sample_weights(items, comp.setup.balance))
        weights = solve(s, comp.setup.ridge)
        center, spread = _spread(s, weights)
        full = [0.0] * len(FEATURE_NAMES)
        for c, v in zip(cols[1:], weights[1:], strict=True):
            full[c - 1] = v
        fitted.append({"name": comp.name, "label": comp.setup.label, "ridge": comp.setup.ridge,
                       "bias": weights[0], "weights": full, "center": center, "spread": spread})
    return mean, scale, fitted


def combined(rows: Sequence[Sequence[float]], mean: Sequence[float], scale: Sequence[float],
             fitted: Sequence[dict[str, object]], weights: dict[str, tuple[float, ...]] = BLEND) -> list[float]:
    """The blended raw score of fitted components (what ``router.difficulty`` computes before squashing)."""
    x = design(rows, mean, scale)
    parts = []
    for f in fitted:
        w = [f["bias"], *f["weights"]]  # type: ignore[misc]
        parts.append([(p - f["center"]) / f["spread"] for p in predict(w, x)])  # type: ignore[operator]
    return blend(parts, is_closed(rows), weights)


def fit_shipped(items: Sequence[Item], rows: list[list[float]]) -> dict[str, object]:
    mean, scale, fitted = fit_components(items, rows)
    blended = combined(rows, mean, scale, fitted)
    closed = is_closed(rows)
    branch = {}
    for name, flag in (("closed", True), ("open", False)):
        values = [v for v, c in zip(blended, closed, strict=True) if c is flag] or [0.0, 1.0]
        center = sum(values) / len(values)
        branch[name] = (center, math.sqrt(sum((v - center) ** 2 for v in values) / len(values)) or 1.0)
    # Each branch standardised on its own questions: no offset between multiple choice and open
    # questions is learnt from which data set happened to hold which, so a share calibrated with the
    # data sets weighing the same lands near the target within each of them too.
    raw = [(v - branch["closed" if c else "open"][0]) / branch["closed" if c else "open"][1]
           for v, c in zip(blended, closed, strict=True)]
    a, b = platt(raw, [label_strong_better(i) for i in items])
    scores = [1.0 / (1.0 + math.exp(-(a + b * r))) for r in raw]
    quantiles = weighted_quantiles(scores, sample_weights(items, True), CALIBRATION_POINTS)
    return {
        "version": 2,
        "about": "router.difficulty parameters; written by bench/train_difficulty.py",
        "features": list(FEATURE_NAMES),
        "mean": [round(v, 6) for v in mean],
        "scale": [round(v, 6) for v in scale],
        "components": [
            {**f, "bias": round(f["bias"], 6), "center": round(f["center"], 6), "spread": round(f["spread"], 6),  # type: ignore[arg-type]
             "weights": [round(v, 6) for v in f["weights"]]}  # type: ignore[union-attr]
            for f in fitted
        ],
        "gate": {"feature": GATE_FEATURE, "closed": list(BLEND["closed"]), "open": list(BLEND["open"]),
                 "standardise": {k: [round(v[0], 6), round(v[1], 6)] for k, v in branch.items()}},
        "squash": [round(a, 6), round(b, 6)],
        "calibration": [round(v, 6) for v in quantiles],
        "calibration_weighting": "each dataset weighs the same (robust to the mix of questions)",
        "balance": True,
        "trained_on": {d: sum(1 for i in items if i.dataset == d) for d in sorted({i.dataset for i in items})},
        "holdout": {
            "rule": f"int(sha1(prompt)[:8], 16) % 100 < {HOLDOUT_PERCENT}",
            "percent": HOLDOUT_PERCENT,
            "note": "questions in the holdout were used neither to fit nor to calibrate these parameters",
        },
    }


def load_sanity(path: Path = SANITY) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def auc(scores: Sequence[float], hard: Sequence[bool]) -> float:
    """Probability that a hard prompt scores above an easy one (ties count half)."""
    pos = [s for s, h in zip(scores, hard, strict=True) if h]
    neg = [s for s, h in zip(scores, hard, strict=True) if not h]
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


CANDIDATES: dict[str, dict[str, tuple[float, ...]]] = {
    "structure only (v1)": {"closed": (1.0, 0.0), "open": (1.0, 0.0)},
    "shape only (v2)": {"closed": (0.0, 1.0), "open": (0.0, 1.0)},
    "mean of both": {"closed": (0.5, 0.5), "open": (0.5, 0.5)},
    "MC: v2; open: 0.5 v1 + 0.5 v2": {"closed": (0.0, 1.0), "open": (0.5, 0.5)},
    "MC: v2; open: 0.35 v1 + 0.65 v2": {"closed": (0.0, 1.0), "open": (0.35, 0.65)},
    "MC: v2; open: 0.3 v1 + 0.7 v2": {"closed": (0.0, 1.0), "open": (0.3, 0.7)},
    "MC: v2; open: 0.25 v1 + 0.75 v2": {"closed": (0.0, 1.0), "open": (0.25, 0.75)},
}


def compare(items: Sequence[Item], rows: list[list[float]], folds: int) -> None:
    """Every candidate blend: k-fold and leave-subject-out APGR (out-of-fold for every component), and
    the AUC on the open-ended sanity set of the candidate fitted like the shipped file."""
    mean, scale = standardiser(rows)
    x = design(rows, mean, scale)
    closed = is_closed(rows)
    oof = {g: [component_oof(items, x, groups, c) for c in COMPONENTS]
           for g, groups in (("cv", kfold_groups(items, folds)), ("lso", subject_groups(items, folds)))}
    keep = [j for j, i in enumerate(items) if not in_holdout(i.prompt)]
    fm, fs, fitted = fit_components([items[j] for j in keep], [rows[j] for j in keep])
    sanity = load_sanity()
    srows = [features(r["prompt"]) for r in sanity]
    hard = [r["label"] == "hard" for r in sanity]
    print(f"{'candidate':<34} {'GSM8K CV':>9} {'MMLU CV':>8} {'MMLU LSO':>9} {'sanity AUC':>11} (en / zh)")
    for name, mix in CANDIDATES.items():
        figs = []
        for g, dataset in (("cv", "gsm8k"), ("cv", "mmlu"), ("lso", "mmlu")):
            scores = blend(oof[g], closed, mix)
            idx = [j for j, i in enumerate(items) if i.dataset == dataset]
            figs.append(apgr(pgr_curve([scores[j] for j in idx], [items[j] for j in idx])))
        sc = combined(srows, fm, fs, fitted, mix)
        by = {lang: auc([s for s, r in zip(sc, sanity, strict=True) if r["lang"] == lang],
                        [h for h, r in zip(hard, sanity, strict=True) if r["lang"] == lang]) for lang in ("en", "zh")}
        print(f"{name:<34} {figs[0]:>9.4f} {figs[1]:>8.4f} {figs[2]:>9.4f} {auc(sc, hard):>11.3f} ({by['en']:.3f} / {by['zh']:.3f})")


def weighted_quantiles(values: Sequence[float], weights: Sequence[float], points: int) -> list[float]:
    """``points`` evenly spaced quantiles (0 to 1) of a weighted sample, by the weighted CDF."""
    pairs = sorted(zip(values, weights, strict=True))
    total = sum(w for _, w in pairs)
    out, seen, k = [], 0.0, 0
    for q in range(points):
        target = q / (points - 1) * total
        while k < len(pairs) - 1 and seen + pairs[k][1] < target:
            seen += pairs[k][1]
            k += 1
        out.append(pairs[k][0])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=default_data_dir())
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--compare", action="store_true", help="cross-validate every candidate blend, with sanity AUC")
    args = parser.parse_args()

    tables = load_tables(args.data)
    items = [i for name in ("gsm8k", "mmlu") for i in tables.get(name, [])]
    print(f"data: {args.data}  " + "  ".join(f"{d}={len(tables[d])}" for d in tables) + " (decontaminated)")
    rows = featurise(items)
    if args.compare:
        compare(items, rows, args.folds)
    print("shipped recipe: " + ", ".join(f"{c.name} ({c.setup.label}, ridge {c.setup.ridge}, {len(c.features)} features)"
                                         for c in COMPONENTS) + f"; blend {BLEND}")
    report(f"{args.folds}-fold CV", items, shipped_oof(items, rows, kfold_groups(items, args.folds)))
    report("leave-subject-out (MMLU)", items, shipped_oof(items, rows, subject_groups(items, args.folds)))

    fit_items = [i for i in items if not in_holdout(i.prompt)]
    hold_items = [i for i in items if in_holdout(i.prompt)]
    model = fit_shipped(fit_items, [rows[j] for j, i in enumerate(items) if not in_holdout(i.prompt)])
    print(f"shipped fit: {len(fit_items)} questions; holdout kept out: {len(hold_items)}")
    if not args.no_write:
        OUTPUT.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {OUTPUT.relative_to(REPO)} ({OUTPUT.stat().st_size / 1024:.0f} KiB)")
        write_holdout_fixture(hold_items)


def write_holdout_fixture(hold_items: Sequence[Item]) -> None:
    """A deterministic sample of the holdout for the tests (RouteLLM's tables are Apache-2.0)."""
    sample = sorted(hold_items, key=lambda i: prompt_hash(i.prompt))[:HOLDOUT_FIXTURE_SIZE]
    with HOLDOUT_FIXTURE.open("w", encoding="utf-8") as handle:
        for i in sample:
            record = {"prompt": i.prompt, "dataset": i.dataset, "subject": i.subject, "weak": i.weak, "strong": i.strong}
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(f"wrote {HOLDOUT_FIXTURE.relative_to(REPO)} ({len(sample)} holdout questions)")


if __name__ == "__main__":
    main()
