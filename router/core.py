"""The ``Router`` facade: route, choose a mode, plan who can answer, run, report honestly.

Clients are injected (``Router(config, clients={"deepseek": ScriptedLLM(...)})``),
in the way httpx takes a transport: the real ones are built from YAML only when
nothing was injected for a provider, and the Router closes what it built. The
async methods are the implementation; ``ask`` / ``stream`` run them on the core
loop (``router.aio``), so there is one copy of every behaviour.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

# light modules (no pydantic, no SDK) that every request uses: imported once here, not per call
# (a function-level import costs ~1.8 us on a busy 2-core machine, and achat made eleven)
from router.answers import finish_answer, route_line
from router.clients.deadlines import Deadlines
from router.clients.guards import key_fingerprint
from router.clients.resilient import Candidate, LazyClient, ResilientClient
from router.conversation import estimate_tokens
from router.errors import UsageError
from router.loop.chain import validate_messages
from router.routing import plan as planning
from router.routing.auto import LatencyBook, choose
from router.routing.names import Route, resolve_provider, resolve_target, route_model
from router.routing.share import ShareTracker
from router.telemetry import traced
from router.types import Answer, DoneEvent, Event, ModeEvent, NoticeEvent, RequestOptions, RouteEvent

if TYPE_CHECKING:
    from router.clients.base import LLMClient
    from router.config import LoopSettings, RouterConfig
    from router.routing.learning import Decision, Learner
    from router.routing.outcomes import OutcomeBook
    from router.routing.plan import Plan

EventSink = Callable[[Event], None]


class Router:
    def __init__(
        self,
        config: RouterConfig,
        clients: Mapping[str, LLMClient] | None = None,
        *,
        registry: Any = None,
        sleep: Callable[[float], Any] | None = None,
        telemetry: Any = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        from router.config import RouterConfig
        from router.loop.memory import ProtocolMemory
        from router.state import make_store
        from router.state.breaker import CircuitBreaker

        if not isinstance(config, RouterConfig):
            hint = " (use Router.from_yaml(path) to load a file)" if isinstance(config, (str, os.PathLike)) else ""
            raise UsageError(f"Router() takes a RouterConfig, got {type(config).__name__}{hint}")
        self.config = config
        self._clients: dict[str, LLMClient] = {}
        for name, client in (clients or {}).items():
            self._clients[self.resolve_provider(name)] = client
        self._built: dict[tuple[str, str, str | None], LLMClient] = {}
        self._registry = registry
        self._sleep = _awaitable_sleep(sleep)
        self.state = make_store(config)  # in-process, or Redis shared by every process of the deployment
        self._protocol_memory = ProtocolMemory(self.state)  # providers that refused native tools
        self._cache = None
        if config.cache.enabled:
            from router.clients.cache import ResponseCache

            self._cache = ResponseCache(self.state, config.cache.ttl_s)
        self._breaker = CircuitBreaker.from_settings(self.state, config.breaker)
        self._latency = LatencyBook()
        self._share = ShareTracker()  # strong_share kept true on this process's own traffic
        from router.clients.guards import guards_from_config

        self._guards = guards_from_config(config, self.state)
        from router.telemetry import from_environment

        self._telemetry = telemetry if telemetry is not None else from_environment()  # None: tracing off, no cost
        self._learner: Learner | None = None
        self._outcomes: OutcomeBook | None = None
        if config.routing.learning.enabled:  # routing.learning: outcomes adjust the tier choice per kind
            from router.routing.learning import Learner
            from router.routing.outcomes import OutcomeBook

            self._learner = Learner(config.routing.learning, self.state, clock=clock or time.time)
            self._outcomes = OutcomeBook(self._learner, config.routing.learning)
        self.balancer = None  # chooses among a provider's deployments (router.balance); only when some are listed
        if any(p.deployments for p in config.providers.values()):
            from router.balance import Balancer

            self.balancer = Balancer(self.state)
        self._mcp: Any = None

    @classmethod
    def from_yaml(cls, path: str | os.PathLike[str] | None = None, **kwargs: Any) -> Router:
        from router.config import load_config

        return cls(load_config(path), **kwargs)

    # -- names, plan, clients --------------------------------------------------------------

    def resolve_provider(self, name: str) -> str:
        """A provider name or alias -> the providers.yaml key (unknown: UsageError with a suggestion)."""
        return resolve_provider(self.config, name)

    def route(self, question: str, *, provider: str | None = None, model: str | None = None) -> Route:
        if model is not None and model.strip().lower() == "auto":
            model = None  # the automatic choice is made in aask, once the mode is known
        if provider is None and model is not None and model in self.config.routing.tiers:
            entries = [(p, m) for p, m in self.config.routing.tier(model) if p in self.config.providers]
            if entries:  # a tier named as the model (the server's `model: strong`): its models in order
                return Route(entries[0][0], entries[0][1], f"tier {model}", alternatives=tuple(entries[1:]))
        if provider is None and model is not None:
            target = resolve_target(self.config, model)  # a provider, a model id, or provider/model (the server's field)
            if target.model is None or target.model.lower() != model.strip().lower():
                provider, model = target.provider, target.model  # a bare model id stays one: route_model names it so
        if provider is not None:
            provider = self.resolve_provider(provider)
        return route_model(question, self.config, provider=provider, model=model)

    def plan(self, route: Route, *, needs_tools: bool, prompt_tokens: int = 0) -> Plan:
        return planning.plan(self.config, route, needs_tools=needs_tools, injected=self._clients, prompt_tokens=prompt_tokens)

    async def _auto(self, route: Route, question: str, mode: str, requested: bool) -> tuple[Route, Decision | None]:
        """``model="auto"`` or ``routing.strategy: auto``: the tier and model for this question and mode,
        and the decision the learner counts the outcome for. An explicit request (a provider or model
        named anywhere) always wins, and is never explored."""
        if route.explicit or not (requested or self.config.routing.strategy == "auto") or not self.config.routing.tiers:
            return route, None
        advice = await self._learner.advise(question, self.config.routing.tiers) if self._learner else None
        choice = choose(question, mode, self.config, self._latency, advice, self._share)
        if not choice.candidates:
            return route, None
        providers = self.config.providers
        default = providers.get(self.config.default)
        if default is not None and default.has_key() and not default.small_model:
            # auto never prefers a small local model (or a tier of models without keys) over a default that can answer
            first = next((p for p, _ in choice.candidates if p in providers and providers[p].has_key()), None)
            if first is None or providers[first].small_model:
                return route, None
        (provider, model), rest = choice.candidates[0], choice.candidates[1:]
        decision = advice.decision(choice.tier, choice.score or 0.0, choice.explored) if advice else None
        return Route(provider, model, choice.reason, explicit=False, alternatives=rest), decision

    def client_for(self, provider: str, model: str, deployment: str | None = None) -> LLMClient:
        if provider in self._clients:
            return self._clients[provider]
        key = (provider, model, deployment)
        client = self._built.get(key)
        if client is not None:
            return client
        from router.clients.factory import make_client

        settings = self.config.providers[provider]
        if not any(m.id.lower() == model.lower() for m in settings.models):
            # a model id the config does not list (any string a caller sends): it shares the provider's own
            # client and pool and is not kept, so distinct names never build pools, descriptors or entries
            base = self.client_for(provider, settings.default_model.id, deployment)
            twin = getattr(base, "with_model", None)
            if twin is not None:
                from router.clients.wire import WireRules

                return twin(model, WireRules.from_capabilities(settings.capabilities_for(model)))  # type: ignore[no-any-return]
        client = self._built[key] = make_client(self.config, provider, model, deployment)
        return client

    def _chain(self, plan: Plan, on_event: EventSink | None) -> ResilientClient:
        def client(provider: str, model: str, deployment: str | None = None) -> LLMClient:
            built: LLMClient
            if provider in self._clients:
                built = self._clients[provider]
            else:
                built = LazyClient(lambda: self.client_for(provider, model, deployment), provider, model)
            if self._telemetry is None:
                return built
            settings = self.config.providers.get(provider)
            url = settings.base_url if settings else None
            if settings is not None and deployment is not None:
                url = next((d.url(settings) for d in settings.deployments if d.name == deployment), url)
            return self._telemetry.instrument(built, base_url=url)

        candidates = []
        for c in plan.candidates:
            if not c.deployments:
                candidates.append(Candidate(c.provider, c.model_id, client(c.provider, c.model_id), c.settings.max_retries,
                                            key_id=key_fingerprint(c.settings.api_key()), key_env=c.settings.api_key_env))  # fmt: skip
                continue
            from router.balance.members import members_of

            for deployment, member in members_of(c):
                candidates.append(Candidate(c.provider, c.model_id, client(c.provider, c.model_id, deployment.name),
                                            c.settings.max_retries, key_id=key_fingerprint(deployment.api_key(c.settings)),
                                            key_env=deployment.key_env(c.settings), member=member))  # fmt: skip
        notify = (lambda text: on_event(NoticeEvent(text))) if on_event is not None else None
        switch = (lambda p, m, why: on_event(RouteEvent(p, m, why))) if on_event is not None else None
        return ResilientClient(candidates, retry=self.config.retry, sleep=self._sleep, breaker=self._breaker, notify=notify,
                               on_switch=switch,
                               deadlines=Deadlines.from_settings(self.config.deadlines), guards=self._guards,
                               cache=self._cache, balancer=self.balancer)  # fmt: skip

    @property
    def mcp(self) -> Any:
        """The MCP servers of ``mcp:`` (``router.tools.mcp.McpHub``); each starts on first use."""
        if self._mcp is None:
            from router.tools.mcp import McpHub

            source = self.config.source
            self._mcp = McpHub(self.config.mcp, os.path.dirname(os.path.abspath(source)) if os.path.isfile(source) else None)
        return self._mcp

    # -- lifetime -------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Close the clients this Router built (injected ones belong to the caller) and stop its MCP servers."""
        built, self._built = list(self._built.values()), {}
        for client in built:
            await client.aclose()
        if self._mcp is not None:
            await self._mcp.aclose()
        await self.state.aclose()
        if self._telemetry is not None:
            await self._telemetry.aclose()

    def close(self) -> None:
        from router.aio import run_sync

        run_sync(self.aclose())

    def __enter__(self) -> Router:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> Router:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- asking --------------------------------------------------------------------------

    @traced("ask")
    async def aask(
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
        loop: LoopSettings | None = None,
        options: RequestOptions | None = None,
        answer_id: str | None = None,
        caller: str | None = None,
    ) -> Answer:
        """Answer one question. ``on_event`` sees notices, the mode, the route, tool calls
        as they happen and, with ``stream=True``, the text deltas of the answer.

        ``answer_id`` becomes ``Answer.id`` (the server passes its response id; else one is made);
        ``caller`` names who asked (the server: the API key's name), for feedback and re-asks."""
        from router.modes.run import MODES, arun_mode
        from router.modes.select import select_mode

        if not isinstance(question, str):
            raise UsageError(f"the question must be a string, got {type(question).__name__}")
        if not question.strip():
            raise UsageError("the question is empty")
        from router.answers import check_question_size

        check_question_size(question, self.config)
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int)):
            raise UsageError(f"max_steps must be a whole number, got {max_steps!r}")
        if mode == "auto":
            mode = None
        if mode is not None and mode not in MODES:
            raise UsageError(f"unknown mode {mode!r} (choose from auto, {', '.join(MODES)})")
        emit = on_event or (lambda event: None)
        started = time.perf_counter()
        route = self.route(question, provider=provider, model=model)
        if mode is not None:
            chosen_mode, mode_reason = mode, "requested"
        else:
            selector_llm = None
            if self.config.modes.selector != "local":
                selector_llm = self._chain(self.plan(route, needs_tools=False), on_event)
            choice = await asyncio.to_thread(select_mode, question, selector_llm, self.config) if selector_llm else select_mode(
                question, None, self.config
            )
            chosen_mode = choice.mode
            mode_reason = f"{choice.reason} (confidence {choice.confidence:.2f}, {choice.source})"

        from router.loop.settings import loop_settings

        settings = loop_settings(loop or self.config.loop, max_steps=max_steps)
        route, decision = await self._auto(route, question, chosen_mode, requested=_is_auto(model))
        prompt_tokens = estimate_tokens(question) + sum(estimate_tokens(str(m.get("content") or "")) for m in history or ())
        plan = self.plan(route, needs_tools=chosen_mode == "react", prompt_tokens=prompt_tokens)
        first = plan.first
        if plan.notice:
            emit(NoticeEvent(plan.notice))
        emit(ModeEvent(chosen_mode, mode_reason))

        emit(RouteEvent(first.provider, first.model_id, route_line(route, plan)))
        capabilities = first.settings.capabilities_for(first.model_id)
        registry, tool_notes = self._registry, []
        if chosen_mode == "react" and self.config.mcp.servers:
            registry, tool_notes = await self.mcp.registry_for(question, self._registry)
            for note in tool_notes:
                emit(NoticeEvent(note))
        result = await arun_mode(
            chosen_mode,
            question,
            self._chain(plan, on_event),
            config=self.config,
            registry=registry,
            history=list(history or []),
            on_event=on_event,
            protocol="auto" if capabilities.tools else "text",  # auto: native until the server refuses tools
            protocol_memory=self._protocol_memory,
            stream=stream,
            loop=settings,
            options=options,
            pre_run_tools=first.settings.small_model,
        )
        answer = self._finish(result, plan, route, started, mode=chosen_mode, mode_reason=mode_reason, answer_id=answer_id)
        if tool_notes:
            answer = replace(answer, warnings=(*answer.warnings, *tool_notes))
        if self._outcomes is not None:
            asked = [*(history or ()), {"role": "user", "content": question}]
            await self._outcomes.record(answer, _answered(decision, answer), caller=caller, messages=asked, options=options)
        return answer

    def ask(self, question: str, **kwargs: Any) -> Answer:
        """The sync face of ``aask`` (same arguments)."""
        from router.aio import run_sync

        return run_sync(self.aask(question, **kwargs))

    async def astream(self, question: str, **kwargs: Any) -> AsyncIterator[Event]:
        """``aask`` as a stream of events; the last one is ``DoneEvent(answer)``."""
        from router.aio import events_of

        async for event in events_of(lambda sink: self.aask(question, stream=True, on_event=sink, **kwargs)):
            yield event

    def stream(self, question: str, **kwargs: Any) -> Iterator[Event]:
        from router.aio import iterate_sync

        return iterate_sync(self.astream(question, **kwargs))

    # -- direct completions (the gateway) ---------------------------------------------------

    @traced("chat")
    async def achat(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        provider: str | None = None,
        model: str | None = None,
        options: RequestOptions | None = None,
        on_event: EventSink | None = None,
        stream: bool = False,
        answer_id: str | None = None,
        caller: str | None = None,
    ) -> Answer:
        """One routed completion through the fallback chain: no loop, no tool run.

        The caller's ``tools`` are offered as they are and the model's tool_calls come
        back verbatim in ``Answer.tool_calls`` (the server's transparent gateway).
        """
        problems = validate_messages(messages)
        if problems:
            from router.errors import MessageChainError

            raise MessageChainError(problems)
        started = time.perf_counter()
        question = next((str(m.get("content") or "") for m in reversed(messages) if m.get("role") == "user"), "")
        route, decision = await self._auto(self.route(question, provider=provider, model=model), question, "direct",
                                           requested=_is_auto(model))
        prompt_tokens = sum(estimate_tokens(str(m.get("content") or "")) for m in messages)
        plan = self.plan(route, needs_tools=bool(tools), prompt_tokens=prompt_tokens)
        if on_event is not None:
            on_event(RouteEvent(plan.first.provider, plan.first.model_id, route_line(route, plan)))
        chain = self._chain(plan, on_event)
        if stream:
            response = None
            async for event in chain.astream(messages, tools=tools, options=options):
                if event.kind == "done":
                    response = event.response
                elif event.kind == "restart" and on_event is not None:
                    from router.types import RestartEvent

                    on_event(RestartEvent(event.text))
                elif event.kind in ("text", "reasoning") and event.text and on_event is not None:
                    from router.types import TextEvent

                    on_event(TextEvent(event.text, reasoning=event.kind == "reasoning"))
                elif event.kind == "tool_call" and on_event is not None:
                    from router.types import ToolCallDeltaEvent

                    on_event(ToolCallDeltaEvent(event.index or 0, event.tool_call_id, event.name, event.text))
            assert response is not None  # the chain raises when a stream ends without done
        else:
            response = await chain.achat(messages, tools=tools, options=options)
        message = response.message
        result = Answer(
            text=message.content or message.refusal or "",
            mode="direct",
            provider="",
            model="",
            steps=1,
            usage=response.usage,
            attempts=response.attempts,
            messages=(*messages, message.to_dict()),
            finish_reason=response.finish_reason or "stop",
            tool_calls=message.tool_calls,
            reasoning_content=message.reasoning_content,
            refused=not message.content and bool(message.refusal),
        )
        answer = self._finish(result, plan, route, started, mode="direct", mode_reason="direct completion",
                              answer_id=answer_id)
        if self._outcomes is not None:
            await self._outcomes.record(answer, _answered(decision, answer), caller=caller, messages=messages,
                                        options=options)
        return answer

    # -- feedback -------------------------------------------------------------------------

    async def afeedback(self, answer_id: str, score: float, *, comment: str | None = None,
                        caller: str | None = None) -> None:
        """How good answer ``answer_id`` was: 0.0 (bad) to 1.0 (good). ``routing.learning`` counts it
        for the kind of question and tier that answered, in place of the implicit signals.

        ``UsageError`` for a bad score, ``UnknownAnswerError`` for an unknown or expired id,
        ``FeedbackRefusedError`` when ``caller`` is not who received the answer; nothing is stored then."""
        from router.routing.outcomes import check_answer_id, check_score

        if self._outcomes is None:
            check_score(score)
            check_answer_id(answer_id)
            from router.errors import UnknownAnswerError

            raise UnknownAnswerError(f"no answer with id {answer_id!r} awaits feedback: answers are kept for feedback "
                                     f"only with routing.learning.enabled: true ({self.config.source})")
        await self._outcomes.feedback(answer_id, score, caller=caller, comment=comment)

    def feedback(self, answer_id: str, score: float, *, comment: str | None = None) -> None:
        """The sync face of ``afeedback``."""
        from router.aio import run_sync

        run_sync(self.afeedback(answer_id, score, comment=comment))

    async def astream_chat(self, messages: list[dict[str, Any]], **kwargs: Any) -> AsyncIterator[Event]:
        """``achat`` as events: text deltas, tool-call pieces as they arrive (``ToolCallDeltaEvent``), one
        ToolCallEvent per complete call, then ``DoneEvent``."""
        from router.aio import events_of
        from router.types import ToolCallEvent

        async for event in events_of(lambda sink: self.achat(messages, stream=True, on_event=sink, **kwargs)):
            if isinstance(event, DoneEvent):
                for call in event.answer.tool_calls:
                    yield ToolCallEvent(call.name, call.id, call.arguments)
            yield event

    async def open_circuits(self) -> list[tuple[str, str]]:
        """(provider, model) whose circuit breaker is open now (for /metrics), read from the shared store; with
        ``deployments``, when the breakers of every deployment serving the model are open."""
        out = []
        for name, settings in self.config.providers.items():
            for model in settings.models:
                serving = [d.name for d in settings.deployments if d.serves(model.id)]
                keys = [f"{name}/{model.id}@{d}" for d in serving] or [f"{name}/{model.id}"]
                if all([(await self._breaker.state(key)).state != "closed" for key in keys]):
                    out.append((name, model.id))
        return out

    def observed_latency(self, provider: str, model: str) -> float | None:
        """Seconds per answer seen from provider/model in this process (weighted to recent), ``None`` before any."""
        seconds = self._latency.get(provider, model)
        return None if seconds == float("inf") else seconds

    async def quarantined(self) -> list[dict[str, Any]]:
        """Refused keys out now (the status page, ``router check``): provider, deployment, model scope
        (``*``: every model), the key's variable and the provider's reason. Cleared with
        ``router.balance.status.clear_refused_key``."""
        from router.balance.status import deployment_status

        seen: dict[tuple[str, str | None, str], dict[str, Any]] = {}
        for state in await deployment_status(self):
            for scope, reason in state.refused.items():
                seen.setdefault((state.provider, state.deployment, scope), {
                    "provider": state.provider, "deployment": state.deployment, "model": scope,
                    "key_env": state.key_env, "reason": reason,
                })  # fmt: skip
        return list(seen.values())

    def models(self) -> list[tuple[str, str]]:
        """(id, owned_by) for /v1/models: ``auto``, the tiers, then every provider/model that can answer now.

        A provider whose key is missing (or an embedded model not installed) is left out: listed, it
        would look usable and every request naming it would fail (``router models`` shows them all)."""
        from router.routing.inventory import rows

        usable = {(row.provider, row.model) for row in rows(self.config) if row.usable or row.provider in self._clients}
        out = [("auto", "router"), *((tier, "router") for tier in self.config.routing.tiers)]
        for name, settings in self.config.providers.items():
            out.extend((f"{name}/{m.id}", name) for m in settings.models if (name, m.id) in usable)
        return out

    # -- reporting ------------------------------------------------------------------------

    def _finish(self, result: Answer, plan: Plan, route: Route, started: float, *, mode: str, mode_reason: str,
                answer_id: str | None = None) -> Answer:
        for attempt in result.attempts:
            if attempt.ok:
                self._latency.observe(attempt.provider, attempt.model, attempt.latency_s)
        return finish_answer(result, plan, route, started, self.config, mode=mode, mode_reason=mode_reason,
                             answer_id=answer_id or new_answer_id())


def new_answer_id() -> str:
    return "ans-" + os.urandom(12).hex()


def _answered(decision: Decision | None, answer: Answer) -> Decision | None:
    """The decision, naming the model that really answered (a fallback may have)."""
    if decision is None:
        return None
    from dataclasses import replace

    return replace(decision, model=f"{answer.provider}/{answer.model}")


def _awaitable_sleep(sleep: Callable[[float], Any] | None) -> Callable[[float], Any]:
    """``Router(sleep=...)``: a coroutine function, or a plain one (``time.sleep``, a recorder in a test)
    that the retry waits call and await only if it hands back an awaitable. Checked here, not mid-retry."""
    if sleep is None:
        return asyncio.sleep
    if not callable(sleep):
        raise UsageError(f"Router(sleep=...) takes a function of the seconds to wait, got {type(sleep).__name__}")
    import inspect

    if inspect.iscoroutinefunction(sleep):
        return sleep

    async def awaited(seconds: float) -> None:
        result = sleep(seconds)
        if inspect.isawaitable(result):
            await result

    return awaited


def _is_auto(model: str | None) -> bool:
    return model is not None and model.strip().lower() == "auto"


_default_router: Router | None = None


def ask(question: str, **kwargs: Any) -> Answer:
    """``router.ask("...")``: a process-wide Router built from the usual config lookup."""
    global _default_router
    if _default_router is None:
        _default_router = Router.from_yaml()
    return _default_router.ask(question, **kwargs)


__all__ = ["Router", "ask"]
