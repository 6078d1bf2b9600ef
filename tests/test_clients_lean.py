"""The lean transport's own parts: the SSE reader, choosing the transport, what goes over the wire.

Its behaviour as a client (every reply shape, every error mapping, streamed and
not) is held to the same contract as the SDK path: test_clients_contract.py and
test_clients_wire.py run each case through ``openai`` (lean), ``openai-sdk`` and
``litellm``.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any

import pytest
from fake_openai_server import FakeOpenAIServer, RawChunks, Text

from router.clients.factory import make_client
from router.clients.lean import SSEParser, StreamErrorEvent
from router.clients.openai import OpenAIClient
from router.config import parse_config
from router.errors import ConfigError, UsageError
from router.types import RequestOptions

KEY = "sk-lean-test-key-0000"


def feed_all(pieces: list[bytes]) -> list[Any]:
    parser = SSEParser()
    out: list[Any] = []
    for piece in pieces:
        out += parser.feed(piece)
        if parser.done:
            return out
    return out + parser.feed(b"", final=True)


def event(data: dict[str, Any]) -> bytes:
    return b"data: " + json.dumps(data).encode() + b"\n\n"


def test_sse_events_split_anywhere_read_the_same() -> None:
    stream = event({"a": 1}) + b": keep-alive\n\n" + event({"b": "x\ny"}) + b"data: [DONE]\n\n" + event({"late": 1})
    whole = feed_all([stream])
    assert whole == [{"a": 1}, {"b": "x\ny"}]
    for size in (1, 2, 3, 7):
        assert feed_all([stream[i : i + size] for i in range(0, len(stream), size)]) == whole


def test_sse_crlf_split_between_reads_is_one_line_end() -> None:
    first, second = b'data: {"part":\r', b'\ndata: 1}\r\n\r\n'
    assert feed_all([first, second]) == [{"part": 1}]  # two data lines joined by a newline: one JSON value


def test_sse_data_without_space_and_named_events() -> None:
    pieces = [b'data:{"a":1}\n\n', b'event: ping\ndata: {"t": 2}\n\n']
    assert feed_all(pieces) == [{"a": 1}, {"data": {"t": 2}, "event": "ping"}]


def test_sse_error_objects_raise_and_a_cut_event_is_dropped() -> None:
    with pytest.raises(StreamErrorEvent, match="overloaded"):
        feed_all([b'data: {"error": {"message": "overloaded"}}\n\n'])
    with pytest.raises(StreamErrorEvent, match="quota"):
        feed_all([b'event: error\ndata: {"error": {"message": "quota"}}\n\n'])
    assert feed_all([event({"a": 1}), b'data: {"b": 2}']) == [{"a": 1}]


def test_sse_bad_json_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        feed_all([b"data: {not json\n\n"])


YAML = """
default: up
providers:
  up:
    client: openai
    base_url: http://127.0.0.1:9/v1
    {extra}
    models: [{{id: m}}]
"""


@pytest.mark.parametrize(("extra", "expected"), [("", "lean"), ("transport: lean", "lean"), ("transport: sdk", "sdk")])
def test_yaml_chooses_the_transport(extra: str, expected: str) -> None:
    client = make_client(parse_config(YAML.format(extra=extra)), "up")
    assert isinstance(client, OpenAIClient)
    assert (client.transport == "lean") == (expected == "lean")


def test_an_unknown_transport_is_refused() -> None:
    with pytest.raises(ConfigError, match="transport"):
        parse_config(YAML.format(extra="transport: curl"))
    with pytest.raises(UsageError, match="unknown transport 'curl'"):
        OpenAIClient(base_url="http://127.0.0.1:9/v1", api_key=KEY, model="m", transport="curl")


def test_lean_sends_the_request_as_plain_json(fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("hi"), RawChunks(({"content": "a"}, {"content": "b"})))
    client = OpenAIClient(base_url=fake_server.base_url, api_key=KEY, model="fake-model")
    options = RequestOptions(temperature=0.5, extra_body={"enable_thinking": False})

    async def run() -> list[str]:
        try:
            plain = await client.achat([{"role": "user", "content": "x"}], options=options)
            kinds = [e.kind async for e in client.astream([{"role": "user", "content": "y"}])]
        finally:
            await client.aclose()
        return [plain.message.content or "", *kinds]

    assert asyncio.run(run()) == ["hi", "text", "text", "done"]
    first, second = fake_server.requests[-2], fake_server.requests[-1]
    assert first.body == {"model": "fake-model", "messages": [{"role": "user", "content": "x"}], "temperature": 0.5,
                          "enable_thinking": False}  # extra_body merged, as the SDK does
    assert first.headers["authorization"] == f"Bearer {KEY}" and first.headers["content-type"] == "application/json"
    assert second.body is not None and second.body["stream"] is True
    assert second.body["stream_options"] == {"include_usage": True}


def test_lean_requests_never_import_the_sdk(fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("hi"))
    code = f"""
import sys
from router.clients.openai import OpenAIClient
client = OpenAIClient(base_url={fake_server.base_url!r}, api_key="sk-x-000000", model="m")
print(client.chat([{{"role": "user", "content": "x"}}]).message.content, "openai" in sys.modules)
client.close()
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["hi", "False"], done.stderr


# --- the http1 engine against raw scripted bytes ---------------------------------------------------------

REPLY = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
                    "model": "m"}).encode()


async def serve_raw(replies: list[bytes], *, close_after: bool) -> tuple[Any, list[int]]:
    """A server that answers each request with the next raw reply; ``connections`` counts accepted sockets."""
    connections: list[int] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        try:
            while replies:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
                await reader.readexactly(length)
                writer.write(replies.pop(0))
                await writer.drain()
                if close_after:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, connections


def run_raw(replies: list[bytes], calls: int, *, close_after: bool = False, pause: float = 0.05) -> tuple[list[str], int]:
    async def main() -> tuple[list[str], int]:
        server, connections = await serve_raw(list(replies), close_after=close_after)
        port = server.sockets[0].getsockname()[1]
        client = OpenAIClient(base_url=f"http://127.0.0.1:{port}/v1", api_key=KEY, model="m")
        try:
            out = []
            for _ in range(calls):
                response = await client.achat([{"role": "user", "content": "x"}])
                out.append(response.message.content or "")
                await asyncio.sleep(pause)  # let a close by the server arrive (or not: the keep-alive race)
            assert client._sdk().engine == "http1"
            return out, len(connections)
        finally:
            await client.aclose()
            server.close()

    return asyncio.run(main())


def sized(body: bytes, *headers: str) -> bytes:
    extra = "".join(f"{h}\r\n" for h in headers)
    return f"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n{extra}\r\n".encode() + body


def test_http1_keeps_the_connection_alive() -> None:
    assert run_raw([sized(REPLY)] * 3, 3) == (["ok"] * 3, 1)


def test_http1_never_reuses_a_connection_the_server_closed() -> None:
    assert run_raw([sized(REPLY)] * 2, 2, close_after=True) == (["ok", "ok"], 2)
    assert run_raw([sized(REPLY, "connection: close")] * 2, 2, close_after=True) == (["ok", "ok"], 2)


def test_http1_resends_once_when_an_idle_connection_dies_as_it_is_reused() -> None:
    # the server hangs up right after each reply; the next request may go out before the client has noticed
    for _ in range(5):
        assert run_raw([sized(REPLY)] * 3, 3, close_after=True, pause=0) == (["ok"] * 3, 3)


def test_http1_reads_chunked_gzip_and_unframed_bodies() -> None:
    import gzip

    half = len(REPLY) // 2
    chunked = (b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
               + b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (half, REPLY[:half], len(REPLY) - half, REPLY[half:]))
    packed = gzip.compress(REPLY)
    assert run_raw([chunked, sized(packed, "content-encoding: gzip")], 2) == (["ok", "ok"], 1)
    unframed = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n" + REPLY  # the body ends with the connection
    assert run_raw([unframed], 1, close_after=True) == (["ok"], 1)


def test_http1_garbage_is_a_provider_failure_not_a_crash() -> None:
    from router.errors import ProviderUnavailableError

    with pytest.raises(ProviderUnavailableError, match="not valid HTTP"):
        run_raw([b"SSH-2.0-OpenSSH_9.6\r\n\r\n"], 1, close_after=True)


def test_http1_pool_keeps_at_most_max_idle_connections() -> None:
    from router.clients.http1 import HTTP1Pool

    async def main() -> tuple[int, int]:
        replies = [sized(REPLY)] * 8
        server, _ = await serve_raw(replies, close_after=False)
        port = server.sockets[0].getsockname()[1]
        pool = HTTP1Pool(f"http://127.0.0.1:{port}/v1/chat/completions", timeout_s=5, max_idle=3)
        head = pool.head({"Content-Type": "application/json"})
        try:
            responses = await asyncio.gather(*(pool.post(head, b"{}") for _ in range(8)))  # eight at once: eight sockets
            bodies = [await response.read() for response in responses]
            return len(pool._idle), sum(body == REPLY for body in bodies)
        finally:
            await pool.close()
            server.close()

    assert asyncio.run(main()) == (3, 8)
