"""The last decisions the gateway made, for the status page: a bounded ring, never a log file.

One row per answered or refused request, built from the ``Answer`` the router already
filled, so the page shows exactly what the caller was told (who answered, why, what
it cost). Rows hold no prompt or reply text and no key: only the names of things.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from router.answers import fallback_count

if TYPE_CHECKING:
    from router.types import Answer

MAX_DECISIONS = 1000
"""The ring's hard bound, whatever ``server.status_decisions`` asks for."""


@dataclass(frozen=True)
class Decision:
    at: float
    dialect: str
    mode: str
    task: str
    tier: str
    provider: str
    model: str
    deployment: str
    route_reason: str
    latency_ms: float | None
    cost_usd: float | None
    status: int
    outcome: str
    fallbacks: int
    tools: tuple[str, ...] = ()
    """The tools that ran, MCP ones as ``server:tool`` (names only, never arguments or results)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class DecisionLog:
    """The newest ``size`` decisions, newest first when read; bounded whatever callers send."""

    def __init__(self, size: int = 100) -> None:
        self._rows: deque[Decision] = deque(maxlen=max(1, min(size, MAX_DECISIONS)))

    def add(self, decision: Decision) -> None:
        self._rows.append(decision)

    def recent(self, limit: int | None = None) -> list[Decision]:
        rows = list(reversed(self._rows))
        return rows if limit is None else rows[:limit]

    def __len__(self) -> int:
        return len(self._rows)


def _task(answer: Answer) -> str:
    task = getattr(answer, "task", None)
    if isinstance(task, str) and task:
        return task
    reason = answer.route_reason  # "auto: coding, difficulty ..." names the task type when auto chose
    if reason.startswith("auto: ") and "," in reason:
        return reason[len("auto: "):].split(",", 1)[0].strip()
    return ""


def decision_of(answer: Answer | None, *, dialect: str, status: int, outcome: str = "ok", tier: str = "",
                mode: str = "", model: str = "") -> Decision:
    """The row for one request; ``answer`` is None when it failed before anyone answered (latency unknown)."""
    if answer is None:
        return Decision(at=time.time(), dialect=dialect, mode=mode, task="", tier=tier, provider="", model=model,
                        deployment="", route_reason="", latency_ms=None, cost_usd=None,
                        status=status, outcome=outcome, fallbacks=0)
    if outcome == "ok":
        if answer.finish_reason == "content_filter":
            outcome = "filtered"
        elif answer.finish_reason == "length":
            outcome = "truncated"
        elif answer.stopped_reason not in ("answer", ""):
            outcome = answer.stopped_reason
    return Decision(at=time.time(), dialect=dialect, mode=answer.mode, task=_task(answer), tier=tier,
                    provider=answer.provider, model=answer.model, deployment=str(getattr(answer, "deployment", "") or ""),
                    route_reason=answer.route_reason, latency_ms=round(answer.latency_s * 1000, 1),
                    cost_usd=answer.cost, status=status, outcome=outcome, fallbacks=fallback_count(answer),
                    tools=tuple(f"{r.server}:{r.server_tool or r.tool}" if getattr(r, "server", "") else r.tool
                                for r in answer.tool_records[:16]))


__all__ = ["MAX_DECISIONS", "Decision", "DecisionLog", "decision_of"]
