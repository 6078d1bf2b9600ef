"""Which providers refused native tool calling, so later runs start in text ReAct directly.

The memory is local (a dict, for the common case of one process) and, when the
Router has a state store, written through to it: a provider found tool-less by
one server process is known to all of them (``state: {redis_url: ...}``).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from router.state.base import StateStore


class ProtocolMemory:
    """Providers that refused native tools, so later runs start in text mode directly."""

    def __init__(self, store: StateStore | None = None) -> None:
        self._downgraded: dict[str, str] = {}
        self._lock = threading.Lock()
        self._store = store

    def remember(self, provider: str, reason: str = "") -> None:
        with self._lock:
            self._downgraded[provider] = reason

    def is_downgraded(self, provider: str) -> bool:
        with self._lock:
            return provider in self._downgraded

    def forget(self, provider: str | None = None) -> None:
        with self._lock:
            if provider is None:
                self._downgraded.clear()
            else:
                self._downgraded.pop(provider, None)

    def downgraded(self) -> dict[str, str]:
        with self._lock:
            return dict(self._downgraded)

    async def aremember(self, provider: str, reason: str = "") -> None:
        self.remember(provider, reason)
        if self._store is not None:
            await self._store.remember_downgrade(provider, reason)

    async def ais_downgraded(self, provider: str) -> bool:
        """Locally known, or (with a store) learnt by another process; the latter is then cached here."""
        if self.is_downgraded(provider) or self._store is None:
            return self.is_downgraded(provider)
        reason = await self._store.downgrade_reason(provider)
        if reason is None:
            return False
        self.remember(provider, reason)
        return True


DEFAULT_PROTOCOL_MEMORY = ProtocolMemory()


__all__ = ["DEFAULT_PROTOCOL_MEMORY", "ProtocolMemory"]
