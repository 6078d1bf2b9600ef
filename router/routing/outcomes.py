"""Outcomes of answers: implicit signals, explicit feedback, and the record that ties them to a decision.

Every answer of a Router with ``routing.learning.enabled`` gets a note in the state store
(``answer:<id>``, kept ``feedback_window_s``): who asked (the caller's key), the decision
that chose its tier, and the outcome counted for it so far. That outcome starts implicit:
score 0 with the weight of the strongest signal that fired (the loop ended on an error or
its step bound, a refusal, a content filter, a cut at the length limit, an empty reply, a
reply that breaks the requested JSON schema), else score 1 with the small ``answered``
weight. The same messages asked again by the same caller within ``repeat_window_s`` turn
the earlier answer's outcome into the ``repeat`` signal. Explicit feedback replaces
whatever was counted, with weight 1. Replacing is a swap of the note (atomic in the store),
so two racing feedbacks never withdraw the same outcome twice.

Feedback is checked before anything is written: the score is a number in [0, 1], the id
is known and live, and the caller is the one who received the answer.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from router.errors import FeedbackRefusedError, UnknownAnswerError, UsageError
from router.routing.learning import Decision, Kind

if TYPE_CHECKING:
    from router.config.learning import LearningSettings, SignalWeights
    from router.routing.learning import Learner
    from router.types import Answer, RequestOptions

MAX_ID_CHARS = 128
MAX_COMMENT_CHARS = 2000
LIBRARY_CALLER = "library"
"""Who asked, for answers given through the library rather than a keyed server."""


@dataclass(frozen=True)
class Counted:
    """The outcome counted for one answer: ``score`` with ``weight`` (0: nothing counted)."""

    score: float
    weight: float
    source: str


def implicit_outcome(answer: Answer, options: RequestOptions | None, weights: SignalWeights) -> Counted:
    """The answer's outcome as the signals read it, before anyone says anything."""
    fired = [(getattr(weights, name), name) for name in signals(answer, options)]
    if fired:
        weight, name = max(fired)
        return Counted(0.0, weight, name)
    return Counted(1.0, weights.answered, "answered")


def signals(answer: Answer, options: RequestOptions | None) -> list[str]:
    """The implicit signals of failure this answer shows (names of ``SignalWeights`` fields)."""
    out = []
    if answer.stopped_reason == "error":
        out.append("error")
    if answer.stopped_reason in ("max_steps", "repeated_calls"):
        out.append("step_bound")
    if answer.refused:
        out.append("refusal")
    if answer.finish_reason == "content_filter":
        out.append("content_filter")
    if answer.finish_reason == "length" or answer.stopped_reason == "length":
        out.append("length")
    if not answer.text.strip() and not answer.tool_calls:
        out.append("empty")
    elif options is not None and options.response_format and not answer.tool_calls and not schema_holds(
        answer.text, options.response_format
    ):
        out.append("schema_failure")
    return out


def schema_holds(text: str, response_format: Mapping[str, Any]) -> bool:
    """Does ``text`` satisfy the requested ``response_format`` (``json_object`` / ``json_schema``)?"""
    kind = response_format.get("type")
    if kind not in ("json_object", "json_schema"):
        return True
    try:
        value = json.loads(text)
    except ValueError:
        return False
    if kind == "json_object":
        return isinstance(value, dict)
    spec = response_format.get("json_schema")
    schema = spec.get("schema") if isinstance(spec, Mapping) else None
    return _valid(value, schema) if isinstance(schema, Mapping) else True


_TYPES: dict[str, Any] = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _valid(value: Any, schema: Mapping[str, Any], depth: int = 0) -> bool:
    """The core of JSON Schema that structured outputs use: type, enum, required, properties, items."""
    if depth > 32:
        return True
    wanted = schema.get("type")
    if wanted is not None:
        kinds = wanted if isinstance(wanted, list) else [wanted]
        if not any(_is(value, k) for k in kinds):
            return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if isinstance(value, dict):
        properties = schema.get("properties") or {}
        if any(name not in value for name in schema.get("required") or ()):
            return False
        if schema.get("additionalProperties") is False and any(name not in properties for name in value):
            return False
        return all(_valid(value[n], s, depth + 1) for n, s in properties.items() if n in value and isinstance(s, Mapping))
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        return all(_valid(item, schema["items"], depth + 1) for item in value)
    return True


def _is(value: Any, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    expected = _TYPES.get(kind)
    return expected is None or (isinstance(value, expected) and not (expected is not bool and isinstance(value, bool)))


def conversation_key(caller: str, messages: Sequence[Mapping[str, Any]]) -> str:
    """The same messages from the same caller (a re-ask, a regenerate): one short key."""
    digest = hashlib.sha256(json.dumps(list(messages), sort_keys=True, default=str, ensure_ascii=False).encode())
    digest.update(caller.encode())
    return digest.hexdigest()[:32]


def check_score(score: object) -> float:
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
        raise UsageError(f"feedback score must be a number from 0.0 (bad) to 1.0 (good), got {score!r}")
    if not 0.0 <= score <= 1.0:
        raise UsageError(f"feedback score must be between 0.0 and 1.0, got {score!r}")
    return float(score)


def check_answer_id(answer_id: object) -> str:
    if not isinstance(answer_id, str) or not answer_id or len(answer_id) > MAX_ID_CHARS or not answer_id.isprintable():
        raise UsageError(f"answer id must be a non-empty string of at most {MAX_ID_CHARS} printable characters")
    return answer_id


class OutcomeBook:
    """Answers awaiting feedback, and the outcomes counted for them, in the learner's store."""

    def __init__(self, learner: Learner, settings: LearningSettings) -> None:
        self.learner = learner
        self.settings = settings
        self.store = learner.store

    async def record(self, answer: Answer, decision: Decision | None, *, caller: str | None,
                     messages: Sequence[Mapping[str, Any]], options: RequestOptions | None) -> None:
        """Note a new answer and count its implicit outcome (a re-asked question marks the earlier one)."""
        who = caller or LIBRARY_CALLER
        counted = implicit_outcome(answer, options, self.settings.signals) if decision else Counted(0.0, 0.0, "none")
        at = self.learner.clock()
        note = _note(who, decision, at, counted, self.settings.feedback_window_s)
        await self.store.note_set(f"answer:{answer.id}", note, self.settings.feedback_window_s)
        if decision is not None:
            await self.learner.observe(decision, counted.score, counted.weight, at)
        earlier = await self.store.note_set(f"asked:{conversation_key(who, messages)}", answer.id,
                                            self.settings.repeat_window_s, swap=True)
        if earlier and earlier != answer.id:
            await self._replace(earlier, Counted(0.0, self.settings.signals.repeat, "repeat"), who, explicit=False)

    async def feedback(self, answer_id: str, score: float, *, caller: str | None, comment: str | None = None) -> None:
        score = check_score(score)
        answer_id = check_answer_id(answer_id)
        if comment is not None and (not isinstance(comment, str) or len(comment) > MAX_COMMENT_CHARS):
            raise UsageError(f"feedback comment must be a string of at most {MAX_COMMENT_CHARS} characters")
        await self._replace(answer_id, Counted(score, 1.0, "feedback"), caller or LIBRARY_CALLER, explicit=True,
                            comment=comment)

    async def _replace(self, answer_id: str, new: Counted, caller: str, *, explicit: bool,
                       comment: str | None = None) -> None:
        key = f"answer:{answer_id}"
        raw = await self.store.note_get(key)
        record = _parse(raw)
        now = self.learner.clock()
        if record is None or record["e"] <= now:
            if explicit:
                raise UnknownAnswerError(f"no answer with id {answer_id!r} awaits feedback (unknown, or older than "
                                         f"routing.learning.feedback_window_s = {self.settings.feedback_window_s:g} s)")
            return
        if record["c"] != caller:
            if explicit:
                raise FeedbackRefusedError(f"answer {answer_id!r} was given to another caller: feedback refused")
            return
        if not explicit and record.get("src") == "feedback":
            return  # explicit feedback outranks a re-ask
        updated = {**record, "s": new.score, "w": new.weight, "src": new.source}
        if comment is not None:
            updated["comment"] = comment
        old = _parse(await self.store.note_set(key, json.dumps(updated), max(1.0, record["e"] - now), swap=True))
        decision = _decision(record)
        if decision is None:
            return
        previous = old if old is not None else record
        await self.learner.correct(decision, (previous["s"], previous["w"]), (new.score, new.weight), previous["at"])


def _note(caller: str, decision: Decision | None, at: float, counted: Counted, window_s: float) -> str:
    record: dict[str, Any] = {"c": caller, "at": at, "e": at + window_s, "s": counted.score, "w": counted.weight,
                              "src": counted.source}
    if decision is not None:
        record.update({"task": decision.kind.task, "cells": list(decision.kind.cells), "t": decision.tier,
                       "m": decision.model, "d": decision.score, "x": decision.explored, "b": decision.base,
                       "rc": [list(cell) for cell in decision.recent], "dr": decision.drifting,
                       "v": [round(v, 5) for v in decision.kind.vector]})
    return json.dumps(record, ensure_ascii=False)


def _parse(raw: str | None) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    return record if isinstance(record, dict) and "c" in record and "e" in record else None


def _decision(record: Mapping[str, Any]) -> Decision | None:
    if "t" not in record:
        return None
    kind = Kind(str(record["task"]), tuple(str(c) for c in record["cells"]), tuple(float(v) for v in record.get("v", ())))
    recent = tuple((float(r), float(d), float(o), float(s)) for r, d, o, s in record.get("rc", ()))
    return Decision(kind, str(record["t"]), str(record["m"]), float(record["d"]), bool(record.get("x")),
                    float(record.get("b", 0.0)), recent, bool(record.get("dr")))


__all__ = ["LIBRARY_CALLER", "Counted", "OutcomeBook", "check_score", "conversation_key", "implicit_outcome", "signals"]
