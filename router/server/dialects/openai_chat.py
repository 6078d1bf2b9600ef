"""``POST /v1/chat/completions``: OpenAI's chat completions, the router's own shape, as a dialect.

Three ways to answer, chosen by the request:

* the caller sent ``tools``: a transparent gateway (``achat`` / ``astream_chat``) that
  returns the model's tool calls unchanged and checks the chain the caller sends back;
* the caller sent ``mode``: the router's answering modes (``aask`` / ``astream``);
  server-side tools run only in mode react;
* neither: one routed completion (``achat``).

The request and reply formats themselves live in ``router.server.wire``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from router.config import ServerSettings
from router.loop.chain import validate_messages
from router.server.dialects.base import Call, ReplyMeta, WireError, split_question
from router.server.dialects.toolstream import Action, Start, ToolCallStream
from router.server.http_errors import HTTPFailure
from router.server.wire import (
    DONE,
    ChunkWriter,
    completion_body,
    finish_reason,
    parse_request,
    request_options,
    router_extension,
    sse_error,
)
from router.types import Answer, Event


class OpenAIChat:
    name = "openai_chat"
    paths = ("/v1/chat/completions", "/chat/completions")
    endpoint = "/v1/chat/completions"
    id_prefix = "chatcmpl-"

    def __init__(self, settings: ServerSettings) -> None:
        self.max_messages = settings.max_messages

    def parse(self, data: Any, headers: Mapping[str, str]) -> Call:
        request = parse_request(data, max_messages=self.max_messages)
        for message in request.messages:
            if message.get("role") == "tool" and isinstance(message.get("content"), list):
                text = text_parts(message["content"])
                if text is not None:  # the spec allows an array of text parts; providers take one string
                    message["content"] = text
        problems = validate_messages(request.messages)
        if problems:
            raise WireError(400, "messages: " + "; ".join(problems), code="invalid_messages", param="messages")
        question, messages = "", request.messages
        if request.mode is not None:
            question, _ = split_question(messages)
        options = request.stream_options
        return Call(messages=messages, model=request.model, tools=request.tools, options=request_options(request),
                    mode=request.mode, stream=bool(request.stream), question=question,
                    extras={"include_usage": bool(options is not None and options.include_usage)})

    def render(self, answer: Answer, call: Call, meta: ReplyMeta) -> dict[str, Any]:
        return completion_body(answer, id=meta.id, created=meta.created, overhead_ms=meta.overhead_ms)

    def stream(self, call: Call, meta: ReplyMeta) -> ChatStream:
        return ChatStream(call, meta)

    def error(self, fail: HTTPFailure) -> tuple[int, dict[str, Any]]:
        return fail.status, fail.body()


def text_parts(parts: list[Any]) -> str | None:
    """The text of an array of ``{"type": "text", "text": ...}`` parts; None when any part is something else."""
    texts = []
    for part in parts:
        if not (isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)):
            return None
        texts.append(part["text"])
    return "\n".join(texts)


class ChatStream:
    """``chat.completion.chunk`` events; the chunk's ``model`` follows the route until the first byte is out."""

    def __init__(self, call: Call, meta: ReplyMeta) -> None:
        self.gateway = call.mode is None
        self.include_usage = bool(call.extras.get("include_usage"))
        self.writer = ChunkWriter(meta.id, call.model or "auto", meta.created)
        self.opened = False
        self.tools = ToolCallStream()

    def open(self, provider: str, model: str) -> bytes:
        self.opened = True
        return self.writer.delta({"role": "assistant", "content": ""})

    def event(self, event: Event) -> bytes:
        kind = event.kind
        if kind == "text":
            if event.text:
                return self.writer.text(event.text, reasoning=event.reasoning)
        elif kind == "tool_call_delta":
            if self.gateway:  # server-side tools (mode react) are the server's business: records only
                return self._tool_chunks(self.tools.feed(event))
        elif kind == "restart":  # before the first byte (the pipeline ends a started stream): start over
            self.tools.reset()
        elif kind == "route" and not self.opened:
            self.writer.model = f"{event.provider}/{event.model}"
        return b""

    def finish(self, answer: Answer, meta: ReplyMeta) -> bytes:
        writer = self.writer
        writer.model = f"{answer.provider}/{answer.model}" if answer.provider else answer.model
        pieces = []
        if self.gateway:  # what the pieces did not announce yet: a held-back "{}", calls sent whole
            pieces.append(self._tool_chunks(self.tools.finish(answer.tool_calls), answer))
        pieces.append(writer.delta({}, finish_reason(answer), router=router_extension(answer, overhead_ms=meta.overhead_ms)))
        if self.include_usage:
            pieces.append(writer.usage(answer))
        pieces.append(DONE)
        return b"".join(pieces)

    def _tool_chunks(self, actions: list[Action], answer: Answer | None = None) -> bytes:
        """Tool-call pieces as OpenAI streams them: the first with id, type and name, then argument text."""
        chunks = []
        for action in actions:
            if isinstance(action, Start):
                call: dict[str, Any] = {"index": action.position, "id": action.id, "type": "function",
                                        "function": {"name": action.name, "arguments": ""}}
                if answer is not None and action.position < len(answer.tool_calls):
                    call = {**answer.tool_calls[action.position].extra, **call}  # provider fields of a call sent whole
                chunks.append(self.writer.delta({"tool_calls": [call]}))
            else:
                fragment = {"index": action.position, "function": {"arguments": action.text}}
                chunks.append(self.writer.delta({"tool_calls": [fragment]}))
        return b"".join(chunks)

    def error(self, fail: HTTPFailure) -> bytes:
        return sse_error(fail.body())


__all__ = ["ChatStream", "OpenAIChat", "text_parts"]
