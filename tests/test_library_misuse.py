"""Misusing the shipped fakes gives a UsageError with a hint, not an AttributeError later."""

from __future__ import annotations

import pytest

from router.clients.mock import ScriptedLLM, text_response
from router.errors import UsageError


def test_strings_in_a_script_point_to_text_response() -> None:
    with pytest.raises(UsageError, match=r"text_response\('text'\)"):
        ScriptedLLM(["text"])  # type: ignore[list-item]


def test_a_single_string_instead_of_a_list_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="list of replies"):
        ScriptedLLM("text")  # type: ignore[arg-type]


def test_a_single_response_instead_of_a_list_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="list of replies"):
        ScriptedLLM(text_response("hi"))  # type: ignore[arg-type]


def test_other_objects_in_a_script_name_their_position() -> None:
    with pytest.raises(UsageError, match="item 1 is a dict"):
        ScriptedLLM([text_response("a"), {"content": "b"}])  # type: ignore[list-item]


def test_a_valid_script_still_works() -> None:
    llm = ScriptedLLM([text_response("a"), RuntimeError("boom")])
    assert llm.chat([{"role": "user", "content": "q"}]).message.content == "a"
    with pytest.raises(RuntimeError):
        llm.chat([{"role": "user", "content": "q"}])
