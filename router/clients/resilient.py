"""Executing a chain of candidates: retries, fallbacks and circuit breakers around any ``LLMClient``.

``ResilientClient`` is itself an ``LLMClient``: the loop never knows whether it
talks to one provider or a chain. It reads no configuration: who is in the chain,
in which order, was decided by ``router.routing.plan``. Per candidate it retries
transient failures (429 honouring Retry-After, 5xx / connection, timeouts,
unreadable or empty replies) with capped exponential backoff and jitter; auth and
bad-request errors are never retried but move on to the next candidate, and a 429
whose Retry-After exceeds the wait cap moves on at once. ``ToolsUnsupportedError``
stops everything: the caller downgrades to the text tool protocol, which is
cheaper and more faithful than silently switching provider.

Every try becomes an ``Attempt`` (errors redacted) attached to the response, or
to ``AllProvidersFailedError`` when the chain is exhausted. ``sleep``, ``clock``
and ``rng`` are injectable so tests record waits instead of sleeping.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from router.clients.base import Messages, SyncClient, Tools
from router.errors import (
    AllProvidersFailedError,
    ConfigError,
    MalformedResponseError,
    ProviderError,
    RateLimitError,
    ToolsUnsupportedError,
)
from router.redaction import redact
from router.types import Attempt, ChatResponse, RequestOptions, StreamEvent

if TYPE_CHECKING:
    from router.clients.base import LLMClient
    from router.config import RetrySettings
    from router.state.breaker import CircuitBreaker

T = TypeVar("T")
_JITTER = random.Random()


@dataclass(frozen=True)
class Candidate:
    """One provider/model to try, with its own retry budget (retries after the first try)."""

    provider: str
    model: str
    client: LLMClient
    max_retries: int = 2


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


def _counts_against_provider(exc: ProviderError) -> bool:
    return exc.kind in ("auth", "rate_limit", "timeout", "unavailable", "malformed")


def summarize(attempts: tuple[Attempt, ...] | list[Attempt]) -> str:
    """One line with each provider's actual reason: ``deepseek/deepseek-chat: HTTP 429 ... x3; qwen/qwen-plus: ...``."""
    groups: dict[tuple[str, str], list[str]] = {}
    for attempt in attempts:
        reason = "ok" if attempt.ok else _reason(attempt)
        groups.setdefault((attempt.provider, attempt.model), []).append(reason)
    parts = []
    for (provider, model), reasons in groups.items():
        counted = [f"{r} x{reasons.count(r)}" if reasons.count(r) > 1 else r for r in dict.fromkeys(reasons)]
        parts.append(f"{provider}/{model}: {'; '.join(counted)}")
    return "; ".join(parts) or "no candidate to try"


def _reason(attempt: Attempt) -> str:
    """The provider's own words when we have them (without the repeated ``provider/model:`` prefix)."""
    if not attempt.error:
        return attempt.error_kind or "error"
    text = attempt.error
    for prefix in (f"{attempt.provider}/{attempt.model}: ", f"{attempt.provider}: "):
        text = text.removeprefix(prefix)
    return f"{attempt.error_kind}: {text}" if attempt.error_kind and attempt.error_kind not in text else text


def _empty(response: ChatResponse) -> bool:
    message = response.message
    return not (message.content or message.tool_calls or message.reasoning_content or message.refusal) and (
        response.finish_reason != "length"
    )


class ResilientClient(SyncClient):
    """An ``LLMClient`` that retries each candidate, then falls back to the next one."""

    def __init__(
        self,
        candidates: list[Candidate] | tuple[Candidate, ...],
        *,
        retry: RetrySettings | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
        breaker: CircuitBreaker | None = None,
        base_delay_s: float = 0.5,
        rng: random.Random | None = None,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        if not candidates:
            raise ValueError("ResilientClient needs at least one candidate")
        self.candidates = tuple(candidates)
        self.provider, self.model = self.candidates[0].provider, self.candidates[0].model
        self.max_wait_s = retry.max_wait_s if retry is not None else 20.0
        if breaker is None:
            from router.state.breaker import CircuitBreaker
            from router.state.memory import MemoryStore

            breaker = CircuitBreaker(MemoryStore())  # a chain of its own: breakers shared by nobody else
        self.breaker = breaker
        self.base_delay_s = base_delay_s
        self._sleep = sleep
        self._clock = clock
        self._rng = rng or _JITTER  # seeding a Random per chain costs ~40 us: one per process is enough
        self._notify = notify

    def __repr__(self) -> str:
        chain = ", ".join(f"{c.provider}/{c.model}" for c in self.candidates)
        return f"ResilientClient([{chain}])"

    def backoff_s(self, retry_number: int, error: BaseException | None) -> float:
        """Wait before retry ``retry_number`` (1-based): Retry-After when given, else 2^n backoff with jitter."""
        if isinstance(error, RateLimitError) and error.retry_after is not None:
            return min(max(error.retry_after, 0.0), self.max_wait_s)
        exponential = self.base_delay_s * 2 ** (retry_number - 1)
        # "equal jitter": half fixed, half random, so concurrent callers spread out but never hammer
        return min(exponential / 2 + self._rng.uniform(0, exponential / 2), self.max_wait_s)

    # --- the chain --------------------------------------------------------------------

    async def _run(self, call: Callable[[LLMClient], Awaitable[T]], attempts: list[Attempt]) -> tuple[Candidate, T, float]:
        """Try candidates in order; (candidate, result, started) of the first success, else AllProvidersFailedError."""
        last_error: BaseException | None = None
        for index, candidate in enumerate(self.candidates):
            decision = await self.breaker.allow(f"{candidate.provider}/{candidate.model}")
            if not decision.allowed:
                attempts.append(Attempt(candidate.provider, candidate.model, ok=False, error_kind="circuit_open",
                                        error=f"skipped: circuit open, next probe in {decision.retry_in_s:.0f}s"))  # fmt: skip
                continue
            try:
                return await self._try_candidate(candidate, call, attempts)
            except ToolsUnsupportedError as exc:
                exc.attempts = tuple(attempts)  # the loop downgrades to text; keep the refused try on record
                raise
            except ProviderError as exc:
                last_error = exc
            except ConfigError as exc:
                if index == 0:
                    raise  # the chosen provider cannot be built: say why, do not hide it behind a fallback
                attempts.append(Attempt(candidate.provider, candidate.model, ok=False, error_kind="config", error=redact(str(exc))))
                last_error = exc
        raise AllProvidersFailedError(f"all providers failed: {summarize(attempts)}", attempts=tuple(attempts)) from last_error

    async def _try_candidate(
        self, candidate: Candidate, call: Callable[[LLMClient], Awaitable[T]], attempts: list[Attempt]
    ) -> tuple[Candidate, T, float]:
        for number in range(candidate.max_retries + 1):
            started = self._clock()
            try:
                result = await call(candidate.client)
                if isinstance(result, ChatResponse) and _empty(result):
                    raise MalformedResponseError("the model sent an empty reply", provider=candidate.provider, model=candidate.model)
                return candidate, result, started
            except ProviderError as exc:
                await self._failed(candidate, exc, started, attempts)
                too_long = isinstance(exc, RateLimitError) and (exc.retry_after or 0) > self.max_wait_s
                if not exc.retryable or isinstance(exc, ToolsUnsupportedError) or too_long or number == candidate.max_retries:
                    raise
                wait = self.backoff_s(number + 1, exc)
                attempts[-1] = replace(attempts[-1], wait_s=wait)
                if self._notify is not None:
                    self._notify(f"{candidate.provider}: {_reason(attempts[-1])}; retrying in {wait:.1f} s")
                await self._sleep(wait)
        raise AssertionError("unreachable: the last try returns or raises")  # pragma: no cover

    async def _failed(self, candidate: Candidate, exc: ProviderError, started: float, attempts: list[Attempt]) -> None:
        """Record a failed try (redacted) and let it count towards the model's circuit breaker."""
        attempts.append(Attempt(candidate.provider, candidate.model, ok=False, error_kind=exc.kind,
                                error=redact(str(exc)), latency_s=self._clock() - started))  # fmt: skip
        if _counts_against_provider(exc):
            await self.breaker.record_failure(f"{candidate.provider}/{candidate.model}")

    async def _succeeded(self, candidate: Candidate, started: float, attempts: list[Attempt]) -> None:
        attempts.append(Attempt(candidate.provider, candidate.model, ok=True, latency_s=self._clock() - started))
        await self.breaker.record_success(f"{candidate.provider}/{candidate.model}")

    # --- LLMClient --------------------------------------------------------------------

    async def achat(self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None) -> ChatResponse:
        attempts: list[Attempt] = []
        candidate, response, started = await self._run(lambda client: client.achat(messages, tools=tools, options=options), attempts)
        await self._succeeded(candidate, started, attempts)
        return replace(response, attempts=tuple(attempts), provider=candidate.provider, model=response.model or candidate.model)

    async def astream(
        self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        """Retries and fallback happen only until the first event: after that, text has been shown."""
        attempts: list[Attempt] = []

        async def open_stream(client: LLMClient) -> tuple[StreamEvent, AsyncIterator[StreamEvent]]:
            events = client.astream(messages, tools=tools, options=options).__aiter__()
            try:
                return await events.__anext__(), events
            except StopAsyncIteration:
                raise MalformedResponseError("stream produced no events") from None

        candidate, (first, events), started = await self._run(open_stream, attempts)
        event: StreamEvent | None = first
        try:
            while event is not None:
                if event.kind == "done" and event.response is not None:
                    await self._succeeded(candidate, started, attempts)
                    yield replace(event, response=replace(event.response, attempts=tuple(attempts), provider=candidate.provider))
                    return
                yield event
                event = await anext(events, None)
        except ProviderError as exc:
            await self._failed(candidate, exc, started, attempts)
            exc.attempts = tuple(attempts)
            raise
        finally:
            aclose = getattr(events, "aclose", None)
            if aclose is not None:
                await aclose()  # a caller that stops early releases the HTTP connection now, not at GC
        raise MalformedResponseError("stream ended without a done event", provider=candidate.provider, model=candidate.model)

    async def aclose(self) -> None:
        """The chain does not own its clients: the Router that built them closes them."""


__all__ = ["Candidate", "LazyClient", "ResilientClient", "summarize"]
