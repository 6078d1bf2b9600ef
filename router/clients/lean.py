"""The lean transport: chat completions spoken directly over one ``aiohttp`` session per event loop.

Through the openai SDK a request costs about 1.5 ms of CPU before and after the
network (pydantic-typed request transforms, httpx request and URL objects over the
aiohttp transport, header merging, a response wrapper): more than the rest of the
router and its server together (bench/server_overhead.py). The wire format is plain
JSON, so this module builds the body with ``router.fastjson`` (orjson when installed), posts it on a keep-alive
connection (aiohttp sets TCP_NODELAY) and reads the reply with it;
streams are server-sent events parsed by hand and fed to the same
``StreamAssembler`` as before.

Errors map exactly as on the SDK path: an HTTP error reply goes through
``status_error`` (shared with the SDK mapping) with the body read the way the SDK
reads it; connection failures, timeouts and unreadable bodies become the same
router errors; an ``error`` object inside a stream is the same failure the SDK
raises. The key lives only in the Authorization header and every message is
redacted. ``OpenAIClient`` chooses this transport with ``transport="lean"`` (the
default when aiohttp is installed) and keeps the SDK one as ``transport="sdk"``.
"""

from __future__ import annotations

import urllib.request
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from router import fastjson
from router.clients.sdk_errors import clip, error_detail, key_problem, message_of, status_error
from router.errors import (
    AuthenticationError,
    MalformedResponseError,
    ProviderError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    RouterError,
)
from router.redaction import redact

_USER_AGENT = "router (lean aiohttp transport)"


def aiohttp_available() -> bool:
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        return False
    return True


def lean_available() -> bool:
    """The lean transport needs httptools (``http1``) or aiohttp."""
    from router.clients.http1 import httptools_available

    return httptools_available() or aiohttp_available()


class HTTPStatusFailure(Exception):
    """An HTTP error reply, carrying what the error mapping reads (as the SDK's ``APIStatusError`` does)."""

    def __init__(self, status: int, raw: bytes, headers: Any) -> None:
        text = raw.decode("utf-8", errors="replace").strip()
        body: Any = text
        try:
            body = fastjson.loads(text)
        except ValueError:
            pass
        self.message = f"Error code: {status} - {body}" if text else f"Error code: {status}"
        super().__init__(self.message)
        self.status_code = status
        self.body = body.get("error", body) if isinstance(body, dict) else body
        self.headers = headers


class IllegalKey(Exception):
    """The key cannot be sent as a header (it ends with a newline, ...); the message names why, never the key."""


class StreamErrorEvent(Exception):
    """An ``error`` object sent inside a stream (the SDK raises its ``APIError`` for these)."""

    def __init__(self, error: Any) -> None:
        message = error.get("message") if isinstance(error, dict) else None
        self.message = str(message or "An error occurred during streaming")
        super().__init__(self.message)
        self.body = error


def _proxy_for(url: str) -> bool:
    """Whether the environment names a proxy for ``url`` (then aiohttp reads it per request, netrc and all)."""
    parts = urlsplit(url)
    proxies = urllib.request.getproxies()
    if not proxies.get(parts.scheme) and not proxies.get("all"):
        return False
    return not urllib.request.proxy_bypass(parts.hostname or "")


class LeanChat:
    """The chat-completions endpoint of one base URL on one event loop (one connection pool).

    ``send`` posts one request: a dict for a plain one, an async iterator of chunk
    dicts for ``stream=True``. Exceptions are raw (aiohttp's, ``HTTPStatusFailure``,
    ``ValueError`` for unreadable JSON); ``map_lean_error`` turns them into router errors.
    """

    def __init__(
        self, *, base_url: str, api_key: str | None, timeout_s: float, key_env: str | None = None, engine: str = "auto",
        max_reply_bytes: int | None = None,
    ) -> None:
        """``engine``: ``http1`` (``router.clients.http1``, the default when httptools is installed and no
        proxy is configured for the URL) or ``aiohttp`` (proxies, or no httptools)."""
        from router.clients.http1 import httptools_available

        self.url = base_url.rstrip("/") + "/chat/completions"
        self.max_reply_bytes = max_reply_bytes
        """A JSON reply past this many bytes is not read (a 100 MB reply would cost several times that in memory)."""
        problem = key_problem(api_key)
        holder = f"the key in {key_env}" if key_env else "the API key"
        self._key_problem = f"illegal header value: {holder} {problem}" if problem else None
        self._headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": _USER_AGENT,
        }
        if api_key and not problem:
            self._headers["Authorization"] = f"Bearer {api_key}"
        proxied = _proxy_for(self.url)
        ssl: Any = _ssl_context() if self.url.startswith("https:") else None
        if engine == "auto":
            engine = "http1" if httptools_available() and not proxied else "aiohttp"
        self.engine = engine
        if engine == "http1":
            from router.clients.http1 import HTTP1Pool

            self._pool = HTTP1Pool(self.url, timeout_s=timeout_s, ssl=ssl)
            self._head = self._pool.head(self._headers)
            self._stream_head = self._pool.head({**self._headers, "Accept": "text/event-stream"})
            return
        import aiohttp

        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=1000, ssl=ssl if ssl is not None else True, keepalive_timeout=15),
            timeout=aiohttp.ClientTimeout(total=None, sock_connect=timeout_s, sock_read=timeout_s),
            trust_env=proxied,
        )

    async def send(self, request: dict[str, Any]) -> Any:
        if self._key_problem is not None:
            raise IllegalKey(self._key_problem)
        data = fastjson.dumps(request)
        streamed = bool(request.get("stream"))
        if self.engine == "http1":
            response = await self._pool.post(self._stream_head if streamed else self._head, data)
            if streamed:
                return self._stream(response)
            raw = await response.read(self.max_reply_bytes)
            if response.status >= 300:
                raise HTTPStatusFailure(response.status, raw, response.headers)
            return fastjson.loads(raw)
        if streamed:
            headers = {**self._headers, "Accept": "text/event-stream"}
            return self._stream(await self._session.post(self.url, data=data, headers=headers))
        async with self._session.post(self.url, data=data, headers=self._headers) as aio_response:
            raw = await _read_bounded(aio_response, self.max_reply_bytes)
            if aio_response.status >= 300:
                raise HTTPStatusFailure(aio_response.status, raw, aio_response.headers)
        return fastjson.loads(raw)

    async def _stream(self, response: Any) -> AsyncIterator[Any]:
        """Chunks of a streamed reply (an ``http1.Response`` or an aiohttp one)."""
        try:
            if response.status >= 300:
                raise HTTPStatusFailure(response.status, await response.read(), response.headers)
            pieces = response.iter_any() if self.engine == "http1" else response.content.iter_any()
            parser = SSEParser()
            async for piece in pieces:
                for chunk in parser.feed(piece):
                    yield chunk
                if parser.done:
                    return
            for chunk in parser.feed(b"", final=True):
                yield chunk
        finally:
            response.close()  # read to its end: back to the pool; cut short: closed, never reused half-read

    async def close(self) -> None:
        if self.engine == "http1":
            await self._pool.close()
        else:
            await self._session.close()


def reply_byte_limit(max_reply_chars: int) -> int:
    """Bytes a JSON reply may take for ``max_reply_chars`` of text: escapes, tool calls and reasoning included."""
    return 8 * max_reply_chars + (1 << 20)


async def _read_bounded(response: Any, limit: int | None) -> bytes:
    if limit is None:
        return await response.read()  # type: ignore[no-any-return]
    from router.clients.http1 import ReplyTooLarge

    pieces: list[bytes] = []
    size = 0
    async for piece in response.content.iter_any():
        pieces.append(piece)
        size += len(piece)
        if size > limit:
            response.close()
            raise ReplyTooLarge(limit)
    return b"".join(pieces)


def _ssl_context() -> Any:
    """certifi's roots when installed (as httpx, and so the SDK, use), else the system's."""
    import ssl

    try:
        import certifi
    except ImportError:
        return ssl.create_default_context()
    return ssl.create_default_context(cafile=certifi.where())


class SSEParser:
    """Server-sent events to JSON chunks, fed bytes as they arrive; follows the SDK's reading.

    ``data:`` lines joined by newlines make one event, dispatched at a blank line;
    comments (keep-alives) and other fields are skipped; ``[DONE]`` ends the stream;
    an ``error`` object raises ``StreamErrorEvent``; an event named other than
    ``error`` comes through as ``{"data": ..., "event": ...}``. An event cut off before
    its blank line is never dispatched. A ``\r`` at the end of a piece waits for the
    next one, so a CRLF split between two reads is one line end.
    """

    def __init__(self) -> None:
        self._buffer = b""
        self._data: list[bytes] = []
        self._event: bytes | None = None
        self.done = False

    def feed(self, piece: bytes, *, final: bool = False) -> list[Any]:
        buffer = self._buffer + piece
        if not final and b"\n" not in piece and b"\r" not in piece:
            self._buffer = buffer
            return []
        lines = buffer.splitlines(keepends=True)
        keep = b""
        if lines and not final and (not lines[-1].endswith((b"\n", b"\r")) or lines[-1].endswith(b"\r")):
            keep = lines.pop()
        self._buffer = keep
        out: list[Any] = []
        for raw_line in lines:
            if self.done:
                break
            self._line(raw_line.rstrip(b"\r\n"), out)
        return out

    def _line(self, line: bytes, out: list[Any]) -> None:
        if line:
            if line.startswith(b"data:"):
                self._data.append(line[6:] if line[5:6] == b" " else line[5:])
            elif line.startswith(b"event:"):
                self._event = line[6:].strip()
            return
        data, name = self._data, self._event
        self._data, self._event = [], None
        if not data:
            return
        text = data[0] if len(data) == 1 else b"\n".join(data)
        if text.startswith(b"[DONE]"):
            self.done = True
            return
        chunk = fastjson.loads(text)
        if name is None or name.startswith((b"response.", b"transcript.")):
            if isinstance(chunk, dict) and chunk.get("error"):
                raise StreamErrorEvent(chunk["error"])
            out.append(chunk)
        elif name == b"error" and isinstance(chunk, dict) and chunk.get("error"):
            raise StreamErrorEvent(chunk["error"])
        else:
            out.append({"data": chunk, "event": name.decode("utf-8", errors="replace")})


def _is_aiohttp_error(exc: BaseException) -> bool:
    import aiohttp

    return isinstance(exc, aiohttp.ClientError)


def map_lean_error(
    exc: BaseException, *, provider: str, model: str, had_tools: bool, secret: str | None
) -> ProviderError | None:
    """The ``router.errors`` equivalent of what the lean transport raised (None: not ours)."""
    if isinstance(exc, RouterError):
        return None

    def clean(text: str) -> str:
        return clip(redact(text, secret))

    where: dict[str, Any] = {"provider": provider, "model": model}
    if isinstance(exc, IllegalKey):
        return AuthenticationError(str(exc), **where)
    if isinstance(exc, HTTPStatusFailure):
        detail = message_of(exc.body) or error_detail(exc)
        return status_error(
            exc.status_code, detail, exc.body, exc.headers, had_tools=had_tools, clean=clean, where=where
        )
    if isinstance(exc, StreamErrorEvent):
        return ProviderUnavailableError(clean(f"APIError: {message_of(exc.body) or exc.message}"), **where)
    if isinstance(exc, TimeoutError):  # aiohttp's timeouts subclass it (and OSError: test this first)
        return ProviderTimeoutError(clean(f"request timed out: {type(exc).__name__}: {exc}"), **where)
    if isinstance(exc, OSError) or (aiohttp_available() and _is_aiohttp_error(exc)):
        cause = exc.__cause__ or exc.__context__
        because = f" ({type(cause).__name__}: {clean(str(cause))})" if cause is not None and str(cause) else ""
        return ProviderUnavailableError(clean(f"connection failed: {type(exc).__name__}: {exc}") + because, **where)
    if isinstance(exc, (ValueError, AttributeError, KeyError, TypeError, IndexError)):
        return MalformedResponseError(clean(f"unreadable reply: {type(exc).__name__}: {exc}"), **where)
    return None


__all__ = ["HTTPStatusFailure", "LeanChat", "SSEParser", "StreamErrorEvent", "aiohttp_available", "lean_available", "map_lean_error"]
