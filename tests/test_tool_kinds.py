"""@tool on async functions and generators, and tool errors that carry secrets."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator

import pytest

from router.errors import ToolDefinitionError
from router.redaction import MASK, register_secret
from router.tools.registry import Tool, describe_tool_error, result_error, tool


def test_generator_tools_are_rejected_at_decoration_time() -> None:
    def numbers(n: int) -> Iterator[int]:
        yield from range(n)

    with pytest.raises(ToolDefinitionError, match="generator"):
        tool(numbers)


def test_async_generator_tools_are_rejected_at_decoration_time() -> None:
    async def numbers(n: int) -> AsyncIterator[int]:
        for i in range(n):
            yield i

    with pytest.raises(ToolDefinitionError, match="generator"):
        tool(numbers)


@tool
async def slow_double(x: int) -> int:
    """Double a number after yielding to the event loop."""
    await asyncio.sleep(0)
    return 2 * x


def test_async_tools_are_marked_and_sync_ones_are_not() -> None:
    @tool
    def plain(x: int) -> int:
        """Plain."""
        return x

    assert slow_double.is_async is True
    assert plain.is_async is False
    assert slow_double.afn is not None and plain.afn is None


def test_the_sync_path_runs_an_async_tool_to_completion_in_a_worker_thread() -> None:
    results: list[object] = []
    worker = threading.Thread(target=lambda: results.append(slow_double.fn(x=21)))
    worker.start()
    worker.join()
    assert results == [42]
    assert slow_double.invoke({"x": 4}) == 8


def test_an_async_loop_awaits_an_async_tool() -> None:
    assert asyncio.run(slow_double.ainvoke({"x": 5})) == 10


def test_an_async_loop_runs_a_sync_tool_in_a_thread() -> None:
    @tool
    def which_thread() -> str:
        """Name of the thread it ran in."""
        return threading.current_thread().name

    assert asyncio.run(which_thread.ainvoke({})) != threading.current_thread().name


def test_calling_the_tool_directly_is_calling_the_function() -> None:
    coroutine = slow_double(3)
    assert asyncio.run(coroutine) == 6


def test_an_exception_raised_by_a_tool_has_secrets_masked() -> None:
    secret = "tool-secret-value-1234567"
    register_secret(secret)

    def leaky(city: str) -> str:
        raise RuntimeError(f"upstream said: bad key {secret} and sk-abcdefghijklmnop for {city}")

    item = Tool(leaky)
    with pytest.raises(RuntimeError) as info:
        item.fn(city="x")
    assert secret not in str(info.value)
    assert "sk-abcdefghijklmnop" not in str(info.value)
    text = describe_tool_error(info.value)
    assert text.startswith("RuntimeError: upstream said: bad key " + MASK)


def test_describe_tool_error_masks_url_credentials_and_key_shapes() -> None:
    text = describe_tool_error(ValueError("GET https://bob:pw123@api.example/v1 failed;\nkey gsk_abcd1234efgh5678"))
    assert "pw123" not in text and "gsk_abcd1234" not in text
    assert "\n" not in text


def test_an_error_result_is_redacted() -> None:
    assert result_error({"error": "denied for sk-abcdefghijklmnopq"}) == f"denied for {MASK}"
