"""Tool schemas from Python: type hints -> JSON schema, docstrings -> descriptions.

Kept apart from the registry so the rules a model reads (what each parameter is)
live in one small module: Google, NumPy and Sphinx docstring styles are read, and
an annotation that cannot be described fails at decoration time.
"""

from __future__ import annotations

import enum
import inspect
import types
import typing
from typing import Any, Literal

from router.errors import ToolDefinitionError
from router.lazyre import LazyPattern

_SECTION = LazyPattern(
    r"^\s*(Args|Arguments|Parameters|Params|Returns?|Raises|Yields|Examples?|Notes?|Attributes)\s*:?\s*$"
)
_SPHINX_PARAM = LazyPattern(r"^\s*:param\s+(?:[\w\[\], |.]+\s+)?(\w+)\s*:\s*(.*)$")
_SPHINX_OTHER = LazyPattern(r"^\s*:(returns?|rtype|raises?|type)\b")
_NUMPY_PARAM = LazyPattern(r"^\s*(\w+)\s+:(?:\s+\S.*)?$")
_GOOGLE_PARAM = LazyPattern(r"^\s*\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Summary and per-parameter descriptions from Google (``Args:``), numpy or ``:param x:`` style."""
    if not doc:
        return "", {}
    lines = inspect.cleandoc(doc).splitlines()
    summary: list[str] = []
    params: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    current_indent = 0
    for line in lines:
        stripped = line.strip()
        sphinx = _SPHINX_PARAM.match(line)
        if sphinx:
            section, current = "sphinx", sphinx.group(1)
            params[current] = sphinx.group(2).strip()
            continue
        if _SPHINX_OTHER.match(line):
            section, current = "sphinx-other", None
            continue
        header = _SECTION.match(line)
        if header:
            name = header.group(1).lower()
            section = "params" if name in {"args", "arguments", "parameters", "params"} else "other"
            current = None
            continue
        if section is None:
            summary.append(line)
            continue
        if set(stripped) == {"-"}:  # numpy underline
            continue
        if section == "params":
            indent = len(line) - len(line.lstrip())
            starts_entry = current is None or indent <= current_indent
            numpy_entry = _NUMPY_PARAM.match(line)
            google_entry = _GOOGLE_PARAM.match(line)
            if starts_entry and numpy_entry:  # numpy "name : type", description on the next lines
                current, current_indent = numpy_entry.group(1), indent
                params[current] = ""
            elif starts_entry and google_entry:
                current, current_indent = google_entry.group(1), indent
                params[current] = google_entry.group(2).strip()
            elif stripped and current is not None:
                params[current] = (params[current] + " " + stripped).strip()
        elif section == "sphinx" and current is not None and stripped:
            params[current] = (params[current] + " " + stripped).strip()
    text = "\n".join(summary).strip()
    return text, {k: v for k, v in params.items()}


# --- type hints -> JSON schema ---------------------------------------------------------------


_PRIMITIVES: dict[type, str] = {str: "string", bool: "boolean", int: "integer", float: "number"}


def _enum_schema(values: list[Any], where: str) -> dict[str, Any]:
    kinds = {type(v) for v in values}
    if len(kinds) != 1 or next(iter(kinds)) not in _PRIMITIVES:
        raise ToolDefinitionError(f"{where}: enum values must all be str, int, float or bool: {values!r}")
    return {"type": _PRIMITIVES[next(iter(kinds))], "enum": values}


def schema_for(annotation: Any, where: str) -> dict[str, Any]:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        schema = schema_for(args[0], where)
        notes = [a for a in args[1:] if isinstance(a, str)]
        if notes:
            schema["description"] = notes[0]
        return schema
    if annotation in _PRIMITIVES:
        return {"type": _PRIMITIVES[annotation]}
    if origin is Literal:
        return _enum_schema(list(args), where)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return _enum_schema([member.value for member in annotation], where)
    if origin in (typing.Union, types.UnionType):
        real = [a for a in args if a is not type(None)]
        if len(real) == 1:
            return schema_for(real[0], where)
        return {"anyOf": [schema_for(a, where) for a in real]}
    if annotation is list or origin is list:
        return {"type": "array", "items": schema_for(args[0], where)} if args else {"type": "array"}
    if annotation is dict or origin is dict:
        if args and args[0] is not str:
            raise ToolDefinitionError(f"{where}: dict keys must be str (JSON objects), got {args[0]!r}")
        schema: dict[str, Any] = {"type": "object"}
        if args:
            schema["additionalProperties"] = schema_for(args[1], where)
        return schema
    raise ToolDefinitionError(
        f"{where}: unsupported type {annotation!r}; use str, int, float, bool, Literal, Enum, list[...] or dict[str, ...]"
    )


__all__ = ["parse_docstring", "schema_for"]
