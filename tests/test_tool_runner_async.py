"""async def tools are awaited on the loop's own event loop, concurrently, and cancelled at their timeout."""

from __future__ import annotations

import asyncio
import threading

from router.clients.mock import ScriptedLLM, text_response, tool_call_response
from router.loop.run import run_tools
from router.redaction import MASK, register_secret
from router.tools.registry import ToolRegistry, tool

QUESTION = [{"role": "system", "content": "sys"}, {"role": "user", "content": "q"}]


def test_two_async_tools_of_one_turn_meet_on_the_same_event_loop() -> None:
    """Each waits for the other's asyncio.Event: only concurrent tasks on one loop can both finish."""
    events: dict[str, asyncio.Event] = {}
    threads: list[str] = []

    def event(name: str) -> asyncio.Event:
        return events.setdefault(name, asyncio.Event())

    @tool
    async def meet(me: str, other: str) -> str:
        """Signal arrival, then wait for the other side."""
        threads.append(threading.current_thread().name)
        event(me).set()
        await asyncio.sleep(0)  # yields to the loop, as real I/O would
        await event(other).wait()
        return f"{me} met {other}"

    llm = ScriptedLLM([tool_call_response(("meet", {"me": "a", "other": "b"}), ("meet", {"me": "b", "other": "a"})), text_response("ok")])
    result = run_tools(llm, QUESTION, ToolRegistry([meet]), tool_timeout_s=5)
    assert [(r.result, r.error) for r in result.tool_records] == [("a met b", None), ("b met a", None)]
    assert len(set(threads)) == 1 and not threads[0].startswith("router-tool"), "awaited on the loop, not in worker threads"


def test_a_hung_async_tool_is_cancelled_at_its_timeout() -> None:
    cancelled = threading.Event()

    @tool
    async def hang() -> str:
        """Never returns on its own."""
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return "unreachable"

    llm = ScriptedLLM([tool_call_response(("hang", {})), text_response("gave up")])
    result = run_tools(llm, QUESTION, ToolRegistry([hang]), tool_timeout_s=0.2)
    assert result.text == "gave up"
    assert result.tool_records[0].error == "timed out after 0.2 s"
    assert cancelled.wait(10), "the coroutine was cancelled, not left running"


def test_an_async_tool_failure_is_one_redacted_line() -> None:
    secret = "async-tool-secret-98765"
    register_secret(secret)

    @tool
    async def leaky() -> str:
        """Fails with a secret and a newline in its message."""
        await asyncio.sleep(0)
        raise RuntimeError(f"upstream said\n  token={secret}")

    llm = ScriptedLLM([tool_call_response(("leaky", {})), text_response("sorry")])
    result = run_tools(llm, QUESTION, ToolRegistry([leaky]), tool_timeout_s=5)
    error = result.tool_records[0].error or ""
    assert error.startswith("RuntimeError: upstream said token=") and "\n" not in error
    assert secret not in error and MASK in error
    tool_message = next(m for m in llm.calls[-1].messages if m["role"] == "tool")
    assert secret not in tool_message["content"] and "upstream said token=" in tool_message["content"]

