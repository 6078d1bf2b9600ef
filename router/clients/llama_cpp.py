"""An in-process ``LLMClient`` over llama.cpp: a real model with no server and no key.

It exists so a user without any API key still gets a real answer (the embedded
provider ends the default chain). Three things shape it:

* ``llama_cpp`` is imported when a client is built, never at import time, so
  ``import router`` stays cheap and the extra stays optional.
* Loading a GGUF costs real time and memory, so each model is loaded once per
  process (keyed by path and load settings) and shared by every client; a lock
  per model serialises generation because a ``Llama`` object is not re-entrant.
* The core is async but llama.cpp blocks: ``achat`` runs generation in a worker
  thread (``asyncio.to_thread``) and ``astream`` hands each chunk from that
  thread to the event loop, so the loop never stalls on a model; the per-model
  lock still lets only one thread use a model at a time.
* The tiny default model cannot be trusted to *choose* tools, so ``tools`` is
  refused with ``ToolsUnsupportedError`` (the loop then falls back to its text
  ReAct protocol) unless ``tool_choice`` forces one function: then llama.cpp
  constrains the output with a grammar built from the JSON schema, so the call
  is well-formed whatever the model's quality.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import threading
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

from router.clients.base import Messages, SyncClient, Tools
from router.clients.local_model import INSTALL_HINT, embedded_model_path, missing_model_message
from router.errors import BadRequestError, ConfigError, ProviderUnavailableError, ToolsUnsupportedError
from router.types import AssistantMessage, ChatResponse, RequestOptions, StreamEvent, ToolCall, Usage

log = logging.getLogger(__name__)

# Options the caller may set per request (RequestOptions fields, or extra_body), mapped onto create_chat_completion.
_PASSED_OPTIONS = frozenset(
    {"temperature", "max_tokens", "seed", "stop", "top_p", "top_k", "min_p", "repeat_penalty",
     "presence_penalty", "frequency_penalty", "response_format"}
)
# Options other clients understand that mean nothing in-process; dropped quietly.
_IGNORED_OPTIONS = frozenset({"timeout", "timeout_s", "parallel_tool_calls", "user", "n", "stream_options", "model"})


@dataclass
class _LoadedModel:
    llama: Any
    lock: threading.Lock
    load_s: float


_models: dict[tuple[str, int, int, int | None], _LoadedModel] = {}
_models_lock = threading.Lock()


def close_models() -> None:
    """Frees every cached model.

    Registered with atexit: left to ``Llama.__del__`` at interpreter shutdown,
    the C handles are freed after llama_cpp's module globals are gone, which
    prints an ignored TypeError on exit.
    """
    with _models_lock:
        loaded = list(_models.values())
        _models.clear()
    for model in loaded:
        # A generation still running in another thread keeps its model: better than hanging exit.
        if model.lock.acquire(timeout=5):
            try:
                model.llama.close()
            finally:
                model.lock.release()


def _import_llama_cpp() -> Any:
    try:
        import llama_cpp
    except ImportError as exc:
        raise ConfigError(f"llama-cpp-python is not installed: install it with `{INSTALL_HINT}`") from exc
    return llama_cpp


def load_model(path: str, *, n_ctx: int = 2048, seed: int = 0, n_threads: int | None = None) -> _LoadedModel:
    """The cached ``Llama`` for these settings, loading it on first use."""
    key = (os.path.realpath(path), n_ctx, seed, n_threads)
    with _models_lock:
        cached = _models.get(key)
        if cached is not None:
            return cached
        llama_cpp = _import_llama_cpp()
        if not os.path.isfile(path):
            raise ConfigError(f"local model file not found: {path} ({missing_model_message()})")
        started = time.perf_counter()
        try:
            llama = llama_cpp.Llama(
                model_path=path, n_ctx=n_ctx, seed=seed, n_threads=n_threads, n_threads_batch=n_threads, verbose=False
            )
        except (ValueError, RuntimeError, OSError) as exc:
            raise ConfigError(f"cannot load local model {path}: {exc}") from exc
        loaded = _LoadedModel(llama, threading.Lock(), time.perf_counter() - started)
        if not _models:
            atexit.register(close_models)
        _models[key] = loaded
        return loaded


def _text_of(content: Any) -> str:
    """Chat templates concatenate strings, so None and content-part lists become text."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content)


def to_llama_messages(messages: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Renders a history for a template that knows only system/user/assistant text.

    The caller's history is not changed; this is only what the model reads.
    Tool calls and results (present only if the history came from another
    provider) are spelled out as text so nothing silently disappears.
    """
    rendered: list[dict[str, str]] = []
    for message in messages:
        role = message.get("role", "user")
        text = _text_of(message.get("content"))
        if role == "assistant" and message.get("tool_calls"):
            calls = "; ".join(
                f"{call['function']['name']}({call['function'].get('arguments', '')})" for call in message["tool_calls"]
            )
            text = f"{text}\n[called tools: {calls}]".strip()
        elif role == "tool":
            role, text = "user", f"[tool result {message.get('tool_call_id', '')}]: {text}"
        elif role not in ("system", "user", "assistant"):
            role = "user"
        rendered.append({"role": role, "content": text})
    return rendered


def _forced_tool_name(tool_choice: Any) -> str | None:
    if isinstance(tool_choice, dict):
        function = tool_choice.get("function")
        if isinstance(function, dict) and function.get("name"):
            return str(function["name"])
    return None


class LlamaCppClient(SyncClient):
    """``LLMClient`` running a GGUF model in this process (default: the bundled SmolLM2)."""

    def __init__(
        self,
        model_path: str | None = None,
        *,
        provider: str = "embedded",
        model: str = "SmolLM2-135M-Instruct",
        n_ctx: int = 2048,
        seed: int = 0,
        n_threads: int | None = None,
        temperature: float = 0.0,
        max_tokens: int = 256,
        reuse_prefix: bool = True,
    ) -> None:
        path = model_path or embedded_model_path()
        if not path:
            raise ConfigError(missing_model_message())
        self.model_path = os.path.expanduser(path)
        self.provider = provider
        self.model = model
        self.seed = seed
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.reuse_prefix = reuse_prefix
        self._loaded = load_model(self.model_path, n_ctx=n_ctx, seed=seed, n_threads=n_threads)

    def __repr__(self) -> str:
        return f"LlamaCppClient(provider={self.provider!r}, model={self.model!r}, model_path={self.model_path!r})"

    @property
    def load_s(self) -> float:
        """Seconds loading this model took; measured once per process, shared by clients of the same model."""
        return self._loaded.load_s

    # -- request building ---------------------------------------------------

    def _request(self, messages: Messages, tools: Tools, request_options: RequestOptions | None) -> dict[str, Any]:
        options: dict[str, Any] = {}
        if request_options is not None:
            options.update(request_options.to_kwargs(with_tools=bool(tools)))
            options.update(request_options.extra_body)
        tool_choice = options.pop("tool_choice", None)
        request: dict[str, Any] = {
            "messages": to_llama_messages(messages),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
        }
        if tools:
            forced = _forced_tool_name(tool_choice)
            if forced is None:
                raise ToolsUnsupportedError(
                    "the embedded small model cannot be trusted to choose tools; use the text ReAct protocol",
                    provider=self.provider,
                    model=self.model,
                )
            request["tools"] = tools
            request["tool_choice"] = {"type": "function", "function": {"name": forced}}
        for name, value in options.items():
            if name in _PASSED_OPTIONS:
                if value is not None:
                    request[name] = value
            elif name not in _IGNORED_OPTIONS:
                log.debug("LlamaCppClient ignores option %r", name)
        return request

    def _error(self, exc: Exception) -> Exception:
        message = f"llama.cpp: {exc}"
        if isinstance(exc, ValueError):  # context overflow, unknown forced tool, bad grammar
            return BadRequestError(message, provider=self.provider, model=self.model)
        return ProviderUnavailableError(message, provider=self.provider, model=self.model)

    def _fresh_context(self) -> None:
        """Forget the previous request's KV cache unless prefix reuse is on.

        Reuse is what makes a tool loop affordable on a CPU: each step's prompt
        extends the last one, so only the new tokens are read (prompt reading,
        not generation, dominates here). Its price: a prompt read in different
        batches gets logits that differ in the last bits, enough to flip a
        near-tie, so the same request at temperature 0 may answer differently
        depending on what this process asked just before. A run is still
        reproducible from a fresh process; ``reuse_prefix=False`` makes every
        single request reproducible instead.
        """
        if not self.reuse_prefix:
            self._loaded.llama.reset()

    # -- LLMClient ----------------------------------------------------------

    async def achat(self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None) -> ChatResponse:
        request = self._request(messages, tools, options)
        return await asyncio.to_thread(self._chat_blocking, request)

    def _chat_blocking(self, request: dict[str, Any]) -> ChatResponse:
        started = time.perf_counter()
        with self._loaded.lock:
            self._fresh_context()
            try:
                completion = self._loaded.llama.create_chat_completion(**request)
            except (ValueError, RuntimeError) as exc:
                raise self._error(exc) from exc
        return self._response(completion, time.perf_counter() - started)

    def _response(self, completion: dict[str, Any], latency_s: float) -> ChatResponse:
        choice = completion["choices"][0]
        message = choice.get("message") or {}
        calls = tuple(
            ToolCall(id=call["id"], name=call["function"]["name"], arguments=call["function"].get("arguments") or "")
            for call in message.get("tool_calls") or ()
        )
        usage = completion.get("usage") or {}
        return ChatResponse(
            AssistantMessage(content=message.get("content") or "", tool_calls=calls),
            finish_reason=choice.get("finish_reason") or "stop",
            usage=Usage(
                usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0), usage.get("total_tokens", 0)
            ),
            model=self.model,
            provider=self.provider,
            latency_s=latency_s,
        )

    async def astream(
        self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        """Generation runs in a worker thread; its events cross to this loop one by one.

        A caller that stops early sets ``stop``: the thread ends at the next token
        and releases the model's lock before this generator finishes closing.
        """
        request = self._request(messages, tools, options)
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        stop = threading.Event()

        def hand_over(kind: str, item: Any) -> None:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, (kind, item))
            except RuntimeError:  # the loop is gone: nobody is listening
                stop.set()

        def produce() -> None:
            try:
                for event in self._stream(request, stop):
                    hand_over("event", event)
                    if stop.is_set():
                        break
            except BaseException as exc:  # handed to the consumer, re-raised there
                hand_over("error", exc)
            else:
                hand_over("end", None)

        worker = asyncio.ensure_future(asyncio.to_thread(produce))
        try:
            while True:
                kind, item = await queue.get()
                if kind == "error":
                    raise item
                if kind == "end":
                    return
                yield item
        finally:
            stop.set()
            await asyncio.shield(worker)

    def _stream(self, request: dict[str, Any], stop: threading.Event) -> Iterator[StreamEvent]:
        started = time.perf_counter()
        text: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        finish_reason: str | None = None
        chunk_count = 0
        llama = self._loaded.llama
        # Held until the generator finishes or is closed: llama.cpp state is per model.
        with self._loaded.lock:
            self._fresh_context()
            try:
                for chunk in llama.create_chat_completion(stream=True, **request):
                    if stop.is_set():
                        return  # the caller stopped listening; closing the generator frees the model
                    choice = chunk["choices"][0]
                    delta = choice.get("delta") or {}
                    finish_reason = choice.get("finish_reason") or finish_reason
                    piece = delta.get("content")
                    if piece:
                        chunk_count += 1
                        text.append(piece)
                        yield StreamEvent("text", text=piece)
                    for fragment in delta.get("tool_calls") or ():
                        index = fragment.get("index", 0)
                        call = calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
                        function = fragment.get("function") or {}
                        call["id"] = fragment.get("id") or call["id"]
                        call["name"] = function.get("name") or call["name"]
                        call["arguments"] += function.get("arguments") or ""
                        yield StreamEvent(
                            "tool_call",
                            index=index,
                            tool_call_id=fragment.get("id"),
                            name=function.get("name"),
                            text=function.get("arguments") or "",
                        )
            except (ValueError, RuntimeError) as exc:
                raise self._error(exc) from exc
            context_tokens = int(getattr(llama, "n_tokens", 0))
        content = "".join(text)
        tool_calls = tuple(ToolCall(c["id"], c["name"], c["arguments"]) for _, c in sorted(calls.items()))
        # llama.cpp streams one token per content chunk but sends no usage block; the
        # context then holds prompt + generated tokens (the last one unevaluated when cut by length).
        completion_tokens = chunk_count or sum(max(1, len(c.arguments) // 4) for c in tool_calls)
        prompt_tokens = max(0, context_tokens - completion_tokens + (1 if finish_reason == "length" else 0))
        response = ChatResponse(
            AssistantMessage(content=content, tool_calls=tool_calls),
            finish_reason=finish_reason or "stop",
            usage=Usage(prompt_tokens, completion_tokens, prompt_tokens + completion_tokens),
            model=self.model,
            provider=self.provider,
            latency_s=time.perf_counter() - started,
        )
        yield StreamEvent("done", response=response)


__all__ = ["LlamaCppClient", "close_models", "load_model", "to_llama_messages"]
