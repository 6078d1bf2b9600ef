"""How often the MCP tool a question needs is among the ones offered, and how much prompt that saves.

Tools: the 38 documented tools of five public reference MCP servers (git, filesystem,
memory, time, fetch; ``bench/data/mcp_reference_tools.json``), alone and padded to 200
with 162 generated look-alike tools (the 200-tool case). Questions: 40 written before
the scorer was first run on them, each with the tools that would do
(``bench/data/mcp_tool_questions.json``). The scorer (``router.tools.mcp.choose``) was
not tuned on them. Prints, for each catalogue and bound: recall (the needed tool was
offered), the schema characters sent against sending every tool, and the time per choice.
Usage: ``python bench/mcp_tool_choice.py`` (a second or two).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from router.tools.mcp.choose import choose_tools, schema_chars  # noqa: E402
from router.tools.mcp.names import assign_names  # noqa: E402
from router.tools.mcp.tool import McpTool  # noqa: E402

DATA = ROOT / "bench" / "data"
TOPICS = ["invoice", "weather", "calendar", "ticket", "inventory", "payroll", "shipment", "contract", "customer"]


def catalogue(padding: int) -> list[McpTool]:
    spec = json.loads((DATA / "mcp_reference_tools.json").read_text(encoding="utf-8"))["tools"]
    for i in range(padding):
        topic = TOPICS[i % len(TOPICS)]
        spec.append({"server": "erp", "name": f"{topic}_op_{i:03d}", "description": f"Operation {i} on {topic} records: look up, "
                     "create or update entries by query.", "inputSchema": {"type": "object", "properties": {
                     "query": {"type": "string", "description": f"What to look for in the {topic} records"}}}})  # fmt: skip
    tools: list[McpTool] = []
    taken: set[str] = set()
    for server in dict.fromkeys(s["server"] for s in spec):
        own = [s for s in spec if s["server"] == server]
        names = assign_names(server, [s["name"] for s in own], taken)
        taken.update(names.values())
        connection = SimpleNamespace(name=server, settings=SimpleNamespace(timeout_s=30.0))
        tools += [McpTool(connection, names[s["name"]], s["name"], s["description"], s["inputSchema"]) for s in own]  # type: ignore[arg-type]
    return tools


def main() -> int:
    questions = json.loads((DATA / "mcp_tool_questions.json").read_text(encoding="utf-8"))["questions"]
    print(f"{'tools':>5} {'bound':>5} {'recall':>8} {'schema chars sent':>22} {'ms/choice':>10}  missed")
    for padding in (0, 162):
        tools = catalogue(padding)
        everything = sum(schema_chars(t) for t in tools)
        for bound in (4, 8, 16):
            hits, sent, missed = 0, 0, []
            started = time.perf_counter()
            for item in questions:
                choice = choose_tools(item["q"], tools, max_tools=bound, max_chars=24_000)
                offered = {t.server_tool for t in choice.offered}
                sent += sum(schema_chars(t) for t in choice.offered)
                if offered & set(item["accept"]):
                    hits += 1
                else:
                    missed.append(item["accept"][0])
            elapsed = (time.perf_counter() - started) / len(questions) * 1e3
            share = f"{sent / len(questions):,.0f} of {everything:,} ({sent / len(questions) / everything:.0%})"
            print(f"{len(tools):>5} {bound:>5} {hits:>3}/{len(questions):<4} {share:>22} {elapsed:>10.2f}  {', '.join(missed) or '-'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
