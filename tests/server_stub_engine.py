"""A stand-in for the async Router API the server calls, used only with ROUTER_SERVER_TEST_ENGINE=stub.

The server tests use the real ``Router``; this engine lets the HTTP layer be checked
apart from the core (to tell a server bug from a core bug). It calls the configured
provider's client directly: one provider, no fallbacks, no modes beyond echoing the
requested mode, no tools run.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from router.clients.factory import make_client
from router.config import RouterConfig
from router.errors import UsageError
from router.types import Answer, Attempt, DoneEvent, RequestOptions, RouteEvent, TextEvent, ToolCallEvent


class StubEngine:
    def __init__(self, config: RouterConfig) -> None:
        self.config = config
        self._clients: dict[tuple[str, str], Any] = {}

    def _resolve(self, model: str | None) -> tuple[str, str]:
        if model in (None, "auto"):
            cfg = self.config.provider(self.config.default)
            return self.config.default, cfg.default_model.id
        assert model is not None
        provider, _, model_id = model.partition("/")
        if provider not in self.config.providers:
            raise UsageError(f"unknown model {model!r}")
        return provider, model_id or self.config.provider(provider).default_model.id

    def _client(self, provider: str, model: str) -> Any:
        key = (provider, model)
        if key not in self._clients:
            self._clients[key] = make_client(self.config, provider, model)
        return self._clients[key]

    def _answer(self, response: Any, provider: str, model: str, started: float, mode: str) -> Answer:
        latency = time.perf_counter() - started
        return Answer(
            text=response.message.content or "", mode=mode, provider=provider, model=model, route_reason="stub",
            usage=response.usage, attempts=(Attempt(provider, model, ok=True, latency_s=latency),),
            finish_reason=response.finish_reason or "stop", tool_calls=response.message.tool_calls,
            reasoning_content=response.message.reasoning_content,
        )

    async def achat(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                    provider: str | None = None, model: str | None = None, options: RequestOptions | None = None,
                    mode: str = "direct", **_: Any) -> Answer:
        name, model_id = self._resolve(model)
        started = time.perf_counter()
        client = self._client(name, model_id)
        if hasattr(client, "achat"):
            response = await client.achat(messages, tools=tools, options=options)
        else:  # a client from before the async core
            response = await asyncio.to_thread(client.chat, messages, tools=tools, **_legacy(options, tools))
        return self._answer(response, name, model_id, started, mode)

    async def astream_chat(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                           provider: str | None = None, model: str | None = None, options: RequestOptions | None = None,
                           mode: str = "direct", **_: Any) -> AsyncIterator[Any]:
        name, model_id = self._resolve(model)
        started = time.perf_counter()
        yield RouteEvent(name, model_id, "stub")
        client = self._client(name, model_id)
        if hasattr(client, "astream"):
            events: Any = client.astream(messages, tools=tools, options=options)
        else:  # a client from before the async core: replay its sync stream
            events = _replay(await asyncio.to_thread(lambda: list(client.stream(messages, tools=tools, **_legacy(options, tools)))))
        async for event in events:
            if event.kind in ("text", "reasoning") and event.text:
                yield TextEvent(event.text, reasoning=event.kind == "reasoning")
            elif event.kind == "done":
                assert event.response is not None
                for call in event.response.message.tool_calls:
                    yield ToolCallEvent(call.name, call.id, call.arguments)
                yield DoneEvent(self._answer(event.response, name, model_id, started, mode))

    async def aask(self, question: str, *, history: Sequence[Mapping[str, Any]] | None = None, mode: str | None = None,
                   provider: str | None = None, model: str | None = None, options: RequestOptions | None = None,
                   **_: Any) -> Answer:
        messages = [*map(dict, history or []), {"role": "user", "content": question}]
        return await self.achat(messages, model=model, options=options, mode=mode or "cot")

    async def astream(self, question: str, *, history: Sequence[Mapping[str, Any]] | None = None,
                      mode: str | None = None, provider: str | None = None, model: str | None = None,
                      options: RequestOptions | None = None, **_: Any) -> AsyncIterator[Any]:
        messages = [*map(dict, history or []), {"role": "user", "content": question}]
        async for event in self.astream_chat(messages, model=model, options=options, mode=mode or "cot"):
            yield event

    def models(self) -> list[tuple[str, str]]:
        out = [("auto", "router")]
        for name, cfg in self.config.providers.items():
            out += [(f"{name}/{m.id}", name) for m in cfg.models]
        return out

    async def aclose(self) -> None:
        for client in self._clients.values():
            if hasattr(client, "aclose"):
                await client.aclose()
            else:
                client.close()


def _legacy(options: RequestOptions | None, tools: Any) -> dict[str, Any]:
    return options.to_kwargs(with_tools=bool(tools)) if options is not None else {}


async def _replay(events: list[Any]) -> AsyncIterator[Any]:
    for event in events:
        yield event
