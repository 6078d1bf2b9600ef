"""Deployments and load balancing, against real HTTP upstreams on 127.0.0.1 (``balance_upstream.Upstream``).

Shares, moves and counts are judged at the upstreams (what each deployment really
received), not from the router's own bookkeeping.
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from balance_upstream import KEY_ENVS, NAMES, Upstream

from router import Router
from router.config import parse_config
from router.errors import ConfigError
from router.types import RequestOptions


def balanced_yaml(
    upstreams: Sequence[Upstream], *, balance: str = "weighted", weights: Sequence[float] = (), extra: str = "",
    deployment_extra: Sequence[str] = (), sticky: bool = False, top: str = "",
) -> str:
    rows = []
    for i, upstream in enumerate(upstreams):
        weight = f", weight: {weights[i]}" if weights else ""
        more = f", {deployment_extra[i]}" if i < len(deployment_extra) and deployment_extra[i] else ""
        rows.append(f"      - {{name: {upstream.name}, base_url: {upstream.base_url}, api_key_env: {KEY_ENVS[i]}{weight}{more}}}")
    return f"""
default: pooled
retry: {{max_wait_s: 0.5}}
{top}
providers:
  pooled:
    client: openai
    balance: {balance}
    sticky: {str(sticky).lower()}
    timeout_s: 10
    models: [{{id: pooled-model, default: true}}]
{extra}
    deployments:
""" + "\n".join(rows) + "\n"


def run(router: Router, count: int, *, concurrency: int = 1, messages: list[dict[str, str]] | None = None,
        options: RequestOptions | None = None, stream: bool = False) -> list[str | None]:  # fmt: skip
    """``count`` gateway completions at ``concurrency``; the deployment each answer names."""

    async def main() -> list[str | None]:
        queue = iter(range(count))
        out: list[str | None] = []

        async def worker() -> None:
            for _ in queue:
                answer = await router.achat(messages or [{"role": "user", "content": "hello there"}], options=options,
                                            stream=stream)  # fmt: skip
                out.append(answer.deployment)

        await asyncio.gather(*(worker() for _ in range(concurrency)))
        await router.aclose()
        return out

    return asyncio.run(main())


# --- config ---------------------------------------------------------------------------------


def test_deployments_are_validated_with_file_and_line() -> None:
    good = balanced_yaml([Upstream("a"), Upstream("b")])
    assert [d.name for d in parse_config(good).provider("pooled").deployments] == ["a", "b"]
    cases = {
        "name: b,": ("name: a,", r"<string>:\d+: providers\.pooled\.deployments\[1\]\.name: 'a' is already the name"),
        "api_key_env: BAL_KEY_B": ("api_key_env: BAL_KEY_B, wieght: 2", r"deployments\[1\]\.wieght: unknown key \(did you mean weight\?\)"),
        "balance: weighted": ("balance: fastest", r"providers\.pooled\.balance: Input should be 'weighted'"),
        "api_key_env: BAL_KEY_A": ("api_key_env: BAL_KEY_A, models: [other]", r"deployments\[0\]\.models\[0\]: provider 'pooled' lists no model 'other'"),
    }
    for old, (new, message) in cases.items():
        with pytest.raises(ConfigError, match=message):
            parse_config(good.replace(old, new, 1))
    line = good.splitlines().index(next(x for x in good.splitlines() if "BAL_KEY_A" in x)) + 1
    with pytest.raises(ConfigError, match=rf"<string>:{line}: providers\.pooled\.deployments\[0\]\.weight: Input should be greater than 0"):
        parse_config(good.replace("api_key_env: BAL_KEY_A", "api_key_env: BAL_KEY_A, weight: 0", 1))


def test_a_deployment_without_its_key_is_skipped_and_recorded(upstreams: list[Upstream], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENVS[0], "sk-balance-test-a-0123456789abcdef")
    monkeypatch.delenv(KEY_ENVS[1], raising=False)
    monkeypatch.setenv(KEY_ENVS[2], "sk-balance-test-c-0123456789abcdef")
    router = Router(parse_config(balanced_yaml(upstreams)))
    answers = [router.ask("hi", mode="cot") for _ in range(4)]
    router.close()
    assert {a.deployment for a in answers} == {"alpha", "gamma"}
    assert upstreams[1].requests == 0
    skip = next(a for a in answers[0].attempts if not a.ok)
    assert (skip.deployment, skip.error_kind, skip.error) == ("beta", "no_key", "deployment beta: BAL_KEY_B is not set")
    ok = [a for a in answers[0].attempts if a.ok]
    assert ok[0].deployment == answers[0].deployment and "sk-" not in repr(answers[0].attempts)


# --- weighted -------------------------------------------------------------------------------


@pytest.mark.usefixtures("keys")
def test_weighted_shares_follow_the_weights(upstreams: list[Upstream]) -> None:
    router = Router(parse_config(balanced_yaml(upstreams, weights=(1, 2, 3))))
    named = run(router, 3000, concurrency=4)
    received = [u.requests for u in upstreams]
    assert sum(received) == 3000
    for share, want in zip(received, (1 / 6, 2 / 6, 3 / 6), strict=True):
        assert abs(share / 3000 - want) <= 0.03
    assert Counter(named) == dict(zip(NAMES, received, strict=True))  # each answer names who really answered


@pytest.mark.usefixtures("keys")
def test_a_deployment_answering_429_is_left_out_at_once_and_callers_see_no_error(upstreams: list[Upstream]) -> None:
    upstreams[0].rate_limit_after = 0  # alpha answers 429 (Retry-After: 30) from the start
    router = Router(parse_config(balanced_yaml(upstreams)))
    named = run(router, 60)
    assert None not in named and "alpha" not in named  # every caller got an answer, none from alpha
    assert upstreams[0].rate_limited == 1  # the first 429 left alpha out for the next requests
    assert upstreams[1].requests + upstreams[2].requests == 60
    assert abs(upstreams[1].requests - upstreams[2].requests) <= 2  # its traffic went to the other two, evenly


@pytest.mark.usefixtures("keys")
def test_an_open_breaker_moves_a_deployments_traffic_to_the_others(upstreams: list[Upstream]) -> None:
    upstreams[1].failing = True
    router = Router(parse_config(balanced_yaml(upstreams, top="breaker: {failures: 2, window_s: 60, cooldown_s: 60}")))
    named = run(router, 60)
    assert None not in named and "beta" not in named
    assert upstreams[1].requests == 2  # two failures opened beta's breaker; no caller saw them


# --- reporting ------------------------------------------------------------------------------


@pytest.mark.usefixtures("keys")
def test_the_answer_names_the_deployment_in_attempts_never_its_key(upstreams: list[Upstream]) -> None:
    router = Router(parse_config(balanced_yaml(upstreams[:1])))
    answer = router.ask("hi", mode="cot")
    streamed = run(router, 1, stream=True)
    assert answer.deployment == "alpha" and streamed == ["alpha"]
    assert [(a.deployment, a.ok) for a in answer.attempts] == [("alpha", True)]
    text = repr(answer)
    assert os.environ[KEY_ENVS[0]] not in text and upstreams[0].base_url not in text


def test_a_provider_without_deployments_reports_none(tmp_path: Path) -> None:
    router = Router(parse_config("default: m\nproviders:\n  m:\n    client: mock\n    models: [{id: mock-1}]\n"))
    answer = router.ask("hi", mode="cot")
    assert answer.deployment is None and all(a.deployment is None for a in answer.attempts)
    assert router.balancer is None
