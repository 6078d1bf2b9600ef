"""uvicorn's httptools protocol, writing each response's head and body in one piece.

uvicorn writes the status line and headers on ``http.response.start`` and the body on
``http.response.body``: two ``send`` calls, two TCP segments. A client with delayed
ACKs and a server with Nagle on turn that into a 40 ms stall per keep-alive request;
with TCP_NODELAY it still costs a second syscall and packet. The transport wrapper
holds the head back until the body arrives (same event-loop turn for a JSON
response) or the loop turns over (a stream's first event comes later), then writes once.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any


class HeadHoldingTransport:
    """Delegates everything to the real transport; only a response head is held back briefly."""

    __slots__ = ("_loop", "_pending", "_transport")

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport
        self._pending: bytes | None = None
        self._loop = asyncio.get_running_loop()

    def write(self, data: bytes) -> None:
        pending = self._pending
        if pending is not None:
            self._pending = None
            self._transport.write(pending + data)
        elif data[:9] == b"HTTP/1.1 " and data[-4:] == b"\r\n\r\n":
            self._pending = data
            self._loop.call_soon(self._flush)
        else:
            self._transport.write(data)

    def _flush(self) -> None:
        pending = self._pending
        if pending is not None:
            self._pending = None
            if not self._transport.is_closing():
                self._transport.write(pending)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _HttpTools
except ImportError:  # uvicorn without httptools: h11 is used as is
    _HttpTools = None


if _HttpTools is not None:

    class OnePieceHttpToolsProtocol(_HttpTools):  # type: ignore[misc, valid-type]
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            sock = transport.get_extra_info("socket")
            if sock is not None:
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                except OSError:  # not TCP (a Unix socket): nothing to tune
                    pass
            super().connection_made(HeadHoldingTransport(transport))  # type: ignore[arg-type]


def one_piece_protocol() -> type[asyncio.Protocol] | None:
    """The protocol class for uvicorn's ``http=``; None when httptools is not installed."""
    return OnePieceHttpToolsProtocol if _HttpTools is not None else None


__all__ = ["HeadHoldingTransport", "one_piece_protocol"]
