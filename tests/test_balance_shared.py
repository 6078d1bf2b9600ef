"""Balancing state shared through a real redis-server: two ``router serve`` processes, one set of caps.

``usage`` with tokens/minute caps on two deployments: whatever the two gateways do,
no deployment receives more than its cap in any 60 s (measured at the upstream),
and no caller is refused while either deployment still has room. The in-flight
counters and the cap windows agree between the in-process store and Redis.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from balance_upstream import KEY_ENVS, Upstream
from redis_server import RedisServer

from router.state.base import StateStore, Window
from router.state.memory import MemoryStore
from router.state.redis import RedisStore

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Gateway:
    """One ``python -m router serve`` process."""

    def __init__(self, config: Path) -> None:
        self.port = _free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "router", "serve", "--port", str(self.port), "--config", str(config), "--log-level", "error"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited: {self.process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("serve did not start")

    def chat(self) -> tuple[int, dict[str, str], dict[str, Any]]:
        body = json.dumps({"model": "pooled", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/v1/chat/completions", body,
                                         {"Content-Type": "application/json"})  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                return reply.status, dict(reply.headers), json.loads(reply.read())
        except urllib.error.HTTPError as exc:
            return exc.code, dict(exc.headers), json.loads(exc.read() or b"{}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def gateways() -> Iterator[Callable[[Path], Gateway]]:
    started: list[Gateway] = []

    def start(config: Path) -> Gateway:
        gateway = Gateway(config)
        started.append(gateway)
        return gateway

    yield start
    for gateway in started:
        gateway.stop()


TPM = 600
USAGE = (5, 10)  # what each upstream reports per reply: 15 tokens


@pytest.mark.usefixtures("keys")
def test_usage_caps_hold_across_two_gateways_and_nobody_is_refused_while_room_is_left(
    redis_server: RedisServer, gateways: Callable[[Path], Gateway], tmp_path: Path,
) -> None:  # fmt: skip
    ups = [Upstream(name, usage=USAGE).start() for name in ("east", "west")]
    try:
        rows = "\n".join(f"      - {{name: {u.name}, base_url: {u.base_url}, api_key_env: {KEY_ENVS[i]}, "
                         f"limits: {{tokens_per_minute: {TPM}}}}}" for i, u in enumerate(ups))  # fmt: skip
        config = tmp_path / "providers.yaml"
        config.write_text(f"""
default: pooled
retry: {{max_wait_s: 0}}
state: {{redis_url: "{redis_server.url}", key_prefix: "usage{os.getpid()}:"}}
providers:
  pooled:
    client: openai
    balance: usage
    models: [{{id: pooled-model, default: true}}]
    deployments:
{rows}
""")
        one, two = gateways(config), gateways(config)
        results: list[tuple[float, int, str | None]] = []
        lock = threading.Lock()

        def caller(gateway: Gateway) -> None:
            for _ in range(50):
                status, headers, body = gateway.chat()
                if status == 200:  # the router extension and its attempts say the same, by name
                    extension = body["router"]
                    assert extension["deployment"] == headers.get("x-router-deployment")
                    assert extension["attempts"][-1]["deployment"] == extension["deployment"]
                with lock:
                    results.append((time.time(), status, headers.get("x-router-deployment")))

        threads = [threading.Thread(target=caller, args=(g,)) for g in (one, two)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        results.sort()
        statuses = [status for _, status, _ in results]
        for upstream in ups:
            _, tokens = upstream.max_per_minute()
            assert tokens <= TPM, f"{upstream.name} received {tokens} tokens in one minute (cap {TPM})"
        served_before_refusal = statuses.index(next(s for s in statuses if s != 200)) if set(statuses) != {200} else len(statuses)
        # each deployment holds at most (TPM - two reservations of 18) / 15 before it is full: 37 + 37
        assert served_before_refusal >= 2 * math.floor((TPM - 2 * 18) / sum(USAGE))
        assert min(u.requests for u in ups) >= 30  # both deployments carried the load
        assert set(statuses) <= {200, 429}
        named = {deployment for _, status, deployment in results if status == 200}
        assert named == {"east", "west"}  # x-router-deployment names who answered
        status, _, body = one.chat()
        assert status == 429 and "at its limit" in body["error"]["message"]  # still no room: a 429, never a 503
        with urllib.request.urlopen(f"http://127.0.0.1:{one.port}/metrics", timeout=10) as reply:
            metrics = reply.read().decode()
        assert 'deployment="east"' in metrics and 'deployment="west"' in metrics
    finally:
        for upstream in ups:
            upstream.stop()


# --- the store methods agree on both stores ----------------------------------------------------


@pytest.fixture(params=["memory", "redis"])
def store(request: pytest.FixtureRequest) -> Iterator[StateStore]:
    if request.param == "memory":
        yield MemoryStore()
        return
    server: RedisServer = request.getfixturevalue("redis_server")
    redis = RedisStore(server.url, key_prefix=f"bstore{os.getpid()}{time.monotonic_ns()}:")
    yield redis
    asyncio.run(redis.aclose())


def test_windows_hold_a_cap_over_any_60_seconds(store: StateStore) -> None:
    async def main() -> None:
        def w(amount: float) -> list[Window]:
            return [Window("tpm", amount, 100)]

        assert await store.window_take(w(60), 1000.0) == 0.0
        assert await store.window_take(w(30), 1010.2) == 0.0
        assert await store.window_take(w(20), 1030.0) == pytest.approx(31.0)  # until slot 1000 leaves: 1061 - 1030
        assert await store.window_take(w(101), 1030.0) == math.inf  # never fits
        assert await store.window_used(w(0), 1030.0) == [90.0]
        await store.window_take(w(-50), 1031.0, force=True, at=1000.0)  # settle into the reservation's slot
        assert await store.window_take(w(20), 1031.0) == 0.0
        assert await store.window_used(w(0), 1061.5) == [50.0]  # slot 1000 has left; 1010 (30) and 1031 (20) remain

    asyncio.run(main())


def test_counters_pick_the_least_and_count_it_atomically(store: StateStore) -> None:
    async def main() -> None:
        keys = ["a", "b", "c"]
        picks = [await store.count_least(keys, start, 60) for start in (1, 1, 1)]
        assert picks == [1, 2, 0]  # ties rotate from the given start
        assert await store.counts(keys) == [1.0, 1.0, 1.0]
        assert await store.count_add("b", -1, 60) == 0.0
        assert await store.count_least(keys, 0, 60) == 1
        assert await store.count_add("c", -5, 60) == 0.0  # never below zero

    asyncio.run(main())
