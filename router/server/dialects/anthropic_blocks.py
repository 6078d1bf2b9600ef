"""Anthropic Messages content <-> the router's OpenAI chat-shaped history.

Requests: ``system`` (a string or text blocks) becomes one system message; a user turn's
``tool_result`` blocks become ``role: tool`` messages, placed directly after the
assistant turn that asked, in the order it asked (the chain rules), whatever order the
caller listed them in; a result's images follow in a user message (OpenAI tool messages
hold text only); ``is_error`` results say so in their text. An assistant turn's
``thinking`` blocks become its ``reasoning_content`` (the client's per-model echo rule
decides whether it is sent: protocol rule 1), ``tool_use`` blocks its ``tool_calls``
with ids, names and inputs unchanged.

Replies: reasoning -> a ``thinking`` block (always, when the provider returned any, because
a client that sends it back lets the next turn echo it), text -> a ``text`` block, calls ->
``tool_use`` blocks. A thinking block's ``signature`` is ours (``rtr1.`` + a digest of the
text); a foreign one (a conversation begun on Claude) is accepted and its text kept.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping
from typing import Any

from router import fastjson
from router.server.dialects.base import WireError

SIGNATURE_PREFIX = "rtr1."


def signature(thinking: str) -> str:
    digest = hashlib.sha256(thinking.encode("utf-8", "surrogatepass")).digest()[:18]
    return SIGNATURE_PREFIX + base64.urlsafe_b64encode(digest).decode()


def bad(where: str, message: str, code: str = "invalid_request") -> WireError:
    return WireError(400, f"{where}: {message}", code=code, param=where.split(".")[0].split("[")[0])


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise bad(where, f"must be a string, got {type(value).__name__}")
    return value


def _blocks(content: Any, where: str) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if not isinstance(content, list):
        raise bad(where, "must be a string or a list of content blocks")
    for i, block in enumerate(content):
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            raise bad(f"{where}[{i}]", "a content block must be an object with a 'type'")
    return content


def system_text(system: Any) -> str:
    if isinstance(system, str):
        return system
    parts = []
    for i, block in enumerate(_blocks(system, "system")):
        if block["type"] != "text":
            raise bad(f"system[{i}]", f"system blocks must be text, got {block['type']!r}")
        parts.append(_text(block.get("text"), f"system[{i}].text"))
    return "\n\n".join(parts)


def image_part(block: Mapping[str, Any], where: str) -> dict[str, Any]:
    source = block.get("source")
    if not isinstance(source, dict):
        raise bad(f"{where}.source", "an image needs a source object")
    kind = source.get("type")
    if kind == "base64":
        media = _text(source.get("media_type"), f"{where}.source.media_type")
        data = _text(source.get("data"), f"{where}.source.data")
        return {"type": "image_url", "image_url": {"url": f"data:{media};base64,{data}"}}
    if kind == "url":
        return {"type": "image_url", "image_url": {"url": _text(source.get("url"), f"{where}.source.url")}}
    raise bad(f"{where}.source.type", f"image sources are 'base64' or 'url', got {kind!r}")


def _document_part(block: Mapping[str, Any], where: str) -> dict[str, Any]:
    source = block.get("source") if isinstance(block.get("source"), dict) else {}
    kind = source.get("type")
    if kind == "text":
        return {"type": "text", "text": _text(source.get("data"), f"{where}.source.data")}
    if kind == "base64" and source.get("media_type") == "application/pdf":
        data = _text(source.get("data"), f"{where}.source.data")
        name = block.get("title") if isinstance(block.get("title"), str) else "document.pdf"
        return {"type": "file", "file": {"filename": name, "file_data": f"data:application/pdf;base64,{data}"}}
    raise bad(f"{where}.source", "documents are plain text or base64 PDF")


def _user_part(block: Mapping[str, Any], where: str) -> dict[str, Any]:
    kind = block["type"]
    if kind == "text":
        return {"type": "text", "text": _text(block.get("text"), f"{where}.text")}
    if kind == "image":
        return image_part(block, where)
    if kind == "document":
        return _document_part(block, where)
    raise bad(where, f"content block type {kind!r} is not supported in a user turn", code="unsupported_content")


def _result(block: Mapping[str, Any], where: str) -> tuple[str, str, list[dict[str, Any]]]:
    """(tool_use_id, text, image parts) of one tool_result block."""
    call_id = _text(block.get("tool_use_id"), f"{where}.tool_use_id")
    content = block.get("content", "")
    texts: list[str] = []
    images: list[dict[str, Any]] = []
    for i, part in enumerate(_blocks(content, f"{where}.content") if content != "" else ()):
        inner = f"{where}.content[{i}]"
        if part["type"] == "text":
            texts.append(_text(part.get("text"), f"{inner}.text"))
        elif part["type"] == "image":
            images.append(image_part(part, inner))
        elif part["type"] == "document":
            texts.append(str(_document_part(part, inner).get("text", "")))
        else:
            raise bad(inner, f"tool results hold text or image blocks, got {part['type']!r}", code="unsupported_content")
    text = "\n".join(texts)
    if images and not text:
        text = f"(the tool returned {len(images)} image{'s' if len(images) > 1 else ''}, attached below)"
    if block.get("is_error") is True:
        text = f"Error: {text}" if text else "Error"
    return call_id, text, images


def _assistant(blocks: list[dict[str, Any]], where: str) -> dict[str, Any]:
    texts: list[str] = []
    thinking: list[str] = []
    calls: list[dict[str, Any]] = []
    for i, block in enumerate(blocks):
        kind, inner = block["type"], f"{where}[{i}]"
        if kind == "text":
            texts.append(_text(block.get("text"), f"{inner}.text"))
        elif kind == "thinking":
            thinking.append(_text(block.get("thinking"), f"{inner}.thinking"))
        elif kind == "redacted_thinking":
            continue  # Claude's encrypted reasoning means nothing to another provider
        elif kind == "tool_use":
            tool_input = block.get("input", {})
            if not isinstance(tool_input, dict):
                raise bad(f"{inner}.input", "must be an object")
            calls.append({"id": _text(block.get("id"), f"{inner}.id"), "type": "function",
                          "function": {"name": _text(block.get("name"), f"{inner}.name"),
                                       "arguments": fastjson.dumps(tool_input).decode()}})
        else:
            raise bad(inner, f"content block type {kind!r} is not supported in an assistant turn",
                      code="unsupported_content")
    message: dict[str, Any] = {"role": "assistant", "content": "".join(texts)}
    if calls:
        message["tool_calls"] = calls
    if thinking:
        message["reasoning_content"] = "".join(thinking)
    return message


def to_messages(system: Any, turns: list[Any]) -> list[dict[str, Any]]:
    """The OpenAI chat-shaped history of an Anthropic request (``WireError`` naming the bad block)."""
    messages: list[dict[str, Any]] = []
    if system is not None:
        text = system_text(system)
        if text:
            messages.append({"role": "system", "content": text})
    asked: list[str] = []  # the tool_use ids of the assistant turn just before, in order
    for n, turn in enumerate(turns):
        where = f"messages[{n}]"
        if not isinstance(turn, dict):
            raise bad(where, "must be an object with 'role' and 'content'")
        role = turn.get("role")
        content = turn.get("content")
        if type(content) is str and not asked and role in ("user", "assistant", "system"):  # the usual turn: no blocks to read
            messages.append({"role": role, "content": content})
            continue
        blocks = _blocks(content, f"{where}.content")
        if role == "assistant":
            message = _assistant(blocks, f"{where}.content")
            asked = [call["id"] for call in message.get("tool_calls", ())]
            messages.append(message)
        elif role == "user":
            messages.extend(_user(blocks, f"{where}.content", asked))
            asked = []
        elif role == "system" and not asked:  # Claude Code puts later system turns among the messages
            messages.append({"role": "system", "content": system_text(content)})
        else:
            raise bad(f"{where}.role", f"must be 'user' or 'assistant', got {role!r}")
    return messages


def _user(blocks: list[dict[str, Any]], where: str, asked: list[str]) -> list[dict[str, Any]]:
    results: dict[str, tuple[str, list[dict[str, Any]]]] = {}
    parts: list[dict[str, Any]] = []
    for i, block in enumerate(blocks):
        inner = f"{where}[{i}]"
        if block["type"] == "tool_result":
            call_id, text, images = _result(block, inner)
            if call_id in results:
                raise bad(f"{inner}.tool_use_id", f"a second tool_result for {call_id!r}", code="invalid_messages")
            if call_id not in asked:
                raise bad(f"{inner}.tool_use_id", f"{call_id!r} answers no tool_use of the previous assistant turn",
                          code="invalid_messages")
            results[call_id] = (text, images)
        else:
            parts.append(_user_part(block, inner))
    out: list[dict[str, Any]] = []
    images: list[dict[str, Any]] = []
    if asked:
        missing = [call_id for call_id in asked if call_id not in results]
        if missing:
            raise bad(where, f"the previous assistant turn's tool_use {', '.join(map(repr, missing))} has no "
                      "tool_result here (each tool_use needs one, in the next user turn)", code="invalid_messages")
        for call_id in asked:  # in the order the model asked: the chain rules
            text, pictures = results[call_id]
            out.append({"role": "tool", "tool_call_id": call_id, "content": text})
            if pictures:
                images += [{"type": "text", "text": f"Images returned by tool call {call_id}:"}, *pictures]
    content = images + parts
    if content:
        if all(p["type"] == "text" for p in content):
            out.append({"role": "user", "content": "\n".join(p["text"] for p in content)})
        else:
            out.append({"role": "user", "content": content})
    return out


def to_tools(tools: Any) -> list[dict[str, Any]] | None:
    if tools is None:
        return None
    if not isinstance(tools, list):
        raise bad("tools", "must be a list")
    out = []
    for i, tool in enumerate(tools):
        where = f"tools[{i}]"
        if not isinstance(tool, dict):
            raise bad(where, "must be an object")
        kind = tool.get("type")
        if kind not in (None, "custom"):
            raise bad(f"{where}.type", f"server tool {kind!r} is not supported: declare your own tools with "
                      "name, description and input_schema", code="unsupported_tool")
        schema = tool.get("input_schema")
        if not isinstance(schema, dict):
            raise bad(f"{where}.input_schema", "must be a JSON Schema object")
        function: dict[str, Any] = {"name": _text(tool.get("name"), f"{where}.name"), "parameters": schema}
        if isinstance(tool.get("description"), str):
            function["description"] = tool["description"]
        if tool.get("strict") is True:
            function["strict"] = True
        out.append({"type": "function", "function": function})
    return out or None


def to_tool_choice(choice: Any) -> tuple[Any, bool | None]:
    """(OpenAI tool_choice, parallel_tool_calls) of an Anthropic tool_choice."""
    if choice is None:
        return None, None
    if not isinstance(choice, dict):
        raise bad("tool_choice", "must be an object like {\"type\": \"auto\"}")
    kind = choice.get("type")
    parallel = False if choice.get("disable_parallel_tool_use") is True else None
    if kind == "auto":
        return "auto", parallel
    if kind == "any":
        return "required", parallel
    if kind == "none":
        return "none", None
    if kind == "tool":
        return {"type": "function", "function": {"name": _text(choice.get("name"), "tool_choice.name")}}, parallel
    raise bad("tool_choice.type", f"must be auto, any, tool or none, got {kind!r}")


__all__ = ["SIGNATURE_PREFIX", "bad", "image_part", "signature", "system_text", "to_messages", "to_tool_choice",
           "to_tools"]
