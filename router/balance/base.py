"""The balancing contract: a pool of deployments serving one provider/model, and a strategy ordering them.

A strategy only orders: who is tried first for this request, then who next. It
never calls a provider and never skips anyone; breakers, cooldowns, refused keys
and limits are checked per deployment by the chain that executes the order
(``router.clients.resilient``), so every skip is recorded in the same place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from router.config.deployments import Balance
    from router.state.limits import RateLimit


@dataclass(frozen=True)
class Pool:
    """The deployments of one provider/model and how to choose among them."""

    provider: str
    model: str
    strategy: Balance = "weighted"
    sticky: bool = False

    @property
    def key(self) -> str:
        return f"{self.provider}/{self.model}"


@dataclass(frozen=True)
class Member:
    """One deployment in a pool. Its state (breaker, latency, in flight, cooldown) lives under ``key``."""

    pool: Pool
    deployment: str
    weight: float = 1.0
    limits: RateLimit | None = None

    @property
    def key(self) -> str:
        """``provider/model@deployment``: breakers and latency are per deployment and model."""
        return f"{self.pool.key}@{self.deployment}"

    @property
    def limit_key(self) -> str:
        """``provider@deployment``: an endpoint's rate limits count every model it serves."""
        return f"{self.pool.provider}@{self.deployment}"


@dataclass(frozen=True)
class Choice:
    """A strategy's order; ``counted`` is a member it already counted in flight (``least_busy``)."""

    order: tuple[Member, ...]
    counted: Member | None = None


class Strategy(Protocol):
    """Orders a pool's members for one request."""

    async def choose(self, members: Sequence[Member]) -> Choice: ...


__all__ = ["Choice", "Member", "Pool", "Strategy"]
