"""Shared pytest fixtures. Keep each block small and owned; append new fixtures below."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

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
