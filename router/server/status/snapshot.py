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


async def _health(router: Any) -> dict[tuple[str, str], list[Any]]:
    """Every deployment's breaker, cooldown, refused key, load and latency, per provider/model (``router.balance``)."""
    if not hasattr(router, "balancer"):
        return {}  # an engine without deployments (a test stub): the page shows what the config says
    from router.balance.status import deployment_status

    grouped: dict[tuple[str, str], list[Any]] = {}
    for state in await deployment_status(router):
        grouped.setdefault((state.provider, state.model), []).append(state)
    return grouped


def _deployment_row(state: Any) -> dict[str, Any]:
    return {
        "name": state.deployment or "default",
        "key_env": state.key_env,
        "key_set": _key_set(state.key_env),
        "breaker": state.breaker,
        "cooling": state.cooling,
        "refused": dict(state.refused),
        "in_flight": state.in_flight,
        "latency_ms": round(state.latency_s * 1000, 1) if state.latency_s is not None else None,
        "headroom": round(state.headroom, 3) if state.headroom is not None else None,
        "healthy": state.healthy,
    }


async def providers(router: Any) -> list[dict[str, Any]]:
    config = router.config
    health = await _health(router)
    open_now: set[tuple[str, str]] = set()
    circuits = getattr(router, "open_circuits", None)
    if circuits is not None and not health:
        open_now = {tuple(pair)[:2] for pair in await _maybe(circuits())}  # type: ignore[misc]
    latency = getattr(router, "observed_latency", None)
    quarantined = getattr(router, "quarantined", None)
    quarantine = list(await _maybe(quarantined())) if quarantined is not None else []
    out = []
    for name, settings in config.providers.items():
        models = []
        for model in settings.models:
            seconds = latency(name, model.id) if latency is not None else None
            rows = [_deployment_row(state) for state in health.get((name, model.id), [])]
            if rows:  # the model is out only when every deployment serving it is
                breaker = "closed" if any(r["breaker"] == "closed" for r in rows) else rows[0]["breaker"]
            else:
                breaker = "open" if (name, model.id) in open_now else "closed"
            models.append({
                "id": model.id,
                "breaker": breaker,
                "latency_ms": round(seconds * 1000, 1) if seconds is not None else None,
                "context_window": model.context_window,
                "price_in": model.price_in,
                "price_out": model.price_out,
                "deployments": rows,
            })
        out.append({
            "name": name,
            "client": settings.client,
            "key_env": settings.api_key_env,
            "key_set": _key_set(settings.api_key_env),
            "balance": getattr(settings, "balance", None) if getattr(settings, "deployments", None) else None,
            "models": models,
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
