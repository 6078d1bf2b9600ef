"""providers.yaml as untrusted input: bombs, odd keys, fake limits and pasted secrets give one ConfigError line."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from router.config import MAX_CONFIG_BYTES, MAX_DEPTH, load_config, parse_config
from router.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]

GOOD = textwrap.dedent(
    """\
    default: alpha
    providers:
      alpha:
        client: openai
        base_url: https://alpha.example/v1
        api_key_env: ALPHA_KEY
        timeout_s: 30
        models:
          - id: alpha-1
            context_window: 8000
            price_in: 1.5
    loop:
      tool_timeout_s: 10
    retry:
      max_wait_s: 5
    """
)

BILLION_LAUGHS = textwrap.dedent(
    """\
    a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
    b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
    c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
    d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
    e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
    f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
    g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
    h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
    i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
    """
)


def one_line(exc: ConfigError) -> str:
    message = str(exc)
    assert "\n" not in message
    return message


def test_billion_laughs_is_refused_at_the_first_alias() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(BILLION_LAUGHS, "bomb.yaml")
    assert one_line(info.value).startswith("bomb.yaml:2: ")
    assert "aliases" in str(info.value)


def test_recursive_anchor_is_one_config_error() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config("default: &x [*x]\n", "rec.yaml")
    assert one_line(info.value).startswith("rec.yaml:1: ")


def test_complex_key_is_one_config_error() -> None:
    text = GOOD + "? [x, y]\n: 1\n"
    with pytest.raises(ConfigError) as info:
        parse_config(text, "complex.yaml")
    assert one_line(info.value).startswith(f"complex.yaml:{GOOD.count(chr(10)) + 1}: ")
    assert "keys must be plain names" in str(info.value)


def test_deep_nesting_is_refused() -> None:
    depth = MAX_DEPTH + 5
    text = "default: " + "[" * depth + "]" * depth + "\n"
    with pytest.raises(ConfigError) as info:
        parse_config(text, "deep.yaml")
    assert f"nested more than {MAX_DEPTH}" in one_line(info.value)


def test_very_deep_nesting_within_a_megabyte_is_refused_too() -> None:
    depth = MAX_CONFIG_BYTES // 2 - 10
    with pytest.raises(ConfigError) as info:
        parse_config("[" * depth + "]" * depth, "deeper.yaml")
    assert "nest" in one_line(info.value)  # ours, or libyaml's own flow-depth limit


def test_a_file_over_the_size_limit_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "providers.yaml"
    path.write_text(GOOD + "#" * MAX_CONFIG_BYTES, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert "larger than" in one_line(info.value)


def test_a_huge_integer_is_one_config_error() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(GOOD.replace("timeout_s: 30", "timeout_s: " + "9" * 6000), "int.yaml")
    one_line(info.value)


@pytest.mark.parametrize(
    ("old", "new", "line", "key"),
    [
        ("timeout_s: 30", "timeout_s: .inf", 7, "providers.alpha.timeout_s"),
        ("timeout_s: 30", "timeout_s: .nan", 7, "providers.alpha.timeout_s"),
        ("timeout_s: 30", "timeout_s: 1e12", 7, "providers.alpha.timeout_s"),
        ("tool_timeout_s: 10", "tool_timeout_s: .inf", 13, "loop.tool_timeout_s"),
        ("max_wait_s: 5", "max_wait_s: .inf", 15, "retry.max_wait_s"),
        ("max_wait_s: 5", "max_wait_s: 1e9", 15, "retry.max_wait_s"),
        ("max_wait_s: 5", "cooldown_s: .inf", 15, "retry.cooldown_s"),
        ("tool_timeout_s: 10", "max_result_chars: 100000000000", 13, "loop.max_result_chars"),
        ("context_window: 8000", "context_window: 1000000000000", 10, "context_window"),
        ("price_in: 1.5", "price_in: .inf", 11, "price_in"),
    ],
)
def test_limits_that_are_not_limits_are_refused(old: str, new: str, line: int, key: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(GOOD.replace(old, new), "limits.yaml")
    message = one_line(info.value)
    assert message.startswith(f"limits.yaml:{line}: ")
    assert key in message


@pytest.mark.parametrize(
    "value",
    ["sk-proj-AbCdEfGh1234567890abcdefGHIJ", "gsk_abcdEFGH1234567890wxyzABCD", "AbCdEf0123456789GhIjKl0123"],
)
def test_a_key_pasted_as_the_variable_name_is_never_echoed(value: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(GOOD.replace("api_key_env: ALPHA_KEY", f"api_key_env: {value}"), "key.yaml")
    message = one_line(info.value)
    assert message.startswith("key.yaml:6: providers.alpha.api_key_env")
    assert "looks like an API key" in message
    assert value not in message
    assert value[:8] not in message


def test_credentials_in_base_url_are_never_echoed() -> None:
    url = "https://bob:hunter2secret@alpha.example/v1"
    with pytest.raises(ConfigError) as info:
        parse_config(GOOD.replace("https://alpha.example/v1", url), "url.yaml")
    message = one_line(info.value)
    assert message.startswith("url.yaml:5: providers.alpha.base_url")
    assert "credentials" in message
    assert "hunter2secret" not in message and "bob" not in message


def test_internal_fields_cannot_be_set_from_yaml() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(GOOD + "env_file: /etc/passwd\n", "internal.yaml")
    assert "env_file: unknown key" in one_line(info.value)


def test_which_files_were_loaded_is_recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "providers.yaml").write_text(GOOD, encoding="utf-8")
    (tmp_path / ".env").write_text("HOSTILE_TEST_VAR=1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ROUTER_CONFIG", raising=False)
    monkeypatch.delenv("HOSTILE_TEST_VAR", raising=False)
    config = load_config()
    assert config.source == "providers.yaml"
    assert config.origin == "working directory"
    assert config.env_file == str(tmp_path / ".env")


def test_non_utf8_dotenv_is_one_line_even_with_the_mock_provider(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes(b"A=1\nKEY=\xff\xfe caf\xe9\n")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "HOME": str(tmp_path), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    result = subprocess.run(
        [sys.executable, "-m", "router", "--provider", "mock", "hi"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert ".env:2:" in lines[0] and "not UTF-8" in lines[0]
    assert "Traceback" not in result.stderr


_SCALARS = st.one_of(
    st.integers(), st.floats(), st.booleans(), st.none(), st.text(max_size=20),
    st.sampled_from([".inf", "-.inf", ".nan", "*x", "&x", "? [a]", "!!python/object:os.system", "{", "[", "'"]),
)
_KEYS = st.sampled_from(["default", "providers", "loop", "retry", "client", "models", "id", "timeout_s", "*a", "&b x", "? k"])


def _render(value: object, indent: int = 0) -> str:
    pad = "  " * indent
    if isinstance(value, dict):
        return "".join(f"{pad}{k}:\n{_render(v, indent + 1)}" for k, v in value.items()) or f"{pad}{{}}\n"
    if isinstance(value, list):
        return "".join(f"{pad}-\n{_render(v, indent + 1)}" for v in value) or f"{pad}[]\n"
    return f"{pad}{value}\n"


@settings(max_examples=150, deadline=None)
@given(st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3), max_leaves=15))
def test_any_yaml_loads_or_fails_with_one_config_error_line(value: object) -> None:
    text = _render(value)
    try:
        parse_config(text, "fuzz.yaml")
    except ConfigError as exc:
        one_line(exc)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab:-[]{}&*!?|>'\"#\n ,.0")), max_size=120))
def test_any_text_loads_or_fails_with_one_config_error_line(text: str) -> None:
    try:
        parse_config(text, "fuzz.yaml")
    except ConfigError as exc:
        one_line(exc)


def test_a_relative_config_path_that_is_missing_hints_at_the_lookup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as info:
        load_config("providers.yaml")
    assert "without a path" in one_line(info.value)


def test_a_megabyte_of_keys_is_refused_by_count() -> None:
    from router.config import MAX_NODES

    text = "default: x\nproviders:\n" + "".join(f"  k{i}: {i}\n" for i in range(MAX_NODES))
    with pytest.raises(ConfigError) as info:
        parse_config(text, "keys.yaml")
    assert f"more than {MAX_NODES:,} values" in one_line(info.value)


def test_a_huge_value_is_cut_in_the_error() -> None:
    text = "default: " + "a" * 100_000 + "\nproviders: {m: {client: mock, models: [{id: x}]}}\n"
    with pytest.raises(ConfigError) as info:
        parse_config(text, "long.yaml")
    assert len(one_line(info.value)) < 300
