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
* usage arrives in a last chunk whose ``choices`` is empty, or (Kimi) inside
  ``choices[0].usage``;
* arguments may arrive cumulatively (each fragment repeats everything so far),
  as ``{}`` followed by the full object, or as a JSON object instead of a
  string: the assembled arguments are what the model meant, never a
  concatenation of two objects;
* a server that repeats one id for every call of a turn (``calculator:0``) and
  sends no index still yields separate calls, with ids made unique;
* ``refusal`` deltas build the message's refusal, not its content; a provider
  field on a tool call (Gemini's ``extra_content``) is kept for the echo.

Chunks may be dicts or SDK objects (pydantic models); both are read the same way.
Anything unreadable in a chunk is a ``MalformedResponseError``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from router.clients.wire import (
    as_dict,
    canonical_arguments,
    check_finish,
    generated_call_id,
    normalise_calls,
    text_or_none,
    usage_from,
)
from router.errors import MalformedResponseError
from router.types import AssistantMessage, ChatResponse, StreamEvent, ToolCall, Usage


def _complete_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@dataclass
class _OpenCall:
    index: int
    id: str = ""
    name: str = ""
    arguments: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    announced: str = ""

    def add_arguments(self, piece: str) -> str:
        """Merge one argument fragment; returns the text to announce (for the event).

        What is announced is always a prefix of the arguments so far, so a caller joining
        the announced pieces never sees ``{}{"a": 1}``: a bare ``{}`` is held back (it may be
        a placeholder the full object replaces), and a replacement that does not continue
        what was announced announces nothing (the final call's arguments settle it).
        """
        so_far = self.arguments
        if so_far and piece.startswith(so_far):  # cumulative: the fragment repeats everything so far
            self.arguments = piece
        elif so_far.strip() and piece.lstrip().startswith("{") and _complete_json(so_far):
            self.arguments = piece  # a complete object ("{}") followed by the full one: the later wins
        else:
            self.arguments = so_far + piece
        now, shown = self.arguments, self.announced
        if not now.startswith(shown) or now.strip() == "{}":
            return ""
        self.announced = now
        return now[len(shown) :]

    def completes_with(self, piece: str) -> bool:
        """Whether this call already holds a whole object that ``piece`` does not continue."""
        return bool(self.name and self.arguments.strip()) and not piece.startswith(self.arguments) and _complete_json(
            self.arguments
        )

    def to_tool_call(self) -> ToolCall:
        return ToolCall(id=self.id, name=self.name, arguments=canonical_arguments(self.arguments), extra=self.extra)


class StreamAssembler:
    """Feed chunks with ``add_chunk``; read the result with ``response()`` / ``done_event()``."""

    def __init__(self, *, provider: str = "", model: str = "") -> None:
        self.provider = provider
        self.model = model
        self._text: list[str] = []
        self._reasoning: list[str] = []
        self._refusal: list[str] = []
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
        try:
            data = as_dict(chunk)
            if data.get("model"):
                self.model = str(data["model"])
            return self._add(data)
        except (AttributeError, KeyError, TypeError, ValueError, IndexError) as exc:
            raise MalformedResponseError(
                f"unreadable stream chunk: {type(exc).__name__}: {str(exc)[:200]}", provider=self.provider, model=self.model
            ) from exc

    def _add(self, data: dict[str, Any]) -> list[StreamEvent]:
        self._take_usage(data.get("usage"))
        events: list[StreamEvent] = []
        for choice in data.get("choices") or ():
            choice_data = as_dict(choice)
            if int(choice_data.get("index") or 0) != 0:
                continue  # n > 1 is never requested; ignore extra choices rather than mixing them
            events.extend(self.add_delta(choice_data.get("delta")))
            self._take_usage(choice_data.get("usage"))  # Kimi reports it inside the choice
            if choice_data.get("finish_reason"):
                self.finish_reason = str(choice_data["finish_reason"])
        return events

    def _take_usage(self, raw: Any) -> None:
        usage = usage_from(raw)
        if usage is not None and usage.total_tokens:
            self.usage = usage

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
        refusal = data.get("refusal")
        if isinstance(refusal, str) and refusal:
            self._refusal.append(refusal)
        for fragment in data.get("tool_calls") or ():
            events.append(self._add_fragment(as_dict(fragment)))
        return events

    def _slot_for(self, index: Any, call_id: str, named: bool, piece: str) -> _OpenCall:
        if index is not None:
            slot = self._route.get(int(index))
            if slot is not None and not (call_id and slot.id and call_id != slot.id):
                return slot
        else:
            slot = self._by_id.get(call_id) if call_id else (self._calls[-1] if self._calls else None)
            # no index and a reused id: a named fragment after a finished call starts the next call
            if slot is not None and not (named and slot.completes_with(piece)):
                return slot
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
        function = as_dict(fragment.get("function"))
        name = function.get("name")
        raw = function.get("arguments")
        piece = raw if isinstance(raw, str) else ("" if raw is None else canonical_arguments(raw))
        slot = self._slot_for(fragment.get("index"), call_id, bool(name), piece)
        if call_id and not slot.id:
            slot.id = call_id
            self._by_id[call_id] = slot  # later fragments with this id continue the newest call
        if name and not slot.name:
            slot.name = str(name)
        for key, value in fragment.items():
            if key not in ("index", "id", "type", "function") and value is not None:
                slot.extra[key] = value
        added = slot.add_arguments(piece) if piece else ""
        return StreamEvent("tool_call", text=added, index=slot.index, tool_call_id=slot.id or None, name=slot.name or None)

    # --- results --------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """A finish_reason arrived: the stream was not cut before its end."""
        return self.finish_reason is not None

    @property
    def has_content(self) -> bool:
        return bool(self._text or self._reasoning or self._calls)

    def message(self) -> AssistantMessage:
        calls = normalise_calls(slot.to_tool_call() for slot in self._calls)
        text = "".join(self._text)
        refusal = text_or_none("".join(self._refusal))
        return AssistantMessage(
            content=None if (refusal and not text and not calls) else text,
            tool_calls=calls,
            reasoning_content="".join(self._reasoning) or None,
            refusal=refusal,
        )

    def response(self, *, latency_s: float = 0.0) -> ChatResponse:
        """The assembled reply; a truncating finish reason raises ``TruncatedResponseError``."""
        check_finish(self.finish_reason, provider=self.provider, model=self.model)
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


__all__ = ["StreamAssembler", "as_dict", "generated_call_id", "usage_from"]
