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
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Seen:
    at: float
    tokens: int
    model: str
    user: str | None = None
    first_user: str = ""


@dataclass
class UpstreamStats:
    seen: list[Seen] = field(default_factory=list)
    rate_limited: int = 0
    in_flight: int = 0
    peak_in_flight: int = 0


class Upstream:
    def __init__(
        self,
        name: str = "upstream",
        *,
        delay_s: float = 0.0,
        rate_limit_after: int | None = None,
        usage: tuple[int, int] = (20, 10),
        retry_after: float | None = 30.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.name = name
        self.delay_s = delay_s
        self.rate_limit_after = rate_limit_after
        self.usage = usage
        self.retry_after = retry_after
        self.failing = False
        """Set True to answer 500 to everything (a deployment that fails)."""
        self.stats = UpstreamStats()
        self._clock = clock
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.Server | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # --- lifecycle -------------------------------------------------------------------------

    def start(self) -> Upstream:
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            self._server = loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", 0, backlog=512))
            self.port = self._server.sockets[0].getsockname()[1]
            ready.set()
            loop.run_forever()
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

        self._thread = threading.Thread(target=run, daemon=True, name=f"upstream-{self.name}")
        self._thread.start()
        ready.wait(5)
        return self

    def stop(self) -> None:
        loop, server = self._loop, self._server
        if loop is None or server is None:
            return

        async def close() -> None:
            server.close()
            for task in [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
                task.cancel()

        asyncio.run_coroutine_threadsafe(close(), loop).result(5)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(5)
        self._loop = self._server = None

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
        with self._lock:
            return len(self.stats.seen)

    @property
    def in_flight(self) -> int:
        with self._lock:
            return self.stats.in_flight

    def max_per_minute(self, span_s: float = 60.0) -> tuple[int, int]:
        """The most requests and tokens received in any ``span_s`` (sliding)."""
        with self._lock:
            seen = list(self.stats.seen)
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
        with self._lock:
            self.stats = UpstreamStats()

    # --- serving ----------------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                body = json.loads(await reader.readexactly(length)) if length else {}
                await self._answer(body, writer)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    async def _answer(self, body: dict[str, Any], writer: asyncio.StreamWriter) -> None:
        model = str(body.get("model") or "m")
        first_user = next((str(m.get("content")) for m in body.get("messages", []) if m.get("role") == "user"), "")
        with self._lock:
            count = len(self.stats.seen) + self.stats.rate_limited
            limited = self.rate_limit_after is not None and count >= self.rate_limit_after
            if limited:
                self.stats.rate_limited += 1
            else:
                self.stats.seen.append(Seen(self._clock(), sum(self.usage), model, body.get("user"), first_user))
                self.stats.in_flight += 1
                self.stats.peak_in_flight = max(self.stats.peak_in_flight, self.stats.in_flight)
        if limited:
            extra = f"retry-after: {self.retry_after:g}\r\n" if self.retry_after is not None else ""
            self._send(writer, 429, {"error": {"message": "rate limit reached", "type": "rate_limit"}}, extra)
            return
        try:
            if self.delay_s:
                await asyncio.sleep(self.delay_s)
            if self.failing:
                self._send(writer, 500, {"error": {"message": "upstream failing"}})
            elif body.get("stream"):
                await self._stream(writer, model)
            else:
                self._send(writer, 200, self._completion(model))
        finally:
            with self._lock:
                self.stats.in_flight -= 1

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


__all__ = ["Seen", "Upstream"]
