"""The bridge from the sync API to the async core: one event loop on a background thread.

Everything that talks to a provider is async (one implementation of the loop, the
modes and the failover). The sync API submits coroutines to a long-lived loop
running on a daemon thread instead of calling ``asyncio.run`` each time, for three
reasons: async HTTP clients keep their connection pools (they are bound to one
loop), the sync API works from inside a running event loop (Jupyter, a server
handler), and Ctrl-C in the caller's thread cancels the coroutine cleanly.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_thread: threading.Thread | None = None


def _start() -> asyncio.AbstractEventLoop:
    global _loop, _thread
    with _lock:
        if _loop is None or not (_thread and _thread.is_alive()):
            loop = asyncio.new_event_loop()
            ready = threading.Event()

            def run() -> None:
                asyncio.set_event_loop(loop)
                loop.call_soon(ready.set)
                loop.run_forever()

            _thread = threading.Thread(target=run, name="router-async-core", daemon=True)
            _thread.start()
            ready.wait()
            _loop = loop
        return _loop


def core_loop() -> asyncio.AbstractEventLoop:
    """The loop the sync API runs on (started on first use)."""
    return _start()


def in_core_loop() -> bool:
    return _loop is not None and threading.current_thread() is _thread


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on the core loop and wait; Ctrl-C cancels it and re-raises."""
    if in_core_loop():
        coro.close()
        from router.errors import UsageError

        raise UsageError("a sync router call was made from inside the router's own event loop; use the a* methods")
    future = asyncio.run_coroutine_threadsafe(coro, _start())
    try:
        return future.result()
    except KeyboardInterrupt:
        future.cancel()
        try:
            future.result(timeout=5)
        except (concurrent.futures.CancelledError, concurrent.futures.TimeoutError, Exception):
            pass
        raise


def iterate_sync(agen: AsyncIterator[T]) -> Iterator[T]:
    """A sync iterator over an async one, each step run on the core loop; closing it closes ``agen``."""
    iterator = agen.__aiter__()

    async def step() -> tuple[bool, T | None]:
        try:
            return True, await iterator.__anext__()
        except StopAsyncIteration:
            return False, None

    try:
        while True:
            more, item = run_sync(step())
            if not more:
                return
            yield item  # type: ignore[misc]
    finally:
        aclose = getattr(iterator, "aclose", None)
        if aclose is not None:
            try:
                run_sync(aclose())
            except Exception:  # closing an already failed generator: nothing to release
                pass


async def events_of(run: Callable[[Callable[[Any], None]], Awaitable[Any]]) -> AsyncIterator[Any]:
    """Runs ``run(sink)`` as a task and yields what it emits, then ``DoneEvent``; errors re-raise here."""
    from router.types import DoneEvent

    queue: asyncio.Queue[Any] = asyncio.Queue()
    task = asyncio.ensure_future(run(queue.put_nowait))
    task.add_done_callback(lambda _: queue.put_nowait(None))
    try:
        while (event := await queue.get()) is not None:
            yield event
        yield DoneEvent(task.result())
    finally:
        if not task.done():
            task.cancel()


async def maybe_await(value: Awaitable[T] | T) -> T:
    if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
        return await value  # type: ignore[no-any-return]
    return value  # type: ignore[return-value]


__all__ = ["core_loop", "events_of", "in_core_loop", "iterate_sync", "maybe_await", "run_sync"]
