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
    "Route": "routing.names",
    "route_model": "routing.names",
    "difficulty": "routing.difficulty",
    "understand": "understanding",
    "Understanding": "understanding",
    "auto_select": "modes.select",
    "select_mode": "modes.select",
    "ModeChoice": "modes.select",
    "run_mode": "modes.run",
    # loop and tools
    "run_tools": "loop.run",
    "ProtocolMemory": "loop.run",
    "LoopEvent": "loop.tool_runner",
    "tool": "tools.registry",
    "Tool": "tools.registry",
    "ToolRegistry": "tools.registry",
    "validate_messages": "loop.chain",
    "format_chain": "loop.chain",
    # clients
    "LLMClient": "clients.base",
    "make_client": "clients.factory",
    "OpenAIClient": "clients.openai",
    "LiteLLMClient": "clients.litellm",
    "LlamaCppClient": "clients.llama_cpp",
    "ResilientClient": "clients.resilient",
    # mocks
    "MockLLM": "clients.mock",
    "ScriptedLLM": "clients.mock",
    "FunctionLLM": "clients.mock",
    "text_response": "clients.mock",
    "tool_call_response": "clients.mock",
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
    "RequestOptions": "types",
    "Event": "types",
    "NoticeEvent": "types",
    "ModeEvent": "types",
    "RouteEvent": "types",
    "ToolCallEvent": "types",
    "ToolResultEvent": "types",
    "TextEvent": "types",
    "DoneEvent": "types",
    "arun_tools": "loop.run",
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
    "UnknownAnswerError": "errors",
    "FeedbackRefusedError": "errors",
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
    from router.clients.base import LLMClient
    from router.clients.factory import make_client
    from router.clients.litellm import LiteLLMClient
    from router.clients.llama_cpp import LlamaCppClient
    from router.clients.mock import FunctionLLM, MockLLM, ScriptedLLM, text_response, tool_call_response
    from router.clients.openai import OpenAIClient
    from router.clients.resilient import ResilientClient
    from router.config import ProviderConfig, RouterConfig, load_config, parse_config
    from router.core import Router, ask
    from router.errors import (
        AllProvidersFailedError,
        AuthenticationError,
        BadRequestError,
        ConfigError,
        FeedbackRefusedError,
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
        UnknownAnswerError,
        UsageError,
    )
    from router.loop.chain import format_chain, validate_messages
    from router.loop.run import ProtocolMemory, arun_tools, run_tools
    from router.loop.tool_runner import LoopEvent
    from router.modes.run import run_mode
    from router.modes.select import ModeChoice, auto_select, select_mode
    from router.routing.difficulty import difficulty
    from router.routing.names import Route, route_model
    from router.tools.registry import Tool, ToolRegistry, tool
    from router.types import (
        Answer,
        AssistantMessage,
        Attempt,
        ChatResponse,
        DoneEvent,
        Event,
        LoopResult,
        ModeEvent,
        NoticeEvent,
        RequestOptions,
        RouteEvent,
        StreamEvent,
        TextEvent,
        ToolCall,
        ToolCallEvent,
        ToolRecord,
        ToolResultEvent,
        Usage,
    )
    from router.understanding import Understanding, understand
