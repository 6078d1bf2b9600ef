"""The ``LLMClient`` contract every model backend implements.

Real clients (OpenAI SDK, litellm, llama.cpp) and the shipped fakes all satisfy
this Protocol, so the loop and the router take any of them by injection; nothing
is ever patched. Heavy SDKs are imported inside the implementations, never here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol, runtime_checkable

from .types import ChatResponse, StreamEvent


@runtime_checkable
class LLMClient(Protocol):
    def chat(
        self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None, **options: Any
    ) -> ChatResponse:
        """One request; returns the normalised reply or raises a ``ProviderError``."""
        ...

    def stream(
        self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None, **options: Any
    ) -> Iterator[StreamEvent]:
        """Yields deltas; the last event is ``done`` carrying the assembled ``ChatResponse``."""
        ...


__all__ = ["LLMClient"]
