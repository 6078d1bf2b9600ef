"""Every example runs offline and shows what it claims to show."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

EXPECTED = {
    "01_minimal_loop.py": ["tool | {\"expression\": \"365*24\", \"result\": 8760}", "stopped: answer"],
    "02_errors_fed_back.py": ["not valid JSON", "was not run", "unknown tool 'calculater'", "records: [('calculator', False), ('calculater', False), ('calculator', True)]"],
    "03_mock_tested_loop.py": ["'required': ['text']", "grounded: True"],
    "04_tool_records.py": ["ran calculator", "grounded: True", "grounded: False", "without any tool call"],
    "05_auto_select.py": ["cot ", "few_shot ", "react ", "tot "],
    "06_switch_provider.py": ["default: first  -> answered by first/", "default: second -> answered by second/", "ROUTER_PROVIDER=first -> answered by first/", "provider='second'     -> answered by second/"],
}


def test_every_example_is_covered() -> None:
    assert sorted(p.name for p in (REPO / "examples").glob("*.py")) == sorted(EXPECTED)


@pytest.mark.parametrize("provider", [None, "mock"], ids=["default", "ROUTER_PROVIDER=mock"])
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_runs_offline(name: str, provider: str | None, tmp_path: Path) -> None:
    """As the README says: each example runs as it is, and with ``ROUTER_PROVIDER=mock``."""
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    env.pop("ROUTER_PROVIDER", None)
    env.pop("ROUTER_CONFIG", None)
    if provider is not None:
        env["ROUTER_PROVIDER"] = provider
    result = subprocess.run(
        [sys.executable, str(REPO / "examples" / name)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    for fragment in EXPECTED[name]:
        assert fragment in result.stdout, (fragment, result.stdout)
