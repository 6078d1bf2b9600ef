"""Per-call overhead of router's clients against the raw openai SDK.

Starts the fake OpenAI-compatible server from tests/ on 127.0.0.1 and, in the
same run and under the same keep-alive conditions (each client keeps its own
warm connection), times ``OpenAIClient.chat``, ``LiteLLMClient.chat`` and the raw
``client.chat.completions.create``. Rounds are interleaved and cycle through
every permutation of the three, so drift in machine load, and litellm's
background work after each of its calls (logging threads), hit every client
alike instead of always slowing the same successor. The baseline is measured
here, not remembered: only ratios are meaningful across machines.

    python bench/client_overhead.py [--calls 200] [--warmup 20]

Target: OpenAIClient median within 1.2x of the raw SDK.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from fake_openai_server import FakeOpenAIServer, Text  # noqa: E402

from router.clients.litellm import LiteLLMClient  # noqa: E402
from router.clients.openai import OpenAIClient  # noqa: E402

TARGET = 1.2
KEY = "sk-bench-not-a-real-key"
MESSAGES = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "What is the weather in Paris today?"},
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200, help="timed calls per client (default 200)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed calls per client first (default 20)")
    args = parser.parse_args(argv)

    import openai

    with FakeOpenAIServer(default_reply=Text("It is sunny and 21 degrees in Paris.")) as server:
        raw = openai.OpenAI(base_url=server.base_url, api_key=KEY, max_retries=0, timeout=60.0)
        ours = OpenAIClient(base_url=server.base_url, api_key=KEY, model="fake-model", timeout_s=60.0)
        via_litellm = LiteLLMClient(model="fake-model", api_key=KEY, base_url=server.base_url, timeout_s=60.0)

        calls: dict[str, Callable[[], object]] = {
            "raw openai SDK": lambda: raw.chat.completions.create(model="fake-model", messages=MESSAGES),  # type: ignore[arg-type]
            "OpenAIClient": lambda: ours.chat(MESSAGES),
            "LiteLLMClient": lambda: via_litellm.chat(MESSAGES),
        }
        for call in calls.values():
            for _ in range(args.warmup):
                call()
        timings: dict[str, list[float]] = {name: [] for name in calls}
        orders = list(itertools.permutations(calls))
        for round_number in range(args.calls):
            for name in orders[round_number % len(orders)]:
                started = time.perf_counter()
                calls[name]()
                timings[name].append(time.perf_counter() - started)
        served = len(server.requests)

    baseline = statistics.median(timings["raw openai SDK"])
    print(f"client overhead: {args.calls} calls each after {args.warmup} warm-up calls, interleaved; "
          f"{served} requests served by the fake server")
    print(f"{'client':<16} {'median ms':>10} {'p90 ms':>8} {'ratio to raw SDK':>17}")
    for name, values in timings.items():
        median = statistics.median(values)
        p90 = statistics.quantiles(values, n=10)[-1]
        print(f"{name:<16} {median * 1000:>10.3f} {p90 * 1000:>8.3f} {median / baseline:>16.2f}x")
    ratio = statistics.median(timings["OpenAIClient"]) / baseline
    verdict = "met" if ratio <= TARGET else "NOT met"
    print(f"target OpenAIClient <= {TARGET}x raw SDK: {verdict} ({ratio:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
