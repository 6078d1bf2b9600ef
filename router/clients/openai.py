"""``OpenAIClient``: any OpenAI-compatible endpoint through the official SDK.

The SDK is imported in the constructor so ``import router`` stays cheap. SDK
retries are off: retrying and falling back is ``resilience.py``'s job, and two
retry layers would multiply waits. The normalisation and error-mapping helpers
here are shared with ``LiteLLMClient`` (litellm's objects and exceptions are
shaped like, and subclass, the SDK's).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from email.utils import parsedate_to_datetime
from typing import Any, NoReturn

from router.clients.streaming import StreamAssembler, generated_call_id, usage_from
from router.errors import (
    AuthenticationError,
    BadRequestError,
    MalformedResponseError,
    ProviderError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    RateLimitError,
    RouterError,
    ToolsUnsupportedError,
)
from router.redaction import install_log_redaction, redact, register_secret, scrub_exception
from router.types import AssistantMessage, ChatResponse, StreamEvent, ToolCall, Usage

_SDK_LOGGERS = ("openai", "openai._base_client", "httpx", "httpx2", "httpcore")
_MAX_DETAIL = 300

# --- outgoing -----------------------------------------------------------------------------


def prepare_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages as sent: an assistant turn with tool_calls carries ``content: ""``, never null.

    Copies only when something changes, so the common case costs one scan.
    """
    out = messages
    for i, message in enumerate(messages):
        if message.get("role") == "assistant" and message.get("tool_calls") and message.get("content") is None:
            if out is messages:
                out = list(messages)
            out[i] = {**message, "content": ""}
    return out


# --- incoming -----------------------------------------------------------------------------


def _extra(obj: Any, name: str) -> Any:
    """A field the SDK does not declare (``reasoning_content``) from attributes or model_extra."""
    value = getattr(obj, name, None)
    if value is None:
        extra = getattr(obj, "model_extra", None)
        if isinstance(extra, dict):
            value = extra.get(name)
    return value


def response_from_completion(
    completion: Any, *, provider: str, model: str, latency_s: float
) -> ChatResponse:
    """A ChatCompletion-shaped object (openai or litellm) as a ``ChatResponse``."""
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list) or not choices:
        shown = type(completion).__name__
        raise MalformedResponseError(f"reply has no choices (got {shown})", provider=provider, model=model)
    choice = choices[0]
    message = getattr(choice, "message", None)
    if message is None:
        raise MalformedResponseError("reply choice has no message", provider=provider, model=model)
    calls = tuple(
        ToolCall(
            id=call.id or generated_call_id(),
            name=call.function.name or "",
            arguments=call.function.arguments if (call.function.arguments or "").strip() else "{}",
        )
        for i, call in enumerate(getattr(message, "tool_calls", None) or ())
    )
    content = message.content
    if content is None and calls:
        content = ""
    reasoning = _extra(message, "reasoning_content") or _extra(message, "reasoning")
    return ChatResponse(
        message=AssistantMessage(
            content=content,
            tool_calls=calls,
            reasoning_content=reasoning if isinstance(reasoning, str) and reasoning else None,
        ),
        finish_reason=getattr(choice, "finish_reason", None) or ("tool_calls" if calls else "stop"),
        usage=usage_from(getattr(completion, "usage", None)) or Usage(),
        model=str(getattr(completion, "model", "") or model),
        provider=provider,
        latency_s=latency_s,
    )


# --- errors -------------------------------------------------------------------------------

_TOOLS_UNSUPPORTED = re.compile(
    r"(?:tools?|functions?|tool_choice|function[ _]calling)\b[^.]{0,40}?(?:not supported|unsupported|not allowed|not permitted)"
    r"|(?:not support|unsupported)\w*[^.]{0,20}?\b(?:tools?|functions?|tool_choice|function[ _]calling)\b"
    r"|unrecognized request argument[^.]{0,20}?\b(?:tools|functions|tool_choice)\b"
    r"|enable-auto-tool-choice"  # vLLM started without tool parsing
    r"|no endpoints found that support tool"  # OpenRouter, with a 404
    r"|tools? param\w* requires --jinja",  # llama.cpp server without a tool-capable template
    re.IGNORECASE,
)


def says_tools_unsupported(text: str) -> bool:
    """Whether an error text is a server refusing function calling (not a bad tool schema)."""
    return bool(_TOOLS_UNSUPPORTED.search(text))


def retry_after_seconds(headers: Any) -> float | None:
    """Retry-After as seconds: ``retry-after-ms``, delta-seconds, or an HTTP date."""
    if headers is None:
        return None
    try:
        millis = headers.get("retry-after-ms")
        if millis is not None:
            return max(0.0, float(millis) / 1000)
        value = headers.get("retry-after")
    except (AttributeError, TypeError, ValueError):
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(str(value)).timestamp() - time.time())
    except (TypeError, ValueError, IndexError):
        return None


def _detail(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        message = error.get("message") if isinstance(error, dict) else error
        if message:
            return str(message)
    return str(getattr(exc, "message", None) or exc) or type(exc).__name__


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _MAX_DETAIL else text[: _MAX_DETAIL - 1] + "…"


def _from_status(exc: Any, status: int, had_tools: bool, clean: Any, where: dict[str, Any]) -> ProviderError:
    detail = clean(_detail(exc))
    text = f"HTTP {status}: {detail}"
    if status in (401, 403):
        return AuthenticationError(text, status=status, **where)
    if status == 429:
        headers = getattr(getattr(exc, "response", None), "headers", None)
        wait = retry_after_seconds(headers)
        if wait is None:
            wait = retry_after_seconds(getattr(exc, "headers", None))
        return RateLimitError(text, status=status, retry_after=wait, **where)
    if status == 408:
        return ProviderTimeoutError(text, status=status, **where)
    if status >= 500:
        return ProviderUnavailableError(text, status=status, **where)
    if had_tools and status in (400, 404, 422) and says_tools_unsupported(
        _detail(exc) + " " + json.dumps(getattr(exc, "body", None), default=str)
    ):
        return ToolsUnsupportedError(text, status=status, **where)
    return BadRequestError(text, status=status, **where)


def map_sdk_error(
    exc: BaseException, *, provider: str, model: str, had_tools: bool, secret: str | None
) -> ProviderError | None:
    """The ``router.errors`` equivalent of an openai / litellm / httpx exception (None: not ours)."""
    if isinstance(exc, RouterError):
        return None
    import openai

    def clean(text: str) -> str:
        return _clip(redact(text, secret))

    where: dict[str, Any] = {"provider": provider, "model": model}
    cause = exc.__cause__ or exc.__context__
    because = f" ({type(cause).__name__}: {clean(str(cause))})" if cause is not None and str(cause) else ""
    if isinstance(exc, openai.APITimeoutError):
        return ProviderTimeoutError(clean(f"request timed out: {_detail(exc)}"), **where)
    if isinstance(exc, openai.APIResponseValidationError):
        return MalformedResponseError(clean(f"reply did not match the expected schema: {_detail(exc)}"), **where)
    status = getattr(exc, "status_code", None)
    if isinstance(exc, openai.APIStatusError) or (isinstance(exc, openai.APIError) and isinstance(status, int) and status >= 400):
        return _from_status(exc, int(status or 0), had_tools, clean, where)
    if isinstance(exc, openai.APIConnectionError):
        return ProviderUnavailableError(clean(f"connection failed: {_detail(exc)}") + because, **where)
    module = type(exc).__module__
    if module.startswith(("httpx", "httpcore")):
        kind = ProviderTimeoutError if "Timeout" in type(exc).__name__ else ProviderUnavailableError
        return kind(clean(f"{type(exc).__name__}: {exc}"), **where)
    if isinstance(exc, ValueError):  # JSONDecodeError, pydantic ValidationError: an unreadable body
        return MalformedResponseError(clean(f"unreadable reply: {type(exc).__name__}: {exc}"), **where)
    if isinstance(exc, openai.APIError):
        return ProviderUnavailableError(clean(f"{type(exc).__name__}: {_detail(exc)}") + because, **where)
    return None


def raise_mapped(exc: BaseException, *, provider: str, model: str, had_tools: bool, secret: str | None) -> NoReturn:
    """Re-raise ``exc`` as a router error chained to it (scrubbed of secrets first)."""
    error = map_sdk_error(exc, provider=provider, model=model, had_tools=had_tools, secret=secret)
    scrub_exception(exc, secret)
    if error is None:
        raise exc
    raise error from exc


def stream_cut_error(provider: str, model: str, assembler: StreamAssembler) -> ProviderUnavailableError:
    return ProviderUnavailableError(
        f"stream ended before the reply was complete (after {assembler.chunks} chunks, no finish_reason)",
        provider=provider,
        model=model,
    )


# --- the client ---------------------------------------------------------------------------


class CompletionsClient:
    """``chat`` / ``stream`` over any ``create(**request)`` returning ChatCompletion-shaped objects.

    The OpenAI SDK and litellm differ only in how a request is built (``_request``),
    sent (``_create``) and how their errors map (``_raise``); timing, normalising and
    stream assembly are the same and live here once.
    """

    provider: str
    model: str

    def _request(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, options: dict[str, Any]
    ) -> dict[str, Any]:
        raise NotImplementedError

    def _create(self, **request: Any) -> Any:
        raise NotImplementedError

    def _raise(self, exc: BaseException, had_tools: bool) -> NoReturn:
        raise NotImplementedError

    def chat(
        self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None, **options: Any
    ) -> ChatResponse:
        request = self._request(messages, tools, options)
        started = time.perf_counter()
        try:
            completion = self._create(**request)
        except Exception as exc:
            self._raise(exc, bool(tools))
        return response_from_completion(
            completion, provider=self.provider, model=self.model, latency_s=time.perf_counter() - started
        )

    def stream(
        self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None, **options: Any
    ) -> Iterator[StreamEvent]:
        request = self._request(messages, tools, options)
        request["stream"] = True
        request.setdefault("stream_options", {"include_usage": True})
        started = time.perf_counter()
        assembler = StreamAssembler(provider=self.provider, model=self.model)
        try:
            chunks = self._create(**request)
        except Exception as exc:
            self._raise(exc, bool(tools))
        try:
            for chunk in chunks:
                yield from assembler.add_chunk(chunk)
        except Exception as exc:
            self._raise(exc, bool(tools))
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()  # a caller that stops early releases the connection now
        if not assembler.finished:
            raise stream_cut_error(self.provider, self.model, assembler)
        yield assembler.done_event(latency_s=time.perf_counter() - started)


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
        **options: Any,
    ) -> None:
        import openai

        install_log_redaction(*_SDK_LOGGERS)
        register_secret(api_key)
        self.provider = provider
        self.model = model
        self.base_url = base_url
        self.timeout_s = timeout_s
        self.options = options
        """Sent with every request (temperature, ...); per-call options win."""
        self._secret = api_key
        self._sdk = openai.OpenAI(
            base_url=base_url, api_key=api_key, timeout=timeout_s, max_retries=0, http_client=http_client
        )
        self._completions = self._sdk.chat.completions

    def __repr__(self) -> str:
        return f"OpenAIClient(provider={self.provider!r}, model={self.model!r}, base_url={self.base_url!r})"

    def _request(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, options: dict[str, Any]
    ) -> dict[str, Any]:
        request = {"model": self.model, "messages": prepare_messages(messages), **self.options, **options}
        if tools:
            request["tools"] = tools
        return request

    def _raise(self, exc: BaseException, had_tools: bool) -> NoReturn:
        raise_mapped(exc, provider=self.provider, model=self.model, had_tools=had_tools, secret=self._secret)

    def _create(self, **request: Any) -> Any:
        return self._completions.create(**request)

    def close(self) -> None:
        self._sdk.close()


__all__ = [
    "CompletionsClient",
    "OpenAIClient",
    "map_sdk_error",
    "prepare_messages",
    "raise_mapped",
    "response_from_completion",
    "retry_after_seconds",
    "says_tools_unsupported",
]
