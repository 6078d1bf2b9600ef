"""What an operator sees and can undo: every deployment's health, and refused keys brought back.

``deployment_status(router)`` reads, without side effects, for every configured
provider/model/deployment (the implicit one of a provider without ``deployments``
too): the breaker, a 429 cooldown, a refused key (scoped: the whole key, or one
model), requests in flight, the latency average and the headroom under the caps.
``describe`` turns that into lines for ``router check`` or a status page.
``clear_refused_key(router, provider, deployment=None)`` brings a quarantined key back
at once in every process sharing the store, instead of waiting out its day or
rotating the key (``python -m router check --clear-key PROVIDER[/DEPLOYMENT]`` calls it).
Secrets never appear: keys are named by their variable, deployments by their name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from router.clients.guards import key_fingerprint

if TYPE_CHECKING:
    from router.config.deployments import Deployment
    from router.config.schema import ProviderConfig
    from router.core import Router


@dataclass(frozen=True)
class DeploymentState:
    provider: str
    model: str
    deployment: str | None
    """None: the provider's implicit deployment (no ``deployments`` listed)."""
    key_env: str | None
    balance: str | None = None
    breaker: str = "closed"
    cooling: str | None = None
    """Why it is left out for now (a 429), or None."""
    refused: dict[str, str] = field(default_factory=dict)
    """The key's quarantine: ``{"*": reason}`` for the whole key, ``{model: reason}`` for one model."""
    in_flight: float | None = None
    """Across processes (``least_busy`` pools only; others are not counted on the store)."""
    latency_s: float | None = None
    """This process's moving average (first token for streams)."""
    headroom: float | None = None
    """Free share of its tightest rpm/tpm cap over the last 60 s; None: no caps."""

    @property
    def name(self) -> str:
        where = f"{self.provider}/{self.model}"
        return f"{where}@{self.deployment}" if self.deployment else where

    @property
    def healthy(self) -> bool:
        return self.breaker == "closed" and not self.cooling and not self._refused_here

    @property
    def _refused_here(self) -> bool:
        return "*" in self.refused or self.model.lower() in self.refused


def _deployments(settings: ProviderConfig) -> list[Deployment | None]:
    return list(settings.deployments) or [None]


async def deployment_status(router: Router) -> list[DeploymentState]:
    """Every provider/model/deployment of the router's config, as the shared store sees it now."""
    from router.balance.base import Member, Pool
    from router.balance.least_busy import flight_key
    from router.state.limits import RateLimit

    balancer = router.balancer
    auth = router._guards.auth
    out = []
    for pname, settings in router.config.providers.items():
        for model in settings.models:
            for deployment in _deployments(settings):
                if deployment is not None and not deployment.serves(model.id):
                    continue
                name = deployment.name if deployment else None
                env = deployment.key_env(settings) if deployment else settings.api_key_env
                value = deployment.api_key(settings) if deployment else settings.api_key()
                refused = await auth.entries(pname, key_fingerprint(value), deployment=name) if auth else {}
                key = f"{pname}/{model.id}" + (f"@{name}" if name else "")
                state = DeploymentState(pname, model.id, name, env, breaker=(await router._breaker.state(key)).state,
                                        refused=refused)  # fmt: skip
                if deployment is not None and balancer is not None:
                    limits = deployment.rate_limits(settings)
                    limit = RateLimit(limits.requests_per_minute, limits.tokens_per_minute) if limits else None
                    member = Member(Pool(pname, model.id, settings.balance, settings.sticky), deployment.name,
                                    deployment.weight, limit)  # fmt: skip
                    in_flight = None
                    if settings.balance == "least_busy":
                        in_flight = (await router.state.counts([flight_key(member)]))[0]
                    headroom = (await balancer.limits.headroom([(member.limit_key, limit)]))[0] if limit else None
                    state = DeploymentState(
                        pname, model.id, name, env, settings.balance, state.breaker, await balancer.cooling(member) or None,
                        refused, in_flight, balancer.latency.average(member.key), headroom,
                    )  # fmt: skip
                out.append(state)
    return out


def describe(states: list[DeploymentState]) -> list[str]:
    """One line per deployment, for ``router check`` and status pages (no secrets: variables by name)."""
    lines = []
    for s in states:
        parts = [f"breaker {s.breaker}"]
        if s.cooling:
            parts.append(f"left out: {s.cooling}")
        for scope, reason in s.refused.items():
            what = "key" if scope == "*" else f"key for model {scope}"
            parts.append(f"{what} in {s.key_env} refused ({reason}); clear with clear_refused_key")
        if s.in_flight is not None:
            parts.append(f"{s.in_flight:g} in flight")
        if s.latency_s is not None:
            parts.append(f"latency {s.latency_s * 1000:.0f} ms")
        if s.headroom is not None:
            parts.append(f"headroom {s.headroom:.0%}")
        lines.append(f"{s.name}: {'ok' if s.healthy else 'OUT'} ({', '.join(parts)})")
    return lines


async def clear_refused_key(router: Router, provider: str, deployment: str | None = None) -> list[str]:
    """Bring back the current key of ``provider`` (one ``deployment``, or all of them) in every process.

    Returns what was cleared (``provider`` or ``provider@deployment``); an unknown provider or
    deployment is a ``UsageError`` naming the choices. The key is asked again on the next request;
    if it is still refused it goes back out, with the provider's words in the answer's attempts.
    """
    from router.errors import UsageError

    name = router.resolve_provider(provider)
    settings = router.config.providers[name]
    targets = _deployments(settings)
    if deployment is not None:
        targets = [d for d in targets if d is not None and d.name == deployment]
        if not targets:
            listed = ", ".join(d.name for d in settings.deployments) or "none: it has no deployments"
            raise UsageError(f"provider {name!r} has no deployment {deployment!r} (deployments: {listed})")
    auth = router._guards.auth
    cleared = []
    for target in targets:
        value = target.api_key(settings) if target is not None else settings.api_key()
        label = target.name if target is not None else None
        if auth is not None and await auth.clear(name, key_fingerprint(value), deployment=label):
            cleared.append(f"{name}@{label}" if label else name)
    return cleared


__all__ = ["DeploymentState", "clear_refused_key", "deployment_status", "describe"]
