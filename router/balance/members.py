"""From the plan's candidates to the chain's: one per deployment, each with its pool membership."""

from __future__ import annotations

from typing import TYPE_CHECKING

from router.balance.base import Member, Pool

if TYPE_CHECKING:
    from router.config.deployments import Deployment
    from router.routing.plan import PlannedCandidate


def members_of(planned: PlannedCandidate) -> list[tuple[Deployment, Member]]:
    """Each usable deployment of a planned provider/model with its ``Member`` (empty: the implicit one)."""
    if not planned.deployments:
        return []
    from router.state.limits import RateLimit

    settings = planned.settings
    pool = Pool(planned.provider, planned.model_id, settings.balance, settings.sticky)
    out = []
    for deployment in planned.deployments:
        limits = deployment.rate_limits(settings)
        limit = RateLimit(limits.requests_per_minute, limits.tokens_per_minute) if limits is not None else None
        out.append((deployment, Member(pool, deployment.name, deployment.weight, limit)))
    return out


__all__ = ["members_of"]
