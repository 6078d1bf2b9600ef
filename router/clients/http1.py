"""A minimal HTTP/1.1 keep-alive client on asyncio and httptools, for the lean transport's POSTs.

aiohttp's client costs ~150 µs of CPU per request in Python before the socket is
touched (request and response objects, header multidicts, payload wrappers,
tracing hooks); a request to a model provider needs none of it: one POST of JSON
bytes, one reply read whole or as a stream of body pieces. httptools (llhttp, the
parser uvicorn uses, installed with the ``server`` extra) does the parsing,
including chunked bodies, so this module keeps only what a pool needs:

* one pool per origin and event loop; idle connections reused newest first, at
  most ``max_idle`` kept, dropped after ``idle_s``; one the server closed is never reused;
* a request that fails on a *reused* connection before any byte of the reply came
  back (the server closed it while idle, the usual keep-alive race) is sent once
  more on a new connection, as urllib3 and httpx do;
* timeouts as httpx has them: connecting, and each wait for the next bytes;
* TLS through asyncio (``ssl`` context), gzip/deflate bodies decoded;
* nothing else: no redirects, no proxies (the lean transport uses aiohttp when a
  proxy is configured), no HTTP/2.

Errors are plain ``OSError`` / ``TimeoutError`` / ``ProtocolFailure`` (a
``ConnectionError``); the lean transport maps them like aiohttp's.
"""

from __future__ import annotations

import asyncio
import socket
import time
import zlib
from collections import deque
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit


class ProtocolFailure(ConnectionError):
    """The server's bytes were not HTTP, or the connection ended before the reply did."""


def httptools_available() -> bool:
    try:
        import httptools  # noqa: F401
    except ImportError:
        return False
    return True


HIGH_WATER = 1 << 20
"""Body bytes buffered before the connection stops reading (a 100 MB stream is read as fast as it is used)."""


class ReplyTooLarge(ValueError):
    """A reply body past the client's byte limit (from ``limits.max_reply_chars``): not read further."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the reply is larger than {limit:,} bytes (the bound set by limits.max_reply_chars); "
                         "it was not read further")


class Response:
    """Status and headers of a reply whose body is being read (``read`` or ``iter_any``)."""

    __slots__ = ("_conn", "headers", "status")

    def __init__(self, conn: _Connection) -> None:
        self._conn = conn
        self.status: int = conn.status
        self.headers: dict[str, str] = conn.header_map()

    async def read(self, limit: int | None = None) -> bytes:
        """The whole body; past ``limit`` bytes the connection is closed and ``ReplyTooLarge`` raised."""
        conn = self._conn
        pieces: list[bytes] = []
        size = 0
        while True:
            piece = conn.take_body()
            if piece:
                pieces.append(piece)
                size += len(piece)
                if limit is not None and size > limit:
                    conn.finish()  # not complete: closed, never reused half-read
                    raise ReplyTooLarge(limit)
            if conn.complete:
                conn.finish()
                return pieces[0] if len(pieces) == 1 else b"".join(pieces)
            await conn.wait()

    async def iter_any(self) -> AsyncIterator[bytes]:
        conn = self._conn
        while True:
            piece = conn.take_body()
            if piece:
                yield piece
            elif conn.complete:
                return
            else:
                await conn.wait()

    def close(self) -> None:
        """Give the connection back when the reply was read to its end, else close it."""
        self._conn.finish()


class _Connection(asyncio.Protocol):
    def __init__(self, pool: HTTP1Pool) -> None:
        import httptools

        self.pool = pool
        self.parser = httptools.HttpResponseParser(self)
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.idle_since = 0.0
        self._reset()

    def _reset(self) -> None:
        self.status = 0
        self.raw_headers: list[tuple[bytes, bytes]] = []
        self.headers_done = False
        self.complete = False
        self.keep_alive = False
        self.received = False
        self.framed = False  # content-length or chunked: the end of the body is known without EOF
        self.body: deque[bytes] = deque()
        self.buffered = 0
        self.paused = False
        self.decoder: Any = None
        self.error: BaseException | None = None
        self.waiter: asyncio.Future[None] | None = None
        self.released = False

    # --- asyncio.Protocol -------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data: bytes) -> None:
        self.received = True
        try:
            self.parser.feed_data(data)
        except Exception as exc:  # httptools.HttpParserError and its subclasses
            self._fail(ProtocolFailure(f"the server's reply is not valid HTTP ({type(exc).__name__}: {exc})"))
            self._close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.complete and not self.released:
            if self.headers_done and not self.framed:
                self.complete = True  # a body delimited by the end of the connection (HTTP/1.0 style)
                self._wake()
            else:
                self._fail(ProtocolFailure("the server closed the connection before the reply was complete"))

    # --- httptools callbacks ------------------------------------------------------------

    def on_header(self, name: bytes, value: bytes) -> None:
        self.raw_headers.append((name, value))

    def on_headers_complete(self) -> None:
        self.status = self.parser.get_status_code()
        self.headers_done = True
        for name, value in self.raw_headers:
            lower = name.lower()
            if lower == b"content-length" or (lower == b"transfer-encoding" and b"chunked" in value.lower()):
                self.framed = True
            elif lower == b"content-encoding":
                encoding = value.strip().lower()
                if encoding in (b"gzip", b"x-gzip"):
                    self.decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
                elif encoding == b"deflate":
                    self.decoder = zlib.decompressobj()
        self._wake()

    def on_body(self, body: bytes) -> None:
        piece = self.decoder.decompress(body) if self.decoder is not None else body
        self.body.append(piece)
        self.buffered += len(piece)
        if self.buffered > HIGH_WATER and not self.paused and self.transport is not None:
            self.paused = True  # the reader is slower than the network: stop reading until it catches up
            self.transport.pause_reading()
        self._wake()

    def on_message_complete(self) -> None:
        if self.decoder is not None:
            self.body.append(self.decoder.flush())
        self.keep_alive = self.parser.should_keep_alive()  # only true inside the callback: the parser resets after it
        self.complete = True
        self._wake()

    # --- for the pool and the response -------------------------------------------------

    def _wake(self) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _fail(self, error: BaseException) -> None:
        if self.error is None:
            self.error = error
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_exception(error)

    def _close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    async def wait(self) -> None:
        """Until the parser has something new; a timeout closes the connection (its reply is lost)."""
        if self.error is not None:
            raise self.error
        loop = asyncio.get_running_loop()
        self.waiter = waiter = loop.create_future()
        timer = loop.call_later(self.pool.timeout_s, self._timed_out, waiter)
        try:
            await waiter
        finally:
            timer.cancel()
            self.waiter = None

    def _timed_out(self, waiter: asyncio.Future[None]) -> None:
        if not waiter.done():
            waiter.set_exception(TimeoutError(f"no reply within {self.pool.timeout_s:g} s"))
        self._close()

    def take_body(self) -> bytes:
        body = self.body
        self.buffered = 0
        if self.paused:
            self.paused = False
            if self.transport is not None and not self.closed:
                self.transport.resume_reading()
        if not body:
            return b""
        if len(body) == 1:
            return body.popleft()
        joined = b"".join(body)
        body.clear()
        return joined

    def header_map(self) -> dict[str, str]:
        return {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in self.raw_headers}

    def finish(self) -> None:
        if self.released:
            return
        self.released = True
        if self.complete and self.keep_alive and not self.closed and self.error is None:
            self.pool.release(self)
        else:
            self._close()

    def send(self, data: bytes) -> None:
        self._reset()
        assert self.transport is not None
        self.transport.write(data)


class HTTP1Pool:
    """Keep-alive connections to one origin (``http(s)://host:port``) on one event loop."""

    def __init__(self, url: str, *, timeout_s: float, ssl: Any = None, idle_s: float = 15.0, max_idle: int = 100) -> None:
        parts = urlsplit(url)
        self.host = parts.hostname or "localhost"
        self.tls = parts.scheme == "https"
        self.port = parts.port or (443 if self.tls else 80)
        default = 443 if self.tls else 80
        host_header = f"[{self.host}]" if ":" in self.host else self.host
        self.host_header = host_header if self.port == default else f"{host_header}:{self.port}"
        self.path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self.timeout_s = timeout_s
        self.ssl = ssl if self.tls else None
        self.idle_s = idle_s
        self.max_idle = max_idle
        self._idle: deque[_Connection] = deque()
        self._closed = False

    def head(self, headers: dict[str, str]) -> bytes:
        """The request line and fixed headers of every POST (Content-Length is added per request)."""
        lines = [f"POST {self.path} HTTP/1.1", f"Host: {self.host_header}", *(f"{k}: {v}" for k, v in headers.items())]
        return ("\r\n".join(lines) + "\r\n").encode()  # UTF-8, as aiohttp writes headers

    async def _connect(self) -> _Connection:
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(self.timeout_s):
            _, conn = await loop.create_connection(
                lambda: _Connection(self), self.host, self.port, ssl=self.ssl,
                server_hostname=self.host if self.tls else None,
            )
        return conn

    def _reusable(self) -> _Connection | None:
        now = time.monotonic()
        while self._idle:
            conn = self._idle.pop()
            if not conn.closed and now - conn.idle_since < self.idle_s:
                return conn
            conn._close()
        return None

    async def post(self, head: bytes, body: bytes) -> Response:
        """Send one request; returns once the reply's status and headers are in."""
        if self._closed:
            raise ProtocolFailure("the connection pool is closed")
        data = head + b"Content-Length: %d\r\n\r\n" % len(body) + body
        conn = self._reusable()
        if conn is not None:
            try:
                return await self._exchange(conn, data)
            except (ConnectionError, OSError) as exc:
                if conn.received or isinstance(exc, TimeoutError):
                    raise
                # the server closed the idle connection as we sent: nothing was processed, send it once more
        return await self._exchange(await self._connect(), data)

    async def _exchange(self, conn: _Connection, data: bytes) -> Response:
        conn.send(data)
        try:
            while not conn.headers_done:
                await conn.wait()
        except BaseException:
            conn.released = True
            conn._close()
            raise
        return Response(conn)

    def release(self, conn: _Connection) -> None:
        if self._closed:
            conn._close()
            return
        now = conn.idle_since = time.monotonic()
        idle = self._idle
        idle.append(conn)
        oldest = idle[0]  # pruned from the cold end, one per release: the pool shrinks after a burst
        if len(idle) > self.max_idle or oldest.closed or now - oldest.idle_since >= self.idle_s:
            idle.popleft()._close()

    async def close(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, deque()
        for conn in idle:
            conn._close()


__all__ = ["HTTP1Pool", "ProtocolFailure", "Response", "httptools_available"]
