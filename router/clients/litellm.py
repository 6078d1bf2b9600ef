"""``LiteLLMClient``: every provider litellm knows (Anthropic, Gemini, ...) behind ``LLMClient``, async.

litellm is imported on first use, never with ``import router``: it is slow to
import and, unless ``LITELLM_LOCAL_MODEL_COST_MAP`` is set beforehand, fetches a
cost map from the network. Its retries are off (``resilience.py`` retries), its
banners and debug logging are silenced, and its loggers get the redacting filter
so a key echoed by a server never reaches a log record.
"""

from __future__ import annotations

import logging
import os
import re
from typing import Any

from router.clients.openai import CompletionsClient
from router.clients.sdk_errors import strip_wrappers
from router.clients.wire import WireRules
from router.errors import MalformedResponseError, ProviderError
from router.redaction import install_log_redaction, redact

_LITELLM_LOGGERS = ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm")
# litellm reports an unreadable 200 body (not JSON, no choices, odd shapes) as a 500 or a connection error
_UNREADABLE = re.compile(
    r"Expecting value|JSONDecodeError|Unterminated string|Extra data: line|Invalid control character"
    r"|Empty or invalid response|Invalid response object|returned 'choices' that is not a list"
)

_litellm: Any = None


def import_litellm() -> Any:
    """Import litellm once, offline and quiet."""
    global _litellm
    if _litellm is None:
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        import litellm

        litellm.suppress_debug_info = True  # no "Give Feedback / Get Help" banners on stdout
        litellm.set_verbose = False
        litellm.turn_off_message_logging = True  # callbacks never receive message bodies
        if not os.environ.get("LITELLM_LOG"):
            for name in _LITELLM_LOGGERS:
                logging.getLogger(name).setLevel(logging.WARNING)
        install_log_redaction(*_LITELLM_LOGGERS, "httpx", "httpcore", "openai", "openai._base_client")
        _litellm = litellm
    return _litellm


def litellm_model_name(model: str, base_url: str | None, known_providers: Any) -> str:
    """The model string litellm expects: ``openai/<id>`` for an OpenAI-compatible base_url."""
    prefix = model.split("/", 1)[0] if "/" in model else None
    if base_url and (prefix is None or prefix not in known_providers):
        return f"openai/{model}"
    return model


class LiteLLMClient(CompletionsClient):
    """An ``LLMClient`` backed by ``litellm.acompletion``."""

    def __init__(
        self,
        *,
        model: str,
        api_key: str | None = None,
        base_url: str | None = None,
        provider: str = "litellm",
        timeout_s: float = 60.0,
        rules: WireRules | None = None,
        key_env: str | None = None,
    ) -> None:
        litellm = import_litellm()
        self._identity(
            provider=provider, model=model, base_url=base_url, timeout_s=timeout_s, api_key=api_key, rules=rules,
            key_env=key_env,
        )
        self._acompletion = litellm.acompletion
        import openai

        self._wire_chunks = openai.AsyncStream
        self._wire_model = litellm_model_name(model, base_url, {str(p) for p in litellm.provider_list} | {
            getattr(p, "value", str(p)) for p in litellm.provider_list
        })

    def __repr__(self) -> str:
        return f"LiteLLMClient(provider={self.provider!r}, model={self.model!r}, base_url={self.base_url!r})"

    def _base_request(self) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": self._wire_model,
            "timeout": self.timeout_s,
            "num_retries": 0,
            "max_retries": 0,  # litellm's OpenAI handler would otherwise let the SDK retry twice
        }
        if self._secret is not None:
            request["api_key"] = self._secret
        if self.base_url is not None:
            request["api_base"] = self.base_url
        return request

    def _map_error(self, exc: BaseException, had_tools: bool) -> ProviderError | None:
        text = str(exc)
        if _UNREADABLE.search(text) and (getattr(exc, "status_code", None) or 500) >= 500:
            first_line = strip_wrappers(text.strip().splitlines()[0]) if text.strip() else type(exc).__name__
            return MalformedResponseError(
                f"unreadable reply: {redact(first_line, self._secret)[:300]}", provider=self.provider, model=self.model
            )
        return super()._map_error(exc, had_tools)

    async def _send(self, request: dict[str, Any]) -> Any:
        reply = await self._acompletion(**request)
        if request.get("stream"):
            raw = getattr(reply, "completion_stream", None)
            if isinstance(raw, self._wire_chunks):
                # An OpenAI-compatible server: read its chunks as sent. litellm's stream wrapper rewrites
                # them (unknown finish reasons become "stop", refusal deltas and index-less calls with a
                # reused id are lost), and the wire is what StreamAssembler is written for.
                return raw
        return reply


__all__ = ["LiteLLMClient", "import_litellm", "litellm_model_name"]
