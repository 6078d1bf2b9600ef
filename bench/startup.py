"""Start-up cost, all measured in one run.

Prints the median wall time of bare Python, ``import router`` and a full mock
CLI answer, and the differences against bare Python. Targets: ``import router``
<= 0.15 s above bare Python; the mock CLI answer <= 0.4 s in all.

    python bench/startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
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


def time_once(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    result = subprocess.run(command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {result.stderr.decode(errors='replace').strip()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    env.pop("ROUTER_PROVIDER", None)
    samples: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for command in COMMANDS.values():  # warm the page cache and .pyc files
        time_once(command, env)
    for _ in range(args.runs):  # interleaved so drift hits every command alike
        for name, command in COMMANDS.items():
            samples[name].append(time_once(command, env))
    medians = {name: statistics.median(values) for name, values in samples.items()}
    bare = medians["bare python"]
    print(f"runs per command: {args.runs} (interleaved), python {sys.version.split()[0]}")
    for name, median in medians.items():
        spread = f"min {min(samples[name]):.3f} max {max(samples[name]):.3f}"
        print(f"{name:16s} median {median:.3f} s  (+{median - bare:.3f} s over bare python; {spread})")
    import_cost = medians["import router"] - bare
    cli_total = medians["mock CLI answer"]
    print(f"import router above bare python: {import_cost:.3f} s (target <= 0.150) {'OK' if import_cost <= 0.15 else 'MISSED'}")
    print(f"mock CLI answer in all:          {cli_total:.3f} s (target <= 0.400) {'OK' if cli_total <= 0.4 else 'MISSED'}")


if __name__ == "__main__":
    main()
