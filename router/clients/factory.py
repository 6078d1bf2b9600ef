"""Building the client for one provider/model of providers.yaml.

The API key is read (and a missing one reported, naming the variable) only here,
when the provider is about to be used, never at config load time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from router.clients.base import LLMClient
    from router.config import RouterConfig

NO_KEY = "sk-no-key-required"
"""Sent to servers that need no key (local, mock): the SDKs insist on some value."""


def make_client(
    config: RouterConfig, provider_name: str, model_id: str | None = None, deployment: str | None = None
) -> LLMClient:
    """The client for one provider/model of the config, on one of its ``deployments`` when named.

    The API key is read (and a missing one reported, naming the variable) only
    here, when the provider is about to be used, never at config load time. Heavy
    SDKs are imported by the client constructors, so building a mock costs nothing.
    A deployment brings its own endpoint and key; what it leaves out is the provider's.
    """
    provider = config.provider(provider_name)
    model = provider.model(model_id)
    if deployment is not None:
        chosen = next((d for d in provider.deployments if d.name == deployment), None)
        if chosen is None:
            from router.errors import UsageError

            raise UsageError(f"provider {provider_name!r} has no deployment {deployment!r}")
        provider = provider.model_copy(update={"base_url": chosen.url(provider), "api_key_env": chosen.key_env(provider)})
    if provider.client == "mock":
        from router.clients.mock import MockLLM

        return MockLLM(model=model.id)
    if provider.client == "llama_cpp":
        from router.clients.llama_cpp import LlamaCppClient  # type: ignore[import-not-found,unused-ignore]

        client: LLMClient = LlamaCppClient(
            model.model_path, provider=provider_name, model=model.id, n_ctx=model.context_window or 2048
        )
        return client
    key = provider.require_api_key(provider_name)
    from router.clients.wire import WireRules

    common: dict[str, Any] = {
        "model": model.id,
        "provider": provider_name,
        "timeout_s": provider.timeout_s,
        "rules": WireRules.from_capabilities(provider.capabilities_for(model.id)),
        "key_env": provider.api_key_env,
    }
    if provider.client == "openai":
        from router.clients.openai import OpenAIClient

        assert provider.base_url is not None  # guaranteed by the config's cross-checks
        from router.clients.lean import reply_byte_limit

        return OpenAIClient(base_url=provider.base_url, api_key=key or NO_KEY, transport=provider.transport,
                            max_reply_bytes=reply_byte_limit(config.limits.max_reply_chars), **common)
    from router.clients.litellm import LiteLLMClient

    # without a key variable litellm finds its own (ANTHROPIC_API_KEY, ...) unless the server is ours
    fallback_key = NO_KEY if provider.base_url else None
    return LiteLLMClient(base_url=provider.base_url, api_key=key or fallback_key, **common)


__all__ = ["NO_KEY", "make_client"]
