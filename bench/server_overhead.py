"""Added latency of ``router serve`` (and of LiteLLM's proxy) over a fast local upstream, in one run.

    python bench/server_overhead.py [--engine router|openai-direct] [--no-litellm] [--requests 1000] [--dialects]

* upstream: a raw asyncio HTTP server (its own process) answering every POST with one
  fixed chat completion, keep-alive;
* direct: the load generator against the upstream; through: the same requests through
  the server; added latency = percentile(through) - percentile(direct), at concurrency
  1 and 16, plus requests/s and the server's RSS;
* ``--engine router`` (default) runs ``python -m router serve`` (needs the async core);
  ``--engine openai-direct`` / ``openaiaio-direct`` / ``aiohttp-direct`` serve the same app
  with an engine that forwards each request with ``AsyncOpenAI`` (on httpx, or on aiohttp
  via ``DefaultAioHttpClient``) or a bare aiohttp session, and nothing else: the server
  layer's own cost, and how much the upstream client adds;
* ``--dialects``: the same question as Anthropic Messages and as a Responses request on the same
  server at c=1: what each dialect adds over chat completions (the pipeline is shared);
* LiteLLM's proxy (``litellm[proxy]``, installed by this script into /tmp/litellm-proxy-venv)
  on the same upstream, same requests, and the ratio.

The load generator is a raw asyncio client (keep-alive, one connection per concurrent
caller) so that the client's own cost stays out of the difference.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VENV = Path("/tmp/litellm-proxy-venv")
COMPLETION = json.dumps({
    "id": "chatcmpl-bench", "object": "chat.completion", "created": 1700000000, "model": "bench-model",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello from the fast upstream."},
                 "finish_reason": "stop", "logprobs": None}],
    "usage": {"prompt_tokens": 9, "completion_tokens": 7, "total_tokens": 16},
}).encode()
BENCH_KEY = os.environ.get("ROUTER_BENCH_SERVER_KEY") or "sk-" + os.urandom(32).hex()
"""Every target checks a bearer key (LiteLLM's proxy refuses to start without a master key)."""
REQUEST_BODY = json.dumps({"model": "auto", "messages": [{"role": "user", "content": "hello"}]}).encode()
DIALECT_BODIES = {  # the same question in each dialect the server speaks (--dialects)
    "/v1/chat/completions": REQUEST_BODY,
    "/v1/messages": json.dumps({"model": "auto", "max_tokens": 256,
                                "messages": [{"role": "user", "content": "hello"}]}).encode(),
    "/v1/responses": json.dumps({"model": "auto", "input": "hello"}).encode(),  # store: true, as OpenAI's default
}


# --- the fast upstream (own process) -------------------------------------------------------------


class _Upstream(asyncio.Protocol):
    RESPONSE = (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n" % len(COMPLETION)
                + COMPLETION)

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.buffer = b""
        sock = transport.get_extra_info("socket")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buffer[:end].lower()
            length = 0
            at = head.find(b"content-length:")
            if at >= 0:
                length = int(head[at + 15:].split(b"\r\n", 1)[0])
            if len(self.buffer) < end + 4 + length:
                return
            self.buffer = self.buffer[end + 4 + length:]
            self.transport.write(self.RESPONSE)


def run_upstream(port: int) -> None:
    _use_uvloop()

    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(_Upstream, "127.0.0.1", port)
        async with server:
            await server.serve_forever()

    asyncio.run(main())


def _use_uvloop() -> None:
    try:
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass


# --- the HTTP layer alone: an engine that forwards with AsyncOpenAI ------------------------------


def run_openai_direct(port: int, upstream: str, client: str = "openai") -> None:
    import uvicorn

    sys.path.insert(0, str(ROOT))
    from router.config import parse_config
    from router.server.app import create_app
    from router.server.auth import KeyCheck
    from router.server.cli import build_parser, uvicorn_options
    from router.types import Answer, Attempt, ToolCall, Usage

    class Forward:
        config = parse_config("default: up\nproviders:\n  up:\n    client: mock\n    models: [{id: bench-model}]\n")

        def __init__(self) -> None:
            from openai import AsyncOpenAI

            self.session: Any = None
            http_client = None
            if client == "openaiaio":
                from openai import DefaultAioHttpClient

                http_client = DefaultAioHttpClient()
            self.client = AsyncOpenAI(base_url=upstream, api_key="sk-bench", max_retries=0, http_client=http_client)

        async def _aiohttp(self, messages: Any) -> Any:
            import aiohttp

            if self.session is None:
                self.session = aiohttp.ClientSession()
            async with self.session.post(upstream + "/chat/completions", json={"model": "bench-model", "messages": messages},
                                         headers={"Authorization": "Bearer sk-bench"}) as response:
                return await response.json(content_type=None)

        async def achat(self, messages: Any, *, tools: Any = None, model: Any = None, options: Any = None,
                        **_: Any) -> Answer:
            started = time.perf_counter()
            if client == "aiohttp":
                data = await self._aiohttp(messages)
                choice = data["choices"][0]
                return Answer(text=choice["message"]["content"], mode="direct", provider="up", model=data["model"],
                              usage=Usage(**data["usage"]), finish_reason=choice["finish_reason"],
                              attempts=(Attempt("up", data["model"], ok=True, latency_s=time.perf_counter() - started),))
            reply = await self.client.chat.completions.create(model="bench-model", messages=messages)
            latency = time.perf_counter() - started
            choice = reply.choices[0]
            calls = tuple(ToolCall(c.id, c.function.name, c.function.arguments) for c in choice.message.tool_calls or [])
            usage = Usage(reply.usage.prompt_tokens, reply.usage.completion_tokens, reply.usage.total_tokens)
            return Answer(text=choice.message.content or "", mode="direct", provider="up", model=reply.model,
                          usage=usage, attempts=(Attempt("up", reply.model, ok=True, latency_s=latency),),
                          finish_reason=choice.finish_reason, tool_calls=calls)

        def models(self) -> list[tuple[str, str]]:
            return [("auto", "router")]

        async def aclose(self) -> None:
            await self.client.close()

    app = create_app(Forward(), Forward.config.server, keys=KeyCheck([BENCH_KEY.encode()]))  # type: ignore[arg-type]
    options = uvicorn_options(build_parser().parse_args(["--port", str(port), "--log-level", "warning"]))
    if os.environ.get("ROUTER_BENCH_HTTP"):  # A/B: uvicorn's own protocol (two writes per response)
        options["http"] = os.environ["ROUTER_BENCH_HTTP"]
    uvicorn.run(app, **options)


# --- load generator -----------------------------------------------------------------------------


def _request(port: int, path: str) -> bytes:
    body = DIALECT_BODIES.get(path, REQUEST_BODY)
    return (f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\ncontent-type: application/json\r\n"
            f"authorization: Bearer {BENCH_KEY}\r\ncontent-length: {len(body)}\r\n\r\n").encode() + body


async def _caller(port: int, path: str, count: int, out: list[float]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    request = _request(port, path)
    clock = time.perf_counter
    for _ in range(count):
        started = clock()
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            status = head.split(b"\r\n", 1)[0].decode()
            raise RuntimeError(f"port {port}: {status}")
        lower = head.lower()
        at = lower.find(b"content-length:")
        if at < 0:
            raise RuntimeError("no content-length in the reply")
        await reader.readexactly(int(lower[at + 15:].split(b"\r\n", 1)[0]))
        out.append(clock() - started)
    writer.close()


async def _load(port: int, path: str, concurrency: int, total: int) -> tuple[list[float], float]:
    latencies: list[float] = []
    started = time.perf_counter()
    await asyncio.gather(*(_caller(port, path, total // concurrency, latencies) for _ in range(concurrency)))
    return latencies, time.perf_counter() - started


def measure(port: int, path: str, concurrency: int, total: int, warmup: int = 200) -> dict[str, float]:
    asyncio.run(_load(port, path, min(concurrency, 4), warmup))
    latencies, elapsed = asyncio.run(_load(port, path, concurrency, total))
    latencies.sort()
    return {"p50": _pct(latencies, 50), "p99": _pct(latencies, 99), "rps": len(latencies) / elapsed,
            "mean": statistics.fmean(latencies)}


def _pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, round(q / 100 * (len(values) - 1)))]


# --- processes ------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, process: subprocess.Popen[Any], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"process exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


def rss_mib(pid: int) -> float:
    """RSS of a process and its children (a proxy that forks counts whole)."""
    total = 0
    pids = [pid]
    try:
        children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for one in pids:
        try:
            for line in Path(f"/proc/{one}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def start(cmd: list[str], port: int, env: dict[str, str] | None = None) -> subprocess.Popen[Any]:
    process = subprocess.Popen(cmd, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_port(port, process)
    return process


def stop(process: subprocess.Popen[Any]) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def litellm_proxy(upstream: str, port: int) -> subprocess.Popen[Any] | None:
    if not (VENV / "bin" / "litellm").exists():
        print(f"installing litellm[proxy] into {VENV} ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        done = subprocess.run([str(VENV / "bin" / "pip"), "install", "-q", "litellm[proxy]"], capture_output=True, text=True)
        if done.returncode != 0:
            print("litellm[proxy] could not be installed: " + done.stderr.strip().splitlines()[-1])
            return None
    config = Path("/tmp/litellm-bench-config.yaml")
    config.write_text(
        "model_list:\n  - model_name: auto\n    litellm_params:\n      model: openai/bench-model\n"
        f"      api_base: {upstream}\n      api_key: sk-bench\n"
    )
    env = {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_LOG": "ERROR", "LITELLM_MASTER_KEY": BENCH_KEY}
    return start([str(VENV / "bin" / "litellm"), "--config", str(config), "--port", str(port), "--num_workers", "1"],
                 port, env)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", choices=["router", "openai-direct", "openaiaio-direct", "aiohttp-direct"], default="router")
    parser.add_argument("--requests", type=int, default=1000, help="measured requests at concurrency 1 (16: x1.6)")
    parser.add_argument("--no-litellm", action="store_true")
    parser.add_argument("--balance", choices=["weighted", "least_busy", "latency", "usage"],
                        help="also serve the upstream as two deployments balanced this way, and print what balancing adds")
    parser.add_argument("--dialects", action="store_true",
                        help="also /v1/messages and /v1/responses on the same server at c=1, against chat completions")
    parser.add_argument("--upstream", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--serve-openai-direct", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.upstream:
        run_upstream(args.upstream)
        return 0
    if args.serve_openai_direct:
        run_openai_direct(int(args.serve_openai_direct[0]), args.serve_openai_direct[1], args.serve_openai_direct[2])
        return 0
    _use_uvloop()

    up_port = free_port()
    upstream = start([sys.executable, __file__, "--upstream", str(up_port)], up_port)
    upstream_url = f"http://127.0.0.1:{up_port}/v1"
    targets: dict[str, subprocess.Popen[Any]] = {}
    try:
        port = free_port()
        if args.engine == "router":
            config = Path("/tmp/router-bench-config.yaml")
            config.write_text(f"default: up\nproviders:\n  up:\n    client: openai\n    base_url: {upstream_url}\n"
                              "    api_key_env: ROUTER_BENCH_KEY\n    max_retries: 0\n    models: [{id: bench-model}]\n"
                              "server: {api_key_envs: [ROUTER_BENCH_SERVER_KEY]}\n")
            cmd = [sys.executable, "-m", "router", "serve", "--port", str(port), "--config", str(config),
                   "--log-level", "warning"]
            targets[f"router serve ({args.engine})"] = start(cmd, port, {"ROUTER_BENCH_KEY": "sk-bench", "ROUTER_BENCH_SERVER_KEY": BENCH_KEY,
                                                                      "PYTHONPATH": str(ROOT)})
            if args.balance:
                balanced = Path("/tmp/router-bench-balanced.yaml")
                limits = ", limits: {requests_per_minute: 1000000}" if args.balance == "usage" else ""
                balanced.write_text(f"default: up\nproviders:\n  up:\n    client: openai\n    balance: {args.balance}\n"
                                    "    api_key_env: ROUTER_BENCH_KEY\n    max_retries: 0\n    models: [{id: bench-model}]\n"
                                    f"    deployments:\n      - {{name: a, base_url: {upstream_url}{limits}}}\n"
                                    f"      - {{name: b, base_url: {upstream_url}{limits}}}\n"
                                    "server: {api_key_envs: [ROUTER_BENCH_SERVER_KEY]}\n")
                bport = free_port()
                cmd = [sys.executable, "-m", "router", "serve", "--port", str(bport), "--config", str(balanced), "--log-level", "warning"]
                targets[f"balanced ({args.balance}, 2 dep.)"] = start(cmd, bport, {"ROUTER_BENCH_KEY": "sk-bench", "PYTHONPATH": str(ROOT),
                                                                               "ROUTER_BENCH_SERVER_KEY": BENCH_KEY})
        else:
            client = args.engine.split("-")[0]
            cmd = [sys.executable, __file__, "--serve-openai-direct", str(port), upstream_url, client]
            targets[f"router serve ({args.engine})"] = start(cmd, port, {"PYTHONPATH": str(ROOT),
                                                                      "ROUTER_BENCH_SERVER_KEY": BENCH_KEY})
        ports = {next(iter(targets)): port}
        if args.balance and args.engine == "router":
            ports[f"balanced ({args.balance}, 2 dep.)"] = bport
        if not args.no_litellm:
            lport = free_port()
            proxy = litellm_proxy(upstream_url, lport)
            if proxy is not None:
                targets["litellm proxy"] = proxy
                ports["litellm proxy"] = lport
        results: dict[tuple[str, int], dict[str, float]] = {}
        for concurrency, total in ((1, args.requests), (16, int(args.requests * 1.6))):
            direct_before = measure(up_port, "/v1/chat/completions", concurrency, total)
            for name in targets:
                results[(name, concurrency)] = measure(ports[name], "/v1/chat/completions", concurrency, total)
            direct_after = measure(up_port, "/v1/chat/completions", concurrency, total)
            # the quieter of the two direct runs: a busy machine's spikes should not shrink the difference
            results[("direct", concurrency)] = {k: min(direct_before[k], direct_after[k]) for k in direct_before}
        _report(results, targets, args)
        if args.dialects:
            _dialects(port, args.requests)
    finally:
        for process in targets.values():
            stop(process)
        stop(upstream)
    return 0


def _report(results: dict[tuple[str, int], dict[str, float]], targets: dict[str, subprocess.Popen[Any]],
            args: argparse.Namespace) -> None:
    print(f"\nserver overhead, upstream = fixed chat completion on 127.0.0.1, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}, "
          f"{args.requests} requests at c=1, {int(args.requests * 1.6)} at c=16")
    print(f"{'target':<32}{'c':>3}{'p50 ms':>9}{'p99 ms':>9}{'added p50':>11}{'added p99':>11}{'req/s':>9}{'RSS MiB':>9}")
    added: dict[tuple[str, int], tuple[float, float]] = {}
    for (name, concurrency), r in sorted(results.items(), key=lambda item: (item[0][1], item[0][0] != "direct")):
        base = results[("direct", concurrency)]
        a50, a99 = (r["p50"] - base["p50"]) * 1000, (r["p99"] - base["p99"]) * 1000
        rss = f"{rss_mib(targets[name].pid):.0f}" if name in targets else "-"
        extra = ("", "") if name == "direct" else (f"{a50:.3f}", f"{a99:.3f}")
        if name != "direct":
            added[(name, concurrency)] = (a50, a99)
        print(f"{name:<32}{concurrency:>3}{r['p50'] * 1000:>9.3f}{r['p99'] * 1000:>9.3f}{extra[0]:>11}{extra[1]:>11}"
              f"{r['rps']:>9.0f}{rss:>9}")
    ours = next(iter(targets))
    for concurrency in (1, 16):
        if ("litellm proxy", concurrency) in added and (ours, concurrency) in added:
            mine, theirs = added[(ours, concurrency)], added[("litellm proxy", concurrency)]
            ratios = [f"x{t / m:.1f}" if m > 0.01 else "n/a (ours below noise)" for t, m in zip(theirs, mine, strict=True)]
            print(f"c={concurrency}: litellm proxy / router added latency: p50 {ratios[0]}, p99 {ratios[1]}")
    balanced = next((name for name in targets if name.startswith("balanced")), None)
    if balanced is not None and (balanced, 1) in added and (ours, 1) in added:
        print(f"balancing ({balanced}) adds {added[(balanced, 1)][0] - added[(ours, 1)][0]:+.3f} ms p50 at c=1 "
              f"over one deployment (goal <= 0.1 ms)")
    goals = added.get((ours, 1)), added.get((ours, 16))
    if goals[0] and goals[1]:
        print(f"goals: p50 <= 1 ms at c=1: {goals[0][0]:.3f} ms; p99 <= 3 ms at c=1: {goals[0][1]:.3f} ms; "
              f"p99 <= 10 ms at c=16: {goals[1][1]:.3f} ms")


def _dialects(port: int, total: int, rounds: int = 3) -> None:
    """Each dialect's p50 at c=1 on the same server, rounds interleaved (the best of each, so a busy moment
    on this shared machine does not land on one dialect only)."""
    best: dict[str, float] = {}
    for _ in range(rounds):
        for path in DIALECT_BODIES:
            p50 = measure(port, path, 1, total)["p50"]
            best[path] = min(best.get(path, p50), p50)
    chat = best["/v1/chat/completions"]
    print(f"\ndialects on the same server, c=1, best p50 of {rounds} interleaved rounds of {total} requests")
    for path, p50 in best.items():
        extra = "" if path == "/v1/chat/completions" else f"  ({(p50 - chat) * 1000:+.3f} ms vs chat completions)"
        print(f"{path:<24}{p50 * 1000:>9.3f} ms{extra}")
    worst = max((p50 - chat) * 1000 for path, p50 in best.items() if path != "/v1/chat/completions")
    print(f"goal: each dialect within 0.3 ms p50 of chat completions: worst {worst:+.3f} ms")


if __name__ == "__main__":
    raise SystemExit(main())
