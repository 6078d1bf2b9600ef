"""Reading providers.yaml (and .env) as untrusted input: bounded, alias-free, line-indexed.

Where the file is looked for: an explicit path, ``$ROUTER_CONFIG``, ``./providers.yaml``,
then the copy shipped in the package. ``ROUTER_PROVIDER`` overrides ``default``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from router.config.checks import _cross_checks, _describe, _line_for
from router.config.schema import _INTERNAL_KEYS, _PACKAGED, MAX_CONFIG_BYTES, MAX_DEPTH, MAX_NODES, RouterConfig
from router.errors import ConfigError, UsageError


def _loader_class() -> type[yaml.SafeLoader]:
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # type: ignore[no-any-return]


def _index_lines(node: yaml.Node, path: tuple[Any, ...], out: dict[tuple[Any, ...], int], file: str) -> None:
    """Map every key path to its 1-based line, and refuse duplicate keys (YAML keeps the last)."""
    if isinstance(node, yaml.MappingNode):
        seen: set[Any] = set()
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                where = ".".join(str(p) for p in path) or "(top level)"
                raise ConfigError(
                    f"{where}: keys must be plain names, not a list or mapping (complex key '?')",
                    path=file, line=key_node.start_mark.line + 1,
                )
            key = key_node.value
            if key in seen:
                where = ".".join(str(p) for p in (*path, key))
                raise ConfigError(f"{where}: duplicate key", path=file, line=key_node.start_mark.line + 1, key=where)
            seen.add(key)
            out[(*path, key)] = key_node.start_mark.line + 1
            _index_lines(value_node, (*path, key), out, file)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out[(*path, i)] = item.start_mark.line + 1
            _index_lines(item, (*path, i), out, file)


def _check_events(text: str, file: str) -> None:
    """Refuse aliases and deep nesting from the event stream, before anything is built.

    The parser is iterative and keeps no tree, so this pass is linear in the file
    size whatever the file contains; building nodes (recursive, alias-sharing)
    only happens afterwards, on input known to be small and tree-shaped.
    """
    loader = _loader_class()(text)
    depth = nodes = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            line = event.start_mark.line + 1 if event.start_mark else None
            if isinstance(event, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                nodes += 1
                if nodes > MAX_NODES:
                    raise ConfigError(f"more than {MAX_NODES:,} values; this is not a providers.yaml", path=file, line=line)
            if isinstance(event, yaml.AliasEvent):
                raise ConfigError(
                    f"YAML aliases (*{str(event.anchor)[:40]}) are not supported: write the value out",
                    path=file, line=line,
                )
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise ConfigError(f"nested more than {MAX_DEPTH} levels deep", path=file, line=line)
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    finally:
        loader.dispose()


def parse_config(text: str, file: str = "<string>") -> RouterConfig:
    """Validate YAML text; ``file`` is only used in error messages."""
    if len(text) > MAX_CONFIG_BYTES:
        raise ConfigError(f"the file is larger than {MAX_CONFIG_BYTES:,} bytes; refusing to parse it", path=file)
    loader = _loader_class()(text)
    try:
        _check_events(text, file)
        node = loader.get_single_node()
        if node is None:
            raise ConfigError("the file is empty (expected providers, default, ...)", path=file, line=1)
        lines: dict[tuple[Any, ...], int] = {}
        _index_lines(node, (), lines, file)
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        column = f", column {mark.column + 1}" if mark else ""
        raise ConfigError(f"YAML syntax error{column}: {exc.problem or exc.context}", path=file, line=line) from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"YAML error: {' '.join(str(exc).split())[:200]}", path=file) from exc
    except (ValueError, TypeError, RecursionError, MemoryError) as exc:  # e.g. an int of 5,000 digits
        raise ConfigError(f"YAML value cannot be read ({type(exc).__name__})", path=file) from exc
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        raise ConfigError(f"top level must be a mapping, got {type(data).__name__}", path=file, line=1)
    for internal in _INTERNAL_KEYS:
        if internal in data:
            raise ConfigError(f"{internal}: unknown key", path=file, line=_line_for((internal,), lines) or 1)
    try:
        config = RouterConfig.model_validate({**data, "source": file})
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(first["loc"])
        more = f" (and {exc.error_count() - 1} more problem(s))" if exc.error_count() > 1 else ""
        raise ConfigError(_describe(first) + more, path=file, line=_line_for(loc, lines) or 1) from exc
    return _cross_checks(config, lines, file)


MAX_DOTENV_BYTES = 1_000_000
"""A .env holds a few keys; anything larger is not one (a 200 MB file took 30 s and 1.4 GB to parse)."""

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))  # fmt: skip


def read_bounded(path: str | os.PathLike[str], limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, counted as they are read.

    ``st_size`` alone is no bound: it is 0 for ``/dev/zero`` and for files under
    /proc, and a file may grow while it is read. The file is opened without blocking,
    so a FIFO is refused at once instead of waiting forever for a writer; devices,
    directories and sockets are refused too. Errors name the file (``ConfigError``).
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a regular file")
            raise ConfigError(f"{what} is {kind}, not a regular file; refusing to read it", path=str(path))
        if info.st_size > limit:
            raise ConfigError(f"{what} is larger than {limit:,} bytes ({info.st_size:,}); refusing to read it", path=str(path))
        chunks: list[bytes] = []
        total = 0
        while piece := os.read(fd, min(1 << 16, limit + 1 - total)):
            chunks.append(piece)
            total += len(piece)
            if total > limit:
                raise ConfigError(f"{what} is larger than {limit:,} bytes (more arrived as it was read); refusing to read it", path=str(path))
        return b"".join(chunks)
    finally:
        os.close(fd)


def _load_dotenv() -> str | None:
    """Keys may live in ./.env; variables already set always win. Returns the file read, if any.

    A directory named .env (a virtualenv) is not a .env file and is passed over."""
    env_file = Path.cwd() / ".env"
    if not os.path.lexists(env_file) or env_file.is_dir():
        return None
    try:
        raw = read_bounded(env_file, MAX_DOTENV_BYTES, ".env")
    except FileNotFoundError:
        return None  # a dangling symlink: there is no .env
    except OSError as exc:
        raise ConfigError(f"cannot read .env: {exc.__class__.__name__}", path=str(env_file)) from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ConfigError(
            f".env is not UTF-8 text (byte {exc.start + 1}); re-save it as UTF-8", path=str(env_file), line=line
        ) from None
    import io

    from dotenv import load_dotenv

    load_dotenv(stream=io.StringIO(text), override=False)
    return str(env_file)


def config_path(path: str | os.PathLike[str] | None = None) -> tuple[str, str]:
    """Which file load_config would read: explicit, $ROUTER_CONFIG, ./providers.yaml, packaged."""
    if path is not None:
        return str(path), "argument"
    env = os.environ.get("ROUTER_CONFIG")
    if env:
        return env, "ROUTER_CONFIG"
    if Path("providers.yaml").is_file():
        return "providers.yaml", "working directory"
    beside = Path(__file__).parent.parent / _PACKAGED  # router/providers.yaml of an installed package
    if beside.is_file():
        return str(beside), "packaged default"
    from importlib import resources  # a package that is no directory (a zip): ~7 ms more of start-up

    return str(resources.files("router") / _PACKAGED), "packaged default"


def load_config(path: str | os.PathLike[str] | None = None) -> RouterConfig:
    """Load and validate the config; ``ROUTER_PROVIDER`` overrides ``default``."""
    env_file = _load_dotenv()
    file, origin = config_path(path)
    try:
        text = read_bounded(file, MAX_CONFIG_BYTES, "the config file").decode("utf-8")
    except FileNotFoundError as exc:
        where = f" (from {origin})" if origin != "argument" else ""
        hint = ""
        if origin == "argument" and not Path(file).is_absolute():
            hint = f" in {Path.cwd()}; load_config() / Router.from_yaml() without a path also finds the packaged one"
        raise ConfigError(f"config file not found{where}{hint}", path=file) from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"the file is not UTF-8 text (byte {exc.start + 1})", path=file) from None
    except OSError as exc:
        raise ConfigError(f"cannot read config: {exc.__class__.__name__}", path=file) from exc
    if not text.strip():
        raise ConfigError("the file is empty (expected providers, default, ...)", path=file, line=1)
    config = parse_config(text, file).model_copy(update={"origin": origin, "env_file": env_file})
    override = os.environ.get("ROUTER_PROVIDER")
    if override:
        from router.routing.names import provider_hint

        try:
            config = config.with_default(override)
        except UsageError:
            raise ConfigError(f"ROUTER_PROVIDER={override!r} names no provider in {file}{provider_hint(config, override)}") from None
    return config


__all__ = ["MAX_DOTENV_BYTES", "config_path", "load_config", "parse_config", "read_bounded"]
