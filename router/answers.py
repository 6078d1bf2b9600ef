"""What an answer says about itself: who answered, why, what it cost, what to be wary of.

Filled once for every path (modes, the loop, the gateway) so the records cannot
drift between them: the answering attempt names the provider and model, the
plan's skips come first in ``attempts``, and the warnings are derived from the
result, never written by hand at the call site.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from router.errors import UsageError
from router.types import Answer, Attempt, Usage

if TYPE_CHECKING:
    from router.config import RouterConfig
    from router.routing.names import Route
    from router.routing.plan import Plan


PLAN_SKIPS = frozenset({"no_key", "not_installed", "capability", "context_window"})
"""Attempt kinds the plan records for candidates passed over before any call: nothing was sent, so not failures."""


def failed_attempts(answer: Answer) -> list[Attempt]:
    """The calls that were really made and failed (the plan's skips left out), in order."""
    return [a for a in answer.attempts if not a.ok and a.error_kind not in PLAN_SKIPS]


def fallback_count(answer: Answer) -> int:
    """How many other provider/models were tried and failed before whoever answered."""
    answered = (answer.provider, answer.model)
    return len({(a.provider, a.model) for a in failed_attempts(answer)} - {answered})


def finish_answer(
    result: Answer, plan: Plan, route: Route, started: float, config: RouterConfig, *, mode: str, mode_reason: str,
    answer_id: str = "",
) -> Answer:
    """``result`` with who answered, why, the whole attempt record, the cost and the warnings."""
    answered = next((a for a in reversed(result.attempts) if a.ok), None)
    provider = answered.provider if answered else plan.first.provider
    model = answered.model if answered else plan.first.model_id
    warnings = warnings_for(mode, result, config, provider, model)
    result = cap_reply(result, config.limits.max_reply_chars, warnings)
    if plan.notice:
        warnings.insert(0, plan.notice)
    return replace(
        result,
        mode=mode,
        provider=provider,
        model=model,
        deployment=answered.deployment if answered else None,
        route_reason=route.reason,
        mode_reason=mode_reason,
        cost=cost(config, provider, model, result.usage),
        latency_s=round(time.perf_counter() - started, 4),
        attempts=(*plan.skips_before(provider, model), *result.attempts),
        warnings=tuple(warnings),
        id=answer_id or result.id,
    )


def route_line(route: Route, plan: Plan) -> str:
    """Why this provider: the routing reason, or why the routed provider was passed over."""
    first = plan.first.provider
    if first == route.provider:
        return route.reason
    passed = next((a for a in plan.skipped if a.provider == route.provider), None)
    why = f"{passed.error}" if passed and passed.error else "unavailable"
    return f"{route.reason} was {route.provider} ({why}); next in fallbacks"


def check_question_size(question: str, config: RouterConfig) -> None:
    limit = config.limits.max_question_chars
    if len(question) > limit:
        raise UsageError(
            f"the question has {len(question):,} characters, more than limits.max_question_chars ({limit:,}) "
            f"in {config.source}; shorten it or raise the limit"
        )


def cap_reply(result: Answer, limit: int, warnings: list[str]) -> Answer:
    """A reply longer than ``limits.max_reply_chars`` is cut there, and the answer says so."""
    if len(result.text) <= limit:
        return result
    warnings.append(f"the reply had {len(result.text):,} characters; only the first {limit:,} are kept (limits.max_reply_chars)")
    return replace(result, text=result.text[:limit])


def warnings_for(mode: str, result: Answer, config: RouterConfig, provider: str, model: str) -> list[str]:
    out: list[str] = []
    if mode == "react" and not result.tool_records:
        out.append("react answer produced without any tool call: it may be guessed, not looked up")
    elif mode == "react" and not result.grounded:
        out.append("no tool call succeeded: the answer is not grounded in tool results")
    if result.stopped_reason not in ("answer", "stop"):
        out.append(f"the loop stopped early ({result.stopped_reason}); the answer is a best effort")
    if result.refused:
        out.append("the model refused to answer; its refusal is the text")
    if result.finish_reason == "content_filter":
        out.append("the provider's content filter cut or changed this answer")
    if result.steps and provider in config.providers and config.provider(provider).small_model:  # steps 0: a tool answered
        out.append(f"answered by a small local model ({provider}/{model}): expect low quality")
    return out


def cost(config: RouterConfig, provider: str, model: str, usage: Usage) -> float | None:
    if provider not in config.providers:
        return None
    spec = config.provider(provider).model(model)
    if spec.price_in is None or spec.price_out is None:
        return None
    return round((usage.prompt_tokens * spec.price_in + usage.completion_tokens * spec.price_out) / 1_000_000, 8)


__all__ = ["check_question_size", "cost", "finish_answer", "route_line", "warnings_for"]
