"""Turning OpenAI-style stream chunks into StreamEvents and one ChatResponse.

Both real clients stream through ``StreamAssembler`` so fragment merging lives in
exactly one place. Servers disagree in small ways the assembler tolerates:

* tool-call fragments are merged by ``index``; when a server omits it, by ``id``,
  and failing that into the last open call;
* a server that reuses index 0 for parallel calls but gives each a new ``id``
  still yields separate calls;
* id and name come from the first fragment carrying them; later fragments with
  an empty or None name (or the same name repeated) do not change the name;
* text, ``reasoning_content`` (DeepSeek; ``reasoning`` on some proxies) and tool
  deltas may interleave;
* usage arrives in a last chunk whose ``choices`` is empty.

Chunks may be dicts or SDK objects (pydantic models); both are read the same way.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from router.types import AssistantMessage, ChatResponse, StreamEvent, ToolCall, Usage


def as_dict(obj: Any) -> dict[str, Any]:
    """A plain dict view of a chunk / delta / usage, including pydantic extras."""
    if obj is None:
        return {}
    if isinstance(obj, Mapping):
        return dict(obj)
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        return dict(dump())
    return dict(getattr(obj, "__dict__", {}))


def usage_from(obj: Any) -> Usage | None:
    data = as_dict(obj)
    if not data:
        return None
    prompt = int(data.get("prompt_tokens") or 0)
    completion = int(data.get("completion_tokens") or 0)
    total = int(data.get("total_tokens") or prompt + completion)
    return Usage(prompt, completion, total)



def generated_call_id() -> str:
    """An id for a tool call the server sent without one.

    It must be unique across the whole history, not just within one reply: a
    per-reply counter (``call_0``) repeats every turn and breaks the chain rules.
    """
    return f"call_{uuid.uuid4().hex[:24]}"


@dataclass
class _OpenCall:
    index: int
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)

    def to_tool_call(self) -> ToolCall:
        arguments = "".join(self.arguments)
        return ToolCall(
            id=self.id or generated_call_id(),
            name=self.name,
            # a call streamed with no argument pieces is a no-argument call
            arguments=arguments if arguments.strip() else "{}",
        )


class StreamAssembler:
    """Feed chunks with ``add_chunk``; read the result with ``response()`` / ``done_event()``."""

    def __init__(self, *, provider: str = "", model: str = "") -> None:
        self.provider = provider
        self.model = model
        self._text: list[str] = []
        self._reasoning: list[str] = []
        self._calls: list[_OpenCall] = []
        self._route: dict[int, _OpenCall] = {}
        self._taken: set[int] = set()
        self._by_id: dict[str, _OpenCall] = {}
        self.finish_reason: str | None = None
        self.usage: Usage | None = None
        self.chunks = 0

    # --- feeding --------------------------------------------------------------------

    def add_chunk(self, chunk: Any) -> list[StreamEvent]:
        """One chunk (``{"choices": [{"delta": ..., "finish_reason": ...}], "usage": ...}``)."""
        self.chunks += 1
        data = as_dict(chunk)
        if data.get("model"):
            self.model = str(data["model"])
        usage = usage_from(data.get("usage"))
        if usage is not None and usage.total_tokens:
            self.usage = usage
        events: list[StreamEvent] = []
        for choice in data.get("choices") or ():
            choice_data = as_dict(choice)
            if int(choice_data.get("index") or 0) != 0:
                continue  # n > 1 is never requested; ignore extra choices rather than mixing them
            events.extend(self.add_delta(choice_data.get("delta")))
            if choice_data.get("finish_reason"):
                self.finish_reason = str(choice_data["finish_reason"])
        return events

    def add_delta(self, delta: Any) -> list[StreamEvent]:
        data = as_dict(delta)
        events: list[StreamEvent] = []
        reasoning = data.get("reasoning_content") or data.get("reasoning")
        if isinstance(reasoning, str) and reasoning:
            self._reasoning.append(reasoning)
            events.append(StreamEvent("reasoning", text=reasoning))
        content = data.get("content")
        if isinstance(content, str) and content:
            self._text.append(content)
            events.append(StreamEvent("text", text=content))
        for fragment in data.get("tool_calls") or ():
            events.append(self._add_fragment(as_dict(fragment)))
        return events

    def _slot_for(self, index: Any, call_id: str) -> _OpenCall:
        if index is not None:
            slot = self._route.get(int(index))
            if slot is not None and not (call_id and slot.id and call_id != slot.id):
                return slot
        elif call_id and call_id in self._by_id:
            return self._by_id[call_id]
        elif not call_id and self._calls:
            return self._calls[-1]
        # a new call: keeps its wire index when free, else takes the next free one
        wanted = int(index) if index is not None else len(self._calls)
        while wanted in self._taken:
            wanted += 1
        slot = _OpenCall(index=wanted)
        self._calls.append(slot)
        self._taken.add(wanted)
        if index is not None:
            self._route[int(index)] = slot  # later fragments with this wire index continue it
        return slot

    def _add_fragment(self, fragment: dict[str, Any]) -> StreamEvent:
        call_id = str(fragment.get("id") or "")
        slot = self._slot_for(fragment.get("index"), call_id)
        if call_id and not slot.id:
            slot.id = call_id
            self._by_id[call_id] = slot
        function = as_dict(fragment.get("function"))
        name = function.get("name")
        if name and not slot.name:
            slot.name = str(name)
        piece = function.get("arguments")
        piece = piece if isinstance(piece, str) else ""
        if piece:
            slot.arguments.append(piece)
        return StreamEvent("tool_call", text=piece, index=slot.index, tool_call_id=slot.id or None, name=slot.name or None)

    # --- results --------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """A finish_reason arrived: the stream was not cut before its end."""
        return self.finish_reason is not None

    @property
    def has_content(self) -> bool:
        return bool(self._text or self._reasoning or self._calls)

    def message(self) -> AssistantMessage:
        calls = tuple(slot.to_tool_call() for slot in self._calls)
        text = "".join(self._text)
        return AssistantMessage(
            content=text if (text or not calls) else "",
            tool_calls=calls,
            reasoning_content="".join(self._reasoning) or None,
        )

    def response(self, *, latency_s: float = 0.0) -> ChatResponse:
        message = self.message()
        finish = self.finish_reason or ("tool_calls" if message.tool_calls else "stop")
        return ChatResponse(
            message=message,
            finish_reason=finish,
            usage=self.usage or Usage(),
            model=self.model,
            provider=self.provider,
            latency_s=latency_s,
        )

    def done_event(self, *, latency_s: float = 0.0) -> StreamEvent:
        return StreamEvent("done", response=self.response(latency_s=latency_s))


__all__ = ["StreamAssembler", "as_dict", "usage_from"]
