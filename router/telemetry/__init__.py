"""OpenTelemetry traces for the router, off and free unless the operator turns them on.

Tracing is switched on the standard way, by the ``OTEL_EXPORTER_OTLP_*`` variables
(with ``opentelemetry-sdk`` installed: the ``otel`` extra), so a deployment that
already exports traces gets the router's spans without a line of router config.
This module only reads the environment: ``opentelemetry`` is imported by
``router.telemetry.otel`` when tracing is really on, so ``import router`` and every
untraced request pay nothing for it.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from router.telemetry.otel import Telemetry
    from router.types import Answer

AnswerMethod = TypeVar("AnswerMethod", bound=Callable[..., Awaitable[Any]])

logger = logging.getLogger("router.telemetry")

ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
CONTENT_VARIABLE = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
"""The opt-in OpenTelemetry's GenAI instrumentations share for recording prompts and replies."""

_warned = False


def configured(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the operator asked for traces: an OTLP endpoint is set and the SDK is not disabled."""
    if environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    if environ.get("OTEL_TRACES_EXPORTER", "").strip().lower() == "none":
        return False
    return any(environ.get(name, "").strip() for name in ENDPOINT_VARIABLES)


def capture_content(environ: Mapping[str, str] = os.environ) -> bool:
    return environ.get(CONTENT_VARIABLE, "").strip().lower() in ("1", "true", "yes")


def from_environment(environ: Mapping[str, str] = os.environ) -> Telemetry | None:
    """A ``Telemetry`` exporting over OTLP/HTTP when configured, else ``None``.

    A configured endpoint without the SDK installed is said once, in a warning naming
    the extra: silently dropping the traces the operator asked for would hide it.
    """
    global _warned
    if not configured(environ):
        return None
    try:
        from router.telemetry.otel import Telemetry
    except ImportError as exc:
        if not _warned:
            _warned = True
            logger.warning("OTEL_EXPORTER_OTLP_* is set but OpenTelemetry is not installed (%s); "
                           "no traces are sent: pip install -e \".[otel]\"", exc.name or exc)
        return None
    return Telemetry.from_environment(capture_content=capture_content(environ))


def task_of(question: str | None) -> str | None:
    """The question's kind of work, from the one understanding modes and routing read."""
    if not question:
        return None
    try:
        from router.understanding import understand
    except ImportError:
        return None
    return str(understand(question).task)


def traced(operation: str) -> Callable[[AnswerMethod], AnswerMethod]:
    """Wraps a Router method that returns an ``Answer`` in one request span when tracing is on.

    A decorator rather than code in the method: the span is around the answer, and an
    untraced Router pays one attribute read for it.
    """

    def wrap(method: AnswerMethod) -> AnswerMethod:
        @functools.wraps(method)
        async def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            telemetry: Telemetry | None = self._telemetry
            if telemetry is None:
                return await method(self, *args, **kwargs)
            question = args[0] if args and isinstance(args[0], str) else None
            if question is None and args and isinstance(args[0], list):  # achat(messages): the last user turn
                question = next((str(m.get("content") or "") for m in reversed(args[0])
                                 if isinstance(m, dict) and m.get("role") == "user"), None)
            kwargs["on_event"] = telemetry.watch_tools(kwargs.get("on_event"))
            with telemetry.request(operation=operation, requested_model=kwargs.get("model") or kwargs.get("provider"),
                                   mode=kwargs.get("mode"), question=question) as span:
                answer: Answer = await method(self, *args, **kwargs)
                telemetry.finish(span, answer, tier=self.config.routing.tier_of(answer.provider, answer.model),
                                 task=task_of(question))
                return answer

        return run  # type: ignore[return-value]

    return wrap


__all__ = ["CONTENT_VARIABLE", "capture_content", "configured", "from_environment", "task_of", "traced"]
