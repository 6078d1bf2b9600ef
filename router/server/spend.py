"""The pipeline's budget step: estimate a request's cost, reserve it, settle it.

``server.budget_usd_per_day_per_key`` is a per-key daily budget. Before the call the
request reserves an estimate (``router.state.budget``): its prompt, at most one token
per three body bytes, plus its ``max_tokens`` (else the model's ``max_output_tokens``,
else ``server.budget_reserve_tokens``), priced at the dearest model that may answer it
(the named model and the fallbacks' models; for ``auto``, a tier or the default, every
priced model). A reservation that does not fit is a 429 ``budget_exceeded``, before any
provider is called.

After the call the reservation becomes the answer's real cost. A failure that reached
no provider (every one refused or was down) releases it; a timeout, a stream the
upstream cut or the client dropped, or a shutdown keeps it: the provider may have
generated (and billed) up to the estimate, and no usage came back to say less.
"""

from __future__ import annotations

from typing import Any

from router.config import RouterConfig, ServerSettings
from router.errors import AllProvidersFailedError, ProviderError, TruncatedResponseError
from router.server.dialects.base import Call
from router.state.budget import Reservation, ReservingBudget

BYTES_PER_TOKEN = 3
"""A token is at least about three bytes of UTF-8 JSON (English: ~4, CJK: 3), so this overestimates."""

_KEPT_KINDS = frozenset({"timeout", "malformed"})
"""Failures after which the provider may have generated (and billed) output (besides a cut reply)."""


class Spending:
    """Per-key budgets for one app: which key pays, and what a request may cost."""

    def __init__(self, router: Any, settings: ServerSettings) -> None:
        self.limit = settings.budget_usd_per_day_per_key
        self.state = getattr(router, "state", None)
        self.reserve_tokens = settings.budget_reserve_tokens
        config: RouterConfig = router.config
        self.config = config
        self._prices: dict[tuple[str, str], tuple[float, float, int | None]] = {}
        for name, provider in config.providers.items():
            for model in provider.models:
                if model.price_in is not None or model.price_out is not None:
                    self._prices[(name, model.id.lower())] = (model.price_in or 0.0, model.price_out or 0.0,
                                                              model.max_output_tokens)
        self._dearest = self._max(self._prices.values())
        fallback_prices = []
        for name in config.fallbacks:
            if name in config.providers:
                fallback_prices += [v for (p, _), v in self._prices.items() if p == name]
        self._fallback = self._max(fallback_prices)

    @staticmethod
    def _max(prices: Any) -> tuple[float, float, int | None]:
        prices = list(prices)
        if not prices:
            return 0.0, 0.0, None
        caps = [cap for _, _, cap in prices if cap is not None]
        return max(p[0] for p in prices), max(p[1] for p in prices), max(caps) if len(caps) == len(prices) else None

    def budget(self, scope: Any) -> ReservingBudget | None:
        """The caller's budget (scoped by its key's variable name), or None when budgets are off."""
        name = scope.get("router.key")
        if self.limit is None or name is None or self.state is None:
            return None
        return ReservingBudget(self.state, f"key:{name}", self.limit)

    def _price(self, model: str | None) -> tuple[float, float, int | None]:
        if model is None or model.strip().lower() == "auto" or model in self.config.routing.tiers:
            return self._dearest
        from router.routing.names import resolve_target

        try:
            target = resolve_target(self.config, model)
        except Exception:  # an unknown name fails later with its own 404; reserve as for anything
            return self._dearest
        provider = self.config.providers.get(target.provider)
        if provider is None:
            return self._dearest
        own = self._prices.get((target.provider, provider.model(target.model).id.lower()), (0.0, 0.0, None))
        fb_in, fb_out, _ = self._fallback
        return max(own[0], fb_in), max(own[1], fb_out), own[2]

    def estimate(self, call: Call, body_bytes: int) -> float:
        """The most this request is expected to cost, in USD."""
        price_in, price_out, cap = self._price(call.model)
        if not price_in and not price_out:
            return 0.0
        prompt = body_bytes // BYTES_PER_TOKEN + 1
        output = call.options.max_tokens or cap or self.reserve_tokens
        return (prompt * price_in + output * price_out) / 1_000_000


def kept_after(exc: BaseException) -> bool:
    """After this failure, does the reservation stand as the charge (the provider may have billed)?"""
    if isinstance(exc, TimeoutError):
        return True
    if isinstance(exc, AllProvidersFailedError):
        return any(getattr(a, "error_kind", None) in _KEPT_KINDS for a in exc.attempts)
    if isinstance(exc, TruncatedResponseError):
        return True
    if isinstance(exc, ProviderError):
        return exc.kind in _KEPT_KINDS
    return False


async def after_failure(budget: ReservingBudget | None, reservation: Reservation | None, exc: BaseException) -> None:
    if budget is not None and reservation is not None and not kept_after(exc):
        await budget.release(reservation)


__all__ = ["Spending", "after_failure", "kept_after"]
