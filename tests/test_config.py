"""providers.yaml validation: every broken config names file, line and the key or value."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from router.config import load_config, parse_config
from router.errors import ConfigError, MissingAPIKeyError, UsageError

REPO = Path(__file__).resolve().parents[1]

GOOD = textwrap.dedent(
    """\
    default: alpha
    fallbacks: [alpha, beta]
    providers:
      alpha:
        client: openai
        base_url: https://alpha.example/v1
        api_key_env: ALPHA_KEY
        aliases: [alpha, 阿尔法]
        models:
          - id: alpha-1
            default: true
      beta:
        client: mock
        aliases: [beta]
        models:
          - id: beta-1
    """
)


def write(tmp_path: Path, text: str, name: str = "providers.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_good_config_loads(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD))
    assert config.default == "alpha"
    assert config.provider("alpha").default_model.id == "alpha-1"
    assert config.provider("beta").default_model.id == "beta-1"  # first model when none is marked


# Each case: a mutation of GOOD, the line the error must name, and fragments the message must contain.
BROKEN = [
    pytest.param(GOOD.replace("    base_url:", "    base_ulr:"), 6, ["providers.alpha.base_ulr", "unknown key", "did you mean base_url"], id="typo-key"),
    pytest.param(GOOD.replace("default: alpha", "default: gamma"), 1, ["default", "'gamma'", "not defined"], id="undefined-default"),
    pytest.param(GOOD.replace("fallbacks: [alpha, beta]", "fallbacks:\n  - alpha\n  - delta"), 4, ["fallbacks[1]", "'delta'"], id="undefined-fallback"),
    pytest.param(GOOD.replace("aliases: [beta]", "aliases: [beta, 阿尔法]"), 14, ["providers.beta.aliases", "'阿尔法'", "'alpha'"], id="duplicate-alias"),
    pytest.param(GOOD.replace("https://alpha.example/v1", "alpha.example"), 6, ["providers.alpha.base_url", "malformed URL", "alpha.example"], id="malformed-url"),
    pytest.param(GOOD.replace("client: mock", "client: mokc"), 13, ["providers.beta.client", "'mokc'"], id="unknown-client"),
    pytest.param(GOOD.replace("      - id: beta-1", "      - id: beta-1\n        prize_in: 3"), 17, ["providers.beta.models[0].prize_in", "did you mean price_in"], id="typo-in-model"),
    pytest.param(GOOD.replace("default: alpha\n", "default: alpha\nloop:\n  max_steps: 0\n"), 3, ["loop.max_steps", "greater than or equal to 1"], id="bad-bound"),
    pytest.param(GOOD.replace("default: alpha\n", "default: alpha\nmodes:\n  selector: magic\n"), 3, ["modes.selector", "'magic'"], id="bad-selector"),
    pytest.param(GOOD.replace("    models:\n      - id: beta-1\n", ""), 12, ["providers.beta.models", "required key is missing"], id="missing-models"),
    pytest.param(GOOD.replace("    aliases: [beta]", "    aliases: [beta"), 15, ["YAML syntax error", "column"], id="yaml-syntax"),
    pytest.param(GOOD.replace("  beta:", "  alpha:"), 12, ["providers.alpha", "duplicate key"], id="duplicate-key"),
    pytest.param(GOOD.replace("    api_key_env: ALPHA_KEY", "    api_key_env: ALPHA-KEY"), 7, ["providers.alpha.api_key_env", "not an environment variable name"], id="bad-env-name"),
    pytest.param(GOOD.replace("        default: true", "        default: true\n      - id: alpha-2\n        default: true"), 12, ["providers.alpha.models", "more than one model marked default"], id="two-defaults"),
    pytest.param(GOOD.replace("    base_url: https://alpha.example/v1\n", ""), 4, ["providers.alpha.base_url", "required for client 'openai'"], id="openai-needs-url"),
]


@pytest.mark.parametrize(("text", "line", "fragments"), BROKEN)
def test_broken_config_names_file_line_and_key(tmp_path: Path, text: str, line: int, fragments: list[str]) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    assert info.value.line == line


def test_typo_error_matches_documented_format() -> None:
    text = (REPO / "providers.yaml").read_text(encoding="utf-8").replace(
        "    base_url: https://api.moonshot.cn/v1", "    base_ulr: https://api.moonshot.cn/v1"
    )
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "base_ulr" in row)
    with pytest.raises(ConfigError) as info:
        parse_config(text, "providers.yaml")
    assert str(info.value) == f"providers.yaml:{line}: providers.kimi.base_ulr: unknown key (did you mean base_url?)"


@pytest.mark.parametrize("content", ["", "   \n# only a comment\n"])
def test_empty_file(tmp_path: Path, content: str) -> None:
    path = tmp_path / "providers.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"providers\.yaml:1: the file is empty"):
        load_config(path)


def test_missing_file_names_path_and_origin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTER_CONFIG", str(tmp_path / "nope.yaml"))
    with pytest.raises(ConfigError, match=r"nope\.yaml: config file not found \(from ROUTER_CONFIG\)"):
        load_config()


def test_top_level_must_be_mapping(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r":1: top level must be a mapping, got list"):
        load_config(write(tmp_path, "- a\n- b\n"))


def test_lookup_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROUTER_CONFIG", raising=False)
    monkeypatch.delenv("ROUTER_PROVIDER", raising=False)
    monkeypatch.chdir(tmp_path)
    write(tmp_path, GOOD)
    assert load_config().source == "providers.yaml"
    other = write(tmp_path, GOOD.replace("default: alpha", "default: beta"), "other.yaml")
    monkeypatch.setenv("ROUTER_CONFIG", str(other))
    assert load_config().default == "beta"
    explicit = write(tmp_path, GOOD, "explicit.yaml")
    assert load_config(explicit).source == str(explicit)


def test_packaged_default_loads_without_local_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROUTER_CONFIG", raising=False)
    monkeypatch.delenv("ROUTER_PROVIDER", raising=False)
    monkeypatch.chdir(tmp_path)
    config = load_config()
    assert config.source.endswith(os.path.join("router", "providers.yaml"))
    assert {"deepseek", "openai", "kimi", "qwen", "mock", "local"} <= set(config.providers)


def test_packaged_copy_is_identical_to_repo_copy() -> None:
    assert (REPO / "router" / "providers.yaml").read_bytes() == (REPO / "providers.yaml").read_bytes()


def test_shipped_config_covers_the_providers() -> None:
    config = load_config(REPO / "providers.yaml")
    aliases = {alias for p in config.providers.values() for alias in p.aliases}
    assert {"月之暗面", "moonshot", "通义千问", "千问", "tongyi", "深度求索", "chatgpt", "gpt"} <= aliases
    assert config.provider("mock").api_key_env is None
    assert any(p.client == "litellm" and p.base_url is None for p in config.providers.values())
    for name in ("deepseek", "openai", "kimi", "qwen"):
        provider = config.provider(name)
        assert provider.client == "openai" and provider.api_key_env and provider.base_url
        assert provider.default_model.price_in is not None and provider.default_model.context_window


def test_switching_default_in_yaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROUTER_PROVIDER", raising=False)
    assert load_config(write(tmp_path, GOOD.replace("default: alpha", "default: beta"))).default == "beta"


def test_router_provider_env_overrides_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, GOOD)
    monkeypatch.setenv("ROUTER_PROVIDER", "beta")
    assert load_config(path).default == "beta"
    monkeypatch.setenv("ROUTER_PROVIDER", "nobody")
    with pytest.raises(ConfigError, match="ROUTER_PROVIDER='nobody' names no provider"):
        load_config(path)


def test_unset_key_is_not_a_load_error_but_a_call_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ALPHA_KEY", raising=False)
    config = load_config(write(tmp_path, GOOD))
    provider = config.provider("alpha")
    assert not provider.has_key()
    with pytest.raises(MissingAPIKeyError) as info:
        provider.require_api_key("alpha")
    assert "ALPHA_KEY" in str(info.value) and "--provider mock" in str(info.value)


def test_dotenv_fills_but_never_overrides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("ALPHA_KEY=from-dotenv\nBETA_THING=also-dotenv\n", encoding="utf-8")
    monkeypatch.delenv("ALPHA_KEY", raising=False)
    monkeypatch.setenv("BETA_THING", "from-env")
    config = load_config(write(tmp_path, GOOD))
    try:
        assert config.provider("alpha").api_key() == "from-dotenv"
        assert os.environ["BETA_THING"] == "from-env"
    finally:
        os.environ.pop("ALPHA_KEY", None)


def test_unknown_provider_lookup_is_usage_error(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD))
    with pytest.raises(UsageError, match="unknown provider 'zeta'"):
        config.provider("zeta")


def test_import_router_is_cheap() -> None:
    code = (
        "import router, sys\n"
        "heavy = [m for m in ('litellm', 'openai', 'pydantic', 'httpx', 'yaml', 'llama_cpp') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "print('ok')"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_public_names_resolve() -> None:
    import router

    for name in ("load_config", "RouterError", "ConfigError", "ToolCall", "AssistantMessage", "ChatResponse", "MockLLM", "ScriptedLLM", "FunctionLLM"):
        assert getattr(router, name) is not None
    with pytest.raises(AttributeError):
        router.does_not_exist  # noqa: B018
