"""Keeping a small model honest about a figure the router's own tool call produced.

When the router ran the calculator for a small local model (``modes.pretools``),
the observation is in the model's hands, yet a 135M model may still write another
number. The calculator's figure is then appended to the answer with a note saying
where it came from; an answer that already states the figure is left alone.
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


__all__ = ["calculator_figure", "with_calculator_figure"]
