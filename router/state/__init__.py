"""Shared state for failover, limits and budgets: in process by default, Redis when configured.

``make_store(config)`` is the one place that decides which store a Router or a
server uses. Implementations load lazily (``import router`` must stay cheap and
must not import redis).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from router.state.base import BreakerPolicy, BreakerRecord, Bucket, StateStore

if TYPE_CHECKING:
    from router.config import RouterConfig, StateSettings


def make_store(config: RouterConfig | StateSettings | None = None) -> StateStore:
    """A ``MemoryStore``, or Redis with in-process fallback when ``state`` names a Redis URL.

    Raises ``ConfigError`` when ``state.redis_url_env`` names a variable that is not set:
    workers that silently stop sharing breakers and budgets are worse than a clear error.
    """
    from router.config import RouterConfig  # the caller has a config: pydantic is loaded already
    from router.state.memory import MemoryStore

    settings = config.state if isinstance(config, RouterConfig) else config
    url = settings.resolved_url() if settings is not None else None
    if settings is None or url is None:
        return MemoryStore()
    from router.state.fallback import FallbackStore
    from router.state.redis import RedisStore

    primary = RedisStore(url, key_prefix=settings.key_prefix, timeout_s=settings.timeout_s)
    return FallbackStore(primary, MemoryStore(), name=f"redis at {primary.display_url}")


__all__ = ["BreakerPolicy", "BreakerRecord", "Bucket", "StateStore", "make_store"]
