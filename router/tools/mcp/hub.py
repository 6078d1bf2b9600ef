"""``McpHub``: the configured MCP servers of one Router, as tools for its registry.

Servers start on first use, all at once (a slow one does not delay the others by
its whole start-up), and stay up until the Router closes. A server that cannot
start costs its own tools only: the question is still answered with the others,
and the reason (naming the server and the missing command or variable) is reported.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from router.errors import McpError
from router.tools.mcp.choose import choose_tools
from router.tools.mcp.connection import McpConnection
from router.tools.mcp.names import assign_names
from router.tools.mcp.tool import McpTool

if TYPE_CHECKING:
    from router.config.mcp import McpSettings
    from router.tools.registry import ToolRegistry


@dataclass(frozen=True)
class McpListing:
    """Every allowlisted tool of every server that answered, and why the others are missing."""

    tools: tuple[McpTool, ...] = ()
    problems: tuple[str, ...] = ()
    servers: dict[str, int] = field(default_factory=dict)
    """Server -> how many tools it listed in all (before the allowlist)."""


class McpHub:
    def __init__(self, settings: McpSettings, base_dir: str | None = None) -> None:
        self.settings = settings
        self.connections = {
            name: McpConnection(name, server, base_dir or os.getcwd()) for name, server in settings.servers.items()
        }
        self._made: dict[tuple[str, str, str], McpTool] = {}

    async def listing(self, taken: Iterable[str] = ()) -> McpListing:
        """The tools to offer, named so they collide neither with ``taken`` nor with each other."""
        names = list(self.connections)
        found = await asyncio.gather(*(self.connections[n].list_tools() for n in names), return_exceptions=True)
        used = set(taken)
        tools: list[McpTool] = []
        problems: list[str] = []
        counts: dict[str, int] = {}
        for name, result in zip(names, found, strict=True):
            if isinstance(result, BaseException):
                if not isinstance(result, Exception):
                    raise result
                problems.append(str(result) if isinstance(result, McpError) else f"MCP server {name!r}: {result}")
                continue
            counts[name] = len(result)
            allow = self.connections[name].settings.tools
            offered = [t for t in result if allow is None or t.name in allow]
            if allow is not None:
                unknown = sorted(set(allow) - {t.name for t in result})
                if unknown:
                    problems.append(f"MCP server {name!r} has no tool {', '.join(map(repr, unknown))} (listed in its tools:)")
            assigned = assign_names(name, [t.name for t in offered], used)
            for remote in offered:
                tools.append(self._tool(name, assigned[remote.name], remote.name, remote.description, remote.input_schema))
            used.update(assigned.values())
        return McpListing(tuple(tools), tuple(problems), counts)

    def _tool(self, server: str, name: str, remote: str, description: str, schema: dict[str, object]) -> McpTool:
        """The same McpTool object for an unchanged tool (its compiled schema validator is kept)."""
        key = (server, name, remote, description, json.dumps(schema, sort_keys=True, default=str))
        made = self._made.get(key)
        if made is None:
            if len(self._made) > 50_000:  # servers that keep changing their tools: start over
                self._made.clear()
            made = self._made[key] = McpTool(self.connections[server], name, remote, description, schema)
        return made

    async def registry_for(self, query: str, base: ToolRegistry | None = None) -> tuple[ToolRegistry, list[str]]:
        """``base`` (default: the built-in tools) plus the MCP tools chosen for ``query``, and what to tell the user."""
        from router.tools.registry import ToolRegistry

        base = base if base is not None else ToolRegistry.default()
        listing = await self.listing(taken=base.names())
        choice = choose_tools(
            query, listing.tools, max_tools=self.settings.max_tools_per_request, max_chars=self.settings.max_schema_chars
        )
        note = choice.note(self.settings.max_tools_per_request)
        return ToolRegistry([*base, *choice.offered]), [*listing.problems, *([note] if note else [])]

    async def aclose(self) -> None:
        await asyncio.gather(*(c.aclose() for c in self.connections.values()), return_exceptions=True)


__all__ = ["McpHub", "McpListing"]
