"""Router errors as OpenAI-style HTTP errors: a status, ``error.type``, ``error.code``, one line.

Decisions (documented in docs/server.md):

* the provider refused *the router's* key (``auth``) -> 502 ``upstream_auth_failed``: the
  caller's own key was fine, a 401 would send them looking in the wrong place;
* provider rate limits -> 429 with ``Retry-After`` when the provider gave one;
* timeouts -> 504; unavailable, malformed replies, every provider failed -> 502 / 503;
* the provider rejected the request (``bad_request``) -> 400 with its (redacted) reason;
* unknown model -> 404 ``model_not_found``; other caller mistakes -> 400;
* feedback on an unknown or expired answer id -> 404 ``answer_not_found``; on another key's answer
  -> 403 ``not_your_answer``;
* the daily USD budget is spent -> 429 ``budget_exceeded``;
* configuration problems (a missing provider key) -> 500 ``config_error``, naming the variable.

Messages are the errors' own one-line texts, which the clients already redact; a
stack trace never leaves the process.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from router.errors import (
    AllProvidersFailedError,
    BudgetExceededError,
    ConfigError,
    FeedbackRefusedError,
    MessageChainError,
    ProviderError,
    RouterError,
    UnknownAnswerError,
    UsageError,
)


@dataclass(frozen=True)
class HTTPFailure:
    status: int
    type: str
    code: str
    message: str
    param: str | None = None
    retry_after: int | None = None

    def body(self) -> dict[str, object]:
        return {"error": {"message": self.message, "type": self.type, "param": self.param, "code": self.code}}

    def headers(self) -> list[tuple[bytes, bytes]]:
        if self.retry_after is None:
            return []
        return [(b"retry-after", str(self.retry_after).encode())]


_PROVIDER = {
    "auth": (502, "upstream_error", "upstream_auth_failed"),
    "rate_limit": (429, "rate_limit_error", "upstream_rate_limited"),
    "timeout": (504, "timeout_error", "upstream_timeout"),
    "unavailable": (502, "upstream_error", "upstream_unavailable"),
    "malformed": (502, "upstream_error", "upstream_malformed_response"),
    "bad_request": (400, "invalid_request_error", "upstream_bad_request"),
}


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _retry_after(seconds: float | None) -> int | None:
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return None
    return max(1, math.ceil(seconds))


def _exhausted(exc: AllProvidersFailedError) -> HTTPFailure:
    kinds = {getattr(a, "error_kind", None) for a in exc.attempts if not getattr(a, "ok", True)}
    kinds.discard(None)
    if kinds and kinds <= {"rate_limit", "rate_limited", "cooling"}:  # upstream 429s, or every deployment at its cap
        waits = [getattr(a, "wait_s", 0.0) for a in exc.attempts]
        return HTTPFailure(429, "rate_limit_error", "upstream_rate_limited", _one_line(exc), retry_after=_retry_after(max(waits, default=1.0)) or 1)
    if kinds == {"timeout"}:
        return HTTPFailure(504, "timeout_error", "upstream_timeout", _one_line(exc))
    if kinds == {"bad_request"}:
        return HTTPFailure(400, "invalid_request_error", "upstream_bad_request", _one_line(exc))
    return HTTPFailure(503, "upstream_error", "all_providers_failed", _one_line(exc))


def model_not_found(exc: BaseException) -> bool:
    """An unknown model name: ``ModelNotFoundError`` when the core raises it, else the text."""
    if type(exc).__name__ == "ModelNotFoundError":
        return True
    text = str(exc)
    return text.startswith(("unknown provider", "unknown model", "unknown tier"))


def from_exception(exc: BaseException) -> HTTPFailure:
    if isinstance(exc, AllProvidersFailedError):
        return _exhausted(exc)
    if isinstance(exc, ProviderError):
        status, type_, code = _PROVIDER.get(exc.kind, (502, "upstream_error", "upstream_error"))
        retry = _retry_after(exc.retry_after) if exc.kind == "rate_limit" else None
        return HTTPFailure(status, type_, code, _one_line(exc), retry_after=retry)
    if isinstance(exc, MessageChainError):
        return HTTPFailure(400, "invalid_request_error", "invalid_messages", _one_line(exc), param="messages")
    if isinstance(exc, UnknownAnswerError):
        return HTTPFailure(404, "invalid_request_error", "answer_not_found", _one_line(exc), param="id")
    if isinstance(exc, FeedbackRefusedError):
        return HTTPFailure(403, "permission_error", "not_your_answer", _one_line(exc), param="id")
    if isinstance(exc, UsageError):
        if model_not_found(exc):
            return HTTPFailure(404, "invalid_request_error", "model_not_found", _one_line(exc), param="model")
        return HTTPFailure(400, "invalid_request_error", "invalid_request", _one_line(exc))
    if isinstance(exc, BudgetExceededError):
        return HTTPFailure(429, "insufficient_quota", "budget_exceeded", _one_line(exc), retry_after=3600)
    if isinstance(exc, ConfigError):
        return HTTPFailure(500, "server_error", "config_error", _one_line(exc))
    if isinstance(exc, TimeoutError):
        return HTTPFailure(504, "timeout_error", "request_timeout", "the request took longer than the server's deadline")
    if isinstance(exc, RouterError):
        return HTTPFailure(500, "server_error", "router_error", _one_line(exc))
    return HTTPFailure(500, "server_error", "internal_error", f"internal error ({type(exc).__name__}); see the server log")


def failure(status: int, message: str, *, code: str, type: str = "invalid_request_error", param: str | None = None,
            retry_after: int | None = None) -> HTTPFailure:
    return HTTPFailure(status, type, code, message, param, retry_after)


__all__ = ["HTTPFailure", "failure", "from_exception", "model_not_found"]
