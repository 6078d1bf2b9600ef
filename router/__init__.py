"""router: one function-calling tool loop, many providers, a measured mode choice.

Importing this package is cheap on purpose: every public name is resolved on
first use (PEP 562 ``__getattr__``), so ``import router`` loads neither pydantic,
the openai SDK nor litellm. They load when a call needs them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # config
    "load_config": "config",
    "parse_config": "config",
    "RouterConfig": "config",
    "ProviderConfig": "config",
    # facade
    "Router": "core",
    "ask": "core",
    # routing and modes
    "Route": "routing",
    "route_model": "routing",
    "auto_select": "mode_classifier",
    "select_mode": "mode_classifier",
    "ModeChoice": "mode_classifier",
    "run_mode": "modes",
    # loop and tools
    "run_tools": "loop",
    "ProtocolMemory": "loop",
    "LoopEvent": "tool_runner",
    "tool": "tools",
    "Tool": "tools",
    "ToolRegistry": "tools",
    "validate_messages": "messages",
    "format_chain": "messages",
    # clients
    "LLMClient": "clients",
    "make_client": "clients",
    "OpenAIClient": "openai_client",
    "LiteLLMClient": "litellm_client",
    "LlamaCppClient": "llama_cpp_client",
    "ResilientClient": "resilience",
    # mocks
    "MockLLM": "mock",
    "ScriptedLLM": "mock",
    "FunctionLLM": "mock",
    "text_response": "mock",
    "tool_call_response": "mock",
    # types
    "ToolCall": "types",
    "AssistantMessage": "types",
    "Usage": "types",
    "Attempt": "types",
    "ChatResponse": "types",
    "StreamEvent": "types",
    "ToolRecord": "types",
    "LoopResult": "types",
    "Answer": "types",
    # errors
    "RouterError": "errors",
    "ConfigError": "errors",
    "MissingAPIKeyError": "errors",
    "UsageError": "errors",
    "ProviderError": "errors",
    "AuthenticationError": "errors",
    "RateLimitError": "errors",
    "ProviderTimeoutError": "errors",
    "ProviderUnavailableError": "errors",
    "BadRequestError": "errors",
    "ToolsUnsupportedError": "errors",
    "MalformedResponseError": "errors",
    "AllProvidersFailedError": "errors",
    "ToolError": "errors",
    "ToolDefinitionError": "errors",
    "ToolArgumentsError": "errors",
    "MessageChainError": "errors",
    "LoopLimitError": "errors",
    "ScriptExhaustedError": "errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'router' has no attribute {name!r}")
    value = getattr(import_module(f".{module_name}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from .clients import LLMClient, make_client
    from .config import ProviderConfig, RouterConfig, load_config, parse_config
    from .core import Router, ask
    from .errors import (
        AllProvidersFailedError,
        AuthenticationError,
        BadRequestError,
        ConfigError,
        LoopLimitError,
        MalformedResponseError,
        MessageChainError,
        MissingAPIKeyError,
        ProviderError,
        ProviderTimeoutError,
        ProviderUnavailableError,
        RateLimitError,
        RouterError,
        ScriptExhaustedError,
        ToolArgumentsError,
        ToolDefinitionError,
        ToolError,
        ToolsUnsupportedError,
        UsageError,
    )
    from .litellm_client import LiteLLMClient
    from .llama_cpp_client import LlamaCppClient
    from .loop import ProtocolMemory, run_tools
    from .messages import format_chain, validate_messages
    from .mock import FunctionLLM, MockLLM, ScriptedLLM, text_response, tool_call_response
    from .mode_classifier import ModeChoice, auto_select, select_mode
    from .modes import run_mode
    from .openai_client import OpenAIClient
    from .resilience import ResilientClient
    from .routing import Route, route_model
    from .tool_runner import LoopEvent
    from .tools import Tool, ToolRegistry, tool
    from .types import (
        Answer,
        AssistantMessage,
        Attempt,
        ChatResponse,
        LoopResult,
        StreamEvent,
        ToolCall,
        ToolRecord,
        Usage,
    )
