"""The ``LLMClient`` contract every model backend implements, and nothing else.

A client knows who it is (``provider``, ``model``), answers asynchronously
(``achat``, ``astream``: the core is async) and owns a lifetime (``aclose``).
The sync ``chat`` / ``stream`` / ``close`` come from ``SyncClient``, which runs the
async methods on the core loop, so a client is written once. Real clients and the
shipped fakes satisfy this Protocol; the loop and the router take any of them by
injection, and nothing is ever patched. Heavy SDKs load inside implementations.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any, Protocol, runtime_checkable

from router.types import ChatResponse, RequestOptions, StreamEvent

Messages = list[dict[str, Any]]
Tools = list[dict[str, Any]] | None


@runtime_checkable
class LLMClient(Protocol):
    provider: str
    """The providers.yaml name this client answers for: errors and records name it."""
    model: str

    async def achat(self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None) -> ChatResponse:
        """One request; the normalised reply, or a ``ProviderError`` naming this provider/model."""
        ...

    def astream(
        self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        """Deltas; the last event is ``done`` carrying the assembled ``ChatResponse``."""
        ...

    async def aclose(self) -> None:
        """Release connections; the client is not used afterwards."""
        ...

    def chat(self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None) -> ChatResponse: ...

    def stream(self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None) -> Iterator[StreamEvent]: ...

    def close(self) -> None: ...


class SyncClient:
    """Sync methods for an async client, run on the core loop (``router.aio``)."""

    provider: str
    model: str

    async def achat(self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None) -> ChatResponse:
        raise NotImplementedError

    def astream(
        self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        raise NotImplementedError

    async def aclose(self) -> None:
        return None

    def chat(self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None) -> ChatResponse:
        from router.aio import run_sync

        return run_sync(self.achat(messages, tools=tools, options=options))

    def stream(self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None) -> Iterator[StreamEvent]:
        from router.aio import iterate_sync

        return iterate_sync(self.astream(messages, tools=tools, options=options))

    def close(self) -> None:
        from router.aio import run_sync

        run_sync(self.aclose())

    def __enter__(self) -> SyncClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["LLMClient", "Messages", "SyncClient", "Tools"]
