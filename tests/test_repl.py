"""The REPL as a person meets it: a real subprocess fed on stdin, Ctrl-C sent as SIGINT, history on a pty."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from router.cli import main

REPO = Path(__file__).resolve().parents[1]

CONFIG = textwrap.dedent(
    """\
    default: mock
    providers:
      mock:
        client: mock
        models: [{id: mock-model, default: true}]
      slow:
        client: openai
        base_url: http://127.0.0.1:{port}/v1
        api_key_env: ROUTER_REPL_SLOW_KEY
        max_retries: 0
        timeout_s: 120
        models: [{id: slow-1, default: true}]
    """
)


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A server that accepts connections and never answers (a hung provider)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    yield listener.getsockname()[1]
    listener.close()


@pytest.fixture
def config(tmp_path: Path, silent_port: int) -> Path:
    path = tmp_path / "providers.yaml"
    path.write_text(CONFIG.replace("{port}", str(silent_port)), encoding="utf-8")
    return path


class Repl:
    """A REPL subprocess whose stderr is collected by a thread, so a test can wait for a line."""

    def __init__(self, argv: list[str], cwd: Path, extra_env: dict[str, str] | None = None) -> None:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(REPO), "HOME": str(cwd),
            "LITELLM_LOCAL_MODEL_COST_MAP": "True", "PYTHONUNBUFFERED": "1", "ROUTER_REPL_SLOW_KEY": "test-key-123456",
            **(extra_env or {}),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "router", *argv], cwd=cwd, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self.err = ""
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._collect, daemon=True)
        self._reader.start()

    def _collect(self) -> None:
        assert self.process.stderr is not None
        for chunk in iter(lambda: self.process.stderr.read(1), ""):  # type: ignore[union-attr]
            with self._lock:
                self.err += chunk

    def wait_for(self, text: str, count: int = 1, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if self.err.count(text) >= count:
                    return
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        raise AssertionError(f"never saw {text!r} x{count}; stderr so far:\n{self.err}")

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def finish(self) -> tuple[int, str, str]:
        out, _ = self.process.communicate(timeout=60)
        self._reader.join(timeout=5)
        return self.process.returncode, out, self.err


@pytest.mark.parametrize("question", ["", "   "])
def test_an_empty_question_argument_is_a_usage_error_not_a_repl(question: str, config: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "router", "--config", str(config), question],
        env={**os.environ, "PYTHONPATH": str(REPO)}, stdin=subprocess.PIPE, capture_output=True, text=True, timeout=60,
    )  # stdin is an open pipe: a REPL would block here until the timeout
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "router: error: the question is empty (give a question, or no argument for the interactive REPL)"
    ]
    assert result.stdout == ""


def test_ctrl_c_at_the_prompt_keeps_the_session(config: Path, tmp_path: Path) -> None:
    repl = Repl(["--config", str(config)], tmp_path)
    repl.wait_for("you> ")
    repl.process.send_signal(signal.SIGINT)
    repl.wait_for("^C")
    repl.send("计算 2+2 等于多少")
    repl.wait_for("you> ", count=3)  # the prompt after ^C, then the one after the answer
    repl.send("quit")
    code, out, err = repl.finish()
    assert code == 0, err
    assert "4" in out
    assert "Traceback" not in err


def test_ctrl_c_cancels_a_hung_answer_and_keeps_the_session(config: Path, tmp_path: Path) -> None:
    repl = Repl(["--config", str(config)], tmp_path)
    repl.wait_for("you> ")
    repl.send("hello there")  # routed to mock: answered at once
    repl.wait_for("you> ", count=2)
    repl.send("slow, please say hi")  # routed to the hung server by name
    repl.wait_for("[route] slow")
    time.sleep(0.3)  # let the request reach the server
    repl.process.send_signal(signal.SIGINT)
    repl.wait_for("[cancelled]")
    repl.send("计算 3+4 等于多少")
    repl.wait_for("you> ", count=4)
    code, out, err = repl.finish()  # closes stdin: Ctrl-D
    assert code == 0, err
    assert "7" in out
    assert "Traceback" not in err


def test_quit_and_exit_end_the_session(config: Path, tmp_path: Path) -> None:
    import io

    for word in ("exit", "quit", "EXIT"):
        out, err = io.StringIO(), io.StringIO()
        code = main(["--config", str(config)], stdin=io.StringIO(f"{word}\nnever asked\n"), stdout=out, stderr=err)
        assert code == 0
        assert "never asked" not in out.getvalue()


def test_verbose_names_the_config_and_env_files(config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ROUTER_REPL_DOTENV", raising=False)
    (tmp_path / ".env").write_text("ROUTER_REPL_DOTENV=1\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["--verbose", "hello"], stdin=io.StringIO(), stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert f"[config] providers.yaml (working directory); .env: {tmp_path / '.env'}" in err.getvalue()


def test_a_config_from_the_working_directory_is_announced(config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.chdir(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    assert main(["hello"], stdin=io.StringIO(), stdout=out, stderr=err) == 0
    assert "[config] using providers.yaml from the working directory" in err.getvalue()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_on_a_terminal_lines_go_into_a_bounded_history_file(config: Path, tmp_path: Path) -> None:
    pytest.importorskip("readline")
    state = tmp_path / "state"
    master, slave = os.openpty()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(REPO), "HOME": str(tmp_path),
        "XDG_STATE_HOME": str(state), "LITELLM_LOCAL_MODEL_COST_MAP": "True", "TERM": "dumb",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "router", "--config", str(config)],
        cwd=tmp_path, env=env, stdin=slave, stdout=slave, stderr=slave,
    )
    os.close(slave)
    received = b""

    def read_until(marker: bytes, count: int = 1) -> None:
        nonlocal received
        end = time.monotonic() + 60
        while received.count(marker) < count and time.monotonic() < end:
            try:
                received += os.read(master, 4096)
            except OSError:
                break

    read_until(b"you> ")
    os.write(master, "计算 5+6 等于多少\r".encode())
    read_until(b"you> ", 2)
    os.write(master, b"\x04")  # Ctrl-D
    process.wait(timeout=60)
    try:
        while os.read(master, 4096):
            pass
    except OSError:
        pass
    os.close(master)
    assert process.returncode == 0, received.decode(errors="replace")
    history = (state / "router" / "history").read_text(encoding="utf-8")
    assert "5+6" in history
