"""README's commands are the ones CI runs, so the README stays true."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _block_after(heading: str, text: str) -> list[str]:
    section = text.split(f"## {heading}\n", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block, heading
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_the_first_two_commands_are_what_ci_runs_first() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```bash\n(.*?)```", readme, re.S)
    assert first is not None and readme.index(first.group(0)) < readme.index("\n## ")
    commands = [line.split("  #")[0].strip() for line in first.group(1).splitlines() if line.strip()]
    assert len(commands) == 2 and "python -m router" in commands[0] and "python -m pytest" in commands[1]
    ci = [line.strip() for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    runnable = [line for line in ci if line and not line.startswith("#")]
    at = runnable.index(commands[0])
    assert runnable[at + 1] == commands[1]  # exactly those two lines, in that order
    assert not any(line.startswith(("pip ", "python ")) for line in runnable[:at] if "venv" not in line and "pip install --quiet --upgrade pip" not in line)


def _python_blocks(text: str) -> list[str]:
    """The README's python examples, except those that talk to a running server (tests/test_server.py runs those
    against a real one)."""
    return [block for block in re.findall(r"```python\n(.*?)```", text, re.S) if "127.0.0.1:8000" not in block]


def test_readme_python_examples_run_offline_from_any_directory(tmp_path: Path) -> None:
    """Every ```python block, as written, in an empty directory with no keys and ROUTER_PROVIDER=mock."""
    import os
    import subprocess
    import sys

    blocks = _python_blocks((REPO / "README.md").read_text(encoding="utf-8"))
    assert len(blocks) >= 2
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(REPO), "HOME": str(tmp_path),
        "ROUTER_PROVIDER": "mock", "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        # no network: the weather tool would fail fast instead of reaching Open-Meteo
        "ROUTER_GEOCODING_URL": "http://127.0.0.1:9/v1/search", "ROUTER_WEATHER_URL": "http://127.0.0.1:9/v1/forecast",
    }
    for index, block in enumerate(blocks):
        script = tmp_path / f"readme_block_{index}.py"
        script.write_text(block, encoding="utf-8")
        result = subprocess.run(
            [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, f"README python block {index} failed:\n{block}\n{result.stderr}"
