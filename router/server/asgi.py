"""Raw ASGI helpers and the ``Engine`` contract: what every part of the server shares.

Nothing here imports the pipeline, the dialects or the app, so each of them can import
this module without a cycle.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, MutableMapping, Sequence
from typing import Any, Protocol
from urllib.parse import quote

from router import fastjson
from router.config import RouterConfig
from router.server.http_errors import HTTPFailure
from router.types import Answer, Event, RequestOptions

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Engine(Protocol):
    """What the server needs from ``router.Router`` (the async core)."""

    config: RouterConfig

    async def aask(self, question: str, *, history: Sequence[Mapping[str, Any]] | None = None, mode: str | None = None,
                   provider: str | None = None, model: str | None = None, options: RequestOptions | None = None,
                   on_event: Callable[[Event], None] | None = None, max_steps: int | None = None,
                   answer_id: str | None = None, caller: str | None = None) -> Answer: ...

    def astream(self, question: str, *, history: Sequence[Mapping[str, Any]] | None = None, mode: str | None = None,
                provider: str | None = None, model: str | None = None, options: RequestOptions | None = None,
                answer_id: str | None = None, caller: str | None = None) -> AsyncIterator[Event]: ...

    async def achat(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                    provider: str | None = None, model: str | None = None, options: RequestOptions | None = None,
                    answer_id: str | None = None, caller: str | None = None) -> Answer: ...

    def astream_chat(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                     provider: str | None = None, model: str | None = None, options: RequestOptions | None = None,
                     answer_id: str | None = None, caller: str | None = None) -> AsyncIterator[Event]: ...

    def models(self) -> list[tuple[str, str]]: ...

    async def afeedback(self, answer_id: str, score: float, *, comment: str | None = None,
                        caller: str | None = None) -> None: ...

    async def aclose(self) -> None: ...


def dumps(value: Any) -> bytes:
    return fastjson.dumps(value)


async def respond(send: Send, status: int, body: bytes, headers: Iterable[tuple[bytes, bytes]] = (),
                  content_type: bytes = b"application/json") -> None:
    """A complete response; ``OnePieceHttpToolsProtocol`` turns the two messages into one write."""
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", content_type), (b"content-length", str(len(body)).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


async def respond_failure(send: Send, fail: HTTPFailure) -> None:
    """An error in OpenAI's shape (endpoints outside any dialect: the gate, Starlette's handlers)."""
    await respond(send, fail.status, dumps(fail.body()), fail.headers())


def header_value(text: str) -> bytes:
    """Headers are latin-1 without line breaks: anything else (a Chinese route reason) is percent-encoded."""
    if text.isascii() and text.isprintable():
        return text.encode()[:1024]
    return quote(text, safe=" !#$&'()*+,-./:;<=>?@[]^_`{|}~\"").encode()[:1024]


def header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return value  # type: ignore[no-any-return]
    return None


class BodyTooLarge(Exception):
    pass


class ClientGone(Exception):
    pass


async def read_body(scope: Scope, receive: Receive, limit: int) -> bytes:
    """The whole request body, refused as soon as it is known to pass ``limit`` bytes."""
    length = header(scope, b"content-length")
    if length is not None:
        try:
            declared = int(length or 0)
        except ValueError:
            declared = 0
        if declared > limit:
            raise BodyTooLarge
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone
        body = message.get("body", b"")
        size += len(body)
        if size > limit:
            raise BodyTooLarge
        chunks.append(body)
        if not message.get("more_body"):
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def upstream_seconds(answer: Answer) -> float:
    """Time spent waiting for providers (and tools): what is not the router's overhead."""
    waited = sum(a.latency_s + a.wait_s for a in answer.attempts)
    return waited + sum(r.duration_s for r in answer.tool_records)


def answer_headers(answer: Answer, overhead_ms: float | None) -> list[tuple[bytes, bytes]]:
    """``x-router-*``: who answered, how, why, and what the router itself cost."""
    headers = [
        (b"x-router-provider", header_value(answer.provider)),
        (b"x-router-model", header_value(answer.model)),
        (b"x-router-mode", header_value(answer.mode)),
        (b"x-router-route-reason", header_value(answer.route_reason)),
    ]
    if answer.deployment:
        headers.append((b"x-router-deployment", header_value(answer.deployment)))
    if overhead_ms is not None:
        headers.append((b"x-router-overhead-ms", f"{overhead_ms:.3f}".encode()))
    return headers


__all__ = [
    "ASGIApp",
    "BodyTooLarge",
    "ClientGone",
    "Engine",
    "Receive",
    "Scope",
    "Send",
    "answer_headers",
    "dumps",
    "header",
    "header_value",
    "read_body",
    "respond",
    "respond_failure",
    "upstream_seconds",
]
