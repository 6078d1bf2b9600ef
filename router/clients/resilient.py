"""Retries, fallbacks and cooldowns around any ``LLMClient``.

``ResilientClient`` is itself an ``LLMClient``: the loop never knows whether it
talks to one provider or a chain. Per candidate, tenacity retries transient
failures (429 honouring Retry-After, 5xx / connection, timeouts, unreadable
replies) with capped exponential backoff and jitter; auth and bad-request errors
are never retried but do move on to the next candidate. ``ToolsUnsupportedError``
stops everything at once: the caller downgrades to a text tool protocol, which
is cheaper and more faithful than silently switching provider.

Every try becomes an ``Attempt`` (errors redacted) attached to the response, or
to ``AllProvidersFailedError`` when the chain is exhausted. ``sleep``, ``clock``
and ``rng`` are injectable so tests record waits instead of sleeping.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt

from router.errors import (
    AllProvidersFailedError,
    ConfigError,
    ProviderError,
    RateLimitError,
    ToolsUnsupportedError,
)
from router.redaction import redact
from router.types import Attempt, ChatResponse, StreamEvent

if TYPE_CHECKING:
    from router.clients.base import LLMClient
    from router.config import RetrySettings, RouterConfig

T = TypeVar("T")


@dataclass(frozen=True)
class Candidate:
    """One provider/model to try, with its own retry budget (retries after the first try)."""

    provider: str
    model: str
    client: LLMClient
    max_retries: int = 2


class LazyClient:
    """Builds the real client on first use, so unused fallbacks cost no import and no key lookup."""

    def __init__(self, factory: Callable[[], LLMClient], label: str = "") -> None:
        self._factory = factory
        self._client: LLMClient | None = None
        self._lock = threading.Lock()
        self.label = label

    def get(self) -> LLMClient:
        with self._lock:
            if self._client is None:
                self._client = self._factory()
            return self._client

    def chat(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None, **options: Any) -> ChatResponse:
        return self.get().chat(messages, tools=tools, **options)

    def stream(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None, **options: Any) -> Iterator[StreamEvent]:
        return self.get().stream(messages, tools=tools, **options)

    def __repr__(self) -> str:
        return f"LazyClient({self.label or 'unbuilt'})" if self._client is None else f"LazyClient({self._client!r})"


class CooldownTracker:
    """Skips a provider for ``cooldown_s`` after ``failures_before_cooldown`` failures in a row.

    Shared across calls (a Router owns one) and thread-safe. Only provider-health
    failures count (rate limits, 5xx, timeouts, unreadable replies, auth); a bad
    request says nothing about the provider. A success resets the count.
    """

    def __init__(self, cooldown_s: float = 60.0, failures_before_cooldown: int = 3, clock: Callable[[], float] = time.monotonic) -> None:
        self.cooldown_s = cooldown_s
        self.failures_before_cooldown = failures_before_cooldown
        self._clock = clock
        self._failures: dict[str, int] = {}
        self._until: dict[str, float] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, retry: RetrySettings, clock: Callable[[], float] = time.monotonic) -> CooldownTracker:
        return cls(retry.cooldown_s, retry.failures_before_cooldown, clock)

    def remaining(self, provider: str) -> float:
        """Seconds of cooldown left (0 when the provider may be called)."""
        with self._lock:
            until = self._until.get(provider)
            if until is None:
                return 0.0
            left = until - self._clock()
            if left <= 0:
                del self._until[provider]
                self._failures.pop(provider, None)
                return 0.0
            return left

    def is_cooling(self, provider: str) -> bool:
        return self.remaining(provider) > 0

    def record_failure(self, provider: str) -> None:
        with self._lock:
            count = self._failures.get(provider, 0) + 1
            self._failures[provider] = count
            if count >= self.failures_before_cooldown and self.cooldown_s > 0:
                self._until[provider] = self._clock() + self.cooldown_s

    def record_success(self, provider: str) -> None:
        with self._lock:
            self._failures.pop(provider, None)
            self._until.pop(provider, None)


def _retryable(exc: BaseException) -> bool:
    return isinstance(exc, ProviderError) and exc.retryable and not isinstance(exc, ToolsUnsupportedError)


def _counts_against_provider(exc: ProviderError) -> bool:
    return exc.kind in ("auth", "rate_limit", "timeout", "unavailable", "malformed")


def summarize(attempts: tuple[Attempt, ...] | list[Attempt]) -> str:
    """One line: ``deepseek/deepseek-chat: rate_limit x3; qwen/qwen-plus: auth``."""
    groups: dict[tuple[str, str], list[str]] = {}
    for attempt in attempts:
        groups.setdefault((attempt.provider, attempt.model), []).append("ok" if attempt.ok else attempt.error_kind or "error")
    parts = []
    for (provider, model), kinds in groups.items():
        counted = [f"{kind} x{kinds.count(kind)}" if kinds.count(kind) > 1 else kind for kind in dict.fromkeys(kinds)]
        parts.append(f"{provider}/{model}: {', '.join(counted)}")
    return "; ".join(parts) or "no candidate to try"


class ResilientClient:
    """An ``LLMClient`` that retries each candidate, then falls back to the next one."""

    def __init__(
        self,
        candidates: list[Candidate] | tuple[Candidate, ...],
        *,
        retry: RetrySettings | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        cooldowns: CooldownTracker | None = None,
        base_delay_s: float = 0.5,
        rng: random.Random | None = None,
    ) -> None:
        if not candidates:
            raise ValueError("ResilientClient needs at least one candidate")
        self.candidates = tuple(candidates)
        self.max_wait_s = retry.max_wait_s if retry is not None else 20.0
        self.cooldowns = cooldowns if cooldowns is not None else (
            CooldownTracker.from_settings(retry, clock) if retry is not None else CooldownTracker(clock=clock)
        )
        self.base_delay_s = base_delay_s
        self._sleep = sleep
        self._clock = clock
        self._rng = rng or random.Random()

    @classmethod
    def from_config(
        cls,
        config: RouterConfig,
        provider: str,
        model: str | None = None,
        *,
        needs_tools: bool = False,
        needs_streaming: bool = False,
        **kwargs: Any,
    ) -> ResilientClient:
        """The chain of ``fallback_chain``, each client built on first use.

        A missing key of the chosen provider therefore surfaces when the client is
        called, as ``MissingAPIKeyError`` naming the variable.
        """
        from router.clients.factory import make_client

        candidates = []
        for name, model_id in fallback_chain(config, provider, model, needs_tools=needs_tools, needs_streaming=needs_streaming):
            settings = config.provider(name)
            resolved = settings.model(model_id).id

            def factory(name: str = name, model_id: str | None = model_id) -> LLMClient:
                return make_client(config, name, model_id)

            candidates.append(Candidate(name, resolved, LazyClient(factory, f"{name}/{resolved}"), settings.max_retries))
        kwargs.setdefault("retry", config.retry)
        return cls(candidates, **kwargs)

    def __repr__(self) -> str:
        chain = ", ".join(f"{c.provider}/{c.model}" for c in self.candidates)
        return f"ResilientClient([{chain}])"

    # --- waiting ----------------------------------------------------------------------

    def backoff_s(self, retry_number: int, error: BaseException | None) -> float:
        """Wait before retry ``retry_number`` (1-based): Retry-After when given, else 2^n backoff with jitter."""
        if isinstance(error, RateLimitError) and error.retry_after is not None:
            return min(max(error.retry_after, 0.0), self.max_wait_s)
        exponential = self.base_delay_s * 2 ** (retry_number - 1)
        # "equal jitter": half fixed, half random, so concurrent callers spread out but never hammer
        return min(exponential / 2 + self._rng.uniform(0, exponential / 2), self.max_wait_s)

    def _wait(self, state: RetryCallState) -> float:
        error = state.outcome.exception() if state.outcome is not None else None
        return self.backoff_s(state.attempt_number, error)

    # --- the chain --------------------------------------------------------------------

    def _run(self, call: Callable[[LLMClient], T], attempts: list[Attempt], on_success: Callable[[Candidate, T, float], None]) -> T:
        """Try candidates in order; returns the first success, raises AllProvidersFailedError."""
        last_error: BaseException | None = None
        for index, candidate in enumerate(self.candidates):
            left = self.cooldowns.remaining(candidate.provider)
            if left > 0:
                attempts.append(Attempt(candidate.provider, candidate.model, ok=False, error_kind="cooldown",
                                        error=f"skipped: cooling down for another {left:.0f}s"))
                continue
            try:
                return self._try_candidate(candidate, call, attempts, on_success)
            except ToolsUnsupportedError as exc:
                exc.attempts = tuple(attempts)  # the loop downgrades to text; keep the refused try on record
                raise
            except ProviderError as exc:
                last_error = exc
            except ConfigError as exc:
                if index == 0:
                    raise  # the chosen provider has no key: say which variable, do not hide it behind a fallback
                attempts.append(Attempt(candidate.provider, candidate.model, ok=False, error_kind="config", error=redact(str(exc))))
                last_error = exc
        error = AllProvidersFailedError(f"all providers failed: {summarize(attempts)}", attempts=tuple(attempts))
        raise error from last_error

    def _try_candidate(self, candidate: Candidate, call: Callable[[LLMClient], T], attempts: list[Attempt],
                       on_success: Callable[[Candidate, T, float], None]) -> T:
        def record_wait(state: RetryCallState) -> None:
            wait = state.next_action.sleep if state.next_action is not None else 0.0
            attempts[-1] = replace(attempts[-1], wait_s=wait)

        retrying = Retrying(
            stop=stop_after_attempt(candidate.max_retries + 1),
            wait=self._wait,
            retry=retry_if_exception(_retryable),
            sleep=self._sleep,
            before_sleep=record_wait,
            reraise=True,
        )
        for attempt in retrying:
            with attempt:
                started = self._clock()
                try:
                    result = call(candidate.client)
                except ProviderError as exc:
                    self._failed(candidate, exc, started, attempts)
                    raise
                on_success(candidate, result, self._clock() - started)
                return result
        raise AssertionError("unreachable: tenacity either returns or re-raises")  # pragma: no cover

    # --- LLMClient --------------------------------------------------------------------

    def _failed(self, candidate: Candidate, exc: ProviderError, started: float, attempts: list[Attempt]) -> None:
        """Record a failed try (redacted) and let it count towards the provider's cooldown."""
        attempts.append(Attempt(candidate.provider, candidate.model, ok=False, error_kind=exc.kind,
                                error=redact(str(exc)), latency_s=self._clock() - started))
        if _counts_against_provider(exc):
            self.cooldowns.record_failure(candidate.provider)

    def chat(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None, **options: Any) -> ChatResponse:
        attempts: list[Attempt] = []

        def succeeded(candidate: Candidate, response: ChatResponse, latency: float) -> None:
            attempts.append(Attempt(candidate.provider, candidate.model, ok=True, latency_s=latency))
            self.cooldowns.record_success(candidate.provider)

        response = self._run(lambda client: client.chat(messages, tools=tools, **options), attempts, succeeded)
        return replace(response, attempts=tuple(attempts))

    def stream(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None, **options: Any) -> Iterator[StreamEvent]:
        """Retries and fallback happen only until the first event: after that, text has been shown."""
        attempts: list[Attempt] = []
        chosen: list[tuple[Candidate, float]] = []

        def open_stream(client: LLMClient) -> tuple[StreamEvent, Iterator[StreamEvent]]:
            events = iter(client.stream(messages, tools=tools, **options))
            try:
                return next(events), events
            except StopIteration:
                raise ProviderError("stream produced no events") from None

        def opened(candidate: Candidate, result: tuple[StreamEvent, Iterator[StreamEvent]], latency: float) -> None:
            chosen.append((candidate, self._clock() - latency))

        first, events = self._run(open_stream, attempts, opened)
        candidate, started = chosen[0]
        event: StreamEvent | None = first
        try:
            while event is not None:
                if event.kind == "done" and event.response is not None:
                    attempts.append(Attempt(candidate.provider, candidate.model, ok=True, latency_s=self._clock() - started))
                    self.cooldowns.record_success(candidate.provider)
                    yield replace(event, response=replace(event.response, attempts=tuple(attempts)))
                    return
                yield event
                event = next(events, None)
        except ProviderError as exc:
            self._failed(candidate, exc, started, attempts)
            raise
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()  # a caller that stops early releases the HTTP connection now, not at GC
        raise ProviderError("stream ended without a done event", provider=candidate.provider, model=candidate.model)


def fallback_chain(
    config: RouterConfig,
    provider: str,
    model: str | None = None,
    *,
    needs_tools: bool = False,
    needs_streaming: bool = False,
) -> list[tuple[str, str | None]]:
    """Who to try, in order: the chosen provider, then ``config.fallbacks``.

    Fallbacks without a key or without a capability the request needs are
    skipped; the chosen provider never is, so calling it reports its own missing
    key (naming the variable) instead of quietly answering from somewhere else.
    """
    config.provider(provider)  # unknown provider -> UsageError listing the known ones
    chain: list[tuple[str, str | None]] = [(provider, model)]
    seen = {provider}
    for name in config.fallbacks:
        if name in seen:
            continue
        seen.add(name)
        settings = config.provider(name)
        if not settings.has_key():
            continue
        capabilities = settings.capabilities_for(None)
        if (needs_tools and not capabilities.tools) or (needs_streaming and not capabilities.streaming):
            continue
        chain.append((name, None))
    return chain


__all__ = ["Candidate", "CooldownTracker", "LazyClient", "ResilientClient", "fallback_chain", "summarize"]
