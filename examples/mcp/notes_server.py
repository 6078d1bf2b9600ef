"""A tiny MCP server (stdio) for the README: notes kept in memory."""

from mcp.server.mcpserver import MCPServer

server = MCPServer("notes")
notes: dict[str, str] = {}


@server.tool()
def save_note(title: str, text: str) -> str:
    """Save a note under a title."""
    notes[title] = text
    return f"saved {title!r}"


@server.tool()
def read_note(title: str) -> str:
    """Read the note saved under a title."""
    return notes.get(title, f"no note titled {title!r}")


if __name__ == "__main__":
    server.run()
