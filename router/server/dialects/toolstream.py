"""Streamed tool calls for the dialect writers: start each call once its id and name are known, then its pieces.

The gateway's ``ToolCallDeltaEvent`` pieces come keyed by the assembler's index; a
dialect needs more: a call's id and name before its first argument piece (Anthropic's
``content_block_start``, Responses' ``output_item.added``), ids unique within the reply,
and at the end the calls exactly as the answer holds them. ``ToolCallStream`` does that
once for every dialect:

* pieces are buffered until the call's id and name are both known, then announced;
* an id repeated within the reply gets the ``_2``, ``_3`` suffix ``normalise_calls`` gives
  the final call (the same rule, applied in the same order), so the streamed id is the
  answer's id;
* ``finish`` compares each call with what was announced: the rest of its arguments is
  announced (a held-back ``{}``, arguments the provider sent whole), a call never
  streamed is announced whole.

Calls are numbered by position (the order they first appeared, which is the answer's order).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from router.types import ToolCall, ToolCallDeltaEvent

logger = logging.getLogger("router.server")


@dataclass
class StreamedCall:
    position: int
    id: str = ""
    name: str = ""
    sent: str = ""
    """Argument text announced so far."""
    pending: str = ""
    """Argument text received before the call could start."""
    started: bool = False


@dataclass(frozen=True)
class Start:
    position: int
    id: str
    name: str


@dataclass(frozen=True)
class Piece:
    position: int
    text: str


Action = Start | Piece


class ToolCallStream:
    def __init__(self) -> None:
        self.calls: list[StreamedCall] = []
        self._by_index: dict[int, StreamedCall] = {}
        self._ids: set[str] = set()

    def reset(self) -> None:
        """The answer restarts on another model: forget every call."""
        self.__init__()  # type: ignore[misc]

    def _unique(self, call_id: str) -> str:
        if call_id in self._ids:
            n = 2
            while f"{call_id}_{n}" in self._ids:
                n += 1
            call_id = f"{call_id}_{n}"
        self._ids.add(call_id)
        return call_id

    def feed(self, event: ToolCallDeltaEvent) -> list[Action]:
        call = self._by_index.get(event.index)
        if call is None:
            call = StreamedCall(len(self.calls))
            self.calls.append(call)
            self._by_index[event.index] = call
        if event.call_id and not call.id:
            call.id = event.call_id
        if event.name and not call.name:
            call.name = event.name
        if not call.started:
            call.pending += event.arguments
            if not (call.id and call.name) or any(not c.started for c in self.calls[: call.position]):
                return []  # a call starts only after the calls before it (their ids decide the suffixes)
            return self._start_ready()
        if event.arguments:
            call.sent += event.arguments
            return [Piece(call.position, event.arguments)]
        return []

    def _start_ready(self) -> list[Action]:
        actions: list[Action] = []
        for call in self.calls:
            if call.started:
                continue
            if not (call.id and call.name):
                break
            call.started = True
            call.id = self._unique(call.id)
            actions.append(Start(call.position, call.id, call.name))
            if call.pending:
                call.sent, call.pending = call.pending, ""
                actions.append(Piece(call.position, call.sent))
        return actions

    def finish(self, final: Sequence[ToolCall]) -> list[Action]:
        """What is still to announce so that the streamed calls are exactly ``final``."""
        actions: list[Action] = []
        for position, tool_call in enumerate(final):
            if position >= len(self.calls):
                self.calls.append(StreamedCall(position))
            call = self.calls[position]
            if not call.started:
                call.started, call.id, call.name, call.pending = True, tool_call.id, tool_call.name, ""
                actions.append(Start(position, tool_call.id, tool_call.name))
            elif call.id != tool_call.id:
                logger.warning("streamed tool call id %r differs from the answer's %r", call.id, tool_call.id)
            if tool_call.arguments.startswith(call.sent):
                rest = tool_call.arguments[len(call.sent) :]
                if rest:
                    call.sent += rest
                    actions.append(Piece(position, rest))
            else:  # the provider rewrote arguments already shown: the final call is authoritative
                logger.warning("streamed arguments of tool call %r differ from the answer's", tool_call.id)
        return actions

    def complete(self, position: int) -> bool:
        """Whether the call's announced arguments are a whole JSON value (so its block may close)."""
        import json

        try:
            json.loads(self.calls[position].sent)
        except ValueError:
            return False
        return True


__all__ = ["Action", "Piece", "Start", "StreamedCall", "ToolCallStream"]
