"""get_current_time and get_weather (against a real local HTTP server), plus MockLLM end to end."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import pytest
from fake_open_meteo import OpenMeteoHandler, serve_open_meteo  # tests/ is on sys.path under pytest

from router.clients.mock import MockLLM
from router.loop.chain import validate_messages
from router.loop.run import run_tools
from router.tools.builtin import (
    WEATHER_CODES,
    describe_weather_code,
    fetch_weather,
    get_current_time,
    get_weather,
    weather_tool,
)
from router.tools.registry import ToolRegistry


@pytest.fixture
def open_meteo() -> Iterator[str]:
    with serve_open_meteo() as url:
        yield url


@pytest.fixture
def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def silent_server() -> Iterator[str]:
    """Accepts TCP connections (backlog) but never answers: a hung service."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    sock.close()


def test_weather_structured_result(open_meteo: str) -> None:
    result = fetch_weather("北京", geocoding_url=f"{open_meteo}/v1/search", weather_url=f"{open_meteo}/v1/forecast")
    assert result == {
        "城市": "北京",
        "国家": "中国",
        "纬度": 39.9075,
        "经度": 116.39723,
        "天气": "雨：轻度",
        "天气代码": 61,
        "当前温度_C": 3.2,
        "湿度_%": 41,
        "风速_km/h": 9.7,
        "今日最高_C": 6.1,
        "今日最低_C": -2.4,
        "降水概率_%": 20,
        "日出": "07:14",
        "日落": "16:50",
        "数据来源": "Open-Meteo",
    }
    (search_path, search), (forecast_path, forecast) = OpenMeteoHandler.requests
    assert search_path == "/v1/search" and search["name"] == ["北京"]
    assert forecast_path == "/v1/forecast"
    assert forecast["latitude"] == ["39.9075"] and forecast["longitude"] == ["116.39723"]


def test_weather_urls_from_environment(open_meteo: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTER_GEOCODING_URL", f"{open_meteo}/v1/search")
    monkeypatch.setenv("ROUTER_WEATHER_URL", f"{open_meteo}/v1/forecast")
    result = get_weather.invoke({"city": "London"})
    assert result["城市"] == "London" and result["天气"] == "雨：轻度"


def test_weather_tool_factory_binds_urls(open_meteo: str) -> None:
    bound = weather_tool(geocoding_url=f"{open_meteo}/v1/search", weather_url=f"{open_meteo}/v1/forecast")
    assert bound.name == "get_weather"
    assert bound.schema == get_weather.schema
    assert bound.invoke({"city": "北京"})["城市"] == "北京"


def test_unknown_city(open_meteo: str) -> None:
    result = fetch_weather("Atlantis", geocoding_url=f"{open_meteo}/v1/search", weather_url=f"{open_meteo}/v1/forecast")
    assert result == {"error": "city not found: Atlantis"}


def test_http_error_and_non_json(open_meteo: str) -> None:
    broken = fetch_weather("北京", geocoding_url=f"{open_meteo}/broken/search", weather_url=f"{open_meteo}/v1/forecast")
    assert broken == {"error": "weather service answered HTTP 500", "city": "北京"}
    garbage = fetch_weather("北京", geocoding_url=f"{open_meteo}/v1/search", weather_url=f"{open_meteo}/garbage/forecast")
    assert garbage == {"error": "weather service sent a reply that is not JSON", "city": "北京"}


def test_closed_port_is_a_quick_error(closed_port: int) -> None:
    base = f"http://127.0.0.1:{closed_port}"
    result = fetch_weather("北京", geocoding_url=f"{base}/v1/search", weather_url=f"{base}/v1/forecast", timeout_s=2)
    assert result["error"].startswith("weather service unreachable")
    assert result["city"] == "北京"


def test_hung_service_returns_error_after_timeout(silent_server: str) -> None:
    started = time.perf_counter()
    result = fetch_weather("北京", geocoding_url=f"{silent_server}/v1/search", timeout_s=0.3)
    assert result["error"].startswith("weather service unreachable")
    assert time.perf_counter() - started < 10  # bounded by the timeout, never hangs


def test_empty_city() -> None:
    assert fetch_weather("  ") == {"error": "city is empty"}


def test_weather_codes() -> None:
    assert WEATHER_CODES[0] == "晴朗"
    assert WEATHER_CODES[3] == "阴天"
    assert WEATHER_CODES[45] == "雾"
    assert WEATHER_CODES[95] == "雷暴：轻度或中度"
    assert WEATHER_CODES[99] == "雷暴伴强烈冰雹"
    assert {51, 53, 55, 61, 63, 65, 71, 73, 75, 80, 81, 82, 96} <= set(WEATHER_CODES)
    assert describe_weather_code(1) == "主要晴朗"
    assert describe_weather_code(42) == "未知天气码 42"
    assert describe_weather_code(None) == "未知天气码 None"


def test_current_time_in_zones() -> None:
    shanghai = get_current_time()
    assert shanghai["timezone"] == "Asia/Shanghai"
    assert shanghai["utc_offset"] == "+08:00"
    assert shanghai["datetime"].endswith("+08:00")
    assert shanghai["weekday"].startswith("星期")
    assert get_current_time("UTC")["utc_offset"] == "+00:00"
    assert get_current_time("America/New_York")["utc_offset"] in {"-05:00", "-04:00"}


@pytest.mark.parametrize("zone", ["Mars/Olympus", "", "../../etc/passwd", "Asia/Shanghai\x00"])
def test_unknown_time_zone_is_an_error_result(zone: str) -> None:
    result = get_current_time(zone)
    assert set(result) == {"error"}
    assert "unknown time zone" in result["error"]


def test_mock_llm_with_default_registry_answers_weather(open_meteo: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTER_GEOCODING_URL", f"{open_meteo}/v1/search")
    monkeypatch.setenv("ROUTER_WEATHER_URL", f"{open_meteo}/v1/forecast")
    llm = MockLLM()
    result = run_tools(llm, [{"role": "user", "content": "今天北京天气怎么样"}], ToolRegistry.default())
    assert result.stopped_reason == "answer"
    assert result.grounded is True
    [record] = result.tool_records
    assert record.tool == "get_weather" and record.arguments == {"city": "北京"} and record.ok
    assert json.loads(record.result)["天气"] == "雨：轻度"
    assert result.answer.startswith("根据工具结果：")
    assert "雨：轻度" in result.answer
    assert all(not validate_messages(call.messages) for call in llm.calls)


def test_mock_llm_calculator_through_loop() -> None:
    llm = MockLLM()
    result = run_tools(llm, [{"role": "user", "content": "请计算 (3 + 4) * 2"}], ToolRegistry.default())
    [record] = result.tool_records
    assert record.tool == "calculator"
    assert json.loads(record.result)["result"] == 14
    assert result.grounded
