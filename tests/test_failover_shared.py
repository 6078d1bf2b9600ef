"""Two ``python -m router serve`` processes sharing one real redis-server.

A breaker opened through one process is honoured by the other at its next
request; a budget spent through both is counted once; killing Redis mid-run
loses no request (each process goes on with in-process state).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_openai_server import FakeOpenAIServer, ServerError, Text
from redis_server import RedisServer

ROOT = Path(__file__).resolve().parent.parent
KEY_ENV = "FAILOVER_SHARED_UPSTREAM_KEY"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _config(path: Path, redis_url: str, primary: str, backup: str, *, prefix: str, extra: str = "", price: float = 0.0) -> Path:
    path.write_text(f"""
default: primary
fallbacks: [backup]
retry: {{max_wait_s: 0.2}}
breaker: {{failures: 2, window_s: 60, cooldown_s: 60}}
state: {{redis_url: "{redis_url}", key_prefix: "{prefix}", timeout_s: 0.3}}
{extra}
providers:
  primary:
    client: openai
    base_url: {primary}
    api_key_env: {KEY_ENV}
    max_retries: 2
    models: [{{id: p-model, default: true, price_in: {price}, price_out: {price}}}]
  backup:
    client: openai
    base_url: {backup}
    api_key_env: {KEY_ENV}
    max_retries: 0
    models: [{{id: b-model, default: true, price_in: {price}, price_out: {price}}}]
""")
    return path


class Serve:
    """One ``python -m router serve`` process on a free port."""

    def __init__(self, config: Path) -> None:
        self.port = _free_port()
        env = {**os.environ, KEY_ENV: "sk-shared-upstream-test", "PYTHONPATH": str(ROOT)}
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

    def chat(self) -> tuple[int, dict[str, Any]]:
        body = json.dumps({"model": "auto", "messages": [{"role": "user", "content": "hi"}]}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/v1/chat/completions", body,
                                         {"Content-Type": "application/json"})  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"{}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def serve() -> Iterator[Callable[[Path], Serve]]:
    started: list[Serve] = []

    def start(config: Path) -> Serve:
        server = Serve(config)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def _answered_by(payload: dict[str, Any]) -> str:
    return str(payload.get("model", ""))


def test_a_breaker_opened_by_one_process_is_honoured_by_the_other_and_redis_dying_loses_no_request(
    make_redis_server: Callable[..., RedisServer], make_fake_server: Callable[[], FakeOpenAIServer],
    serve: Callable[[Path], Serve], tmp_path: Path,
) -> None:  # fmt: skip
    redis = make_redis_server()
    primary, backup = make_fake_server(), make_fake_server()
    primary.default_reply, backup.default_reply = ServerError(503, "down"), Text("backup answer")
    config = _config(tmp_path / "providers.yaml", redis.url, primary.base_url, backup.base_url, prefix="brk:")
    one, two = serve(config), serve(config)

    status, payload = one.chat()
    assert status == 200 and _answered_by(payload).startswith("backup")
    assert len(primary.requests) == 2  # two failures open the breaker (failures: 2)
    status, payload = two.chat()  # the other process, at once: it must not call the primary
    assert status == 200 and _answered_by(payload).startswith("backup")
    assert len(primary.requests) == 2

    redis.kill()
    results = [server.chat() for _ in range(5) for server in (one, two)]
    assert [status for status, _ in results] == [200] * 10  # in-process state takes over; nothing is lost


def test_a_budget_spent_through_two_processes_is_counted_once(
    redis_server: RedisServer, make_fake_server: Callable[[], FakeOpenAIServer],
    serve: Callable[[Path], Serve], tmp_path: Path,
) -> None:  # fmt: skip
    primary, backup = make_fake_server(), make_fake_server()
    primary.default_reply = Text("primary answer")  # usage 11 + 7 tokens
    backup.default_reply = Text("backup answer")
    # 18 tokens at 10,000 USD per million = 0.18 USD a request; 0.3 USD a day: two requests spend it
    config = _config(tmp_path / "providers.yaml", redis_server.url, primary.base_url, backup.base_url,
                     prefix=f"budget{os.getpid()}:", extra="budget_usd_per_day: 0.3", price=10_000)  # fmt: skip
    one, two = serve(config), serve(config)
    assert one.chat()[0] == 200
    assert two.chat()[0] == 200
    status, payload = one.chat()  # each process alone spent 0.18 USD: only a shared count refuses this
    assert status == 429
    assert payload["error"]["code"] == "budget_exceeded" and "budget exceeded" in payload["error"]["message"]
    assert two.chat()[0] == 429
