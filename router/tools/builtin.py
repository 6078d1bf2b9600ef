"""The built-in tools: a safe calculator, the current time, real weather.

Each returns a result or ``{"error": ...}`` and never raises at the model: a
model can read an error and correct itself, a traceback helps nobody. Nothing
here invents data; the weather comes from Open-Meteo or the call says it failed.
"""

from __future__ import annotations

import ast
import json
import math
import operator
import os
import time
import unicodedata
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from router.tools.registry import Tool, tool

# --- calculator ------------------------------------------------------------------------------

MAX_EXPRESSION_CHARS = 500
MAX_NESTING = 30
MAX_EXPONENT = 10_000
MAX_RESULT_DIGITS = 300  # |result| < 10**300: big enough for real arithmetic, small enough to stay fast
MAX_EVAL_SECONDS = 0.05

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY: dict[type, Callable[[Any], Any]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}


class _Refused(Exception):
    """An expression the calculator will not evaluate; the message goes to the model."""


_LIMIT = 10**MAX_RESULT_DIGITS


def _too_big(value: int | float) -> bool:
    if isinstance(value, float):
        return math.isinf(value) or math.isnan(value) or abs(value) >= float(_LIMIT)
    return abs(value) >= _LIMIT


def _check_power(base: int | float, exponent: int | float) -> None:
    if abs(exponent) > MAX_EXPONENT:
        raise _Refused(f"exponent too large (|exponent| must be <= {MAX_EXPONENT})")
    if base not in (0, 1, -1) and exponent > 0:
        if abs(exponent) * math.log10(abs(base)) > MAX_RESULT_DIGITS:
            raise _Refused(f"result too large (more than {MAX_RESULT_DIGITS} digits)")


class _Evaluator:
    def __init__(self, deadline: float) -> None:
        self.deadline = deadline

    def eval(self, node: ast.AST, depth: int = 0) -> int | float:
        # Depth counts real nesting (parentheses on the right, unary operators), not the length of
        # a left-associative chain: 1+2+...+100 is flat, so a left operand stays at the same depth.
        # The chain itself is bounded by MAX_EXPRESSION_CHARS, far below the recursion limit.
        if time.perf_counter() > self.deadline:
            raise _Refused(f"evaluation took longer than {MAX_EVAL_SECONDS * 1000:.0f} ms")
        if depth > 2 * MAX_NESTING:
            raise _Refused(f"expression nested too deeply (max {MAX_NESTING})")
        if isinstance(node, ast.Expression):
            return self.eval(node.body, depth)
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return node.value
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](self.eval(node.operand, depth + 1))
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left = self.eval(node.left, depth)
            right = self.eval(node.right, depth + 1)
            if isinstance(node.op, ast.Pow):
                _check_power(left, right)
            value = _BINARY[type(node.op)](left, right)
            if isinstance(value, complex):
                raise _Refused("the result is not a real number")
            if _too_big(value):
                raise _Refused(f"result too large (more than {MAX_RESULT_DIGITS} digits)")
            return value
        raise _Refused(f"unsupported syntax: {type(node).__name__}; only numbers, + - * / // % ** and parentheses")


def _max_paren_depth(text: str) -> int:
    depth = deepest = 0
    for char in text:
        if char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth -= 1
    return deepest


_SYMBOLS = str.maketrans({"×": "*", "÷": "/", "^": "**", "−": "-", "–": "-"})


def _normalise(expression: str) -> str:
    """Full-width digits, operators and parentheses (１２３＋（４）) as ASCII; ×, ÷, ^ and − as Python operators."""
    return unicodedata.normalize("NFKC", expression).translate(_SYMBOLS).strip()


def _tidy(value: int | float) -> int | float:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    return value


@tool
def calculator(expression: str) -> dict[str, Any]:
    """Evaluate an arithmetic expression exactly (numbers, + - * / // % ** and parentheses).

    Args:
        expression: the expression, e.g. "(3 + 4) * 2 ** 10 / 7"
    """
    expression = str(expression)
    if len(expression) > MAX_EXPRESSION_CHARS:
        return {"error": f"expression too long ({len(expression)} characters; max {MAX_EXPRESSION_CHARS})"}
    text = _normalise(expression)
    if not text:
        return {"error": "empty expression"}
    if len(text) > 2 * MAX_EXPRESSION_CHARS:  # NFKC can expand a character into several
        return {"error": f"expression too long after normalising ({len(text)} characters)"}
    if _max_paren_depth(text) > MAX_NESTING:
        return {"error": f"expression nested too deeply (max {MAX_NESTING} levels of parentheses)"}
    started = time.perf_counter()
    try:
        tree = ast.parse(text, mode="eval")
        value = _Evaluator(started + MAX_EVAL_SECONDS).eval(tree)
    except _Refused as exc:
        return {"error": str(exc), "expression": expression}
    except ZeroDivisionError:
        return {"error": "division by zero", "expression": expression}
    except OverflowError:
        return {"error": "numeric overflow", "expression": expression}
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError) as exc:
        return {"error": f"not a valid arithmetic expression ({type(exc).__name__})", "expression": expression}
    return {"expression": expression, "result": _tidy(value)}


# --- time ------------------------------------------------------------------------------------

_WEEKDAYS_ZH = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")


@tool
def get_current_time(timezone: str = "Asia/Shanghai") -> dict[str, Any]:
    """Current date and time in an IANA time zone.

    Args:
        timezone: IANA zone name such as "Asia/Shanghai", "Europe/London", "America/New_York" or "UTC"
    """
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        zone = ZoneInfo(str(timezone).strip())
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return {"error": f"unknown time zone {timezone!r}; use an IANA name such as 'Asia/Shanghai' or 'UTC'"}
    now = datetime.now(zone)
    return {
        "timezone": str(timezone).strip(),
        "datetime": now.isoformat(timespec="seconds"),
        "date": now.strftime("%Y-%m-%d"),
        "time": now.strftime("%H:%M:%S"),
        "weekday": _WEEKDAYS_ZH[now.weekday()],
        "utc_offset": now.strftime("%z")[:3] + ":" + now.strftime("%z")[3:],
    }


# --- weather ---------------------------------------------------------------------------------

GEOCODING_URL = "https://geocoding-api.open-meteo.com/v1/search"
WEATHER_URL = "https://api.open-meteo.com/v1/forecast"
WEATHER_TIMEOUT_S = 6.0

# WMO weather interpretation codes as used by Open-Meteo, in the tutorials' Chinese.
WEATHER_CODES: dict[int, str] = {
    0: "晴朗", 1: "主要晴朗", 2: "局部多云", 3: "阴天",
    45: "雾", 48: "霜雾",
    51: "毛毛雨：轻度", 53: "毛毛雨：中度", 55: "毛毛雨：密集",
    56: "冻毛毛雨：轻度", 57: "冻毛毛雨：密集",
    61: "雨：轻度", 63: "雨：中度", 65: "雨：强",
    66: "冻雨：轻度", 67: "冻雨：强",
    71: "雪：轻度", 73: "雪：中度", 75: "雪：强",
    77: "雪粒",
    80: "阵雨：轻度", 81: "阵雨：中度", 82: "阵雨：猛烈",
    85: "阵雪：轻度", 86: "阵雪：强",
    95: "雷暴：轻度或中度", 96: "雷暴伴轻微冰雹", 99: "雷暴伴强烈冰雹",
}  # fmt: skip


def describe_weather_code(code: Any) -> str:
    try:
        return WEATHER_CODES.get(int(code), f"未知天气码 {code}")
    except (TypeError, ValueError):
        return f"未知天气码 {code}"


class _WeatherFailure(Exception):
    pass


MAX_WEATHER_BODY = 2_000_000


def _connection(url: str, timeout_s: float) -> tuple[Any, str]:
    """An http.client connection for ``url`` (through $https_proxy/$http_proxy if set) and the request target."""
    import http.client
    from urllib.parse import urlsplit
    from urllib.request import getproxies, proxy_bypass

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _WeatherFailure(f"weather service URL is not http(s): {parts.scheme or '?'}://")
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    proxy = getproxies().get(parts.scheme)
    if proxy and not proxy_bypass(parts.hostname):
        via = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
        if parts.scheme == "https":
            connection: Any = http.client.HTTPSConnection(via.hostname or "", via.port, timeout=timeout_s)
            connection.set_tunnel(parts.hostname, parts.port)
            return connection, target
        return http.client.HTTPConnection(via.hostname or "", via.port, timeout=timeout_s), url
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    return kind(parts.hostname, parts.port, timeout=timeout_s), target


def _get_json(url: str, params: dict[str, Any], deadline: float) -> Any:
    """GET ``url`` and decode JSON, all of it (connect, headers, body) before ``deadline`` (monotonic).

    A per-read socket timeout does not bound a server that trickles one byte a
    second, so a watchdog shuts the socket down at the deadline, which ends any
    blocked read; the body is read in pieces with the deadline checked in between.
    """
    import http.client
    import socket
    import threading

    budget = deadline - time.monotonic()
    if budget <= 0:
        raise _WeatherFailure("weather service unreachable (no time left in the budget)")
    separator = "&" if "?" in url else "?"
    connection, target = _connection(f"{url}{separator}{urlencode(params)}", budget)
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        sock = connection.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    watchdog = threading.Timer(budget, expire)
    watchdog.daemon = True
    watchdog.start()
    late = _WeatherFailure(f"weather service unreachable (no complete answer within {budget:.3g} s)")
    try:
        connection.request("GET", target, headers={"User-Agent": "router-weather/0.1", "Accept": "application/json"})
        response = connection.getresponse()
        if response.status >= 400:
            raise _WeatherFailure(f"weather service answered HTTP {response.status}")
        body = bytearray()
        while len(body) <= MAX_WEATHER_BODY:
            if time.monotonic() >= deadline or expired.is_set():
                raise late
            chunk = response.read1(65536)
            if not chunk:
                break
            body += chunk
        if len(body) > MAX_WEATHER_BODY:
            raise _WeatherFailure(f"weather service reply is larger than {MAX_WEATHER_BODY:,} bytes")
        if expired.is_set():
            raise late
    except _WeatherFailure:
        raise
    except (OSError, http.client.HTTPException) as exc:  # refused, DNS, reset, shut down by the watchdog
        if expired.is_set() or isinstance(exc, TimeoutError):
            raise late from exc
        reason = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or type(exc).__name__
        raise _WeatherFailure(f"weather service unreachable ({reason})") from exc
    finally:
        watchdog.cancel()
        connection.close()
    try:
        return json.loads(bytes(body))
    except ValueError as exc:
        raise _WeatherFailure("weather service sent a reply that is not JSON") from exc


def _first(values: Any) -> Any:
    return values[0] if isinstance(values, list) and values else None


def fetch_weather(
    city: str,
    *,
    geocoding_url: str | None = None,
    weather_url: str | None = None,
    timeout_s: float | None = None,
) -> dict[str, Any]:
    """Today's weather for a city from Open-Meteo, or ``{"error": ...}``.

    URLs default to ``ROUTER_GEOCODING_URL`` / ``ROUTER_WEATHER_URL`` (read at call
    time), then to Open-Meteo; both HTTP requests together, bodies included, end
    within ``timeout_s`` (a hard deadline, also against a server trickling bytes).
    """
    city = str(city).strip()
    if not city:
        return {"error": "city is empty"}
    geocoding_url = geocoding_url or os.environ.get("ROUTER_GEOCODING_URL") or GEOCODING_URL
    weather_url = weather_url or os.environ.get("ROUTER_WEATHER_URL") or WEATHER_URL
    budget = timeout_s if timeout_s is not None else WEATHER_TIMEOUT_S
    deadline = time.monotonic() + budget  # one deadline for both requests, bodies included
    try:
        places = _get_json(geocoding_url, {"name": city, "count": 1, "language": "zh", "format": "json"}, deadline)
        place = _first(places.get("results") if isinstance(places, dict) else None)
        if not isinstance(place, dict) or "latitude" not in place or "longitude" not in place:
            return {"error": f"city not found: {city}"}
        forecast = _get_json(
            weather_url,
            {
                "latitude": place["latitude"],
                "longitude": place["longitude"],
                "current": "temperature_2m,relative_humidity_2m,wind_speed_10m,weather_code",
                "daily": "weather_code,temperature_2m_max,temperature_2m_min,sunrise,sunset,"
                "precipitation_probability_max",
                "timezone": "auto",
                "forecast_days": 1,
            },
            deadline,
        )
    except _WeatherFailure as exc:
        return {"error": str(exc), "city": city}
    if not isinstance(forecast, dict) or not isinstance(forecast.get("daily"), dict):
        return {"error": "weather service reply has no daily forecast", "city": city}
    daily = {key: _first(values) for key, values in forecast["daily"].items()}
    current = forecast.get("current") if isinstance(forecast.get("current"), dict) else {}
    code = current.get("weather_code", daily.get("weather_code"))
    return {
        "城市": place.get("name", city),
        "国家": place.get("country", ""),
        "纬度": place["latitude"],
        "经度": place["longitude"],
        "天气": describe_weather_code(code),
        "天气代码": code,
        "当前温度_C": current.get("temperature_2m"),
        "湿度_%": current.get("relative_humidity_2m"),
        "风速_km/h": current.get("wind_speed_10m"),
        "今日最高_C": daily.get("temperature_2m_max"),
        "今日最低_C": daily.get("temperature_2m_min"),
        "降水概率_%": daily.get("precipitation_probability_max"),
        "日出": str(daily.get("sunrise") or "")[11:16],
        "日落": str(daily.get("sunset") or "")[11:16],
        "数据来源": "Open-Meteo",
    }


def weather_tool(
    *, geocoding_url: str | None = None, weather_url: str | None = None, timeout_s: float | None = None
) -> Tool:
    """A ``get_weather`` tool bound to other endpoints (tests, proxies, mirrors)."""

    def get_weather(city: str) -> dict[str, Any]:
        return fetch_weather(city, geocoding_url=geocoding_url, weather_url=weather_url, timeout_s=timeout_s)

    get_weather.__doc__ = _WEATHER_DOC
    return Tool(get_weather, timeout_s=20.0)


_WEATHER_DOC = """Today's real weather for a city (Open-Meteo): conditions, temperature, humidity, wind, rain chance.

Args:
    city: city name in Chinese or English, e.g. "北京" or "London"
"""

get_weather = weather_tool()

BUILTIN_TOOLS: tuple[Tool, ...] = (calculator, get_current_time, get_weather)

__all__ = [
    "BUILTIN_TOOLS",
    "WEATHER_CODES",
    "calculator",
    "describe_weather_code",
    "fetch_weather",
    "get_current_time",
    "get_weather",
    "weather_tool",
]
