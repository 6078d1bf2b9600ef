"""Checking what the Anthropic and Responses dialects send: the published shapes, and the chain on the upstream side.

Anthropic publishes no JSON schema; its SDK's typed models are the contract (a body or
event that ``anthropic.types`` refuses is one the SDK's users cannot read). Responses
replies are checked against OpenAI's OpenAPI schemas (shared/specs, copied to tests/data).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from server_harness import DATA


@cache
def _anthropic_event_adapter() -> Any:
    from anthropic.types import RawMessageStreamEvent
    from pydantic import TypeAdapter

    return TypeAdapter(RawMessageStreamEvent)


def check_anthropic_message(body: dict[str, Any]) -> dict[str, Any]:
    from anthropic.types import Message

    Message.model_validate(body, strict=False)
    assert body["type"] == "message" and body["role"] == "assistant", body
    return body


def check_anthropic_error(body: dict[str, Any]) -> dict[str, Any]:
    from anthropic.types import ErrorResponse

    ErrorResponse.model_validate(body)
    assert body["type"] == "error" and isinstance(body["error"]["message"], str), body
    return body


def _named_events(raw: bytes) -> list[dict[str, Any]]:
    """The ``data`` of each SSE event; its ``event:`` line must name the payload's type."""
    events: list[dict[str, Any]] = []
    for block in raw.decode("utf-8").split("\n\n"):
        if not block.strip():
            continue
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        payload = json.loads(lines["data"])
        assert lines["event"] == payload["type"], block
        events.append(payload)
    return events


def anthropic_sse(raw: bytes) -> list[dict[str, Any]]:
    """The events of an Anthropic stream, each validated by the SDK's event union (``error`` by its shape)."""
    events = _named_events(raw)
    for payload in events:
        if payload["type"] == "error":
            check_anthropic_error(payload)
        elif payload["type"] == "ping":  # not in the SDK's event union: it skips pings
            assert payload == {"type": "ping"}, payload
        else:
            _anthropic_event_adapter().validate_python(payload)
    return events


def anthropic_sequence_ok(events: list[dict[str, Any]]) -> None:
    """Anthropic's grammar: message_start, (block start, deltas, stop)*, message_delta, message_stop."""
    types = [e["type"] for e in events if e["type"] != "ping"]
    assert types[0] == "message_start" and types[-2:] == ["message_delta", "message_stop"], types
    open_blocks: set[int] = set()
    seen: list[int] = []
    for event in events[1:-2]:
        kind = event["type"]
        if kind == "content_block_start":
            assert event["index"] == len(seen), "blocks are numbered in the order they start"
            seen.append(event["index"])
            open_blocks.add(event["index"])
        elif kind == "content_block_delta":
            assert event["index"] in open_blocks, f"delta for a block that is not open: {event}"
        elif kind == "content_block_stop":
            open_blocks.remove(event["index"])
        else:
            assert kind == "ping", kind
    assert not open_blocks, f"blocks left open: {open_blocks}"


# --- OpenAI Responses ----------------------------------------------------------------------


@cache
def _responses_schemas() -> dict[str, Any]:
    return json.loads((DATA / "openai_responses_schemas.json").read_text(encoding="utf-8"))


@cache
def _responses_validator(name: str) -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": _responses_schemas()["$defs"]})


def _event_schema(kind: str) -> str:
    defs = _responses_schemas()["$defs"]
    for branch in defs["ResponseStreamEvent"]["anyOf"]:
        name = branch["$ref"].rsplit("/", 1)[-1]
        if kind in defs[name].get("properties", {}).get("type", {}).get("enum", ()):
            return name
    raise AssertionError(f"no Responses stream event has type {kind!r}")


def check_responses(kind: str, payload: Any, *, event: bool = False) -> Any:
    """``kind``: response, error, request; with ``event``, a stream event's ``type`` (validated against its own schema)."""
    name = _event_schema(kind) if event else _responses_schemas()["x-kinds"][kind]
    errors = sorted(_responses_validator(name).iter_errors(payload), key=lambda e: list(e.path))
    if errors:
        raise AssertionError(f"{kind} does not match OpenAI's {name} schema: {errors[0].message} at "
                             f"{list(errors[0].path)}")
    return payload


def responses_sse(raw: bytes) -> list[dict[str, Any]]:
    events = _named_events(raw)
    for payload in events:
        check_responses(payload["type"], payload, event=True)
    numbers = [e["sequence_number"] for e in events]
    assert numbers == list(range(len(events))), numbers
    return events


# --- the upstream side: the chain rules ------------------------------------------------------


def chain_ok(messages: list[dict[str, Any]]) -> None:
    """Every assistant tool call answered by exactly one tool message, directly after it, in order, same id."""
    from router import validate_messages

    assert validate_messages(messages) == [], validate_messages(messages)
    for i, message in enumerate(messages):
        calls = message.get("tool_calls") or []
        following = messages[i + 1 : i + 1 + len(calls)]
        assert [m.get("role") for m in following] == ["tool"] * len(calls), messages
        assert [m["tool_call_id"] for m in following] == [c["id"] for c in calls], messages


__all__ = ["anthropic_sequence_ok", "anthropic_sse", "chain_ok", "check_anthropic_error", "check_anthropic_message",
           "check_responses", "responses_sse"]
