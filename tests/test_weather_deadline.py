"""get_weather's budget is one deadline over both requests, bodies included.

A server on 127.0.0.1 trickles bytes (one every 50 ms, 400 bytes at most, so a
client without a deadline would wait 20 s and then read a body that is not JSON).
The assertion is on behaviour, not on elapsed time: with a deadline the call
ends with the deadline's error, and the server sees the connection dropped
long before it ran out of bytes.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from router.tools.builtin import fetch_weather

TRICKLE_S = 0.05
TRICKLE_BYTES = 400


@dataclass
class Trickler:
    mode: str
    url: str = ""
    sent: list[int] = field(default_factory=list)


def _serve(listener: socket.socket, server: Trickler, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            continue
        except OSError:
            return
        conn.settimeout(None)
        with conn:
            conn.recv(65536)
            if server.mode == "body":
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n")
                payload = b"x" * TRICKLE_BYTES
            else:
                payload = b"HTTP/1.1 200 OK\r\nX-Slow: " + b"y" * TRICKLE_BYTES
            count = 0
            for byte in payload:
                if stop.is_set():
                    break
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    break
                count += 1
                time.sleep(TRICKLE_S)
            server.sent.append(count)


@pytest.fixture(params=["body", "headers"])
def trickler(request: pytest.FixtureRequest) -> Iterator[Trickler]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.settimeout(0.1)  # so the thread notices stop
    server = Trickler(request.param, f"http://127.0.0.1:{listener.getsockname()[1]}")
    stop = threading.Event()
    thread = threading.Thread(target=_serve, args=(listener, server, stop), daemon=True)
    thread.start()
    yield server
    stop.set()
    listener.close()
    thread.join(timeout=5)


def test_a_trickling_server_is_cut_off_at_the_deadline(trickler: Trickler) -> None:
    result = fetch_weather(
        "北京", geocoding_url=f"{trickler.url}/v1/search", weather_url=f"{trickler.url}/v1/forecast", timeout_s=0.5
    )
    # the error names the time this request had: the 0.5 s budget, less the few ms spent before it started
    assert result["city"] == "北京" and set(result) == {"error", "city"}
    assert re.fullmatch(r"weather service unreachable \(no complete answer within 0\.(?:5|49\d?) s\)", result["error"])
    for _ in range(100):  # the server notices the dropped connection at its next write
        if trickler.sent:
            break
        time.sleep(TRICKLE_S)
    assert trickler.sent and trickler.sent[0] < TRICKLE_BYTES


def test_the_deadline_covers_both_requests(trickler: Trickler) -> None:
    """A fast geocoder does not give the forecast a fresh budget."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Geocoder(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps({"results": [{"name": "北京", "latitude": 39.9, "longitude": 116.4}]}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    geocoder = ThreadingHTTPServer(("127.0.0.1", 0), Geocoder)
    threading.Thread(target=geocoder.serve_forever, daemon=True).start()
    try:
        result = fetch_weather(
            "北京",
            geocoding_url=f"http://127.0.0.1:{geocoder.server_address[1]}/v1/search",
            weather_url=f"{trickler.url}/v1/forecast",
            timeout_s=0.5,
        )
    finally:
        geocoder.shutdown()
        geocoder.server_close()
    # the forecast gets only what the geocoder left of the 0.5 s budget
    assert result["error"].startswith("weather service unreachable (no complete answer within 0.")
    assert result["error"] != "weather service unreachable (no complete answer within 0.5 s)"
