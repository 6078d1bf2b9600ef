"""Parser corpus for router/loop/textcalls.py from real function-calling data (BFCL).

The ``bfcl-eval`` wheel ships the Berkeley Function Calling Leaderboard's questions and
ground-truth calls as JSON (Apache-2.0). We download the wheel with ``pip download --no-deps``
(never install it), read only the JSON files of the simple, multiple, parallel and
parallel-multiple categories, render every ground-truth call in each text format a server
without a tool parser may return, and recover it with that question's tools offered.

Figures printed:
- exact-match rate per format (names and arguments equal after JSON normalisation);
- false positives: the model answers of ../shared/datasets/routellm/gsm8k_responses.csv run
  through the parser with every BFCL tool plus the router's built-in tools offered.

    python bench/textcalls_corpus.py --cache ~/.cache/router-bench
    python bench/textcalls_corpus.py --cache DIR --live            # also BFCL's "live" categories
    python bench/textcalls_corpus.py --cache DIR --write-sample tests/data/bfcl_textcalls_sample.jsonl
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from router.loop.textcalls import recover_tool_calls  # noqa: E402

BFCL_VERSION = "2026.3.23"
CATEGORIES = ("simple_python", "multiple", "parallel", "parallel_multiple")
LIVE_CATEGORIES = ("live_simple", "live_multiple", "live_parallel", "live_parallel_multiple")
SHARED = Path(os.environ.get("ROUTER_SHARED_DIR") or REPO.parent / "shared")  # CI: shared/ beside the clone
GSM8K = SHARED / "datasets" / "routellm" / "gsm8k_responses.csv"
SOURCE_NOTE = (
    "Rendered from the Berkeley Function Calling Leaderboard (BFCL) data shipped in the bfcl-eval "
    f"wheel {BFCL_VERSION} (https://github.com/ShishirPatil/gorilla, Apache-2.0) by bench/textcalls_corpus.py"
)

Call = tuple[str, dict[str, Any]]


# --- data ----------------------------------------------------------------------------------------


def wheel_path(cache: Path) -> Path:
    """The pinned bfcl-eval wheel in ``cache``, downloaded (not installed) on first use."""
    cache.mkdir(parents=True, exist_ok=True)
    wheel = cache / f"bfcl_eval-{BFCL_VERSION}-py3-none-any.whl"
    if not wheel.exists():
        command = [sys.executable, "-m", "pip", "download", "--no-deps", f"bfcl-eval=={BFCL_VERSION}", "-d", str(cache)]
        subprocess.run(command, check=True)
    return wheel


def _json_lines(archive: zipfile.ZipFile, name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in archive.read(name).decode("utf-8").splitlines() if line.strip()]


def _first_possible(values: Any) -> tuple[bool, Any]:
    """(present, value): BFCL lists acceptable values; "" (or nothing) first means "may be omitted"."""
    if not isinstance(values, list) or not values or values[0] == "":
        return False, None
    value = values[0]
    if isinstance(value, dict):  # nested objects list acceptable values per key as well
        value = _resolve(value)
    return True, value


def _resolve(ground_truth_args: dict[str, Any]) -> dict[str, Any]:
    resolved = {}
    for key, values in ground_truth_args.items():
        present, value = _first_possible(values)
        if present:
            resolved[key] = value
    return resolved


def load_questions(wheel: Path, categories: tuple[str, ...]) -> Iterator[tuple[str, dict[str, dict], list[Call]]]:
    """(id, tools offered {name: parameters schema}, ground-truth calls) per question."""
    with zipfile.ZipFile(wheel) as archive:
        for category in categories:
            questions = _json_lines(archive, f"bfcl_eval/data/BFCL_v4_{category}.json")
            answers = {
                a["id"]: a for a in _json_lines(archive, f"bfcl_eval/data/possible_answer/BFCL_v4_{category}.json")
            }
            for question in questions:
                tools = {fn["name"]: fn["parameters"] for fn in question["function"]}
                calls = [
                    (name, _resolve(args))
                    for item in answers[question["id"]]["ground_truth"]
                    for name, args in item.items()
                ]
                yield question["id"], tools, calls


def builtin_tools() -> dict[str, dict]:
    from router.tools.registry import ToolRegistry

    return {s["function"]["name"]: s["function"]["parameters"] for s in ToolRegistry.default().schemas()}


def gsm8k_answers(path: Path = GSM8K) -> list[str]:
    """Every model answer in the file (the columns ending in ``_response``)."""
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        columns = [c for c in reader.fieldnames or [] if c.endswith("_response")]
        return [row[c] for row in reader for c in columns if row[c] and row[c].strip()]


# --- rendering -----------------------------------------------------------------------------------


def _json(value: Any, **kwargs: Any) -> str:
    return json.dumps(value, ensure_ascii=False, **kwargs)


def _py(value: Any, quote: str = '"') -> str:
    """A Python literal as a model writes it: double-quoted strings, or Python's own repr (single)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, str):
        return _json(value) if quote == '"' else repr(value)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_py(v, quote) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_py(k, quote)}: {_py(v, quote)}" for k, v in value.items()) + "}"
    raise TypeError(type(value))


def _objects(calls: list[Call], key: str = "arguments") -> list[dict[str, Any]]:
    return [{"name": name, key: args} for name, args in calls]


def _one_or_list(calls: list[Call], key: str = "arguments") -> Any:
    objects = _objects(calls, key)
    return objects[0] if len(objects) == 1 else objects


# Each renderer takes the calls and a variant number (the question's index), so the corpus also
# covers the usual small differences between models and chat templates of the same format.


def render_hermes(calls: list[Call], variant: int) -> str:
    blocks = [f"<tool_call>\n{_json(o)}\n</tool_call>" for o in _objects(calls)]
    if variant % 2:  # generation stopped before the closing tag
        blocks[-1] = blocks[-1].removesuffix("</tool_call>")
    lead = "I'll use the tools for this.\n" if variant % 3 == 0 else ""
    return lead + "\n".join(blocks)


def render_mistral(calls: list[Call], variant: int) -> str:
    return (
        ("[TOOL_CALLS] " if variant % 2 else "[TOOL_CALLS]")
        + _json(_objects(calls))
        + ("</s>" if variant % 3 == 0 else "")
    )


def render_mistral_args(calls: list[Call], variant: int) -> str:
    call_id = "[CALL_ID]a1b2c3d4e" if variant % 2 else ""
    return "".join(f"[TOOL_CALLS]{n}{call_id}[ARGS]{_json(a)}" for n, a in calls)


def render_json(calls: list[Call], variant: int) -> str:
    text = _json(
        _one_or_list(calls, "parameters" if variant % 2 else "arguments"), indent=2 if variant % 4 == 0 else None
    )
    return ("<|python_tag|>" + text) if variant % 3 == 0 else text


def render_fenced_json(calls: list[Call], variant: int) -> str:
    fence = "```json\n" if variant % 2 == 0 else "```\n"
    return "\n" + fence + _json(_one_or_list(calls), indent=2) + "\n```\n"


def _python_call(call: Call, quote: str) -> str:
    name, args = call
    return f"{name}(" + ", ".join(f"{k}={_py(v, quote)}" for k, v in args.items()) + ")"


def render_python(calls: list[Call], variant: int) -> str:
    quote = "'" if variant % 2 else '"'
    texts = [_python_call(call, quote) for call in calls]
    if len(texts) == 1:
        body = texts[0]
    else:
        body = "\n".join(texts) if variant % 4 == 1 else "[" + ", ".join(texts) + "]"
    return f"```tool_code\n{body}\n```" if variant % 3 == 0 else body


RENDERERS: dict[str, Callable[[list[Call], int], str]] = {
    "hermes": render_hermes,
    "mistral": render_mistral,
    "mistral_args": render_mistral_args,
    "json": render_json,
    "fenced_json": render_fenced_json,
    "python": render_python,
}
EXPECTED_FORMAT = {"mistral_args": "mistral"}


def recovered_exactly(content: str, tools: dict[str, dict], calls: list[Call], fmt: str) -> bool:
    found = recover_tool_calls(content, tools)
    if found is None or found.format != EXPECTED_FORMAT.get(fmt, fmt) or len(found.calls) != len(calls):
        return False
    return all(
        got.name == name and json.loads(got.arguments) == json.loads(_json(args))
        for got, (name, args) in zip(found.calls, calls, strict=True)
    )


# --- main ----------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--cache", type=Path, required=True, help="directory holding (or receiving) the bfcl-eval wheel"
    )
    parser.add_argument(
        "--gsm8k", type=Path, default=GSM8K, help=f"answers for the false-positive count (default {GSM8K})"
    )
    parser.add_argument("--live", action="store_true", help="also BFCL's live_* categories")
    parser.add_argument("--write-sample", type=Path, help="write a sample of rendered cases as JSON lines")
    parser.add_argument("--sample-size", type=int, default=150)
    parser.add_argument("--show-failures", type=int, default=3)
    options = parser.parse_args()

    categories = CATEGORIES + (LIVE_CATEGORIES if options.live else ())
    questions = list(load_questions(wheel_path(options.cache), categories))
    total_calls = sum(len(calls) for _, _, calls in questions)
    print(f"BFCL {BFCL_VERSION} {', '.join(categories)}: {len(questions)} questions, {total_calls} ground-truth calls")

    worst = 1.0
    for fmt, render in RENDERERS.items():
        ok_calls = bad = 0
        failures: list[str] = []
        for index, (qid, tools, calls) in enumerate(questions):
            content = render(calls, index)
            if recovered_exactly(content, tools, calls, fmt):
                ok_calls += len(calls)
            else:
                bad += 1
                failures.append(f"    {qid}: {content[:160]!r}")
        rate = ok_calls / total_calls
        worst = min(worst, rate)
        print(f"  {fmt:<13} exact {ok_calls}/{total_calls} = {rate:.2%} ({bad} questions failed)")
        for line in failures[: options.show_failures]:
            print(line)

    tools_offered: dict[str, dict] = {}
    for _, tools, _ in questions:
        tools_offered.update(tools)
    tools_offered.update(builtin_tools())
    answers = gsm8k_answers(options.gsm8k)
    false_positives = [a for a in answers if recover_tool_calls(a, tools_offered) is not None]
    print(
        f"false positives: {len(false_positives)}/{len(answers)} gsm8k answers "
        f"({len(tools_offered)} tools offered: all BFCL tools above + built-ins)"
    )
    for answer in false_positives[: options.show_failures]:
        print(f"    {answer[:160]!r}")

    if options.write_sample:
        write_sample(options.write_sample, questions, options.sample_size)
    return 0 if worst >= 0.995 and not false_positives else 1


def write_sample(path: Path, questions: list[tuple[str, dict, list[Call]]], size: int) -> None:
    """Every format of evenly spaced questions (all categories), with a provenance header line."""
    per_question = len(RENDERERS)
    wanted = max(1, size // per_question)
    step = max(1, len(questions) // wanted)
    lines = [_json({"_meta": SOURCE_NOTE})]
    for index, (qid, tools, calls) in list(enumerate(questions))[::step][:wanted]:
        for fmt, render in RENDERERS.items():
            case = {
                "id": qid,
                "format": EXPECTED_FORMAT.get(fmt, fmt),
                "content": render(calls, index),
                "tools": tools,
                "expected": [{"name": n, "arguments": a} for n, a in calls],
            }
            lines.append(_json(case))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines) - 1} cases to {path}")


if __name__ == "__main__":
    raise SystemExit(main())
