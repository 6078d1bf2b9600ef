"""OpenAI Responses items <-> the router's OpenAI chat-shaped history.

Input: a string is one user message; items are messages (``input_text``, ``input_image``,
``input_file`` parts; an assistant's ``output_text`` / ``refusal``), ``function_call``
items (consecutive ones, and the assistant text just before them, make one assistant
message with ``tool_calls``: ids, names and argument strings unchanged),
``function_call_output`` items (``role: tool`` messages, put in the order the calls were
made, whatever order the caller listed them in) and ``reasoning`` items (their text
becomes the next assistant message's ``reasoning_content``, protocol rule 1).

Output: reasoning -> a ``reasoning`` item, text -> a ``message`` item with one
``output_text`` (or ``refusal``) part, each call -> a ``function_call`` item.
"""

from __future__ import annotations

import os
from typing import Any

from router.server.dialects.base import WireError
from router.types import Answer


def bad(where: str, message: str, code: str = "invalid_request") -> WireError:
    return WireError(400, f"{where}: {message}", code=code, param=where.split(".")[0].split("[")[0])


def item_id(prefix: str) -> str:
    return f"{prefix}_{os.urandom(12).hex()}"


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise bad(where, f"must be a string, got {type(value).__name__}")
    return value


def _part(part: Any, where: str) -> dict[str, Any]:
    if not isinstance(part, dict):
        raise bad(where, "a content part must be an object")
    kind = part.get("type")
    if kind in ("input_text", "output_text", "text"):
        return {"type": "text", "text": _text(part.get("text"), f"{where}.text")}
    if kind == "refusal":
        return {"type": "text", "text": _text(part.get("refusal"), f"{where}.refusal")}
    if kind == "input_image":
        url = part.get("image_url")
        if not isinstance(url, str):
            raise bad(f"{where}.image_url", "an image needs an image_url (a URL or a data: URL); file ids are OpenAI's "
                      "own storage", code="unsupported_content")
        image: dict[str, Any] = {"url": url}
        if part.get("detail") in ("low", "high", "auto"):
            image["detail"] = part["detail"]
        return {"type": "image_url", "image_url": image}
    if kind == "input_file":
        data = part.get("file_data")
        if not isinstance(data, str):
            raise bad(f"{where}.file_data", "a file needs file_data (file ids and URLs are OpenAI's own storage)",
                      code="unsupported_content")
        return {"type": "file", "file": {"filename": str(part.get("filename") or "file"), "file_data": data}}
    raise bad(f"{where}.type", f"content part type {kind!r} is not supported", code="unsupported_content")


def _content(content: Any, where: str) -> str | list[dict[str, Any]]:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise bad(where, "must be a string or a list of content parts")
    parts = [_part(p, f"{where}[{i}]") for i, p in enumerate(content)]
    if all(p["type"] == "text" for p in parts):
        return "".join(p["text"] for p in parts)
    return parts


def _output(value: Any, where: str) -> str:
    """A function_call_output's output: a string, or parts whose text is kept (images are described)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        texts = []
        for i, part in enumerate(value):
            converted = _part(part, f"{where}[{i}]")
            texts.append(converted["text"] if converted["type"] == "text" else f"[{converted['type']}]")
        return "\n".join(texts)
    raise bad(where, "must be a string or a list of content parts")


def to_messages(instructions: Any, items: Any, history: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """``instructions`` + the stored ``history`` (``previous_response_id``) + the new input, chain-ordered."""
    messages: list[dict[str, Any]] = []
    if instructions:
        messages.append({"role": "system", "content": _text(instructions, "instructions")})
    messages.extend(history or ())
    if isinstance(items, str):
        messages.append({"role": "user", "content": items})
        return messages
    if not isinstance(items, list):
        raise bad("input", "must be a string or a list of items")
    reasoning: list[str] = []
    for n, item in enumerate(items):
        where = f"input[{n}]"
        if not isinstance(item, dict):
            raise bad(where, "an item must be an object")
        kind = item.get("type", "message")
        if kind == "message":
            role = item.get("role")
            if role not in ("user", "assistant", "system", "developer"):
                raise bad(f"{where}.role", f"must be user, assistant, system or developer, got {role!r}")
            content = _content(item.get("content"), f"{where}.content")
            if role == "assistant":
                text = content if isinstance(content, str) else "".join(p.get("text", "") for p in content)
                message: dict[str, Any] = {"role": "assistant", "content": text}
                if reasoning:
                    message["reasoning_content"], reasoning = "".join(reasoning), []
                messages.append(message)
            else:
                messages.append({"role": role, "content": content})
        elif kind == "function_call":
            call = {"id": _text(item.get("call_id"), f"{where}.call_id"), "type": "function",
                    "function": {"name": _text(item.get("name"), f"{where}.name"),
                                 "arguments": _text(item.get("arguments"), f"{where}.arguments")}}
            last = messages[-1] if messages else None
            if last is not None and last["role"] == "assistant" and not _answered(messages):
                last.setdefault("tool_calls", []).append(call)  # parallel calls, or text then calls: one message
            else:
                messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
            if reasoning:
                messages[-1]["reasoning_content"], reasoning = "".join(reasoning), []
        elif kind == "function_call_output":
            messages.append({"role": "tool", "tool_call_id": _text(item.get("call_id"), f"{where}.call_id"),
                             "content": _output(item.get("output"), f"{where}.output")})
        elif kind == "reasoning":
            for part in item.get("content") or ():
                if isinstance(part, dict) and isinstance(part.get("text"), str):
                    reasoning.append(part["text"])
        else:
            raise bad(f"{where}.type", f"item type {kind!r} is not supported", code="unsupported_content")
    return order_results(messages)


def _answered(messages: list[dict[str, Any]]) -> bool:
    return bool(messages) and messages[-1]["role"] == "tool"


def order_results(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each run of tool messages after an assistant's calls, put in the calls' order (the chain rules)."""
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(messages):
        message = messages[i]
        out.append(message)
        i += 1
        calls = message.get("tool_calls") if message.get("role") == "assistant" else None
        if not calls:
            continue
        run = []
        while i < len(messages) and messages[i].get("role") == "tool":
            run.append(messages[i])
            i += 1
        order = {call.get("id"): n for n, call in enumerate(calls)}
        if {m.get("tool_call_id") for m in run} == set(order) and len(run) == len(order):
            run.sort(key=lambda m: order[m.get("tool_call_id")])
        out.extend(run)  # anything else is the chain check's to name
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
        if tool.get("type") != "function":
            raise bad(f"{where}.type", f"tool type {tool.get('type')!r} is not supported: only function tools (the "
                      "built-in tools run on OpenAI's side)", code="unsupported_tool")
        function: dict[str, Any] = {"name": _text(tool.get("name"), f"{where}.name"),
                                    "parameters": tool.get("parameters") or {"type": "object", "properties": {}}}
        if isinstance(tool.get("description"), str):
            function["description"] = tool["description"]
        if tool.get("strict") is not None:
            function["strict"] = bool(tool["strict"])
        out.append({"type": "function", "function": function})
    return out or None


def to_tool_choice(choice: Any) -> Any:
    if choice is None or choice in ("auto", "none", "required"):
        return choice
    if isinstance(choice, dict) and choice.get("type") == "function":
        return {"type": "function", "function": {"name": _text(choice.get("name"), "tool_choice.name")}}
    raise bad("tool_choice", "must be auto, none, required or {\"type\": \"function\", \"name\": ...}")


def to_response_format(text: Any) -> dict[str, Any] | None:
    form = (text or {}).get("format") if isinstance(text, dict) else None
    if form is None or form.get("type") == "text":
        return None
    if form.get("type") == "json_object":
        return {"type": "json_object"}
    if form.get("type") == "json_schema":
        schema = form.get("schema")
        if not isinstance(schema, dict):
            raise bad("text.format.schema", "must be a JSON Schema object")
        spec: dict[str, Any] = {"name": _text(form.get("name", "output"), "text.format.name"), "schema": schema}
        if form.get("strict") is not None:
            spec["strict"] = bool(form["strict"])
        if isinstance(form.get("description"), str):
            spec["description"] = form["description"]
        return {"type": "json_schema", "json_schema": spec}
    raise bad("text.format.type", "must be text, json_schema or json_object")


# --- output --------------------------------------------------------------------------------


def reasoning_item(text: str, rid: str, status: str = "completed") -> dict[str, Any]:
    return {"type": "reasoning", "id": rid, "summary": [], "content": [{"type": "reasoning_text", "text": text}],
            "status": status}


def text_part(text: str, refused: bool = False) -> dict[str, Any]:
    if refused:
        return {"type": "refusal", "refusal": text}
    return {"type": "output_text", "text": text, "annotations": [], "logprobs": []}


def message_item(text: str, mid: str, *, refused: bool = False, status: str = "completed") -> dict[str, Any]:
    return {"type": "message", "id": mid, "role": "assistant", "status": status,
            "content": [text_part(text, refused)] if status != "in_progress" else []}


def call_item(call_id: str, name: str, arguments: str, fid: str, status: str = "completed") -> dict[str, Any]:
    return {"type": "function_call", "id": fid, "call_id": call_id, "name": name, "arguments": arguments,
            "status": status}


def output_items(answer: Answer) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    if answer.reasoning_content:
        items.append(reasoning_item(answer.reasoning_content, item_id("rs")))
    if answer.text or not answer.tool_calls:
        status = "incomplete" if answer.finish_reason == "length" else "completed"
        item = message_item(answer.text, item_id("msg"), refused=answer.refused)
        item["status"] = status
        items.append(item)
    items += [call_item(c.id, c.name, c.arguments, item_id("fc")) for c in answer.tool_calls]
    return items


__all__ = ["bad", "call_item", "item_id", "message_item", "order_results", "output_items", "reasoning_item",
           "text_part", "to_messages", "to_response_format", "to_tool_choice", "to_tools"]
