"""Running ``router serve``'s app on 127.0.0.1 for tests, and checking what it sends against OpenAI's schemas."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from functools import cache
from pathlib import Path
from typing import Any

from router.config import RouterConfig, parse_config

DATA = Path(__file__).parent / "data"
SERVER_KEY = "sk-router-server-test-key"
UPSTREAM_KEY_ENV = "ROUTER_TEST_UPSTREAM_KEY"


def upstream_config(base_url: str, *, extra: str = "") -> RouterConfig:
    """Two providers on the same fake upstream; ``fake`` is the default."""
    return parse_config(f"""
default: fake
fallbacks: [other]
retry: {{max_wait_s: 0.5}}
providers:
  fake:
    client: openai
    base_url: {base_url}
    api_key_env: {UPSTREAM_KEY_ENV}
    max_retries: 0
    models: [{{id: fake-model, default: true, price_in: 1.0, price_out: 2.0}}]
  other:
    client: openai
    base_url: {base_url}
    api_key_env: {UPSTREAM_KEY_ENV}
    max_retries: 0
    models: [{{id: other-model, default: true}}]
{extra}""", "test-config.yaml")


def make_engine(config: RouterConfig) -> Any:
    """The real Router; ROUTER_SERVER_TEST_ENGINE=stub checks the HTTP layer alone (see server_stub_engine)."""
    if os.environ.get("ROUTER_SERVER_TEST_ENGINE") == "stub":
        from server_stub_engine import StubEngine

        return StubEngine(config)
    from router.core import Router

    return Router(config)


class ServerThread:
    """uvicorn with the options ``router serve`` uses, on a free port, in a background thread."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        from router.server.cli import uvicorn_options

        class Args:
            host, port, log_level, access_log = "127.0.0.1", 0, "warning", False

        options = uvicorn_options(Args)  # type: ignore[arg-type]
        options.pop("host"), options.pop("port")
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, **options))
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        self.server.run(sockets=[self.sock])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- OpenAI schemas --------------------------------------------------------------------------


@cache
def _schemas() -> dict[str, Any]:
    return json.loads((DATA / "openai_chat_schemas.json").read_text(encoding="utf-8"))


@cache
def _validator(kind: str) -> Any:
    from jsonschema import Draft202012Validator

    schemas = _schemas()
    name = schemas["x-kinds"][kind]
    return Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": schemas["$defs"]})


def check(kind: str, payload: Any) -> Any:
    """Raise if ``payload`` breaks OpenAI's schema for ``kind`` (response, stream_chunk, error, models)."""
    errors = sorted(_validator(kind).iter_errors(payload), key=lambda e: list(e.path))
    if errors:
        raise AssertionError(f"{kind} does not match OpenAI's schema: {errors[0].message} at {list(errors[0].path)}")
    return payload


def parse_sse(raw: bytes) -> tuple[list[dict[str, Any]], bool]:
    """The JSON chunks of an SSE body (each schema-checked: chunks, or an error event) and whether [DONE] came."""
    chunks: list[dict[str, Any]] = []
    done = False
    for block in raw.decode("utf-8").split("\n\n"):
        for line in block.splitlines():
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                done = True
                continue
            assert not done, "data after [DONE]"
            payload = json.loads(data)
            check("error" if "error" in payload else "stream_chunk", payload)
            chunks.append(payload)
    return chunks, done
