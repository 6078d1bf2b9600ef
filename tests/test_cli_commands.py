"""The CLI's own commands: --version, models, check (and --ping against a real server on 127.0.0.1),
completion, and subcommand words that must never reach a model."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fake_openai_server import Text, Unauthorized

from router import __version__
from router.cli import main
from router.cli.commands import SUBCOMMANDS

REPO = Path(__file__).resolve().parents[1]
SECRET = "sk-cmd-SECRET-4f2a9c"
CONFIG = textwrap.dedent(
    """\
    default: alpha
    fallbacks: [alpha, beta, mock]
    routing:
      tiers:
        fast: [alpha/alpha-1]
        strong: [beta/beta-big]
    providers:
      alpha:
        client: openai
        base_url: {alpha_url}
        api_key_env: ROUTER_CMD_ALPHA_KEY
        aliases: [alpha, a1]
        max_retries: 0
        timeout_s: 5
        models:
          - {{id: alpha-1, default: true, context_window: 8000, price_in: 0.5, price_out: 1.5}}
      beta:
        client: openai
        base_url: {beta_url}
        api_key_env: ROUTER_CMD_BETA_KEY
        max_retries: 0
        timeout_s: 5
        models:
          - {{id: beta-1, default: true}}
          - {{id: beta-big, context_window: 128000}}
      mock:
        client: mock
        models: [{{id: mock-model, default: true}}]
    """
)


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("ROUTER_PROVIDER", "ROUTER_CONFIG", "ROUTER_CMD_ALPHA_KEY", "ROUTER_CMD_BETA_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env, no providers.yaml picked up from the repository
    path = tmp_path / "providers.yaml"
    path.write_text(CONFIG.format(alpha_url="http://127.0.0.1:9/v1", beta_url="http://127.0.0.1:9/v1"), encoding="utf-8")
    return path


def test_version() -> None:
    code, out, err = run(["--version"])
    assert code == 0 and err == ""
    assert out.startswith(f"router {__version__} ")


def test_help_names_every_subcommand() -> None:
    code, out, _ = run(["--help"])
    assert code == 0
    for name in ("serve", "models", "check", "completion", *SUBCOMMANDS):
        assert f"\n  {name} " in out, name


def test_models_table_shows_tiers_prices_and_key_status_never_the_key(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTER_CMD_ALPHA_KEY", SECRET)
    code, out, err = run(["models", "--config", str(config)])
    assert code == 0, err
    assert SECRET not in out + err
    alpha = next(line for line in out.splitlines() if "alpha-1" in line)
    assert "fast" in alpha and "8,000" in alpha and "0.5" in alpha and "1.5" in alpha
    assert "set (ROUTER_CMD_ALPHA_KEY)" in alpha
    beta = next(line for line in out.splitlines() if "beta-1" in line)
    assert "missing (ROUTER_CMD_BETA_KEY)" in beta
    assert "strong" in next(line for line in out.splitlines() if "beta-big" in line)
    assert "not needed" in next(line for line in out.splitlines() if "mock-model" in line)


def test_models_json(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTER_CMD_BETA_KEY", SECRET)
    code, out, _ = run(["models", "--json", "--config", str(config)])
    assert code == 0 and SECRET not in out
    data = json.loads(out)
    assert data["default"] == "alpha" and data["config"] == str(config)
    by_model = {row["model"]: row for row in data["models"]}
    assert set(by_model) == {"alpha-1", "beta-1", "beta-big", "mock-model"}
    assert by_model["alpha-1"]["aliases"] == ["alpha", "a1"] and by_model["alpha-1"]["tiers"] == ["fast"]
    assert by_model["alpha-1"]["key"] == "missing" and by_model["alpha-1"]["usable"] is False
    assert by_model["beta-big"]["key"] == "set" and by_model["beta-big"]["context_window"] == 128000
    assert by_model["mock-model"]["key"] == "not needed" and by_model["mock-model"]["usable"] is True


def test_models_with_a_broken_config_is_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("default: alpha\nprovders: {}\n", encoding="utf-8")
    code, out, err = run(["models", "--config", str(bad)])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"{bad}:" in err


def test_check_reports_files_and_keys(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTER_CMD_BETA_KEY", SECRET)
    code, out, err = run(["check", "--config", str(config)])
    assert code == 0, out + err
    assert SECRET not in out + err
    assert f"config: {config} (argument): valid" in out
    assert ".env:   none loaded" in out
    assert "ROUTER_CMD_ALPHA_KEY missing" in out and "ROUTER_CMD_BETA_KEY set" in out
    assert "default provider alpha cannot answer now (no key): beta answers first" in out


def test_check_names_the_env_file_used(config: Path, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"ROUTER_CMD_ALPHA_KEY={SECRET}\n", encoding="utf-8")
    try:
        code, out, _ = run(["check", "--json", "--config", str(config)])
    finally:
        os.environ.pop("ROUTER_CMD_ALPHA_KEY", None)  # .env values land in os.environ
    data = json.loads(out)
    assert code == 0 and SECRET not in out
    assert data["env_file"] == str(tmp_path / ".env")
    assert data["providers"]["alpha"]["key"] == "set" and data["first_to_answer"] == "alpha"


def test_check_exits_1_when_nobody_can_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ROUTER_PROVIDER", "ROUTER_CMD_ALPHA_KEY", "ROUTER_CMD_BETA_KEY"):
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "keyed.yaml"
    path.write_text(CONFIG.format(alpha_url="http://127.0.0.1:9/v1", beta_url="http://127.0.0.1:9/v1")
                    .replace("fallbacks: [alpha, beta, mock]", "fallbacks: [alpha, beta]"), encoding="utf-8")  # fmt: skip
    code, out, _ = run(["check", "--config", str(path)])
    assert code == 1
    assert "problem: nobody in default + fallbacks (alpha, beta) can answer" in out
    assert "ROUTER_CMD_ALPHA_KEY" in out and "ROUTER_CMD_BETA_KEY" in out


def test_check_with_a_broken_config_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("default: nobody\nproviders:\n  mock: {client: mock, models: [{id: m}]}\n", encoding="utf-8")
    code, _, err = run(["check", "--config", str(bad)])
    assert code == 2 and f"{bad}:" in err and "nobody" in err


def test_check_ping_reaches_each_provider_with_a_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     make_fake_server: object) -> None:  # fmt: skip
    alpha, beta = make_fake_server(), make_fake_server()  # type: ignore[operator]
    alpha.enqueue(Text("p"))
    beta.enqueue(Unauthorized(echo_key=True))  # a server that even echoes the key back
    for name in ("ROUTER_PROVIDER", "ROUTER_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "providers.yaml"
    path.write_text(CONFIG.format(alpha_url=alpha.base_url, beta_url=beta.base_url), encoding="utf-8")
    monkeypatch.setenv("ROUTER_CMD_ALPHA_KEY", SECRET)
    monkeypatch.setenv("ROUTER_CMD_BETA_KEY", SECRET + "-beta")
    code, out, err = run(["check", "--ping", "--config", str(path)])
    assert code == 1, "a failed ping is a problem"
    assert SECRET not in out + err
    assert len(alpha.requests) == 1 and len(beta.requests) == 1
    assert alpha.last_body["max_tokens"] == 1 and alpha.last_body["model"] == "alpha-1"
    assert "alpha/alpha-1: ok" in out
    assert "beta/beta-1: FAILED" in out and "problem: ping beta/beta-1 failed" in out

    alpha.enqueue(Text("p"))
    monkeypatch.delenv("ROUTER_CMD_BETA_KEY")
    code, out, _ = run(["check", "--ping", "--json", "--config", str(path)])
    data = json.loads(out)
    assert code == 0 and data["problems"] == []
    assert [(p["provider"], p["ok"]) for p in data["pings"]] == [("alpha", True)], "no key, no ping"


@pytest.mark.parametrize("word", sorted(SUBCOMMANDS))
def test_a_subcommand_word_is_never_sent_to_a_model(word: str, config: Path) -> None:
    # after options the word is a question: refused, not answered by the mock
    code, out, err = run(["--config", str(config), "--provider", "mock", word.upper()])
    assert code == 2 and out == ""
    assert "is a command, not a question" in err and "[route]" not in err


def test_repl_does_not_send_a_command_word(config: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--config", str(config), "--provider", "mock"], stdin=io.StringIO("models\nhello\n"), stdout=out, stderr=err)
    assert code == 0
    assert "'models' is a router command" in err.getvalue()
    assert out.getvalue().count("mock") >= 1 and "models" not in out.getvalue()


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_script_completes_commands_and_options(shell: str, tmp_path: Path) -> None:
    code, script, _ = run(["completion", shell])
    assert code == 0
    for word in (*SUBCOMMANDS, "--ping", "--json", "--provider"):
        assert word in script
    if shell == "zsh":
        assert "bashcompinit" in script
        return
    path = tmp_path / "router.bash"
    path.write_text(script, encoding="utf-8")
    probe = (
        f"source {path}\n"
        "COMP_WORDS=(python -m router mo); COMP_CWORD=3; _router_complete; echo \"1:${COMPREPLY[*]}\"\n"
        "COMP_WORDS=(router check --p); COMP_CWORD=2; _router_complete; echo \"2:${COMPREPLY[*]}\"\n"
        "COMP_WORDS=(router --mode t); COMP_CWORD=2; _router_complete; echo \"3:${COMPREPLY[*]}\"\n"
        "COMP_WORDS=(python other.py); COMP_CWORD=1; _router_complete; echo \"4:${COMPREPLY[*]}\"\n"
    )
    result = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=30, check=True)
    assert result.stdout.splitlines() == ["1:models", "2:--ping", "3:tot", "4:"]


def test_completion_needs_a_known_shell() -> None:
    code, out, err = run(["completion", "fish"])
    assert code == 2 and out == "" and "bash|zsh" in err


def test_version_in_a_real_process() -> None:
    result = subprocess.run([sys.executable, "-m", "router", "--version"], cwd=REPO, capture_output=True, text=True,
                            timeout=60, check=False)  # fmt: skip
    assert result.returncode == 0 and result.stdout.startswith("router ")


class Writes(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def write(self, text: str) -> int:
        self.count += 1
        return super().write(text)


@pytest.mark.parametrize(("flags", "streamed"), [([], True), (["--no-stream"], False), (["--json"], False)])
def test_answers_stream_by_default(config: Path, flags: list[str], streamed: bool) -> None:
    out = Writes()
    code = main(["--config", str(config), "--provider", "mock", "--mode", "cot", *flags, "hello there, how are you today?"],
                stdin=io.StringIO(""), stdout=out, stderr=io.StringIO())  # fmt: skip
    assert code == 0
    assert (out.count > 2) is streamed, out.count
    if "--json" not in flags:
        assert out.getvalue().count("scripted mock answer") == 1, "streamed text is not printed twice"
