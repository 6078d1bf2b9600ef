"""A provider's ``deployments``: several endpoints and keys behind one provider's models.

Each deployment is one endpoint and key (two keys for one API, the same open
model at two hosts, a regional endpoint, a local vLLM next to a hosted copy).
What a deployment leaves out it takes from its provider: ``base_url``,
``api_key_env`` and ``limits``. ``models`` restricts what it serves. A provider
without ``deployments`` is one implicit deployment, exactly as before.

``balance`` picks among the deployments that can serve a request
(``router.balance``): ``weighted`` (smooth weighted round robin), ``least_busy``
(fewest in flight across processes), ``latency`` (power of two choices on a
moving average, first-token latency for streams) or ``usage`` (most headroom
under the rpm/tpm limits). ``sticky: true`` keeps a conversation on one
deployment while it is healthy.

A deployment whose key variable is not set is skipped and recorded in the
answer's attempts (``router.routing.plan``), like a provider without a key.
"""

# No `from __future__ import annotations` here: see router.config.base.

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, NoReturn

from pydantic import Field, field_validator

from router.config.base import _Strict
from router.config.fields import check_base_url, check_env_name

if TYPE_CHECKING:
    from router.config.schema import ProviderConfig, RouterConfig

Balance = Literal["weighted", "least_busy", "latency", "usage"]
BALANCED_CLIENTS = ("openai", "litellm")
"""Clients that talk to an endpoint with a key: the ones a deployment can point elsewhere."""


class RateLimits(_Strict):
    """Client-side limits, kept below the provider's own so we wait or fall back instead of a 429.

    A provider's and a deployment's (``limits``); here, beside the deployment, so both modules resolve it."""

    requests_per_minute: float | None = Field(default=None, gt=0, le=1e6, allow_inf_nan=False)
    tokens_per_minute: float | None = Field(default=None, gt=0, le=1e9, allow_inf_nan=False)


class Deployment(_Strict):
    """One endpoint and key serving (some of) a provider's models."""

    name: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")
    """Shown in answers, headers and metrics labels (so: a short plain name, never a caller's string)."""
    base_url: str | None = None
    """None: the provider's ``base_url``."""
    api_key_env: str | None = None
    """None: the provider's ``api_key_env``."""
    weight: float = Field(default=1.0, gt=0, le=1000)
    models: list[str] | None = Field(default=None, min_length=1)
    """The model ids this deployment serves; None: every model of the provider."""
    limits: RateLimits | None = None
    """Hard per-minute caps of this endpoint and key (any 60 s); None: the provider's ``limits``."""

    @field_validator("base_url")
    @classmethod
    def _check_url(cls, value: str | None) -> str | None:
        return check_base_url(value)

    @field_validator("api_key_env")
    @classmethod
    def _check_env_name(cls, value: str | None) -> str | None:
        return check_env_name(value)

    def serves(self, model_id: str) -> bool:
        return self.models is None or model_id.lower() in (m.lower() for m in self.models)

    def key_env(self, provider: "ProviderConfig") -> str | None:
        return self.api_key_env or provider.api_key_env

    def url(self, provider: "ProviderConfig") -> str | None:
        return self.base_url or provider.base_url

    def rate_limits(self, provider: "ProviderConfig") -> RateLimits | None:
        return self.limits or provider.limits

    def api_key(self, provider: "ProviderConfig") -> str | None:
        env = self.key_env(provider)
        return (os.environ.get(env) or None) if env else None

    def has_key(self, provider: "ProviderConfig") -> bool:
        env = self.key_env(provider)
        return env is None or bool(os.environ.get(env))


def serving(provider: "ProviderConfig", model_id: str) -> list[Deployment]:
    """The provider's deployments that serve ``model_id``, in file order (empty: the implicit one)."""
    return [d for d in provider.deployments if d.serves(model_id)]


def check_deployments(config: "RouterConfig", fail: Callable[[str, tuple[Any, ...]], NoReturn]) -> None:
    """Across keys: unique names, listed models, a client that has endpoints, a URL for each."""
    for pname, provider in config.providers.items():
        where = f"providers.{pname}.deployments"
        seen: dict[str, int] = {}
        listed = {m.id.lower() for m in provider.models}
        for i, deployment in enumerate(provider.deployments):
            loc = ("providers", pname, "deployments", i)
            if provider.client not in BALANCED_CLIENTS:
                fail(f"{where}[{i}]: client {provider.client!r} has no endpoints to balance "
                     f"(deployments need client {' or '.join(BALANCED_CLIENTS)})", loc)  # fmt: skip
            key = deployment.name.lower()
            if key in seen:
                fail(f"{where}[{i}].name: {deployment.name!r} is already the name of deployment [{seen[key]}]", (*loc, "name"))
            seen[key] = i
            for j, model_id in enumerate(deployment.models or ()):
                if model_id.lower() not in listed:
                    fail(f"{where}[{i}].models[{j}]: provider {pname!r} lists no model {model_id!r} "
                         f"(listed: {', '.join(m.id for m in provider.models)})", (*loc, "models", j))  # fmt: skip
            if provider.client == "openai" and deployment.url(provider) is None:
                fail(f"{where}[{i}].base_url: required for client 'openai' (neither the deployment nor "
                     "the provider has one)", loc)  # fmt: skip
        if provider.sticky and len(provider.deployments) < 2:
            fail(f"providers.{pname}.sticky: needs two or more deployments to choose between", ("providers", pname, "sticky"))
        for model in provider.models:
            if provider.deployments and not serving(provider, model.id):
                fail(f"{where}: no deployment serves model {model.id!r} (add it to a deployment's models)",
                     ("providers", pname, "deployments"))  # fmt: skip


__all__ = ["BALANCED_CLIENTS", "Balance", "Deployment", "RateLimits", "check_deployments", "serving"]
