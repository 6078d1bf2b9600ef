"""openai / litellm / httpx / aiohttp exceptions as ``router.errors``, with the provider's real reason.

Both HTTP clients map through ``map_sdk_error`` (litellm's exceptions subclass the
SDK's), so the same server fault is the same router error whichever client met
it. The one-line message carries what the server said (``HTTP 400: maximum
context length is 16385 tokens``), scrubbed of the key, including from bodies
that are JSON lists (Gemini: ``[{"error": {...}}]``). Some texts change the
class: "tools unsupported" (even as a 5xx: llama.cpp without ``--jinja``), a
context window exceeded, a stream-only model, and a key that cannot be sent as a
header because it ends with a newline.
"""

from __future__ import annotations

import ast
import json
import re
import time
from email.utils import parsedate_to_datetime
from typing import Any

from router.errors import (
    AuthenticationError,
    BadRequestError,
    ContentPolicyError,
    ContextWindowExceededError,
    MalformedResponseError,
    ProviderError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    RateLimitError,
    RouterError,
    StreamOnlyError,
    ToolsUnsupportedError,
)
from router.redaction import redact

_MAX_DETAIL = 300

_TOOLS_UNSUPPORTED = re.compile(
    r"(?:tools?|functions?|tool_choice|function[ _]calling)\b[^.]{0,40}?(?:not supported|unsupported|not allowed|not permitted)"
    r"|(?:not support|unsupported)\w*[^.]{0,20}?\b(?:tools?|functions?|tool_choice|function[ _]calling)\b"
    r"|unrecognized request argument[^.]{0,20}?\b(?:tools|functions|tool_choice)\b"
    r"|enable-auto-tool-choice"  # vLLM started without tool parsing
    r"|no endpoints found that support tool"  # OpenRouter, with a 404
    r"|tools? param\w* requires --jinja",  # llama.cpp server without a tool-capable template (HTTP 500)
    re.IGNORECASE,
)
_CONTEXT_EXCEEDED = re.compile(
    r"context_length_exceeded|maximum context length|context (?:length|window) (?:is )?exceeded"
    r"|exceeds? (?:the )?(?:model'?s? )?(?:maximum )?(?:context|input) (?:length|window|limit)"
    r"|exceeded model token limit"  # Kimi
    r"|range of input length should be"  # Qwen / DashScope
    r"|input (?:length|tokens?) (?:is too long|exceeds)|prompt is too long|too many (?:input )?tokens",
    re.IGNORECASE,
)
_CONTENT_POLICY = re.compile(
    r"content_policy_violation|content[ _]management[ _]policy|content[ _]filter|responsibleaipolicyviolation"
    r"|data_inspection_failed|inappropriate content|violat\w* (?:our |the )?(?:usage|content) polic",
    re.IGNORECASE,
)
_STREAM_ONLY = re.compile(r"only supports? stream(?:ing)?(?: mode)?|stream mode only|requires? stream(?:ing)? mode", re.IGNORECASE)
_ILLEGAL_HEADER = re.compile(
    r"illegal header value|invalid header value|newline or carriage return|control character detected in header"
    r"|header injection",
    re.IGNORECASE,
)
_WRAPPER_PREFIX = re.compile(r"^(?:(?:litellm\.)?\w*(?:Error|Exception)\s*[-:]\s*)+")
"""litellm's chain of class names before the server's words (``litellm.BadRequestError: OpenAIException - ...``)."""
_SDK_PREFIX = re.compile(r"Error code: \d{3} - (?P<body>[\[{].*)$", re.DOTALL)


def says_tools_unsupported(text: str) -> bool:
    """Whether an error text is a server refusing function calling (not a bad tool schema)."""
    return bool(_TOOLS_UNSUPPORTED.search(text))


def says_context_exceeded(text: str) -> bool:
    return bool(_CONTEXT_EXCEEDED.search(text))


def says_content_policy(text: str) -> bool:
    """OpenAI / Azure ``content_policy_violation``, DashScope ``data_inspection_failed`` and the like."""
    return bool(_CONTENT_POLICY.search(text))


def says_stream_only(text: str) -> bool:
    return bool(_STREAM_ONLY.search(text))


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


def message_of(body: Any) -> str | None:
    """The human message in an error body: ``{"error": {"message"}}``, a list of those, or a bare string."""
    if isinstance(body, list):
        for item in body:
            found = message_of(item)
            if found:
                return found
        return None
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict):
            message = error.get("message") or error.get("msg") or error.get("detail")
            return str(message) if message else None
        return str(error) if error else None
    if isinstance(body, str) and body.strip():
        return body
    return None


def _body_in_text(text: str) -> Any:
    """The body the openai SDK printed into its message (``Error code: 400 - [{'error': ...}]``)."""
    match = _SDK_PREFIX.search(text)
    if match is None:
        return None
    raw = match.group("body").strip()
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(raw)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
    return None


def strip_wrappers(text: str) -> str:
    """The server's words without litellm's chain of exception names in front."""
    return _WRAPPER_PREFIX.sub("", text) or text


def error_detail(exc: BaseException) -> str:
    """What the server said, as text (never just "Error code: 400")."""
    found = message_of(getattr(exc, "body", None))
    if found:
        return found
    text = str(getattr(exc, "message", None) or exc)
    found = message_of(_body_in_text(text))
    if found:
        return found
    return strip_wrappers(text) or type(exc).__name__


def clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _MAX_DETAIL else text[: _MAX_DETAIL - 1] + "…"


def key_problem(secret: str | None) -> str | None:
    """Why a key cannot go into an HTTP header, in words (never the key)."""
    if not secret:
        return None
    if secret.rstrip("\r\n") != secret:
        return "ends with a newline"
    if secret.strip() != secret:
        return "starts or ends with whitespace"
    if any(ord(c) < 32 or ord(c) == 127 for c in secret):
        return "contains a control character"
    return None


def status_error(
    status: int, detail: str, body: Any, headers: Any, *, had_tools: bool, clean: Any, where: dict[str, Any]
) -> ProviderError:
    """An HTTP error reply as a router error: the status decides, some texts change the class.

    ``detail`` is what the server said, ``body`` its parsed error object (searched for
    the telltale texts too), ``headers`` the reply's (for Retry-After). Shared by the
    SDK path and the lean transport, so one fault maps one way whichever client met it.
    """
    text = f"HTTP {status}: {clean(detail)}"
    searchable = detail + " " + json.dumps(body, default=str)
    if status in (401, 403):
        return AuthenticationError(text, status=status, **where)
    if status == 429:
        return RateLimitError(text, status=status, retry_after=retry_after_seconds(headers), **where)
    if status == 408:
        return ProviderTimeoutError(text, status=status, **where)
    # before the 5xx rule: llama.cpp refuses tools with a 500, and retrying that never helps
    if had_tools and (status in (400, 404, 422) or status >= 500) and says_tools_unsupported(searchable):
        return ToolsUnsupportedError(text, status=status, **where)
    if status in (400, 413, 422) and says_context_exceeded(searchable):
        return ContextWindowExceededError(text, status=status, **where)
    if status in (400, 422) and says_content_policy(searchable):
        return ContentPolicyError(text, status=status, **where)
    if status == 400 and says_stream_only(searchable):
        return StreamOnlyError(text, status=status, **where)
    if status >= 500:
        return ProviderUnavailableError(text, status=status, **where)
    return BadRequestError(text, status=status, **where)


def _from_status(exc: Any, status: int, had_tools: bool, clean: Any, where: dict[str, Any]) -> ProviderError:
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if status == 429 and retry_after_seconds(headers) is None:
        headers = getattr(exc, "headers", None)
    return status_error(
        status, error_detail(exc), getattr(exc, "body", None), headers, had_tools=had_tools, clean=clean, where=where
    )


def _connection_failure(exc: BaseException) -> BaseException | None:
    """A refused or reset connection somewhere in the cause chain (not a timeout, whatever the wrapper says)."""
    seen = 0
    current: BaseException | None = exc
    while current is not None and seen < 8:
        if isinstance(current, (ConnectionRefusedError, ConnectionResetError, ConnectionAbortedError, BrokenPipeError)):
            return current
        if type(current).__name__ in ("ServerDisconnectedError", "ClientOSError") and not isinstance(current, TimeoutError):
            return current
        current = current.__cause__ or current.__context__
        seen += 1
    return None


def map_sdk_error(
    exc: BaseException,
    *,
    provider: str,
    model: str,
    had_tools: bool,
    secret: str | None,
    key_env: str | None = None,
) -> ProviderError | None:
    """The ``router.errors`` equivalent of an openai / litellm / httpx exception (None: not ours)."""
    if isinstance(exc, RouterError):
        return None
    import openai

    def clean(text: str) -> str:
        return clip(redact(text, secret))

    where: dict[str, Any] = {"provider": provider, "model": model}
    status = getattr(exc, "status_code", None)
    is_status = isinstance(exc, openai.APIStatusError) or (
        isinstance(exc, openai.APIError) and isinstance(status, int) and status >= 400
    )
    problem = key_problem(secret)
    if problem:  # the header could not be sent: the SDKs word it many ways (litellm even as a 500)
        chain = f"{exc} {exc.__cause__ or ''} {exc.__context__ or ''}"
        if _ILLEGAL_HEADER.search(chain) or (not is_status and isinstance(exc, openai.APIConnectionError)):
            holder = f"the key in {key_env}" if key_env else "the API key"
            return AuthenticationError(f"illegal header value: {holder} {problem}", **where)
    cause = exc.__cause__ or exc.__context__
    because = f" ({type(cause).__name__}: {clean(str(cause))})" if cause is not None and str(cause) else ""
    refused = _connection_failure(exc)
    if refused is not None:  # the aiohttp transport reports a refused or reset connection as ConnectTimeout
        return ProviderUnavailableError(clean(f"connection failed: {type(refused).__name__}: {refused}"), **where)
    if isinstance(exc, openai.APITimeoutError):
        return ProviderTimeoutError(clean(f"request timed out: {error_detail(exc)}"), **where)
    if isinstance(exc, openai.APIResponseValidationError):
        return MalformedResponseError(clean(f"reply did not match the expected schema: {error_detail(exc)}"), **where)
    if is_status:
        return _from_status(exc, int(status or 0), had_tools, clean, where)
    if isinstance(exc, openai.APIConnectionError):
        return ProviderUnavailableError(clean(f"connection failed: {error_detail(exc)}") + because, **where)
    module = type(exc).__module__
    if module.startswith(("httpx", "httpcore", "aiohttp")):
        kind = ProviderTimeoutError if "Timeout" in type(exc).__name__ else ProviderUnavailableError
        return kind(clean(f"{type(exc).__name__}: {exc}"), **where)
    if isinstance(exc, (ValueError, AttributeError, KeyError, TypeError, IndexError)):
        # JSONDecodeError, pydantic ValidationError, an SDK tripping over an odd shape: an unreadable body
        return MalformedResponseError(clean(f"unreadable reply: {type(exc).__name__}: {exc}"), **where)
    if isinstance(exc, openai.APIError):
        return ProviderUnavailableError(clean(f"{type(exc).__name__}: {error_detail(exc)}") + because, **where)
    return None


__all__ = [
    "clip",
    "error_detail",
    "key_problem",
    "map_sdk_error",
    "message_of",
    "retry_after_seconds",
    "says_context_exceeded",
    "says_stream_only",
    "says_tools_unsupported",
    "status_error",
    "strip_wrappers",
]
