"""Sticky conversations: one conversation, one deployment, while it is healthy.

Provider-side prompt caches hit only when a conversation's turns reach the same
endpoint. The conversation is named by the caller's ``user`` (or session id) when
it gives one, else by a hash of the system prompt and the first user message,
which every later turn repeats. The order is rendezvous hashing (weighted): each
member scores ``-weight / ln(h)`` with ``h`` a hash of (conversation, deployment),
highest first. It needs no shared state, every process agrees, a turn whose
deployment is out (breaker, cooldown, refused key) goes to the next one in the same
fixed order, and the conversation returns when its deployment does.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from typing import Any

from router.balance.base import Member


def conversation_key(messages: Sequence[Mapping[str, Any]], user: str | None = None) -> str | None:
    """A stable name for the conversation (a hash: the text itself is not kept), or None when there is nothing."""
    if user:
        return "u:" + hashlib.sha256(user.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    system = next((m.get("content") for m in messages if m.get("role") in ("system", "developer")), None)
    first = next((m.get("content") for m in messages if m.get("role") == "user"), None)
    if first is None:
        return None
    text = f"{system!r}\x00{first!r}"
    return "c:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def _score(conversation: str, member: Member) -> float:
    digest = hashlib.blake2b(f"{conversation}\x00{member.deployment}".encode(), digest_size=8).digest()
    h = (int.from_bytes(digest, "big") + 0.5) / 2**64  # in (0, 1)
    return -member.weight / math.log(h)


def sticky_order(conversation: str, members: Sequence[Member]) -> tuple[Member, ...]:
    return tuple(sorted(members, key=lambda m: _score(conversation, m), reverse=True))


__all__ = ["conversation_key", "sticky_order"]
