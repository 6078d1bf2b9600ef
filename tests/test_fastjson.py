"""router.fastjson writes and reads exactly what the standard library does (orjson or not)."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

from router import fastjson


def _stdlib(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


@pytest.mark.parametrize("value", [
    {"model": "auto", "messages": [{"role": "user", "content": "héllo 中文 \u2028 \"quoted\" \\ \n"}]},
    {"floats": [0.1 + 0.2, 123456789.125, 2.5], "ints": [0, -1, 2**63 - 1], "none": None, "t": True},
    {"tuple": (1, (2, 3)), "empty": {}, "list": []},
    {"huge": 2**70},
    {1: "non-string key"},
])
def test_dumps_matches_json(value: object) -> None:
    assert fastjson.dumps(value) == _stdlib(value)


def test_floats_keep_their_value() -> None:
    value = [1.5e-05, 1e20, -0.0, 1 / 3, 5e-324, 1.7976931348623157e308]
    assert json.loads(fastjson.dumps(value)) == value


def test_dumps_refuses_what_json_refuses() -> None:
    @dataclasses.dataclass
    class Point:
        x: int

    with pytest.raises(TypeError):
        fastjson.dumps({"p": Point(1)})
    with pytest.raises(TypeError):
        fastjson.dumps({"s": {1, 2}})


@pytest.mark.parametrize("raw", [
    b'{"a":[1,2.5,"x\\u00e9",null,true,false],"b":{"c":"\xe4\xb8\xad"}}',
    b'{"a":1,"a":2}',
    b'{"big":123456789012345678901234567890,"neg":-98765432109876543210}',
    '{"big":123456789012345678901234567890}',
    '{"text":"str input"}',
])
def test_loads_matches_json(raw: bytes | str) -> None:
    assert fastjson.loads(raw) == json.loads(raw)


def test_loads_accepts_the_literals_json_accepts() -> None:
    assert math.isnan(fastjson.loads(b'{"x":NaN}')["x"])


def test_loads_errors_are_jsons() -> None:
    with pytest.raises(json.JSONDecodeError) as ours:
        fastjson.loads(b'{"a": }')
    with pytest.raises(json.JSONDecodeError) as theirs:
        json.loads(b'{"a": }')
    assert str(ours.value) == str(theirs.value)
