"""An MCP ``CallToolResult`` as the text a model reads.

Text blocks are joined; images, audio and resources are described in one line each
(what they are, their type and size) instead of being dropped without a word or
pasted as base64; an embedded text resource keeps its text under that line. When a
server sends only ``structuredContent`` it is given as JSON. The text is capped
here (``MAX_RESULT_CHARS``) so a runaway server cannot fill memory before the loop
cuts the result to ``loop.max_result_chars``.
"""

from __future__ import annotations

import json
from typing import Any

MAX_RESULT_CHARS = 1_000_000
"""The loop's own ``max_result_chars`` can be at most this; more is never kept."""


def _size(data: str | None) -> str:
    if not data:
        return "empty"
    raw = len(data) * 3 // 4  # base64
    return f"{raw} bytes" if raw < 10_000 else f"{raw / 1024:.0f} KiB"


def describe_block(block: Any) -> str:
    """One content block as text (a line for anything that is not text)."""
    kind = getattr(block, "type", None)
    if kind == "text":
        return str(getattr(block, "text", ""))
    mime = getattr(block, "mime_type", None) or getattr(block, "mimeType", None)
    if kind in ("image", "audio"):
        return f"[{kind}: {mime or 'unknown type'}, {_size(getattr(block, 'data', None))}; not shown as text]"
    if kind == "resource_link":
        name = getattr(block, "name", "") or ""
        return f"[resource link: {getattr(block, 'uri', '')}{f' ({name})' if name else ''}{f', {mime}' if mime else ''}]"
    if kind == "resource":
        resource = getattr(block, "resource", None)
        uri = getattr(resource, "uri", "")
        rmime = getattr(resource, "mime_type", None) or getattr(resource, "mimeType", None)
        text = getattr(resource, "text", None)
        if isinstance(text, str):
            return f"[resource: {uri}{f', {rmime}' if rmime else ''}]\n{text}"
        return f"[resource: {uri}, {rmime or 'binary'}, {_size(getattr(resource, 'blob', None))}; not shown as text]"
    return f"[{kind or 'unknown'} content block; not shown as text]"


def result_text(result: Any) -> str:
    """The joined text of a CallToolResult (isError or not), at most ``MAX_RESULT_CHARS``."""
    parts: list[str] = []
    total = 0
    for block in getattr(result, "content", None) or ():
        piece = describe_block(block)
        parts.append(piece)
        total += len(piece)
        if total > MAX_RESULT_CHARS:
            break
    if not parts:
        structured = getattr(result, "structured_content", None) or getattr(result, "structuredContent", None)
        if structured is not None:
            parts.append(json.dumps(structured, ensure_ascii=False, default=str))
    text = "\n".join(parts)
    if len(text) > MAX_RESULT_CHARS:
        text = text[:MAX_RESULT_CHARS] + f"\n[cut: the server sent more than {MAX_RESULT_CHARS} characters]"
    return text


__all__ = ["MAX_RESULT_CHARS", "describe_block", "result_text"]
