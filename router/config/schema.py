"""providers.yaml, validated: the schema (every key, its type, default and bounds).

Pydantic models reject unknown keys, and every problem becomes a ``ConfigError``
whose message starts with ``file:line:`` and names the key path, because a typo
in a YAML file that passes silently is the most expensive kind of bug here.
API keys are *not* checked at load time: a missing key only matters when that
provider is about to be called (``ProviderConfig.require_api_key``).

A providers.yaml in the working directory is read automatically, so the loader
treats the file as untrusted: at most ``MAX_CONFIG_BYTES``, nesting at most
``MAX_DEPTH`` levels and ``MAX_NODES`` values, no aliases (``*name``: a few hundred bytes of them expand to
gigabytes), only scalar keys, and numbers that are finite and inside sane bounds.
Values that might be secrets (a key pasted into ``api_key_env``, credentials in a
``base_url``) are described in errors, never shown.
"""

# No `from __future__ import annotations` here: see router.config.base.

import os
from typing import Literal
from urllib.parse import urlparse

from pydantic import Field, ValidationError, field_validator, model_validator

from router.config.base import Lazy, _Strict, defaults
from router.config.deployments import Balance, Deployment, RateLimits
from router.config.fields import check_base_url, check_env_name
from router.config.learning import LearningSettings
from router.config.mcp import McpSettings
from router.errors import ConfigError, MissingAPIKeyError

ClientKind = Literal["openai", "litellm", "mock", "llama_cpp"]
_PACKAGED = "providers.yaml"
MAX_CONFIG_BYTES = 1_000_000
MAX_DEPTH = 32
MAX_NODES = 10_000
"""Values (scalars, lists, mappings) in one file: the shipped config has a few hundred."""
_SECRET_KEYS = frozenset({"api_key_env", "base_url"})
"""Keys whose rejected values are never echoed in an error."""
_INTERNAL_KEYS = ("source", "origin", "env_file")
"""Set by load_config from where the files were found; not accepted from YAML."""


ReasoningEcho = Literal["none", "tool_turns", "all"]


class Capabilities(_Strict):
    tools: bool = True
    parallel_tool_calls: bool = True
    streaming: bool = True
    reasoning: bool = False
    reasoning_echo: ReasoningEcho = "tool_turns"
    """Which assistant turns send their ``reasoning_content`` back: ``tool_turns`` = the tool-call
    turns since the last user message (DeepSeek thinking mode requires them, and only them)."""
    strict_alternation: bool = False
    """The model rejects two consecutive user (or assistant) messages: they are merged when sent."""
    stream_only: bool = False
    """The model answers only streamed requests (DashScope QwQ): plain requests stream internally."""


class CapabilityOverride(_Strict):
    """Per-model differences from the provider's capabilities (e.g. a reasoning model)."""

    tools: bool | None = None
    parallel_tool_calls: bool | None = None
    streaming: bool | None = None
    reasoning: bool | None = None
    reasoning_echo: ReasoningEcho | None = None
    strict_alternation: bool | None = None
    stream_only: bool | None = None


class ModelConfig(_Strict):
    id: str = Field(min_length=1)
    default: bool = False
    context_window: int | None = Field(default=None, gt=0, le=100_000_000)
    price_in: float | None = Field(default=None, ge=0, le=10_000)
    """USD per 1M input tokens; None when unknown (cost is then not reported)."""
    price_out: float | None = Field(default=None, ge=0, le=10_000)
    max_output_tokens: int | None = Field(default=None, gt=0, le=10_000_000)
    """The most tokens one reply may hold; what the server's budget reserves when a request sets no max_tokens."""
    capabilities: CapabilityOverride | None = None
    model_path: str | None = None
    """GGUF file for the in-process llama.cpp client."""


class ProviderConfig(_Strict):
    client: ClientKind
    base_url: str | None = None
    api_key_env: str | None = None
    """Name of the environment variable holding the key; None means no key is needed."""
    aliases: list[str] = Field(default_factory=list)
    capabilities: Capabilities = Field(default_factory=defaults(Capabilities))
    timeout_s: float = Field(default=60.0, gt=0, le=3600)
    max_retries: int = Field(default=2, ge=0, le=10)
    small_model: bool = False
    """Answers are labelled as coming from a small local model."""
    limits: Lazy[RateLimits] | None = None
    transport: Literal["auto", "lean", "sdk"] = "auto"
    """``client: openai`` only: ``lean`` (direct JSON over aiohttp; what ``auto`` picks when aiohttp is
    installed) or ``sdk`` (the openai SDK's own HTTP stack)."""
    models: list[ModelConfig] = Field(min_length=1)

    deployments: list[Lazy[Deployment]] = Field(default_factory=list, max_length=64)
    """Endpoints and keys that serve this provider's models (``router.config.deployments``); none: one implicit."""
    balance: Balance = "weighted"
    sticky: bool = False
    """Keep a conversation on one deployment while it is healthy (provider-side prompt caches keep hitting)."""

    @field_validator("base_url")
    @classmethod
    def _check_url(cls, value: str | None) -> str | None:
        return check_base_url(value)

    @field_validator("api_key_env")
    @classmethod
    def _check_env_name(cls, value: str | None) -> str | None:
        return check_env_name(value)

    @property
    def default_model(self) -> ModelConfig:
        return next((m for m in self.models if m.default), self.models[0])

    def model(self, model_id: str | None) -> ModelConfig:
        if model_id is None:
            return self.default_model
        for m in self.models:
            if m.id.lower() == model_id.lower():
                return m
        return ModelConfig(id=model_id)

    def capabilities_for(self, model_id: str | None = None) -> Capabilities:
        override = self.model(model_id).capabilities
        if override is None:
            return self.capabilities
        changes = {k: v for k, v in override.model_dump().items() if v is not None}
        return self.capabilities.model_copy(update=changes)

    def api_key(self) -> str | None:
        """The key's value, read now (never stored on the config)."""
        return os.environ.get(self.api_key_env) or None if self.api_key_env else None

    def has_key(self) -> bool:
        return self.api_key_env is None or bool(os.environ.get(self.api_key_env))

    def require_api_key(self, provider: str) -> str | None:
        if self.api_key_env is None:
            return None
        value = os.environ.get(self.api_key_env)
        if not value:
            raise MissingAPIKeyError(provider, self.api_key_env)
        return value


class LoopSettings(_Strict):
    max_steps: int = Field(default=8, ge=1, le=100)
    tool_timeout_s: float = Field(default=30.0, gt=0, le=3600)
    max_repeats: int = Field(default=2, ge=1, le=100)
    max_continuations: int = Field(default=2, ge=0, le=20)
    max_result_chars: int = Field(default=8000, ge=100, le=1_000_000)
    max_calls_per_turn: int = Field(default=32, ge=1, le=1000)
    """Tool calls run in one turn; more get an error result each (a model asking for 3,000 at once)."""


class SizeLimits(_Strict):
    """How large a question may be and how much of a reply is kept, in characters.

    A pasted log of 50 MB is refused with the limit named rather than sent (and billed);
    a runaway reply is cut with a warning on the answer instead of filling memory and terminals.
    """

    max_question_chars: int = Field(default=200_000, ge=1, le=50_000_000)
    max_reply_chars: int = Field(default=400_000, ge=100, le=50_000_000)


class RetrySettings(_Strict):
    max_wait_s: float = Field(default=20.0, ge=0, le=600)
    cooldown_s: float = Field(default=60.0, ge=0, le=86_400)
    failures_before_cooldown: int = Field(default=3, ge=1, le=1000)
    retries_with_fallback: int = Field(default=1, ge=0, le=10)
    """Retries of one candidate while a fallback remains (the provider's ``max_retries`` caps it): during
    an outage the fallback answers sooner than a third try of the failing provider."""
    on_content_filter: Literal["fallback", "answer"] = "answer"
    """A reply cut or refused by the provider's content filter: return it as the answer (flagged), or try
    the next candidate. Never retried on the same model."""


class DeadlineSettings(_Strict):
    """Deadlines per request try (``router.clients.deadlines``): a silent provider ends in a fallback."""

    first_token_s: float = Field(default=10.0, gt=0, le=600, allow_inf_nan=False)
    """Streams: the first chunk must arrive within this long."""
    stall_s: float = Field(default=20.0, gt=0, le=600, allow_inf_nan=False)
    """Streams: no chunk for this long after the first one is a stall."""
    generation_s: float = Field(default=50.0, gt=0, le=3600, allow_inf_nan=False)
    """Non-streamed requests cannot see a first token: they get ``first_token_s + generation_s``."""
    total_s: float = Field(default=300.0, gt=0, le=86_400, allow_inf_nan=False)
    """One try, streamed or not, never takes longer than this."""


class BreakerSettings(_Strict):
    """Circuit breaker per provider/model (``router.state.breaker``)."""

    failures: int = Field(default=5, ge=1, le=100)
    window_s: float = Field(default=30.0, gt=0, le=86400, allow_inf_nan=False)
    cooldown_s: float = Field(default=3.0, gt=0, le=86400, allow_inf_nan=False)
    """Short: a recovered provider is back within a few seconds; an open one costs one probe per cooldown."""
    probe_lease_s: float = Field(default=30.0, gt=0, le=3600, allow_inf_nan=False)
    """How long a half-open probe holds its slot if its process never reports back."""


_REDIS_SCHEMES = ("redis", "rediss", "unix")


class CacheSettings(_Strict):
    """The exact response cache (off by default): identical requests to the same chain, answered once."""

    enabled: bool = False
    ttl_s: float = Field(default=300.0, gt=0, le=7 * 86_400, allow_inf_nan=False)


class StateSettings(_Strict):
    """Where breakers, limits, budgets and the cache live: in process, or Redis (shared).

    The URL may contain a password, so errors never show it, and ``redis_url_env``
    keeps it out of the file altogether.
    """

    redis_url: str | None = None
    redis_url_env: str | None = None
    key_prefix: str = Field(default="router:", min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_:.\-]+$")
    timeout_s: float = Field(default=1.0, gt=0, le=60, allow_inf_nan=False)
    """Socket timeout for Redis: a hung Redis costs at most this before falling back."""

    @field_validator("redis_url")
    @classmethod
    def _check_redis_url(cls, value: str | None) -> str | None:
        if value is None:
            return value
        try:
            parsed = urlparse(value)
            parsed.port  # noqa: B018 (parses the port: raises ValueError when it is malformed)
        except ValueError:
            raise ValueError("malformed Redis URL (value not shown: it may hold a password)") from None
        if parsed.scheme not in _REDIS_SCHEMES:
            raise ValueError(
                f"Redis URL must start with redis://, rediss:// or unix:// (got scheme {parsed.scheme!r}; "
                "value not shown: it may hold a password)"
            )
        if parsed.scheme != "unix" and not parsed.hostname:
            raise ValueError("Redis URL has no host (value not shown: it may hold a password)")
        return value

    @field_validator("redis_url_env")
    @classmethod
    def _check_url_env(cls, value: str | None) -> str | None:
        if value is not None and (not value or not value.replace("_", "a").isalnum()):
            raise ValueError("is not an environment variable name (value not shown: it may be the URL itself)")
        return value

    @model_validator(mode="after")
    def _one_source(self) -> "StateSettings":
        if self.redis_url is not None and self.redis_url_env is not None:
            raise ValueError("set redis_url or redis_url_env, not both")
        return self

    def resolved_url(self) -> str | None:
        """The Redis URL (read from the environment now), or None for in-process state."""
        if self.redis_url_env is None:
            return self.redis_url
        value = os.environ.get(self.redis_url_env, "").strip()
        if not value:
            raise ConfigError(f"state.redis_url_env: environment variable {self.redis_url_env} is not set")
        try:
            return type(self).model_validate({"redis_url": value, "key_prefix": self.key_prefix}).redis_url
        except ValidationError as exc:
            reason = str(exc.errors()[0]["msg"]).removeprefix("Value error, ")
            raise ConfigError(f"state.redis_url_env: {self.redis_url_env}: {reason}") from None


class FewShotExample(_Strict):
    question: str
    answer: str


class ModeSettings(_Strict):
    selector: Literal["local", "llm", "hybrid"] = "local"
    confidence_threshold: float = Field(default=0.55, ge=0, le=1)
    tot_branches: int = Field(default=3, ge=2, le=8)
    few_shot_examples: list[FewShotExample] = Field(default_factory=list)


class RoutingSettings(_Strict):
    """Automatic model choice: tiers of ``provider/model`` and how many questions go up a tier.

    ``strategy: fixed`` keeps the old behaviour (the asked-for provider, else ``default``);
    ``auto`` lets the difficulty score pick a tier. Give ``strong_share`` (the share of
    questions sent to the strong tier, turned into a threshold by calibration) or an
    explicit ``threshold`` on the score, not both; neither means the default share."""

    strategy: Literal["fixed", "auto"] = "fixed"
    strong_share: float | None = Field(default=None, ge=0, le=1)
    threshold: float | None = Field(default=None, ge=0, le=1)
    tiers: dict[str, list[str]] = Field(default_factory=dict)
    learning: Lazy[LearningSettings] = Field(default_factory=defaults(LearningSettings))

    @field_validator("tiers")
    @classmethod
    def _check_tiers(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        for name, entries in value.items():
            if not entries:
                raise ValueError(f"tier {name!r} is empty (list provider/model entries)")
        return value

    @model_validator(mode="after")
    def _one_knob(self) -> "RoutingSettings":
        if self.strong_share is not None and self.threshold is not None:
            raise ValueError("give strong_share or threshold, not both")
        return self

    def tier(self, name: str) -> list[tuple[str, str]]:
        """The (provider, model id) pairs of a tier, in order; empty when the tier is not defined."""
        return [(p, m) for p, _, m in (entry.partition("/") for entry in self.tiers.get(name, []))]

    def tier_of(self, provider: str, model: str) -> str | None:
        """The first tier listing provider/model (for reports: the status page, traces); ``None`` outside every tier."""
        return next((name for name in self.tiers if (provider, model) in self.tier(name)), None)

class ServerSettings(_Strict):
    """``python -m router serve``: who may call it and how much it takes on.

    ``api_key_envs`` names environment variables whose values are the accepted bearer
    keys; the keys themselves never appear in YAML, logs or errors.
    """

    api_key_envs: list[str] = Field(default_factory=list)
    max_body_bytes: int = Field(default=4 * 1024 * 1024, ge=1024, le=256 * 1024 * 1024)
    max_messages: int = Field(default=2000, ge=1, le=100_000)
    request_timeout_s: float = Field(default=600.0, gt=0, le=86_400)
    max_concurrency: int = Field(default=256, ge=1, le=100_000)
    """Requests in flight per worker; beyond it the answer is 429 with Retry-After, not a queue."""
    retry_after_s: int = Field(default=1, ge=1, le=3600)
    budget_usd_per_day_per_key: float | None = Field(default=None, gt=0, le=1e6, allow_inf_nan=False)
    """Each accepted key's own spend limit per UTC day (scoped by the key's variable name); over it: 429."""
    status_key_envs: list[str] = Field(default_factory=list)
    """Extra keys (by variable name) that may read ``/status.json`` but not call the API: an operator's view."""
    status_decisions: int = Field(default=100, ge=1, le=1000)
    """How many recent decisions the status page keeps (per worker process)."""
    budget_reserve_tokens: int = Field(default=4096, ge=1, le=10_000_000)
    """Output tokens a request reserves against its key's budget when neither it nor its model caps them."""
    body_timeout_s: float = Field(default=30.0, gt=0, le=3600)
    """Deadline for receiving a request's whole body (a slow sender gets 408; it never held a slot)."""
    max_concurrency_per_key: int | None = Field(default=None, ge=1, le=100_000)
    """Requests in flight per key per worker; None: half of ``max_concurrency`` when several keys are accepted."""
    max_header_bytes: int = Field(default=64 * 1024, ge=1024, le=16 * 1024 * 1024)
    """Request line plus headers; larger: 431 and the connection closed, before authentication."""
    responses_ttl_s: float = Field(default=30 * 86_400, gt=0, le=366 * 86_400, allow_inf_nan=False)
    """How long ``/v1/responses`` keeps a stored response (``store: true``) for ``previous_response_id`` and GET."""

    @field_validator("api_key_envs", "status_key_envs")
    @classmethod
    def _check_env_names(cls, value: list[str]) -> list[str]:
        for name in value:
            if not name or not name.replace("_", "a").isalnum() or name[0].isdigit():
                raise ValueError("entries must be environment variable names (the keys themselves stay in the environment)")
        return value


class RouterConfig(_Strict):
    default: str
    fallbacks: list[str] = Field(default_factory=list)
    loop: Lazy[LoopSettings] = Field(default_factory=defaults(LoopSettings))
    retry: Lazy[RetrySettings] = Field(default_factory=defaults(RetrySettings))
    limits: Lazy[SizeLimits] = Field(default_factory=defaults(SizeLimits))
    modes: Lazy[ModeSettings] = Field(default_factory=defaults(ModeSettings))
    state: Lazy[StateSettings] = Field(default_factory=defaults(StateSettings))
    cache: Lazy[CacheSettings] = Field(default_factory=defaults(CacheSettings))
    breaker: Lazy[BreakerSettings] = Field(default_factory=defaults(BreakerSettings))
    deadlines: Lazy[DeadlineSettings] = Field(default_factory=defaults(DeadlineSettings))
    budget_usd_per_day: float | None = Field(default=None, gt=0, le=1e6, allow_inf_nan=False)
    """Spend limit of this Router per UTC day; None means no limit."""
    routing: Lazy[RoutingSettings] = Field(default_factory=defaults(RoutingSettings))
    server: Lazy[ServerSettings] = Field(default_factory=defaults(ServerSettings))
    mcp: Lazy[McpSettings] = Field(default_factory=defaults(McpSettings))
    """MCP servers whose tools join the tool loop (``router.config.mcp``)."""
    providers: dict[str, Lazy[ProviderConfig]] = Field(min_length=1)
    source: str = Field(default="<memory>", exclude=True)
    """Where the config was read from (set by load_config, not by YAML)."""
    origin: str = Field(default="argument", exclude=True)
    """Why that file: "argument", "ROUTER_CONFIG", "working directory" or "packaged default"."""
    env_file: str | None = Field(default=None, exclude=True)
    """The ``.env`` file whose variables were loaded, if any."""

    def provider(self, name: str) -> ProviderConfig:
        """A provider by key or alias, in any case; an unknown name is a UsageError with a suggestion."""
        found = self.providers.get(name)
        if found is not None:
            return found
        from router.routing.names import resolve_provider

        return self.providers[resolve_provider(self, name)]

    def with_default(self, name: str) -> "RouterConfig":
        from router.routing.names import resolve_provider

        return self.model_copy(update={"default": resolve_provider(self, name)})


__all__ = [
    "MAX_CONFIG_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "BreakerSettings",
    "CacheSettings",
    "Capabilities",
    "ClientKind",
    "ConfigError",
    "DeadlineSettings",
    "FewShotExample",
    "LoopSettings",
    "ModeSettings",
    "ModelConfig",
    "ProviderConfig",
    "RateLimits",
    "RetrySettings",
    "RouterConfig",
    "RoutingSettings",
    "ServerSettings",
    "SizeLimits",
    "StateSettings",
    "_Strict",
]
