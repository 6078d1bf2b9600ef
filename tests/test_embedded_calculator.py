"""The README's first command: no key, only the `local` extra, `python -m router "What is 365*24?"` says 8760.

End to end in a subprocess with an empty environment (PATH, HOME and the path of
this tree only), from an empty directory so no providers.yaml or .env is picked
up. Skipped when the embedded model is not installed; ROUTER_REQUIRE_LOCAL_MODEL=1
turns the skip into a failure, as in test_local_model.py. The unit tests for the
figure guard itself need no model.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from router.clients.local_model import ENV_VAR, INSTALL_HINT, embedded_model_path, llama_cpp_installed
from router.loop.planned import calculator_figure, with_calculator_figure
from router.types import Answer, ToolRecord

REPO = Path(__file__).resolve().parents[1]


def _require_model() -> None:
    path = embedded_model_path()
    reason = None
    if not llama_cpp_installed():
        reason = f"llama-cpp-python not installed ({INSTALL_HINT})"
    elif path is None or not os.path.isfile(path):
        reason = f"no local model: {INSTALL_HINT}, or set {ENV_VAR}"
    if reason is not None:
        if os.environ.get("ROUTER_REQUIRE_LOCAL_MODEL") == "1":
            pytest.fail(f"ROUTER_REQUIRE_LOCAL_MODEL=1 but {reason}")
        pytest.skip(reason)


def test_no_key_365_times_24_is_8760_through_the_embedded_model_with_a_calculator_record(tmp_path: Path) -> None:
    _require_model()
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-m", "router", "--json", "What is 365*24?"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["provider"] == "embedded" and answer["mode"] == "react"
    calculator = [r for r in answer["tool_records"] if r["tool"] == "calculator"]
    assert calculator and calculator[0]["error"] is None
    assert json.loads(calculator[0]["result"])["result"] == 8760
    assert "8760" in answer["text"].replace(",", "")
    assert "[router]" not in answer["text"] and "Do not call tools" not in answer["text"]
    assert answer["stopped_reason"] == "answer"


def test_no_key_weather_with_no_network_says_so_in_one_line(tmp_path: Path) -> None:
    """The embedded default, the weather service unreachable (a closed port on 127.0.0.1, never the internet)."""
    _require_model()
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "PYTHONPATH": str(REPO),
           "ROUTER_GEOCODING_URL": "http://127.0.0.1:9/v1/search", "ROUTER_WEATHER_URL": "http://127.0.0.1:9/v1/forecast"}
    result = subprocess.run([sys.executable, "-m", "router", "今天北京天气怎么样"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1 and "no network" in lines[0] and "北京" in lines[0]
    assert "[route] embedded/" in result.stderr and "-> get_weather" in result.stderr
    answered = subprocess.run([sys.executable, "-m", "router", "--json", "今天北京天气怎么样"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    answer = json.loads(answered.stdout)
    assert answer["steps"] == 0, "no model call: the failed lookup is the answer"
    assert [r["tool"] for r in answer["tool_records"]] == ["get_weather"] and answer["tool_records"][0]["error"]


def _record(tool: str, result: str, error: str | None = None) -> ToolRecord:
    return ToolRecord(tool=tool, arguments={"expression": "365*24"}, result=result, error=error)


CALC = _record("calculator", '{"expression": "365*24", "result": 8760}')


def test_an_answer_that_states_the_figure_is_left_alone() -> None:
    assert with_calculator_figure("365 times 24 is 8,760.", [CALC]) == "365 times 24 is 8,760."


def test_a_wrong_figure_gets_the_calculators_figure_appended_and_attributed() -> None:
    text = with_calculator_figure("365*24 = 7836.", [CALC])
    assert text.startswith("365*24 = 7836.")
    assert "the calculator tool computed 365*24 = 8760" in text


def test_an_empty_or_parroted_reply_becomes_the_attributed_figure() -> None:
    assert with_calculator_figure("", [CALC]) == "365*24 = 8760 (computed by the calculator tool)"
    echoed = 'Observation: {"expression": "365*24", "result": 8760}'
    assert with_calculator_figure(echoed, [CALC]) == "365*24 = 8760 (computed by the calculator tool)"


def test_no_guard_without_exactly_one_successful_numeric_calculator_record() -> None:
    failed = _record("calculator", "", "division by zero")
    weather = _record("get_weather", '{"temperature": 21}')
    assert calculator_figure([failed]) is None and calculator_figure([CALC, weather]) is None
    assert with_calculator_figure("no idea", [weather]) == "no idea"
    assert calculator_figure([_record("calculator", '{"expression": "1/4", "result": 0.25}')]) == ("1/4", "0.25")
    assert calculator_figure([_record("calculator", '{"expression": "3.0*2", "result": 6.0}')]) == ("3.0*2", "6")


def _planned_run(reply: str, planned: tuple[str, dict[str, str]] = ("calculator", {"expression": "365*24"})) -> tuple[Answer, int]:
    """A small model on the text protocol after the router's own call; (answer, model calls made)."""
    from router.aio import run_sync
    from router.clients.mock import ScriptedLLM, text_response
    from router.loop.run import arun_tools
    from router.tools.registry import ToolRegistry, tool

    @tool
    def lookup(term: str) -> str:
        """Look a term up in the team glossary."""
        return f"{term}: the team's word for a deploy freeze"

    llm = ScriptedLLM([text_response(reply)])
    messages = [{"role": "system", "content": "sys"}, {"role": "user", "content": "What is 365*24?"}]
    registry = ToolRegistry([*ToolRegistry.default(), lookup])
    answer = run_sync(arun_tools(llm, messages, registry, protocol="text", planned_calls=[planned]))
    assert all(call.tools is None for call in llm.calls)
    return answer, len(llm.calls)


def test_a_calculator_figure_is_the_answer_without_any_model_call() -> None:
    answer, calls = _planned_run("Final Answer: 365*24 = 7836.")
    assert calls == 0, "the tool result is the answer: the small model is not asked"
    assert answer.text == "365*24 = 8760"
    assert [r.tool for r in answer.tool_records] == ["calculator"] and answer.grounded
    assert answer.stopped_reason == "answer" and answer.steps == 0


def test_a_result_that_needs_wording_gets_one_answer_turn_without_a_tool_loop() -> None:
    answer, calls = _planned_run("Final Answer: a freeze is when nobody deploys.", ("lookup", {"term": "freeze"}))
    assert calls == 1 and answer.text == "a freeze is when nobody deploys."


def test_a_small_model_parroting_our_instruction_has_it_removed() -> None:
    reply = "The tool result above answers the question. Do not call tools.\n\nThe tool answer is a freeze."
    answer, _ = _planned_run(reply, ("lookup", {"term": "freeze"}))
    assert answer.text == "The tool answer is a freeze."


def test_direct_answers_for_the_time_and_for_no_network() -> None:
    from router.loop.planned import direct_answer

    now = _record("get_current_time", json.dumps({"timezone": "Asia/Tokyo", "datetime": "2026-12-02T06:20:37+09:00",
                                                  "weekday": "星期三", "utc_offset": "+09:00"}))  # fmt: skip
    assert direct_answer([now], "现在东京几点？") == "Asia/Tokyo 现在是 2026-12-02 星期三 06:20（UTC+09:00）"
    assert direct_answer([now], "What time is it in Tokyo?") == "It is 06:20 on Wednesday, 02 December 2026 in Asia/Tokyo (UTC+09:00)."
    offline = _record("get_weather", json.dumps({"error": "weather service unreachable (Name or service not known)", "city": "北京"}))
    line = direct_answer([offline], "今天北京天气怎么样")
    assert line is not None and "\n" not in line and "no network" in line and "北京" in line
    assert direct_answer([_record("get_weather", json.dumps({"error": "city not found: Atlantis"}))], "weather in Atlantis") is None
    assert direct_answer([now, offline], "both") is None
