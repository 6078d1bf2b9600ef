"""``python -m router tools [--json] [--config PATH]``: every tool a react question can use.

Built-in tools, the caller's ``@tool`` functions (a Router made with ``registry=``) and
each MCP server's allowlisted tools, with the server, the server's own tool name and
a one-line summary of the arguments (``*`` required, ``=`` default). MCP servers are
started to list their tools and stopped again. Exit 0; 1 when an MCP server could
not be listed (the others still are); 2 for a bad config.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from typing import Any, TextIO

SUMMARY_CHARS = 90


@dataclass(frozen=True)
class ToolRow:
    name: str
    source: str
    """``built-in``, ``user`` or ``mcp``."""
    server: str
    server_tool: str
    summary: str
    description: str


def summarize(parameters: dict[str, Any]) -> str:
    """``title: string*, limit: integer=10`` from a JSON schema, cut to ``SUMMARY_CHARS``."""
    required = set(parameters.get("required") or ())
    parts = []
    for name, prop in (parameters.get("properties") or {}).items():
        prop = prop if isinstance(prop, dict) else {}
        kind = prop.get("type") or ("enum" if "enum" in prop else "any")
        kind = "|".join(kind) if isinstance(kind, list) else str(kind)
        mark = "*" if name in required else (f"={json.dumps(prop['default'])}" if "default" in prop else "")
        parts.append(f"{name}: {kind}{mark}")
    text = ", ".join(parts) or "(no arguments)"
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 3] + "..."


async def tool_rows(router: Any) -> tuple[list[ToolRow], list[str]]:
    """The rows for ``router``'s tools, and the MCP servers' problems (one line each)."""
    from router.tools.builtin import BUILTIN_TOOLS
    from router.tools.registry import ToolRegistry

    builtin = {tool.name for tool in BUILTIN_TOOLS}
    base = router._registry if router._registry is not None else ToolRegistry.default()
    rows = [
        ToolRow(t.name, "built-in" if t.name in builtin else "user", "", "", summarize(t.schema["function"]["parameters"]), t.description)
        for t in base
    ]
    problems: list[str] = []
    if router.config.mcp.servers:
        listing = await router.mcp.listing(taken=base.names())
        problems = list(listing.problems)
        for t in listing.tools:
            rows.append(ToolRow(t.name, "mcp", t.server, t.server_tool, summarize(t.input_schema), t.description))
    return rows, problems


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="router tools", description="list the tools a react question can use")
    parser.add_argument("--json", action="store_true", help="one JSON object: tools and problems")
    parser.add_argument("--config", help="providers.yaml (default: $ROUTER_CONFIG, ./providers.yaml, packaged)")
    return parser


def main(argv: list[str], *, stdout: TextIO, stderr: TextIO) -> int:
    from router.aio import run_sync
    from router.core import Router
    from router.errors import ConfigError, UsageError

    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        router = Router.from_yaml(args.config)
    except (ConfigError, UsageError) as exc:
        stderr.write(f"router: error: {' '.join(str(exc).split())}\n")
        return 2
    try:
        rows, problems = run_sync(tool_rows(router))
    finally:
        router.close()
    if args.json:
        stdout.write(json.dumps({"tools": [asdict(r) for r in rows], "problems": problems}, ensure_ascii=False, indent=2) + "\n")
    else:
        table = [("tool", "source", "arguments")] + [
            (r.name, f"mcp {r.server}/{r.server_tool}" if r.source == "mcp" else r.source, r.summary) for r in rows
        ]
        widths = [max(len(line[i]) for line in table) for i in range(2)]
        for line in table:
            stdout.write(f"{line[0]:<{widths[0]}}  {line[1]:<{widths[1]}}  {line[2]}\n")
        for problem in problems:
            stderr.write(f"router: warning: {problem}\n")
    return 1 if problems else 0


__all__ = ["ToolRow", "main", "summarize", "tool_rows"]
