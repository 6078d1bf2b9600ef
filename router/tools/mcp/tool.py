"""``McpTool``: one tool of an MCP server, offered to the model like any ``@tool`` function.

It is a ``Tool`` with a remote body: the schema is the server's ``inputSchema``
unchanged (only the name differs, see ``names``), arguments are checked against
that JSON schema before anything is sent, and the call goes through the server's
connection. What the server answers becomes text (``results``); ``isError`` and
protocol errors are raised as ``McpToolError`` / ``McpError`` so the tool runner
writes them into the tool message and the record, as for any failing tool.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from router.errors import ToolArgumentsError
from router.tools.registry import Tool

if TYPE_CHECKING:
    from router.tools.mcp.connection import McpConnection

MAX_DESCRIPTION_CHARS = 2000
"""A server's description longer than this is cut: it is sent with every request that offers the tool."""
_MAX_PROBLEMS = 3


class McpTool(Tool):
    """A remote tool. ``Tool.__init__`` reads a Python signature, which a remote tool does not have."""

    def __init__(self, connection: McpConnection, name: str, server_tool: str, description: str, input_schema: Mapping[str, Any]) -> None:
        self.name = name
        self.server = connection.name
        self.server_tool = server_tool
        self.description = (description or server_tool)[:MAX_DESCRIPTION_CHARS]
        parameters = copy.deepcopy(dict(input_schema)) if input_schema else {}
        parameters.setdefault("type", "object")
        if parameters.get("type") == "object":
            parameters.setdefault("properties", {})
        self._schema = {
            "type": "function",
            "function": {"name": name, "description": self.description, "parameters": parameters},
        }
        self._connection = connection
        self._validator: Any = None
        self.is_async = True
        self.background = False
        self.timeout_s = connection.settings.timeout_s
        self.afn = self._call
        self.fn = self._call_sync
        self._original = self._call

    @property
    def input_schema(self) -> dict[str, Any]:
        return copy.deepcopy(self._schema["function"]["parameters"])

    @property
    def parameters(self) -> list[str]:
        return list(self._schema["function"]["parameters"].get("properties") or {})

    @property
    def required(self) -> list[str]:
        return list(self._schema["function"]["parameters"].get("required") or [])

    def __repr__(self) -> str:
        return f"McpTool({self.name!r}, server={self.server!r}, tool={self.server_tool!r})"

    def _compiled(self) -> Any:
        if self._validator is None:
            from jsonschema import validators
            from jsonschema.exceptions import SchemaError

            schema = self._schema["function"]["parameters"]
            cls = validators.validator_for(schema, default=validators.Draft202012Validator)
            try:
                cls.check_schema(schema)
                self._validator = cls(schema)
            except SchemaError:  # the server's own schema is broken: it checks its arguments itself
                self._validator = False
        return self._validator

    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The arguments unchanged when they satisfy the server's schema, else ToolArgumentsError saying why."""
        if not isinstance(arguments, Mapping):
            raise ToolArgumentsError(f"arguments for {self.name} must be a JSON object, got {type(arguments).__name__}")
        validator = self._compiled()
        if validator:
            problems = []
            for error in sorted(validator.iter_errors(dict(arguments)), key=lambda e: list(e.absolute_path)):
                where = ".".join(str(part) for part in error.absolute_path) or "arguments"
                problems.append(f"{where}: {error.message[:200]}")
                if len(problems) == _MAX_PROBLEMS:
                    break
            if problems:
                raise ToolArgumentsError(f"invalid arguments for {self.name}: " + "; ".join(problems))
        return dict(arguments)

    async def _call(self, **arguments: Any) -> str:
        return await self._connection.call_tool(self.server_tool, arguments)

    def _call_sync(self, **arguments: Any) -> str:
        from router.aio import run_sync

        return run_sync(self._call(**arguments))


__all__ = ["McpTool"]
