"""least_busy, latency and sticky conversations, judged at real upstreams on 127.0.0.1."""

from __future__ import annotations

import asyncio
import random
import statistics
import threading
import time
from collections import defaultdict

import pytest
from balance_upstream import NAMES, Upstream
from test_balance import balanced_yaml, run

from router import Router
from router.balance.base import Member, Pool
from router.balance.latency import Latency, LatencyBook
from router.balance.sticky import conversation_key, sticky_order
from router.config import parse_config

pytestmark = pytest.mark.usefixtures("keys")


def _sample_in_flight(pair: list[Upstream], router: Router, stop: threading.Event, out: list[tuple[int, int, float]]) -> None:
    """(upstream a, upstream b, |router's count a - count b|) every 2 ms while anything is in flight."""
    keys = [f"inflight:pooled/pooled-model@{u.name}" for u in pair]
    while not stop.is_set():
        a, b = pair[0].in_flight, pair[1].in_flight
        counted = asyncio.run(router.state.counts(keys))
        if a + b:
            out.append((a, b, abs(counted[0] - counted[1])))
        time.sleep(0.002)


@pytest.mark.parametrize("order", ["as listed", "reversed"])
def test_least_busy_keeps_two_equal_deployments_even_under_concurrency_32(upstreams: list[Upstream], order: str) -> None:
    pair = upstreams[:2] if order == "as listed" else upstreams[1::-1]
    for upstream in pair:
        upstream.delay_s = 0.1
    router = Router(parse_config(balanced_yaml(pair, balance="least_busy")))
    stop, samples = threading.Event(), []
    sampler = threading.Thread(target=_sample_in_flight, args=(pair, router, stop, samples))
    sampler.start()
    try:
        named = run(router, 640, concurrency=32)
    finally:
        stop.set()
        sampler.join()
    assert None not in named and len(samples) > 50
    # what each upstream had in flight, on average over the run (its own count: OS scheduling of three
    # processes on a busy machine adds noise at any instant, not on average)
    assert abs(statistics.mean(a for a, _, _ in samples) - statistics.mean(b for _, b, _ in samples)) <= 2.0
    assert statistics.mean(gap for _, _, gap in samples) <= 2.0  # the balancer's own counts, at every instant
    first, second = pair[0].requests, pair[1].requests
    assert first + second == 640 and abs(first - second) <= 640 * 0.1  # the list's first place earns nothing


def test_latency_sends_a_200ms_slower_deployment_almost_nothing_once_warm(upstreams: list[Upstream]) -> None:
    upstreams[2].delay_s = 0.2
    router = Router(parse_config(balanced_yaml(upstreams, balance="latency")))
    run(router, 40, concurrency=4)  # warm-up: every deployment measured
    for upstream in upstreams:
        upstream.reset()
    named = run(router, 600, concurrency=4)
    assert None not in named
    assert upstreams[2].requests / 600 <= 0.05
    assert min(upstreams[0].requests, upstreams[1].requests) >= 600 * 0.25  # the two fast ones share the load


def test_latency_uses_the_first_token_of_streams(upstreams: list[Upstream]) -> None:
    upstreams[1].delay_s = 0.2
    router = Router(parse_config(balanced_yaml(upstreams[:2], balance="latency")))
    named = run(router, 120, concurrency=2, stream=True)
    assert named.count("beta") <= 10
    averages = {n: router.balancer.latency.average(f"pooled/pooled-model@{n}") for n in ("alpha", "beta")}  # type: ignore[union-attr]
    assert averages["beta"] is not None and averages["alpha"] is not None and averages["beta"] > averages["alpha"] + 0.1


def test_a_slow_or_failing_deployment_is_probed_and_comes_back() -> None:
    now = [0.0]
    book = LatencyBook(clock=lambda: now[0])
    pool = Pool("p", "m", "latency")
    fast, slow = Member(pool, "fast"), Member(pool, "slow")
    strategy = Latency(book, random.Random(1), probe_after_s=10)
    for _ in range(3):  # both measured often enough to be settled (newcomers are probed every 0.5 s)
        book.observe(fast.key, 0.01)
        book.observe(slow.key, 0.5, ok=False)
    def first() -> str:
        return asyncio.run(strategy.choose([fast, slow])).order[0].deployment

    picks = []
    for _ in range(100):  # 100 requests within a second: the failing one is first only as the count probe
        now[0] += 0.01
        picks.append(first())
        book.observe(fast.key, 0.01)
    assert picks.count("slow") == 100 // strategy.probe_every  # once every probe_every decisions, no more
    now[0] += 10.5  # nobody asked slow for 10 s: one request probes it
    assert first() == "slow" and first() == "fast"  # one probe per period, not one per caller
    for _ in range(3):  # it has recovered: each probe finds it fast
        book.observe(slow.key, 0.005)
        now[0] += 10.5
        first()
    assert book.average(slow.key) < book.average(fast.key) * 2  # type: ignore[operator]
    assert [first() for _ in range(20)].count("slow") >= 5  # back in the rotation


def test_sticky_conversations_stay_on_one_deployment_and_move_when_it_fails(upstreams: list[Upstream]) -> None:
    router = Router(parse_config(balanced_yaml(upstreams, sticky=True, top="breaker: {failures: 2, window_s: 60, cooldown_s: 60}")))
    conversations = [f"conversation {i}: tell me about topic {i * 7}" for i in range(60)]

    def turns(count: int) -> dict[str, list[str | None]]:
        seen: dict[str, list[str | None]] = defaultdict(list)
        for turn in range(count):
            for first in conversations:
                history = [{"role": "system", "content": "be brief"}, {"role": "user", "content": first}]
                for t in range(turn):
                    history += [{"role": "assistant", "content": f"reply {t}"}, {"role": "user", "content": f"more {t}"}]
                seen[first].extend(run(router, 1, messages=history))
        return seen

    healthy = turns(5)
    same = sum(max(named.count(n) for n in NAMES) for named in healthy.values())
    assert same / (60 * 5) >= 0.99
    homes = {first: max(set(named), key=named.count) for first, named in healthy.items()}
    assert len(set(homes.values())) == 3  # conversations spread over every deployment
    upstreams[0].failing = True
    moved = turns(2)
    on_alpha = [first for first, home in homes.items() if home == "alpha"]
    assert on_alpha and all(None not in moved[first] and "alpha" not in moved[first] for first in on_alpha)
    others = [first for first in conversations if homes[first] != "alpha"]
    assert all(set(moved[first]) == {homes[first]} for first in others)  # nobody else moved


def test_a_caller_supplied_user_names_the_conversation() -> None:
    pool = Pool("p", "m", "weighted", sticky=True)
    members = [Member(pool, n) for n in ("a", "b", "c", "d")]
    one = conversation_key([{"role": "user", "content": "x"}], user="session-42")
    two = conversation_key([{"role": "user", "content": "something else entirely"}], user="session-42")
    assert one == two and one is not None and "session-42" not in one
    assert sticky_order(one, members) == sticky_order(two, members)  # type: ignore[arg-type]
    homes = {sticky_order(f"c:{i}", members)[0].deployment for i in range(200)}
    assert homes == {"a", "b", "c", "d"}
