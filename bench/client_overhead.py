"""Per-call overhead of router's clients against the raw openai SDK, sync and async.

Starts the fake OpenAI-compatible server from tests/ on 127.0.0.1 and, in the
same run and under the same keep-alive conditions (each client keeps its own
warm connection), times:

* sync: ``OpenAIClient.chat`` and ``LiteLLMClient.chat`` (the async clients run
  on the router's core loop) against the raw ``OpenAI().chat.completions.create``;
* async: ``OpenAIClient.achat`` on each SDK transport (aiohttp when installed,
  httpx) against the raw ``AsyncOpenAI`` on the same transport, the lean transport
  (``router.clients.lean``: http1 and aiohttp engines) against the raw
  ``AsyncOpenAI`` on aiohttp, and ``LiteLLMClient.achat``.

Rounds are interleaved and cycle through every permutation of a group's
clients, so drift in machine load, and litellm's background work after each of
its calls, hit every client alike. The baselines are measured here, not
remembered: only ratios are meaningful across machines.

    python bench/client_overhead.py [--calls 200] [--warmup 20]

Targets: OpenAIClient median within 1.2x of the raw SDK, sync and async.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
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


def _report(title: str, timings: dict[str, list[float]], baselines: dict[str, str]) -> list[tuple[str, float]]:
    print(f"\n{title}")
    print(f"{'client':<34} {'median ms':>10} {'p90 ms':>8} {'ratio':>7}  baseline")
    ratios: list[tuple[str, float]] = []
    for name, values in timings.items():
        median = statistics.median(values)
        p90 = statistics.quantiles(values, n=10)[-1]
        base_name = baselines.get(name, name)
        ratio = median / statistics.median(timings[base_name])
        print(f"{name:<34} {median * 1000:>10.3f} {p90 * 1000:>8.3f} {ratio:>6.2f}x  {base_name if base_name != name else '-'}")
        if base_name != name:
            ratios.append((name, ratio))
    return ratios


def bench_sync(server: FakeOpenAIServer, calls: int, warmup: int) -> list[tuple[str, float]]:
    import openai

    raw = openai.OpenAI(base_url=server.base_url, api_key=KEY, max_retries=0, timeout=60.0)
    ours = OpenAIClient(base_url=server.base_url, api_key=KEY, model="fake-model", timeout_s=60.0)
    via_litellm = LiteLLMClient(model="fake-model", api_key=KEY, base_url=server.base_url, timeout_s=60.0)
    table: dict[str, Callable[[], object]] = {
        "raw openai SDK (sync)": lambda: raw.chat.completions.create(model="fake-model", messages=MESSAGES),  # type: ignore[arg-type]
        f"OpenAIClient.chat ({ours.transport})": lambda: ours.chat(MESSAGES),
        "LiteLLMClient.chat": lambda: via_litellm.chat(MESSAGES),
    }
    for call in table.values():
        for _ in range(warmup):
            call()
    timings: dict[str, list[float]] = {name: [] for name in table}
    orders = list(itertools.permutations(table))
    for round_number in range(calls):
        for name in orders[round_number % len(orders)]:
            started = time.perf_counter()
            table[name]()
            timings[name].append(time.perf_counter() - started)
    ours.close()
    raw.close()
    base = "raw openai SDK (sync)"
    return _report("sync API", timings, {name: base for name in table if name != base})


async def bench_async(server: FakeOpenAIServer, calls: int, warmup: int) -> list[tuple[str, float]]:
    import openai

    from router.clients.openai import _aiohttp_client_class

    aiohttp_class = _aiohttp_client_class()
    raw_httpx = openai.AsyncOpenAI(base_url=server.base_url, api_key=KEY, max_retries=0, timeout=60.0)
    ours_httpx = OpenAIClient(base_url=server.base_url, api_key=KEY, model="fake-model", timeout_s=60.0, transport="httpx")
    via_litellm = LiteLLMClient(model="fake-model", api_key=KEY, base_url=server.base_url, timeout_s=60.0)
    table: dict[str, Callable[[], Awaitable[object]]] = {
        "raw AsyncOpenAI (httpx)": lambda: raw_httpx.chat.completions.create(model="fake-model", messages=MESSAGES),  # type: ignore[arg-type]
        "OpenAIClient.achat (httpx)": lambda: ours_httpx.achat(MESSAGES),
        "LiteLLMClient.achat": lambda: via_litellm.achat(MESSAGES),
    }
    baselines = {"OpenAIClient.achat (httpx)": "raw AsyncOpenAI (httpx)", "LiteLLMClient.achat": "raw AsyncOpenAI (httpx)"}
    closers = [raw_httpx.close, ours_httpx.aclose]
    if aiohttp_class is not None:
        raw_aio = openai.AsyncOpenAI(
            base_url=server.base_url, api_key=KEY, max_retries=0, timeout=60.0, http_client=aiohttp_class()
        )
        ours_aio = OpenAIClient(base_url=server.base_url, api_key=KEY, model="fake-model", timeout_s=60.0, transport="aiohttp")
        table["raw AsyncOpenAI (aiohttp)"] = lambda: raw_aio.chat.completions.create(model="fake-model", messages=MESSAGES)  # type: ignore[arg-type]
        table["OpenAIClient.achat (sdk aiohttp)"] = lambda: ours_aio.achat(MESSAGES)
        baselines["OpenAIClient.achat (sdk aiohttp)"] = "raw AsyncOpenAI (aiohttp)"
        closers += [raw_aio.close, ours_aio.aclose]
        # the lean transport, against the fastest SDK stack: how much of the SDK's own cost it removes
        for label, transport in (("lean http1", "lean"), ("lean aiohttp", "lean-aiohttp")):
            lean = OpenAIClient(base_url=server.base_url, api_key=KEY, model="fake-model", timeout_s=60.0, transport=transport)
            table[f"OpenAIClient.achat ({label})"] = lambda lean=lean: lean.achat(MESSAGES)  # type: ignore[misc]
            baselines[f"OpenAIClient.achat ({label})"] = "raw AsyncOpenAI (aiohttp)"
            closers.append(lean.aclose)
    for call in table.values():
        for _ in range(warmup):
            await call()
    timings: dict[str, list[float]] = {name: [] for name in table}
    orders = list(itertools.islice(itertools.permutations(table), 720))
    rng = random.Random(0)
    rng.shuffle(orders)
    for round_number in range(calls):
        for name in orders[round_number % len(orders)]:
            started = time.perf_counter()
            await table[name]()
            timings[name].append(time.perf_counter() - started)
    for close in closers:
        await close()
    return _report("async API (one event loop)", timings, baselines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200, help="timed calls per client (default 200)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed calls per client first (default 20)")
    args = parser.parse_args(argv)

    with FakeOpenAIServer(default_reply=Text("It is sunny and 21 degrees in Paris.")) as server:
        sync_ratios = bench_sync(server, args.calls, args.warmup)
        async_ratios = asyncio.run(bench_async(server, args.calls, args.warmup))
        served = len(server.requests)
    print(f"\n{args.calls} timed calls per client after {args.warmup} warm-up calls, interleaved; "
          f"{served} requests served by the fake server")
    for name, ratio in [*sync_ratios, *async_ratios]:
        if name.startswith("OpenAIClient"):
            verdict = "met" if ratio <= TARGET else "NOT met"
            print(f"target {name} <= {TARGET}x its raw SDK baseline: {verdict} ({ratio:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
