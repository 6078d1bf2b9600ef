"""Which providers refused native tool calling, so later runs start in text ReAct directly."""

from __future__ import annotations

import threading


class ProtocolMemory:
    """Providers that refused native tools, so later runs start in text mode directly."""

    def __init__(self) -> None:
        self._downgraded: dict[str, str] = {}
        self._lock = threading.Lock()

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


DEFAULT_PROTOCOL_MEMORY = ProtocolMemory()


__all__ = ["DEFAULT_PROTOCOL_MEMORY", "ProtocolMemory"]
