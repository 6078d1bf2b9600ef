"""What the status page shows, as one JSON document built on request from live state.

Everything comes from where it already lives (the config, the breakers in the state
store, the metrics, the decision ring, the budgets), read when the page asks: there
is no second copy of any of it to drift. Keys are reported as set or not, by the
variable's name, never by value.
"""

from __future__ import annotations

import inspect
import os
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from router.server.metrics import Metrics
    from router.server.status.decisions import DecisionLog

STARTED = time.time()


async def _maybe(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def _key_set(name: str | None) -> bool | None:
    if not name:
        return None  # the provider needs no key (mock, local, embedded)
    return bool(os.environ.get(name, "").strip())


async def providers(router: Any) -> list[dict[str, Any]]:
    config = router.config
    open_now: set[tuple[str, str]] = set()
    circuits = getattr(router, "open_circuits", None)
    if circuits is not None:
        open_now = {tuple(pair) for pair in await _maybe(circuits())}  # type: ignore[misc]
    latency = getattr(router, "observed_latency", None)
    quarantined = getattr(router, "quarantined", None)
    quarantine = list(await _maybe(quarantined())) if quarantined is not None else []
    out = []
    for name, settings in config.providers.items():
        models = []
        for model in settings.models:
            seconds = latency(name, model.id) if latency is not None else None
            models.append({
                "id": model.id,
                "breaker": "open" if (name, model.id) in open_now else "closed",
                "latency_ms": round(seconds * 1000, 1) if seconds is not None else None,
                "context_window": model.context_window,
                "price_in": model.price_in,
                "price_out": model.price_out,
            })
        deployments = [
            {"name": d.name, "key_env": d.key_env(settings), "key_set": _key_set(d.key_env(settings))}
            for d in getattr(settings, "deployments", None) or ()
        ]
        out.append({
            "name": name,
            "client": settings.client,
            "key_env": settings.api_key_env,
            "key_set": _key_set(settings.api_key_env),
            "models": models,
            "deployments": deployments,
            "quarantine": [q for q in quarantine if isinstance(q, dict) and q.get("provider") == name],
        })
    return out


async def spend(router: Any, key_names: Sequence[str], budget_usd: float | None) -> list[dict[str, Any]]:
    """Today's spend per accepted key (by its variable's name) against ``server.budget_usd_per_day_per_key``."""
    state = getattr(router, "state", None)
    if state is None or budget_usd is None:
        return [{"key": name, "spent_usd": None, "budget_usd": None} for name in key_names]
    from router.state.limits import Budget

    rows = []
    for name in key_names:
        spent = await Budget(state, f"key:{name}", budget_usd).spent()
        rows.append({"key": name, "spent_usd": round(spent, 6), "budget_usd": budget_usd})
    return rows


def errors(metrics: Metrics) -> dict[str, Any]:
    total = client = server = 0.0
    for labels, value in metrics.requests.values.items():
        status = dict(labels).get("status", "")
        total += value
        if status.startswith("4"):
            client += value
        elif status.startswith("5"):
            server += value
    by_code: dict[str, float] = {}
    for labels, value in metrics.errors.values.items():
        code = dict(labels).get("code", "")
        by_code[code] = by_code.get(code, 0.0) + value
    top = sorted(by_code.items(), key=lambda item: -item[1])[:12]
    return {
        "requests": int(total),
        "client_errors": int(client),
        "server_errors": int(server),
        "client_error_rate": round(client / total, 4) if total else 0.0,
        "server_error_rate": round(server / total, 4) if total else 0.0,
        "by_code": [{"code": code, "count": int(count)} for code, count in top],
        "fallbacks": int(sum(metrics.fallbacks.values.values())),
        "rejected": int(sum(metrics.rejected.values.values())),
    }


async def snapshot(router: Any, metrics: Metrics, decisions: DecisionLog, *, key_names: Iterable[str],
                   budget_usd: float | None) -> dict[str, Any]:
    now = time.time()
    return {
        "generated_at": now,
        "uptime_s": round(now - STARTED, 1),
        "pid": os.getpid(),
        "in_flight": metrics.in_flight,
        "config": router.config.source,
        "providers": await providers(router),
        "spend": await spend(router, list(key_names), budget_usd),
        "errors": errors(metrics),
        "decisions": [d.to_dict() for d in decisions.recent()],
    }


__all__ = ["errors", "providers", "snapshot", "spend"]
