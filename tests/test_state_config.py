"""state / breaker / limits / budget settings: validated with file:line, secrets never echoed."""

from __future__ import annotations

import asyncio
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from redis_server import RedisServer

from router.config import load_config, parse_config
from router.errors import ConfigError
from router.state import make_store
from router.state.fallback import FallbackStore
from router.state.memory import MemoryStore

BASE = textwrap.dedent(
    """\
    default: alpha
    providers:
      alpha:
        client: mock
        models:
          - id: alpha-1
    """
)
PASSWORD = "hunter2-very-secret"


def config_with(extra: str, tmp_path: Path) -> Path:
    path = tmp_path / "providers.yaml"
    path.write_text(BASE + textwrap.dedent(extra), encoding="utf-8")
    return path


def test_full_state_settings_load(tmp_path: Path) -> None:
    config = load_config(config_with(
        """\
        state:
          redis_url_env: ROUTER_TEST_REDIS_URL
          key_prefix: "svc1:"
        breaker: {failures: 3, window_s: 20, cooldown_s: 5}
        budget_usd_per_day: 12.5
        """,
        tmp_path,
    ))
    assert config.state.redis_url_env == "ROUTER_TEST_REDIS_URL" and config.state.key_prefix == "svc1:"
    assert (config.breaker.failures, config.breaker.window_s, config.breaker.cooldown_s) == (3, 20.0, 5.0)
    assert config.budget_usd_per_day == 12.5
    limited = parse_config(BASE.replace("    client: mock\n", "    client: mock\n    limits: {tokens_per_minute: 90000}\n"))
    limits = limited.provider("alpha").limits
    assert limits is not None and limits.tokens_per_minute == 90000 and limits.requests_per_minute is None


BROKEN = [
    pytest.param("breaker:\n  window_s: .inf\n", 8, ["breaker.window_s", "finite"], id="inf-window"),
    pytest.param("breaker:\n  cooldown_s: 1e12\n", 8, ["breaker.cooldown_s", "less than or equal"], id="absurd-cooldown"),
    pytest.param("breaker:\n  failures: 0\n", 8, ["breaker.failures"], id="zero-failures"),
    pytest.param("breaker:\n  failurs: 3\n", 8, ["breaker.failurs", "did you mean failures"], id="typo"),
    pytest.param("budget_usd_per_day: .nan\n", 7, ["budget_usd_per_day", "finite"], id="nan-budget"),
    pytest.param("budget_usd_per_day: -1\n", 7, ["budget_usd_per_day", "greater than 0"], id="negative-budget"),
    pytest.param("state:\n  key_prefix: 'a b*'\n", 8, ["state.key_prefix"], id="bad-prefix"),
    pytest.param("state:\n  redis_ulr: x\n", 8, ["state.redis_ulr", "did you mean redis_url"], id="typo-url"),
    pytest.param("state:\n  timeout_s: .inf\n", 8, ["state.timeout_s", "finite"], id="inf-timeout"),
    pytest.param(
        "state:\n  redis_url: redis://h:6379\n  redis_url_env: X\n", 7, ["state", "not both"], id="both"
    ),
    pytest.param(
        f"state:\n  redis_url: http://:{PASSWORD}@h:6379\n", 8, ["state.redis_url", "redis://", "not shown"], id="scheme"
    ),
    pytest.param(
        f"state:\n  redis_url: redis://:{PASSWORD}@h:port\n", 8, ["state.redis_url", "malformed"], id="bad-port"
    ),
    pytest.param(
        f"state:\n  redis_url_env: redis://:{PASSWORD}@h\n", 8, ["state.redis_url_env", "not an environment variable"],
        id="url-as-env-name",
    ),
]


@pytest.mark.parametrize(("extra", "line", "fragments"), BROKEN)
def test_bad_state_settings_name_file_and_line(tmp_path: Path, extra: str, line: int, fragments: list[str]) -> None:
    path = config_with(extra, tmp_path)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert "\n" not in message
    assert PASSWORD not in message
    for fragment in fragments:
        assert fragment in message, message


def test_limits_refuse_infinite_values() -> None:
    text = BASE.replace("    client: mock\n", "    client: mock\n    limits: {requests_per_minute: .inf}\n")
    with pytest.raises(ConfigError, match=r"providers\.alpha\.limits\.requests_per_minute: .*finite"):
        parse_config(text, "p.yaml")


def test_make_store_defaults_to_memory() -> None:
    assert isinstance(make_store(parse_config(BASE)), MemoryStore)
    assert isinstance(make_store(None), MemoryStore)


def test_make_store_with_a_redis_url_from_the_environment(
    make_redis_server: Callable[..., RedisServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    server: RedisServer = make_redis_server(password=PASSWORD)
    config = parse_config(BASE + "state: {redis_url_env: ROUTER_TEST_REDIS_URL, key_prefix: 'cfg:'}\n")
    monkeypatch.delenv("ROUTER_TEST_REDIS_URL", raising=False)
    with pytest.raises(ConfigError, match="environment variable ROUTER_TEST_REDIS_URL is not set"):
        make_store(config)
    monkeypatch.setenv("ROUTER_TEST_REDIS_URL", f"http://:{PASSWORD}@127.0.0.1:1")
    with pytest.raises(ConfigError) as info:
        make_store(config)
    assert "ROUTER_TEST_REDIS_URL" in str(info.value) and PASSWORD not in str(info.value)

    monkeypatch.setenv("ROUTER_TEST_REDIS_URL", server.url)
    store = make_store(config)
    assert isinstance(store, FallbackStore)

    async def main() -> float:
        await store.add_spend("x", 2.5, 60)
        total = await store.primary.spend("x")  # really on Redis, under the configured prefix
        await store.aclose()
        return total

    assert asyncio.run(main()) == 2.5
