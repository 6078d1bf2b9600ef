"""``python -m router serve [--host 127.0.0.1] [--port 8000] [--config ...] [--workers N]``.

Everything that can be wrong (config, keys, a missing extra) is checked before
uvicorn starts and reported in one line. With ``--workers N`` uvicorn starts N
processes that each build the app from ``app_factory`` (an import string), reading
the same config and host from the environment this command sets.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, TextIO

ENV_CONFIG = "ROUTER_SERVE_CONFIG"
ENV_HOST = "ROUTER_SERVE_HOST"
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="router serve", description="Serve the router over OpenAI's chat-completions API.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    parser.add_argument("--config", help="providers.yaml (default: $ROUTER_CONFIG, ./providers.yaml, packaged)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    parser.add_argument("--access-log", action="store_true", help="log every request (costs time per request)")
    return parser


def build_app(config_path: str | None, host: str) -> Any:
    """The app for one process: Router from the config, keys from the environment."""
    from router.config import load_config
    from router.core import Router
    from router.redaction import install_log_redaction
    from router.server.app import create_app
    from router.server.auth import KeyCheck

    config = load_config(config_path)
    keys = KeyCheck.from_env(config.server.api_key_envs, host=host, source=config.source)
    install_log_redaction("uvicorn", "uvicorn.error", "router.server")
    return create_app(Router(config), config.server, keys=keys)


def freeze_startup_objects() -> None:
    """Move everything built at startup (modules, config, app) out of the collector's reach.

    A full collection otherwise walks every object that pydantic, starlette and uvicorn
    left behind: measured ~15 ms, landing on whichever request triggered it. Requests'
    own garbage is still collected as usual. Only the serve command's process does this.
    """
    import gc

    gc.collect()
    gc.freeze()


def app_factory() -> Any:
    """uvicorn's ``--factory`` entry for worker processes."""
    app = build_app(os.environ.get(ENV_CONFIG) or None, os.environ.get(ENV_HOST, "127.0.0.1"))
    freeze_startup_objects()
    return app


def uvicorn_options(args: argparse.Namespace, max_header_bytes: int | None = None) -> dict[str, Any]:
    from router.server.protocol import MAX_HEAD_BYTES, one_piece_protocol

    options: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        "log_level": args.log_level,
        "access_log": args.access_log,
        "lifespan": "on",
        "server_header": False,
        "date_header": False,
        "proxy_headers": False,  # no client addresses are used: skip the per-request middleware
    }
    protocol = one_piece_protocol()
    options["http"] = protocol if protocol is not None else "h11"
    if protocol is None:  # h11 has its own cap on a request's head
        options["h11_max_incomplete_event_size"] = max_header_bytes or MAX_HEAD_BYTES
    try:
        import uvloop  # noqa: F401

        options["loop"] = "uvloop"
    except ImportError:
        options["loop"] = "asyncio"
    return options


def main(argv: list[str], *, stderr: TextIO | None = None) -> int:
    err = stderr or sys.stderr
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.workers < 1:
        err.write("router serve: error: --workers must be at least 1\n")
        return EXIT_USAGE
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError as exc:
        err.write(f"router serve: error: {exc.name} is not installed: run pip install -e \".[server]\" in the router checkout\n")
        return EXIT_USAGE
    from router.errors import RouterError

    try:
        app = build_app(args.config, args.host)  # also in the parent with workers: fail here, in one line
    except RouterError as exc:
        err.write("router serve: error: " + " ".join(str(exc).split()) + "\n")
        return EXIT_USAGE
    options = uvicorn_options(args, app.state.router.config.server.max_header_bytes)
    try:
        if args.workers == 1:
            freeze_startup_objects()
            uvicorn.run(app, **options)
        else:
            os.environ[ENV_CONFIG] = args.config or ""
            os.environ[ENV_HOST] = args.host
            uvicorn.run("router.server.cli:app_factory", factory=True, workers=args.workers, **options)
    except KeyboardInterrupt:  # uvicorn re-raises Ctrl-C after the graceful shutdown: not an error
        return 130
    return 0


__all__ = ["app_factory", "build_app", "main"]
