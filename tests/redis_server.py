"""A real ``redis-server`` on a free 127.0.0.1 port, for tests and benchmarks.

No persistence (``--save "" --appendonly no``), its files in a temporary
directory, ready when PING answers, killed at ``stop()``. Tests that need Redis
to vanish mid-run call ``kill()``.

Usage::

    with RedisServer(password="s3cret-pass") as server:
        store = RedisStore(server.url)
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def redis_available() -> bool:
    return os.path.exists(REDIS_SERVER)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    def __init__(self, password: str | None = None) -> None:
        self.password = password
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._dir: tempfile.TemporaryDirectory[str] | None = None

    @property
    def url(self) -> str:
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def start(self, attempts: int = 5, port: int | None = None) -> RedisServer:
        if self._dir is None:
            self._dir = tempfile.TemporaryDirectory(prefix="router-redis-")
        for _ in range(attempts):  # the free port may be taken between probing and binding
            self.port = port or _free_port()
            args = [
                REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--dir", self._dir.name, "--daemonize", "no", "--loglevel", "warning",
            ]
            if self.password:
                args += ["--requirepass", self.password]
            self._process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if self._wait_ready():
                return self
            self.kill()
        raise RuntimeError(f"redis-server did not start after {attempts} attempts")

    def _wait_ready(self, timeout_s: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                return False
            if self.ping():
                return True
            time.sleep(0.01)
        return False

    def ping(self) -> bool:
        """True when the server answers PING (``-NOAUTH`` counts: it is up)."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                reply = sock.recv(64)
        except OSError:
            return False
        return reply.startswith((b"+PONG", b"-NOAUTH"))

    def kill(self) -> None:
        """Kill the server now (SIGKILL: no goodbye to clients), as a crash would."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait(timeout=10)

    def restart(self) -> RedisServer:
        """Start again on the same port (empty: nothing is persisted), as after a crash."""
        self.kill()
        return self.start(port=self.port)

    def stop(self) -> None:
        self.kill()
        self._process = None
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
