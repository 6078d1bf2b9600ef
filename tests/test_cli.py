"""CLI behaviour through main([...]) and one real subprocess."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from router.cli import main

REPO = Path(__file__).resolve().parents[1]

NO_EMBEDDED = textwrap.dedent(
    """\
    default: alpha
    fallbacks: [alpha, beta]
    providers:
      alpha:
        client: openai
        base_url: http://127.0.0.1:9/v1
        api_key_env: ROUTER_CLI_ALPHA_KEY
        max_retries: 0
        timeout_s: 2
        models: [{id: alpha-1, default: true}]
      beta:
        client: openai
        base_url: http://127.0.0.1:9/v1
        api_key_env: ROUTER_CLI_BETA_KEY
        max_retries: 0
        timeout_s: 2
        models: [{id: beta-1, default: true}]
      mock:
        client: mock
        models: [{id: mock-model, default: true}]
    """
)


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("ROUTER_PROVIDER", raising=False)
    monkeypatch.delenv("ROUTER_CLI_ALPHA_KEY", raising=False)
    monkeypatch.delenv("ROUTER_CLI_BETA_KEY", raising=False)
    path = tmp_path / "providers.yaml"
    path.write_text(NO_EMBEDDED, encoding="utf-8")
    return path


def test_mock_answer_shows_mode_route_and_tool_calls(config: Path) -> None:
    code, out, err = run(["--config", str(config), "--provider", "mock", "计算 365*24 等于多少"])
    assert code == 0, err
    assert "8760" in out
    assert "[mode] react" in err
    assert "[route] mock/mock-model" in err
    assert "-> calculator" in err and "<- calculator:" in err and '"result": 8760' in err


def test_json_prints_the_whole_answer(config: Path) -> None:
    code, out, err = run(["--config", str(config), "--provider", "mock", "--json", "计算 2+2 等于多少"])
    assert code == 0, err
    data = json.loads(out)
    assert data["mode"] == "react" and data["provider"] == "mock"
    assert data["tool_records"][0]["tool"] == "calculator"
    assert json.loads(data["tool_records"][0]["result"])["result"] == 4
    assert data["grounded"] is True
    assert err == ""


def test_react_without_tools_prints_warning(config: Path) -> None:
    code, out, err = run(["--config", str(config), "--provider", "mock", "--mode", "react", "hello"])
    assert code == 0 and "mock answer" in out
    assert "[warning] react answer produced without any tool call" in err


def test_provider_switch_on_command_line(config: Path) -> None:
    code, _out, err = run(["--config", str(config), "--provider", "mock", "--mode", "cot", "hi"])
    assert code == 0 and "[route] mock/mock-model: requested mock" in err


def test_no_key_anywhere_names_variable_and_suggests_mock(config: Path) -> None:
    code, out, err = run(["--config", str(config), "hello"])
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "ROUTER_CLI_ALPHA_KEY" in lines[0] and "--provider mock" in lines[0]


def test_provider_failure_exits_1_without_traceback(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTER_CLI_ALPHA_KEY", "sk-cli-SECRET-123")
    code, _out, err = run(["--config", str(config), "--mode", "cot", "hello"])
    assert code == 1
    assert len(err.strip().splitlines()) == 1 + err.count("[mode]") + err.count("[route]")
    assert "Traceback" not in err
    assert "sk-cli-SECRET-123" not in err


def test_verbose_shows_traceback(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTER_CLI_ALPHA_KEY", "sk-cli-SECRET-123")
    code, _out, err = run(["--config", str(config), "--verbose", "--mode", "cot", "hello"])
    assert code == 1 and "Traceback" in err
    assert "sk-cli-SECRET-123" not in err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--mode", "poetry", "q"], "invalid choice: 'poetry'"),
        (["--max-steps", "0", "q"], "must be at least 1"),
        (["--max-steps", "x", "q"], "expected a whole number"),
        (["--provider", "nobody", "q"], "unknown provider 'nobody'"),
        (["--bogus", "q"], "unrecognized arguments: --bogus"),
    ],
)
def test_usage_errors_are_one_line_exit_2(config: Path, argv: list[str], fragment: str) -> None:
    code, out, err = run(["--config", str(config), *argv])
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert fragment in err


def test_config_errors_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "providers.yaml"
    path.write_text(NO_EMBEDDED.replace("    base_url: http://127.0.0.1:9/v1\n    api_key_env: ROUTER_CLI_BETA_KEY", "    base_ulr: x\n    api_key_env: ROUTER_CLI_BETA_KEY"), encoding="utf-8")
    code, _out, err = run(["--config", str(path), "hello"])
    assert code == 2
    assert err.strip() == f"router: error: {path}:13: providers.beta.base_ulr: unknown key (did you mean base_url?)"


def test_missing_config_file(tmp_path: Path) -> None:
    code, _out, err = run(["--config", str(tmp_path / "absent.yaml"), "hello"])
    assert code == 2 and "absent.yaml: config file not found" in err


def test_repl_keeps_memory_and_exits_on_quit(config: Path) -> None:
    code, out, err = run(["--config", str(config), "--provider", "mock"], stdin="计算 2+2 等于多少\n\nhello\nquit\nnever asked\n")
    assert code == 0
    assert "4" in out
    assert out.count("\n") >= 2  # two answers
    assert "never asked" not in out + err


def test_repl_ends_on_eof(config: Path) -> None:
    code, _out, _err = run(["--config", str(config), "--provider", "mock"], stdin="")
    assert code == 0


def test_subprocess_weather_question_shows_the_call_and_answer(weather_server: str) -> None:
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    env.pop("ROUTER_PROVIDER", None)
    env.update(_weather_env(weather_server))
    result = subprocess.run(
        [sys.executable, "-m", "router", "--provider", "mock", "今天北京天气怎么样"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "-> get_weather" in result.stderr and "北京" in result.stderr
    assert "[mode] react" in result.stderr
    assert "根据工具结果" in result.stdout


@pytest.fixture
def weather_server() -> Iterator[str]:
    from fake_open_meteo import serve_open_meteo

    with serve_open_meteo() as url:
        yield url


def _weather_env(url: str) -> dict[str, str]:
    return {"ROUTER_GEOCODING_URL": f"{url}/v1/search", "ROUTER_WEATHER_URL": f"{url}/v1/forecast"}


def test_stream_prints_the_answer_as_it_is_generated(config: Path) -> None:
    code, out, err = run(["--config", str(config), "--provider", "mock", "--mode", "cot", "--stream", "hello"])
    assert code == 0, err
    assert "mock answer" in out
    assert out.count("mock answer") == 1, "streamed text is not printed a second time"


def test_verbose_prints_the_message_chain(config: Path) -> None:
    code, _out, err = run(["--config", str(config), "--provider", "mock", "--verbose", "计算 2+2 等于多少"])
    assert code == 0
    assert "tool_call_id" in err or "call_mock_" in err
    assert "[usage]" in err
