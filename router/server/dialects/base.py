"""The contract between the request pipeline and a wire dialect (OpenAI chat, Anthropic Messages, ...).

A dialect only translates: its request into a ``Call`` in the router's terms, and the
router's ``Answer`` / events / failures back into its JSON and SSE. Everything else a
request goes through (auth, body read, limits, budget, deadline, disconnects, metrics,
``x-router-*`` headers) is the pipeline's, written once for every dialect.

A ``Call``'s ``messages`` are OpenAI chat-shaped (the router's internal history shape)
and ``tools`` OpenAI function tools, whatever the dialect spoke on the wire.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from router.server.http_errors import HTTPFailure
from router.types import NO_OPTIONS, Answer, Event, RequestOptions


class WireError(Exception):
    """A request the server refuses before the router sees it (always a 4xx)."""

    def __init__(self, status: int, message: str, *, code: str, param: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.param = param


@dataclass(frozen=True)
class Call:
    """One request in the router's terms; what the pipeline needs to answer it."""

    messages: list[dict[str, Any]]
    model: str | None = None
    """``provider/model``, an alias, a tier, ``auto``; None means the configured default."""
    tools: list[dict[str, Any]] | None = None
    options: RequestOptions = NO_OPTIONS
    mode: str | None = None
    """The router's answering mode; None makes the server a transparent gateway (``achat``)."""
    stream: bool = False
    question: str = ""
    """With ``mode``: the last (user) message's text; ``messages[:-1]`` is the history."""
    reply_headers: tuple[tuple[bytes, bytes], ...] = ()
    """Headers the dialect adds to its replies (Anthropic echoes ``anthropic-version``)."""
    extras: Mapping[str, Any] = field(default_factory=dict)
    """Whatever else the dialect needs to render its reply (``stream_options``, ``metadata``, ...)."""


@dataclass(frozen=True)
class ReplyMeta:
    """What the pipeline knows about the reply besides the answer."""

    id: str
    created: int
    overhead_ms: float | None = None
    """Time spent in the router, not waiting for providers or tools (known once the answer is)."""


class StreamWriter(Protocol):
    """The bytes of one streamed reply, built by the dialect; the pipeline decides when to send them."""

    def open(self, provider: str, model: str) -> bytes:
        """What goes first, with the response head (a role chunk, ``message_start``); may be empty."""
        ...

    def event(self, event: Event) -> bytes:
        """One event of the answer as wire bytes (empty: nothing to send for it)."""
        ...

    def finish(self, answer: Answer, meta: ReplyMeta) -> bytes:
        """The end of a complete answer (final chunk, usage, ``[DONE]`` / ``message_stop``)."""
        ...

    def error(self, fail: HTTPFailure) -> bytes:
        """An error event ending a stream that has already started: never mistaken for a complete answer."""
        ...


class Dialect(Protocol):
    """One wire format served by the pipeline. Register it in ``router/server/dialects/__init__.py``."""

    name: str
    paths: tuple[str, ...]
    """The POST paths it answers (``/v1/chat/completions``, ``/chat/completions``)."""
    endpoint: str
    """Its metrics label."""
    id_prefix: str
    """Prefix of reply ids (``chatcmpl-``, ``msg_``)."""

    def parse(self, data: Any, headers: Mapping[str, str]) -> Call:
        """The request as a ``Call``; ``WireError`` on a caller's mistake (naming the field)."""
        ...

    def render(self, answer: Answer, call: Call, meta: ReplyMeta) -> dict[str, Any]:
        """The JSON body of a complete answer."""
        ...

    def stream(self, call: Call, meta: ReplyMeta) -> StreamWriter:
        """A writer for one streamed reply."""
        ...

    def error(self, fail: HTTPFailure) -> tuple[int, dict[str, Any]]:
        """The dialect's status and error body for a failure."""
        ...


def text_chars(messages: list[dict[str, Any]]) -> int:
    """Characters of text the messages carry (string contents and text parts), what ``max_question_chars`` bounds."""
    total = 0
    for message in messages:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            total += len(content)
        elif isinstance(content, list):
            for part in content:
                if isinstance(part, dict) and isinstance(part.get("text"), str):
                    total += len(part["text"])
    return total


M = TypeVar("M", bound=BaseModel)


def _where(loc: tuple[Any, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")


def validated(model: type[M], data: Any, *, unknown: str) -> M:
    """``data`` as the dialect's pydantic request model, or a ``WireError`` naming the first bad field;
    ``unknown`` words the refusal of an unknown field (``{where}`` is its path), as each dialect's own API does."""
    if not isinstance(data, dict):
        raise WireError(400, "the request body must be a JSON object", code="invalid_request")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = _where(tuple(first["loc"])) or "body"
        if first["type"] == "extra_forbidden":
            raise WireError(400, unknown.format(where=where), code="unknown_parameter", param=where) from None
        message = str(first["msg"]).removeprefix("Value error, ")
        raise WireError(400, f"{where}: {message}", code="invalid_request", param=where) from None


def split_question(messages: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """The question (the last message, a user's) and the history before it, for ``aask``."""
    last = messages[-1]
    if not isinstance(last, dict) or last.get("role") != "user":
        raise WireError(400, f"messages[{len(messages) - 1}]: with 'mode' the last message must be the user's question",
                        code="invalid_messages", param="messages")
    content = last.get("content")
    if isinstance(content, list):
        content = "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    if not isinstance(content, str) or not content.strip():
        raise WireError(400, f"messages[{len(messages) - 1}].content: the question is empty",
                        code="invalid_messages", param="messages")
    return content, messages[:-1]


__all__ = ["Call", "Dialect", "ReplyMeta", "StreamWriter", "WireError", "split_question", "text_chars", "validated"]
