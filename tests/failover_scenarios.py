"""Failover scenarios over real HTTP: a faulty primary, a healthy backup, the real Router and OpenAIClient.

Shared by tests/test_failover_scenarios.py (one test per scenario, behaviour only)
and bench/failover.py (the same scenarios, timed, as a scorecard).
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fake_openai_server import FakeOpenAIServer, Text

from router.config import RouterConfig, parse_config
from router.core import Router
from router.types import Answer, Event, RestartEvent

KEY_ENV = "FAILOVER_TEST_KEY"
BACKUP_TEXT = "the backup answers"
QUESTION = [{"role": "user", "content": "hello"}]
TOOLS = [{"type": "function", "function": {"name": "lookup", "description": "look something up",
                                            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}}]  # fmt: skip
SKIPS = ("circuit_open", "auth_out", "rate_limited")


def closed_port_url() -> str:
    """A 127.0.0.1 URL where nothing listens: connections are refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def config(primary_url: str, backup_url: str, *, first_token_s: float = 1.0, stall_s: float = 1.0,
           cooldown_s: float = 0.5, failures: int = 3, retry: str = "max_wait_s: 2", extra: str = "",
           primary_extra: str = "") -> RouterConfig:  # fmt: skip
    os.environ.setdefault(KEY_ENV, "sk-failover-test-key")
    return parse_config(f"""
default: primary
fallbacks: [backup]
retry: {{{retry}}}
deadlines: {{first_token_s: {first_token_s}, stall_s: {stall_s}, generation_s: {first_token_s}, total_s: 30}}
breaker: {{failures: {failures}, window_s: 30, cooldown_s: {cooldown_s}}}
{extra}
providers:
  primary:
    client: openai
    base_url: {primary_url}
    api_key_env: {KEY_ENV}
    max_retries: 2
    models: [{{id: p-model, default: true, price_in: 1.0, price_out: 2.0}}]
{primary_extra}
  backup:
    client: openai
    base_url: {backup_url}
    api_key_env: {KEY_ENV}
    max_retries: 2
    models: [{{id: b-model, default: true, price_in: 1.0, price_out: 2.0}}]
""", "failover-test.yaml")


async def _no_sleep(seconds: float) -> None:
    """Backoff waits are recorded in the attempts; the scenarios do not need to sit through them."""


def make_router(cfg: RouterConfig, *, real_sleep: bool = False) -> Router:
    return Router(cfg, sleep=None if real_sleep else _no_sleep)


@dataclass
class Outcome:
    answer: Answer | None
    error: BaseException | None
    events: list[Event] = field(default_factory=list)
    elapsed_s: float = 0.0

    @property
    def provider(self) -> str | None:
        return self.answer.provider if self.answer else None

    @property
    def attempts(self) -> tuple[Any, ...]:
        if self.answer is not None:
            return self.answer.attempts
        return tuple(getattr(self.error, "attempts", ()))

    def tries(self, provider: str = "primary") -> int:
        """Requests really sent to ``provider`` (skips do not count)."""
        return sum(1 for a in self.attempts if a.provider == provider and a.error_kind not in SKIPS)

    @property
    def wasted(self) -> int:
        return sum(1 for a in self.attempts if not a.ok and a.error_kind not in SKIPS)

    @property
    def restarted(self) -> bool:
        return any(isinstance(e, RestartEvent) for e in self.events)

    @property
    def text_after_restart(self) -> str:
        """The text a caller that honours restart events ends up showing."""
        shown: list[str] = []
        for event in self.events:
            if isinstance(event, RestartEvent):
                shown.clear()
            elif event.kind == "text" and not getattr(event, "reasoning", False):
                shown.append(event.text)  # type: ignore[union-attr]
        return "".join(shown)


def ask(router: Router, *, stream: bool, tools: list[dict[str, Any]] | None = None) -> Outcome:
    from router.aio import run_sync

    events: list[Event] = []
    started = time.perf_counter()
    try:
        answer = run_sync(router.achat(QUESTION, tools=tools, stream=stream, on_event=events.append))
    except Exception as exc:
        return Outcome(None, exc, events, time.perf_counter() - started)
    return Outcome(answer, None, events, time.perf_counter() - started)


def backup_server(make: Callable[[], FakeOpenAIServer]) -> FakeOpenAIServer:
    server = make()
    server.default_reply = Text(BACKUP_TEXT, chunk_size=4)
    return server


__all__ = ["BACKUP_TEXT", "KEY_ENV", "TOOLS", "Outcome", "ask", "backup_server", "closed_port_url", "config", "make_router"]
