"""Deadlines around one try: time to first token, stalls, and a total per request.

Without them a provider that accepts the connection and never answers holds the
caller for the SDK's whole timeout (measured 91-96 s in gateways), when the
fallback could have answered in a few seconds. Each limit becomes a
``ProviderTimeoutError`` naming which limit was hit, so the chain moves on.

Streams: the first event must come within ``first_token_s``, each later one
within ``stall_s`` of the previous, and the whole stream within ``total_s``.

Non-streamed requests show nothing until the reply is complete, so a first
token cannot be observed: they get ``min(total_s, first_token_s + generation_s)``
(default 60 s), which bounds a silent provider while leaving a long answer room
to be generated. Streamed requests are where the short TTFT limit pays off.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from router.errors import ProviderTimeoutError

if TYPE_CHECKING:
    from router.config import DeadlineSettings

T = TypeVar("T")


@dataclass(frozen=True)
class Deadlines:
    """Limits in seconds for one try (see the module docstring)."""

    first_token_s: float = 10.0
    stall_s: float = 20.0
    generation_s: float = 50.0
    total_s: float = 300.0

    @classmethod
    def from_settings(cls, settings: DeadlineSettings) -> Deadlines:
        return cls(settings.first_token_s, settings.stall_s, settings.generation_s, settings.total_s)

    @property
    def non_stream_s(self) -> float:
        return min(self.total_s, self.first_token_s + self.generation_s)


def _expired(what: str, limit: float, provider: str, model: str) -> ProviderTimeoutError:
    return ProviderTimeoutError(f"deadline: {what} after {limit:g} s", provider=provider, model=model)


async def call_with_deadline(awaitable: Awaitable[T], deadlines: Deadlines, *, provider: str, model: str) -> T:
    """A non-streamed request, cancelled when it outlives ``deadlines.non_stream_s``."""
    limit = deadlines.non_stream_s
    try:
        async with asyncio.timeout(limit):  # not wait_for: no extra task per request on the hot path
            return await awaitable
    except TimeoutError:
        raise _expired("no reply", limit, provider, model) from None


async def stream_with_deadlines(
    events: AsyncIterator[T],
    deadlines: Deadlines,
    *,
    provider: str,
    model: str,
    clock: Callable[[], float] = time.monotonic,
) -> AsyncIterator[T]:
    """``events`` with first-token, stall and total limits on every ``__anext__``; closes ``events`` at the end."""
    iterator = events.__aiter__()
    started = clock()
    first = True
    try:
        while True:
            left = deadlines.total_s - (clock() - started)
            step = deadlines.first_token_s if first else deadlines.stall_s
            limit = min(step, left)
            if limit <= 0:
                raise _expired("the whole stream took too long", deadlines.total_s, provider, model)
            try:
                event = await asyncio.wait_for(iterator.__anext__(), limit)
            except StopAsyncIteration:
                return
            except TimeoutError:
                if limit < step:
                    raise _expired("the whole stream took too long", deadlines.total_s, provider, model) from None
                what = "no first token" if first else "the stream stalled (no chunk)"
                raise _expired(what, step, provider, model) from None
            first = False
            yield event
    finally:
        aclose = getattr(iterator, "aclose", None)
        if aclose is not None:
            try:
                await aclose()
            except RuntimeError:
                pass  # an async generator cancelled inside wait_for may already be closing


__all__ = ["Deadlines", "call_with_deadline", "stream_with_deadlines"]
