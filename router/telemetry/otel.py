"""OpenTelemetry GenAI spans: one per request, one per model attempt, one per tool run.

Each span wraps a contract instead of living inside it, as pydantic-ai's
``InstrumentedModel`` wraps ``Model``: ``InstrumentedClient`` is an ``LLMClient``
around the real one (so every retry and fallback is its own ``chat`` span), tool
spans come from the loop's own tool events, and the request span is opened by the
Router around one answer. Names and attributes follow OpenTelemetry's GenAI
semantic conventions (``invoke_agent``, ``chat {model}``, ``execute_tool {name}``,
``gen_ai.*``), with ``router.*`` attributes for what only a router knows.

Prompts, replies and tool arguments are recorded only when the operator opts in
with ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true``, and even then
pass through the key redaction every other output does. Keys never reach a span:
no attribute is built from a client's key, headers or URL credentials.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from opentelemetry import trace
from opentelemetry.trace import SpanKind, Status, StatusCode

from router.answers import fallback_count
from router.clients.base import Messages, SyncClient, Tools
from router.redaction import redact
from router.types import Answer, ChatResponse, Event, RequestOptions, StreamEvent, ToolCallEvent, ToolResultEvent

if TYPE_CHECKING:
    from opentelemetry.trace import Span, Tracer

    from router.clients.base import LLMClient

SCOPE = "router"
MAX_ATTRIBUTE_CHARS = 16_000
"""Opt-in content is cut here: a span is a record, not a copy of a 100 MB tool result."""


def _content(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return redact(text[:MAX_ATTRIBUTE_CHARS])


def error_type(exc: BaseException) -> str:
    """The error's kind (``rate_limited``, ``timeout``...) where the router gave it one, else its class."""
    kind = getattr(exc, "kind", None)
    return kind if isinstance(kind, str) and kind else type(exc).__name__


class Telemetry:
    """The tracer and the rules for what goes on a span; one per Router."""

    def __init__(self, tracer: Tracer, *, capture_content: bool = False, owned_provider: Any = None) -> None:
        self.tracer = tracer
        self.capture_content = capture_content
        self._provider = owned_provider  # shut down with the Router only when the router made it

    @classmethod
    def from_environment(cls, *, capture_content: bool = False) -> Telemetry:
        """The application's tracer provider when it set one up, else an OTLP/HTTP exporter of our own.

        The exporter reads the standard ``OTEL_EXPORTER_OTLP_*`` variables (endpoint,
        headers, timeout) and the resource ``OTEL_SERVICE_NAME`` / ``OTEL_RESOURCE_ATTRIBUTES``.
        """
        from opentelemetry.sdk.trace import TracerProvider

        current = trace.get_tracer_provider()
        if isinstance(current, TracerProvider):
            return cls(current.get_tracer(SCOPE), capture_content=capture_content)
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import OTELResourceDetector, Resource
        from opentelemetry.sdk.trace.export import BatchSpanProcessor

        resource = Resource.create({"service.name": "router"}).merge(OTELResourceDetector().detect())
        provider = TracerProvider(resource=resource)
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
        return cls(provider.get_tracer(SCOPE), capture_content=capture_content, owned_provider=provider)

    # -- the request ---------------------------------------------------------------------

    @contextmanager
    def request(self, *, operation: str, requested_model: str | None, mode: str | None,
                question: str | None = None) -> Iterator[Span]:
        """The span of one answer; ``finish`` fills in who answered once it is known."""
        attributes: dict[str, Any] = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "router",
                                      "router.operation": operation}
        if requested_model:
            attributes["gen_ai.request.model"] = requested_model
        if mode:
            attributes["router.requested_mode"] = mode
        if self.capture_content and question is not None:
            attributes["gen_ai.input.messages"] = _content([{"role": "user", "content": question}])
        with self.tracer.start_as_current_span("invoke_agent router", kind=SpanKind.INTERNAL, attributes=attributes,
                                               record_exception=False, set_status_on_exception=False) as span:
            try:
                yield span
            except BaseException as exc:
                span.set_attribute("error.type", error_type(exc))
                span.set_status(Status(StatusCode.ERROR, error_type(exc)))
                raise

    def finish(self, span: Span, answer: Answer, *, tier: str | None = None, task: str | None = None) -> None:
        attributes: dict[str, Any] = {
            "gen_ai.provider.name": answer.provider,
            "gen_ai.response.model": answer.model,
            "gen_ai.usage.input_tokens": answer.usage.prompt_tokens,
            "gen_ai.usage.output_tokens": answer.usage.completion_tokens,
            "gen_ai.response.finish_reasons": (answer.finish_reason,),
            "router.mode": answer.mode,
            "router.route_reason": answer.route_reason,
            "router.fallback_count": fallback_count(answer),
            "router.stopped_reason": answer.stopped_reason,
            "router.tools_run": len(answer.tool_records),
        }
        for name, value in (("router.tier", tier), ("router.task_type", task),
                            ("router.deployment", getattr(answer, "deployment", None)),
                            ("gen_ai.response.id", getattr(answer, "id", None))):
            if value:
                attributes[name] = value
        if answer.cost is not None:
            attributes["router.cost_usd"] = answer.cost
        if self.capture_content:
            attributes["gen_ai.output.messages"] = _content([{"role": "assistant", "content": answer.text}])
        span.set_attributes(attributes)

    # -- attempts and tools --------------------------------------------------------------

    def instrument(self, client: LLMClient, *, base_url: str | None = None) -> LLMClient:
        """``client`` with a span per call; ``base_url`` gives ``server.address`` (its host alone)."""
        return client if isinstance(client, InstrumentedClient) else InstrumentedClient(client, self, base_url=base_url)

    def watch_tools(self, sink: Callable[[Event], None] | None) -> Callable[[Event], None]:
        """An event sink that turns the loop's tool call/result events into ``execute_tool`` spans.

        The span is built when the result arrives, with the start time of its call
        event: the tool itself (a thread, an MCP server) never sees the tracer.
        """
        started: dict[tuple[int, str], int] = {}

        def on_event(event: Event) -> None:
            if isinstance(event, ToolCallEvent):
                if len(started) < 4096:  # bounded: a model cannot grow it past one loop's calls
                    started[(event.step, event.call_id)] = time.time_ns()
            elif isinstance(event, ToolResultEvent):
                end = time.time_ns()
                start = started.pop((event.step, event.call_id), end - int(event.duration_s * 1e9))
                self._tool_span(event, start, end)
            if sink is not None:
                sink(event)

        return on_event

    def _tool_span(self, event: ToolResultEvent, start: int, end: int) -> None:
        attributes: dict[str, Any] = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": event.name,
                                      "gen_ai.tool.call.id": event.call_id, "gen_ai.tool.type": "function",
                                      "router.tool.step": event.step}
        if event.background:
            attributes["router.tool.background"] = True
        if event.server:  # an MCP server's tool: which server, as OpenTelemetry's MCP conventions name it
            attributes["gen_ai.tool.type"] = "extension"
            attributes["mcp.server.name"] = event.server
        if self.capture_content:
            attributes["gen_ai.tool.call.result"] = _content(event.result)
        span = self.tracer.start_span(f"execute_tool {event.name}", kind=SpanKind.INTERNAL, attributes=attributes,
                                      start_time=start)
        if event.error:
            span.set_attribute("error.type", "tool_error")
            span.set_status(Status(StatusCode.ERROR, "tool_error"))
        span.end(end_time=end)

    async def aclose(self) -> None:
        """Send what is buffered; shut down only an exporter the router made itself."""
        if self._provider is not None:
            self._provider.force_flush()
            self._provider.shutdown()
            self._provider = None


class InstrumentedClient(SyncClient):
    """An ``LLMClient`` whose every call is one ``chat {model}`` client span."""

    def __init__(self, client: LLMClient, telemetry: Telemetry, *, base_url: str | None = None) -> None:
        self.wrapped = client
        self.telemetry = telemetry
        self.base_url = base_url
        self.provider = client.provider
        self.model = client.model

    def _start(self, messages: Messages, tools: Tools, options: RequestOptions | None) -> Span:
        attributes: dict[str, Any] = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": self.provider,
                                      "gen_ai.request.model": self.model}
        if self.base_url:
            host = urlsplit(self.base_url)
            if host.hostname:  # the host alone: never the user:password@ part of a URL
                attributes["server.address"] = host.hostname
                if host.port:
                    attributes["server.port"] = host.port
        deployment = getattr(self.wrapped, "deployment", None)
        if isinstance(deployment, str) and deployment:
            attributes["router.deployment"] = deployment
        if options is not None:
            for name, value in (("gen_ai.request.max_tokens", options.max_tokens),
                                ("gen_ai.request.temperature", options.temperature),
                                ("gen_ai.request.top_p", options.top_p)):
                if value is not None:
                    attributes[name] = value
        if tools:
            attributes["router.tools_offered"] = len(tools)
        if self.telemetry.capture_content:
            attributes["gen_ai.input.messages"] = _content(messages)
        return self.telemetry.tracer.start_span(f"chat {self.model}", kind=SpanKind.CLIENT, attributes=attributes)

    def _answered(self, span: Span, response: ChatResponse) -> None:
        span.set_attributes({
            "gen_ai.response.model": response.model or self.model,
            "gen_ai.usage.input_tokens": response.usage.prompt_tokens,
            "gen_ai.usage.output_tokens": response.usage.completion_tokens,
            "gen_ai.response.finish_reasons": (response.finish_reason or "stop",),
        })
        if self.telemetry.capture_content:
            span.set_attribute("gen_ai.output.messages", _content([response.message.to_dict()]))

    @staticmethod
    def _failed(span: Span, exc: BaseException) -> None:
        span.set_attribute("error.type", error_type(exc))
        span.set_status(Status(StatusCode.ERROR, error_type(exc)))

    async def achat(self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None) -> ChatResponse:
        span = self._start(messages, tools, options)
        try:
            with trace.use_span(span, end_on_exit=False, record_exception=False, set_status_on_exception=False):
                response = await self.wrapped.achat(messages, tools=tools, options=options)
        except BaseException as exc:
            self._failed(span, exc)
            raise
        else:
            self._answered(span, response)
            return response
        finally:
            span.end()

    async def astream(
        self, messages: Messages, *, tools: Tools = None, options: RequestOptions | None = None
    ) -> AsyncIterator[StreamEvent]:
        # start_span, not start_as_current_span: a context attached in an async generator
        # would be detached in whichever task resumes it last
        span = self._start(messages, tools, options)
        first = True
        try:
            async for event in self.wrapped.astream(messages, tools=tools, options=options):
                if first and event.kind in ("text", "reasoning", "tool_call"):
                    first = False
                    span.add_event("gen_ai.first_token")
                if event.kind == "done" and event.response is not None:
                    self._answered(span, event.response)
                yield event
        except BaseException as exc:
            self._failed(span, exc)
            raise
        finally:
            span.end()

    async def aclose(self) -> None:
        await self.wrapped.aclose()


__all__ = ["InstrumentedClient", "Telemetry", "error_type"]
