"""providers.yaml, validated.

Pydantic models reject unknown keys, and every problem becomes a ``ConfigError``
whose message starts with ``file:line:`` and names the key path, because a typo
in a YAML file that passes silently is the most expensive kind of bug here.
API keys are *not* checked at load time: a missing key only matters when that
provider is about to be called (``ProviderConfig.require_api_key``).
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlparse

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from router.errors import ConfigError, MissingAPIKeyError

ClientKind = Literal["openai", "litellm", "mock", "llama_cpp"]
_PACKAGED = "providers.yaml"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Capabilities(_Strict):
    tools: bool = True
    parallel_tool_calls: bool = True
    streaming: bool = True
    reasoning: bool = False


class CapabilityOverride(_Strict):
    """Per-model differences from the provider's capabilities (e.g. a reasoning model)."""

    tools: bool | None = None
    parallel_tool_calls: bool | None = None
    streaming: bool | None = None
    reasoning: bool | None = None


class ModelConfig(_Strict):
    id: str = Field(min_length=1)
    default: bool = False
    context_window: int | None = Field(default=None, gt=0)
    price_in: float | None = Field(default=None, ge=0)
    """USD per 1M input tokens; None when unknown (cost is then not reported)."""
    price_out: float | None = Field(default=None, ge=0)
    capabilities: CapabilityOverride | None = None
    model_path: str | None = None
    """GGUF file for the in-process llama.cpp client."""


class ProviderConfig(_Strict):
    client: ClientKind
    base_url: str | None = None
    api_key_env: str | None = None
    """Name of the environment variable holding the key; None means no key is needed."""
    aliases: list[str] = Field(default_factory=list)
    capabilities: Capabilities = Field(default_factory=Capabilities)
    timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=2, ge=0, le=10)
    small_model: bool = False
    """Answers are labelled as coming from a small local model."""
    models: list[ModelConfig] = Field(min_length=1)

    @field_validator("base_url")
    @classmethod
    def _check_url(cls, value: str | None) -> str | None:
        if value is None:
            return value
        parsed = urlparse(value)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError(f"malformed URL {value!r} (expected http:// or https:// with a host)")
        return value.rstrip("/")

    @field_validator("api_key_env")
    @classmethod
    def _check_env_name(cls, value: str | None) -> str | None:
        if value is not None and (not value or not value.replace("_", "a").isalnum()):
            raise ValueError(f"{value!r} is not an environment variable name")
        return value

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
    tool_timeout_s: float = Field(default=30.0, gt=0)
    max_repeats: int = Field(default=2, ge=1)
    max_continuations: int = Field(default=2, ge=0)
    max_result_chars: int = Field(default=8000, ge=100)


class RetrySettings(_Strict):
    max_wait_s: float = Field(default=20.0, ge=0)
    cooldown_s: float = Field(default=60.0, ge=0)
    failures_before_cooldown: int = Field(default=3, ge=1)


class FewShotExample(_Strict):
    question: str
    answer: str


class ModeSettings(_Strict):
    selector: Literal["local", "llm", "hybrid"] = "local"
    confidence_threshold: float = Field(default=0.55, ge=0, le=1)
    tot_branches: int = Field(default=3, ge=2, le=8)
    few_shot_examples: list[FewShotExample] = Field(default_factory=list)


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

    @field_validator("api_key_envs")
    @classmethod
    def _check_env_names(cls, value: list[str]) -> list[str]:
        for name in value:
            if not name or not name.replace("_", "a").isalnum() or name[0].isdigit():
                raise ValueError("entries must be environment variable names (the keys themselves stay in the environment)")
        return value


class RouterConfig(_Strict):
    default: str
    fallbacks: list[str] = Field(default_factory=list)
    loop: LoopSettings = Field(default_factory=LoopSettings)
    retry: RetrySettings = Field(default_factory=RetrySettings)
    modes: ModeSettings = Field(default_factory=ModeSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    providers: dict[str, ProviderConfig] = Field(min_length=1)
    source: str = Field(default="<memory>", exclude=True)
    """Where the config was read from (set by load_config, not by YAML)."""

    def provider(self, name: str) -> ProviderConfig:
        try:
            return self.providers[name]
        except KeyError:
            from router.errors import UsageError

            known = ", ".join(self.providers)
            raise UsageError(f"unknown provider {name!r} (known: {known})") from None

    def with_default(self, name: str) -> RouterConfig:
        self.provider(name)
        return self.model_copy(update={"default": name})


# --- loading ---------------------------------------------------------------------------


def _loader_class() -> type[yaml.SafeLoader]:
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # type: ignore[no-any-return]


def _index_lines(node: yaml.Node, path: tuple[Any, ...], out: dict[tuple[Any, ...], int], file: str) -> None:
    """Map every key path to its 1-based line, and refuse duplicate keys (YAML keeps the last)."""
    if isinstance(node, yaml.MappingNode):
        seen: set[Any] = set()
        for key_node, value_node in node.value:
            key = key_node.value
            if key in seen:
                where = ".".join(str(p) for p in (*path, key))
                raise ConfigError(f"{where}: duplicate key", path=file, line=key_node.start_mark.line + 1, key=where)
            seen.add(key)
            out[(*path, key)] = key_node.start_mark.line + 1
            _index_lines(value_node, (*path, key), out, file)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out[(*path, i)] = item.start_mark.line + 1
            _index_lines(item, (*path, i), out, file)


def _line_for(loc: tuple[Any, ...], lines: dict[tuple[Any, ...], int]) -> int | None:
    for end in range(len(loc), 0, -1):
        if loc[:end] in lines:
            return lines[loc[:end]]
    return None


def _model_at(loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The pydantic model that owns the last key of ``loc`` (for "did you mean")."""
    model: Any = RouterConfig
    for part in loc[:-1]:
        if isinstance(part, int) or model is None:
            continue
        if model is RouterConfig and part == "providers":
            model = dict
            continue
        if model is dict:
            model = ProviderConfig
            continue
        field = model.model_fields.get(part)
        if field is None:
            return None
        annotation = field.annotation
        args = getattr(annotation, "__args__", ())
        candidates = [a for a in (annotation, *args) if isinstance(a, type) and issubclass(a, BaseModel)]
        model = candidates[0] if candidates else None
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def _describe(error: Any) -> str:
    loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and p.startswith("function-")))
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".") or "(top level)"
    kind = error["type"]
    if kind == "extra_forbidden":
        owner = _model_at(loc)
        hint = ""
        if owner is not None:
            close = difflib.get_close_matches(str(loc[-1]), list(owner.model_fields), n=1)
            if close:
                hint = f" (did you mean {close[0]}?)"
        return f"{where}: unknown key{hint}"
    if kind == "missing":
        return f"{where}: required key is missing"
    message = str(error["msg"]).removeprefix("Value error, ")
    value = error.get("input")
    shown = f" (got {value!r})" if isinstance(value, (str, int, float, bool)) and kind != "value_error" else ""
    return f"{where}: {message}{shown}"


def _cross_checks(config: RouterConfig, lines: dict[tuple[Any, ...], int], file: str) -> None:
    names = list(config.providers)

    def fail(message: str, loc: tuple[Any, ...]) -> None:
        raise ConfigError(message, path=file, line=_line_for(loc, lines), key=".".join(map(str, loc)))

    if config.default not in config.providers:
        fail(f"default: provider {config.default!r} is not defined (defined: {', '.join(names)})", ("default",))
    for i, name in enumerate(config.fallbacks):
        if name not in config.providers:
            fail(f"fallbacks[{i}]: provider {name!r} is not defined (defined: {', '.join(names)})", ("fallbacks", i))
    owner: dict[str, str] = {}
    for pname, provider in config.providers.items():
        defaults = [i for i, m in enumerate(provider.models) if m.default]
        if len(defaults) > 1:
            fail(f"providers.{pname}.models: more than one model marked default", ("providers", pname, "models", defaults[1]))
        if provider.client in ("openai",) and provider.base_url is None:
            fail(f"providers.{pname}.base_url: required for client 'openai'", ("providers", pname))
        for i, alias in enumerate([pname, *provider.aliases]):
            key = alias.strip().lower()
            if not key:
                fail(f"providers.{pname}.aliases: empty alias", ("providers", pname, "aliases", i - 1))
            if key in owner and owner[key] != pname:
                loc = ("providers", pname, "aliases", i - 1) if i else ("providers", pname)
                fail(f"providers.{pname}.aliases: {alias!r} is already an alias of provider {owner[key]!r}", loc)
            owner[key] = pname


def parse_config(text: str, file: str = "<string>") -> RouterConfig:
    """Validate YAML text; ``file`` is only used in error messages."""
    loader = _loader_class()(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise ConfigError("the file is empty (expected providers, default, ...)", path=file, line=1)
        lines: dict[tuple[Any, ...], int] = {}
        _index_lines(node, (), lines, file)
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        column = f", column {mark.column + 1}" if mark else ""
        raise ConfigError(f"YAML syntax error{column}: {exc.problem or exc.context}", path=file, line=line) from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"YAML error: {exc}", path=file) from exc
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        raise ConfigError(f"top level must be a mapping, got {type(data).__name__}", path=file, line=1)
    try:
        config = RouterConfig.model_validate({**data, "source": file})
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(first["loc"])
        more = f" (and {exc.error_count() - 1} more problem(s))" if exc.error_count() > 1 else ""
        raise ConfigError(_describe(first) + more, path=file, line=_line_for(loc, lines) or 1) from exc
    _cross_checks(config, lines, file)
    return config


def _load_dotenv() -> None:
    """Keys may live in ./.env; variables already set always win."""
    env_file = Path.cwd() / ".env"
    if env_file.is_file():
        from dotenv import load_dotenv

        load_dotenv(env_file, override=False)


def config_path(path: str | os.PathLike[str] | None = None) -> tuple[str, str]:
    """Which file load_config would read: explicit, $ROUTER_CONFIG, ./providers.yaml, packaged."""
    if path is not None:
        return str(path), "argument"
    env = os.environ.get("ROUTER_CONFIG")
    if env:
        return env, "ROUTER_CONFIG"
    if Path("providers.yaml").is_file():
        return "providers.yaml", "working directory"
    from importlib import resources  # only here: it costs ~10 ms of start-up

    return str(resources.files("router") / _PACKAGED), "packaged default"


def load_config(path: str | os.PathLike[str] | None = None) -> RouterConfig:
    """Load and validate the config; ``ROUTER_PROVIDER`` overrides ``default``."""
    _load_dotenv()
    file, origin = config_path(path)
    try:
        text = Path(file).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        where = f" (from {origin})" if origin != "argument" else ""
        raise ConfigError(f"config file not found{where}", path=file) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config: {exc.__class__.__name__}", path=file) from exc
    if not text.strip():
        raise ConfigError("the file is empty (expected providers, default, ...)", path=file, line=1)
    config = parse_config(text, file)
    override = os.environ.get("ROUTER_PROVIDER")
    if override:
        if override not in config.providers:
            raise ConfigError(
                f"ROUTER_PROVIDER={override!r} names no provider in {file} "
                f"(defined: {', '.join(config.providers)})"
            )
        config = config.with_default(override)
    return config


__all__ = [
    "Capabilities",
    "ClientKind",
    "ConfigError",
    "FewShotExample",
    "LoopSettings",
    "ModeSettings",
    "ModelConfig",
    "ProviderConfig",
    "RetrySettings",
    "RouterConfig",
    "ServerSettings",
    "config_path",
    "load_config",
    "parse_config",
]
