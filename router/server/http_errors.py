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
* configuration problems (a missing provider key, every candidate without a key) -> 500
  ``gateway_misconfigured``, naming the variable, with ``x-should-retry: false`` (the SDKs
  retry a 500 otherwise: three tries of a request that cannot succeed);
* every candidate rate-limited -> 429 with the longest ``Retry-After`` a provider gave.

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
    MissingAPIKeyError,
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
    final: bool = False
    """Retrying will not help (the gateway is misconfigured): ``x-should-retry: false``, which the openai and
    anthropic SDKs obey instead of retrying a 5xx."""

    def body(self) -> dict[str, object]:
        return {"error": {"message": self.message, "type": self.type, "param": self.param, "code": self.code}}

    def headers(self) -> list[tuple[bytes, bytes]]:
        headers = []
        if self.retry_after is not None:
            headers.append((b"retry-after", str(self.retry_after).encode()))
        if self.final:
            headers.append((b"x-should-retry", b"false"))
        return headers


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


_RATE_LIMITED = frozenset({"rate_limit", "rate_limited", "cooling"})
"""The provider's 429, the client-side limit's skip, a deployment cooling down after one."""
_UNCONFIGURED = frozenset({"no_key", "not_installed", "config"})
"""Candidates the gateway itself cannot call: its operator has to act, not the caller."""


def _exhausted(exc: AllProvidersFailedError) -> HTTPFailure:
    kinds = {getattr(a, "error_kind", None) for a in exc.attempts if not getattr(a, "ok", True)}
    kinds.discard(None)
    if kinds and kinds <= _RATE_LIMITED:  # upstream 429s, client-side limits, or every deployment at its cap
        # the longest wait any provider asked for, else the longest the client-side limits need
        said = [a.retry_after_s for a in exc.attempts if getattr(a, "retry_after_s", None) is not None]
        waits = said or [getattr(a, "wait_s", 0.0) for a in exc.attempts]
        return HTTPFailure(429, "rate_limit_error", "upstream_rate_limited", _one_line(exc),
                           retry_after=_retry_after(max(waits, default=1.0)) or 1)
    if kinds and kinds <= _UNCONFIGURED:
        return misconfigured(_one_line(exc))
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
    if isinstance(exc, MissingAPIKeyError) and exc.env_var:
        return misconfigured(f"provider {exc.provider!r} has no API key on this server (the variable {exc.env_var} is "
                             "not set)")
    if isinstance(exc, ConfigError):
        return misconfigured(_one_line(exc))
    if isinstance(exc, TimeoutError):
        return HTTPFailure(504, "timeout_error", "request_timeout", "the request took longer than the server's deadline")
    if isinstance(exc, RouterError):
        return HTTPFailure(500, "server_error", "router_error", _one_line(exc))
    return HTTPFailure(500, "server_error", "internal_error", f"internal error ({type(exc).__name__}); see the server log")


def misconfigured(reason: str) -> HTTPFailure:
    """The gateway cannot answer as configured: a 500 that says so, and that a retry will not help."""
    reason = reason.replace(" (or try --provider mock)", "")  # the CLI's hint means nothing to an HTTP caller
    return HTTPFailure(500, "server_error", "gateway_misconfigured",
                       f"the gateway is misconfigured: {reason}; retrying will not help, ask its operator to fix it",
                       final=True)


def failure(status: int, message: str, *, code: str, type: str = "invalid_request_error", param: str | None = None,
            retry_after: int | None = None) -> HTTPFailure:
    return HTTPFailure(status, type, code, message, param, retry_after)


__all__ = ["HTTPFailure", "failure", "from_exception", "misconfigured", "model_not_found"]
