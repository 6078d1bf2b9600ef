"""Prometheus text exposition, written by hand: a few counters and histograms need no dependency.

Everything is updated from the event loop thread of one worker, so plain ints and
floats suffice (no locks). With ``--workers N`` each worker reports its own numbers;
Prometheus sums them by instance.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)
OVERHEAD_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.003, 0.005, 0.01, 0.025, 0.05, 0.1)

Labels = tuple[tuple[str, str], ...]


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _labels(labels: Labels, extra: str = "") -> str:
    parts = [f'{k}="{_escape(v)}"' for k, v in labels]
    if extra:
        parts.append(extra)
    return "{" + ",".join(parts) + "}" if parts else ""


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


class Counter:
    def __init__(self, name: str, help: str) -> None:
        self.name, self.help = name, help
        self.values: dict[Labels, float] = {}

    def inc(self, labels: Labels = (), amount: float = 1.0) -> None:
        self.values[labels] = self.values.get(labels, 0.0) + amount

    def render(self) -> Iterable[str]:
        yield f"# HELP {self.name} {self.help}"
        yield f"# TYPE {self.name} counter"
        for labels, value in self.values.items():
            yield f"{self.name}{_labels(labels)} {_num(value)}"


class Histogram:
    def __init__(self, name: str, help: str, buckets: tuple[float, ...]) -> None:
        self.name, self.help, self.buckets = name, help, buckets
        self.series: dict[Labels, list[float]] = {}  # bucket counts..., +Inf count, sum

    def observe(self, value: float, labels: Labels = ()) -> None:
        series = self.series.get(labels)
        if series is None:
            series = self.series[labels] = [0.0] * (len(self.buckets) + 2)
        series[bisect_left(self.buckets, value)] += 1
        series[-1] += value

    def render(self) -> Iterable[str]:
        yield f"# HELP {self.name} {self.help}"
        yield f"# TYPE {self.name} histogram"
        for labels, series in self.series.items():
            running = 0.0
            for bound, count in zip((*self.buckets, float("inf")), series[:-1], strict=True):
                running += count
                le = 'le="+Inf"' if bound == float("inf") else f'le="{bound!r}"'
                yield f"{self.name}_bucket{_labels(labels, le)} {_num(running)}"
            yield f"{self.name}_sum{_labels(labels)} {series[-1]!r}"
            yield f"{self.name}_count{_labels(labels)} {_num(running)}"


class Metrics:
    """The server's numbers; ``open_circuits`` is asked at scrape time (the breakers live in the core)."""

    def __init__(self, open_circuits: Callable[[], Iterable[tuple[str, str]]] | None = None, *,
                 decisions: int = 100) -> None:
        from router.server.status.decisions import DecisionLog

        self.open_circuits = open_circuits
        self.decisions = DecisionLog(decisions)
        """The last requests' decisions, for the status page (bounded ring, names only)."""
        self.requests = Counter("router_requests_total", "HTTP requests by endpoint and status")
        self.errors = Counter("router_errors_total", "error responses and error events by endpoint and error code")
        self.rejected = Counter("router_rejected_total", "requests refused by the concurrency limit")
        self.latency = Histogram("router_request_duration_seconds", "time from request to last byte", LATENCY_BUCKETS)
        self.overhead = Histogram("router_overhead_seconds", "time spent in the router, not waiting for providers",
                                  OVERHEAD_BUCKETS)
        self.tokens = Counter("router_tokens_total", "tokens by provider, model and kind (prompt, completion)")
        self.cost = Counter("router_cost_usd_total", "spend in USD by provider and model (where prices are known)")
        self.fallbacks = Counter("router_fallbacks_total", "answers given after at least one failed attempt")
        self.in_flight = 0

    def record_answer(self, provider: str, model: str, prompt: int, completion: int, cost: float | None,
                      fell_back: bool, deployment: str | None = None) -> None:
        who: Labels = (("provider", provider), ("model", model))
        if deployment:  # a configured deployment name (never a caller's string): bounded by the config
            who = (*who, ("deployment", deployment))
        if prompt:
            self.tokens.inc((*who, ("kind", "prompt")), prompt)
        if completion:
            self.tokens.inc((*who, ("kind", "completion")), completion)
        if cost:
            self.cost.inc(who, cost)
        if fell_back:
            self.fallbacks.inc(who)

    def render(self, circuits: Iterable[tuple[str, str]] = ()) -> str:
        """The Prometheus text; ``circuits`` are the open breakers, read (asynchronously) by the caller."""
        circuits = list(circuits)
        lines: list[str] = []
        for metric in (self.requests, self.errors, self.rejected, self.latency, self.overhead, self.tokens, self.cost,
                       self.fallbacks):
            lines.extend(metric.render())
        lines += ["# HELP router_in_flight requests being answered now", "# TYPE router_in_flight gauge",
                  f"router_in_flight {self.in_flight}"]
        lines += ["# HELP router_open_circuits circuit breakers open now", "# TYPE router_open_circuits gauge",
                  f"router_open_circuits {len(circuits)}"]
        lines += ["# HELP router_circuit_open an open circuit breaker", "# TYPE router_circuit_open gauge"]
        lines += [f"router_circuit_open{_labels((('provider', p), ('model', m)))} 1" for p, m in circuits]
        return "\n".join(lines) + "\n"


__all__ = ["Counter", "Histogram", "Metrics"]
