"""Keeping a small model honest about a figure the router's own tool call produced.

When the router ran the calculator for a small local model (``modes.pretools``),
the observation is in the model's hands, yet a 135M model may still write another
number. The calculator's figure is then appended to the answer with a note saying
where it came from; an answer that already states the figure is left alone. When
the tool result alone answers (a figure, the time in a place, no network for the
weather) ``direct_answer`` gives that answer and the model is not asked at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from router.types import ToolRecord

_ECHO = re.compile(r"^[ \t]*observation[ \t]*[:：][^\n]*(?:\n|$)", re.IGNORECASE | re.MULTILINE)
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?")


def calculator_figure(records: Sequence[ToolRecord]) -> tuple[str, str] | None:
    """(expression, value) when the only successful tool call is a calculator with a numeric result."""
    succeeded = [record for record in records if record.ok]
    if len(succeeded) != 1 or succeeded[0].tool != "calculator":
        return None
    try:
        data: Any = json.loads(succeeded[0].result)
    except ValueError:
        return None
    value = data.get("result") if isinstance(data, dict) else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    expression = str(data.get("expression") or (succeeded[0].arguments or {}).get("expression") or "").strip()
    return expression, _format(value)


def _format(value: float) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def _numbers(text: str) -> set[str]:
    found = set()
    for raw in _NUMBER.findall(text):
        plain = raw.replace(",", "")
        try:
            found.add(_format(float(plain)) if "." in plain else str(int(plain)))
        except ValueError:
            continue
    return found


def with_calculator_figure(answer: str, records: Sequence[ToolRecord]) -> str:
    """``answer`` unchanged when it states the calculator's figure; else the figure appended, attributed."""
    figure = calculator_figure(records)
    if figure is None:
        return answer
    expression, value = figure
    answer = _ECHO.sub("", answer).strip()  # the observation parroted back is not an answer
    if value in _numbers(answer):
        return answer
    stated = f"{expression} = {value}" if expression else value
    if not answer.strip():
        return f"{stated} (computed by the calculator tool)"
    return f"{answer.rstrip()}\n\n[note: the calculator tool computed {stated}; the model's reply above does not state that figure]"




def _chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _time_answer(data: dict[str, Any], zh: bool) -> str | None:
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(str(data["datetime"]))
    except (KeyError, ValueError):
        return None
    zone, offset = data.get("timezone", ""), data.get("utc_offset", "")
    if zh:
        return f"{zone} 现在是 {moment:%Y-%m-%d} {data.get('weekday', '')} {moment:%H:%M}（UTC{offset}）"
    return f"It is {moment:%H:%M} on {moment:%A, %d %B %Y} in {zone} (UTC{offset})."


def direct_answer(records: Sequence[ToolRecord], question: str) -> str | None:
    """The answer when the router's own tool call already is one: no model call needed.

    A figure from the calculator, the time in a place, or a weather lookup that
    could not reach the network (one line saying so beats a small model guessing
    or a loop retrying a dead service). Anything else: None, and the model answers.
    """
    if len(records) != 1:
        return None
    record, zh = records[0], _chinese(question)
    if record.tool == "calculator" and (figure := calculator_figure(records)):
        expression, value = figure
        return f"{expression} = {value}" if expression else value
    try:
        data: Any = json.loads(record.result)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return None
    if record.tool == "get_current_time" and record.ok and "error" not in data:
        return _time_answer(data, zh)
    error = str(data.get("error") or record.error or "")
    if record.tool == "get_weather" and "unreachable" in error:
        city = data.get("city") or (record.arguments or {}).get("city", "")
        if zh:
            return f"无网络（no network）：天气服务连不上（{error}），现在查不到{city}的天气。"
        return f"No network: the weather service could not be reached ({error}), so there is no weather for {city} now."
    return None


__all__ = ["calculator_figure", "direct_answer", "with_calculator_figure"]
