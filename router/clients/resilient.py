"""Executing a chain of candidates: retries, deadlines, breakers and fallbacks by error class.

``ResilientClient`` is itself an ``LLMClient``: the loop never knows whether it
talks to one provider or a chain. It reads no configuration: who is in the chain,
in which order, was decided by ``router.routing.plan``. Per candidate it retries
transient failures (429 honouring Retry-After, 5xx / connection, unreadable or
empty replies) with capped exponential backoff and jitter, at most
``retries_with_fallback`` times while a later candidate remains (an outage costs
two tries, not three, before the fallback answers). Moving on at once, no retry:
deadline timeouts (a silent provider; ``router.clients.deadlines``), a 429 whose
Retry-After exceeds the wait cap, context window exceeded, content policy, auth
(the key is then out until it changes; ``router.clients.guards``) and other bad
requests. ``ToolsUnsupportedError`` stops everything: the caller downgrades to
the text tool protocol, which is cheaper and more faithful than switching provider.

Streams: text and tool-call fragments are passed on as they arrive (a caller
running its own tools shows the arguments being written). A stream that breaks
before anything was shown falls back transparently; after text or a tool-call
piece was shown the next try starts with a ``restart`` event (discard what was
shown). A stream that ends without a finish
(no ``done``) is a failure, never an answer.

Deployments: a provider that lists ``deployments`` is one candidate per deployment,
in a pool; the balancer (``router.balance``) puts each pool in this request's order
before the first try. A deployment's breaker, 429 cooldown, refused key, caps and
latency are its own (``provider/model@deployment``), and a deployment that fails
with a sibling left hands over at once (one try, no backoff), so a provider's other
deployments answer before any fallback to another provider. Caps are reserved up
front (prompt estimate plus ``max_tokens`` or ``REPLY_ALLOWANCE``) and never waited
for while anyone else could answer.

Every try becomes an ``Attempt`` (errors redacted) attached to the response, or
to ``AllProvidersFailedError`` when the chain is exhausted. ``sleep``, ``clock``
and ``rng`` are injectable so tests record waits instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from router.clients.base import Messages, SyncClient, Tools
from router.clients.candidates import Candidate, LazyClient, Step, built_client, chain_steps, reason_of, summarize
from router.clients.deadlines import Deadlines, call_with_deadline, stream_with_deadlines
from router.clients.guards import Guards, estimate_tokens
from router.errors import (
    AllProvidersFailedError,
    AuthenticationError,
    ConfigError,
    ContentPolicyError,
    MalformedResponseError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
    ToolsUnsupportedError,
)
from router.redaction import redact
from router.types import Attempt, ChatResponse, RequestOptions, StreamEvent

if TYPE_CHECKING:
    from router.balance import Balancer, Flights, Member
    from router.clients.cache import ResponseCache
    from router.config import RetrySettings
    from router.state.breaker import CircuitBreaker
    from router.state.limits import Grant

T = TypeVar("T")
_JITTER = random.Random()


def _counts_against_provider(exc: ProviderError) -> bool:
    return exc.kind in ("auth", "rate_limit", "timeout", "unavailable", "malformed")


def _empty(response: ChatResponse) -> bool:
    message = response.message
    return not (message.content or message.tool_calls or message.reasoning_content or message.refusal) and (
        response.finish_reason != "length"
    )


class _Skip(Exception):
    """Internal: this candidate is passed over (recorded already)."""


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
        on_switch: Callable[[str, str, str], None] | None = None,
        deadlines: Deadlines | None = None,
        guards: Guards | None = None,
        cache: ResponseCache | None = None,
        balancer: Balancer | None = None,
    ) -> None:
        if not candidates:
            raise ValueError("ResilientClient needs at least one candidate")
        self.candidates = tuple(candidates)
        self.provider, self.model = self.candidates[0].provider, self.candidates[0].model
        self.max_wait_s = retry.max_wait_s if retry is not None else 20.0
        self.retries_with_fallback = retry.retries_with_fallback if retry is not None else 1
        self.on_content_filter = retry.on_content_filter if retry is not None else "answer"
        if breaker is None:
            from router.state.breaker import CircuitBreaker
            from router.state.memory import MemoryStore

            breaker = CircuitBreaker(MemoryStore())  # a chain of its own: breakers shared by nobody else
        self.breaker = breaker
        self.deadlines = deadlines or Deadlines()
        self.guards = guards or Guards()
        self.cache = cache
        self.balancer = balancer if any(c.member is not None for c in self.candidates) else None
        self.base_delay_s = base_delay_s
        self._sleep = sleep
        self._clock = clock
        self._rng = rng or _JITTER  # seeding a Random per chain costs ~40 us: one per process is enough
        self._notify = notify
        self._on_switch = on_switch
        """Told (provider, model, why) when a fallback is asked: a stream can then name who answers."""
        self._clean: set[str] = set()

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

    def _say(self, text: str) -> None:
        if self._notify is not None:
            self._notify(text)

    # --- before a try -----------------------------------------------------------------

    async def _admit(self, candidate: Candidate, attempts: list[Attempt], estimate: int, step: Step) -> int:
        """How many tries this candidate gets now (>= 1), or ``_Skip`` after recording why not."""
        name = candidate.state_key
        auth = self.guards.auth
        if auth is not None:
            reason = await auth.reason(candidate.provider, candidate.key_id, deployment=candidate.deployment,
                                       model=candidate.model)  # fmt: skip
            if reason is not None:
                where = f" (set a new key in {candidate.key_env}, or clear it: router.balance.status)" if candidate.key_env else ""
                attempts.append(candidate.attempt(False, error_kind="auth_out", error=f"skipped: its key was refused ({reason}){where}"))
                raise _Skip
        member = candidate.member
        if member is not None and self.balancer is not None:
            cooling = await self.balancer.cooling(member)
            if cooling:
                attempts.append(candidate.attempt(False, error_kind="cooling", error=f"skipped: {cooling}"))
                raise _Skip
        decision = await self.breaker.allow(name)
        if decision.clean:
            self._clean.add(name)
        else:
            self._clean.discard(name)
        if not decision.allowed:
            attempts.append(candidate.attempt(False, error_kind="circuit_open",
                                              error=f"skipped: circuit open, next probe in {decision.retry_in_s:.0f}s"))  # fmt: skip
            raise _Skip
        if member is not None and member.limits is not None and self.balancer is not None:
            step.grant = await self._reserve(candidate, member, attempts, step, decision.probe)
        limiter = self.guards.limiter
        if limiter is not None and member is None:
            waited = 0.0
            while (wait := await limiter.acquire(candidate.provider, tokens=estimate)) > 0:
                if waited + wait > self.max_wait_s:
                    attempts.append(candidate.attempt(False, error_kind="rate_limited",
                                                      error=f"skipped: client-side rate limit, {wait:.1f}s to wait"))  # fmt: skip
                    if decision.probe:
                        await self.breaker.record_success(name)  # hand the probe back: nothing was learnt
                    raise _Skip
                waited += wait
                await self._sleep(wait)
        self._announce_fallback(candidate, attempts)
        if decision.probe or step.sibling_after:
            return 1  # a half-open probe decides for everyone; a deployment with a sibling left hands over at once
        return 1 + (candidate.max_retries if step.last else min(candidate.max_retries, self.retries_with_fallback))

    async def _reserve(self, candidate: Candidate, member: Member, attempts: list[Attempt], step: Step, probe: bool) -> Grant:
        """Reserve a request and its tokens under the deployment's caps; a full deployment with a sibling
        (or a later provider) left is passed over at once: the caller is served there, not made to wait."""
        assert self.balancer is not None and member.limits is not None
        waited = 0.0
        while True:
            grant = await self.balancer.limits.acquire(member.limit_key, member.limits, tokens=step.reserve)
            if grant.wait_s <= 0:
                return grant
            if not step.last or waited + grant.wait_s > self.max_wait_s:
                attempts.append(candidate.attempt(False, error_kind="rate_limited", wait_s=min(grant.wait_s, 3600.0),
                                                  error=f"skipped: deployment at its limit, {grant.wait_s:.1f}s to wait"))  # fmt: skip
                if probe:
                    await self.breaker.record_success(candidate.state_key)
                raise _Skip
            waited += grant.wait_s
            await self._sleep(grant.wait_s)

    def _announce_fallback(self, candidate: Candidate, attempts: list[Attempt]) -> None:
        """Said as it happens, not only after the answer: who failed last, and who is asked now."""
        failed = next((a for a in reversed(attempts) if not a.ok and not (a.error or "").startswith("skipped")), None)
        if failed is not None:
            self._say(f"{failed.provider}: {reason_of(failed)}; falling back to {candidate.provider}/{candidate.model}")
            if self._on_switch is not None:
                self._on_switch(candidate.provider, candidate.model, f"fallback after {failed.provider}/{failed.model} failed")

    # --- after a try ------------------------------------------------------------------

    def _stops(self, exc: ProviderError) -> bool:
        """The whole chain stops: tools refused (the loop downgrades to text ReAct), or a content policy
        refusal the configuration says to accept rather than send elsewhere."""
        if isinstance(exc, ToolsUnsupportedError):
            return True
        return isinstance(exc, ContentPolicyError) and self.on_content_filter == "answer"

    def _moves_on(self, exc: ProviderError, step: Step) -> bool:
        """No retry of the same candidate: go to the next one now."""
        if not exc.retryable:
            return True
        if isinstance(exc, RateLimitError) and (exc.retry_after or 0) > self.max_wait_s:
            return True
        return isinstance(exc, ProviderTimeoutError) and not step.last

    async def _failed(self, candidate: Candidate, exc: ProviderError, started: float, attempts: list[Attempt]) -> bool:
        """Record a failed try (redacted), count it towards the breaker; False when the breaker is now open.

        An error that stops the whole chain (``_stops``) is re-raised here with the record attached.
        """
        latency = self._clock() - started
        attempts.append(candidate.attempt(False, error_kind=exc.kind, error=redact(str(exc)), latency_s=latency,
                                          retry_after_s=exc.retry_after if exc.kind == "rate_limit" else None))
        still_closed = True
        if _counts_against_provider(exc):
            still_closed = (await self.breaker.record_failure(candidate.state_key)).allowed
        member = candidate.member
        if member is not None and self.balancer is not None:
            self.balancer.observe(member, latency, ok=False)
            if isinstance(exc, RateLimitError) or not still_closed:
                why = "answered HTTP 429" if isinstance(exc, RateLimitError) else "its circuit opened"
                wait = await self.balancer.cool(member, exc.retry_after if isinstance(exc, RateLimitError) else None,
                                                f"deployment {member.deployment} {why}")  # fmt: skip
                self._say(f"{candidate.provider}: deployment {member.deployment} {why}; left out for {wait:.0f} s")
        if isinstance(exc, AuthenticationError) and self.guards.auth is not None:
            status = f"HTTP {exc.status}" if exc.status else "authentication failed"
            scope = await self.guards.auth.mark(candidate.provider, candidate.key_id, status, deployment=candidate.deployment,
                                                model=candidate.model, message=str(exc))  # fmt: skip
            if scope is not None:
                where = f" in {candidate.key_env}" if candidate.key_env else ""
                self._say(f"{candidate.provider}: its API key was refused ({status}); {scope} is skipped until "
                          f"the key{where} changes or an operator clears it")  # fmt: skip
        if self._stops(exc):
            exc.attempts = tuple(attempts)  # keep the refused try on record
            raise exc
        return still_closed

    async def _succeeded(
        self, candidate: Candidate, started: float, attempts: list[Attempt], response: ChatResponse, step: Step,
        first_token_s: float | None = None,
    ) -> ChatResponse:
        """Record the success (breaker, limits, latency, budget); the response with the whole record and who answered."""
        usage = response.usage
        latency = self._clock() - started
        attempts.append(candidate.attempt(True, latency_s=latency))
        name = candidate.state_key
        if name not in self._clean:  # a breaker with nothing on record needs no reset
            await self.breaker.record_success(name)
        member = candidate.member
        if member is not None and self.balancer is not None:
            self.balancer.observe(member, latency if first_token_s is None else first_token_s, ok=True)
            if step.grant is not None and member.limits is not None and usage.total_tokens:
                await self.balancer.limits.settle(member.limit_key, member.limits, estimated=step.reserve,
                                                  actual=usage.total_tokens, at=step.grant.at)  # fmt: skip
        elif self.guards.limiter is not None and usage.total_tokens:
            await self.guards.limiter.settle(candidate.provider, estimated=step.estimate, actual=usage.total_tokens)
        await self.guards.charge(candidate.provider, candidate.model, usage)
        return replace(response, attempts=tuple(attempts), provider=candidate.provider,
                       model=response.model or candidate.model, deployment=candidate.deployment)  # fmt: skip

    async def _retry_wait(self, candidate: Candidate, exc: ProviderError, number: int, attempts: list[Attempt]) -> None:
        wait = self.backoff_s(number + 1, exc)
        attempts[-1] = replace(attempts[-1], wait_s=wait)
        self._say(f"{candidate.provider}: {reason_of(attempts[-1])}; retrying in {wait:.1f} s")
        await self._sleep(wait)

    def _check(self, candidate: Candidate, response: ChatResponse | None) -> ChatResponse:
        """A reply that is no answer becomes the error that moves the chain on."""
        where = {"provider": candidate.provider, "model": candidate.model}
        if response is None:
            raise MalformedResponseError("the stream ended without a final response", **where)
        if response.finish_reason == "content_filter":  # filtered, even when nothing is left: not an empty reply
            if self.on_content_filter == "fallback":
                what = "blocked" if _empty(response) else "cut"
                raise ContentPolicyError(f"the provider's content filter {what} the reply", **where)
            return response  # the answer carries finish_reason content_filter and says so
        if _empty(response):
            raise MalformedResponseError("the model sent an empty reply", **where)
        return response

    def _give_up(self, attempts: list[Attempt], last_error: BaseException | None) -> AllProvidersFailedError:
        error = AllProvidersFailedError(f"all providers failed: {summarize(attempts)}", attempts=tuple(attempts))
        error.__cause__ = last_error
        return error

    def _config_failed(self, index: int, candidate: Candidate, exc: ConfigError, attempts: list[Attempt]) -> None:
        if index == 0:
            raise exc  # the chosen provider cannot be built: say why, do not hide it behind a fallback
        attempts.append(candidate.attempt(False, error_kind="config", error=redact(str(exc))))

    # --- LLMClient --------------------------------------------------------------------

    async def achat(self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None) -> ChatResponse:
        cache_key = None
        if self.cache is not None:
            cache_key = self.cache.key([(c.provider, c.model) for c in self.candidates], messages, tools, options)
            cached = await self.cache.get(cache_key)
            if cached is not None:
                return cached
        response = await self._achat(messages, tools, options)
        if cache_key is not None and self.cache is not None:
            await self.cache.put(cache_key, response)
        return response

    async def _arrange(self, messages: Messages, options: RequestOptions | None) -> tuple[tuple[Candidate, ...], Flights | None]:
        """This request's order: each provider's deployments as the balancer puts them (the plan's order otherwise)."""
        if self.balancer is None:
            return self.candidates, None
        return await self.balancer.arrange(self.candidates, messages, options.user if options is not None else None)

    async def _achat(self, messages: Messages, tools: Tools, options: RequestOptions | None) -> ChatResponse:
        await self.guards.check_budget()
        attempts: list[Attempt] = []
        estimate = estimate_tokens(messages, tools)
        last_error: BaseException | None = None
        chain, flights = await self._arrange(messages, options)
        try:
            for index, (candidate, step) in enumerate(zip(chain, chain_steps(chain, estimate, options), strict=True)):
                try:
                    tries = await self._admit(candidate, attempts, estimate, step)
                except _Skip:
                    continue
                member = candidate.member
                if flights is not None and member is not None:
                    await flights.enter(member)
                try:
                    for number in range(tries):
                        started = self._clock()
                        try:
                            client = built_client(candidate)
                            started = self._clock()  # building the client (imports, a key lookup) is not the provider's time
                            call = client.achat(messages, tools=tools, options=options)
                            where = {"provider": candidate.provider, "model": candidate.model}
                            response = self._check(candidate, await call_with_deadline(call, self.deadlines, **where))
                        except ProviderError as exc:
                            last_error = exc
                            closed = await self._failed(candidate, exc, started, attempts)
                            if not closed or self._moves_on(exc, step) or number == tries - 1:
                                break
                            await self._retry_wait(candidate, exc, number, attempts)
                            continue
                        except ConfigError as exc:
                            self._config_failed(index, candidate, exc, attempts)
                            last_error = exc
                            break
                        return await self._succeeded(candidate, started, attempts, response, step)
                finally:
                    if flights is not None and member is not None:
                        await flights.leave(member)
        finally:
            if flights is not None:
                await flights.close()
        raise self._give_up(attempts, last_error)

    async def astream(
        self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        await self.guards.check_budget()
        attempts: list[Attempt] = []
        estimate = estimate_tokens(messages, tools)
        last_error: BaseException | None = None
        restart: str | None = None
        chain, flights = await self._arrange(messages, options)
        try:
            for index, (candidate, step) in enumerate(zip(chain, chain_steps(chain, estimate, options), strict=True)):
                try:
                    tries = await self._admit(candidate, attempts, estimate, step)
                except _Skip:
                    continue
                member = candidate.member
                if flights is not None and member is not None:
                    await flights.enter(member)
                try:
                    for number in range(tries):
                        if restart is not None:
                            self._say(restart)
                            yield StreamEvent("restart", text=restart)
                            restart = None
                        started = self._clock()
                        first_token: float | None = None
                        shown = False  # text or a tool-call piece reached the caller: a failure now restarts the answer
                        try:
                            where = {"provider": candidate.provider, "model": candidate.model}
                            client = built_client(candidate)
                            started = self._clock()  # building the client is not the provider's time
                            events = stream_with_deadlines(client.astream(messages, tools=tools, options=options),
                                                           self.deadlines, **where)  # fmt: skip
                            async with contextlib.aclosing(events):
                                final: ChatResponse | None = None
                                async for event in events:
                                    if first_token is None:
                                        first_token = self._clock() - started
                                    if event.kind == "done":
                                        final = event.response
                                        break
                                    shown = shown or bool(event.text) or event.kind == "tool_call"
                                    yield event
                            response = self._check(candidate, final)
                        except ProviderError as exc:
                            last_error = exc
                            closed = await self._failed(candidate, exc, started, attempts)
                            if shown:  # text reached the caller: restart the answer, on the next candidate when there is one
                                restart = f"{candidate.provider}/{candidate.model} failed mid-answer ({reason_of(attempts[-1])}): restarting the answer"
                            if not closed or self._moves_on(exc, step) or number == tries - 1 or (shown and not step.last):
                                break
                            await self._retry_wait(candidate, exc, number, attempts)
                            continue
                        except ConfigError as exc:
                            self._config_failed(index, candidate, exc, attempts)
                            last_error = exc
                            break
                        answered = await self._succeeded(candidate, started, attempts, response, step, first_token)
                        yield StreamEvent("done", response=answered)
                        return
                finally:
                    if flights is not None and member is not None:
                        await flights.leave(member)
        finally:
            if flights is not None:
                await flights.close()
        raise self._give_up(attempts, last_error)

    async def aclose(self) -> None:
        """The chain does not own its clients: the Router that built them closes them."""


__all__ = ["Candidate", "LazyClient", "ResilientClient", "summarize"]
