"""Runs ``python -m llama_cpp.server`` on a free loopback port for end-to-end tests.

A real server (not a patched SDK) is the only honest way to show that the
OpenAI and litellm clients work against a local OpenAI-compatible endpoint.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LlamaServer:
    process: subprocess.Popen[bytes]
    port: int
    log_path: str

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def log_tail(self, chars: int = 2000) -> str:
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as handle:
                return handle.read()[-chars:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        try:
            os.unlink(self.log_path)
        except OSError:
            pass


def _models_ready(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=2) as reply:
            return reply.status == 200 and "data" in json.loads(reply.read())
    except (urllib.error.URLError, OSError, ValueError):
        return False


def start_llama_server(model_path: str, *, n_ctx: int = 2048, seed: int = 0, startup_timeout_s: float = 90.0) -> LlamaServer:
    """Starts the server and waits until ``/v1/models`` answers; raises with its log if it never does."""
    port = free_port()
    log_fd, log_path = tempfile.mkstemp(prefix="llama-server-", suffix=".log")
    command = [
        sys.executable, "-m", "llama_cpp.server",
        "--model", model_path,
        "--host", "127.0.0.1",
        "--port", str(port),
        "--n_ctx", str(n_ctx),
        "--seed", str(seed),
        "--verbose", "False",
    ]
    with os.fdopen(log_fd, "wb") as log_file:
        process = subprocess.Popen(command, stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = LlamaServer(process, port, log_path)
    deadline = time.monotonic() + startup_timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = server.log_tail()
            server.stop()
            raise RuntimeError(f"llama_cpp.server exited with {process.returncode}:\n{tail}")
        if _models_ready(server.base_url):
            return server
        time.sleep(0.25)
    tail = server.log_tail()
    server.stop()
    raise RuntimeError(f"llama_cpp.server not ready after {startup_timeout_s:.0f}s:\n{tail}")
