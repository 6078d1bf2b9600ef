"""One MCP server's connection: started on first use, restarted after a crash, closed with the Router.

The SDK's transports and ``ClientSession`` are anyio context managers that must be
entered and left by the same task, so each connection owns one runner task that
holds them open until ``aclose`` (or a crash) while any task on that event loop
sends requests through the session. A stdio server that dies fails the call in
flight (the tool message says so, with the last lines the server wrote to stderr)
and is started again on the next use. ``notifications/tools/list_changed`` marks the
listing stale, so the next question sees the server's new tools.

Secrets: a stdio server gets the SDK's minimal environment plus the variables
named in ``env``; an HTTP server gets the headers named in ``headers_env``. Their
values are read at start and never appear in an error (``redact`` on every message
that comes back from the SDK or the server).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from router.errors import McpError, McpServerUnavailableError, McpToolError
from router.redaction import redact
from router.tools.mcp.results import result_text

if TYPE_CHECKING:
    from router.config.mcp import McpServerSettings

INSTALL_HINT = "MCP servers need the mcp extra: pip install 'router[mcp]'"
MAX_TOOLS_PER_SERVER = 10_000
_MAX_PAGES = 100
_STDERR_TAIL = 400
_STDERR_KEEP = 1_000_000
"""A server's stderr is kept in a temporary file for error messages; past this size it starts over."""


@dataclass(frozen=True)
class RemoteTool:
    """A tool as the server lists it."""

    name: str
    description: str
    input_schema: dict[str, Any]


def _sdk() -> Any:
    try:
        import mcp
    except ImportError as exc:
        raise McpServerUnavailableError(INSTALL_HINT) from exc
    return mcp


class McpConnection:
    def __init__(self, name: str, settings: McpServerSettings, base_dir: str) -> None:
        self.name = name
        self.settings = settings
        self.base_dir = base_dir
        self.starts = 0
        """How many times the server was started (a restart after a crash counts)."""
        self._session: Any = None
        self._read_stream: Any = None
        self._runner: asyncio.Task[None] | None = None
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock: asyncio.Lock | None = None
        self._listing: list[RemoteTool] | None = None
        self._stale = True
        self._stderr: Any = None

    # --- describing ------------------------------------------------------------------------

    @property
    def where(self) -> str:
        if self.settings.command is not None:
            return "stdio: " + " ".join(self.settings.command)
        return f"http: {self.settings.url}"

    def _fail(self, why: str) -> McpServerUnavailableError:
        return McpServerUnavailableError(f"MCP server {self.name!r} ({self.where}): {redact(why)}")

    def _stderr_size(self) -> int:
        try:
            return os.fstat(self._stderr.fileno()).st_size if self._stderr is not None else 0
        except (OSError, ValueError):
            return 0

    def _stderr_tail(self, since: int = 0) -> str:
        """The last lines the server wrote to stderr (after byte ``since``), for an error message."""
        if self._stderr is None:
            return ""
        try:
            self._stderr.flush()
            size = os.fstat(self._stderr.fileno()).st_size
            self._stderr.seek(max(since, size - _STDERR_TAIL))
            tail = self._stderr.read().strip().splitlines()
        except (OSError, ValueError):
            return ""
        return f"; its last stderr: {redact(' | '.join(tail[-3:]))[:_STDERR_TAIL]}" if tail else ""

    # --- starting --------------------------------------------------------------------------

    def _resolve_cwd(self) -> str | None:
        cwd = self.settings.cwd
        if cwd is None:
            return None
        path = os.path.normpath(os.path.join(self.base_dir, os.path.expanduser(cwd)))
        if not os.path.isdir(path):
            raise self._fail(f"cwd {cwd!r} is not a directory (resolved to {path})")
        return path

    def _resolve_command(self, cwd: str | None) -> str:
        assert self.settings.command is not None
        program = self.settings.command[0]
        if os.sep in program or (os.altsep and os.altsep in program):
            path = os.path.normpath(os.path.join(cwd or self.base_dir, os.path.expanduser(program)))
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                raise self._fail(f"command {program!r} is not installed (no executable file at {path})")
            return path
        found = shutil.which(program)
        if found is None:
            raise self._fail(f"command {program!r} is not installed (not found on PATH)")
        return found

    def _environment(self, names: list[str]) -> dict[str, str]:
        missing = [name for name in names if name not in os.environ]
        if missing:
            raise self._fail(f"environment variable {', '.join(missing)} is not set (listed in env:)")
        return {name: os.environ[name] for name in names}

    def _headers(self) -> dict[str, str]:
        missing = [var for var in self.settings.headers_env.values() if not os.environ.get(var)]
        if missing:
            raise self._fail(f"environment variable {', '.join(missing)} is not set (named in headers_env:)")
        return {header: os.environ[var] for header, var in self.settings.headers_env.items()}

    def _alive(self) -> bool:
        if self._session is None or self._runner is None or self._runner.done():
            return False
        if self._loop is not asyncio.get_running_loop():
            return False
        stats = getattr(self._read_stream, "statistics", None)
        try:  # the transport closed its end (the process exited, the HTTP stream ended)
            return stats is None or stats().open_send_streams > 0
        except Exception:
            return True

    async def session(self) -> Any:
        """The live session, started (or restarted) now if needed."""
        loop = asyncio.get_running_loop()
        if self._alive():
            return self._session
        if self._loop is not loop:  # first use, or a new event loop (the old one took its tasks with it)
            self._loop, self._lock, self._runner, self._session = loop, asyncio.Lock(), None, None
        assert self._lock is not None
        async with self._lock:
            if self._alive():
                return self._session
            await self._shutdown()
            await self._start()
            return self._session

    async def _start(self) -> None:
        mcp = _sdk()
        if self.settings.command is not None:
            cwd = self._resolve_cwd()
            command = self._resolve_command(cwd)
            env = self._environment(self.settings.env)
            transport = self._stdio(mcp, command, env, cwd)
        else:
            transport = self._http(self._headers())
        ready: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._stop = asyncio.Event()
        self._runner = asyncio.create_task(self._run(mcp, transport, ready, self._stop), name=f"router-mcp-{self.name}")
        try:
            self._session, self._read_stream = await asyncio.wait_for(asyncio.shield(ready), self.settings.timeout_s)
        except TimeoutError:
            await self._shutdown()
            raise self._fail(f"did not answer initialize within {self.settings.timeout_s:g} s{self._stderr_tail()}") from None
        except McpServerUnavailableError:
            await self._shutdown()
            raise
        self.starts += 1
        self._stale = True

    def _stdio(self, mcp: Any, command: str, env: dict[str, str], cwd: str | None) -> Any:
        from mcp.client.stdio import StdioServerParameters, get_default_environment

        assert self.settings.command is not None
        if self._stderr is None or os.fstat(self._stderr.fileno()).st_size > _STDERR_KEEP:
            if self._stderr is not None:
                self._stderr.close()
            self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
        params = StdioServerParameters(
            command=command, args=list(self.settings.command[1:]), env={**get_default_environment(), **env}, cwd=cwd
        )
        return mcp.stdio_client(params, errlog=self._stderr)

    def _http(self, headers: dict[str, str]) -> Any:
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        @contextlib.asynccontextmanager
        async def transport() -> Any:
            async with create_mcp_http_client(headers=headers or None) as client:
                async with streamable_http_client(str(self.settings.url), http_client=client) as streams:
                    yield streams

        return transport()

    async def _run(self, mcp: Any, transport: Any, ready: asyncio.Future[Any], stop: asyncio.Event) -> None:
        """Hold the transport and the session open until stopped (or until the transport breaks)."""
        try:
            async with transport as streams:
                read, write = streams[0], streams[1]
                async with mcp.ClientSession(read, write, message_handler=self._on_message) as session:
                    await session.initialize()
                    if not ready.done():
                        ready.set_result((session, read))
                    await stop.wait()
        except asyncio.CancelledError:
            if not ready.done():
                ready.cancel()
            raise
        except BaseException as exc:
            if not ready.done():
                reason = f"could not start: {type(_innermost(exc)).__name__}: {_first_line(exc)}{self._stderr_tail()}"
                ready.set_exception(self._fail(reason))
        finally:
            if not ready.done():
                ready.set_exception(self._fail(f"stopped before it was ready{self._stderr_tail()}"))

    async def _on_message(self, message: Any) -> None:
        method = getattr(message, "method", None) or getattr(getattr(message, "root", None), "method", None)
        if method == "notifications/tools/list_changed":
            self._stale = True

    async def _shutdown(self) -> None:
        runner, self._runner, self._session, self._read_stream = self._runner, None, None, None
        if runner is None:
            return
        if self._stop is not None:
            self._stop.set()
        if runner.get_loop() is not asyncio.get_running_loop():
            return
        try:
            await asyncio.wait_for(asyncio.shield(runner), 5.0)
        except (TimeoutError, Exception):
            runner.cancel()
            with contextlib.suppress(BaseException):
                await runner

    async def aclose(self) -> None:
        await self._shutdown()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    # --- using -----------------------------------------------------------------------------

    async def list_tools(self) -> list[RemoteTool]:
        """The server's tools (cached until ``list_changed`` or a restart)."""
        session = await self.session()
        if self._listing is not None and not self._stale:
            return self._listing
        self._stale = False
        from mcp.types import PaginatedRequestParams

        tools: list[RemoteTool] = []
        cursor: str | None = None
        try:
            for _ in range(_MAX_PAGES):
                params = PaginatedRequestParams(cursor=cursor) if cursor else None
                page = await asyncio.wait_for(session.list_tools(params=params), self.settings.timeout_s)
                for item in page.tools:
                    schema = getattr(item, "input_schema", None) or getattr(item, "inputSchema", None) or {}
                    tools.append(RemoteTool(item.name, item.description or getattr(item, "title", None) or "", dict(schema)))
                cursor = getattr(page, "next_cursor", None) or getattr(page, "nextCursor", None)
                if not cursor or len(tools) >= MAX_TOOLS_PER_SERVER:
                    break
        except TimeoutError:
            self._stale = True
            raise self._fail(f"did not list its tools within {self.settings.timeout_s:g} s") from None
        except Exception as exc:
            self._stale = True
            raise self._fail(f"could not list its tools: {_first_line(exc)}") from exc
        self._listing = tools[:MAX_TOOLS_PER_SERVER]
        return self._listing

    async def call_tool(self, tool: str, arguments: dict[str, Any]) -> str:
        """The tool's result as text; ``McpToolError`` for isError, ``McpError`` for protocol failures."""
        session = await self.session()
        started, logged = time.perf_counter(), self._stderr_size()
        try:
            result = await session.call_tool(tool, arguments, read_timeout_seconds=self.settings.timeout_s)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not self._alive() or _connection_closed(exc):
                await self._shutdown()  # the next use starts (or reconnects to) a fresh server
                raise McpError(
                    f"MCP server {self.name!r} closed the connection during the call to {tool!r} (it crashed or "
                    f"exited after {time.perf_counter() - started:.2f} s); it is restarted on the next use"
                    f"{self._stderr_tail(logged)}"
                ) from None
            raise McpError(f"MCP server {self.name!r}, tool {tool!r}: {_first_line(exc)}") from None
        text = result_text(result)
        if getattr(result, "is_error", None) or getattr(result, "isError", None):
            raise McpToolError(redact(text) or "the tool reported an error without a message")
        return text


def _connection_closed(exc: BaseException) -> bool:
    from mcp.types import CONNECTION_CLOSED

    return getattr(exc, "code", None) == CONNECTION_CLOSED


def _innermost(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _first_line(exc: BaseException) -> str:
    exc = _innermost(exc)
    text = str(exc).strip() or type(exc).__name__
    return redact(text.splitlines()[0][:300])


__all__ = ["INSTALL_HINT", "McpConnection", "RemoteTool"]
