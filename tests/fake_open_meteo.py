"""A real HTTP server on 127.0.0.1 that answers like Open-Meteo (geocoding + forecast).

Shared by the weather tool tests and the CLI tests, so get_weather is exercised
over real HTTP without the internet.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar
from urllib.parse import parse_qs, urlparse

PLACES = {
    "北京": {"name": "北京", "country": "中国", "latitude": 39.9075, "longitude": 116.39723},
    "London": {"name": "London", "country": "United Kingdom", "latitude": 51.50853, "longitude": -0.12574},
}
FORECAST = {
    "latitude": 39.9,
    "longitude": 116.4,
    "current": {"temperature_2m": 3.2, "relative_humidity_2m": 41, "wind_speed_10m": 9.7, "weather_code": 61},
    "daily": {
        "time": ["2026-11-30"],
        "weather_code": [3],
        "temperature_2m_max": [6.1],
        "temperature_2m_min": [-2.4],
        "sunrise": ["2026-11-30T07:14"],
        "sunset": ["2026-11-30T16:50"],
        "precipitation_probability_max": [20],
    },
}


class OpenMeteoHandler(BaseHTTPRequestHandler):
    """Serves Open-Meteo-shaped JSON; /broken answers 500, /garbage answers non-JSON."""

    requests: ClassVar[list[tuple[str, dict[str, list[str]]]]] = []

    def do_GET(self) -> None:
        url = urlparse(self.path)
        query = parse_qs(url.query)
        type(self).requests.append((url.path, query))
        if url.path.startswith("/broken"):
            self._send(500, b'{"error": true}')
        elif url.path.startswith("/garbage"):
            self._send(200, b"<html>not json</html>")
        elif url.path.endswith("/search"):
            place = PLACES.get(query.get("name", [""])[0])
            body: dict[str, Any] = {"results": [place]} if place else {"generationtime_ms": 0.1}
            self._send(200, json.dumps(body, ensure_ascii=False).encode())
        elif url.path.endswith("/forecast"):
            self._send(200, json.dumps(FORECAST).encode())
        else:
            self._send(404, b"{}")

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def serve_open_meteo() -> Iterator[str]:
    """Yields the base URL; geocoding is ``{url}/v1/search``, forecast ``{url}/v1/forecast``."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), OpenMeteoHandler)
    OpenMeteoHandler.requests = []
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
