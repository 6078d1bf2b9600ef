"""Checks across keys of providers.yaml, and turning pydantic's errors into one ``file:line`` line.

A problem a single field cannot see (a default naming no provider, a tier naming
an unlisted model, an alias used twice) is found here, with the line it is on.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Annotated, Any, NoReturn, get_args, get_origin

from pydantic import BaseModel

from router.config.deployments import check_deployments
from router.config.schema import _SECRET_KEYS, ProviderConfig, RouterConfig
from router.errors import ConfigError, UsageError
from router.redaction import looks_like_secret


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
        args = [get_args(a)[0] if get_origin(a) is Annotated else a for a in get_args(annotation)]  # Lazy[Model]
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
    if kind == "finite_number":
        message = "must be a finite number (.inf and .nan are not limits)"
    value = error.get("input")
    secret = any(part in _SECRET_KEYS for part in loc) or (isinstance(value, str) and looks_like_secret(value))
    shown = ""
    if isinstance(value, (str, int, float, bool)) and kind != "value_error" and not secret:
        text = repr(value)
        shown = f" (got {text[:80]}{'...' if len(text) > 80 else ''})"
    return f"{where}: {message}{shown}"


def _short(value: Any, limit: int = 60) -> str:
    """repr of a value from the file, cut so an error stays one readable line."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def _cross_checks(config: RouterConfig, lines: dict[tuple[Any, ...], int], file: str) -> RouterConfig:
    """Checks across keys; returns the config with ``default`` and ``fallbacks`` written as provider keys."""

    def fail(message: str, loc: tuple[Any, ...]) -> NoReturn:
        raise ConfigError(message, path=file, line=_line_for(loc, lines), key=".".join(map(str, loc)))


    owner: dict[str, str] = {}
    for pname, provider in config.providers.items():
        defaults = [i for i, m in enumerate(provider.models) if m.default]
        if len(defaults) > 1:
            fail(f"providers.{pname}.models: more than one model marked default", ("providers", pname, "models", defaults[1]))
        if provider.client in ("openai",) and provider.base_url is None and not provider.deployments:
            fail(f"providers.{pname}.base_url: required for client 'openai'", ("providers", pname))
        for i, alias in enumerate([pname, *provider.aliases]):
            key = alias.strip().lower()
            if not key:
                fail(f"providers.{pname}.aliases: empty alias", ("providers", pname, "aliases", i - 1))
            if key in owner and owner[key] != pname:
                loc = ("providers", pname, "aliases", i - 1) if i else ("providers", pname)
                fail(f"providers.{pname}.aliases: {alias!r} is already an alias of provider {owner[key]!r}", loc)
            owner[key] = pname
    _check_tiers(config, fail)
    check_deployments(config, fail)
    return _provider_names(config, fail)


def _provider_names(config: RouterConfig, fail: Callable[[str, tuple[Any, ...]], NoReturn]) -> RouterConfig:
    """``default`` and ``fallbacks`` may use aliases, resolved like every other provider name."""
    from router.routing.names import provider_hint, resolve_provider

    def key(name: str, where: str, loc: tuple[Any, ...]) -> str:
        try:
            return resolve_provider(config, name)
        except UsageError:
            pass
        fail(f"{where}: provider {_short(name)} is not defined{provider_hint(config, name[:200])}", loc)

    default = key(config.default, "default", ("default",))
    fallbacks = list(dict.fromkeys(key(n, f"fallbacks[{i}]", ("fallbacks", i)) for i, n in enumerate(config.fallbacks)))
    if default == config.default and fallbacks == config.fallbacks:
        return config
    return config.model_copy(update={"default": default, "fallbacks": fallbacks})


def _check_tiers(config: RouterConfig, fail: Callable[[str, tuple[Any, ...]], None]) -> None:
    """Every tier entry names a defined provider and a model that provider lists."""
    routing = config.routing
    for tier_name, entries in routing.tiers.items():
        for i, entry in enumerate(entries):
            pname, _, model_id = entry.partition("/")
            where = f"routing.tiers.{tier_name}[{i}]"
            loc = ("routing", "tiers", tier_name, i)
            if not pname.strip() or not model_id.strip():
                fail(f"{where}: {entry!r} is not provider/model", loc)
            provider = config.providers.get(pname)
            if provider is None:
                close = difflib.get_close_matches(pname, list(config.providers), n=1)
                hint = f" (did you mean {close[0]}?)" if close else f" (defined: {', '.join(config.providers)})"
                fail(f"{where}: provider {pname!r} is not defined{hint}", loc)
                continue
            listed = [m.id for m in provider.models]
            if model_id.lower() not in (m.lower() for m in listed):
                fail(f"{where}: provider {pname!r} lists no model {model_id!r} (listed: {', '.join(listed)})", loc)
    if routing.strategy == "auto":
        missing = [t for t in ("fast", "strong") if t not in routing.tiers]
        if missing:
            fail(f"routing.strategy: auto needs the tiers fast and strong (missing: {', '.join(missing)})", ("routing", "strategy"))
