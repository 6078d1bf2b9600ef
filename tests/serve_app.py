"""``python tests/serve_app.py CONFIG PORT``: the app of ``router serve`` (same uvicorn options, signals
and lifespan) on the engine the tests use (see server_harness.make_engine), in its own process."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import uvicorn
from server_harness import SERVER_KEY, make_engine

from router.config import load_config
from router.server.app import create_app
from router.server.auth import KeyCheck
from router.server.cli import build_parser, uvicorn_options


def main() -> None:
    config_path, port = sys.argv[1], sys.argv[2]
    config = load_config(config_path)
    app = create_app(make_engine(config), config.server, keys=KeyCheck([SERVER_KEY.encode()]))
    args = build_parser().parse_args(["--port", port, "--log-level", "warning"])
    uvicorn.run(app, **uvicorn_options(args))


if __name__ == "__main__":
    main()
