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

    def __init__(self, keys: Sequence[bytes]) -> None:
        self._keys = tuple(keys)
        self.open = not self._keys

    @classmethod
    def from_env(cls, names: Sequence[str], *, host: str, source: str = "providers.yaml",
                 environ: Mapping[str, str] | None = None) -> KeyCheck:
        env = os.environ if environ is None else environ
        keys: list[bytes] = []
        for name in names:
            value = env.get(name, "").strip()
            if not value:
                raise ConfigError(f"server.api_key_envs names {name}, which is not set or empty", path=source)
            keys.append(value.encode())
        if not keys and not is_loopback(host):
            raise ConfigError(
                f"no API keys configured (server.api_key_envs): refusing to serve on {host} without keys; "
                "name the variables holding the keys, or listen on 127.0.0.1",
                path=source,
            )
        return cls(keys)

    def allows(self, authorization: bytes | None) -> bool:
        if self.open:
            return True
        if not authorization or authorization[:7].lower() != b"bearer ":
            return False
        given = authorization[7:].strip()
        ok = False
        for key in self._keys:  # compare with every key: the time taken says nothing about which one matched
            ok |= hmac.compare_digest(given, key)
        return ok


__all__ = ["KeyCheck", "is_loopback"]
