"""The ``mcp:`` section of providers.yaml: Model Context Protocol servers whose tools join the loop.

Each server has exactly one transport: ``command`` (a subprocess speaking MCP on
stdin/stdout) or ``url`` (streamable HTTP). Secrets never live in the file: ``env``
names variables passed through to a stdio server and ``headers_env`` maps an HTTP
header to the variable holding its value; both are read when the server starts.
Nothing here starts a process: a server starts on first use (``router.tools.mcp``).
"""

# No `from __future__ import annotations` here: see router.config.base.

from pydantic import Field, field_validator, model_validator

from router.config.base import _Strict
from router.config.fields import check_base_url
from router.lazyre import LazyPattern
from router.redaction import has_url_credentials, looks_like_secret

_SERVER_NAME = LazyPattern(r"^[A-Za-z0-9_-]{1,32}$")
_ENV_NAME = LazyPattern(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")
_HEADER_NAME = LazyPattern(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$")


def _env_name(value: str) -> str:
    if looks_like_secret(value):
        raise ValueError("this looks like a secret itself; give the NAME of an environment variable (value not shown)")
    if not _ENV_NAME.match(value):
        raise ValueError("not an environment variable name (letters, digits and _, e.g. NOTES_TOKEN; value not shown)")
    return value


class McpServerSettings(_Strict):
    """One MCP server: ``command`` (stdio) or ``url`` (streamable HTTP), never both."""

    command: list[str] | None = Field(default=None, min_length=1, max_length=256)
    """stdio: the program and its arguments, e.g. ``[python, notes_server.py]`` (no shell)."""
    env: list[str] = Field(default_factory=list, max_length=256)
    """stdio: names of environment variables passed through to the server (their values stay in the environment)."""
    cwd: str | None = None
    """stdio: the server's working directory; relative paths are taken from the config file's folder."""
    url: str | None = None
    """Streamable HTTP: the server's MCP endpoint, e.g. ``http://127.0.0.1:8931/mcp``."""
    headers_env: dict[str, str] = Field(default_factory=dict)
    """Streamable HTTP: header name -> the environment variable holding its value (e.g. Authorization: TRACKER_AUTH)."""
    timeout_s: float = Field(default=30.0, gt=0, le=3600)
    """Starting the server, and each call (the loop's ``tool_timeout_s`` still bounds a call too)."""
    tools: list[str] | None = Field(default=None, max_length=10_000)
    """Allowlist of the server's tool names (as the server names them); None offers every tool."""

    @field_validator("command", mode="before")
    @classmethod
    def _numbers_as_text(cls, value: object) -> object:
        """``[server, --port, 8931]``: YAML reads 8931 as a number; an argument is text."""
        if isinstance(value, list):
            return [str(v) if isinstance(v, int | float) and not isinstance(v, bool) else v for v in value]
        return value

    @field_validator("command")
    @classmethod
    def _check_command(cls, value: list[str] | None) -> list[str] | None:
        if value is not None and (not value[0].strip() or any("\0" in part for part in value)):
            raise ValueError("the first entry must name the program to run (no NUL bytes)")
        return value

    @field_validator("env")
    @classmethod
    def _check_env(cls, value: list[str]) -> list[str]:
        return [_env_name(name) for name in value]

    @field_validator("headers_env")
    @classmethod
    def _check_headers(cls, value: dict[str, str]) -> dict[str, str]:
        for header, variable in value.items():
            if not _HEADER_NAME.match(header):
                raise ValueError(f"{header[:60]!r} is not an HTTP header name")
            _env_name(variable)
        return value

    @field_validator("url")
    @classmethod
    def _check_url(cls, value: str | None) -> str | None:
        if value is None:
            return value
        if has_url_credentials(value):
            raise ValueError("the URL contains credentials; send them as a header with headers_env (value not shown)")
        check_base_url(value)  # the one check of a URL's shape (its trailing-slash trim is not kept)
        return value

    @model_validator(mode="after")
    def _one_transport(self) -> "McpServerSettings":
        if (self.command is None) == (self.url is None):
            raise ValueError("give exactly one of command (a stdio server) or url (streamable HTTP)")
        if self.url is not None and (self.env or self.cwd is not None):
            raise ValueError("env and cwd are for stdio servers (command); an HTTP server takes headers_env")
        if self.command is not None and self.headers_env:
            raise ValueError("headers_env is for HTTP servers (url); a stdio server takes env")
        return self

    @property
    def transport(self) -> str:
        return "stdio" if self.command is not None else "http"


class McpSettings(_Strict):
    """MCP servers and how many of their tools one request may offer."""

    servers: dict[str, McpServerSettings] = Field(default_factory=dict)
    max_tools_per_request: int = Field(default=16, ge=1, le=128)
    """MCP tools offered to the model per question, chosen by relevance to it (built-in and @tool tools
    are always offered): a server with 200 tools must not flood the prompt."""
    max_schema_chars: int = Field(default=24_000, ge=1000, le=1_000_000)
    """The MCP tool schemas offered per question, in characters of JSON, at most."""

    @field_validator("servers")
    @classmethod
    def _check_names(cls, value: dict[str, McpServerSettings]) -> dict[str, McpServerSettings]:
        for name in value:
            if not _SERVER_NAME.match(name):
                raise ValueError(
                    f"server name {name[:40]!r} must be 1-32 letters, digits, _ or - (it prefixes its tools' names)"
                )
        return value


__all__ = ["McpServerSettings", "McpSettings"]
