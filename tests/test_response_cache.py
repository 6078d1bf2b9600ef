"""The exact response cache: off by default, a hit costs no call, tool-call turns are never stored."""

from __future__ import annotations

import textwrap

from router import Router, ScriptedLLM, parse_config, text_response, tool_call_response

CONFIG = textwrap.dedent(
    """\
    default: a
    cache: {enabled: true, ttl_s: 60}
    providers:
      a:
        client: mock
        models: [{id: a-1}]
    """
)
Q = [{"role": "user", "content": "What is the capital of France?"}]


def test_an_identical_request_is_answered_from_the_cache() -> None:
    script = ScriptedLLM([text_response("Paris"), text_response("never asked")], provider="a", model="a-1")
    router = Router(parse_config(CONFIG, "c.yaml"), clients={"a": script})
    first = router.ask("What is the capital of France?", mode="cot")
    second = router.ask("What is the capital of France?", mode="cot")
    assert first.text == second.text == "Paris" and len(script.calls) == 1
    assert [(a.ok, a.error_kind) for a in second.attempts] == [(True, "cached")]
    assert router.ask("What is the capital of Spain?", mode="cot").text == "never asked"  # a different request


def test_the_cache_is_off_by_default_and_never_stores_tool_calls() -> None:
    off = parse_config(CONFIG.replace("cache: {enabled: true, ttl_s: 60}\n", ""), "c.yaml")
    script = ScriptedLLM([text_response("x"), text_response("y")], provider="a", model="a-1")
    router = Router(off, clients={"a": script})
    assert [router.ask("same", mode="cot").text for _ in range(2)] == ["x", "y"]
    calls = ScriptedLLM([tool_call_response(("f", {})), tool_call_response(("f", {}))], provider="a", model="a-1")
    from router.aio import run_sync

    cached_router = Router(parse_config(CONFIG, "c.yaml"), clients={"a": calls})
    for _ in range(2):
        run_sync(cached_router.achat(Q, tools=[{"type": "function", "function": {"name": "f", "parameters": {}}}]))
    assert len(calls.calls) == 2  # a tool-call turn is never served from the cache
