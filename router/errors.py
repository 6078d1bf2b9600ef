"""The one exception hierarchy of router.

Every error the library raises on purpose is a ``RouterError``, so callers can
catch one type; the subclasses let them react to the cause::

    RouterError
    ├── ConfigError                  providers.yaml / options are wrong (names file:line)
    │   └── MissingAPIKeyError       a provider about to be called has no key in the env
    ├── UsageError                   a bad argument from the caller (unknown mode, provider ...)
    │   ├── UnknownAnswerError       feedback on an answer id that is unknown or expired (404)
    │   ├── FeedbackRefusedError     feedback on an answer another key received (403)
    │   └── InvalidInputError        the caller's input cannot be sent at all (a lone surrogate)
    ├── ProviderError                a provider call failed (kind says why)
    │   ├── AuthenticationError      401 / 403: never retried
    │   ├── RateLimitError           429: retried, honouring Retry-After
    │   ├── ProviderTimeoutError     the request took longer than the timeout
    │   ├── ProviderUnavailableError 5xx, connection refused/reset, cut stream
    │   ├── BadRequestError          400 / 404 / 422: never retried
    │   │   ├── ToolsUnsupportedError the server refused the `tools` parameter
    │   │   ├── ContextWindowExceededError the prompt does not fit the model's context window
    │   │   ├── ContentPolicyError   the provider refused the request or reply under its content policy
    │   │   └── StreamOnlyError      the model answers only streamed requests
    │   ├── MalformedResponseError   the reply could not be understood
    │   ├── TruncatedResponseError   the server cut the reply short (DeepSeek insufficient_system_resource)
    │   └── AllProvidersFailedError  every candidate in the fallback chain failed
    ├── ToolError                    a tool could not be defined or run
    │   ├── ToolDefinitionError      @tool on a function we cannot describe (decoration time)
    │   └── ToolArgumentsError       arguments did not validate
    ├── MessageChainError            a message history breaks the tool-calling protocol
    ├── LoopLimitError               a loop bound was hit where no answer can be produced
    ├── ScriptExhaustedError         a ScriptedLLM was called more often than scripted
    ├── BudgetExceededError          a USD-per-day spend budget is used up (429 in the server)
    └── StateStoreUnavailableError   the shared state store (Redis) cannot be reached

Messages never contain API key values: clients pass every foreign message
through ``redact`` before it lands here.
"""

from __future__ import annotations

from typing import Any, Literal

ProviderErrorKind = Literal[
    "auth", "rate_limit", "timeout", "unavailable", "bad_request", "malformed", "exhausted"
]


class RouterError(Exception):
    """Base of every error router raises on purpose."""


class ConfigError(RouterError):
    """Configuration is wrong; the message starts with ``file:line:`` when known."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        key: str | None = None,
    ) -> None:
        self.path = path
        self.line = line
        self.key = key
        self.detail = message
        prefix = ""
        if path is not None:
            prefix = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(prefix + message)


class MissingAPIKeyError(ConfigError):
    """Raised only when a provider is about to be called, never at load time."""

    def __init__(self, provider: str, env_var: str, *, also: tuple[str, ...] = (), reason: str | None = None) -> None:
        self.provider = provider
        self.env_var = env_var
        self.also = also
        others = [name for name in dict.fromkeys(also) if name and name != env_var]
        if not env_var:
            # a provider that needs no key (a local model) could not answer: a key for a fallback would help,
            # another --provider would not, so none is suggested
            why = f" ({reason})" if reason else ""
            fix = (
                f"set {'one of the environment variables ' if len(others) > 1 else 'the environment variable '}"
                f"{' / '.join(others)} for a fallback" if others else "no fallback provider is configured with a key"
            )
            super().__init__(f"provider {provider!r} cannot answer{why}: {fix}")
            return
        fallback = f" or, for a fallback, {' / '.join(others)}" if others else ""
        super().__init__(
            f"provider {provider!r} needs an API key: set the environment variable {env_var}{fallback} "
            f"(or try --provider mock)"
        )


class UsageError(RouterError):
    """The caller asked for something that does not exist (mode, provider, model)."""


class UnknownAnswerError(UsageError):
    """Feedback names an answer id this deployment does not know (never issued, or past its window)."""


class FeedbackRefusedError(UsageError):
    """Feedback on an answer that was given to another caller (another API key)."""


class InvalidInputError(UsageError):
    """The caller's input cannot be sent as it is, found by a client before anything left the process.

    Text with a lone surrogate (``"\\ud800"``, which JSON can carry but UTF-8 cannot) fails
    to encode: that is the caller's mistake (HTTP 400), never a provider's failure, so it
    moves no breaker and tries no fallback.
    """


class ProviderError(RouterError):
    """A provider call failed. ``kind`` drives retry and fallback decisions."""

    kind: ProviderErrorKind = "unavailable"
    retryable: bool = True
    attempts: tuple[Any, ...] = ()
    """Attempts made before this error, when a fallback chain raised it (for honest records)."""

    def __init__(
        self,
        message: str,
        *,
        provider: str | None = None,
        model: str | None = None,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.provider = provider
        self.model = model
        self.status = status
        self.retry_after = retry_after
        where = f"{provider}/{model}: " if provider and model else (f"{provider}: " if provider else "")
        super().__init__(where + message)


class AuthenticationError(ProviderError):
    kind: ProviderErrorKind = "auth"
    retryable = False


class RateLimitError(ProviderError):
    kind: ProviderErrorKind = "rate_limit"
    retryable = True


class ProviderTimeoutError(ProviderError):
    kind: ProviderErrorKind = "timeout"
    retryable = True


class ProviderUnavailableError(ProviderError):
    kind: ProviderErrorKind = "unavailable"
    retryable = True


class BadRequestError(ProviderError):
    kind: ProviderErrorKind = "bad_request"
    retryable = False


class ToolsUnsupportedError(BadRequestError):
    """The server rejected function calling; the loop downgrades to text ReAct."""


class ContextWindowExceededError(BadRequestError):
    """The prompt is larger than the model's context window: a larger-context model may answer, a retry never."""


class ContentPolicyError(BadRequestError):
    """The provider's content policy refused the request (a 400) or cut the reply (``content_filter``).

    Never retried on the same model; ``retry.on_content_filter`` says whether a fallback is tried."""


class StreamOnlyError(BadRequestError):
    """The model refused a plain request because it answers only streamed ones (DashScope QwQ)."""


class MalformedResponseError(ProviderError):
    kind: ProviderErrorKind = "malformed"
    retryable = True


class TruncatedResponseError(ProviderError):
    """The server ended the reply early for its own reasons (``insufficient_system_resource``).

    Not an answer: what arrived is incomplete, so it is retried and falls back like an outage.
    """

    kind: ProviderErrorKind = "unavailable"
    retryable = True


class AllProvidersFailedError(ProviderError):
    """Every candidate failed; ``attempts`` lists what was tried and why it failed."""

    kind: ProviderErrorKind = "exhausted"
    retryable = False

    def __init__(self, message: str, *, attempts: tuple[Any, ...] = ()) -> None:
        self.attempts = attempts
        super().__init__(message)


class ToolError(RouterError):
    """A tool could not be defined or run."""


class ToolDefinitionError(ToolError):
    """Raised at decoration time so a bad tool never reaches a model."""


class ToolArgumentsError(ToolError):
    """Arguments from the model did not validate against the tool's schema."""


class McpError(ToolError):
    """An MCP server could not be reached or answered a call with a protocol error."""


class McpServerUnavailableError(McpError):
    """An MCP server could not start (command not installed, variable unset, no answer): names the server."""


class McpToolError(McpError):
    """An MCP tool answered with ``isError``: its text is what the model reads."""


class MessageChainError(RouterError):
    """A history breaks the tool-calling protocol; ``problems`` lists every violation."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("invalid message chain: " + "; ".join(problems))


class LoopLimitError(RouterError):
    """A bound was reached where not even a best-effort answer could be produced."""


class ScriptExhaustedError(RouterError):
    """A ScriptedLLM ran out of scripted replies: the code under test called it too often."""


class BudgetExceededError(RouterError):
    """A spend budget is used up for today: refusing is cheaper than a surprise invoice."""

    def __init__(self, scope: str, limit_usd: float, spent_usd: float, day: str) -> None:
        self.scope = scope
        self.limit_usd = limit_usd
        self.spent_usd = spent_usd
        self.day = day
        super().__init__(
            f"budget exceeded for {scope!r}: spent ${spent_usd:.4f} of ${limit_usd:.2f} per day ({day} UTC)"
        )


class StateStoreUnavailableError(RouterError):
    """The shared state store failed; the fallback store catches it and continues in process."""


__all__ = [
    "AllProvidersFailedError",
    "AuthenticationError",
    "BadRequestError",
    "BudgetExceededError",
    "ConfigError",
    "ContentPolicyError",
    "ContextWindowExceededError",
    "FeedbackRefusedError",
    "InvalidInputError",
    "LoopLimitError",
    "MalformedResponseError",
    "McpError",
    "McpServerUnavailableError",
    "McpToolError",
    "MessageChainError",
    "MissingAPIKeyError",
    "ProviderError",
    "ProviderErrorKind",
    "ProviderTimeoutError",
    "ProviderUnavailableError",
    "RateLimitError",
    "RouterError",
    "ScriptExhaustedError",
    "StateStoreUnavailableError",
    "StreamOnlyError",
    "ToolArgumentsError",
    "ToolDefinitionError",
    "ToolError",
    "ToolsUnsupportedError",
    "TruncatedResponseError",
    "UnknownAnswerError",
    "UsageError",
]
