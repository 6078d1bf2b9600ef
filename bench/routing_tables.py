"""Every routing table in shared/, as one list of prompts with a multi-model target and an evaluation pair.

Sources (the unit of leave-one-source-out): ``gsm8k`` and ``mmlu`` (RouteLLM's tables, two models),
``arena_bench_v1`` (15 models graded 1-10), ``h2o`` (15 models judged pairwise, 1-10 per side) and
``routerarena`` (2 models, 0/1 correctness). MMLU subjects are grouped (``MMLU_GROUPS``) so that a
group of subjects can be held out as a whole.

The *target* of a prompt says how much stronger models gain on it, using every model of its
source: the slope of the prompt's per-model score against each model's overall strength (its mean
over the source). A prompt that every weak model fails and every strong one passes has a steep
slope; with two models the slope is the strong-minus-weak difference. Targets are divided by their
spread within each source (not centred: a source whose prompts gain more keeps its higher level).

The *evaluation pair* is one strong and one weak model per source, whose per-prompt quality the
APGR curve uses (RouteLLM's metric): gpt-4-1106-preview / Mixtral-8x7B on GSM8K, MMLU and
arena_bench_v1, gpt-4-0314 / vicuna-33b on h2o, gemini-2.0-flash / claude-3-haiku on routerarena.
"""

from __future__ import annotations

import csv
import json
import math
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WEAK = "mistralai/Mixtral-8x7B-Instruct-v0.1"
STRONG = "gpt-4-1106-preview"

MMLU_GROUPS: dict[str, tuple[str, ...]] = {
    "mmlu:maths": ("abstract_algebra", "college_mathematics", "elementary_mathematics", "high_school_mathematics",
                   "high_school_statistics", "econometrics", "formal_logic"),
    "mmlu:science": ("anatomy", "astronomy", "college_biology", "college_chemistry", "college_physics",
                     "conceptual_physics", "high_school_biology", "high_school_chemistry", "high_school_physics",
                     "electrical_engineering", "college_computer_science", "high_school_computer_science",
                     "computer_security", "machine_learning", "virology", "nutrition", "human_aging",
                     "college_medicine", "clinical_knowledge", "medical_genetics", "professional_medicine"),
    "mmlu:humanities": ("high_school_european_history", "high_school_us_history", "high_school_world_history",
                        "prehistory", "philosophy", "world_religions", "moral_disputes", "moral_scenarios",
                        "logical_fallacies", "international_law", "jurisprudence", "professional_law"),
    "mmlu:social": ("high_school_geography", "high_school_government_and_politics", "high_school_macroeconomics",
                    "high_school_microeconomics", "high_school_psychology", "professional_psychology",
                    "human_sexuality", "sociology", "us_foreign_policy", "security_studies", "public_relations",
                    "marketing", "management", "business_ethics", "professional_accounting", "global_facts",
                    "miscellaneous"),
}
SOURCES = ("gsm8k", "mmlu", "arena_bench_v1", "h2o", "routerarena")


@dataclass(frozen=True)
class Row:
    prompt: str
    source: str
    """One of SOURCES."""
    group: str
    """The unit held out: the source, or ``mmlu:<group>`` for MMLU."""
    target: float
    weak: float
    strong: float
    """The evaluation pair's quality on this prompt (0..1)."""


def shared_dir() -> Path:
    for candidate in (REPO.parent / "shared" / "datasets", Path("/work/shared/datasets")):
        if candidate.is_dir():
            return candidate
    return REPO.parent / "shared" / "datasets"


def _truth(value: str) -> float:
    text = value.strip().lower()
    return 1.0 if text in ("true", "1", "1.0", "yes") else 0.0 if text in ("false", "0", "0.0", "no", "") else float(text)


def _slope(scores: dict[str, float], strength: dict[str, float]) -> float:
    models = [m for m in scores if m in strength]
    if len(models) < 2:
        return 0.0
    s_mean = sum(strength[m] for m in models) / len(models)
    y_mean = sum(scores[m] for m in models) / len(models)
    var = sum((strength[m] - s_mean) ** 2 for m in models)
    return sum((strength[m] - s_mean) * (scores[m] - y_mean) for m in models) / var if var else 0.0


def _routellm(data: Path) -> list[Row]:
    def contaminated(name: str) -> set[str]:
        path = data / name
        if not path.is_file():
            return set()
        return {json.loads(line)["eval_prompt"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}

    csv.field_size_limit(10_000_000)
    rows: list[Row] = []
    group_of = {subject: group for group, subjects in MMLU_GROUPS.items() for subject in subjects}
    gsm = data / "gsm8k_responses.csv"
    if gsm.is_file():
        drop = contaminated("gsm8k_contaminated_prompts.jsonl")
        with gsm.open(encoding="utf-8", newline="") as handle:
            for r in csv.DictReader(handle):
                if r["prompt"] not in drop:
                    weak, strong = _truth(r[WEAK]), _truth(r[STRONG])
                    rows.append(Row(r["prompt"], "gsm8k", "gsm8k", strong - weak, weak, strong))
    drop = contaminated("mmlu_contaminated_prompts.jsonl")
    for path in sorted((data / "mmlu").glob("mmlu_*.csv")):
        subject = path.stem.removeprefix("mmlu_")
        group = group_of.get(subject, "mmlu:social")
        with path.open(encoding="utf-8", newline="") as handle:
            for r in csv.DictReader(handle):
                if r["prompt"] not in drop:
                    weak, strong = _truth(r[WEAK]), _truth(r[STRONG])
                    rows.append(Row(r["prompt"], "mmlu", group, strong - weak, weak, strong))
    return rows


def _arena(path: Path) -> list[Row]:
    with path.open(encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    models = [k for k in table[0] if k not in ("question_id", "prompt")]
    grades = [{m: float(r[m]) for m in models if r[m] not in ("", None)} for r in table]
    strength = {m: sum(g[m] for g in grades if m in g) / max(1, sum(1 for g in grades if m in g)) for m in models}
    rows = []
    for r, g in zip(table, grades, strict=True):
        if "gpt-4-1106-preview" in g and "Mixtral-8x7B-Instruct-v0.1" in g:
            rows.append(Row(r["prompt"], "arena_bench_v1", "arena_bench_v1", _slope(g, strength),
                            g["Mixtral-8x7B-Instruct-v0.1"] / 10, g["gpt-4-1106-preview"] / 10))
    return rows


def _h2o(path: Path) -> list[Row]:
    with path.open(encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    per: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    prompts: dict[str, str] = {}
    for r in table:
        prompts[r["prompt_id"]] = r["prompt"]
        # Both positions of every pair are averaged: the judge favours the first-listed model.
        per[r["prompt_id"]][r["model_a"]].append(float(r["model_a_score"]))
        per[r["prompt_id"]][r["model_b"]].append(float(r["model_b_score"]))
    means = {p: {m: sum(v) / len(v) for m, v in d.items()} for p, d in per.items()}
    models = {m for d in means.values() for m in d}
    strength = {m: sum(d[m] for d in means.values() if m in d) / sum(1 for d in means.values() if m in d) for m in models}
    rows = []
    for p, d in means.items():
        if "gpt-4-0314" in d and "lmsys/vicuna-33b-v1.3" in d:
            rows.append(Row(prompts[p], "h2o", "h2o", _slope(d, strength), d["lmsys/vicuna-33b-v1.3"] / 10, d["gpt-4-0314"] / 10))
    return rows


def _routerarena(path: Path) -> list[Row]:
    with path.open(encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    rows = []
    for r in table:
        weak, strong = _truth(r["claude-3-haiku-20240307_score"]), _truth(r["gemini-2.0-flash-001_score"])
        rows.append(Row(r["prompt"], "routerarena", "routerarena", strong - weak, weak, strong))
    return rows


def load(data: Path | None = None) -> list[Row]:
    """Every source found under ``data`` (shared/datasets), targets scaled per source."""
    base = data or shared_dir()
    rows: list[Row] = []
    if (base / "routellm").is_dir():
        rows += _routellm(base / "routellm")
    opened = base / "routing-open"
    for name, reader in (("arena_bench_v1/scores_wide.csv", _arena), ("h2o_llm_eval/pairwise_gpt4_evals.csv", _h2o),
                         ("routerarena/scores_wide.csv", _routerarena)):
        if (opened / name).is_file():
            rows += reader(opened / name)
    spread: dict[str, float] = {}
    for source in {r.source for r in rows}:
        values = [r.target for r in rows if r.source == source]
        mean = sum(values) / len(values)
        spread[source] = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)) or 1.0
    return [Row(r.prompt, r.source, r.group, r.target / spread[r.source], r.weak, r.strong) for r in rows]


def mmlu_subjects(rows: list[Row], data: Path | None = None) -> dict[int, str]:
    """Row index -> MMLU subject (from the file each question came from), for MMLU rows."""
    base = (data or shared_dir()) / "routellm" / "mmlu"
    csv.field_size_limit(10_000_000)
    subject_of: dict[str, str] = {}
    for path in sorted(base.glob("mmlu_*.csv")):
        with path.open(encoding="utf-8", newline="") as handle:
            for r in csv.DictReader(handle):
                subject_of.setdefault(r["prompt"], path.stem.removeprefix("mmlu_"))
    return {j: subject_of[r.prompt] for j, r in enumerate(rows) if r.source == "mmlu" and r.prompt in subject_of}


def source_weights(rows: list[Row]) -> list[float]:
    """Each source weighs the same in total, whatever its number of prompts (MMLU's groups share MMLU's)."""
    counts: dict[str, int] = defaultdict(int)
    for r in rows:
        counts[r.source] += 1
    return [1.0 / counts[r.source] for r in rows]


__all__ = ["MMLU_GROUPS", "SOURCES", "Row", "load", "mmlu_subjects", "shared_dir", "source_weights"]
