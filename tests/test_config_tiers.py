"""The routing section of providers.yaml: tiers name real provider/model pairs, one cost knob, file:line errors."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from router.config import load_config, parse_config
from router.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]

BASE = textwrap.dedent(
    """\
    default: alpha
    providers:
      alpha:
        client: mock
        models:
          - id: alpha-1
          - id: alpha-big
      beta:
        client: mock
        models:
          - id: beta/org-model
    """
)


def config_with(routing: str) -> str:
    return BASE + textwrap.dedent(routing)


def line_of(text: str, fragment: str) -> int:
    return next(i for i, row in enumerate(text.splitlines(), 1) if fragment in row)


def test_default_strategy_is_fixed_and_tiers_optional() -> None:
    config = parse_config(BASE, "p.yaml")
    assert config.routing.strategy == "fixed"
    assert config.routing.tiers == {}
    assert config.routing.strong_share is None and config.routing.threshold is None


def test_tiers_parse_into_provider_model_pairs() -> None:
    text = config_with(
        """\
        routing:
          strategy: auto
          strong_share: 0.3
          tiers:
            fast: [alpha/alpha-1]
            strong: [alpha/ALPHA-BIG, beta/beta/org-model]
        """
    )
    routing = parse_config(text, "p.yaml").routing
    assert routing.strategy == "auto"
    assert routing.tier("strong") == [("alpha", "ALPHA-BIG"), ("beta", "beta/org-model")]
    assert routing.tier("reasoning") == []


@pytest.mark.parametrize(
    ("routing", "fragment", "expected"),
    [
        (
            "routing:\n  tiers:\n    fast: [alpha/alpha-1]\n    strong:\n      - alpha/alpha-big\n      - gamma/g-1\n",
            "gamma/g-1",
            "routing.tiers.strong[1]: provider 'gamma' is not defined",
        ),
        (
            "routing:\n  tiers:\n    fast:\n      - alpha/alpha-2\n",
            "alpha/alpha-2",
            "routing.tiers.fast[0]: provider 'alpha' lists no model 'alpha-2' (listed: alpha-1, alpha-big)",
        ),
        (
            "routing:\n  tiers:\n    fast:\n      - alpah/alpha-1\n",
            "alpah/alpha-1",
            "provider 'alpah' is not defined (did you mean alpha?)",
        ),
        ("routing:\n  strategy: auto\n  tiers:\n    fast: [alpha/alpha-1]\n", "strategy: auto", "missing: strong"),
        ("routing:\n  strategy: smart\n", "strategy: smart", "routing.strategy"),
        ("routing:\n  strong_share: 0.3\n  threshold: 0.6\n", "routing:", "not both"),
        ("routing:\n  strong_share: 1.5\n", "strong_share", "routing.strong_share"),
        ("routing:\n  tiers:\n    fast: [alpha]\n", "fast: [alpha]", "is not provider/model"),
        ("routing:\n  stratgy: auto\n", "stratgy", "unknown key (did you mean strategy?)"),
    ],
)
def test_bad_routing_is_a_config_error_naming_file_and_line(
    tmp_path: Path, routing: str, fragment: str, expected: str
) -> None:
    text = config_with(routing)
    path = tmp_path / "providers.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    line = line_of(text, fragment)
    assert str(info.value).startswith(f"{path}:{line}: "), str(info.value)
    assert expected in str(info.value)


def test_shipped_tiers_name_listed_models() -> None:
    for path in (REPO / "providers.yaml", REPO / "router" / "providers.yaml"):
        routing = load_config(path).routing
        assert routing.strategy == "fixed"
        assert {"fast", "strong", "reasoning"} <= set(routing.tiers)
        config = load_config(path)
        for name in routing.tiers:
            for provider, model in routing.tier(name):
                assert model in [m.id for m in config.provider(provider).models]
