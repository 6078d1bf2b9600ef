"""``OpenAIClient``: any OpenAI-compatible endpoint through the official SDK's ``AsyncOpenAI``.

Two transports: ``lean`` (the default when aiohttp is installed) speaks the
chat-completions JSON directly over one aiohttp session per event loop
(``router.clients.lean``: the SDK's request building and response wrapping cost
more CPU than the whole router, see bench/server_overhead.py); ``sdk`` goes
through the official SDK's ``AsyncOpenAI`` (its aiohttp transport when installed,
else httpx), imported only then so ``import router`` stays cheap. Both map errors
through ``status_error`` and are held to the same contract tests. SDK retries are
off: retrying and falling back is the resilience layer's job.

``CompletionsClient`` holds everything the OpenAI SDK and litellm clients share:
request building with the model's wire rules, timing, reading replies, stream
assembly, stream-only models and error mapping. Subclasses only say how a
request is sent (``_send``) and how an exception maps (``_map_error``).
"""

from __future__ import annotations

import asyncio
import atexit
import copy
import json
import time
import weakref
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any, NoReturn

from router.clients.base import Messages, SyncClient, Tools
from router.clients.sdk_errors import map_sdk_error, retry_after_seconds, says_tools_unsupported
from router.clients.streaming import StreamAssembler
from router.clients.wire import DEFAULT_RULES, WireRules, prepare_messages, redact_reply, response_from_completion
from router.errors import (
    InvalidInputError,
    MalformedResponseError,
    ProviderError,
    ProviderUnavailableError,
    RouterError,
    StreamOnlyError,
    UsageError,
)
from router.redaction import StreamRedactor, install_log_redaction, register_secret, scrub_exception
from router.types import ChatResponse, RequestOptions, StreamEvent

_SDK_LOGGERS = ("openai", "openai._base_client", "httpx", "httpx2", "httpcore", "aiohttp")


def stream_cut_error(provider: str, model: str, assembler: StreamAssembler) -> ProviderUnavailableError:
    return ProviderUnavailableError(
        f"stream ended before the reply was complete (after {assembler.chunks} chunks, no finish_reason)",
        provider=provider,
        model=model,
    )


async def _close_stream(chunks: Any) -> None:
    """Release a stream's connection now (a caller that stops early must not keep it busy)."""
    for name in ("aclose", "close"):
        close = getattr(chunks, name, None)
        if close is not None:
            result = close()
            if hasattr(result, "__await__"):
                await result
            return


class CompletionsClient(SyncClient):
    """``achat`` / ``astream`` over any endpoint speaking OpenAI's chat-completions format."""

    provider: str
    model: str
    base_url: str | None = None
    timeout_s: float = 60.0
    rules: WireRules = DEFAULT_RULES
    _secret: str | None = None
    _key_env: str | None = None
    _extra_body_key: str | None = None
    """Where ``RequestOptions.extra_body`` goes: merged into the request (None) or under this keyword."""

    def _identity(
        self, *, provider: str, model: str, base_url: str | None, timeout_s: float, api_key: str | None,
        rules: WireRules | None, key_env: str | None,
    ) -> None:
        """Who this client is and how it authenticates (the key is registered for redaction first)."""
        register_secret(api_key)
        self.provider = provider
        self.model = model
        self.base_url = base_url
        self.timeout_s = timeout_s
        self.rules = rules or DEFAULT_RULES
        self._secret = api_key
        self._key_env = key_env

    # --- what subclasses provide -----------------------------------------------------

    def _base_request(self) -> dict[str, Any]:
        """Fields every request of this client carries (model name, litellm's switches)."""
        raise NotImplementedError

    async def _send(self, request: dict[str, Any]) -> Any:
        """A completion (dict or object), or for ``stream=True`` an async iterator of chunks."""
        raise NotImplementedError

    def _map_error(self, exc: BaseException, had_tools: bool) -> ProviderError | None:
        return map_sdk_error(
            exc, provider=self.provider, model=self.model, had_tools=had_tools, secret=self._secret, key_env=self._key_env
        )

    # --- shared ------------------------------------------------------------------------

    def _request(self, messages: Messages, tools: Tools, options: RequestOptions | None) -> dict[str, Any]:
        request = self._base_request()
        request["messages"] = prepare_messages(messages, self.rules)
        if options is not None:
            request.update(options.to_kwargs(with_tools=bool(tools)))
            if options.extra_body:
                if self._extra_body_key is None:
                    request.update(options.extra_body)
                else:
                    request[self._extra_body_key] = dict(options.extra_body)
        if tools:
            request["tools"] = tools
        return request

    def _fail(self, exc: BaseException, had_tools: bool) -> NoReturn:
        """Re-raise ``exc`` as a router error chained to it (scrubbed of secrets first)."""
        if isinstance(exc, RouterError):
            raise exc
        if isinstance(exc, UnicodeEncodeError):  # our own request failed to encode: the caller's text, not the reply
            bad = exc.object[exc.start:exc.end] if isinstance(exc.object, str) else ""
            raise InvalidInputError(f"the request cannot be sent: it contains {bad!r}, which is not valid Unicode "
                                    "(a lone surrogate); send text as valid UTF-8") from None
        error = self._map_error(exc, had_tools)
        scrub_exception(exc, self._secret)
        if error is None:
            raise exc
        raise error from exc

    async def achat(self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None) -> ChatResponse:
        if self.rules.stream_only:
            return await self._achat_streamed(messages, tools, options)
        request = self._request(messages, tools, options)
        started = time.perf_counter()
        try:
            completion = await self._send(request)
        except Exception as exc:
            try:
                self._fail(exc, bool(tools))
            except StreamOnlyError:
                # the config did not say so, the server did: stream from now on
                self.rules = WireRules(self.rules.reasoning_echo, self.rules.strict_alternation, stream_only=True)
                return await self._achat_streamed(messages, tools, options)
        response = response_from_completion(
            completion, provider=self.provider, model=self.model, latency_s=time.perf_counter() - started
        )
        return redact_reply(response, self._secret)

    async def _achat_streamed(self, messages: Messages, tools: Tools, options: RequestOptions | None) -> ChatResponse:
        """A plain request answered by streaming and assembling (models that answer only streams)."""
        response: ChatResponse | None = None
        async for event in self.astream(messages, tools=tools, options=options):
            if event.kind == "done":
                response = event.response
        assert response is not None  # astream ends with done or raises
        return response

    async def astream(
        self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        request = self._request(messages, tools, options)
        request["stream"] = True
        request.setdefault("stream_options", {"include_usage": True})
        started = time.perf_counter()
        assembler = StreamAssembler(provider=self.provider, model=self.model)
        # a key echoed into the text is masked even when a chunk boundary splits it (one guard per channel)
        guards = {"text": StreamRedactor(self._secret), "reasoning": StreamRedactor(self._secret)}
        call_guards: dict[int | None, tuple[StreamRedactor, StreamEvent]] = {}  # tool-call arguments, per call
        try:
            chunks = await self._send(request)
        except Exception as exc:
            self._fail(exc, bool(tools))
        try:
            async for chunk in chunks:
                for event in assembler.add_chunk(chunk):
                    if event.kind == "tool_call":  # always passed on (it may announce the id and name), text guarded
                        call_guard = call_guards.get(event.index, (StreamRedactor(self._secret), event))[0]
                        call_guards[event.index] = (call_guard, event)
                        shown = call_guard.feed(event.text)
                        yield event if shown == event.text else replace(event, text=shown)
                        continue
                    guard = guards.get(event.kind)
                    if guard is None:
                        yield event
                    elif shown := guard.feed(event.text):
                        yield event if shown == event.text else StreamEvent(event.kind, text=shown)
        except Exception as exc:
            self._fail(exc, bool(tools))
        finally:
            await _close_stream(chunks)
        if not assembler.finished:
            if not assembler.has_content:  # it ended cleanly but nothing in it was a reply
                raise MalformedResponseError(
                    f"the stream carried no readable reply ({assembler.chunks} chunks)", provider=self.provider, model=self.model
                )
            raise stream_cut_error(self.provider, self.model, assembler)
        response = redact_reply(assembler.response(latency_s=time.perf_counter() - started), self._secret)
        for kind, guard in guards.items():
            if held := guard.flush():
                yield StreamEvent(kind, text=held)  # type: ignore[arg-type]
        for call_guard, last in call_guards.values():
            if held := call_guard.flush():
                yield replace(last, text=held)
        yield StreamEvent("done", response=response)


def _aiohttp_client_class() -> Any:
    """The SDK's aiohttp transport class when ``openai[aiohttp]`` is installed, else None (httpx)."""
    import openai

    client_class = getattr(openai, "DefaultAioHttpClient", None)
    if client_class is None or "Missing" in client_class.__name__:
        return None
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        return None
    return client_class


_open_clients: weakref.WeakSet[OpenAIClient] = weakref.WeakSet()
_exit_hook: list[bool] = []


def _close_at_exit() -> None:
    """Close connections still open on running loops (the sync API's core loop) when Python exits.

    A CLI run or a script that never calls ``close()`` would otherwise end with
    aiohttp's "Unclosed client session" warnings on stderr.
    """
    for client in list(_open_clients):
        for loop, sdk in list(client._by_loop.items()):
            if loop.is_running():
                try:
                    asyncio.run_coroutine_threadsafe(sdk.close(), loop).result(timeout=2)
                except Exception:  # exiting anyway: a connection that will not close is let go
                    pass
        client._by_loop.clear()


TRANSPORTS = ("auto", "lean", "lean-aiohttp", "sdk", "aiohttp", "httpx")


class OpenAIClient(CompletionsClient):
    """An ``LLMClient`` for OpenAI-compatible servers (OpenAI, DeepSeek, Qwen, Kimi, local)."""

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str,
        model: str,
        provider: str = "openai",
        timeout_s: float = 60.0,
        http_client: Any = None,
        rules: WireRules | None = None,
        key_env: str | None = None,
        transport: str = "auto",
        max_reply_bytes: int | None = None,
    ) -> None:
        """``transport``: ``lean`` (the JSON spoken directly, see ``router.clients.lean``; ``lean-aiohttp``
        forces its aiohttp engine), ``sdk`` (the openai SDK, on aiohttp when installed, else httpx), or the
        SDK on ``aiohttp`` / ``httpx``; ``auto`` is ``lean`` when its engines are installed. ``http_client``
        means the SDK with it."""
        from router.clients.lean import aiohttp_available, lean_available

        if transport not in TRANSPORTS:
            raise UsageError(f"unknown transport {transport!r} (choose from {', '.join(TRANSPORTS)})")
        install_log_redaction(*_SDK_LOGGERS)
        self._identity(
            provider=provider, model=model, base_url=base_url, timeout_s=timeout_s, api_key=api_key, rules=rules,
            key_env=key_env,
        )
        if http_client is not None:
            self.transport = "custom"
        elif (transport in ("auto", "lean") and lean_available()) or (transport == "lean-aiohttp" and aiohttp_available()):
            self.transport = "lean"
        elif transport != "httpx" and _aiohttp_client_class() is not None:
            self.transport = "aiohttp"
        else:
            self.transport = "httpx"
        self._extra_body_key = None if self.transport == "lean" else "extra_body"  # the SDK refuses unknown keywords
        self._http_client = http_client
        self._lean_engine = "aiohttp" if transport == "lean-aiohttp" else "auto"
        self._max_reply_bytes = max_reply_bytes
        self._by_loop: dict[asyncio.AbstractEventLoop, Any] = {}
        """One connection pool (SDK client or lean session) per event loop: pools belong to the loop that opened
        them, and the same client is used from the sync API's core loop and from callers' own loops."""

    def __repr__(self) -> str:
        return f"OpenAIClient(provider={self.provider!r}, model={self.model!r}, base_url={self.base_url!r})"

    def with_model(self, model: str, rules: WireRules | None = None) -> OpenAIClient:
        """This client for another model id, on the same connection pools (one per loop, owned by ``self``):
        a model a caller names ad hoc costs no pool and no descriptor. Closing the twin closes nothing."""
        twin = copy.copy(self)
        twin.model = model
        twin.rules = rules or self.rules
        twin._pool_owner = self
        return twin

    def _base_request(self) -> dict[str, Any]:
        return {"model": self.model}

    def _sdk(self) -> Any:
        loop = asyncio.get_running_loop()
        sdk = self._by_loop.get(loop)
        if sdk is None:
            for old in [old for old in self._by_loop if old.is_closed()]:
                del self._by_loop[old]  # its connections died with it
            sdk = self._connect()
            if not _exit_hook:
                atexit.register(_close_at_exit)
                _exit_hook.append(True)
            _open_clients.add(self._pool_owner or self)
            self._by_loop[loop] = sdk
        return sdk

    def _connect(self) -> Any:
        """A new connection pool for the running loop: a ``LeanChat`` or an ``AsyncOpenAI``."""
        assert self.base_url is not None
        if self.transport == "lean":
            from router.clients.lean import LeanChat

            return LeanChat(
                base_url=self.base_url, api_key=self._secret, timeout_s=self.timeout_s, key_env=self._key_env,
                engine=self._lean_engine, max_reply_bytes=self._max_reply_bytes,
            )
        import openai

        http_client = self._http_client
        if http_client is None and self.transport == "aiohttp":
            http_client = _aiohttp_client_class()()  # type: ignore[misc]
        return openai.AsyncOpenAI(
            base_url=self.base_url, api_key=self._secret, timeout=self.timeout_s, max_retries=0, http_client=http_client
        )

    async def _send(self, request: dict[str, Any]) -> Any:
        if self.transport == "lean":
            return await self._sdk().send(request)
        completions = self._sdk().chat.completions
        if request.get("stream"):
            return await completions.create(**request)
        # the body as sent, read as a plain dict: fields the SDK does not declare survive, and no model is built
        raw = await completions.with_raw_response.create(**request)
        return json.loads(raw.content)

    def _map_error(self, exc: BaseException, had_tools: bool) -> ProviderError | None:
        if self.transport == "lean":
            from router.clients.lean import map_lean_error

            return map_lean_error(exc, provider=self.provider, model=self.model, had_tools=had_tools, secret=self._secret)
        return super()._map_error(exc, had_tools)

    _pool_owner: OpenAIClient | None = None

    async def aclose(self) -> None:
        """Closes the connections of every loop this client was used on (others' from their own loop)."""
        if self._pool_owner is not None:  # a twin (``with_model``): the pools are its owner's
            return
        current = asyncio.get_running_loop()
        clients, self._by_loop = self._by_loop, {}
        for loop, sdk in clients.items():
            if loop is current:
                await sdk.close()
            elif loop.is_running():
                asyncio.run_coroutine_threadsafe(sdk.close(), loop)


__all__ = [
    "TRANSPORTS",
    "CompletionsClient",
    "OpenAIClient",
    "map_sdk_error",
    "prepare_messages",
    "response_from_completion",
    "retry_after_seconds",
    "says_tools_unsupported",
    "stream_cut_error",
]
