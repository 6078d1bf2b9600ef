"""A real OTLP/HTTP trace receiver on 127.0.0.1: what a collector would get, decoded from protobuf."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def _value(any_value: Any) -> Any:
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return tuple(_value(v) for v in any_value.array_value.values)
    return getattr(any_value, kind) if kind else None


class ReceivedSpan:
    def __init__(self, span: Any, resource: dict[str, Any]) -> None:
        self.name: str = span.name
        self.kind: int = span.kind
        self.trace_id: bytes = span.trace_id
        self.span_id: bytes = span.span_id
        self.parent_span_id: bytes = span.parent_span_id
        self.attributes: dict[str, Any] = {a.key: _value(a.value) for a in span.attributes}
        self.status_code: int = span.status.code
        self.start_ns: int = span.start_time_unix_nano
        self.end_ns: int = span.end_time_unix_nano
        self.resource = resource

    def __repr__(self) -> str:
        return f"ReceivedSpan({self.name!r}, {self.attributes!r})"


class OTLPReceiver:
    """Accepts ``POST /v1/traces`` (``application/x-protobuf``) and keeps the raw bodies and decoded spans."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []
        self.spans: list[ReceivedSpan] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
                    ExportTraceServiceRequest,
                    ExportTraceServiceResponse,
                )

                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                ok = self.path == "/v1/traces"
                if ok:
                    request = ExportTraceServiceRequest.FromString(body)
                    with receiver._lock:
                        receiver.bodies.append(body)
                        for resource_spans in request.resource_spans:
                            resource = {a.key: _value(a.value) for a in resource_spans.resource.attributes}
                            for scope in resource_spans.scope_spans:
                                receiver.spans.extend(ReceivedSpan(s, resource) for s in scope.spans)
                reply = ExportTraceServiceResponse().SerializeToString() if ok else b""
                self.send_response(200 if ok else 404)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def start(self) -> OTLPReceiver:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def wait_for(self, name_prefix: str, timeout: float = 10.0) -> list[ReceivedSpan]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                found = [s for s in self.spans if s.name.startswith(name_prefix)]
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"no span named {name_prefix!r} arrived; got {[s.name for s in self.spans]}")

    def raw(self) -> bytes:
        with self._lock:
            return b"".join(self.bodies)
