"""Hostile callers against a running gateway (issue 18, items 3-6 and 8), for ``bench/hostile_inputs.py``.

Each figure comes from a ``router serve`` app in its own process (``tests/serve_app.py``)
in front of a local upstream, measured from outside: latencies seen by a normal caller,
the gateway's descriptors and RSS from /proc, what it answered.

    python bench/hostile_inputs.py --gateway        (or: python bench/gateway_attacks.py)
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"
sys.path.insert(0, str(TESTS))

KEY_ENV = "ROUTER_TEST_UPSTREAM_KEY"
HELLO = {"model": "fake/fake-model", "messages": [{"role": "user", "content": "hello"}]}


# --- a gateway process and its numbers -----------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Gateway:
    def __init__(self, upstream: str, extra: str = "") -> None:
        from server_harness import SERVER_KEY

        self.key = SERVER_KEY
        self._dir = tempfile.TemporaryDirectory(prefix="router-bench-gw-")
        config = Path(self._dir.name) / "providers.yaml"
        config.write_text(f"""default: fake
providers:
  fake:
    client: openai
    base_url: {upstream}
    api_key_env: {KEY_ENV}
    max_retries: 0
    models: [{{id: fake-model, default: true}}]
{extra}""")
        self.port = _free_port()
        env = {**os.environ, KEY_ENV: "sk-bench-upstream", "PYTHONPATH": str(REPO)}
        self.process = subprocess.Popen([sys.executable, str(TESTS / "serve_app.py"), str(config), str(self.port)],
                                        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while not self._up():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the gateway did not start")
            time.sleep(0.1)

    def _up(self) -> bool:
        try:
            return self.request("GET", "/healthz")[0] == 200
        except OSError:
            return False

    def request(self, method: str, path: str, body: bytes = b"", timeout: float = 30.0) -> tuple[int, bytes]:
        """One request on its own connection: (status, body)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as sock:
            head = (f"{method} {path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {self.key}\r\n"
                    f"content-type: application/json\r\ncontent-length: {len(body)}\r\nconnection: close\r\n\r\n")
            sock.sendall(head.encode() + body)
            chunks = []
            while piece := sock.recv(1 << 20):
                chunks.append(piece)
        raw = b"".join(chunks)
        status = int(raw.split(b" ", 2)[1]) if raw.startswith(b"HTTP/") else 0
        return status, raw.partition(b"\r\n\r\n")[2]

    def chat(self, body: dict[str, Any] | bytes) -> tuple[int, float, bytes]:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        started = time.perf_counter()
        status, reply = self.request("POST", "/v1/chat/completions", data)
        return status, time.perf_counter() - started, reply

    def fds(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._dir.cleanup()


def _p50(gateway: Gateway, count: int) -> tuple[float, int]:
    """p50 seconds of ``count`` plain requests, and how many were not 200."""
    times, failed = [], 0
    for _ in range(count):
        status, seconds, _ = gateway.chat(HELLO)
        times.append(seconds)
        failed += status != 200
    return statistics.median(times), failed


# --- a raw upstream for huge replies -------------------------------------------------------------


class HugeUpstream:
    """Answers every chat request with ``size`` bytes of content, streamed or as one JSON body, written lazily."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.loop = asyncio.new_event_loop()
        self.port = _free_port()
        started = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", self.port))
            started.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        started.wait(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(
                b"content-length:")), 0)
            body = json.loads(await reader.readexactly(length))
            piece = "x" * 65536
            if body.get("stream"):
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n")
                chunk = json.dumps({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "fake-model",
                                    "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]})
                event = f"data: {chunk}\n\n".encode()
                for _ in range(self.size // len(piece)):
                    writer.write(event)
                    await writer.drain()
                writer.write(b"data: [DONE]\n\n")
            else:
                count = self.size // len(piece)
                prefix = b'{"id":"c","object":"chat.completion","created":1,"model":"fake-model","choices":[{"index":0,' \
                         b'"message":{"role":"assistant","content":"'
                suffix = b'"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}'
                total = len(prefix) + count * len(piece) + len(suffix)
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n" % total
                             + prefix)
                for _ in range(count):
                    writer.write(piece.encode())
                    await writer.drain()
                writer.write(suffix)
            await writer.drain()
        except (OSError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)


# --- the attacks ---------------------------------------------------------------------------------


def slow_bodies(gateway: Gateway, connections: int = 256, requests: int = 200) -> list[str]:
    """Item 3: connections trickling a body at 1 byte/s while a normal caller asks."""
    _p50(gateway, 20)  # warm: the first requests import and connect
    idle, _ = _p50(gateway, requests)
    socks = []
    for _ in range(connections):
        sock = socket.create_connection(("127.0.0.1", gateway.port))
        sock.sendall(f"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {gateway.key}\r\n"
                     "content-type: application/json\r\ncontent-length: 100000\r\n\r\n".encode())
        socks.append(sock)
    stop = threading.Event()

    def trickle() -> None:
        while not stop.wait(1.0):
            for sock in socks:
                try:
                    sock.send(b" ")
                except OSError:
                    pass

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    time.sleep(1.0)
    busy, failed = _p50(gateway, requests)
    stop.set()
    thread.join()
    for sock in socks:
        sock.close()
    return [f"slow bodies: {connections} connections at 1 byte/s: other callers' p50 {busy * 1000:.2f} ms vs "
            f"{idle * 1000:.2f} ms idle ({busy / idle:.2f}x, target <= 2x), {failed} of {requests} refused"]


def model_names(gateway: Gateway, count: int = 4000) -> list[str]:
    """Item 4: distinct ``model`` strings."""
    for i in range(20):
        gateway.chat({**HELLO, "model": f"fake/warm{i}"})
    fds, rss = gateway.fds(), gateway.rss_mb()
    failed = sum(gateway.chat({**HELLO, "model": f"fake/m{i}"})[0] != 200 for i in range(count))
    _, metrics = gateway.request("GET", "/metrics")
    series = sum(line.startswith(b"router_tokens_total{") for line in metrics.splitlines())
    return [f"model names: {count:,} distinct: descriptors {fds} -> {gateway.fds()}, RSS {rss:.0f} -> "
            f"{gateway.rss_mb():.0f} MiB, router_tokens_total series {series}, {failed} failed"]


def huge_headers(gateway: Gateway, sockets: int = 4, megabytes: int = 64) -> list[str]:
    """Item 4: request heads of 64 MB before any key is checked."""
    rss = gateway.rss_mb()
    answers = []

    def send() -> None:
        with socket.create_connection(("127.0.0.1", gateway.port), timeout=30) as sock:
            sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nx-pad: ")
            block = b"a" * (1 << 20)
            try:
                for _ in range(megabytes):
                    sock.sendall(block)
            except OSError:
                pass
            try:
                answers.append(sock.recv(64).split(b"\r\n")[0].decode())
            except OSError as exc:
                answers.append(type(exc).__name__)

    threads = [threading.Thread(target=send) for _ in range(sockets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [f"headers: {sockets} x {megabytes} MB heads: answered {sorted(set(answers))}, gateway RSS {rss:.0f} -> "
            f"{gateway.rss_mb():.0f} MiB"]


def huge_replies(megabytes: int = 100) -> list[str]:
    """Item 4: an upstream answering 100 MB, streamed and as JSON (default limits.max_reply_chars)."""
    upstream = HugeUpstream(megabytes << 20)
    gateway = Gateway(upstream.url)
    try:
        rss = gateway.rss_mb()
        status, seconds, body = gateway.chat(HELLO)
        json_line = (f"JSON: HTTP {status} in {seconds:.2f} s, {len(body):,} bytes to the caller, gateway RSS "
                     f"{rss:.0f} -> {gateway.rss_mb():.0f} MiB")
        status, seconds, body = gateway.chat({**HELLO, "stream": True})
        ended = b"reply_too_large" if b"reply_too_large" in body else b"[DONE]" if b"[DONE]" in body else b"?"
        stream_line = (f"stream: HTTP {status} in {seconds:.2f} s, {len(body):,} bytes to the caller, ended with "
                       f"{ended.decode()}, gateway RSS {gateway.rss_mb():.0f} MiB")
    finally:
        gateway.stop()
        upstream.stop()
    return [f"upstream {megabytes} MB reply: {json_line}", f"upstream {megabytes} MB reply: {stream_line}"]


def many_messages(gateway: Gateway, requests: int = 100) -> list[str]:
    """Item 5: 140,000 tiny messages in a 4 MB body against max_messages (2,000)."""
    body = json.dumps({"model": "auto", "messages": [{"role": "user", "content": ""}] * 140_000},
                      separators=(",", ":")).encode()
    idle, _ = _p50(gateway, requests)
    status, refusal, reply = gateway.chat(body)
    stop = threading.Event()

    def hammer() -> None:
        while not stop.is_set():
            gateway.chat(body)

    hammers = [threading.Thread(target=hammer, daemon=True) for _ in range(2)]
    for thread in hammers:
        thread.start()
    busy, _ = _p50(gateway, requests)
    stop.set()
    for thread in hammers:
        thread.join()
    code = json.loads(reply)["error"]["code"] if status != 200 else "-"
    return [f"140,000 messages ({len(body) / 1e6:.1f} MB): HTTP {status} {code} in {refusal * 1000:.0f} ms; with two "
            f"such clients other callers' p50 {busy * 1000:.2f} ms vs {idle * 1000:.2f} ms idle ({busy / idle:.1f}x)"]


def caller_errors(gateway: Gateway, upstream_requests: Callable[[], int]) -> list[str]:
    """Items 6 and 8: a lone surrogate, JSON nested 100,000 deep, mode mistakes."""
    before = upstream_requests()
    surrogate = b'{"model": "fake/fake-model", "messages": [{"role": "user", "content": "\\ud800"}]}'
    statuses = [gateway.chat(surrogate)[0] for _ in range(10)]
    _, metrics = gateway.request("GET", "/metrics")
    circuits = next((line.split()[-1].decode() for line in metrics.splitlines()
                     if line.startswith(b"router_open_circuits ")), "?")
    deep = b'{"model": "auto", "messages": [{"role": "user", "content": ' + b"[" * 100_000 + b"]" * 100_000 + b"}]}"
    deep_status, deep_s, _ = gateway.chat(deep)
    mode_status = gateway.chat({"model": "auto", "mode": "cot", "messages": [
        {"role": "user", "content": "hi"}, {"role": "assistant", "content": "yes"}]})[0]
    blank_status = gateway.chat({"model": "auto", "mode": "cot", "messages": [{"role": "user", "content": " "}]})[0]
    return [f"lone surrogate x10: HTTP {sorted(set(statuses))}, open circuits after: {circuits}, requests upstream: "
            f"{upstream_requests() - before}",
            f"JSON 100,000 deep: HTTP {deep_status} in {deep_s * 1000:.0f} ms; mode with an assistant last: HTTP "
            f"{mode_status}; blank question: HTTP {blank_status}"]


def gateway_figures() -> list[str]:
    """Every gateway figure of this script (about a minute)."""
    from fake_openai_server import FakeOpenAIServer, Text

    lines: list[str] = []
    with FakeOpenAIServer(default_reply=Text("ok")) as upstream:
        gateway = Gateway(upstream.base_url)
        try:
            lines += slow_bodies(gateway)
            lines += many_messages(gateway)
            lines += caller_errors(gateway, lambda: len(upstream.requests))
            lines += huge_headers(gateway)
            lines += model_names(gateway)
        finally:
            gateway.stop()
    lines += huge_replies()
    return lines


if __name__ == "__main__":
    for line in gateway_figures():
        print(line)
