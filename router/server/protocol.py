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


MAX_HEAD_BYTES = 64 * 1024
_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
              b"connection: close\r\ncontent-length: %d\r\n\r\n")


def _head_too_large(limit: int) -> bytes:
    body = (b'{"error":{"message":"the request line and headers are larger than the limit of %d bytes '
            b'(server.max_header_bytes)","type":"invalid_request_error","param":null,"code":"headers_too_large"}}'
            % limit)
    return _TOO_LARGE % len(body) + body


if _HttpTools is not None:

    class OnePieceHttpToolsProtocol(_HttpTools):  # type: ignore[misc, valid-type]
        """Also caps a request's head (line and headers) before anything, authentication included, sees it:
        httptools and uvicorn would otherwise buffer a header of any size."""

        max_head_bytes = MAX_HEAD_BYTES

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            self._in_head = True
            self._head_bytes = 0
            sock = transport.get_extra_info("socket")
            if sock is not None:
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                except OSError:  # not TCP (a Unix socket): nothing to tune
                    pass
            super().connection_made(HeadHoldingTransport(transport))  # type: ignore[arg-type]

        def on_headers_complete(self) -> None:
            self._in_head = False
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._in_head, self._head_bytes = True, 0

        def data_received(self, data: bytes) -> None:
            if not self._in_head:
                super().data_received(data)
                return
            room = self.max_head_bytes - self._head_bytes
            if len(data) <= room:
                self._head_bytes += len(data)
                super().data_received(data)
                return
            self._head_bytes = self.max_head_bytes
            super().data_received(data[:room])
            if self._in_head:  # the head is still not complete at the cap: refuse it, keep nothing of it
                if not self.transport.is_closing():
                    self.transport.write(_head_too_large(self.max_head_bytes))
                    self.transport.close()
                return
            self.data_received(data[room:])


def one_piece_protocol() -> type[asyncio.Protocol] | None:
    """The protocol class for uvicorn's ``http=``; None when httptools is not installed."""
    return OnePieceHttpToolsProtocol if _HttpTools is not None else None


def limit_head_bytes(limit: int) -> None:
    """``server.max_header_bytes`` for this process (each worker builds its app, and calls this, itself)."""
    if _HttpTools is not None:
        OnePieceHttpToolsProtocol.max_head_bytes = limit


__all__ = ["MAX_HEAD_BYTES", "HeadHoldingTransport", "limit_head_bytes", "one_piece_protocol"]
