"""One behaviour suite for every StateStore: the in-process store and Redis must agree.

Time is passed in, never slept: ``now`` arguments for breakers and buckets, an
injected clock for the in-process store's TTLs.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from redis_server import RedisServer

from router.state.base import BreakerPolicy, Bucket, StateStore
from router.state.memory import MemoryStore
from router.state.redis import RedisStore

POLICY = BreakerPolicy(failures=3, window_s=30.0, cooldown_s=10.0, probe_lease_s=5.0)
T0 = 1_700_000_000.0

StoreFactory = Callable[[], StateStore]


@pytest.fixture(params=["memory", "redis"])
def make_store(request: pytest.FixtureRequest) -> Iterator[StoreFactory]:
    """Fresh stores of one kind; Redis stores share the session server under a private prefix."""
    if request.param == "memory":
        yield MemoryStore
        return
    server: RedisServer = request.getfixturevalue("redis_server")
    prefix = f"t{uuid.uuid4().hex[:8]}:"
    yield lambda: RedisStore(server.url, key_prefix=prefix)


def run(store: StateStore, body: Callable[[StateStore], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        try:
            return await body(store)
        finally:
            await store.aclose()

    return asyncio.run(main())


# --- circuit breakers -------------------------------------------------------------------


def test_breaker_opens_after_n_failures_within_the_window(make_store: StoreFactory) -> None:
    async def body(s: StateStore) -> None:
        assert await s.breaker_allow("p/m", T0, POLICY) == (True, (await s.breaker_state("p/m")))
        assert (await s.breaker_failure("p/m", T0, POLICY)).state == "closed"
        record = await s.breaker_failure("p/m", T0 + 1, POLICY)
        assert (record.state, record.failures) == ("closed", 2)
        record = await s.breaker_failure("p/m", T0 + 2, POLICY)
        assert (record.state, record.opened_at) == ("open", T0 + 2)
        allowed, record = await s.breaker_allow("p/m", T0 + 3, POLICY)
        assert not allowed and record.state == "open"
        assert (await s.breaker_allow("other/m", T0 + 3, POLICY))[0]  # keys are independent

    run(make_store(), body)


def test_failures_spread_wider_than_the_window_keep_it_closed(make_store: StoreFactory) -> None:
    async def body(s: StateStore) -> None:
        for i in range(10):
            record = await s.breaker_failure("p/m", T0 + i * 20, POLICY)  # two per 30 s window at most
            assert record.state == "closed"
            assert record.failures <= POLICY.failures

    run(make_store(), body)


def test_half_open_lets_exactly_one_probe_through(make_store: StoreFactory) -> None:
    async def body(s: StateStore) -> None:
        for i in range(3):
            await s.breaker_failure("p/m", T0 + i, POLICY)
        assert not (await s.breaker_allow("p/m", T0 + 11.9, POLICY))[0]  # cooldown runs from T0 + 2
        results = await asyncio.gather(*(s.breaker_allow("p/m", T0 + 12, POLICY) for _ in range(20)))
        granted = [record for allowed, record in results if allowed]
        assert len(granted) == 1 and granted[0].state == "half_open"
        assert granted[0].probe_until == T0 + 12 + POLICY.probe_lease_s
        # reading is not asking: still half-open with the same lease
        assert (await s.breaker_state("p/m")).probe_until == T0 + 12 + POLICY.probe_lease_s
        # a probe that never reports loses its lease; the next caller probes instead
        assert not (await s.breaker_allow("p/m", T0 + 16.9, POLICY))[0]
        assert (await s.breaker_allow("p/m", T0 + 17, POLICY))[0]

    run(make_store(), body)


def test_probe_failure_reopens_and_success_closes(make_store: StoreFactory) -> None:
    async def body(s: StateStore) -> None:
        for _ in range(3):
            await s.breaker_failure("p/m", T0, POLICY)
        assert (await s.breaker_allow("p/m", T0 + 10, POLICY))[0]
        record = await s.breaker_failure("p/m", T0 + 11, POLICY)
        assert (record.state, record.opened_at, record.probe_until) == ("open", T0 + 11, None)
        assert not (await s.breaker_allow("p/m", T0 + 20, POLICY))[0]  # a fresh cooldown
        assert (await s.breaker_allow("p/m", T0 + 21, POLICY))[0]
        await s.breaker_success("p/m")
        record = await s.breaker_state("p/m")
        assert (record.state, record.failures, record.opened_at) == ("closed", 0, None)
        assert (await s.breaker_failure("p/m", T0 + 22, POLICY)).state == "closed"  # counting starts over

    run(make_store(), body)


# --- rate limits ------------------------------------------------------------------------


def rpm(amount: float, limit: float = 3, key: str = "rpm") -> Bucket:
    return Bucket(key, amount, limit, limit / 60)


def test_take_counts_down_and_says_how_long_to_wait(make_store: StoreFactory) -> None:
    async def body(s: StateStore) -> None:
        assert [await s.take([rpm(1)], T0) for _ in range(3)] == [0.0, 0.0, 0.0]
        assert await s.take([rpm(1)], T0) == pytest.approx(20.0)  # 3/min refills one per 20 s
        assert await s.take([rpm(1)], T0 + 10) == pytest.approx(10.0)
        assert await s.take([rpm(1)], T0 + 20) == 0.0
        assert await s.take([rpm(1)], T0 + 20) == pytest.approx(20.0)

    run(make_store(), body)


def test_take_is_all_or_nothing_across_buckets(make_store: StoreFactory) -> None:
    async def body(s: StateStore) -> None:
        tokens = Bucket("tpm", 600, 1000, 1000 / 60)
        assert await s.take([rpm(1), tokens], T0) == 0.0
        assert await s.take([rpm(1), tokens], T0) == pytest.approx(200 / (1000 / 60))  # tokens refused
        # the refused call took no request: two of three are still there
        assert await s.take([rpm(1)], T0) == 0.0
        assert await s.take([rpm(1)], T0) == 0.0
        assert await s.take([rpm(1)], T0) > 0

    run(make_store(), body)


def test_oversized_amount_waits_for_a_full_bucket_then_leaves_debt(make_store: StoreFactory) -> None:
    async def body(s: StateStore) -> None:
        tpm = lambda n: Bucket("tpm", n, 600, 10)  # noqa: E731
        assert await s.take([tpm(900)], T0) == 0.0  # full bucket: allowed, 300 in debt
        assert await s.take([tpm(100)], T0) == pytest.approx(40.0)  # from -300 to +100 at 10/s
        await s.take([tpm(-300)], T0, force=True)  # a refund: the estimate was too high
        assert await s.take([tpm(100)], T0) == pytest.approx(10.0)
        assert await s.take([tpm(100)], T0, force=True) == 0.0  # force never waits

    run(make_store(), body)


def test_concurrent_takes_never_oversubscribe(make_store: StoreFactory) -> None:
    async def body(s: StateStore) -> None:
        waits = await asyncio.gather(*(s.take([rpm(1, limit=10)], T0) for _ in range(40)))
        assert sum(1 for w in waits if w == 0.0) == 10

    run(make_store(), body)


# --- budgets, downgrades, cache ---------------------------------------------------------


def test_spend_adds_up(make_store: StoreFactory) -> None:
    async def body(s: StateStore) -> None:
        assert await s.spend("router:2026-01-01") == 0.0
        assert await s.add_spend("router:2026-01-01", 0.25, 3600) == pytest.approx(0.25)
        totals = await asyncio.gather(*(s.add_spend("router:2026-01-01", 0.125, 3600) for _ in range(8)))
        assert max(totals) == pytest.approx(1.25)
        assert await s.spend("router:2026-01-01") == pytest.approx(1.25)
        assert await s.spend("router:2026-01-02") == 0.0

    run(make_store(), body)


def test_downgrade_memory(make_store: StoreFactory) -> None:
    async def body(s: StateStore) -> None:
        assert await s.downgrade_reason("kimi") is None
        await s.remember_downgrade("kimi", "HTTP 400: tools not supported")
        await s.remember_downgrade("local", "tools param requires --jinja")
        assert await s.downgrade_reason("kimi") == "HTTP 400: tools not supported"
        await s.forget_downgrade("kimi")
        assert await s.downgrade_reason("kimi") is None
        assert await s.downgrade_reason("local") == "tools param requires --jinja"
        await s.forget_downgrade()
        assert await s.downgrade_reason("local") is None

    run(make_store(), body)


def test_cache_round_trip(make_store: StoreFactory) -> None:
    async def body(s: StateStore) -> None:
        assert await s.cache_get("q1") is None
        await s.cache_set("q1", '{"answer": "8760 小时"}', 60)
        assert await s.cache_get("q1") == '{"answer": "8760 小时"}'
        await s.cache_set("q1", "replaced", 60)
        assert await s.cache_get("q1") == "replaced"

    run(make_store(), body)


# --- store-specific: expiry and bounds ----------------------------------------------------


class FakeClock:
    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_memory_store_expires_cache_spend_and_downgrades() -> None:
    clock = FakeClock()
    store = MemoryStore(clock=clock, downgrade_ttl_s=100, max_cache_entries=3)

    async def body(s: StateStore) -> None:
        await s.cache_set("a", "1", 10)
        await s.add_spend("day", 1.0, 50)
        await s.remember_downgrade("kimi", "no tools")
        clock.now = 10
        assert await s.cache_get("a") is None
        assert await s.spend("day") == 1.0
        clock.now = 50
        assert await s.spend("day") == 0.0
        assert await s.add_spend("day", 2.0, 50) == 2.0  # an expired total starts over
        clock.now = 100
        assert await s.downgrade_reason("kimi") is None
        for key in "bcde":
            await s.cache_set(key, key, 10)
        assert await s.cache_get("b") is None  # the oldest went first: the cache is bounded
        assert await s.cache_get("e") == "e"

    run(store, body)


def test_every_redis_key_has_a_ttl(redis_server: RedisServer) -> None:
    prefix = f"t{uuid.uuid4().hex[:8]}:"
    store = RedisStore(redis_server.url, key_prefix=prefix)

    async def body(s: StateStore) -> dict[str, int]:
        import redis.asyncio as aioredis

        await s.breaker_failure("p/m", T0, POLICY)  # a failure list
        for _ in range(3):
            await s.breaker_failure("q/m", T0, POLICY)  # an open breaker
        await s.take([rpm(1)], T0)
        await s.add_spend("router:2026-01-01", 1.0, 3600)
        await s.remember_downgrade("kimi", "no tools")
        await s.cache_set("q", "a", 60)
        client = aioredis.Redis.from_url(redis_server.url)
        try:
            keys = [k.decode() async for k in client.scan_iter(match=prefix + "*")]
            return {k: await client.pttl(k) for k in keys}
        finally:
            await client.aclose()

    ttls = run(store, body)
    assert len(ttls) == 6, ttls
    assert all(ttl > 0 for ttl in ttls.values()), ttls


def test_memory_store_is_safe_across_threads_and_loops() -> None:
    store = MemoryStore()
    granted: list[bool] = []
    lock = threading.Lock()

    async def prepare() -> None:
        for _ in range(3):
            await store.breaker_failure("p/m", T0, POLICY)

    asyncio.run(prepare())

    def worker() -> None:
        async def ask() -> list[bool]:
            results = await asyncio.gather(*(store.breaker_allow("p/m", T0 + 10, POLICY) for _ in range(10)))
            return [allowed for allowed, _ in results]

        answers = asyncio.run(ask())
        with lock:
            granted.extend(answers)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(granted) == 80 and granted.count(True) == 1
