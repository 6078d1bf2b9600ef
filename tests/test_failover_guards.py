"""Client-side rate limits and the daily budget inside a chain (scripted clients, injected clocks)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from router.aio import run_sync
from router.clients.guards import Guards, key_fingerprint
from router.clients.mock import ScriptedLLM, text_response
from router.clients.resilient import Candidate, ResilientClient
from router.errors import BudgetExceededError
from router.state.limits import Budget, RateLimit, RateLimiter
from router.state.memory import MemoryStore
from router.types import Usage

Q = [{"role": "user", "content": "hi"}]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def chain(guards: Guards, *candidates: Candidate, waits: list[float] | None = None) -> ResilientClient:
    sink = waits if waits is not None else []

    async def sleep(seconds: float) -> None:
        sink.append(seconds)

    return ResilientClient(list(candidates), guards=guards, sleep=sleep)


def test_a_short_rate_limit_wait_is_waited_and_a_long_one_passes_to_the_fallback() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock)
    limiter = RateLimiter(store, {"a": RateLimit(requests_per_minute=2)}, clock=clock)
    a = ScriptedLLM([text_response("a1"), text_response("a2"), text_response("a3")])
    b = ScriptedLLM([text_response("b1")])
    waits: list[float] = []
    client = chain(Guards(limiter=limiter), Candidate("a", "m", a), Candidate("b", "m", b), waits=waits)
    assert client.chat(Q).message.content == "a1"
    assert client.chat(Q).message.content == "a2"
    third = client.chat(Q)  # the bucket is empty: 30 s to the next request, beyond the 20 s wait cap
    assert third.message.content == "b1" and third.provider == "b"
    assert [(x.provider, x.error_kind) for x in third.attempts] == [("a", "rate_limited"), ("b", None)]
    assert waits == []


def test_the_budget_is_checked_before_and_charged_after_each_reply() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock)
    budget = Budget(store, "router", 0.01, clock=clock)

    def cost(provider: str, model: str, usage: Usage) -> float:
        return usage.total_tokens * 0.001

    replies = [replace(text_response(text), usage=Usage(3, 3, 6)) for text in ("one", "two")]
    client = chain(Guards(budget=budget, cost=cost), Candidate("a", "m", ScriptedLLM(replies)))
    client.chat(Q)
    assert run_sync(budget.spent()) == pytest.approx(0.006)
    client.chat(Q)  # 0.006 < 0.01: allowed, and it spends past the limit (a started call is paid for)
    with pytest.raises(BudgetExceededError, match=r"budget exceeded for 'router': spent \$0.0120 of \$0.01"):
        client.chat(Q)


def test_a_key_fingerprint_names_a_key_without_showing_it() -> None:
    value = "sk-a-secret-key-value-123456"
    fingerprint: Any = key_fingerprint(value)
    assert fingerprint and len(fingerprint) == 16 and value not in fingerprint
    assert key_fingerprint(value) == fingerprint and key_fingerprint(value + "x") != fingerprint
    assert key_fingerprint(None) is None and key_fingerprint("") is None
