"""A real OpenAI-compatible HTTP server for tests and benchmarks.

Clients are tested over real HTTP against this server instead of patching the
openai / litellm / httpx internals: what the SDKs really send and really parse is
what gets checked. The server replays a queue of scripted replies (each one
rendered as JSON or as SSE chunks depending on the request's ``stream`` flag) and
injects faults on demand. Every request body is recorded.

Usage::

    with FakeOpenAIServer() as server:
        server.enqueue(Text("hello"), RateLimited(retry_after=2), ServerError())
        client = OpenAIClient(base_url=server.base_url, api_key="sk-test", model="fake")
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

# --- scripted replies -------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """A plain answer; ``reasoning`` becomes DeepSeek-style ``reasoning_content``."""

    content: str
    reasoning: str | None = None
    finish_reason: str = "stop"
    usage: tuple[int, int] = (11, 7)
    chunk_size: int = 4


@dataclass(frozen=True)
class ToolCalls:
    """One or more (parallel) tool calls: ``calls`` is ``((name, arguments_json), ...)``.

    When streamed, argument strings are split into ``chunk_size`` pieces; later
    fragments carry an empty name, as real servers do.
    """

    calls: tuple[tuple[str, str], ...]
    content: str | None = None
    usage: tuple[int, int] = (20, 9)
    chunk_size: int = 5
    id_prefix: str = "call_"


@dataclass(frozen=True)
class RawChunks:
    """Hand-written stream: each item is a ``delta`` dict (or a full chunk dict with ``choices``).

    For JSON requests the final message is given by ``message``.
    """

    deltas: tuple[dict[str, Any], ...]
    finish_reason: str = "stop"
    usage: tuple[int, int] = (5, 5)
    message: dict[str, Any] | None = None


@dataclass(frozen=True)
class Replay:
    """A reply replayed verbatim: ``body`` for plain requests, ``sse`` chunk dicts for streamed ones.

    For wire shapes recorded from real providers (``cassette``) and hand-written
    odd shapes (arguments as objects, ids reused, usage inside the choice, ...).
    A request whose mode has nothing recorded gets a 500 saying so.
    """

    body: Any = None
    sse: tuple[Any, ...] | None = None
    done: bool = True
    """Send ``data: [DONE]`` after the chunks."""


CASSETTES = Path(__file__).resolve().parent / "data" / "provider_wire" / "fantasy_cassettes.json"


def cassette(name: str) -> Replay:
    """A reply recorded from a live provider (tests/data/provider_wire, see its README)."""
    entry = json.loads(CASSETTES.read_text(encoding="utf-8"))[name]
    return Replay(body=entry.get("json"), sse=tuple(entry["sse"]) if "sse" in entry else None)


def cassette_names() -> list[str]:
    return sorted(json.loads(CASSETTES.read_text(encoding="utf-8")))


@dataclass(frozen=True)
class Status:
    """An HTTP error reply with a JSON (or raw) body and optional headers."""

    code: int
    message: str = "error"
    headers: tuple[tuple[str, str], ...] = ()
    raw_body: bytes | None = None
    echo_authorization: bool = False
    """Put the received Authorization header in the message (a server leaking the key)."""


def RateLimited(retry_after: float | None = 1, message: str = "rate limit reached") -> Status:
    headers = (("Retry-After", f"{retry_after:g}"),) if retry_after is not None else ()
    return Status(429, message, headers)


def ServerError(code: int = 500, message: str = "internal server error") -> Status:
    return Status(code, message)


def Unauthorized(echo_key: bool = False) -> Status:
    return Status(401, "Incorrect API key provided", echo_authorization=echo_key)


def ToolsUnsupported() -> Status:
    return Status(400, "tools are not supported")


@dataclass(frozen=True)
class EchoAuthorization:
    """A 200 answer whose text quotes the received Authorization header (an upstream leaking the key);
    streamed in ``chunk_size`` pieces, so chunk boundaries split the key."""

    prefix: str = "You sent: "
    chunk_size: int = 3


@dataclass(frozen=True)
class Slow:
    """Wait ``delay_s`` before sending ``reply`` (longer than the client's timeout)."""

    delay_s: float
    reply: Any = field(default_factory=lambda: Text("too late"))


@dataclass(frozen=True)
class Malformed:
    """A 200 whose body is not valid JSON (or, streamed, an SSE event that is not JSON)."""

    body: bytes = b'{"id": "broken", "choices": [ {"message": '


@dataclass(frozen=True)
class CutStream:
    """Send the first ``after_chunks`` chunks of ``reply`` then drop the connection."""

    reply: Any = field(default_factory=lambda: Text("this answer is cut off in the middle", chunk_size=3))
    after_chunks: int = 2


# --- faults (the failover scenarios of bench/failover.py and tests/test_failover_scenarios.py) --


@dataclass(frozen=True)
class Silent:
    """Accept the request and never answer (until the server stops)."""


@dataclass(frozen=True)
class Reset:
    """Read the request, then reset the connection (TCP RST) without a byte of reply."""


@dataclass(frozen=True)
class SlowFirstToken:
    """Streamed: headers and the role chunk at once, then ``delay_s`` of nothing before the rest."""

    delay_s: float
    reply: Any = field(default_factory=lambda: Text("late but whole"))


@dataclass(frozen=True)
class Stall:
    """Streamed: ``after_chunks`` chunks, then ``stall_s`` of silence, then the rest."""

    reply: Any = field(default_factory=lambda: Text("this answer stalls in the middle", chunk_size=3))
    after_chunks: int = 3
    stall_s: float = 3600.0


@dataclass(frozen=True)
class MissingDone:
    """Streamed: the text chunks, then a clean end of stream with no finish_reason, usage or ``[DONE]``."""

    reply: Any = field(default_factory=lambda: Text("an answer that never says it is finished", chunk_size=5))


def ContextExceeded() -> Status:
    return Status(400, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 "
                       "tokens (context_length_exceeded).")  # fmt: skip


def ContentPolicy() -> Status:
    return Status(400, "Your request was rejected as a result of our safety system (content_policy_violation).")


# --- rendering ---------------------------------------------------------------------------


def _usage(pair: tuple[int, int]) -> dict[str, int]:
    return {"prompt_tokens": pair[0], "completion_tokens": pair[1], "total_tokens": pair[0] + pair[1]}


def _pieces(text: str, size: int) -> list[str]:
    size = max(1, size)
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _completion(message: dict[str, Any], finish_reason: str, usage: tuple[int, int], model: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason, "logprobs": None}],
        "usage": _usage(usage),
    }


def render_json(reply: Any, model: str) -> dict[str, Any]:
    if isinstance(reply, Text):
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.reasoning is not None:
            message["reasoning_content"] = reply.reasoning
        return _completion(message, reply.finish_reason, reply.usage, model)
    if isinstance(reply, ToolCalls):
        calls = [
            {"id": f"{reply.id_prefix}{i}", "type": "function", "function": {"name": name, "arguments": args}}
            for i, (name, args) in enumerate(reply.calls)
        ]
        message = {"role": "assistant", "content": reply.content, "tool_calls": calls}
        return _completion(message, "tool_calls", reply.usage, model)
    if isinstance(reply, RawChunks):
        message = reply.message or {"role": "assistant", "content": ""}
        return _completion(message, reply.finish_reason, reply.usage, model)
    raise TypeError(f"cannot render {reply!r} as JSON")


def _chunk(delta: dict[str, Any] | None, model: str, finish_reason: str | None = None) -> dict[str, Any]:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}]
    return {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()), "model": model, "choices": choices}


def render_chunks(reply: Any, model: str) -> list[dict[str, Any]]:
    """The SSE chunks of a reply: role chunk, deltas, finish chunk, usage chunk."""
    chunks = [_chunk({"role": "assistant", "content": ""}, model)]
    if isinstance(reply, Text):
        if reply.reasoning:
            chunks += [_chunk({"reasoning_content": p}, model) for p in _pieces(reply.reasoning, reply.chunk_size)]
        chunks += [_chunk({"content": p}, model) for p in _pieces(reply.content, reply.chunk_size)]
        finish, usage = reply.finish_reason, reply.usage
    elif isinstance(reply, ToolCalls):
        if reply.content:
            chunks.append(_chunk({"content": reply.content}, model))
        for i, (name, args) in enumerate(reply.calls):
            first = {"index": i, "id": f"{reply.id_prefix}{i}", "type": "function", "function": {"name": name, "arguments": ""}}
            chunks.append(_chunk({"tool_calls": [first]}, model))
            for piece in _pieces(args, reply.chunk_size):
                fragment = {"index": i, "function": {"name": "", "arguments": piece}}
                chunks.append(_chunk({"tool_calls": [fragment]}, model))
        finish, usage = "tool_calls", reply.usage
    elif isinstance(reply, RawChunks):
        for item in reply.deltas:
            chunks.append(item if "choices" in item else _chunk(item, model))
        finish, usage = reply.finish_reason, reply.usage
    else:
        raise TypeError(f"cannot render {reply!r} as a stream")
    chunks.append(_chunk({}, model, finish_reason=finish))
    usage_chunk = _chunk(None, model)
    usage_chunk["usage"] = _usage(usage)
    chunks.append(usage_chunk)
    return chunks


# --- the server --------------------------------------------------------------------------


@dataclass(frozen=True)
class ReceivedRequest:
    path: str
    body: dict[str, Any] | None
    headers: dict[str, str]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, chunked streaming
    disable_nagle_algorithm = True  # headers and body go out in separate writes: no 40 ms delayed-ACK stalls
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: test output stays readable (and request lines never reach logs)."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        owner = self.server.owner
        owner._record(ReceivedRequest(self.path, body, {k.lower(): v for k, v in self.headers.items()}))
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send_json(404, {"error": {"message": f"unknown path {self.path}"}})
            return
        reply = owner._next_reply()
        if reply is None:
            self._send_json(500, {"error": {"message": "fake server: no scripted reply left"}})
            return
        streaming = bool(body and body.get("stream"))
        model = str((body or {}).get("model") or "fake-model")
        self._serve(reply, streaming, model)

    def _serve(self, reply: Any, streaming: bool, model: str) -> None:
        if self._fault(reply, streaming, model):
            return
        if isinstance(reply, EchoAuthorization):
            reply = Text(reply.prefix + self.headers.get("Authorization", ""), chunk_size=reply.chunk_size)
        if isinstance(reply, Slow):
            if self.server.owner._stopping.wait(reply.delay_s):
                return
            self._serve(reply.reply, streaming, model)
        elif isinstance(reply, Status):
            self._send_status(reply)
        elif isinstance(reply, Replay):
            recorded = reply.sse if streaming else reply.body
            if recorded is None:
                self._send_json(500, {"error": {"message": "fake server: nothing recorded for this mode"}})
            elif streaming:
                events = [self._event(c) for c in recorded]
                if reply.done and recorded[-1] != "[DONE]":
                    events.append(b"data: [DONE]\n\n")
                self._send_sse_raw(events, complete=True)
            else:
                self._send_bytes(200, json.dumps(recorded).encode(), "application/json")
        elif isinstance(reply, Malformed):
            if streaming:
                self._send_sse_raw([b"data: " + reply.body + b"\n\n"], complete=True)
            else:
                self._send_bytes(200, reply.body, "application/json")
        elif isinstance(reply, CutStream):
            if streaming:
                events = [self._event(c) for c in render_chunks(reply.reply, model)[: reply.after_chunks]]
                self._send_sse_raw(events, complete=False)
            else:
                data = json.dumps(render_json(reply.reply, model)).encode()
                self._send_cut_json(data)
        elif streaming:
            events = [self._event(c) for c in render_chunks(reply, model)]
            events.append(b"data: [DONE]\n\n")
            self._send_sse_raw(events, complete=True)
        else:
            self._send_json(200, render_json(reply, model))

    def _fault(self, reply: Any, streaming: bool, model: str) -> bool:
        """Serve the failover faults; False for every other reply."""
        stopping = self.server.owner._stopping
        if isinstance(reply, Silent):
            stopping.wait()
            self._hang_up()
        elif isinstance(reply, Reset):
            self.close_connection = True
            try:
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
            except OSError:
                pass
        elif isinstance(reply, (SlowFirstToken, Stall)) and streaming:
            events = [self._event(c) for c in render_chunks(reply.reply, model)] + [b"data: [DONE]\n\n"]
            split, pause = (1, reply.delay_s) if isinstance(reply, SlowFirstToken) else (reply.after_chunks, reply.stall_s)
            self._send_sse_parts(events[:split], pause, events[split:])
        elif isinstance(reply, SlowFirstToken):
            self._serve(Slow(reply.delay_s, reply.reply), streaming, model)
        elif isinstance(reply, Stall):
            self._serve(Slow(reply.stall_s, reply.reply), streaming, model)
        elif isinstance(reply, MissingDone):
            chunks = render_chunks(reply.reply, model)[:-2]  # no finish chunk, no usage chunk
            if streaming:
                self._send_sse_raw([self._event(c) for c in chunks], complete=True)
            else:
                self._send_json(200, {"id": "chatcmpl-fake", "object": "chat.completion", "model": model, "choices": []})
        else:
            return False
        return True

    def _send_sse_parts(self, head: list[bytes], pause_s: float, rest: list[bytes]) -> None:
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for event in head:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
            self.wfile.flush()
            if self.server.owner._stopping.wait(pause_s):
                self._hang_up()
                return
            for event in rest:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError:
            self.close_connection = True

    @staticmethod
    def _event(chunk: Any) -> bytes:
        """One SSE event; a string is sent as is (a recorded ``[DONE]``)."""
        data = chunk.encode() if isinstance(chunk, str) else json.dumps(chunk).encode()
        return b"data: " + data + b"\n\n"

    def _send_status(self, reply: Status) -> None:
        message = reply.message
        if reply.echo_authorization:
            message = f"{message}: {self.headers.get('Authorization', '')}"
        data = reply.raw_body if reply.raw_body is not None else json.dumps(
            {"error": {"message": message, "type": "fake_error", "code": reply.code}}
        ).encode()
        self._send_bytes(reply.code, data, "application/json", reply.headers)

    def _send_json(self, code: int, payload: dict[str, Any]) -> None:
        self._send_bytes(code, json.dumps(payload).encode(), "application/json")

    def _send_bytes(self, code: int, data: bytes, content_type: str, headers: tuple[tuple[str, str], ...] = ()) -> None:
        try:
            self.send_response(code)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            self.close_connection = True

    def _send_cut_json(self, data: bytes) -> None:
        """Announce the full length, send half, hang up."""
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
        except OSError:
            pass
        self._hang_up()

    def _send_sse_raw(self, events: list[bytes], *, complete: bool) -> None:
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for event in events:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
            if complete:
                self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError:
            self.close_connection = True
            return
        if not complete:
            self._hang_up()

    def _hang_up(self) -> None:
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    owner: FakeOpenAIServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients hanging up on slow replies are expected; stay quiet."""


class FakeOpenAIServer:
    """Serves scripted replies on 127.0.0.1 (free port) from a background thread."""

    def __init__(self, *, default_reply: Any = None) -> None:
        self.default_reply = default_reply
        """Served when the queue is empty; None means answer 500 'no scripted reply left'."""
        self.requests: list[ReceivedRequest] = []
        self._queue: deque[Any] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # lifecycle
    def start(self) -> FakeOpenAIServer:
        httpd = _Server(("127.0.0.1", 0), _Handler)
        httpd.owner = self
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # scripting
    def enqueue(self, *replies: Any) -> FakeOpenAIServer:
        with self._lock:
            self._queue.extend(replies)
        return self

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    def _next_reply(self) -> Any:
        with self._lock:
            return self._queue.popleft() if self._queue else self.default_reply

    def _record(self, request: ReceivedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    @property
    def bodies(self) -> list[dict[str, Any] | None]:
        with self._lock:
            return [r.body for r in self.requests]

    @property
    def last_body(self) -> dict[str, Any]:
        bodies = self.bodies
        assert bodies and bodies[-1] is not None, "no request received"
        return bodies[-1]

    def clear(self) -> None:
        with self._lock:
            self.requests.clear()
            self._queue.clear()


__all__ = [
    "ContentPolicy",
    "ContextExceeded",
    "CutStream",
    "FakeOpenAIServer",
    "Malformed",
    "MissingDone",
    "RateLimited",
    "RawChunks",
    "ReceivedRequest",
    "Replay",
    "Reset",
    "ServerError",
    "Silent",
    "Slow",
    "SlowFirstToken",
    "Stall",
    "Status",
    "Text",
    "ToolCalls",
    "ToolsUnsupported",
    "Unauthorized",
    "cassette",
    "cassette_names",
    "render_chunks",
    "render_json",
]
