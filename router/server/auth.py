"""Bearer keys: the YAML names environment variables, the values stay in the environment.

The accepted keys are read once at start-up. A server without keys is only allowed
on a loopback address; anywhere else it refuses to start, because an open gateway
spends its owner's provider budget for anyone who finds it.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
from collections.abc import Mapping, Sequence

from router.errors import ConfigError


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class KeyCheck:
    """``allows(authorization_header)``; ``open`` means no key is required (loopback only)."""

    def __init__(self, keys: Sequence[bytes], names: Sequence[str] = ()) -> None:
        self._keys = tuple(keys)
        self._names = tuple(names) or tuple(f"key{i}" for i in range(len(self._keys)))
        self.open = not self._keys

    @classmethod
    def from_env(cls, names: Sequence[str], *, host: str, source: str = "providers.yaml",
                 environ: Mapping[str, str] | None = None) -> KeyCheck:
        env = os.environ if environ is None else environ
        keys: list[bytes] = []
        used: list[str] = []
        for name in names:
            value = env.get(name, "").strip()
            if not value:
                raise ConfigError(f"server.api_key_envs names {name}, which is not set or empty", path=source)
            keys.append(value.encode())
            used.append(name)
        if not keys and not is_loopback(host):
            raise ConfigError(
                f"no API keys configured (server.api_key_envs): refusing to serve on {host} without keys; "
                "name the variables holding the keys, or listen on 127.0.0.1",
                path=source,
            )
        return cls(keys, used)

    def which(self, authorization: bytes | None) -> str | None:
        """The name of the variable whose key was sent (never the key): the scope of that caller's budget."""
        if not authorization or authorization[:7].lower() != b"bearer ":
            return None
        given = authorization[7:].strip()
        found = None
        for name, key in zip(self._names, self._keys, strict=True):  # every key compared: time says nothing
            if hmac.compare_digest(given, key):
                found = name
        return found

    @property
    def count(self) -> int:
        """How many keys are accepted (0: open)."""
        return len(self._keys)

    def allows(self, authorization: bytes | None) -> bool:
        return self.open or self.which(authorization) is not None


__all__ = ["KeyCheck", "is_loopback"]
