"""Shared pytest fixtures. Keep each block small and owned; append new fixtures below."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # importing litellm must stay offline

from fake_openai_server import FakeOpenAIServer  # tests/ is on sys.path under pytest

# --- fake OpenAI-compatible server (issue 3) ----------------------------------------------


@pytest.fixture
def make_fake_server() -> Iterator[Callable[[], FakeOpenAIServer]]:
    """Start as many fake servers as a test needs; all are stopped at test end."""
    started: list[FakeOpenAIServer] = []

    def make() -> FakeOpenAIServer:
        server = FakeOpenAIServer().start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def fake_server(make_fake_server: Callable[[], FakeOpenAIServer]) -> FakeOpenAIServer:
    """A started ``FakeOpenAIServer`` on 127.0.0.1 (free port); ``.enqueue(...)`` replies."""
    return make_fake_server()


# --- real redis-server (issue 13) ---------------------------------------------------------

from redis_server import RedisServer, redis_available  # noqa: E402


def _need_redis() -> None:
    if not redis_available():
        message = "redis-server is not installed (apt-get install redis-server)"
        if os.environ.get("ROUTER_REQUIRE_REDIS"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One redis-server for the session; tests keep apart by using their own key prefix."""
    _need_redis()
    with RedisServer() as server:
        yield server


@pytest.fixture
def make_redis_server() -> Iterator[Callable[..., RedisServer]]:
    """Private redis-servers for tests that kill them or set a password; stopped at test end."""
    _need_redis()
    started: list[RedisServer] = []

    def make(password: str | None = None) -> RedisServer:
        server = RedisServer(password=password).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


# --- deployments and balancing (issue 20) -----------------------------------------------------


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys for the balancing tests' deployments (``balance_upstream.KEY_ENVS``)."""
    from balance_upstream import KEY_ENVS

    for i, env in enumerate(KEY_ENVS):
        monkeypatch.setenv(env, f"sk-balance-test-{i}-0123456789abcdef")


@pytest.fixture
def upstreams() -> Iterator[list[Any]]:
    """Three measuring upstreams on 127.0.0.1 (``balance_upstream.Upstream``), named alpha, beta, gamma."""
    from balance_upstream import NAMES, Upstream

    started = [Upstream(name).start() for name in NAMES]
    yield started
    for upstream in started:
        upstream.stop()


# --- what did not run, said loudly at the end (issue 18 item 23) --------------------------------------------

from skip_summary import pytest_terminal_summary  # noqa: E402, F401  (a hook: pytest finds it by name)

# --- router serve's app on 127.0.0.1 in front of the fake upstream (issue 19: the dialects) ----


@pytest.fixture
def serve_gateway(fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Any]]:
    """``serve_gateway(**server_settings)`` starts the real app (real Router) on a free port, upstream ``fake_server``."""
    from server_harness import SERVER_KEY, UPSTREAM_KEY_ENV, ServerThread, make_engine, upstream_config

    from router.config import ServerSettings
    from router.server.app import create_app
    from router.server.auth import KeyCheck

    monkeypatch.setenv(UPSTREAM_KEY_ENV, "sk-upstream-test")
    started: list[ServerThread] = []

    def start(**settings: Any) -> ServerThread:
        app = create_app(make_engine(upstream_config(fake_server.base_url)), ServerSettings(**settings),
                         keys=KeyCheck([SERVER_KEY.encode()]))
        server = ServerThread(app).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
