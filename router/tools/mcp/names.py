"""Names for MCP tools that every provider accepts and that never collide.

OpenAI, Anthropic, Gemini, DeepSeek and the OpenAI-compatible servers all accept
``^[a-zA-Z0-9_-]{1,64}$``; MCP tool names may hold dots, slashes, spaces or any
length. A tool is offered as ``<server>_<tool>`` with other characters replaced by
``_``; a name that is too long, or that two tools would share, gets a hash of the
server and the original name instead of its tail, so it is the same on every run
and on every machine for the same set of tools.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

MAX_NAME = 64
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
_HASH_CHARS = 8


def _hashed(server: str, tool: str, base: str) -> str:
    digest = hashlib.sha256(f"{server}\0{tool}".encode()).hexdigest()[:_HASH_CHARS]
    return f"{base[: MAX_NAME - _HASH_CHARS - 1]}_{digest}"


def base_name(server: str, tool: str) -> str:
    """``<server>_<tool>`` with every character a provider refuses replaced by ``_`` (may be too long)."""
    return _UNSAFE.sub("_", f"{server}_{tool}") or "_"


def assign_names(server: str, tools: Iterable[str], taken: Iterable[str] = ()) -> dict[str, str]:
    """Original tool name -> offered name, for one server's tools.

    ``taken`` are names already used (other servers' tools, built-in and @tool tools):
    a clash with one of them, with a sibling, or a name over 64 characters gets the
    hashed form. Whether a name is hashed depends only on the set of names, not on the
    order the server listed them in.
    """
    originals = list(dict.fromkeys(tools))
    reserved = set(taken)
    bases: dict[str, list[str]] = {}
    for tool in originals:
        bases.setdefault(base_name(server, tool), []).append(tool)
    out: dict[str, str] = {}
    for base, owners in bases.items():
        for tool in owners:
            clash = len(owners) > 1 or base in reserved or len(base) > MAX_NAME
            out[tool] = _hashed(server, tool, base) if clash else base
    used = set(reserved)
    for tool in sorted(out):  # a hashed name meeting another one (astronomically rare): salt it, deterministically
        name, salt = out[tool], 0
        while name in used:
            salt += 1
            name = _hashed(server, f"{tool}\0{salt}", base_name(server, tool))
        out[tool] = name
        used.add(name)
    return {tool: out[tool] for tool in originals}


__all__ = ["MAX_NAME", "assign_names", "base_name"]
