"""Failover scorecard: every fault scenario against a faulty primary and a healthy backup on 127.0.0.1.

The real Router and OpenAIClient over HTTP, real sleeps (backoff waits count),
breaker at its shipped defaults. Per scenario: pass/fail, time to the answer,
wasted attempts (failed tries that reached a server), and the ratio of the time
to a healthy request measured in the same run (the baseline).

    python bench/failover.py [--first-token 2] [--stall 2]

The shipped time-to-first-token limit is 10 s; the bench sets ``--first-token``
(default 2 s) so the run stays short, and judges the silent provider against
that limit + 2 s. Goals: all pass; silent provider on the fallback within
TTFT + 2 s; during a flapping outage <= 2 primary attempts per request and back
on the primary <= 5 s after it recovers.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from failover_scenarios import BACKUP_TEXT, TOOLS, Outcome, ask, closed_port_url, config, make_router  # noqa: E402
from fake_openai_server import (  # noqa: E402
    ContentPolicy,
    ContextExceeded,
    CutStream,
    FakeOpenAIServer,
    Malformed,
    MissingDone,
    RateLimited,
    Reset,
    ServerError,
    Silent,
    SlowFirstToken,
    Stall,
    Text,
    ToolCalls,
)

from router.config import BreakerSettings  # noqa: E402


@dataclass(frozen=True)
class Scenario:
    name: str
    replies: tuple[Any, ...]
    stream: bool = True
    tools: bool = False
    check: Callable[[Outcome], bool] = lambda o: o.provider == "backup" and o.answer is not None and o.answer.text == BACKUP_TEXT
    refused: bool = False


def backup_answer(o: Outcome) -> bool:
    return o.error is None and o.provider == "backup" and o.answer is not None and o.answer.text == BACKUP_TEXT


def restarted(o: Outcome) -> bool:
    return backup_answer(o) and o.restarted and o.text_after_restart == BACKUP_TEXT


def primary(text: str) -> Callable[[Outcome], bool]:
    return lambda o: o.error is None and o.provider == "primary" and o.answer is not None and o.answer.text == text


def whole_tool_call(o: Outcome) -> bool:
    # the primary's pieces were streamed live, so a restart event tells the caller to discard them
    return (o.error is None and o.provider == "backup" and o.answer is not None
            and [(c.name, c.arguments) for c in o.answer.tool_calls] == [("lookup", '{"q": "backup"}')])  # fmt: skip


def scenarios(first_token_s: float) -> list[Scenario]:
    return [
        Scenario("429 Retry-After 1 s", (RateLimited(1), Text("primary after 429")), check=primary("primary after 429")),
        Scenario("429 Retry-After 120 s", (RateLimited(120),), check=backup_answer),
        Scenario("429 no Retry-After", (RateLimited(None), RateLimited(None)), check=backup_answer),
        Scenario("500", (ServerError(), ServerError()), check=backup_answer),
        Scenario("503 then ok", (ServerError(503), Text("primary after 503")), check=primary("primary after 503")),
        Scenario("connection reset", (Reset(), Reset()), check=backup_answer),
        Scenario("refused connection", (), check=backup_answer, refused=True),
        Scenario("silent (stream)", (Silent(),), check=backup_answer),
        Scenario("silent (no stream)", (Silent(),), stream=False, check=backup_answer),
        Scenario("slow first token", (SlowFirstToken(first_token_s + 3),), check=backup_answer),
        Scenario("stall mid-stream", (Stall(after_chunks=4),), check=restarted),
        Scenario("stream cut mid-text", (CutStream(Text("cut in the middle of it", chunk_size=3), after_chunks=4),), check=restarted),
        Scenario("stream cut mid-tool-call", (CutStream(ToolCalls((("lookup", '{"q": "primary query"}'),), chunk_size=3),
                                                        after_chunks=4),), tools=True, check=whole_tool_call),
        Scenario("malformed chunk", (Malformed(), Malformed()), check=backup_answer),
        Scenario("missing [DONE] / finish", (MissingDone(),), check=restarted),
        Scenario("context length exceeded", (ContextExceeded(),), stream=False, check=backup_answer),
        Scenario("content policy 400", (ContentPolicy(),), stream=False, check=backup_answer),
        Scenario("content_filter finish", (Text("cut", finish_reason="content_filter"),), check=backup_answer),
    ]


def run_scenario(scenario: Scenario, first_token_s: float, stall_s: float) -> Outcome:
    with FakeOpenAIServer() as faulty, FakeOpenAIServer() as backup:
        backup.default_reply = ToolCalls((("lookup", '{"q": "backup"}'),)) if scenario.tools else Text(BACKUP_TEXT, chunk_size=4)
        faulty.enqueue(*scenario.replies)
        url = closed_port_url() if scenario.refused else faulty.base_url
        retry = "max_wait_s: 2, on_content_filter: fallback"
        cfg = config(url, backup.base_url, first_token_s=first_token_s, stall_s=stall_s, retry=retry,
                     failures=BreakerSettings().failures, cooldown_s=BreakerSettings().cooldown_s)  # fmt: skip
        with make_router(cfg, real_sleep=True) as router:
            ask(router, stream=False)  # warm the clients (imports, connection pools); its tries are not scored
            faulty.clear()
            faulty.enqueue(*scenario.replies)
            return ask(router, stream=scenario.stream, tools=TOOLS if scenario.tools else None)


def baseline(first_token_s: float, stall_s: float) -> float:
    with FakeOpenAIServer(default_reply=Text("healthy")) as healthy, FakeOpenAIServer() as backup:
        cfg = config(healthy.base_url, backup.base_url, first_token_s=first_token_s, stall_s=stall_s)
        with make_router(cfg, real_sleep=True) as router:
            ask(router, stream=True)
            times = sorted(ask(router, stream=True).elapsed_s for _ in range(9))
    return times[len(times) // 2]


def flapping(first_token_s: float) -> tuple[bool, str]:
    """Down for 3 s, up, down again; requests every 50 ms. Max primary tries per request; time back on primary."""
    defaults = BreakerSettings()
    with FakeOpenAIServer() as faulty, FakeOpenAIServer(default_reply=Text(BACKUP_TEXT)) as backup:
        faulty.default_reply = Text("primary up")
        cfg = config(faulty.base_url, backup.base_url, first_token_s=first_token_s, failures=defaults.failures,
                     cooldown_s=defaults.cooldown_s)  # fmt: skip
        with make_router(cfg, real_sleep=True) as router:
            ask(router, stream=False)
            outcomes: list[Outcome] = []

            def phase(reply: Any, seconds: float, until_primary: bool = False) -> float | None:
                faulty.default_reply = reply
                started = time.perf_counter()
                while time.perf_counter() - started < seconds:
                    outcome = ask(router, stream=False)
                    outcomes.append(outcome)
                    if until_primary and outcome.provider == "primary":
                        return time.perf_counter() - started
                    time.sleep(0.05)
                return None

            phase(ServerError(503, "flapping"), 3.0)
            back_after = phase(Text("primary up"), 10.0, until_primary=True)
            phase(ServerError(503, "flapping"), 3.0)
    worst = max(o.tries("primary") for o in outcomes)
    failed = sum(o.error is not None for o in outcomes)
    ok = worst <= 2 and back_after is not None and back_after <= 5.0 and failed == 0
    back = f"{back_after:.2f} s" if back_after is not None else "never"
    return ok, (f"{len(outcomes)} requests, {failed} failed, max primary tries/request {worst} (goal <= 2), "
                f"back on primary {back} after recovery (goal <= 5 s; breaker cooldown {defaults.cooldown_s:g} s)")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first-token", type=float, default=2.0, help="time-to-first-token limit in s (shipped: 10)")
    parser.add_argument("--stall", type=float, default=2.0, help="stall limit in s (shipped: 20)")
    args = parser.parse_args(argv)
    base = baseline(args.first_token, args.stall)
    print(f"failover scorecard (first-token limit {args.first_token:g} s, stall limit {args.stall:g} s; "
          f"shipped defaults 10 s / 20 s); baseline healthy stream {base * 1000:.0f} ms")  # fmt: skip
    print(f"{'scenario':28} {'result':6} {'time':>8} {'x base':>8} {'wasted':>6}  answered by / note")
    passed = 0
    rows = scenarios(args.first_token)
    for scenario in rows:
        outcome = run_scenario(scenario, args.first_token, args.stall)
        ok = scenario.check(outcome)
        note = outcome.provider or f"error: {outcome.error}"
        if scenario.name.startswith("silent (stream)"):
            limit = args.first_token + 2
            ok = ok and outcome.elapsed_s <= limit
            note += f"; goal <= {limit:g} s (TTFT + 2 s)"
        if outcome.restarted:
            note += "; restart event"
        passed += ok
        print(f"{scenario.name:28} {'pass' if ok else 'FAIL':6} {outcome.elapsed_s:7.2f}s {outcome.elapsed_s / base:8.1f} "
              f"{outcome.wasted:6}  {note}")  # fmt: skip
    ok, line = flapping(args.first_token)
    passed += ok
    print(f"{'flapping (fail/ok/fail)':28} {'pass' if ok else 'FAIL':6} {'':>8} {'':>8} {'':>6}  {line}")
    total = len(rows) + 1
    print(f"{passed}/{total} scenarios pass")
    return 0 if passed == total else 1


if __name__ == "__main__":
    raise SystemExit(main())
