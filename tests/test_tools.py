"""@tool schema derivation, argument validation and ToolRegistry."""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

import pytest

from router.errors import ToolArgumentsError, ToolDefinitionError
from router.tools.registry import Tool, ToolRegistry, parse_docstring, result_error, result_to_text, tool


class Unit(enum.Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


@tool
def forecast(city: str, days: int = 1, unit: Unit = Unit.CELSIUS, detail: Literal["short", "long"] = "short") -> str:
    """Weather forecast for a city.

    Longer explanation that is part of the description.

    Args:
        city: the city name,
            in any language
        days (int): how many days
        unit: temperature unit
        detail: how verbose

    Returns:
        the forecast text
    """
    return f"{city}:{days}:{unit.value}:{detail}"


def _params(t: Tool) -> dict[str, Any]:
    return t.schema["function"]["parameters"]


def test_schema_shape_and_descriptions() -> None:
    schema = forecast.schema
    assert schema["type"] == "function"
    function = schema["function"]
    assert function["name"] == "forecast"
    assert function["description"] == "Weather forecast for a city.\n\nLonger explanation that is part of the description."
    params = function["parameters"]
    assert params["type"] == "object"
    assert params["required"] == ["city"]
    assert params["properties"]["city"] == {"type": "string", "description": "the city name, in any language"}
    assert params["properties"]["days"] == {"type": "integer", "description": "how many days", "default": 1}
    assert params["properties"]["unit"] == {
        "type": "string",
        "enum": ["celsius", "fahrenheit"],
        "description": "temperature unit",
        "default": "celsius",
    }
    assert params["properties"]["detail"]["enum"] == ["short", "long"]


def test_sphinx_and_numpy_docstrings() -> None:
    @tool
    def sphinx(a: str, b: float) -> str:
        """Sphinx style.

        :param a: first one
        :param float b: second one
            continued
        :returns: nothing
        """
        return a

    @tool
    def numpy(a: str) -> str:
        """Numpy style.

        Parameters
        ----------
        a : str
            the a value
        """
        return a

    props = _params(sphinx)["properties"]
    assert sphinx.description == "Sphinx style."
    assert props["a"]["description"] == "first one"
    assert props["b"] == {"type": "number", "description": "second one continued"}
    assert _params(numpy)["properties"]["a"]["description"] == "the a value"
    assert numpy.description == "Numpy style."


def test_parse_docstring_without_sections() -> None:
    assert parse_docstring("Just a line.") == ("Just a line.", {})
    assert parse_docstring(None) == ("", {})


def test_container_optional_and_annotated_types() -> None:
    @tool(name="mixed", description="Custom description")
    def mixed(
        tags: list[str],
        weights: dict[str, float],
        note: str | None = None,
        flag: bool = False,
        level: Annotated[int, "how deep"] = 2,
    ) -> None:
        """Ignored summary."""

    params = _params(mixed)
    assert mixed.description == "Custom description"
    assert params["properties"]["tags"] == {"type": "array", "items": {"type": "string"}}
    assert params["properties"]["weights"] == {"type": "object", "additionalProperties": {"type": "number"}}
    assert params["properties"]["note"] == {"type": "string", "default": None}
    assert params["properties"]["flag"] == {"type": "boolean", "default": False}
    assert params["properties"]["level"] == {"type": "integer", "description": "how deep", "default": 2}
    assert params["required"] == ["tags", "weights"]


def test_no_parameters_gives_empty_object() -> None:
    @tool
    def ping() -> str:
        """Ping."""
        return "pong"

    assert _params(ping) == {"type": "object", "properties": {}}
    assert ping.invoke({}) == "pong"


@pytest.mark.parametrize(
    "source",
    [
        "def f(*args: int) -> None: ...",
        "def f(**kwargs: int) -> None: ...",
        "def f(x) -> None: ...",
        "def f(x: set[int]) -> None: ...",
        "def f(x: Any) -> None: ...",
        "def f(x: object) -> None: ...",
        "def f(x: dict[int, str]) -> None: ...",
        "def f(x: Literal['a', 1]) -> None: ...",
        "def f(x: int, /) -> None: ...",
        "def f(x: 'Missing') -> None: ...",
    ],
)
def test_unsupported_signatures_fail_at_decoration(source: str) -> None:
    namespace: dict[str, Any] = {"Any": Any, "Literal": Literal}
    exec(source, namespace)
    with pytest.raises(ToolDefinitionError):
        tool(namespace["f"])


def test_bad_names_and_options_fail_at_decoration() -> None:
    with pytest.raises(ToolDefinitionError, match="tool name"):
        tool(lambda x: x)
    with pytest.raises(ToolDefinitionError, match="tool name"):
        tool(name="has space")(forecast.fn)
    with pytest.raises(ToolDefinitionError, match="timeout_s"):
        tool(timeout_s=0)(forecast.fn)
    with pytest.raises(ToolDefinitionError, match="callable"):
        Tool(42)  # type: ignore[arg-type]


def test_tool_is_still_callable_and_keeps_attributes() -> None:
    assert forecast("北京") == "北京:1:celsius:short"
    assert forecast.__name__ == "forecast"
    assert forecast.name == "forecast"
    assert forecast.background is False
    assert forecast.timeout_s is None
    assert forecast.parameters == ["city", "days", "unit", "detail"]
    assert forecast.required == ["city"]

    @tool(background=True, timeout_s=5)
    def slow(seconds: float) -> str:
        """Slow."""
        return "done"

    assert slow.background is True and slow.timeout_s == 5
    assert "background=True" in repr(slow)


def test_invoke_validates_and_converts() -> None:
    assert forecast.invoke({"city": "上海", "days": "3", "unit": "fahrenheit", "detail": "long"}) == "上海:3:fahrenheit:long"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({}, "city: Field required"),
        ({"city": 5}, "city: Input should be a valid string"),
        ({"city": "x", "days": "many"}, "days: Input should be a valid integer"),
        ({"city": "x", "unit": "kelvin"}, "unit: Input should be 'celsius' or 'fahrenheit'"),
        ({"city": "x", "detail": "medium"}, "detail: Input should be 'short' or 'long'"),
        ({"city": "x", "extra": 1}, "extra: Extra inputs are not permitted"),
    ],
)
def test_validation_errors_say_what_is_wrong(arguments: dict[str, Any], expected: str) -> None:
    with pytest.raises(ToolArgumentsError) as info:
        forecast.invoke(arguments)
    assert str(info.value).startswith("invalid arguments for forecast: ")
    assert expected in str(info.value)


def test_validate_rejects_non_mapping() -> None:
    with pytest.raises(ToolArgumentsError, match="must be a JSON object"):
        forecast.validate(["x"])  # type: ignore[arg-type]


def test_parameter_names_that_shadow_pydantic_attributes() -> None:
    @tool
    def odd(json: str, schema: int, model_config: bool = True) -> str:
        """Odd names."""
        return f"{json}|{schema}|{model_config}"

    assert odd.invoke({"json": "a", "schema": 2}) == "a|2|True"


def test_result_helpers() -> None:
    assert result_to_text("已是文本") == "已是文本"
    assert result_to_text({"城市": "北京", "n": 1}) == '{"城市": "北京", "n": 1}'
    assert result_to_text([Unit.CELSIUS]) == '["celsius"]'
    assert result_error({"error": "boom"}) == "boom"
    assert result_error({"error": ""}) is None
    assert result_error("error") is None


def test_registry_basics() -> None:
    def plain(x: int) -> int:
        """Plain function."""
        return x

    registry = ToolRegistry([forecast])
    registered = registry.register(plain)
    assert isinstance(registered, Tool)
    assert registry.names() == ["forecast", "plain"]
    assert "plain" in registry and "missing" not in registry
    assert len(registry) == 2
    assert registry.get("plain") is registered
    assert registry.get("missing") is None
    assert [s["function"]["name"] for s in registry.schemas()] == ["forecast", "plain"]
    registry.register(forecast)  # the same tool again is harmless
    with pytest.raises(ToolDefinitionError, match="already registered"):
        registry.register(tool(name="forecast")(plain))
    assert registry.subset(["plain", "nope"]).names() == ["plain"]
    assert [t.name for t in registry] == ["forecast", "plain"]


def test_schemas_are_copies() -> None:
    registry = ToolRegistry([forecast])
    registry.schemas()[0]["function"]["name"] = "hacked"
    forecast.schema["function"]["parameters"]["properties"].clear()
    assert registry.schemas()[0]["function"]["name"] == "forecast"
    assert "city" in _params(forecast)["properties"]


def test_default_registry_holds_the_builtins() -> None:
    registry = ToolRegistry.default()
    assert registry.names() == ["calculator", "get_current_time", "get_weather"]
    assert ToolRegistry.default() is not registry
