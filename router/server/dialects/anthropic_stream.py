"""The SSE events of one streamed Anthropic Messages reply (see ``anthropic_messages`` for the sequence).

Blocks are numbered in the order they start. Text and thinking blocks close when another
block starts (a thinking block with its ``signature_delta``); a ``tool_use`` block closes
once its arguments are a whole JSON value and another block starts, or at the end (calls
of one reply may interleave on the wire, and Anthropic's clients read deltas by index).
"""

from __future__ import annotations

from typing import Any

from router import fastjson
from router.server.dialects.anthropic_blocks import signature
from router.server.dialects.anthropic_messages import error_reply, stop_reason, usage
from router.server.dialects.base import Call, ReplyMeta
from router.server.dialects.toolstream import Piece, Start, ToolCallStream
from router.server.http_errors import HTTPFailure
from router.server.wire import router_extension
from router.types import Answer, Event


def sse(kind: str, payload: dict[str, Any]) -> bytes:
    return b"event: " + kind.encode() + b"\ndata: " + fastjson.dumps(payload) + b"\n\n"


class MessagesStream:
    """Anthropic's event sequence for one reply; blocks are numbered in the order they start."""

    def __init__(self, call: Call, meta: ReplyMeta) -> None:
        self.id = meta.id
        self.model = call.model or "auto"
        self.gateway = call.mode is None
        self._reset()

    def _reset(self) -> None:
        self.blocks = 0
        self.current: tuple[str, int] | None = None  # the open text or thinking block: (kind, index)
        self.thinking: list[str] = []
        self.texted = False
        self.tool_blocks: dict[int, int] = {}  # call position -> block index
        self.open_tools: list[int] = []  # positions whose block is still open
        self.tools = ToolCallStream()

    def open(self, provider: str, model: str) -> bytes:
        if provider:
            self.model = f"{provider}/{model}"
        message = {"id": self.id, "type": "message", "role": "assistant", "model": self.model, "content": [],
                   "stop_reason": None, "stop_sequence": None,
                   "usage": {"input_tokens": 0, "output_tokens": 0}}
        return sse("message_start", {"type": "message_start", "message": message}) + sse("ping", {"type": "ping"})

    def _start(self, block: dict[str, Any]) -> tuple[int, bytes]:
        index = self.blocks
        self.blocks += 1
        return index, sse("content_block_start", {"type": "content_block_start", "index": index, "content_block": block})

    @staticmethod
    def _delta(index: int, delta: dict[str, Any]) -> bytes:
        return sse("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})

    @staticmethod
    def _stop(index: int) -> bytes:
        return sse("content_block_stop", {"type": "content_block_stop", "index": index})

    def _close_current(self) -> bytes:
        if self.current is None:
            return b""
        kind, index = self.current
        self.current = None
        if kind == "thinking":
            sign = {"type": "signature_delta", "signature": signature("".join(self.thinking))}
            return self._delta(index, sign) + self._stop(index)
        return self._stop(index)

    def _text(self, text: str, kind: str) -> bytes:
        out = b""
        if self.current is None or self.current[0] != kind:
            out = self._close_current()
            index, start = self._start({"type": "text", "text": ""} if kind == "text" else
                                       {"type": "thinking", "thinking": "", "signature": ""})
            self.current = (kind, index)
            out += start
        index = self.current[1]  # type: ignore[index]
        if kind == "thinking":
            self.thinking.append(text)
            return out + self._delta(index, {"type": "thinking_delta", "thinking": text})
        self.texted = True
        return out + (self._delta(index, {"type": "text_delta", "text": text}) if text else b"")

    def _tool_actions(self, actions: list[Any]) -> bytes:
        out = []
        for action in actions:
            if isinstance(action, Start):
                out.append(self._close_current())
                for position in [p for p in self.open_tools if self.tools.complete(p)]:
                    self.open_tools.remove(position)
                    out.append(self._stop(self.tool_blocks[position]))
                index, start = self._start({"type": "tool_use", "id": action.id, "name": action.name, "input": {}})
                self.tool_blocks[action.position] = index
                self.open_tools.append(action.position)
                out.append(start)
            elif isinstance(action, Piece) and action.position in self.open_tools:
                out.append(self._delta(self.tool_blocks[action.position],
                                       {"type": "input_json_delta", "partial_json": action.text}))
        return b"".join(out)

    def event(self, event: Event) -> bytes:
        kind = event.kind
        if kind == "text":
            if event.text:
                return self._text(event.text, "thinking" if event.reasoning else "text")
        elif kind == "tool_call_delta":
            if self.gateway:
                return self._tool_actions(self.tools.feed(event))
        elif kind == "restart":  # before the first byte (the pipeline ends a started stream): start over
            self._reset()
        elif kind == "route":
            self.model = f"{event.provider}/{event.model}"
        return b""

    def finish(self, answer: Answer, meta: ReplyMeta) -> bytes:
        out = []
        if self.blocks == 0 and answer.reasoning_content:  # reasoning that was not streamed (a mode's answer)
            out.append(self._text(answer.reasoning_content, "thinking"))
        if not self.texted and (answer.text or not answer.tool_calls):  # text that was not streamed, or none at all
            out.append(self._text(answer.text, "text"))
        if self.gateway:
            out.append(self._tool_actions(self.tools.finish(answer.tool_calls)))
        out.append(self._close_current())
        out += [self._stop(self.tool_blocks[p]) for p in self.open_tools]
        self.open_tools = []
        delta = {"type": "message_delta", "delta": {"stop_reason": stop_reason(answer), "stop_sequence": None},
                 "usage": usage(answer), "router": router_extension(answer, overhead_ms=meta.overhead_ms)}
        out += [sse("message_delta", delta), sse("message_stop", {"type": "message_stop"})]
        return b"".join(out)

    def error(self, fail: HTTPFailure) -> bytes:
        return sse("error", error_reply(fail)[1])


__all__ = ["MessagesStream", "sse"]
