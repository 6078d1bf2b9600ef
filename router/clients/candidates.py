"""What a chain is made of: candidates (one provider/model, or one deployment of it), their place in
one request's chain, and the one-line story of their attempts. Split from ``resilient`` (which runs them)."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from router.clients.base import Messages, SyncClient, Tools
from router.types import Attempt, ChatResponse, RequestOptions, StreamEvent

if TYPE_CHECKING:
    from router.balance import Member
    from router.clients.base import LLMClient
    from router.state.limits import Grant


@dataclass(frozen=True)
class Candidate:
    """One provider/model to try, with its own retry budget (retries after the first try)."""

    provider: str
    model: str
    client: LLMClient
    max_retries: int = 2
    key_id: str | None = None
    """A hash of the API key value in use (``guards.key_fingerprint``): a refused key is remembered by it."""
    key_env: str | None = None
    """Where the key comes from, for the message that says how to bring a refused provider back."""
    member: Member | None = None
    """The deployment this candidate is, when the provider lists ``deployments`` (``router.balance``)."""

    @property
    def deployment(self) -> str | None:
        return self.member.deployment if self.member is not None else None

    @property
    def state_key(self) -> str:
        """Breakers are kept per deployment and model (``provider/model[@deployment]``)."""
        return self.member.key if self.member is not None else f"{self.provider}/{self.model}"

    def attempt(self, ok: bool, **fields: Any) -> Attempt:
        return Attempt(self.provider, self.model, ok=ok, deployment=self.deployment, **fields)


class LazyClient(SyncClient):
    """Builds the real client on first use, so unused fallbacks cost no import and no key lookup."""

    def __init__(self, factory: Callable[[], LLMClient], provider: str, model: str) -> None:
        self._factory = factory
        self._client: LLMClient | None = None
        self._lock = threading.Lock()
        self.provider, self.model = provider, model

    def get(self) -> LLMClient:
        with self._lock:
            if self._client is None:
                self._client = self._factory()
            return self._client

    async def achat(self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None) -> ChatResponse:
        return await self.get().achat(messages, tools=tools, options=options)

    def astream(self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None) -> AsyncIterator[StreamEvent]:
        return self.get().astream(messages, tools=tools, options=options)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    def __repr__(self) -> str:
        return f"LazyClient({self.provider}/{self.model}{'' if self._client is None else ', built'})"


def built_client(candidate: Candidate) -> LLMClient:
    """The candidate's client, built now: construction (imports, key lookup) is not the provider's time."""
    client = candidate.client
    return client.get() if isinstance(client, LazyClient) else client


def summarize(attempts: tuple[Attempt, ...] | list[Attempt]) -> str:
    """One line with each provider's actual reason: ``deepseek/deepseek-chat: HTTP 429 ... x3; qwen/qwen-plus: ...``."""
    groups: dict[tuple[str, str], list[str]] = {}
    for attempt in attempts:
        reason = "ok" if attempt.ok else reason_of(attempt)
        groups.setdefault((attempt.provider, attempt.model), []).append(reason)
    parts = []
    for (provider, model), reasons in groups.items():
        counted = [f"{r} x{reasons.count(r)}" if reasons.count(r) > 1 else r for r in dict.fromkeys(reasons)]
        parts.append(f"{provider}/{model}: {'; '.join(counted)}")
    return "; ".join(parts) or "no candidate to try"


def reason_of(attempt: Attempt) -> str:
    """The provider's own words when we have them (without the repeated ``provider/model:`` prefix)."""
    if not attempt.error:
        return attempt.error_kind or "error"
    text = attempt.error
    for prefix in (f"{attempt.provider}/{attempt.model}: ", f"{attempt.provider}: "):
        text = text.removeprefix(prefix)
    return f"{attempt.error_kind}: {text}" if attempt.error_kind and attempt.error_kind not in text else text


REPLY_ALLOWANCE = 256
"""Tokens reserved for a reply without ``max_tokens`` under a deployment's tokens/minute cap (corrected after)."""


@dataclass
class Step:
    """One candidate's place in this request's chain."""

    last: bool
    sibling_after: bool
    """Another deployment of the same pool comes next: a failure here hands over at once."""
    estimate: int
    reserve: int
    """Tokens reserved under a deployment's caps: the prompt's estimate and the reply's allowance."""
    grant: Grant | None = None


def chain_steps(chain: tuple[Candidate, ...], estimate: int, options: RequestOptions | None) -> list[Step]:
    reply = options.max_tokens if options is not None and options.max_tokens else REPLY_ALLOWANCE
    steps = []
    for i, candidate in enumerate(chain):
        after = chain[i + 1] if i + 1 < len(chain) else None
        sibling = (candidate.member is not None and after is not None and after.member is not None
                   and after.member.pool == candidate.member.pool)  # fmt: skip
        steps.append(Step(last=after is None, sibling_after=sibling, estimate=estimate, reserve=estimate + reply))
    return steps


__all__ = ["REPLY_ALLOWANCE", "Candidate", "LazyClient", "Step", "built_client", "chain_steps", "reason_of", "summarize"]
