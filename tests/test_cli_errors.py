"""What the CLI says when things go wrong: JSON errors, no-key hints, the provider's reason, retry notices.

The provider faults come from a real HTTP server on 127.0.0.1 (``FakeOpenAIServer``);
one check runs ``python -m router`` as a subprocess, the way a user does.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fake_openai_server import FakeOpenAIServer, RateLimited, ServerError, Status, Text

from router.cli import main

REPO = Path(__file__).resolve().parents[1]

TWO_PROVIDERS = textwrap.dedent(
    """\
    default: alpha
    fallbacks: [alpha, beta]
    providers:
      alpha:
        client: {client}
        base_url: {url}
        api_key_env: ROUTER_ERR_ALPHA_KEY
        max_retries: 1
        timeout_s: 10
        models: [{{id: alpha-1, default: true}}]
      beta:
        client: openai
        base_url: {url}
        api_key_env: ROUTER_ERR_BETA_KEY
        max_retries: 0
        timeout_s: 10
        models: [{{id: beta-1, default: true}}]
    """
)

EMBEDDED_DEFAULT = textwrap.dedent(
    """\
    default: tiny
    fallbacks: [tiny, alpha, beta]
    providers:
      tiny:
        client: llama_cpp
        models: [{id: tiny-1, default: true}]
      alpha:
        client: openai
        base_url: http://127.0.0.1:9/v1
        api_key_env: ROUTER_ERR_ALPHA_KEY
        models: [{id: alpha-1, default: true}]
      beta:
        client: openai
        base_url: http://127.0.0.1:9/v1
        api_key_env: ROUTER_ERR_BETA_KEY
        models: [{id: beta-1, default: true}]
    """
)


class RecordingStream(io.StringIO):
    """stderr that remembers how many requests the server had seen when each line was written."""

    def __init__(self, server: FakeOpenAIServer) -> None:
        super().__init__()
        self.server = server
        self.lines: list[tuple[int, str]] = []

    def write(self, text: str) -> int:
        self.lines.append((len(self.server.requests), text))
        return super().write(text)


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("ROUTER_PROVIDER", "ROUTER_ERR_ALPHA_KEY", "ROUTER_ERR_BETA_KEY"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def write_config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "providers.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def run(argv: list[str], err: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), err or io.StringIO()
    code = main(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# --- 1. --json failures ------------------------------------------------------------------------


def test_json_provider_failure_prints_an_error_object_on_stdout(tmp_path: Path, keys: pytest.MonkeyPatch, fake_server: FakeOpenAIServer) -> None:
    keys.setenv("ROUTER_ERR_ALPHA_KEY", "sk-err-SECRET-alpha")
    fake_server.enqueue(Status(400, "maximum context length is 16385 tokens"))
    config = write_config(tmp_path, TWO_PROVIDERS.format(client="openai", url=fake_server.base_url))
    code, out, err = run(["--config", str(config), "--json", "--mode", "cot", "hello"])
    assert code == 1
    error = json.loads(out)["error"]
    assert error["type"] == "AllProvidersFailedError"
    assert "maximum context length is 16385 tokens" in error["message"]
    assert error["provider"] == "alpha" and error["model"] == "alpha-1"
    assert [(a["provider"], a["ok"], a["error_kind"]) for a in error["attempts"]] == [("alpha", False, "bad_request")]
    assert error["exit_code"] == 1
    assert err.strip().splitlines() == [f"router: error: {error['message']}"]
    assert "sk-err-SECRET-alpha" not in out + err


def test_json_usage_error_prints_an_error_object_and_exits_2(tmp_path: Path, keys: pytest.MonkeyPatch) -> None:
    config = write_config(tmp_path, EMBEDDED_DEFAULT)
    code, out, err = run(["--config", str(config), "--json", "--provider", "nobody", "hello"])
    assert code == 2
    error = json.loads(out)["error"]
    assert error["type"] == "UsageError" and "unknown provider 'nobody'" in error["message"]
    assert error["attempts"] == [] and error["exit_code"] == 2
    assert len(err.strip().splitlines()) == 1 and err.startswith("router: error: ")


def test_without_json_stdout_stays_empty_on_failure(tmp_path: Path, keys: pytest.MonkeyPatch) -> None:
    config = write_config(tmp_path, EMBEDDED_DEFAULT)
    code, out, _err = run(["--config", str(config), "--provider", "nobody", "hello"])
    assert code == 2 and out == ""


# --- 2. the no-key error -------------------------------------------------------------------------


def test_keyless_default_without_its_model_names_every_fallback_variable(tmp_path: Path, keys: pytest.MonkeyPatch) -> None:
    keys.setenv("ROUTER_LOCAL_MODEL", str(tmp_path / "missing.gguf"))
    config = write_config(tmp_path, EMBEDDED_DEFAULT)
    code, out, err = run(["--config", str(config), "hello"])
    assert code == 2 and out == ""
    line = err.strip()
    assert len(line.splitlines()) == 1
    assert "ROUTER_ERR_ALPHA_KEY" in line and "ROUTER_ERR_BETA_KEY" in line
    assert "local model not installed" in line
    assert "--provider" not in line, "another --provider is not what this user needs"
    assert "variable  " not in line and "variable or" not in line  # no empty variable name in the sentence


def test_explicit_embedded_without_its_model_does_not_suggest_provider(tmp_path: Path, keys: pytest.MonkeyPatch) -> None:
    keys.setenv("ROUTER_LOCAL_MODEL", str(tmp_path / "missing.gguf"))
    config = write_config(tmp_path, EMBEDDED_DEFAULT)
    code, _out, err = run(["--config", str(config), "--provider", "tiny", "hello"])
    assert code == 2
    assert "no local model found" in err and "--provider" not in err


def test_no_key_and_no_llama_provider_names_the_default_and_the_fallback_variables(tmp_path: Path, keys: pytest.MonkeyPatch, fake_server: FakeOpenAIServer) -> None:
    config = write_config(tmp_path, TWO_PROVIDERS.format(client="openai", url=fake_server.base_url))
    code, _out, err = run(["--config", str(config), "hello"])
    assert code == 2
    assert "set the environment variable ROUTER_ERR_ALPHA_KEY or, for a fallback, ROUTER_ERR_BETA_KEY" in err
    assert fake_server.requests == []


def test_missing_key_error_lists_fallback_variables_once() -> None:
    from router.errors import MissingAPIKeyError

    message = str(MissingAPIKeyError("deepseek", "DEEPSEEK_API_KEY", also=("DEEPSEEK_API_KEY", "A_KEY", "A_KEY", "")))
    assert message.count("A_KEY") == 1 and "DEEPSEEK_API_KEY or, for a fallback, A_KEY" in message
    keyless = str(MissingAPIKeyError("local", "", also=(), reason="local model not installed"))
    assert keyless == "provider 'local' cannot answer (local model not installed): no fallback provider is configured with a key"


# --- 3. the provider's own reason, end to end -----------------------------------------------------


def _subprocess_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROUTER_")}
    env.update(LITELLM_LOCAL_MODEL_COST_MAP="True", PYTHONPATH=str(REPO), **extra)
    return env


def test_python_m_router_prints_the_servers_reason_for_a_400(tmp_path: Path, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Status(400, "This model's maximum context length is 16385 tokens. However, you requested 20000 tokens."))
    config = write_config(tmp_path, TWO_PROVIDERS.format(client="openai", url=fake_server.base_url))
    result = subprocess.run(
        [sys.executable, "-m", "router", "--config", str(config), "--mode", "cot", "hello"],
        env=_subprocess_env(ROUTER_ERR_ALPHA_KEY="sk-err-alpha"), capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("router: error: ") and "HTTP 400: This model's maximum context length is 16385 tokens" in last
    assert "Unclosed" not in result.stderr, "the CLI closes its HTTP clients before exiting"


@pytest.mark.parametrize("client", ["openai", "litellm"])
def test_a_key_with_a_trailing_newline_is_named_not_sent(client: str, tmp_path: Path, keys: pytest.MonkeyPatch, fake_server: FakeOpenAIServer) -> None:
    keys.setenv("ROUTER_ERR_ALPHA_KEY", "sk-err-SECRET-newline\n")
    fake_server.enqueue(Text("never sent"))
    config = write_config(tmp_path, TWO_PROVIDERS.format(client=client, url=fake_server.base_url))
    code, _out, err = run(["--config", str(config), "--mode", "cot", "hello"])
    assert code == 1
    assert "illegal header value: the key in ROUTER_ERR_ALPHA_KEY ends with a newline" in err
    assert "sk-err-SECRET" not in err
    assert "retrying" not in err, "a bad key is not retried"


def test_litellm_reason_comes_without_the_exception_class_chain(tmp_path: Path, keys: pytest.MonkeyPatch, fake_server: FakeOpenAIServer) -> None:
    keys.setenv("ROUTER_ERR_ALPHA_KEY", "sk-err-alpha")
    fake_server.enqueue(Status(400, "This model's maximum context length is 16385 tokens."))
    config = write_config(tmp_path, TWO_PROVIDERS.format(client="litellm", url=fake_server.base_url))
    code, _out, err = run(["--config", str(config), "--mode", "cot", "hello"])
    assert code == 1
    assert "HTTP 400: This model's maximum context length is 16385 tokens." in err
    assert "litellm." not in err and "OpenAIException" not in err


# --- 4. retries and fallbacks are announced as they happen -----------------------------------------


def test_a_429_retry_is_announced_before_the_retry_is_sent(tmp_path: Path, keys: pytest.MonkeyPatch, fake_server: FakeOpenAIServer) -> None:
    keys.setenv("ROUTER_ERR_ALPHA_KEY", "sk-err-alpha")
    fake_server.enqueue(RateLimited(retry_after=1), Text("after the wait"))
    config = write_config(tmp_path, TWO_PROVIDERS.format(client="openai", url=fake_server.base_url))
    err = RecordingStream(fake_server)
    code, out, _ = run(["--config", str(config), "--mode", "cot", "hello"], err)
    assert code == 0 and out.strip() == "after the wait"
    notes = [(seen, text) for seen, text in err.lines if "retrying in" in text]
    assert notes == [(1, "[note] alpha: rate_limit: HTTP 429: rate limit reached; retrying in 1.0 s\n")]
    assert len(fake_server.requests) == 2


def test_a_fallback_is_announced_before_the_fallback_is_asked(tmp_path: Path, keys: pytest.MonkeyPatch, fake_server: FakeOpenAIServer) -> None:
    keys.setenv("ROUTER_ERR_ALPHA_KEY", "sk-err-alpha")
    keys.setenv("ROUTER_ERR_BETA_KEY", "sk-err-beta")
    fake_server.enqueue(ServerError(503, "overloaded"), ServerError(503, "overloaded"), Text("beta answers"))
    config = write_config(tmp_path, TWO_PROVIDERS.format(client="openai", url=fake_server.base_url))
    err = RecordingStream(fake_server)
    code, out, _ = run(["--config", str(config), "--mode", "cot", "hello"], err)
    assert code == 0 and out.strip() == "beta answers"
    fallback = [(seen, text) for seen, text in err.lines if "falling back" in text]
    assert fallback == [(2, "[note] alpha: unavailable: HTTP 503: overloaded; falling back to beta/beta-1\n")]
    assert fake_server.requests[-1].body is not None and fake_server.requests[-1].body["model"] == "beta-1"
