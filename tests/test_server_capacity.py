"""Money and capacity on the gateway (issue 18, items 1-5), through HTTP against servers on 127.0.0.1.

Prices: ``fake/fake-model`` costs $1 per 1M prompt tokens and $2 per 1M completion
tokens, so a request with ``max_tokens: 500000`` answered with 500,000 completion
tokens costs $1, and reserves $1 plus its (tiny) prompt before it is sent.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from fake_openai_server import FakeOpenAIServer, Slow, Stall, Text
from server_harness import SERVER_KEY, UPSTREAM_KEY_ENV, ServerThread, check, free_port, make_engine, upstream_config

from router.config import ServerSettings
from router.server.app import create_app
from router.server.auth import KeyCheck

AUTH = {"Authorization": f"Bearer {SERVER_KEY}"}
HELLO = [{"role": "user", "content": "hello"}]
ONE_DOLLAR = {"model": "fake/fake-model", "messages": HELLO, "max_tokens": 500_000}
DOLLAR_REPLY = Text("a dear answer", usage=(0, 500_000))


@pytest.fixture
def serve(fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., ServerThread]]:
    monkeypatch.setenv(UPSTREAM_KEY_ENV, "sk-upstream-test")
    started: list[ServerThread] = []

    def start(keys: KeyCheck | None = None, **settings: Any) -> ServerThread:
        app = create_app(make_engine(upstream_config(fake_server.base_url)), ServerSettings(**settings),
                         keys=keys or KeyCheck([SERVER_KEY.encode()]))
        server = ServerThread(app).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def _metric(server: ServerThread, text: str) -> bool:
    return text in httpx.get(server.url + "/metrics", headers=AUTH, timeout=10).text


def _wait(predicate: Callable[[], bool], what: str, timeout_s: float = 15.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


# --- 1. reservations: concurrent requests on two gateways sharing Redis ---------------------------


def _gateway_config(tmp_path: Path, base_url: str, redis_url: str, budget: float) -> str:
    path = tmp_path / "providers.yaml"
    path.write_text(f"""default: fake
state: {{redis_url: "{redis_url}", key_prefix: "budget-test-{os.getpid()}-{time.monotonic_ns()}:"}}
server: {{budget_usd_per_day_per_key: {budget}}}
providers:
  fake:
    client: openai
    base_url: {base_url}
    api_key_env: {UPSTREAM_KEY_ENV}
    max_retries: 0
    models: [{{id: fake-model, default: true, price_in: 1.0, price_out: 2.0}}]
""")
    return str(path)


def _start_gateway(config: str) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    root = str(Path(__file__).resolve().parent.parent)  # this checkout's router, whatever is installed
    env = {**os.environ, UPSTREAM_KEY_ENV: "sk-upstream-test",
           "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    process = subprocess.Popen([sys.executable, str(Path(__file__).parent / "serve_app.py"), config, str(port)],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        assert process.poll() is None, process.stderr.read() if process.stderr else "gateway exited"
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "gateway did not come up"
        time.sleep(0.1)


def test_40_concurrent_requests_on_two_gateways_overspend_by_at_most_one_estimate(
        tmp_path: Path, fake_server: FakeOpenAIServer, redis_server: Any) -> None:
    fake_server.default_reply = Slow(1.0, DOLLAR_REPLY)  # every answer costs $1 and takes a second
    config = _gateway_config(tmp_path, fake_server.base_url, redis_server.url, budget=5.0)
    gateways = [_start_gateway(config) for _ in range(2)]
    try:
        with ThreadPoolExecutor(40) as pool:
            urls = [gateways[i % 2][1] for i in range(40)]
            replies = list(pool.map(lambda url: httpx.post(url + "/v1/chat/completions", headers=AUTH,
                                                           json=ONE_DOLLAR, timeout=60), urls))
    finally:
        for process, _ in gateways:
            process.terminate()
            process.wait(timeout=30)
    served = [r for r in replies if r.status_code == 200]
    refused = [r for r in replies if r.status_code == 429]
    assert len(served) + len(refused) == 40, [r.status_code for r in replies]
    spent = sum(r.json()["router"]["cost"] for r in served)
    estimate = 1.0001  # $1 of completion plus well under $0.0001 of prompt
    assert 4 <= len(served) and spent <= 5.0 + estimate, f"{len(served)} served, ${spent} spent of a $5 budget"
    assert {check("error", r.json())["error"]["code"] for r in refused} == {"budget_exceeded"}
    assert "may cost up to $1.0000" in refused[0].json()["error"]["message"]


def test_a_request_is_settled_to_its_real_cost_not_its_reservation(serve: Any, fake_server: FakeOpenAIServer) -> None:
    """$1 reserved, $0.000001 spent: the next $1 request still fits a $1.5 budget."""
    server = serve(budget_usd_per_day_per_key=1.5)
    fake_server.enqueue(Text("cheap", usage=(1, 0)), DOLLAR_REPLY, DOLLAR_REPLY)
    ask = lambda: httpx.post(server.url + "/v1/chat/completions", headers=AUTH, json=ONE_DOLLAR, timeout=30)  # noqa: E731
    assert ask().status_code == 200
    assert ask().status_code == 200  # settled to ~$0 before: this one fits
    refused = ask()  # $1.000001 spent: $1 more does not fit
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "budget_exceeded"


# --- 2. dropped and cut streams are charged --------------------------------------------------------


def _raw_post(port: int, body: bytes, *, key: str = SERVER_KEY) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                 b"authorization: Bearer " + key.encode() + b"\r\ncontent-length: %d\r\n\r\n" % len(body) + body)
    return sock


def test_a_stream_the_client_drops_is_charged(serve: Any, fake_server: FakeOpenAIServer) -> None:
    server = serve(budget_usd_per_day_per_key=1.5)
    fake_server.enqueue(Stall(Text("an answer nobody waits for", chunk_size=3, usage=(0, 500_000)), after_chunks=3,
                              stall_s=5.0))
    with _raw_post(server.port, json.dumps({**ONE_DOLLAR, "stream": True}).encode()) as sock:
        assert b"data: " in sock.recv(65536)  # the answer has started: the provider is generating
    _wait(lambda: _metric(server, 'code="client_disconnected"} 1'), "the server did not notice the client leaving")
    fake_server.default_reply = DOLLAR_REPLY
    after = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, json=ONE_DOLLAR, timeout=30)
    assert after.status_code == 429, "the dropped stream's $1 was not charged"
    small = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, timeout=30,
                       json={**ONE_DOLLAR, "max_tokens": 10})
    assert small.status_code == 200  # what was charged is the reservation, not more


def test_a_stream_the_upstream_cuts_is_charged(serve: Any, fake_server: FakeOpenAIServer) -> None:
    from fake_openai_server import CutStream

    server = serve(budget_usd_per_day_per_key=1.5)
    fake_server.enqueue(CutStream(Text("this answer is cut off in the middle", chunk_size=3, usage=(0, 500_000)),
                                  after_chunks=4))
    fake_server.default_reply = DOLLAR_REPLY  # a fallback, if one is tried, would also cost $1
    cut = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, json={**ONE_DOLLAR, "stream": True}, timeout=30)
    assert cut.status_code in (200, 502)
    after = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, json=ONE_DOLLAR, timeout=30)
    assert after.status_code == 429 and after.json()["error"]["code"] == "budget_exceeded"


def test_a_request_no_provider_answered_releases_its_reservation(serve: Any, fake_server: FakeOpenAIServer) -> None:
    from fake_openai_server import ServerError

    server = serve(budget_usd_per_day_per_key=1.5)
    fake_server.enqueue(ServerError(500), ServerError(500))  # the default and its fallback both fail
    failed = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, json=ONE_DOLLAR, timeout=30)
    assert failed.status_code >= 500
    fake_server.default_reply = DOLLAR_REPLY
    assert httpx.post(server.url + "/v1/chat/completions", headers=AUTH, json=ONE_DOLLAR, timeout=30).status_code == 200


# --- 3. slow bodies --------------------------------------------------------------------------------


def _slow_body(port: int, *, declared: int = 200) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                 b"authorization: Bearer " + SERVER_KEY.encode() + b"\r\ncontent-length: %d\r\n\r\n{" % declared)
    return sock


def test_a_body_that_never_finishes_gets_408_at_its_own_deadline(serve: Any) -> None:
    server = serve(body_timeout_s=1.0)
    started = time.monotonic()
    with _slow_body(server.port) as sock:
        sock.settimeout(8)
        reply = sock.recv(65536)
    assert reply.startswith(b"HTTP/1.1 408"), reply[:100]
    assert b'"code":"body_timeout"' in reply and b"server.body_timeout_s" in reply
    assert time.monotonic() - started < 6


def test_slow_bodies_hold_no_slot(serve: Any, fake_server: FakeOpenAIServer) -> None:
    server = serve(max_concurrency=2)
    fake_server.default_reply = Text("still served")
    slow = [_slow_body(server.port) for _ in range(6)]
    try:
        time.sleep(0.3)  # every slow request is in the server, reading its body
        reply = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, json={"model": "auto", "messages": HELLO},
                           timeout=20)
        assert reply.status_code == 200, reply.text
        assert httpx.get(server.url + "/healthz").json()["in_flight"] == 0
    finally:
        for sock in slow:
            sock.close()


def test_one_key_cannot_take_every_slot(serve: Any, fake_server: FakeOpenAIServer) -> None:
    keys = KeyCheck([b"sk-team-a-key-000000000001", b"sk-team-b-key-000000000002"], ["TEAM_A_KEY", "TEAM_B_KEY"])
    server = serve(keys=keys, max_concurrency=4)  # two keys: each may hold half
    fake_server.default_reply = Slow(2.0, Text("slow answer"))
    results: list[httpx.Response] = []

    def ask(key: str) -> None:
        results.append(httpx.post(server.url + "/v1/chat/completions", headers={"Authorization": f"Bearer {key}"},
                                  json={"model": "auto", "messages": HELLO}, timeout=30))

    greedy = [threading.Thread(target=ask, args=("sk-team-a-key-000000000001",)) for _ in range(4)]
    for thread in greedy:
        thread.start()
    _wait(lambda: len(results) >= 2, "team A's requests beyond its share were not refused", timeout_s=1.8)
    assert [r.json()["error"]["code"] for r in results[:2]] == ["key_busy", "key_busy"]
    other = httpx.post(server.url + "/v1/chat/completions", headers={"Authorization": "Bearer sk-team-b-key-000000000002"},
                       json={"model": "auto", "messages": HELLO}, timeout=30)
    assert other.status_code == 200
    for thread in greedy:
        thread.join()


# --- 4. bounds on what callers can grow -------------------------------------------------------------


def test_an_oversized_request_head_is_431_before_auth(serve: Any) -> None:
    server = serve()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nx-padding: ")
        try:
            for _ in range(64):  # 4 MB of one header, far past the 64 KiB cap
                sock.sendall(b"a" * 65536)
        except OSError:  # the server closed the connection once the cap was passed
            pass
        sock.settimeout(5)
        reply = sock.recv(65536)
    assert reply.startswith(b"HTTP/1.1 431"), reply[:80]
    assert b"server.max_header_bytes" in reply


def _descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_distinct_model_names_build_no_pools_descriptors_or_series(tmp_path: Path, fake_server: FakeOpenAIServer) -> None:
    fake_server.default_reply = Text("ok")
    path = tmp_path / "providers.yaml"
    path.write_text(f"""default: fake
providers:
  fake:
    client: openai
    base_url: {fake_server.base_url}
    api_key_env: {UPSTREAM_KEY_ENV}
    max_retries: 0
    models: [{{id: fake-model, default: true}}]
""")
    process, url = _start_gateway(str(path))
    try:
        with httpx.Client(base_url=url, headers=AUTH, timeout=30) as client:
            def ask(i: int) -> None:
                reply = client.post("/v1/chat/completions", json={"model": f"fake/m{i}", "messages": HELLO})
                assert reply.status_code == 200 and reply.json()["model"] == f"fake/m{i}"

            for i in range(50):
                ask(i)
            fds, rss = _descriptors(process.pid), _rss_mib(process.pid)
            for i in range(50, 1500):
                ask(i)
            metrics = client.get("/metrics").text
        grown_fds, grown_rss = _descriptors(process.pid) - fds, _rss_mib(process.pid) - rss
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert grown_fds <= 5, f"{grown_fds} more descriptors after 1,450 more model names"
    assert grown_rss < 20, f"RSS grew {grown_rss:.1f} MiB over 1,450 more model names"
    series = [line for line in metrics.splitlines() if line.startswith("router_tokens_total{")]
    assert len(series) <= 4 and "m1499" not in metrics, series[:10]


def test_an_upstream_stream_is_cut_at_max_reply_chars_and_says_so(fake_server: FakeOpenAIServer,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from server_harness import parse_sse

    monkeypatch.setenv(UPSTREAM_KEY_ENV, "sk-upstream-test")
    config = upstream_config(fake_server.base_url, extra="limits: {max_reply_chars: 1000}")
    server = ServerThread(create_app(make_engine(config), ServerSettings(), keys=KeyCheck([SERVER_KEY.encode()]))).start()
    try:
        fake_server.enqueue(Text("y" * 50_000, chunk_size=100))
        raw = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, timeout=30,
                         json={"model": "fake/fake-model", "messages": HELLO, "stream": True})
    finally:
        server.stop()
    chunks, done = parse_sse(raw.content)
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c.get("choices"))
    assert not done and chunks[-1]["error"]["code"] == "reply_too_large"
    assert "limits.max_reply_chars (1,000 characters)" in chunks[-1]["error"]["message"]
    assert len(text) <= 1000


def test_an_upstream_json_reply_past_the_bound_is_not_read(fake_server: FakeOpenAIServer,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(UPSTREAM_KEY_ENV, "sk-upstream-test")
    config = upstream_config(fake_server.base_url, extra="limits: {max_reply_chars: 1000}")  # ~1.06 MB of JSON
    server = ServerThread(create_app(make_engine(config), ServerSettings(), keys=KeyCheck([SERVER_KEY.encode()]))).start()
    try:
        fake_server.default_reply = Text("z" * 3_000_000)
        raw = httpx.post(server.url + "/v1/chat/completions", headers=AUTH, timeout=30,
                         json={"model": "fake/fake-model", "messages": HELLO})
    finally:
        server.stop()
    assert raw.status_code in (502, 503), raw.text[:200]
    assert "limits.max_reply_chars" in check("error", raw.json())["error"]["message"]


def test_a_100_mb_tool_result_is_bounded_in_the_answers_record() -> None:
    from router import Router
    from router.clients.mock import ScriptedLLM, text_response, tool_call_response
    from router.config import parse_config
    from router.tools.registry import ToolRegistry, tool

    @tool
    def dump(size: int) -> str:
        """Returns a very large text."""
        return "d" * size

    config = parse_config("default: fake\nproviders:\n  fake:\n    client: mock\n    models: [{id: fake-model}]\n")
    llm = ScriptedLLM([tool_call_response(("dump", {"size": 100_000_000})), text_response("done")])
    answer = Router(config, clients={"fake": llm}, registry=ToolRegistry([dump])).ask("dump it", mode="react")
    record = answer.tool_records[0]
    assert record.tool == "dump" and len(record.result) <= 100_200
    assert "the result had 100000000 characters" in record.result
