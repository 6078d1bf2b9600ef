"""How often the MCP tool a question needs is among the ones offered, and how much prompt that saves.

Two sets, each alone and padded to 200 tools with generated look-alikes (the 200-tool case):

* dev: the 38 documented tools of five public reference MCP servers (git, filesystem,
  memory, time, fetch) and 40 questions written before the scorer first ran on them.
  Its first run found 24/40 at 8 tools offered; the general tool vocabulary in
  ``choose.py`` was written after looking at its misses, so this set no longer counts;
* held-out: the 44 documented tools of the GitHub and Slack reference servers and 32
  questions, written after that vocabulary was fixed and not edited after their first run.

Each question lists every tool that would do. Prints, for each catalogue and bound: recall (the needed tool was
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


def catalogue(padding: int, file: str) -> list[McpTool]:
    spec = json.loads((DATA / file).read_text(encoding="utf-8"))["tools"]
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


SETS = (
    ("dev (shaped the vocabulary)", "mcp_reference_tools.json", "mcp_tool_questions.json"),
    ("held-out", "mcp_heldout_tools.json", "mcp_heldout_questions.json"),
)


def main() -> int:
    print(f"{'set':<28} {'tools':>5} {'bound':>5} {'recall':>8} {'schema chars sent per question':>32} {'ms/choice':>10}  missed")
    for label, tool_file, question_file in SETS:
        questions = json.loads((DATA / question_file).read_text(encoding="utf-8"))["questions"]
        real = len(catalogue(0, tool_file))
        for padding in (0, 200 - real):
            tools = catalogue(padding, tool_file)
            everything = sum(schema_chars(t) for t in tools)
            for bound in (4, 8, 16):
                hits, sent, missed = 0, 0, []
                started = time.perf_counter()
                for item in questions:
                    choice = choose_tools(item["q"], tools, max_tools=bound, max_chars=24_000)
                    sent += sum(schema_chars(t) for t in choice.offered)
                    if {t.server_tool for t in choice.offered} & set(item["accept"]):
                        hits += 1
                    else:
                        missed.append(item["accept"][0])
                elapsed = (time.perf_counter() - started) / len(questions) * 1e3
                share = f"{sent / len(questions):,.0f} of {everything:,} ({sent / len(questions) / everything:.0%})"
                print(f"{label:<28} {len(tools):>5} {bound:>5} {hits:>3}/{len(questions):<4} {share:>32} {elapsed:>10.2f}  "
                      f"{', '.join(missed) or '-'}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
