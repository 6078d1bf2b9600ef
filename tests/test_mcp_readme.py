"""The README's MCP example, as written: its server file and YAML, used from the CLI."""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from fake_openai_server import FakeOpenAIServer, Text, ToolCalls

from router.cli import main as cli_main

REPO = Path(__file__).resolve().parents[1]


def section() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return text.split("## MCP servers\n", 1)[1].split("\n## ", 1)[0]


def test_the_readme_shows_the_example_file_as_it_is() -> None:
    shown = re.search(r"```py\n(.*?)```", section(), re.S)
    assert shown is not None and shown.group(1) == (REPO / "examples" / "mcp" / "notes_server.py").read_text(encoding="utf-8")


def test_the_readme_example_works_from_the_cli(tmp_path: Path, make_fake_server: object, monkeypatch: pytest.MonkeyPatch) -> None:
    yaml_block = re.search(r"```yaml\n(.*?)```", section(), re.S)
    assert yaml_block is not None
    (tmp_path / "examples" / "mcp").mkdir(parents=True)
    shutil.copy(REPO / "examples" / "mcp" / "notes_server.py", tmp_path / "examples" / "mcp")
    upstream: FakeOpenAIServer = make_fake_server()  # type: ignore[operator]
    monkeypatch.setenv("ROUTER_README_KEY", "sk-readme-0123456789")
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")  # `python` is ours
    config = tmp_path / "providers.yaml"
    config.write_text(
        f"default: upstream\nproviders:\n  upstream:\n    client: openai\n    base_url: {upstream.base_url}\n"
        f"    api_key_env: ROUTER_README_KEY\n    models: [{{id: fake}}]\n" + yaml_block.group(1),
        encoding="utf-8",
    )
    out, err = io.StringIO(), io.StringIO()
    assert cli_main(["tools", "--config", str(config)], stdout=out, stderr=err) == 0, err.getvalue()
    listed = re.search(r"```text\n(.*?)```", section(), re.S)
    assert listed is not None and out.getvalue() == listed.group(1)

    upstream.enqueue(
        ToolCalls((("notes_save_note", '{"title": "standup", "text": "moved to 10:00"}'),), id_prefix="a_"),
        ToolCalls((("notes_read_note", '{"title": "standup"}'),), id_prefix="b_"),
        Text("The note 'standup' says: moved to 10:00."),
    )
    command = re.findall(r'^python -m router --mode react "(.*)"$', section(), re.M)
    assert command
    out, err = io.StringIO(), io.StringIO()
    assert cli_main(["--config", str(config), "--mode", "react", command[0]], stdout=out, stderr=err) == 0, err.getvalue()
    assert out.getvalue().strip() == "The note 'standup' says: moved to 10:00."
    assert "notes_read_note" in err.getvalue()
    tool_messages = [m for m in upstream.requests[2].body["messages"] if m["role"] == "tool"]
    assert [m["content"] for m in tool_messages] == ["saved 'standup'", "moved to 10:00"]
