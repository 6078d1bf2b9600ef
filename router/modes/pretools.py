"""Tool calls the router can see in the question itself, run before a small model is asked.

A 135M model on the text protocol cannot be trusted to write ``Action: calculator``
for "What is 365*24?" (v0.1.0 answered 7836). When the question carries an
unambiguous tool need (an arithmetic expression, the time in a named place, the
weather in a named city) the router runs that tool first and hands the model the
result as an observation, so the answer rests on a real tool record. Only high
confidence patterns qualify: a miss costs nothing, a wrong call would mislead.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

_ARITH = re.compile(r"[\d(（][\d\s.+\-*/×÷^()（）]*[\d)）]")
_OPERATOR = re.compile(r"\d\s*[)）]?\s*(?:\*\*|[-+*/×÷^])\s*[(（]?\s*\d")
_TIME = re.compile(
    r"(?:what(?:'s| is)?\s+(?:the\s+)?time|current\s+time|time\s+is\s+it|几点|时间)\D{0,12}?\b(?:in|at)\s+"
    r"(?P<en>[A-Z][A-Za-z]+(?:[ _][A-Z][A-Za-z]+)?)"
    r"|(?P<zh>东京|北京|上海|伦敦|纽约|巴黎|柏林|悉尼|首尔|新加坡|洛杉矶|莫斯科|迪拜)(?:现在)?(?:几点|的时间|时间)",
    re.I,
)
_ZH_ZONES = {
    "东京": "Asia/Tokyo", "北京": "Asia/Shanghai", "上海": "Asia/Shanghai", "伦敦": "Europe/London",
    "纽约": "America/New_York", "巴黎": "Europe/Paris", "柏林": "Europe/Berlin", "悉尼": "Australia/Sydney",
    "首尔": "Asia/Seoul", "新加坡": "Asia/Singapore", "洛杉矶": "America/Los_Angeles", "莫斯科": "Europe/Moscow",
    "迪拜": "Asia/Dubai",
}  # fmt: skip
_WEATHER = re.compile(
    r"weather\s+(?:like\s+)?(?:in|at|for)\s+(?P<en>[A-Z][A-Za-z]+(?:\s[A-Z][A-Za-z]+)?)"
    r"|(?P<zh>[\u4e00-\u9fff]{2,4}?)(?:今天|明天|现在)?的?天气",
)
_ZH_NOISE = re.compile(r"^(?:今天|明天|现在|请问|查一下|帮我查|帮我)")


@dataclass(frozen=True)
class PlannedCall:
    tool: str
    arguments: dict[str, Any]
    reason: str


def recognise(question: str, tool_names: set[str] | frozenset[str]) -> PlannedCall | None:
    """The one tool call the question plainly asks for, if it is among ``tool_names``."""
    text = question.strip()
    if len(text) > 500:
        return None
    if "calculator" in tool_names:
        for match in _ARITH.finditer(text):
            span = match.group(0).strip()
            if _OPERATOR.search(span) and span.count("(") == span.count(")"):
                expression = span.translate(str.maketrans({"×": "*", "÷": "/", "^": "**", "（": "(", "）": ")"}))
                return PlannedCall("calculator", {"expression": " ".join(expression.split())}, f"arithmetic '{span}'")
    if "get_current_time" in tool_names and (match := _TIME.search(text)):
        place = match.group("en") or ""
        if place and not _zone_for(place):
            place = place.split()[0]  # the pattern is case-blind: "Tokyo right now" -> "Tokyo"
        zone = _ZH_ZONES.get(match.group("zh") or "") or _zone_for(place)
        if zone:
            return PlannedCall("get_current_time", {"timezone": zone}, f"time in '{place or match.group('zh')}'")
    if "get_weather" in tool_names and (match := _WEATHER.search(text)):
        city = match.group("en") or _ZH_NOISE.sub("", match.group("zh") or "")
        if city:
            return PlannedCall("get_weather", {"city": city}, f"weather in '{city}'")
    return None


@functools.lru_cache(maxsize=1)
def _zones() -> dict[str, str]:
    import zoneinfo

    table: dict[str, str] = {}
    for zone in zoneinfo.available_timezones():
        city = zone.rsplit("/", 1)[-1].replace("_", " ").lower()
        if "/" in zone and not zone.startswith(("Etc/", "SystemV/")):
            table.setdefault(city, zone)
    return table


def _zone_for(place: str) -> str | None:
    return _zones().get(place.replace("_", " ").lower())


__all__ = ["PlannedCall", "recognise"]
