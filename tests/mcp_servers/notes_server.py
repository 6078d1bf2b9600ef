"""A real MCP server for the tests, built with the SDK's own server API (``MCPServer``).

Run as ``python notes_server.py`` (stdio) or ``python notes_server.py --http PORT``
(streamable HTTP on 127.0.0.1). ``--tools N`` adds N generated tools (the 200-tool
case). It keeps notes in memory, fails on purpose (``fail``), sleeps (``slow``),
dies mid-call (``crash``) and grows a tool at run time (``add_tool``, which sends
``notifications/tools/list_changed``).
"""

from __future__ import annotations

import argparse
import os
import time

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, EmbeddedResource, ImageContent, TextContent, TextResourceContents

server = MCPServer("notes")
NOTES: dict[str, str] = {}


@server.tool()
def add_note(title: str, text: str) -> str:
    """Store a note under a title."""
    NOTES[title] = text
    return f"saved note {title!r} ({len(text)} characters)"


@server.tool()
def get_note(title: str) -> str:
    """Read the note stored under a title."""
    if title not in NOTES:
        raise ToolError(f"no note titled {title!r}")
    return NOTES[title]


@server.tool()
def count_words(text: str, min_length: int = 1) -> int:
    """Count the words in a text that have at least min_length letters."""
    return sum(1 for word in text.split() if len(word) >= min_length)


@server.tool()
def slow(seconds: float) -> str:
    """Wait, then answer (for timeouts)."""
    time.sleep(seconds)
    return f"waited {seconds} s"


@server.tool()
def crash(code: int = 3) -> str:
    """Exit the server process in the middle of the call."""
    import sys

    sys.stderr.write("notes server: crashing on purpose\n")
    sys.stderr.flush()
    os._exit(code)


@server.tool()
def env_value(name: str) -> str:
    """The value of an environment variable in the server, or <unset>."""
    return os.environ.get(name, "<unset>")


@server.tool()
def auth_header(ctx: Context) -> str:
    """The Authorization header this HTTP request carried, or <none> (stdio has no headers)."""
    return (ctx.headers or {}).get("authorization", "<none>")


@server.tool()
def pid() -> int:
    """The server's process id (to see restarts)."""
    return os.getpid()


@server.tool()
def picture() -> CallToolResult:
    """A caption, a small PNG and an embedded text resource."""
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    resource = TextResourceContents(uri="note://readme", mime_type="text/plain", text="readme text")
    return CallToolResult(
        content=[
            TextContent(type="text", text="a one-pixel picture"),
            ImageContent(type="image", data=png, mime_type="image/png"),
            EmbeddedResource(type="resource", resource=resource),
        ]
    )


@server.tool()
async def add_tool(name: str, ctx: Context) -> str:
    """Add a tool named name at run time and tell the client the tool list changed."""

    def generated(value: str) -> str:
        return f"{name}: {value}"

    server.add_tool(generated, name=name, description=f"A tool added at run time ({name}).")
    await ctx.session.send_tool_list_changed()
    return f"added {name}"


def add_many(count: int) -> None:
    topics = ["invoice", "weather", "calendar", "ticket", "inventory", "payroll", "shipment", "contract"]
    for i in range(count):
        topic = topics[i % len(topics)]

        def generated(query: str, i: int = i, topic: str = topic) -> str:
            return f"{topic} tool {i}: {query}"

        server.add_tool(generated, name=f"{topic}_op_{i:03d}", description=f"Operation {i} on {topic} records: look up by query.")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", type=int, default=None)
    parser.add_argument("--tools", type=int, default=0)
    args = parser.parse_args()
    add_many(args.tools)
    if args.http is None:
        server.run()
    else:
        server.run("streamable-http", host="127.0.0.1", port=args.http)
