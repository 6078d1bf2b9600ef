"""The wire dialects the server speaks, each a thin adapter over the one request pipeline.

Adding a dialect is one module here (implementing ``base.Dialect``) plus one line in
``REGISTERED``: ``"module:factory"``, loaded when the app is built (so importing this
package costs nothing and an adapter may import the pipeline's helpers freely).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from router.server.dialects.base import Call, Dialect, ReplyMeta, StreamWriter, WireError

if TYPE_CHECKING:
    from router.config import ServerSettings

REGISTERED: tuple[str, ...] = (
    "router.server.dialects.openai_chat:OpenAIChat",
    "router.server.dialects.anthropic_messages:AnthropicMessages",
    "router.server.dialects.openai_responses:OpenAIResponses",
)


def load(settings: ServerSettings, registered: tuple[str, ...] = REGISTERED) -> list[Dialect]:
    """One instance of each registered dialect; a factory takes the server's settings."""
    dialects: list[Dialect] = []
    for entry in registered:
        module, _, name = entry.partition(":")
        dialects.append(getattr(import_module(module), name)(settings))
    return dialects


__all__ = ["REGISTERED", "Call", "Dialect", "ReplyMeta", "StreamWriter", "WireError", "load"]
