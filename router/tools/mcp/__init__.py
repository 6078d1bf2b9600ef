"""MCP servers' tools in the tool loop (``mcp:`` in providers.yaml).

Importing this package does not import the ``mcp`` SDK: it loads when a server starts.
"""

from router.tools.mcp.hub import McpHub, McpListing
from router.tools.mcp.tool import McpTool

__all__ = ["McpHub", "McpListing", "McpTool"]
