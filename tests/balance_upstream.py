"""An OpenAI-compatible upstream on 127.0.0.1 that measures what balancing does to it.

Each instance is one "deployment": it answers chat completions after ``delay_s``
(``first_token_s`` for streams: the first chunk, then the rest), can start
answering 429 after ``rate_limit_after`` requests, and records what a balancer
must be judged on from the upstream's side: requests, requests in flight (sampled
by the caller with ``in_flight``), and the requests and tokens it received in
every sliding 60 s (``max_per_minute``), which is what a provider's rpm/tpm caps
count. A raw asyncio HTTP/1.1 server on its own thread and loop, keep-alive.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import multiprocessing
import os
import threading
import time
from dataclasses import dataclass
from typing import Any


@dataclass
class Seen:
    at: float
    tokens: int
    model: str
    user: str | None = None
    first_user: str = ""


class Upstream:
    """One measuring upstream in its own process (so its timing is not the test process's GIL's)."""

    def __init__(
        self,
        name: str = "upstream",
        *,
        delay_s: float = 0.0,
        rate_limit_after: int | None = None,
        usage: tuple[int, int] = (20, 10),
        retry_after: float | None = 30.0,
    ) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.name = name
        self.usage = usage
        self.retry_after = retry_after
        self._delay = ctx.Value("d", delay_s, lock=False)
        self._limit_after = ctx.Value("q", -1 if rate_limit_after is None else rate_limit_after, lock=False)
        self._failing = ctx.Value("b", 0, lock=False)
        self._in_flight = ctx.Value("q", 0, lock=False)
        self._count = ctx.Value("q", 0, lock=False)
        self._limited = ctx.Value("q", 0, lock=False)
        self._ctx = ctx
        self._process: Any = None
        self._pipe: Any = None
        self.port = 0

    # settings that may change while it runs
    delay_s = property(lambda self: self._delay.value, lambda self, v: setattr(self._delay, "value", v))
    failing = property(lambda self: bool(self._failing.value), lambda self, v: setattr(self._failing, "value", int(v)))
    """True: answer 500 to everything (a deployment that fails)."""
    rate_limit_after = property(lambda self: None if self._limit_after.value < 0 else self._limit_after.value,
                                lambda self, v: setattr(self._limit_after, "value", -1 if v is None else v))  # fmt: skip

    # --- lifecycle -------------------------------------------------------------------------

    def start(self) -> Upstream:
        parent, child = self._ctx.Pipe()
        shared = (self._delay, self._limit_after, self._failing, self._in_flight, self._count, self._limited)
        self._process = self._ctx.Process(target=_serve, args=(child, self.name, self.usage, self.retry_after, shared),
                                          daemon=True)  # fmt: skip
        self._process.start()
        if not parent.poll(30):
            raise RuntimeError(f"upstream {self.name} did not start")
        self.port = parent.recv()
        self._pipe = parent
        return self

    def stop(self) -> None:
        if self._process is not None:
            self._process.terminate()
            self._process.join(5)
            self._process = None

    def __enter__(self) -> Upstream:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # --- what it saw ------------------------------------------------------------------------

    @property
    def requests(self) -> int:
        """Requests answered (not counting 429s)."""
        return int(self._count.value)

    @property
    def rate_limited(self) -> int:
        return int(self._limited.value)

    @property
    def in_flight(self) -> int:
        return int(self._in_flight.value)

    @property
    def seen(self) -> list[Seen]:
        self._pipe.send("seen")
        return [Seen(*row) for row in self._pipe.recv()]

    def max_per_minute(self, span_s: float = 60.0) -> tuple[int, int]:
        """The most requests and tokens received in any ``span_s`` (sliding)."""
        seen = self.seen
        times = [s.at for s in seen]
        prefix = [0]
        for s in seen:
            prefix.append(prefix[-1] + s.tokens)
        most_requests = most_tokens = 0
        for i, start in enumerate(times):
            end = bisect.bisect_left(times, start + span_s)
            most_requests = max(most_requests, end - i)
            most_tokens = max(most_tokens, prefix[end] - prefix[i])
        return most_requests, most_tokens

    def reset(self) -> None:
        self._pipe.send("reset")
        self._pipe.recv()


def _serve(pipe: Any, name: str, usage: tuple[int, int], retry_after: float | None, shared: tuple[Any, ...]) -> None:
    """The child process: the server on its loop, and a thread answering the parent's questions."""
    server = _Server(name, usage, retry_after, shared)
    loop = asyncio.new_event_loop()
    listener = loop.run_until_complete(asyncio.start_server(server.handle, "127.0.0.1", 0, backlog=1024))
    pipe.send(listener.sockets[0].getsockname()[1])

    def answer() -> None:
        while True:
            try:
                command = pipe.recv()
            except EOFError:
                os._exit(0)
            with server.lock:
                if command == "reset":
                    server.seen.clear()
                    server.count.value = server.limited.value = 0
                    pipe.send(None)
                else:
                    pipe.send([(s.at, s.tokens, s.model, s.user, s.first_user) for s in server.seen])

    threading.Thread(target=answer, daemon=True).start()
    loop.run_forever()


class _Server:
    def __init__(self, name: str, usage: tuple[int, int], retry_after: float | None, shared: tuple[Any, ...]) -> None:
        self.name, self.usage, self.retry_after = name, usage, retry_after
        self.delay, self.limit_after, self.failing, self.in_flight, self.count, self.limited = shared
        self.seen: list[Seen] = []
        self.lock = threading.Lock()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    key, _, value = line.partition(b":")
                    if key.strip().lower() == b"content-length":
                        length = int(value.strip())
                body = json.loads(await reader.readexactly(length)) if length else {}
                await self._answer(body, writer)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    async def _answer(self, body: dict[str, Any], writer: asyncio.StreamWriter) -> None:
        model = str(body.get("model") or "m")
        first_user = next((str(m.get("content")) for m in body.get("messages", []) if m.get("role") == "user"), "")
        with self.lock:
            after = self.limit_after.value
            limited = after >= 0 and self.count.value + self.limited.value >= after
            if limited:
                self.limited.value += 1
            else:
                self.seen.append(Seen(time.time(), sum(self.usage), model, body.get("user"), first_user))
                self.count.value += 1
                self.in_flight.value += 1
        if limited:
            extra = f"retry-after: {self.retry_after:g}\r\n" if self.retry_after is not None else ""
            self._send(writer, 429, {"error": {"message": "rate limit reached", "type": "rate_limit"}}, extra)
            return
        try:
            if self.delay.value:
                await asyncio.sleep(self.delay.value)
            if self.failing.value:
                self._send(writer, 500, {"error": {"message": "upstream failing"}})
            elif body.get("stream"):
                await self._stream(writer, model)
            else:
                self._send(writer, 200, self._completion(model))
        finally:
            with self.lock:
                self.in_flight.value -= 1

    def _completion(self, model: str) -> dict[str, Any]:
        prompt, completion = self.usage
        return {
            "id": "chatcmpl-balance", "object": "chat.completion", "created": 1700000000, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": f"answer from {self.name}"},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
        }

    async def _stream(self, writer: asyncio.StreamWriter, model: str) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
        prompt, completion = self.usage
        base = {"id": "chatcmpl-balance", "object": "chat.completion.chunk", "created": 1700000000, "model": model}
        chunks = [
            {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": "answer "}, "finish_reason": None}]},
            {**base, "choices": [{"index": 0, "delta": {"content": f"from {self.name}"}, "finish_reason": "stop"}]},
            {**base, "choices": [], "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                                              "total_tokens": prompt + completion}},
        ]
        for chunk in chunks:
            data = b"data: " + json.dumps(chunk).encode() + b"\n\n"
            writer.write(b"%x\r\n%s\r\n" % (len(data), data))
        data = b"data: [DONE]\n\n"
        writer.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(data), data))
        await writer.drain()

    @staticmethod
    def _send(writer: asyncio.StreamWriter, status: int, payload: dict[str, Any], extra: str = "") -> None:
        data = json.dumps(payload).encode()
        reason = {200: "OK", 429: "Too Many Requests", 500: "Internal Server Error"}[status]
        writer.write(f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(data)}\r\n"
                     f"{extra}\r\n".encode() + data)  # fmt: skip


KEY_ENVS = ("BAL_KEY_A", "BAL_KEY_B", "BAL_KEY_C")
"""The deployments' key variables in tests (set by the ``keys`` fixture)."""
NAMES = ("alpha", "beta", "gamma")


__all__ = ["KEY_ENVS", "NAMES", "Seen", "Upstream"]
