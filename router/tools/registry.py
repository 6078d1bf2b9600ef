"""``@tool`` and ``ToolRegistry``: one Python function -> one OpenAI tool schema.

The schema is derived from the signature and the docstring so the description a
model reads can never drift from the code that runs. Arguments coming back from a
model are validated with a pydantic model built from the same signature before
the function runs; what was wrong goes back to the model as text.

pydantic is imported lazily (first validation), so defining tools stays cheap.

``async def`` tools are marked ``is_async``: an async loop awaits ``Tool.afn``,
while ``Tool.fn`` (what a worker thread calls) runs the coroutine to completion
in that thread, so a coroutine object is never mistaken for a result. Generator
functions are refused at decoration time: a generator's repr is not an answer.
Errors a tool reports or raises are redacted like provider errors before they
reach a model, a record or a log (``describe_tool_error``).
"""

from __future__ import annotations

import copy
import enum
import functools
import inspect
import json
import re
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from router.errors import ToolArgumentsError, ToolDefinitionError
from router.redaction import redact, scrub_exception
from router.tools.schema import parse_docstring, schema_for

_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _json_default(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    return str(value)


def result_to_text(value: Any) -> str:
    """Tool results travel as text: strings unchanged, everything else as JSON (non-ASCII kept)."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=_json_default)
    except (TypeError, ValueError):
        return str(value)


def result_error(value: Any) -> str | None:
    """The failure a tool reported by returning ``{"error": ...}``, else None.

    Built-in tools never raise at a model (their errors are results the model can
    read); this convention lets the loop still mark such a call as failed.
    """
    if isinstance(value, Mapping) and value.get("error"):
        return redact(str(value["error"]))
    return None


def describe_tool_error(exc: BaseException) -> str:
    """``"Type: message"`` for an exception a tool raised, with secrets masked (one line)."""
    message = " ".join(str(exc).split())
    return redact(f"{type(exc).__name__}: {message}" if message else type(exc).__name__)


# --- docstrings ---------------------------------------------------------------------------


class Tool:
    """A function a model may call, with its schema and argument validation.

    Calling the Tool calls the function directly; ``invoke`` is what the loop uses
    (validate model-supplied arguments, then call).
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        background: bool = False,
        timeout_s: float | None = None,
    ) -> None:
        if not callable(fn):
            raise ToolDefinitionError(f"@tool needs a callable, got {fn!r}")
        self.name = name or getattr(fn, "__name__", "")
        if not _NAME.match(self.name):
            raise ToolDefinitionError(f"tool name {self.name!r} must match [A-Za-z0-9_-]{{1,64}}")
        target = inspect.unwrap(fn)
        if inspect.isgeneratorfunction(target) or inspect.isasyncgenfunction(target):
            raise ToolDefinitionError(
                f"tool {self.name!r} is a generator function: a tool must return its result (collect the items "
                "into a list and return it)"
            )
        self.is_async = inspect.iscoroutinefunction(target) or inspect.iscoroutinefunction(
            getattr(fn, "__call__", None)  # noqa: B004 - an object with an async __call__
        )
        self._original = fn
        self.afn: Callable[..., Any] | None = fn if self.is_async else None
        """The coroutine function of an ``async def`` tool (None otherwise): what an async loop awaits."""
        self.fn: Callable[..., Any] = self._sync_entry(fn)
        """A plain callable that returns the result; raises with secrets masked in the message."""
        if timeout_s is not None and timeout_s <= 0:
            raise ToolDefinitionError(f"tool {self.name!r}: timeout_s must be > 0")
        self.background = background
        self.timeout_s = timeout_s
        summary, param_docs = parse_docstring(inspect.getdoc(fn))
        self.description = (description if description is not None else summary) or self.name
        self._params = self._read_signature(fn)
        properties: dict[str, Any] = {}
        required: list[str] = []
        for pname, annotation, default in self._params:
            where = f"tool {self.name!r}, parameter {pname!r}"
            prop = schema_for(annotation, where)
            if pname in param_docs and param_docs[pname] and "description" not in prop:
                prop["description"] = param_docs[pname]
            if default is inspect.Parameter.empty:
                required.append(pname)
            else:
                default_value = default.value if isinstance(default, enum.Enum) else default
                try:
                    json.dumps(default_value)
                    prop["default"] = default_value
                except (TypeError, ValueError):
                    pass
            properties[pname] = prop
        parameters: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            parameters["required"] = required
        self._schema = {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": parameters},
        }
        self._model: Any = None
        functools.update_wrapper(self, fn)  # type: ignore[arg-type]

    def _sync_entry(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        is_async = self.is_async

        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                if is_async:  # in a worker thread there is no running loop: run it to completion here
                    import asyncio  # only for async tools: defining tools stays cheap

                    return asyncio.run(fn(*args, **kwargs))
                return fn(*args, **kwargs)
            except Exception as exc:
                scrub_exception(exc)
                raise

        return run

    def _read_signature(self, fn: Callable[..., Any]) -> list[tuple[str, Any, Any]]:
        try:
            signature = inspect.signature(fn)
            hints = typing.get_type_hints(fn, include_extras=True)
        except (TypeError, ValueError, NameError) as exc:
            raise ToolDefinitionError(f"tool {self.name!r}: cannot read its signature: {exc}") from exc
        params: list[tuple[str, Any, Any]] = []
        for pname, param in signature.parameters.items():
            if param.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
                raise ToolDefinitionError(f"tool {self.name!r}: *args/**kwargs cannot be described to a model")
            if param.kind is inspect.Parameter.POSITIONAL_ONLY:
                raise ToolDefinitionError(f"tool {self.name!r}: positional-only parameter {pname!r} is not supported")
            if pname not in hints:
                raise ToolDefinitionError(f"tool {self.name!r}: parameter {pname!r} needs a type annotation")
            params.append((pname, hints[pname], param.default))
        return params

    @property
    def schema(self) -> dict[str, Any]:
        """The OpenAI tool schema (a copy: callers may not change the tool through it)."""
        return copy.deepcopy(self._schema)

    @property
    def parameters(self) -> list[str]:
        return [pname for pname, _, _ in self._params]

    @property
    def required(self) -> list[str]:
        return [pname for pname, _, default in self._params if default is inspect.Parameter.empty]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """The function itself, unchanged (an async tool called directly returns its coroutine)."""
        return self._original(*args, **kwargs)

    def __repr__(self) -> str:
        flags = ", background=True" if self.background else ""
        flags += ", async" if self.is_async else ""
        return f"Tool({self.name!r}{flags})"

    def _arguments_model(self) -> Any:
        if self._model is None:
            from pydantic import ConfigDict, Field, create_model

            fields: dict[str, Any] = {}
            for index, (pname, annotation, default) in enumerate(self._params):
                default_value = ... if default is inspect.Parameter.empty else default
                fields[f"p{index}"] = (annotation, Field(default_value, alias=pname))
            self._model = create_model(  # type: ignore[call-overload]
                f"{self.name}_arguments", __config__=ConfigDict(extra="forbid", populate_by_name=False), **fields
            )
        return self._model

    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Keyword arguments for the function, or ToolArgumentsError saying what is wrong."""
        from pydantic import ValidationError

        if not isinstance(arguments, Mapping):
            raise ToolArgumentsError(f"arguments for {self.name} must be a JSON object, got {type(arguments).__name__}")
        try:
            model = self._arguments_model().model_validate(dict(arguments))
        except ValidationError as exc:
            problems = []
            for error in exc.errors():
                where = ".".join(str(part) for part in error.get("loc", ())) or "arguments"
                problems.append(f"{where}: {error.get('msg', 'invalid')}")
            raise ToolArgumentsError(f"invalid arguments for {self.name}: " + "; ".join(problems)) from None
        return {pname: getattr(model, f"p{index}") for index, (pname, _, _) in enumerate(self._params)}

    def invoke(self, arguments: Mapping[str, Any]) -> Any:
        """Validate then call: what the loop does with a model's arguments (async tools run to completion)."""
        return self.fn(**self.validate(arguments))

    async def ainvoke(self, arguments: Mapping[str, Any]) -> Any:
        """Validate then call from an event loop: async tools are awaited, sync ones run in a thread."""
        import asyncio

        kwargs = self.validate(arguments)
        try:
            if self.afn is not None:
                return await self.afn(**kwargs)
            return await asyncio.to_thread(self.fn, **kwargs)
        except Exception as exc:
            scrub_exception(exc)
            raise


def tool(
    fn: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    background: bool = False,
    timeout_s: float | None = None,
) -> Any:
    """Decorator: ``@tool``, ``@tool()`` or ``@tool(name=..., background=True, timeout_s=5)``."""

    def wrap(function: Callable[..., Any]) -> Tool:
        return Tool(function, name=name, description=description, background=background, timeout_s=timeout_s)

    return wrap(fn) if fn is not None else wrap


class ToolRegistry:
    """The tools offered to a model, by name, in registration order."""

    def __init__(self, tools: Iterable[Tool | Callable[..., Any]] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for item in tools:
            self.register(item)

    @classmethod
    def default(cls) -> ToolRegistry:
        """A fresh registry with the built-in tools (calculator, get_current_time, get_weather)."""
        from router.tools.builtin import BUILTIN_TOOLS

        return cls(BUILTIN_TOOLS)

    def register(self, tool_or_fn: Tool | Callable[..., Any]) -> Tool:
        item = tool_or_fn if isinstance(tool_or_fn, Tool) else Tool(tool_or_fn)
        if item.name in self._tools and self._tools[item.name] is not item:
            raise ToolDefinitionError(f"a tool named {item.name!r} is already registered")
        self._tools[item.name] = item
        return item

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return list(self._tools)

    def schemas(self) -> list[dict[str, Any]]:
        return [item.schema for item in self._tools.values()]

    def subset(self, names: Iterable[str]) -> ToolRegistry:
        """A registry with only the named tools (unknown names are ignored)."""
        return ToolRegistry(self._tools[n] for n in names if n in self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)

    def __iter__(self) -> Iterator[Tool]:
        return iter(list(self._tools.values()))

    def __repr__(self) -> str:
        return f"ToolRegistry({self.names()!r})"


__all__ = ["Tool", "ToolRegistry", "describe_tool_error", "parse_docstring", "result_error", "result_to_text", "tool"]
