"""Who can answer one question, in order: THE one place that decides the candidate chain.

Inputs: the route (an explicit request or the default), ``fallbacks``, which
providers have keys, which local models are installed, which clients were
injected, and what the mode needs (native tools for react). Every provider passed
over is recorded with its reason, so ``Answer.attempts`` tells the whole story;
nothing downstream filters providers again (``ResilientClient`` only executes
the chain it is given).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from router.errors import ConfigError, MissingAPIKeyError
from router.types import Attempt

if TYPE_CHECKING:
    from router.config import ModelConfig, ProviderConfig, RouterConfig
    from router.routing.names import Route


@dataclass(frozen=True)
class PlannedCandidate:
    """A provider/model that can be called, with its configuration (not a bare name)."""

    provider: str
    settings: ProviderConfig
    model: ModelConfig

    @property
    def model_id(self) -> str:
        return self.model.id


@dataclass(frozen=True)
class Plan:
    """Who will be asked, in order, and who was passed over on the way (for the answer's record)."""

    candidates: tuple[PlannedCandidate, ...]
    skipped: tuple[Attempt, ...]
    notice: str | None = None
    missing_keys: tuple[tuple[str, str], ...] = ()
    """(provider, variable) of keyed providers in the chain without a key: what the user could set."""

    @property
    def first(self) -> PlannedCandidate:
        return self.candidates[0]


def plan(
    config: RouterConfig,
    route: Route,
    *,
    needs_tools: bool = False,
    injected: Collection[str] = (),
    embedded_available: Callable[[], bool] | None = None,
) -> Plan:
    """The candidate chain for one question.

    A provider the user named explicitly is never silently replaced when its key is
    missing: that is ``MissingAPIKeyError`` naming the variable. A default provider
    or a fallback without a key is skipped and recorded. A fallback without native
    tools is skipped for react (the first provider may still answer with text
    ReAct). With nobody left, an installed embedded model answers, and the plan's
    notice says so.
    """
    installed = embedded_available or _embedded_installed
    order = [route.provider, *(name for name in config.fallbacks if name != route.provider)]
    candidates: list[PlannedCandidate] = []
    skipped: list[Attempt] = []
    missing: list[tuple[str, str]] = []
    for position, name in enumerate(dict.fromkeys(order)):
        settings = config.provider(name)
        model = settings.model(route.model or None if position == 0 else None)
        if name in injected:
            candidates.append(PlannedCandidate(name, settings, model))
            continue
        if settings.api_key_env and not settings.has_key():
            missing.append((name, settings.api_key_env))
            if position == 0 and route.explicit:
                raise MissingAPIKeyError(name, settings.api_key_env)
            skipped.append(Attempt(name, model.id, ok=False, error_kind="no_key", error=f"{settings.api_key_env} is not set"))
            continue
        if settings.client == "llama_cpp" and not (model.model_path or installed()):
            if position == 0 and route.explicit:
                from router.clients.local_model import missing_model_message

                raise ConfigError(f"provider {name!r}: {missing_model_message()}")
            skipped.append(Attempt(name, model.id, ok=False, error_kind="not_installed", error="local model not installed"))
            continue
        if position > 0 and needs_tools and not settings.capabilities_for(model.id).tools:
            skipped.append(Attempt(name, model.id, ok=False, error_kind="capability", error="no native tool calling (react)"))
            continue
        candidates.append(PlannedCandidate(name, settings, model))
    notice = None
    if not candidates:
        embedded = _embedded(config, installed)
        if embedded is None:
            first = config.provider(route.provider)
            raise MissingAPIKeyError(route.provider, first.api_key_env or "", also=tuple(v for _, v in missing[1:]))
        candidates.append(embedded)
        if missing:
            from router.clients.local_model import embedded_notice

            notice = embedded_notice(missing, embedded.provider, embedded.model_id)
    return Plan(tuple(candidates), tuple(skipped), notice, tuple(missing))


def _embedded_installed() -> bool:
    from router.clients.local_model import embedded_model_available

    return embedded_model_available()


def _embedded(config: RouterConfig, installed: Callable[[], bool]) -> PlannedCandidate | None:
    """With no key anywhere, an installed embedded model answers even if not in fallbacks."""
    for name, settings in config.providers.items():
        if settings.client == "llama_cpp" and (settings.default_model.model_path or installed()):
            return PlannedCandidate(name, settings, settings.default_model)
    return None


__all__ = ["Plan", "PlannedCandidate", "plan"]
