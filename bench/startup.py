"""Start-up cost, all measured in one run.

Prints the median wall time of bare Python, ``import router``, a full mock CLI
answer and (when the embedded model is installed) the no-key embedded answer to
"What is 365*24?", with the differences against bare Python. Targets: ``import
router`` <= 0.15 s above bare Python; the mock CLI answer <= 0.4 s in all; the
embedded answer <= 3 s in all, and it must say 8760.

``--instructions`` also counts the instructions each command executes (valgrind's
callgrind, one run each, a few seconds per command): a figure that another process on the
machine cannot move, for comparing two commits when the machine is busy.

    python bench/startup.py [--runs 15] [--instructions]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

COMMANDS = {
    "bare python": [sys.executable, "-c", "pass"],
    "import router": [sys.executable, "-c", "import router"],
    "mock CLI answer": [sys.executable, "-m", "router", "--provider", "mock", "hi"],
}
EMBEDDED = [sys.executable, "-m", "router", "What is 365*24?"]


CPU: dict[str, list[float]] = {}
"""CPU seconds (user + sys) of each run: far less sensitive than wall time to other work on the machine."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_once(command: list[str], env: dict[str, str], expect: str | None = None) -> float:
    cpu = _children_cpu()
    start = time.perf_counter()
    result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, check=False, timeout=120)
    elapsed = time.perf_counter() - start
    CPU.setdefault(" ".join(command), []).append(_children_cpu() - cpu)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {result.stderr.decode(errors='replace').strip()}")
    if expect is not None and expect not in result.stdout.decode(errors="replace"):
        raise SystemExit(f"{' '.join(command)} did not say {expect}: {result.stdout.decode(errors='replace')[:200]}")
    return elapsed


def instructions(command: list[str], env: dict[str, str]) -> int:
    """Instructions executed by ``command`` (callgrind's "I refs"); deterministic for a given build."""
    result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command], cwd=REPO,
                            env=env, capture_output=True, check=False, timeout=600)
    found = re.search(r"I\s+refs:\s+([\d,]+)", result.stderr.decode(errors="replace"))
    if result.returncode != 0 or found is None:
        raise SystemExit(f"valgrind {' '.join(command)} failed: {result.stderr.decode(errors='replace')[-300:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--instructions", action="store_true", help="also count instructions under valgrind (callgrind)")
    args = parser.parse_args()
    # PYTHONDONTWRITEBYTECODE would make every run compile router's sources anew (the warm-up run
    # is there to write the .pyc files an installed package has): not what a user's start-up costs.
    dropped = ("ROUTER_PROVIDER", "ROUTER_CONFIG", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and k not in dropped}
    env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    commands = dict(COMMANDS)
    expect: dict[str, str] = {}
    sys.path.insert(0, str(REPO))
    from router.clients.local_model import embedded_model_available

    if embedded_model_available():
        commands["embedded 365*24"] = EMBEDDED
        expect["embedded 365*24"] = "8760"
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for name, command in commands.items():  # warm the page cache and .pyc files
        time_once(command, env, expect.get(name))
    for _ in range(args.runs):  # interleaved so drift hits every command alike
        for name, command in commands.items():
            samples[name].append(time_once(command, env, expect.get(name)))
    medians = {name: statistics.median(values) for name, values in samples.items()}
    bare = medians["bare python"]
    print(f"runs per command: {args.runs} (interleaved), python {sys.version.split()[0]}")
    for name, median in medians.items():
        spread = f"min {min(samples[name]):.3f} max {max(samples[name]):.3f}"
        cpu = statistics.median(CPU[" ".join(commands[name])][1:])  # the warm-up run excluded
        print(f"{name:16s} median {median:.3f} s  (+{median - bare:.3f} s over bare python; {spread}); CPU {cpu:.3f} s")
    import_cost = medians["import router"] - bare
    cli_total = medians["mock CLI answer"]
    print(f"import router above bare python: {import_cost:.3f} s (target <= 0.150) {'OK' if import_cost <= 0.15 else 'MISSED'}")
    print(f"mock CLI answer in all:          {cli_total:.3f} s (target <= 0.400) {'OK' if cli_total <= 0.4 else 'MISSED'}")
    if "embedded 365*24" in medians:
        embedded = medians["embedded 365*24"]
        print(f"embedded 365*24 (says 8760):     {embedded:.3f} s (target <= 3.000) {'OK' if embedded <= 3 else 'MISSED'}")
    if args.instructions:
        if shutil.which("valgrind") is None:
            raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
        counts = {name: instructions(command, env) for name, command in commands.items()}
        for name, count in counts.items():
            print(f"{name:16s} {count / 1e6:9,.1f} M instructions ({count / counts['bare python']:.2f}x bare python)")
    load = os.getloadavg()
    print(f"load average after measuring: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
