"""The ``Router`` facade: route, choose a mode, call with retries/fallbacks, report honestly.

Clients are injected (``Router(config, clients={"deepseek": ScriptedLLM(...)})``),
in the way httpx takes a transport: the real ones are built from YAML only when
nothing was injected for a provider.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from router.clients.base import LLMClient
from router.config import RouterConfig, load_config
from router.errors import MissingAPIKeyError, UsageError
from router.types import Answer, Attempt, Usage

EventSink = Callable[[Any], None]


@dataclass(frozen=True)
class Plan:
    """Who will be asked, in order, and what was skipped on the way (for the answer's record)."""

    candidates: tuple[tuple[str, str], ...]
    skipped: tuple[Attempt, ...]
    notice: str | None = None


class Router:
    def __init__(
        self,
        config: RouterConfig,
        clients: Mapping[str, LLMClient] | None = None,
        *,
        registry: Any = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        from router.clients.resilient import CooldownTracker
        from router.loop.run import ProtocolMemory

        self.config = config
        self._clients: dict[str, LLMClient] = dict(clients or {})
        self._built: dict[tuple[str, str], LLMClient] = {}
        self._registry = registry
        self._sleep = sleep
        self._protocol_memory = ProtocolMemory()  # providers that refused native tools, for this Router
        self._cooldowns = CooldownTracker(
            config.retry.cooldown_s, config.retry.failures_before_cooldown, time.monotonic
        )

    @classmethod
    def from_yaml(cls, path: str | os.PathLike[str] | None = None, **kwargs: Any) -> Router:
        return cls(load_config(path), **kwargs)

    # -- planning ------------------------------------------------------------------------

    def _available(self, provider: str) -> bool:
        if provider in self._clients:
            return True
        cfg = self.config.provider(provider)
        if cfg.client == "llama_cpp":
            from router.clients.local_model import embedded_model_available

            return bool(cfg.default_model.model_path) or embedded_model_available()
        return cfg.has_key()

    def _missing_keys(self, provider: str) -> list[tuple[str, str]]:
        """(provider, variable) for the chosen provider and fallbacks that have no key."""
        missing: list[tuple[str, str]] = []
        for name in dict.fromkeys([provider, *self.config.fallbacks]):
            cfg = self.config.provider(name)
            if name not in self._clients and cfg.api_key_env and not cfg.has_key():
                missing.append((name, cfg.api_key_env))
        return missing

    def plan(self, provider: str, model: str, *, needs_tools: bool, explicit: bool) -> Plan:
        """The fallback chain for one question, keeping only providers we can actually call.

        A provider the user named explicitly is never silently replaced when its key is
        missing: that is an error naming the variable. A default provider without a key
        is skipped (and recorded) in favour of the next one in ``fallbacks``; with no key
        anywhere the embedded model answers, if installed, and the plan says so.
        """
        from router.clients.resilient import fallback_chain

        chosen = self.config.provider(provider)
        if explicit and not self._available(provider) and chosen.api_key_env:
            raise MissingAPIKeyError(provider, chosen.api_key_env)
        candidates: list[tuple[str, str]] = []
        skipped: list[Attempt] = []
        for name, model_id in fallback_chain(self.config, provider, model, needs_tools=needs_tools):
            cfg = self.config.provider(name)
            resolved = model_id or cfg.default_model.id
            if self._available(name):
                candidates.append((name, resolved))
            elif cfg.api_key_env:
                skipped.append(Attempt(name, resolved, ok=False, error_kind="no_key", error=f"{cfg.api_key_env} is not set"))
            else:
                skipped.append(Attempt(name, resolved, ok=False, error_kind="not_installed", error="local model not installed"))
        missing = self._missing_keys(provider)
        if not candidates:
            embedded = self._embedded_fallback()
            if embedded is None:
                raise MissingAPIKeyError(provider, chosen.api_key_env or "")
            candidates.append(embedded)
        first = self.config.provider(candidates[0][0])
        notice = None
        if missing and first.client == "llama_cpp":
            from router.clients.local_model import embedded_notice

            notice = embedded_notice(missing, *candidates[0])
        return Plan(tuple(candidates), tuple(skipped), notice=notice)

    def _embedded_fallback(self) -> tuple[str, str] | None:
        """With no key anywhere, an installed embedded model answers even if not in fallbacks."""
        for name, cfg in self.config.providers.items():
            if cfg.client == "llama_cpp" and self._available(name):
                return name, cfg.default_model.id
        return None

    def client_for(self, provider: str, model: str) -> LLMClient:
        if provider in self._clients:
            return self._clients[provider]
        key = (provider, model)
        if key not in self._built:
            from router.clients.factory import make_client

            self._built[key] = make_client(self.config, provider, model)
        return self._built[key]

    def _resilient(self, plan: Plan) -> LLMClient:
        from router.clients.resilient import Candidate, LazyClient, ResilientClient

        def lazy(name: str, model: str) -> LLMClient:
            if name in self._clients:
                return self._clients[name]
            return LazyClient(lambda: self.client_for(name, model), label=f"{name}/{model}")

        candidates = [
            Candidate(name, model, lazy(name, model), self.config.provider(name).max_retries) for name, model in plan.candidates
        ]
        return ResilientClient(candidates, retry=self.config.retry, sleep=self._sleep, cooldowns=self._cooldowns)

    # -- asking --------------------------------------------------------------------------

    def ask(
        self,
        question: str,
        *,
        mode: str | None = None,
        provider: str | None = None,
        model: str | None = None,
        stream: bool = False,
        history: Sequence[Mapping[str, Any]] | None = None,
        on_event: EventSink | None = None,
        max_steps: int | None = None,
        **options: Any,
    ) -> Answer:
        """Answer one question. ``on_event`` sees tool calls as they happen and, with
        ``stream=True``, the text deltas of the answer."""
        from router.modes.run import MODES, run_mode
        from router.modes.select import select_mode
        from router.routing.names import route_model

        if not question or not question.strip():
            raise UsageError("the question is empty")
        started = time.perf_counter()
        route = route_model(question, self.config, provider=provider, model=model)
        explicit = route.explicit
        config = self.config
        if max_steps is not None:
            config = config.model_copy(update={"loop": config.loop.model_copy(update={"max_steps": max_steps})})

        if mode is not None:
            if mode not in MODES:
                raise UsageError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
            chosen_mode, mode_reason = mode, "requested"
        else:
            selector_llm = None
            if config.modes.selector != "local":
                selector_llm = self._resilient(self.plan(route.provider, route.model, needs_tools=False, explicit=explicit))
            choice = select_mode(question, llm=selector_llm, config=config)
            chosen_mode = choice.mode
            mode_reason = f"{choice.reason} (confidence {choice.confidence:.2f}, {choice.source})"

        plan = self.plan(route.provider, route.model, needs_tools=chosen_mode == "react", explicit=explicit)
        llm = self._resilient(plan)
        first_provider = plan.candidates[0][0]
        capabilities = config.provider(first_provider).capabilities_for(plan.candidates[0][1])
        if on_event is not None:
            if plan.notice:
                on_event(Notice(plan.notice))
            on_event(Notice(f"{chosen_mode}: {mode_reason}", kind="mode"))
            on_event(Notice(f"{plan.candidates[0][0]}/{plan.candidates[0][1]}: {_route_line(route, plan)}", kind="route"))
        result = run_mode(
            chosen_mode,
            question,
            llm,
            config=config,
            registry=self._registry,
            history=list(history or []),
            on_event=on_event,
            provider=first_provider,
            protocol="auto" if capabilities.tools else "text",  # auto: native until the server refuses tools
            protocol_memory=self._protocol_memory,
            stream=stream,
            **options,
        )
        attempts = (*plan.skipped, *result.attempts)
        answered = next((a for a in reversed(result.attempts) if a.ok), None)
        answered_provider = answered.provider if answered else first_provider
        answered_model = answered.model if answered else plan.candidates[0][1]
        warnings = list(_warnings(chosen_mode, result, config, answered_provider, answered_model))
        if plan.notice:
            warnings.insert(0, plan.notice)
        return Answer(
            text=result.text,
            mode=chosen_mode,
            provider=answered_provider,
            model=answered_model,
            route_reason=route.reason,
            mode_reason=mode_reason,
            tool_records=tuple(result.tool_records),
            grounded=result.grounded,
            steps=result.steps,
            usage=result.usage,
            cost=_cost(config, answered_provider, answered_model, result.usage),
            latency_s=round(time.perf_counter() - started, 4),
            attempts=tuple(attempts),
            stopped_reason=result.stopped_reason,
            warnings=tuple(warnings),
            stages=dict(result.stages),
            messages=tuple(result.messages),
        )


@dataclass(frozen=True)
class Notice:
    """An event for UIs: something the user should read before the answer."""

    text: str
    kind: str = "notice"


def _route_line(route: Any, plan: Plan) -> str:
    """Why this provider: the routing reason, or why the routed provider was passed over."""
    first = plan.candidates[0][0]
    if first == route.provider:
        return route.reason
    passed = next((a for a in plan.skipped if a.provider == route.provider), None)
    why = f"{passed.error}" if passed and passed.error else "unavailable"
    return f"{route.reason} was {route.provider} ({why}); next in fallbacks"


def _warnings(mode: str, result: Any, config: RouterConfig, provider: str, model: str) -> list[str]:
    out: list[str] = []
    if mode == "react" and not result.tool_records:
        out.append("react answer produced without any tool call: it may be guessed, not looked up")
    elif mode == "react" and not result.grounded:
        out.append("no tool call succeeded: the answer is not grounded in tool results")
    if result.stopped_reason not in ("answer", "stop"):
        out.append(f"the loop stopped early ({result.stopped_reason}); the answer is a best effort")
    if provider in config.providers and config.provider(provider).small_model:
        out.append(f"answered by a small local model ({provider}/{model}): expect low quality")
    return out


def _cost(config: RouterConfig, provider: str, model: str, usage: Usage) -> float | None:
    if provider not in config.providers:
        return None
    spec = config.provider(provider).model(model)
    if spec.price_in is None or spec.price_out is None:
        return None
    return round((usage.prompt_tokens * spec.price_in + usage.completion_tokens * spec.price_out) / 1_000_000, 8)


_default_router: Router | None = None


def ask(question: str, **kwargs: Any) -> Answer:
    """``router.ask("...")``: a process-wide Router built from the usual config lookup."""
    global _default_router
    if _default_router is None:
        _default_router = Router.from_yaml()
    return _default_router.ask(question, **kwargs)


__all__ = ["Notice", "Plan", "Router", "ask"]
