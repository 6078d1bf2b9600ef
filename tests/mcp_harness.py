"""Real MCP servers for the tests: ``tests/mcp_servers/notes_server.py`` over stdio or streamable HTTP.

The servers are subprocesses built with the SDK's own server API; nothing inside the
router or the SDK is patched. An HTTP server is started on a free 127.0.0.1 port and
waited for; every process started here is stopped by its fixture.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

SERVER = Path(__file__).parent / "mcp_servers" / "notes_server.py"
START_TIMEOUT_S = 120.0  # two busy cores shared with other work: the SDK import alone can take many seconds


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class HttpMcpServer:
    """``notes_server.py --http PORT`` as a subprocess; ``url`` is its MCP endpoint."""

    def __init__(self, *extra: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER), "--http", str(self.port), *extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the MCP test server exited with {self.process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("the MCP test server did not listen in time")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def stdio_server_yaml(name: str = "notes", *, timeout_s: float = START_TIMEOUT_S, extra: str = "", args: str = "") -> str:
    command = f"[{sys.executable}, {SERVER}{', ' + args if args else ''}]"
    return f"    {name}:\n      command: {command}\n      timeout_s: {timeout_s}\n{extra}"


def http_server_yaml(url: str, name: str = "notes", *, timeout_s: float = START_TIMEOUT_S, extra: str = "") -> str:
    return f"    {name}:\n      url: {url}\n      timeout_s: {timeout_s}\n{extra}"


def config_text(servers: str, *, tool_timeout_s: float = 60, mcp_extra: str = "") -> str:
    return f"""\
default: scripted
loop: {{tool_timeout_s: {tool_timeout_s}}}
providers:
  scripted: {{client: mock, models: [{{id: scripted}}]}}
mcp:
{mcp_extra}  servers:
{servers}"""
