"""Hostile input against the parsers that read untrusted text, all measured in one run.

Three readers see text nobody vetted: the text-ReAct parser (model replies), the
providers.yaml loader (a config in the working directory is loaded
automatically) and the calculator (expressions written by a model). For each,
a normal input is the baseline; every hostile input is timed (worst of
``--repeats`` runs) and its peak Python memory taken with tracemalloc. Prints
every figure, the worst time and peak memory over all hostile inputs, and their
ratio to the slowest baseline, and the process's peak RSS (which also covers
memory tracemalloc cannot see, such as libyaml's). Targets (asserted here, never in unit tests):
worst hostile input <= 0.5 s and <= 64 MB peak. Exit status 1 when missed.

Issue 18 adds, each in its own function: config files that are no files (``/dev/zero``,
a FIFO, a 200 MB sparse ``.env``: item 17, timed and traced like the rest) and hung sync
tools (item 16: a healthy tool's calls after 200 abandoned calls of a hung one, against
the same calls with nothing hung; target: every healthy call succeeds, p50 within 2x).

    python bench/hostile_inputs.py [--repeats 3] [--gateway]

``--gateway`` also runs hostile callers against a running gateway (issue 18, items 3-6 and 8:
slow bodies, 4,000 model names, 64 MB headers, 100 MB upstream replies, 140,000 messages, lone
surrogates, 100,000-deep JSON): see ``bench/gateway_attacks.py``, about a minute.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from router.config import MAX_CONFIG_BYTES, MAX_NODES, parse_config  # noqa: E402
from router.errors import ConfigError  # noqa: E402
from router.loop.text_react import parse_react  # noqa: E402
from router.tools.builtin import calculator  # noqa: E402

TIME_TARGET_S = 0.5
MEMORY_TARGET_MB = 64.0
PARAMS = {"calculator": ["expression"], "get_weather": ["city"]}


def _laughs(levels: int) -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, levels):
        refs = ",".join([f"*a{level - 1}"] * 9)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "\n".join(lines) + "\n"


def _many_keys(count: int) -> str:
    body = "".join(f"  k{i}: {i}\n" for i in range(count))
    return "default: x\nproviders:\n" + body


def parser_inputs() -> dict[str, str]:
    return {
        "unclosed fence + 20k spaces": "Action: calculator\nAction Input: ```" + " " * 20_000 + "1+1",
        "unclosed fence + 20k newlines": "Action: calculator\nAction Input: ```json\n" + "\n" * 20_000 + "x",
        "final answer fence + 50k spaces": "Final Answer: ```" + " " * 50_000 + "8760",
        "1 MB of markers": "Thought: x\n" * 90_000,
        "1 MB of backticks": "`" * 1_000_000,
        "deep braces": "Action: calculator\nAction Input: " + "{" * 15_000 + "}" * 15_000,
        "deep brackets": "Action: calculator\nAction Input: " + "[" * 15_000,
        "pairs without end": "Action: get_weather\nAction Input: " + "city=" * 3_000,
        "stars and colons": "*" * 30_000 + ":" + "_" * 30_000,
    }


def yaml_inputs() -> dict[str, str]:
    return {
        "billion laughs (409 B style)": _laughs(9),
        "recursive anchor": "default: &x [*x]\n",
        "complex key": "? [x, y]\n: 1\n",
        "1 MB flow nesting": "[" * (MAX_CONFIG_BYTES // 2 - 10) + "]" * (MAX_CONFIG_BYTES // 2 - 10),
        "1 MB of keys": _many_keys(MAX_CONFIG_BYTES // 18),
        "just under the value cap": _many_keys(MAX_NODES // 2 - 10),
        "1 MB string as default": "default: " + "a" * (MAX_CONFIG_BYTES - 100) + "\nproviders: {m: {client: mock, models: [{id: x}]}}\n",
        "5,000-digit int": "default: " + "9" * 5_000 + "\n",
        "just over 1 MB": "#" * (MAX_CONFIG_BYTES + 1),
        ".inf timeouts": (REPO / "providers.yaml").read_text(encoding="utf-8").replace("timeout_s: 60", "timeout_s: .inf"),
    }


def calculator_inputs() -> dict[str, str]:
    return {
        "tower": "9**9**9**9",
        "huge power": "10**100000",
        "1000 parentheses": "(" * 1000 + "1" + ")" * 1000,
        "100 kB sum": "1+" * 50_000 + "1",
        "unary chain": "-" * 499 + "1",
        "flat sum at length limit": "+".join(["9"] * 250),
        "full-width expanding": "\ufdfa" * 400,
        "shift": "1 << 1000000",
    }


def config_file_inputs(folder: Path) -> dict[str, Callable[[], object]]:
    """Item 17: ``load_config`` on files that are no config files; each must end in a ConfigError at once."""
    import os

    from router.config import load_config

    fifo = folder / "providers.fifo"
    os.mkfifo(fifo)
    huge_env = folder / "huge-env"
    huge_env.mkdir()
    with open(huge_env / ".env", "wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # sparse: 200 MB to read, nothing on disk
    big = folder / "big.yaml"
    big.write_text("#" * (MAX_CONFIG_BYTES + 1), encoding="utf-8")

    def refused(path: str | Path, cwd: Path | None = None) -> None:
        previous = Path.cwd()
        if cwd is not None:
            os.chdir(cwd)
        try:
            load_config(path)
        except ConfigError:
            return
        finally:
            os.chdir(previous)
        raise AssertionError(f"{path} was loaded")

    return {
        "config: ROUTER_CONFIG=/dev/zero": lambda: refused("/dev/zero"),
        "config: a FIFO with no writer": lambda: refused(fifo),
        "config: a directory": lambda: refused(folder),
        "config: 1 MB + 1 byte": lambda: refused(big),
        "config: 200 MB sparse .env": lambda: refused(REPO / "providers.yaml", cwd=huge_env),
    }


def hung_tool_figures(hung_calls: int = 200, healthy_requests: int = 200) -> tuple[str, bool]:
    """Item 16: a healthy sync tool's calls while a hung one has abandoned ``hung_calls`` calls.

    Baseline: the same requests (one ``add`` call each, through ``run_tools``) with nothing hung,
    measured in this run. Returns (the printed line, target met)."""
    import statistics
    import threading

    from router.clients.mock import ScriptedLLM, text_response, tool_call_response
    from router.config import LoopSettings
    from router.loop.run import run_tools
    from router.loop.workers import MAX_ABANDONED_PER_TOOL, MAX_THREADS_PER_TOOL, abandoned_threads
    from router.tools.registry import ToolRegistry, tool

    release = threading.Event()

    @tool(timeout_s=0.02)
    def lookup(key: str) -> str:
        """Hangs until the bench ends."""
        release.wait(120)
        return key

    @tool
    def add(a: int, b: int) -> int:
        """Adds."""
        return a + b

    registry = ToolRegistry([lookup, add])
    question = [{"role": "user", "content": "x"}]

    def healthy() -> list[float]:
        times, ok = [], 0
        for i in range(healthy_requests):
            llm = ScriptedLLM([tool_call_response(("add", {"a": i, "b": 1})), text_response("ok")])
            started = time.perf_counter()
            answer = run_tools(llm, question, registry, max_steps=2)
            times.append(time.perf_counter() - started)
            ok += answer.tool_records[0].ok
        times.append(ok)
        return times

    try:
        healthy()  # warm-up: the core loop, imports
        *base, base_ok = healthy()
        threads_before = threading.active_count()
        calls = [("lookup", {"key": f"k{i}"}) for i in range(hung_calls)]  # asked in parallel, in one turn
        llm = ScriptedLLM([tool_call_response(*calls), text_response("ok")])
        run_tools(llm, question, registry, max_steps=2, settings=LoopSettings(max_calls_per_turn=hung_calls))
        held = abandoned_threads("lookup")
        *after, after_ok = healthy()
        threads = threading.active_count() - threads_before
    finally:
        release.set()
    ratio = statistics.median(after) / statistics.median(base)
    met = after_ok == healthy_requests and ratio <= 2.0
    line = (
        f"hung tool: {hung_calls} parallel calls of a hung sync tool, {held} threads held by it (at most "
        f"{MAX_THREADS_PER_TOOL}; refused once {MAX_ABANDONED_PER_TOOL} are abandoned), {threads} more threads alive; "
        f"healthy tool after: {after_ok}/{healthy_requests} ok "
        f"(baseline {base_ok}/{healthy_requests}), p50 {statistics.median(after) * 1000:.2f} ms vs "
        f"{statistics.median(base) * 1000:.2f} ms, ratio {ratio:.2f}x; target all ok and <= 2x {'OK' if met else 'MISSED'}"
    )
    return line, met


def _load_yaml(text: str) -> None:
    try:
        parse_config(text, "bench.yaml")
    except ConfigError:
        pass


def measure(fn: Callable[[], object], repeats: int) -> tuple[float, float]:
    """(worst seconds over ``repeats`` runs, peak MB of one traced run)."""
    worst = 0.0
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        worst = max(worst, time.perf_counter() - started)
    tracemalloc.start()
    try:
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return worst, peak / 1e6


def gateway_section() -> None:
    """Hostile callers against a gateway process (its own module: it starts servers)."""
    sys.path.insert(0, str(REPO / "bench"))
    from gateway_attacks import gateway_figures

    print("gateway (router serve in its own process, a local upstream):")
    for line in gateway_figures():
        print(f"  {line}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--gateway", action="store_true", help="also attack a running gateway (about a minute)")
    args = parser.parse_args()
    if args.gateway:
        gateway_section()

    normal_config = (REPO / "providers.yaml").read_text(encoding="utf-8")
    baselines: dict[str, Callable[[], object]] = {
        "parser: normal action": lambda: parse_react(
            'Thought: I need the calculator.\nAction: calculator\nAction Input: {"expression": "365*24"}', PARAMS
        ),
        "yaml: shipped providers.yaml": lambda: parse_config(normal_config, "providers.yaml"),
        "calculator: 365*24": lambda: calculator("365*24"),
    }
    hostile: dict[str, Callable[[], object]] = {}
    for name, text in parser_inputs().items():
        hostile[f"parser: {name}"] = lambda text=text: parse_react(text, PARAMS)
    for name, text in yaml_inputs().items():
        hostile[f"yaml: {name}"] = lambda text=text: _load_yaml(text)
    for name, text in calculator_inputs().items():
        hostile[f"calculator: {name}"] = lambda text=text: calculator(text)
    import tempfile

    scratch = tempfile.TemporaryDirectory()
    hostile.update(config_file_inputs(Path(scratch.name)))

    print(f"python {sys.version.split()[0]}, worst of {args.repeats} runs each, peak memory by tracemalloc")
    base_time = base_memory = 0.0
    for name, fn in baselines.items():
        seconds, megabytes = measure(fn, args.repeats)
        base_time, base_memory = max(base_time, seconds), max(base_memory, megabytes)
        print(f"baseline  {name:44s} {seconds * 1000:9.3f} ms {megabytes:8.3f} MB")
    worst_time = worst_memory = 0.0
    worst_time_name = worst_memory_name = ""
    for name, fn in hostile.items():
        seconds, megabytes = measure(fn, args.repeats)
        if seconds > worst_time:
            worst_time, worst_time_name = seconds, name
        if megabytes > worst_memory:
            worst_memory, worst_memory_name = megabytes, name
        print(f"hostile   {name:44s} {seconds * 1000:9.3f} ms {megabytes:8.3f} MB")
    time_ok = worst_time <= TIME_TARGET_S
    memory_ok = worst_memory <= MEMORY_TARGET_MB
    print(
        f"worst time:   {worst_time * 1000:.1f} ms ({worst_time_name}); slowest baseline {base_time * 1000:.3f} ms; "
        f"ratio {worst_time / max(base_time, 1e-9):.0f}x; target <= {TIME_TARGET_S * 1000:.0f} ms "
        f"{'OK' if time_ok else 'MISSED'}"
    )
    print(
        f"peak memory:  {worst_memory:.1f} MB ({worst_memory_name}); largest baseline {base_memory:.3f} MB; "
        f"ratio {worst_memory / max(base_memory, 1e-9):.0f}x; target <= {MEMORY_TARGET_MB:.0f} MB "
        f"{'OK' if memory_ok else 'MISSED'}"
    )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    print(f"process peak RSS over the whole run (C parser included): {rss:.0f} MB")
    scratch.cleanup()
    hung_line, hung_ok = hung_tool_figures()
    print(hung_line)
    return 0 if time_ok and memory_ok and hung_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
