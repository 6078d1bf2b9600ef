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

from router.errors import ConfigError, MissingAPIKeyError, UsageError
from router.types import Attempt

if TYPE_CHECKING:
    from router.config import ModelConfig, ProviderConfig, RouterConfig
    from router.config.deployments import Deployment
    from router.routing.names import Route


@dataclass(frozen=True)
class PlannedCandidate:
    """A provider/model that can be called, with its configuration (not a bare name)."""

    provider: str
    settings: ProviderConfig
    model: ModelConfig
    deployments: tuple[Deployment, ...] = ()
    """The provider's deployments that serve this model and have their keys, in file order; which one
    answers a request is balanced per request (``router.balance``). Empty: the implicit deployment."""

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
    skipped_after: tuple[int, ...] = ()
    """For each skip, how many candidates came before it: a skip behind the one who answered was never needed."""

    def skips_before(self, provider: str, model: str) -> tuple[Attempt, ...]:
        """The skips on the way to this candidate (all of them when it is not in the plan)."""
        index = next((i for i, c in enumerate(self.candidates) if c.provider == provider and c.model_id == model), None)
        if index is None or len(self.skipped_after) != len(self.skipped):
            return self.skipped
        return tuple(a for a, after in zip(self.skipped, self.skipped_after, strict=True) if after <= index)

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
    prompt_tokens: int = 0,
) -> Plan:
    """The candidate chain for one question.

    Order: the route's provider/model, the route's alternatives (the rest of an
    automatic tier), then ``fallbacks`` with their default models. A provider the
    user named explicitly is never silently replaced when its key is missing: that
    is ``MissingAPIKeyError`` naming the variable. Anyone else without a key is
    skipped and recorded, as is a fallback without native tools for react (the
    first provider may still answer with text ReAct) and any model whose context
    window the prompt (``prompt_tokens``, estimated) does not fit; when nobody fits,
    the smallest configured model that does comes in. With nobody left at all, an
    installed embedded model answers, and the plan's notice says so.
    """
    installed = embedded_available or _embedded_installed
    wanted = [(route.provider, route.model or None), *route.alternatives, *((name, None) for name in config.fallbacks)]
    candidates: list[PlannedCandidate] = []
    skipped: list[Attempt] = []
    missing: list[tuple[str, str]] = []
    too_small: list[Attempt] = []
    after: dict[int, int] = {}  # id(skip) -> candidates before it
    seen: set[tuple[str, str]] = set()
    for position, (name, model_id) in enumerate(wanted):
        settings = config.provider(name)
        model = settings.model(model_id)
        if (name, model.id) in seen or (position > 0 and model_id is None and any(n == name for n, _ in seen)):
            continue
        seen.add((name, model.id))
        deployments: tuple[Deployment, ...] = ()
        if name in injected:
            pass  # the caller brought its own client: keys and installs are its business
        elif settings.deployments:
            deployments, unkeyed = _keyed_deployments(name, settings, model.id)
            skipped.extend(unkeyed)
            after.update((id(skip), len(candidates)) for skip in unkeyed)
            if not deployments:
                env = settings.deployments[0].key_env(settings) or ""
                if (name, env) not in missing:
                    missing.append((name, env))
                if position == 0 and route.explicit:
                    raise MissingAPIKeyError(name, env)
                continue
        elif settings.api_key_env and not settings.has_key():
            if (name, settings.api_key_env) not in missing:
                missing.append((name, settings.api_key_env))
            if position == 0 and route.explicit:
                raise MissingAPIKeyError(name, settings.api_key_env)
            skipped.append(Attempt(name, model.id, ok=False, error_kind="no_key", error=f"{settings.api_key_env} is not set"))
            after[id(skipped[-1])] = len(candidates)
            continue
        elif settings.client == "llama_cpp" and not (model.model_path or installed()):
            if position == 0 and route.explicit:
                from router.clients.local_model import missing_model_message

                raise ConfigError(f"provider {name!r}: {missing_model_message()}")
            skipped.append(Attempt(name, model.id, ok=False, error_kind="not_installed", error="local model not installed"))
            after[id(skipped[-1])] = len(candidates)
            continue
        if position > 0 and needs_tools and not settings.capabilities_for(model.id).tools:
            skipped.append(Attempt(name, model.id, ok=False, error_kind="capability", error="no native tool calling (react)"))
            after[id(skipped[-1])] = len(candidates)
            continue
        if not fits(model, prompt_tokens):
            too_small.append(Attempt(name, model.id, ok=False, error_kind="context_window",
                                     error=f"prompt ~{prompt_tokens} tokens does not fit its {model.context_window}-token window"))  # fmt: skip
            after[id(too_small[-1])] = len(candidates)
            continue
        candidates.append(PlannedCandidate(name, settings, model, deployments))
    skipped.extend(too_small)
    if not candidates and too_small:
        larger = _larger_context(config, prompt_tokens, injected)
        if larger is None:
            biggest = max((m.context_window or 0 for s in config.providers.values() for m in s.models), default=0)
            raise UsageError(f"the question (~{prompt_tokens} tokens) fits no configured model (largest window: {biggest} tokens)")
        candidates.append(larger)
    notice = None
    if not candidates:
        embedded = _embedded(config, installed)
        if embedded is None:
            first = config.provider(route.provider)
            why = next((a.error for a in skipped if a.provider == route.provider), None)
            also = tuple(v for n, v in missing if n != route.provider)  # every variable that would work
            raise MissingAPIKeyError(route.provider, first.api_key_env or "", also=also, reason=why)
        candidates.append(embedded)
        skipped = [a for a in skipped if a.provider != embedded.provider]  # it answers after all: not a skip
        if missing:
            from router.clients.local_model import embedded_notice

            notice = embedded_notice(missing, embedded.provider, embedded.model_id)
    elif missing and candidates[0].settings.client == "llama_cpp" and not route.explicit:
        # the embedded model is first because keys are missing, in every mode, not only when react skipped it
        from router.clients.local_model import embedded_notice

        notice = embedded_notice(missing, candidates[0].provider, candidates[0].model_id)
    return Plan(tuple(candidates), tuple(skipped), notice, tuple(missing), tuple(after.get(id(a), 0) for a in skipped))


def _keyed_deployments(name: str, settings: ProviderConfig, model_id: str) -> tuple[tuple[Deployment, ...], list[Attempt]]:
    """The deployments serving ``model_id`` that have their keys, and a skip for each one that has none."""
    from router.config.deployments import serving

    usable, unkeyed = [], []
    for deployment in serving(settings, model_id):
        if deployment.has_key(settings):
            usable.append(deployment)
        else:
            unkeyed.append(Attempt(name, model_id, ok=False, error_kind="no_key", deployment=deployment.name,
                                   error=f"deployment {deployment.name}: {deployment.key_env(settings)} is not set"))  # fmt: skip
    return tuple(usable), unkeyed


OUTPUT_RESERVE = 0.2
"""Share of a context window kept free for the answer when deciding whether a prompt fits."""


def fits(model: ModelConfig, prompt_tokens: int) -> bool:
    window = model.context_window
    return window is None or prompt_tokens <= window * (1 - OUTPUT_RESERVE)


def _larger_context(config: RouterConfig, prompt_tokens: int, injected: Collection[str]) -> PlannedCandidate | None:
    """The smallest configured window that fits, among providers that can be called."""
    options = [
        PlannedCandidate(name, settings, model, () if name in injected else _keyed_deployments(name, settings, model.id)[0])
        for name, settings in config.providers.items()
        for model in settings.models
        if model.context_window and fits(model, prompt_tokens) and settings.client != "llama_cpp"
        and (name in injected or (_keyed_deployments(name, settings, model.id)[0] if settings.deployments else settings.has_key()))
    ]  # fmt: skip
    return min(options, key=lambda c: c.model.context_window or 0, default=None)


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
