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


def test_install_and_test_commands_are_what_ci_runs() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = [line.strip() for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    (install,) = _block_after("Install", readme)
    (test,) = _block_after("Test", readme)
    assert install in ci
    assert test in ci
    assert ci.index(install) < ci.index(test)


def test_local_model_install_lines_are_what_ci_runs() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = [line.strip() for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    for line in _block_after("Local models", readme):
        assert line in ci, line


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.S)


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
