"""Each balancing strategy over three local deployments, judged at the upstreams.

    python bench/balance.py [--requests 3000] [--concurrency 8] [--strategies weighted,least_busy,latency,usage]
    python bench/balance.py --overhead 20000     # what balancing adds per request, in process, c=1

Three OpenAI-compatible upstreams on 127.0.0.1, each in its own process
(``tests/balance_upstream.py``): ``fast``; ``slow`` (+200 ms); ``flaky``, which
starts answering 429 (Retry-After: 30) halfway through each run. Every deployment
has a tokens/minute cap (each reply reports 24 tokens) that holds 80% of a run,
so a strategy that piles onto one deployment meets its cap. For each strategy, the same requests go through
``Router.achat`` at the given concurrency; printed per strategy:

* share of the answered requests per deployment, and the slow one's share after
  the first 10% (warm),
* callers' p50 / p99 latency, and their p99 over the fast deployment's own p99
  (measured alone, same concurrency, before the strategies) and over the p99 of the
  healthy deployments' own answers in the same run (``/healthy``: the same load),
* errors callers saw (a 429 or anything else), 429s the upstreams sent,
* requests and tokens over each cap in any 60 s at the upstream (must be 0).

Time is bounded: at most ``--requests`` per strategy; the slow deployment costs
200 ms only for what a strategy sends it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from balance_upstream import Upstream  # noqa: E402

from router import Router  # noqa: E402
from router.config import parse_config  # noqa: E402
from router.errors import RouterError  # noqa: E402
from router.types import RequestOptions  # noqa: E402

TOKENS = (14, 10)
"""What each reply reports: 14 prompt tokens (the message and its framing, as tiktoken counts them) and 10
completion (``max_tokens: 10``). A cap holds as long as a reply stays within its reservation (prompt at four
characters a token of the JSON messages, 14 here, plus ``max_tokens``)."""
STRATEGIES = ("weighted", "least_busy", "latency", "usage")
OPTIONS = RequestOptions(max_tokens=10)


def _config(upstreams: list[Upstream], strategy: str, tpm: float, *, prefix: str) -> str:
    rows = "\n".join(f"      - {{name: {u.name}, base_url: {u.base_url}, api_key_env: BENCH_BALANCE_KEY, "
                     f"limits: {{tokens_per_minute: {tpm:.0f}}}}}" for u in upstreams)  # fmt: skip
    return f"""
default: pooled
retry: {{max_wait_s: 0}}
state: {{key_prefix: "{prefix}"}}
providers:
  pooled:
    client: openai
    balance: {strategy}
    max_retries: 0
    timeout_s: 30
    models: [{{id: pooled-model, default: true}}]
    deployments:
{rows}
"""


async def _drive(router: Router, total: int, concurrency: int, on_half: object = None,
                 own: list[tuple[str, float]] | None = None) -> tuple[list[float], list[str | None], int]:  # fmt: skip
    """(latencies of answered requests, who answered each, errors) for ``total`` requests; ``own`` gets each
    answering deployment's own latency (its successful attempt)."""
    latencies: list[float] = []
    named: list[str | None] = []
    errors = 0
    counter = iter(range(total))
    messages = [{"role": "user", "content": "hello, how are you today?"}]

    async def worker() -> None:
        nonlocal errors
        for i in counter:
            if i == total // 2 and callable(on_half):
                on_half()
            started = time.perf_counter()
            try:
                answer = await router.achat(messages, options=OPTIONS)
            except RouterError:
                errors += 1
                named.append(None)
                continue
            latencies.append(time.perf_counter() - started)
            named.append(answer.deployment)
            if own is not None and answer.deployment:
                own.append((answer.deployment, next(a.latency_s for a in reversed(answer.attempts) if a.ok)))

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    await router.aclose()
    return latencies, named, errors


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def overhead(calls: int) -> None:
    """What balancing costs per request, without the network: one chain over one implicit deployment against
    one over a pool of two (weighted, and each strategy), in process, on the same scripted client, blocks
    interleaved; the median of each block's p50."""
    from router.balance import Balancer, Member, Pool
    from router.clients.mock import MockLLM
    from router.clients.resilient import Candidate, ResilientClient
    from router.state.memory import MemoryStore

    messages = [{"role": "user", "content": "hello"}]

    def chain(strategy: str | None) -> ResilientClient:
        if strategy is None:
            return ResilientClient([Candidate("p", "m", MockLLM(model="m"), max_retries=0)])
        pool = Pool("p", "m", strategy)  # type: ignore[arg-type]
        members = [Candidate("p", "m", MockLLM(model="m"), max_retries=0, member=Member(pool, n)) for n in ("a", "b")]
        return ResilientClient(members, balancer=Balancer(MemoryStore()))

    chains = {name: chain(name) for name in (None, *STRATEGIES)}

    async def block(client: ResilientClient, n: int) -> float:
        times = []
        for _ in range(n):
            started = time.perf_counter()
            await client.achat(messages)
            times.append(time.perf_counter() - started)
        return _pct(times, 0.5)

    async def run() -> dict[str | None, float]:
        p50s: dict[str | None, list[float]] = {name: [] for name in chains}
        for _ in range(max(1, calls // 500)):
            for name, client in chains.items():
                p50s[name].append(await block(client, 500))
        return {name: sorted(values)[len(values) // 2] for name, values in p50s.items()}

    result = asyncio.run(run())
    base = result[None]
    print(f"in-process chain, c=1, {calls} calls each: one deployment p50 {base * 1e6:.1f} us")
    for name in STRATEGIES:
        print(f"  pool of two, {name:<10}: p50 {result[name] * 1e6:.1f} us, balancing adds {(result[name] - base) * 1e3:+.4f} ms"
              " (goal <= 0.1 ms)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--overhead", type=int, metavar="CALLS", help="only measure what balancing adds per request, in process")
    args = parser.parse_args()
    if args.overhead:
        overhead(args.overhead)
        return 0
    os.environ["BENCH_BALANCE_KEY"] = "sk-bench-balance-0123456789abcdef"
    tpm = 0.8 * args.requests * sum(TOKENS)  # one deployment holds 80% of a run: caps bind only at the edges
    fast, slow, flaky = Upstream("fast", usage=TOKENS), Upstream("slow", delay_s=0.2, usage=TOKENS), Upstream("flaky", usage=TOKENS)
    upstreams = [fast, slow, flaky]
    for upstream in upstreams:
        upstream.start()
    try:
        alone = Router(parse_config(_config([fast], "weighted", 1e9, prefix="alone:")))
        asyncio.run(_drive(alone, 200, args.concurrency))  # warm-up: imports, connections
        alone = Router(parse_config(_config([fast], "weighted", 1e9, prefix="alone:")))
        base, _, _ = asyncio.run(_drive(alone, min(args.requests, 2000), args.concurrency))
        fast.reset()
        base_p99 = _pct(base, 0.99)
        print(f"balance bench: {args.requests} requests per strategy at c={args.concurrency}, {os.cpu_count()} CPUs, "
              f"load average {os.getloadavg()[0]:.1f}; tpm cap {tpm:.0f} per deployment ({sum(TOKENS)} tokens a reply)")
        print(f"fast deployment alone: p50 {_pct(base, 0.5) * 1000:.1f} ms, p99 {base_p99 * 1000:.1f} ms\n")
        header = (f"{'strategy':<11}{'fast':>7}{'slow':>7}{'flaky':>7}{'slow warm':>10}{'p50 ms':>9}{'p99 ms':>9}"
                  f"{'p99/fast':>9}{'/healthy':>9}{'caller err':>11}{'429 sent':>9}{'over cap':>9}{'s':>7}")  # fmt: skip
        print(header)
        for strategy in args.strategies.split(","):
            for upstream in upstreams:
                upstream.reset()
                upstream.rate_limit_after = None
            router = Router(parse_config(_config(upstreams, strategy, tpm, prefix=f"{strategy}:")))
            started = time.perf_counter()

            def go_flaky() -> None:
                flaky.rate_limit_after = flaky.requests  # from now on: 429 with Retry-After: 30

            own: list[tuple[str, float]] = []
            latencies, named, errors = asyncio.run(_drive(router, args.requests, args.concurrency, go_flaky, own))
            healthy_p99 = _pct([seconds for name, seconds in own if name != "slow"], 0.99)
            elapsed = time.perf_counter() - started
            answered = [n for n in named if n is not None]
            shares = [answered.count(u.name) / max(1, len(answered)) for u in upstreams]
            warm = [n for n in named[len(named) // 10:] if n is not None]
            slow_warm = warm.count("slow") / max(1, len(warm))
            over = 0
            for upstream in upstreams:
                _, tokens = upstream.max_per_minute()
                over += max(0, tokens - int(tpm))
            p99 = _pct(latencies, 0.99)
            print(f"{strategy:<11}{shares[0]:>7.1%}{shares[1]:>7.1%}{shares[2]:>7.1%}{slow_warm:>10.1%}"
                  f"{_pct(latencies, 0.5) * 1000:>9.1f}{p99 * 1000:>9.1f}{p99 / base_p99:>9.2f}{p99 / healthy_p99:>9.2f}{errors:>11}"
                  f"{flaky.rate_limited:>9}{over:>9}{elapsed:>7.1f}")  # fmt: skip
        print("\np99/fast: callers' p99 over the fast deployment's measured alone before; /healthy: over the p99 of what the"
              " healthy deployments (fast, flaky while it answered) took for their own answers in the same run")
        print("over cap: tokens above a deployment's tokens/minute cap in its busiest 60 s (upstream's count)")
    finally:
        for upstream in upstreams:
            upstream.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
