"""The balancing step of a chain: order each pool's deployments for this request, and keep their health.

The plan (``router.routing.plan``) lists who may answer, provider by provider,
with each provider's usable deployments; the chain (``router.clients.resilient``)
asks ``arrange`` once per request for the order within each pool, then reports
back what happened to each try: ``enter`` / ``leave`` around it (in-flight counts),
``observe`` (latency: first token for streams), ``cool`` (a 429 leaves the member
out for its Retry-After, in every process). Everything a member carries is kept
under its own key (``provider/model@deployment``), never the provider's.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from router.balance.base import Member, Strategy
from router.balance.latency import Latency, LatencyBook
from router.balance.least_busy import FLIGHT_TTL_S, LeastBusy, flight_key
from router.balance.sticky import conversation_key, sticky_order
from router.balance.usage import Usage
from router.balance.weighted import Weighted
from router.state.limits import DeploymentLimits

if TYPE_CHECKING:
    from router.state.base import StateStore

COOL_S = 5.0
"""How long a member that answered 429 without a Retry-After is left out."""
MAX_COOL_S = 300.0
"""A Retry-After longer than this is cut: the member is asked again then (a probe, not a flood)."""


class _HasMember(Protocol):
    @property
    def member(self) -> Member | None: ...


C = TypeVar("C", bound=_HasMember)


class Flights:
    """In-flight bookkeeping of one request: what it counted, so everything counted is uncounted."""

    def __init__(self, balancer: Balancer, counted: set[Member]) -> None:
        self._balancer = balancer
        self._counted = counted  # counted by the strategy, not entered yet

    async def enter(self, member: Member) -> None:
        self._balancer.latency.enter(member.key)
        if member.pool.strategy != "least_busy":
            return
        if member in self._counted:
            self._counted.discard(member)
        else:
            await self._balancer.store.count_add(flight_key(member), 1, FLIGHT_TTL_S)

    async def leave(self, member: Member) -> None:
        self._balancer.latency.leave(member.key)
        if member.pool.strategy == "least_busy":
            await self._balancer.store.count_add(flight_key(member), -1, FLIGHT_TTL_S)

    async def close(self) -> None:
        """Uncount members the strategy counted but the chain never tried (skipped, or answered before)."""
        counted, self._counted = self._counted, set()
        for member in counted:
            await self._balancer.store.count_add(flight_key(member), -1, FLIGHT_TTL_S)


class Balancer:
    """One per Router: the strategies (with their state) and the members' health on the shared store."""

    def __init__(self, store: StateStore, *, rng: random.Random | None = None, probe_after_s: float = 10.0) -> None:
        self.store = store
        self._cooled: dict[str, float] = {}  # member key -> monotonic time its cooldown ends (this process's view)
        self._lock = threading.Lock()
        self.limits = DeploymentLimits(store)
        self.latency = LatencyBook()
        rng = rng or random.Random()
        self.strategies: dict[str, Strategy] = {
            "weighted": Weighted(rng),
            "least_busy": LeastBusy(store, rng),
            "latency": Latency(self.latency, rng, probe_after_s=probe_after_s),
            "usage": Usage(self.limits, rng),
        }

    async def arrange(
        self, candidates: Sequence[C], messages: Sequence[Mapping[str, Any]], user: str | None
    ) -> tuple[tuple[C, ...], Flights]:
        """The chain with each pool's members in this request's order (pools keep their place)."""
        out: list[C] = []
        counted: set[Member] = set()
        i = 0
        while i < len(candidates):
            member = candidates[i].member
            j = i + 1
            if member is not None:
                while j < len(candidates) and (m := candidates[j].member) is not None and m.pool == member.pool:
                    j += 1
            group = candidates[i:j]
            if j - i > 1 and member is not None:
                by_member = {c.member: c for c in group}
                members, out_now = self._healthy([c.member for c in group if c.member is not None])
                conversation = conversation_key(messages, user) if member.pool.sticky else None
                if conversation is not None:
                    order = sticky_order(conversation, members)
                elif members:
                    choice = await self.strategies[member.pool.strategy].choose(members)
                    order = choice.order
                    if choice.counted is not None:
                        counted.add(choice.counted)
                else:
                    order = ()
                out.extend(by_member[m] for m in (*order, *out_now))
            else:
                out.extend(group)
            i = j
        return tuple(out), Flights(self, counted)

    def _healthy(self, members: list[Member]) -> tuple[list[Member], list[Member]]:
        """Members this process knows to be cooling go last, out of the choice: the others share their
        traffic by the strategy, and sticky conversations keep their order (it is their fallback)."""
        if not self._cooled:
            return members, []
        now = time.monotonic()
        with self._lock:
            for key in [k for k, until in self._cooled.items() if until <= now]:
                del self._cooled[key]
            out_now = [m for m in members if m.key in self._cooled]
        if not out_now or members[0].pool.sticky:
            return members, []
        return [m for m in members if m not in out_now], out_now

    def observe(self, member: Member, seconds: float, *, ok: bool) -> None:
        self.latency.observe(member.key, seconds, ok=ok)

    async def cool(self, member: Member, seconds: float | None, reason: str) -> float:
        """Leave ``member`` out of every process's choice for ``seconds`` (its Retry-After) or ``COOL_S``."""
        wait = min(MAX_COOL_S, max(0.5, seconds if seconds is not None else COOL_S))
        with self._lock:
            self._cooled[member.key] = time.monotonic() + wait
        await self.store.cache_set(_cool_key(member), reason, wait)
        return wait

    async def cooling(self, member: Member) -> str | None:
        """Why ``member`` is left out now, or None."""
        return await self.store.cache_get(_cool_key(member))

    async def uncool(self, member: Member) -> None:
        with self._lock:
            self._cooled.pop(member.key, None)
        await self.store.cache_set(_cool_key(member), "", 0.001)


def _cool_key(member: Member) -> str:
    return f"cool:{member.key}"


__all__ = ["COOL_S", "Balancer", "Flights"]
