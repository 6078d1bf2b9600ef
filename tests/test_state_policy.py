"""Breaker state machine, rate limits and budgets on the stores; sharing and losing Redis.

Clocks are injected; nothing sleeps. "Two processes" are two store instances with
their own connections on one redis-server, which is what two workers have.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable

import pytest
from redis_server import RedisServer

from router.errors import BudgetExceededError, RouterError, UsageError
from router.state.base import BreakerPolicy, StateStore
from router.state.breaker import CircuitBreaker, Decision
from router.state.fallback import FallbackStore
from router.state.limits import Budget, RateLimit, RateLimiter
from router.state.memory import MemoryStore
from router.state.redis import RedisStore

T0 = 1_800_000_000.0  # 2027-01-15 08:00 UTC
POLICY = BreakerPolicy(failures=3, window_s=30.0, cooldown_s=10.0, probe_lease_s=5.0)


class FakeClock:
    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def prefix() -> str:
    return f"t{uuid.uuid4().hex[:8]}:"


# --- circuit breaker ---------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["memory", "redis"])
def test_breaker_state_machine(kind: str, request: pytest.FixtureRequest) -> None:
    if kind == "memory":
        store: StateStore = MemoryStore()
    else:
        store = RedisStore(request.getfixturevalue("redis_server").url, key_prefix=prefix())
    clock = FakeClock()
    breaker = CircuitBreaker(store, POLICY, clock=clock)

    async def main() -> None:
        key = "deepseek/deepseek-chat"
        assert await breaker.allow(key) == Decision(True, "closed")
        assert await breaker.record_failure(key) == Decision(True, "closed")
        await breaker.record_failure(key)
        clock.now += 1
        assert await breaker.record_failure(key) == Decision(False, "open", 10.0)
        clock.now += 4
        assert await breaker.allow(key) == Decision(False, "open", 6.0)
        clock.now += 6
        probe = await breaker.allow(key)
        assert probe == Decision(True, "half_open", 0.0, probe=True)
        assert await breaker.allow(key) == Decision(False, "half_open", 5.0)  # one probe at a time
        clock.now += 1
        assert await breaker.record_failure(key) == Decision(False, "open", 10.0)  # the probe failed
        clock.now += 10
        assert (await breaker.allow(key)).probe
        await breaker.record_success(key)
        assert await breaker.allow(key) == Decision(True, "closed")
        assert (await breaker.state(key)).failures == 0
        await store.aclose()

    asyncio.run(main())


def test_breaker_from_settings_uses_the_yaml_numbers() -> None:
    from router.config import BreakerSettings

    breaker = CircuitBreaker.from_settings(MemoryStore(), BreakerSettings(failures=2, window_s=5, cooldown_s=1))
    assert breaker.policy == BreakerPolicy(failures=2, window_s=5.0, cooldown_s=1.0, probe_lease_s=30.0)


# --- rate limits and budgets ---------------------------------------------------------------


def test_rate_limiter_requests_and_tokens_per_minute() -> None:
    clock = FakeClock()
    limiter = RateLimiter(MemoryStore(), {"kimi": RateLimit(requests_per_minute=2, tokens_per_minute=1200)}, clock=clock)

    async def main() -> None:
        assert await limiter.acquire("deepseek", tokens=10**9) == 0.0  # no limits configured
        assert await limiter.acquire("kimi", tokens=500) == 0.0
        assert await limiter.acquire("kimi", tokens=800) == pytest.approx(5.0)  # 100 tokens short at 20/s
        assert await limiter.acquire("kimi", tokens=600) == 0.0  # the refused one took nothing
        assert await limiter.acquire("kimi", tokens=1) == pytest.approx(30.0)  # 2 requests/min used up
        clock.now += 30
        await limiter.settle("kimi", estimated=600, actual=100)  # refund 500 tokens
        assert await limiter.acquire("kimi", tokens=1000) == 0.0

    asyncio.run(main())


def test_rate_limiter_from_config_reads_provider_limits() -> None:
    from router.config import parse_config

    config = parse_config(
        "default: a\nproviders:\n  a:\n    client: mock\n    limits: {requests_per_minute: 60}\n    models: [{id: m}]\n"
        "  b:\n    client: mock\n    models: [{id: m}]\n"
    )
    limiter = RateLimiter.from_config(MemoryStore(), config)
    assert limiter.limits == {"a": RateLimit(requests_per_minute=60, tokens_per_minute=None)}


def test_budget_charges_checks_and_resets_at_utc_midnight() -> None:
    clock = FakeClock()
    budget = Budget(MemoryStore(), "router", 1.0, clock=clock)

    async def main() -> None:
        await budget.check()
        assert await budget.charge(0.4) == pytest.approx(0.6)
        assert await budget.charge(0.7) == 0.0  # a started call is always charged
        assert await budget.remaining() == 0.0
        with pytest.raises(BudgetExceededError) as info:
            await budget.check()
        message = str(info.value)
        assert message == "budget exceeded for 'router': spent $1.1000 of $1.00 per day (2027-01-15 UTC)"
        assert isinstance(info.value, RouterError) and info.value.limit_usd == 1.0
        clock.now += 16 * 3600  # past midnight UTC
        await budget.check()
        assert await budget.remaining() == 1.0
        with pytest.raises(UsageError):
            await budget.charge(float("nan"))
        with pytest.raises(UsageError):
            await budget.charge(-1)

    asyncio.run(main())
    with pytest.raises(UsageError):
        Budget(MemoryStore(), "router", float("inf"))


# --- two processes on one Redis ------------------------------------------------------------


def test_two_stores_on_one_redis_share_breakers_budgets_and_limits(redis_server: RedisServer) -> None:
    shared = prefix()
    clock = FakeClock()
    a, b = RedisStore(redis_server.url, key_prefix=shared), RedisStore(redis_server.url, key_prefix=shared)
    breaker_a, breaker_b = CircuitBreaker(a, POLICY, clock=clock), CircuitBreaker(b, POLICY, clock=clock)
    budget_a, budget_b = Budget(a, "router", 2.0, clock=clock), Budget(b, "router", 2.0, clock=clock)
    limits = {"kimi": RateLimit(requests_per_minute=3)}
    limiter_a, limiter_b = RateLimiter(a, limits, clock=clock), RateLimiter(b, limits, clock=clock)

    async def main() -> None:
        key = "kimi/kimi-k2"
        await breaker_a.record_failure(key)
        await breaker_b.record_failure(key)
        await breaker_a.record_failure(key)  # the third failure, counted across both
        assert not (await breaker_b.allow(key)).allowed  # opened by a, honoured by b
        clock.now += 10
        decisions = await asyncio.gather(breaker_a.allow(key), breaker_b.allow(key), breaker_a.allow(key))
        assert [d.allowed for d in decisions].count(True) == 1  # one probe across both
        await breaker_b.record_success(key)
        assert (await breaker_a.allow(key)).state == "closed"

        await budget_a.charge(0.75)
        await budget_b.charge(0.75)
        assert await budget_a.remaining() == pytest.approx(0.5)  # spent once each, seen by both
        await budget_b.charge(0.5)
        with pytest.raises(BudgetExceededError):
            await budget_a.check()

        waits = [await limiter_a.acquire("kimi"), await limiter_b.acquire("kimi"), await limiter_a.acquire("kimi")]
        assert waits == [0.0, 0.0, 0.0]
        assert await limiter_b.acquire("kimi") == pytest.approx(20.0)
        await a.aclose()
        await b.aclose()

    asyncio.run(main())


def test_redis_store_works_from_several_event_loops(redis_server: RedisServer) -> None:
    """The sync API may run each call on its own loop: one client per loop, no cross-loop errors."""
    store = RedisStore(redis_server.url, key_prefix=prefix())
    for i in range(3):
        assert asyncio.run(store.add_spend("d", 1.0, 60)) == i + 1


# --- losing Redis --------------------------------------------------------------------------


def test_killing_redis_falls_back_to_memory_and_warns_once(
    make_redis_server: Callable[..., RedisServer], caplog: pytest.LogCaptureFixture
) -> None:
    password = "correct-horse-battery-staple"
    server = make_redis_server(password=password)
    clock = FakeClock(0.0)
    redis_store = RedisStore(server.url, key_prefix=prefix(), timeout_s=1.0)
    store = FallbackStore(redis_store, MemoryStore(), name=f"redis at {redis_store.display_url}", clock=clock)
    breaker = CircuitBreaker(store, POLICY, clock=FakeClock())
    budget = Budget(store, "router", 5.0, clock=FakeClock())
    caplog.set_level(logging.INFO, logger="router.state")

    async def main() -> None:
        assert await budget.charge(1.0) == 4.0
        await breaker.record_failure("p/m")
        assert not store.degraded

        server.kill()
        assert await budget.charge(1.0) == 3.0  # counts on from Redis's last total
        assert store.degraded
        for _ in range(3):
            await breaker.record_failure("p/m")
        assert not (await breaker.allow("p/m")).allowed  # breakers keep working, in process
        await store.remember_downgrade("kimi", "no tools")
        assert await store.downgrade_reason("kimi") == "no tools"
        await store.cache_set("q", "a", 60)
        assert await store.cache_get("q") == "a"
        assert await store.take([], 0.0) == 0.0
        clock.now += 100  # several backoffs later: Redis is tried again, still down
        assert await budget.remaining() == 3.0
        clock.now += 100
        await store.forget_downgrade()

        server.restart()  # empty: nothing was persisted
        clock.now += 100
        # the first call on Redis again adds the outage's spend to it (the rest died with Redis)
        assert await budget.remaining() == 4.0
        assert not store.degraded
        assert await store.fallback.spend(f"budget:router:{budget.day()}") == 0.0  # not counted twice
        await store.aclose()

    asyncio.run(main())
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    text = warnings[0].getMessage()
    assert "continuing with in-process state" in text and f"redis://:***@127.0.0.1:{server.port}/0" in text
    assert password not in caplog.text
    assert any("reachable again" in r.getMessage() for r in caplog.records)
