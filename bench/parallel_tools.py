"""Do the calls of one turn really run in parallel? (and: is the calculator fast on hostile input?)

Five tools sleeping 200 ms each in ONE model turn vs a single such tool, both
driven by ScriptedLLM through ``run_tools`` in the same process; the ratio of the
medians should be <= 1.3 (sequential execution would give ~5).

    python bench/parallel_tools.py [--runs 7] [--calculator]

``--calculator`` also times the calculator on the issue's hostile inputs
(target: each returns an error within 50 ms).
"""

from __future__ import annotations

import argparse
import statistics
import time

from router.clients.mock import ScriptedLLM, text_response, tool_call_response
from router.loop.run import run_tools
from router.tools.builtin import calculator
from router.tools.registry import Tool, ToolRegistry

SLEEP_S = 0.2


def _registry() -> ToolRegistry:
    def make(index: int) -> Tool:
        def sleeper() -> str:
            time.sleep(SLEEP_S)
            return f"slept {index}"

        sleeper.__doc__ = f"Sleeps {SLEEP_S} s."
        return Tool(sleeper, name=f"sleep_{index}")

    return ToolRegistry([make(i) for i in range(5)])


def _one_run(registry: ToolRegistry, count: int) -> float:
    calls = [(f"sleep_{i}", {}) for i in range(count)]
    llm = ScriptedLLM([tool_call_response(*calls), text_response("done")])
    started = time.perf_counter()
    result = run_tools(llm, [{"role": "user", "content": "sleep"}], registry)
    elapsed = time.perf_counter() - started
    assert len(result.tool_records) == count and all(r.ok for r in result.tool_records)
    return elapsed


def bench_parallel(runs: int) -> float:
    registry = _registry()
    _one_run(registry, 1)  # warm-up: imports, pydantic model build
    single = [_one_run(registry, 1) for _ in range(runs)]
    five = [_one_run(registry, 5) for _ in range(runs)]
    single_median, five_median = statistics.median(single), statistics.median(five)
    ratio = five_median / single_median
    print(f"runs per case:              {runs}")
    print(f"1 tool x {SLEEP_S * 1000:.0f} ms, median:     {single_median * 1000:.1f} ms")
    print(f"5 tools x {SLEEP_S * 1000:.0f} ms (one turn): {five_median * 1000:.1f} ms")
    print(f"ratio 5/1:                  {ratio:.3f}  (target <= 1.3; sequential would be ~5)")
    return ratio


HOSTILE = {
    "9**9**9**9": "9**9**9**9",
    "10**100000": "10**100000",
    "1000 nested parentheses": "(" * 1000 + "1" + ")" * 1000,
    "__import__('os').system('id')": "__import__('os').system('id')",
    "().__class__.__bases__": "().__class__.__bases__",
    "100 kB expression": "1+" * 50_000 + "1",
    "10**299*10 (result bound)": "10**299*10",
    "(30 parens) deepest allowed": "(" * 30 + "2**3000" + ")" * 30,
}


def bench_calculator(runs: int) -> float:
    worst = 0.0
    for label, expression in HOSTILE.items():
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            result = calculator(expression)
            times.append(time.perf_counter() - started)
        worst = max(worst, max(times))
        outcome = result.get("error", result.get("result"))
        print(f"  {label:32s} max {max(times) * 1000:7.3f} ms  -> {str(outcome)[:60]}")
    print(f"calculator worst case: {worst * 1000:.3f} ms (target < 50 ms)")
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--calculator", action="store_true", help="also time the calculator on hostile input")
    args = parser.parse_args()
    bench_parallel(args.runs)
    if args.calculator:
        bench_calculator(args.runs)


if __name__ == "__main__":
    main()
