"""The SSE events of one streamed Responses reply (see ``openai_responses`` for the sequence).

Items are numbered (``output_index``) in the order they start, each with its own id; the
final ``response.completed`` lists exactly those items with the same ids, because the
openai SDK checks that nothing changed identity between the deltas and the end. A
function call's item closes once its arguments are a whole JSON value and another item
starts, or at the end (calls of one reply may interleave on the wire).
"""

from __future__ import annotations

from typing import Any

from router import fastjson
from router.server.dialects.base import Call, ReplyMeta
from router.server.dialects.openai_responses import failed_body, response_body, shell
from router.server.dialects.responses_items import call_item, item_id, message_item, reasoning_item, text_part
from router.server.dialects.toolstream import Piece, Start, ToolCallStream
from router.server.http_errors import HTTPFailure
from router.types import Answer, Event


class _Item:
    def __init__(self, kind: str, index: int, iid: str) -> None:
        self.kind, self.index, self.id = kind, index, iid
        self.text: list[str] = []
        self.done: dict[str, Any] | None = None
        self.call_id = self.name = ""


class ResponsesStream:
    def __init__(self, call: Call, meta: ReplyMeta) -> None:
        self.call, self.meta = call, meta
        self.gateway = call.mode is None
        self.model = call.model or "auto"
        self.sequence = 0
        self.body: dict[str, Any] | None = None
        """The final response (``response.completed``), kept for the store."""
        self._queue: list[tuple[str, dict[str, Any]]] = []
        self.begun = False
        self._reset()

    def _reset(self) -> None:
        self.items: list[_Item] = []
        self.current: _Item | None = None  # the open text or reasoning item
        self.calls: dict[int, _Item] = {}  # call position -> item
        self.open_calls: list[int] = []
        self.tools = ToolCallStream()
        self.texted = False

    def _event(self, kind: str, **fields: Any) -> bytes:
        """Queued, numbered and written by ``_flush``: ``response.created`` must be number 0, and the pipeline
        asks for the head (``open``) only once the first event exists."""
        self._queue.append((kind, fields))
        return b""

    def _flush(self) -> bytes:
        queue, self._queue = self._queue, []
        if not queue:
            return b""
        if not self.begun:
            self.begun = True
            started = shell(self.call, self.meta, self.model)
            queue = [("response.created", {"response": started}), ("response.in_progress", {"response": started}),
                     *queue]
        out = []
        for kind, fields in queue:
            payload = {"type": kind, "sequence_number": self.sequence, **fields}
            self.sequence += 1
            out.append(b"event: " + kind.encode() + b"\ndata: " + fastjson.dumps(payload) + b"\n\n")
        return b"".join(out)

    def open(self, provider: str, model: str) -> bytes:
        return b""  # response.created leads the first flush (it carries the model the route chose)

    def _add(self, kind: str, prefix: str, item: dict[str, Any]) -> tuple[_Item, bytes]:
        entry = _Item(kind, len(self.items), item["id"] if "id" in item else item_id(prefix))
        self.items.append(entry)
        return entry, self._event("response.output_item.added", output_index=entry.index, item=item)

    def _close_current(self) -> bytes:
        item, self.current = self.current, None
        if item is None:
            return b""
        text = "".join(item.text)
        where = {"item_id": item.id, "output_index": item.index, "content_index": 0}
        if item.kind == "reasoning":
            part = {"type": "reasoning_text", "text": text}
            item.done = reasoning_item(text, item.id)
            head = self._event("response.reasoning_text.done", **where, text=text)
        else:
            part = text_part(text)
            item.done = message_item(text, item.id)
            head = self._event("response.output_text.done", **where, text=text, logprobs=[])
        return (head + self._event("response.content_part.done", **where, part=part)
                + self._event("response.output_item.done", output_index=item.index, item=item.done))

    def _text(self, text: str, kind: str) -> bytes:
        out = b""
        if self.current is None or self.current.kind != kind:
            out = self._close_current()
            iid = item_id("rs" if kind == "reasoning" else "msg")
            if kind == "reasoning":
                item, added = self._add(kind, "rs", {"type": "reasoning", "id": iid, "summary": [], "content": [],
                                                     "status": "in_progress"})
                part: dict[str, Any] = {"type": "reasoning_text", "text": ""}
            else:
                item, added = self._add(kind, "msg", message_item("", iid, status="in_progress"))
                part = text_part("")
            self.current = item
            out += added + self._event("response.content_part.added", item_id=item.id, output_index=item.index,
                                       content_index=0, part=part)
        item = self.current
        assert item is not None
        item.text.append(text)
        where = {"item_id": item.id, "output_index": item.index, "content_index": 0}
        if kind == "reasoning":
            return out + self._event("response.reasoning_text.delta", **where, delta=text)
        self.texted = True
        return out + (self._event("response.output_text.delta", **where, delta=text, logprobs=[]) if text else b"")

    def _close_call(self, position: int) -> bytes:
        item = self.calls[position]
        arguments = "".join(item.text)
        item.done = call_item(item.call_id, item.name, arguments, item.id)
        return (self._event("response.function_call_arguments.done", item_id=item.id, output_index=item.index,
                            name=item.name, arguments=arguments)
                + self._event("response.output_item.done", output_index=item.index, item=item.done))

    def _tool_actions(self, actions: list[Any]) -> bytes:
        out = []
        for action in actions:
            if isinstance(action, Start):
                out.append(self._close_current())
                for position in [p for p in self.open_calls if self.tools.complete(p)]:
                    self.open_calls.remove(position)
                    out.append(self._close_call(position))
                fid = item_id("fc")
                item, added = self._add("function_call", "fc", call_item(action.id, action.name, "", fid, "in_progress"))
                item.call_id, item.name = action.id, action.name
                self.calls[action.position] = item
                self.open_calls.append(action.position)
                out.append(added)
            elif isinstance(action, Piece) and action.position in self.open_calls:
                item = self.calls[action.position]
                item.text.append(action.text)
                out.append(self._event("response.function_call_arguments.delta", item_id=item.id,
                                       output_index=item.index, delta=action.text))
        return b"".join(out)

    def event(self, event: Event) -> bytes:
        kind = event.kind
        if kind == "text":
            if event.text:
                self._text(event.text, "reasoning" if event.reasoning else "text")
        elif kind == "tool_call_delta":
            if self.gateway:
                self._tool_actions(self.tools.feed(event))
        elif kind == "restart":  # before the first byte (the pipeline ends a started stream): start over
            self._reset()
            self._queue = []
        elif kind == "route":
            self.model = f"{event.provider}/{event.model}"
        return self._flush()

    def _refusal(self, text: str) -> bytes:
        out = self._close_current()
        item, added = self._add("message", "msg", message_item("", item_id("msg"), status="in_progress"))
        where = {"item_id": item.id, "output_index": item.index, "content_index": 0}
        item.done = message_item(text, item.id, refused=True)
        return (out + added + self._event("response.content_part.added", **where, part=text_part("", True))
                + self._event("response.refusal.delta", **where, delta=text)
                + self._event("response.refusal.done", **where, refusal=text)
                + self._event("response.content_part.done", **where, part=text_part(text, True))
                + self._event("response.output_item.done", output_index=item.index, item=item.done))

    def finish(self, answer: Answer, meta: ReplyMeta) -> bytes:
        out = []
        if not self.items and answer.reasoning_content:  # reasoning that was not streamed (a mode's answer)
            out.append(self._text(answer.reasoning_content, "reasoning"))
        if answer.refused and not self.texted:
            out.append(self._refusal(answer.text))
        elif not self.texted and (answer.text or not answer.tool_calls):
            out.append(self._text(answer.text, "text"))
        if self.gateway:
            out.append(self._tool_actions(self.tools.finish(answer.tool_calls)))
        out.append(self._close_current())
        out += [self._close_call(p) for p in self.open_calls]
        self.open_calls = []
        body = response_body(answer, self.call, meta, [item.done for item in self.items if item.done is not None])
        self.body = body
        kind = "response.incomplete" if body["status"] == "incomplete" else "response.completed"
        self._event(kind, response=body)
        return self._flush()

    def error(self, fail: HTTPFailure) -> bytes:
        output = [item.done for item in self.items if item.done is not None]
        self._queue = []
        self._event("error", code=fail.code, message=fail.message, param=fail.param)
        self._event("response.failed", response=failed_body(self.call, self.meta, self.model, fail, output))
        return self._flush()


__all__ = ["ResponsesStream"]
