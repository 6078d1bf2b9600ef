"""What the router adds to one MCP tool call, over calling the same server with the ``mcp`` client directly.

Both sides call ``count_words`` on ``tests/mcp_servers/notes_server.py`` (a real
subprocess built with the SDK's ``MCPServer``), over stdio and over streamable HTTP on
127.0.0.1, in alternating blocks so machine noise falls on both alike:

* ``direct``: ``ClientSession.call_tool`` on a session opened with the SDK's own
  ``stdio_client`` / ``streamable_http_client`` (the baseline);
* ``router``: one call as the tool loop runs it (``ToolRunner.run_turn``: events,
  the schema check of the arguments, the call through the router's connection, the
  result as text, the record).

Prints p50 and p90 per side and the added p50 in ms (target: at most +2 ms), and this
process's CPU time per call on each side (the median over blocks): on a machine shared
with other work the wall-clock p50s move by milliseconds between runs, while the CPU
the router itself spends per call does not.
Usage: ``python bench/mcp_overhead.py [--calls 400] [--block 50]`` (bounded: about 30 s).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from mcp_harness import SERVER, HttpMcpServer  # noqa: E402

from router.config import LoopSettings  # noqa: E402
from router.config.mcp import McpSettings  # noqa: E402
from router.loop.tool_runner import PreparedCall, ToolRunner  # noqa: E402
from router.tools.mcp import McpHub  # noqa: E402
from router.tools.registry import ToolRegistry  # noqa: E402

ARGUMENTS = {"text": "the quick brown fox jumps over the lazy dog", "min_length": 4}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def direct_session(transport: str, url: str | None, stack: Any) -> Any:
    import mcp
    from mcp.client.stdio import StdioServerParameters
    from mcp.client.streamable_http import streamable_http_client

    if transport == "stdio":
        streams = await stack.enter_async_context(
            mcp.stdio_client(StdioServerParameters(command=sys.executable, args=[str(SERVER)]), errlog=open(os.devnull, "w"))
        )
    else:
        streams = await stack.enter_async_context(streamable_http_client(str(url)))
    session = await stack.enter_async_context(mcp.ClientSession(streams[0], streams[1]))
    await session.initialize()
    return session


async def measure(transport: str, calls: int, block: int, url: str | None) -> tuple[list[float], list[float], list[float], list[float]]:
    from contextlib import AsyncExitStack

    server = {"command": [sys.executable, str(SERVER)]} if transport == "stdio" else {"url": url}
    hub = McpHub(McpSettings.model_validate({"servers": {"notes": {**server, "timeout_s": 60}}}))
    listing = await hub.listing()
    registry = ToolRegistry(listing.tools)
    settings = LoopSettings(max_repeats=100)  # identical calls: a fresh runner per block keeps them all running

    def fresh() -> ToolRunner:
        return ToolRunner(registry, settings=settings, emit=lambda event: None)

    runner = fresh()
    direct: list[float] = []
    routed: list[float] = []
    direct_cpu: list[float] = []  # this process's CPU per call, per block: what the router adds, whatever the load
    routed_cpu: list[float] = []
    async with AsyncExitStack() as stack:
        session = await direct_session(transport, url, stack)
        for _ in range(20):  # warm both paths (imports, validator compile, connections)
            await session.call_tool("count_words", ARGUMENTS)
            await runner.run_turn([PreparedCall("w", "notes_count_words", "{}", dict(ARGUMENTS))], 1)
        step = 0
        while len(direct) < calls:
            cpu = time.process_time()
            for _ in range(block):
                started = time.perf_counter()
                result = await session.call_tool("count_words", ARGUMENTS)
                direct.append(time.perf_counter() - started)
                assert result.content[0].text == "5"
            direct_cpu.append((time.process_time() - cpu) / block)
            cpu = time.process_time()
            for _ in range(block):
                step += 1
                call = PreparedCall(f"c{step}", "notes_count_words", "{}", dict(ARGUMENTS))
                started = time.perf_counter()
                (content,) = await runner.run_turn([call], step)
                routed.append(time.perf_counter() - started)
                assert content == "5", content
            routed_cpu.append((time.process_time() - cpu) / block)
            runner = fresh()
    await hub.aclose()
    return direct, routed, direct_cpu, routed_cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--block", type=int, default=50)
    args = parser.parse_args()
    args.block = max(1, min(args.block, 100))
    http = HttpMcpServer()
    try:
        print(f"{'transport':<10} {'direct p50':>11} {'router p50':>11} {'added p50':>10} {'direct p90':>11} {'router p90':>11}"
              f" {'direct CPU':>11} {'router CPU':>11} {'added CPU':>10}  (ms per call, {args.calls} calls each)")  # fmt: skip
        for transport in ("stdio", "http"):
            direct, routed, direct_cpu, routed_cpu = asyncio.run(measure(transport, args.calls, args.block, http.url))
            d50, r50 = statistics.median(direct) * 1e3, statistics.median(routed) * 1e3
            dc, rc = statistics.median(direct_cpu) * 1e3, statistics.median(routed_cpu) * 1e3
            print(
                f"{transport:<10} {d50:>11.3f} {r50:>11.3f} {r50 - d50:>+10.3f} "
                f"{percentile(direct, 0.9) * 1e3:>11.3f} {percentile(routed, 0.9) * 1e3:>11.3f} {dc:>11.3f} {rc:>11.3f} {rc - dc:>+10.3f}"
            )
    finally:
        http.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
