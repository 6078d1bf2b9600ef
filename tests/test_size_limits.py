"""limits.max_question_chars refuses oversized questions; limits.max_reply_chars cuts runaway replies, saying so."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest

from router.cli import main
from router.clients.mock import ScriptedLLM, text_response
from router.config import SizeLimits, parse_config
from router.core import Router
from router.errors import ConfigError, UsageError

BASE = textwrap.dedent(
    """\
    default: mock
    {limits}
    providers:
      mock:
        client: mock
        models: [{{id: mock-model, default: true}}]
    """
)


def router_with(limits: str, *replies: str) -> tuple[Router, ScriptedLLM]:
    llm = ScriptedLLM([text_response(text) for text in replies])
    return Router(parse_config(BASE.format(limits=limits), "limits.yaml"), clients={"mock": llm}), llm


def test_defaults_are_generous_but_finite() -> None:
    limits = parse_config(BASE.format(limits=""), "limits.yaml").limits
    assert limits == SizeLimits() and limits.max_question_chars == 200_000 and limits.max_reply_chars == 400_000


def test_a_question_over_the_limit_is_a_usage_error_naming_the_limit_and_nothing_is_sent() -> None:
    router, llm = router_with("limits: {max_question_chars: 100}", "never")
    with pytest.raises(UsageError, match=r"101 characters, more than limits.max_question_chars \(100\) in limits.yaml"):
        router.ask("x" * 101, mode="cot")
    assert llm.calls == []


def test_a_question_at_the_limit_is_answered() -> None:
    router, _llm = router_with("limits: {max_question_chars: 100}", "fine")
    assert router.ask("x" * 100, mode="cot").text == "fine"


def test_a_reply_over_the_limit_is_truncated_with_a_warning() -> None:
    router, _llm = router_with("limits: {max_reply_chars: 1000}", "y" * 5000)
    answer = router.ask("hello", mode="cot")
    assert answer.text == "y" * 1000
    assert any("5,000 characters; only the first 1,000 are kept (limits.max_reply_chars)" in w for w in answer.warnings)


def test_a_reply_within_the_limit_has_no_warning() -> None:
    router, _llm = router_with("limits: {max_reply_chars: 1000}", "short")
    answer = router.ask("hello", mode="cot")
    assert answer.text == "short" and not any("max_reply_chars" in w for w in answer.warnings)


@pytest.mark.parametrize(
    "limits",
    [
        "limits: {max_question_chars: .inf}",
        "limits: {max_reply_chars: .nan}",
        "limits: {max_question_chars: 0}",
        "limits: {max_reply_chars: 1000000000000}",
        "limits: {max_question_chars: lots}",
        "limits: {max_answer_chars: 10}",
    ],
)
def test_limits_that_are_not_limits_are_config_errors_with_a_line(limits: str) -> None:
    with pytest.raises(ConfigError, match=r"^limits\.yaml:2: "):
        parse_config(BASE.format(limits=limits), "limits.yaml")


def test_the_cli_refuses_an_oversized_question_in_one_line(tmp_path: Path) -> None:
    config = tmp_path / "providers.yaml"
    config.write_text(BASE.format(limits="limits: {max_question_chars: 50}"), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["--config", str(config), "--mode", "cot", "q" * 60], stdout=out, stderr=err)
    assert code == 2 and out.getvalue() == ""
    assert err.getvalue().count("\n") == 1 and "limits.max_question_chars (50)" in err.getvalue()
