"""``GET /status``: the operator's page, rendered by a real headless Chromium against a running gateway."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fake_openai_server import FakeOpenAIServer, ServerError, Text
from server_harness import SERVER_KEY, UPSTREAM_KEY_ENV, ServerThread, make_engine, upstream_config

from router.config import ServerSettings
from router.server.app import create_app
from router.server.auth import KeyCheck

STATUS_KEY_ENV = "ROUTER_TEST_STATUS_KEY"
STATUS_KEY = "sk-status-only-7d1e0b"
UPSTREAM_SECRET = "sk-upstream-status-secret-93c2aa"
AUTH = {"Authorization": f"Bearer {SERVER_KEY}"}
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture
def gateway(fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerThread]:
    monkeypatch.setenv(UPSTREAM_KEY_ENV, UPSTREAM_SECRET)
    monkeypatch.setenv(STATUS_KEY_ENV, STATUS_KEY)
    config = upstream_config(fake_server.base_url, extra="routing:\n  tiers:\n    fast: [fake/fake-model]\n")
    settings = ServerSettings(status_key_envs=[STATUS_KEY_ENV], budget_usd_per_day_per_key=5.0)
    app = create_app(make_engine(config), settings, keys=KeyCheck([SERVER_KEY.encode()], ["ROUTER_TEST_SERVER_KEY"]))
    server = ServerThread(app).start()
    yield server
    server.stop()


def chat(server: ServerThread, content: str, model: str = "fake/fake-model") -> httpx.Response:
    return httpx.post(f"{server.url}/v1/chat/completions", headers=AUTH, timeout=10,
                      json={"model": model, "messages": [{"role": "user", "content": content}]})


def status(server: ServerThread, key: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx.get(f"{server.url}/status.json", headers=headers, timeout=10)


def test_status_json_needs_an_api_or_status_key_and_never_shows_a_key(gateway: ServerThread,
                                                                     fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("hi there"))
    assert chat(gateway, "hello").status_code == 200
    assert status(gateway, None).status_code == 401
    assert status(gateway, "sk-wrong").status_code == 401
    # a status key reads the page's data but cannot spend
    assert chat_with(gateway, STATUS_KEY).status_code == 401
    reply = status(gateway, STATUS_KEY)
    assert reply.status_code == 200
    data = reply.json()
    (decision,) = data["decisions"]
    assert (decision["dialect"], decision["provider"], decision["model"]) == ("openai_chat", "fake", "fake-model")
    assert decision["outcome"] == "ok" and decision["status"] == 200 and decision["tier"] == "fast"
    fake = next(p for p in data["providers"] if p["name"] == "fake")
    assert fake["key_env"] == UPSTREAM_KEY_ENV and fake["key_set"] is True
    assert fake["models"][0]["breaker"] == "closed" and fake["models"][0]["latency_ms"] is not None
    assert data["spend"] == [{"key": "ROUTER_TEST_SERVER_KEY", "spent_usd": pytest.approx(25e-6), "budget_usd": 5.0}]
    assert data["errors"]["requests"] >= 1
    for secret in (UPSTREAM_SECRET, SERVER_KEY, STATUS_KEY):
        assert secret not in reply.text
    assert status(gateway, SERVER_KEY).status_code == 200  # the API's own keys read it too


def chat_with(server: ServerThread, key: str) -> httpx.Response:
    return httpx.post(f"{server.url}/v1/chat/completions", headers={"Authorization": f"Bearer {key}"}, timeout=10,
                      json={"model": "fake/fake-model", "messages": [{"role": "user", "content": "x"}]})


def test_failures_are_decisions_too(gateway: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ServerError(500), ServerError(500))
    assert chat(gateway, "hello").status_code >= 500
    assert chat(gateway, "hello", model="nobody/none").status_code == 404
    decisions = status(gateway, SERVER_KEY).json()["decisions"]
    assert [d["status"] for d in decisions][:2] == [404, decisions[1]["status"]]
    assert decisions[0]["outcome"] == "model_not_found"
    assert decisions[1]["status"] >= 500 and decisions[1]["provider"] == ""
    codes = {c["code"] for c in status(gateway, SERVER_KEY).json()["errors"]["by_code"]}
    assert "model_not_found" in codes


def test_the_page_is_static_and_self_contained(gateway: ServerThread) -> None:
    reply = httpx.get(f"{gateway.url}/status", timeout=10)
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/html")
    assert "connect-src 'self'" in reply.headers["content-security-policy"]
    assert "http://" not in reply.text and "https://" not in reply.text  # no CDN: works offline


def chromium(url: str, tmp_path: Path, *extra: str) -> str:
    args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=4000",
            *extra, url]
    out = subprocess.run(args, capture_output=True, text=True, timeout=90)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


@pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"), reason="chromium is not installed")
def test_a_request_through_the_api_appears_in_the_rendered_page(gateway: ServerThread, fake_server: FakeOpenAIServer,
                                                                 tmp_path: Path) -> None:
    assert CHROMIUM is not None, "chromium is not installed (apt-get install chromium)"
    fake_server.enqueue(Text("rendered"))
    assert chat(gateway, "hello from the browser test").status_code == 200
    dom = chromium(f"{gateway.url}/status#key={STATUS_KEY}", tmp_path, "--dump-dom")
    assert "fake/fake-model" in dom  # the decision row, rendered by the page's own script
    assert "openai_chat" in dom
    assert "ROUTER_TEST_UPSTREAM_KEY set" in dom  # the key's variable, never its value
    assert '<span id="updated">updated ' in dom  # the poll succeeded
    assert '<div id="error" style="display: none;">' in dom
    for secret in (UPSTREAM_SECRET, SERVER_KEY):
        assert secret not in dom
    locked = chromium(f"{gateway.url}/status", tmp_path / "fresh", "--dump-dom")  # no key: asks for one, no data
    assert "fake/fake-model" not in locked
    assert '<form id="login" style="display: flex;">' in locked


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_screenshot(gateway: ServerThread, fake_server: FakeOpenAIServer, tmp_path: Path, request: Any) -> None:
    """Renders the page to a PNG (ROUTER_STATUS_SCREENSHOT=path keeps it: the README's picture)."""
    fake_server.enqueue(Text("one"), ServerError(500), ServerError(500), Text("three"))
    chat(gateway, "What is 2+2?")
    chat(gateway, "Write a haiku about autumn")
    chat(gateway, "Summarise CAP", model="fake/fake-model")
    target = Path(os.environ.get("ROUTER_STATUS_SCREENSHOT") or tmp_path / "status.png")
    chromium(f"{gateway.url}/status#key={STATUS_KEY}", tmp_path, f"--screenshot={target}", "--window-size=1400,900")
    assert target.stat().st_size > 10_000


def test_each_deployment_has_its_own_row_with_its_health(fake_server: FakeOpenAIServer,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from router.config import parse_config
    from router.core import Router

    monkeypatch.setenv(UPSTREAM_KEY_ENV, UPSTREAM_SECRET)
    monkeypatch.delenv("ROUTER_TEST_MISSING_KEY", raising=False)
    config = parse_config(f"""
default: fake
providers:
  fake:
    client: openai
    api_key_env: {UPSTREAM_KEY_ENV}
    max_retries: 0
    models: [{{id: fake-model, default: true}}]
    deployments:
      - {{name: main, base_url: {fake_server.base_url}}}
      - {{name: spare, base_url: {fake_server.base_url}, api_key_env: ROUTER_TEST_MISSING_KEY}}
""", "deployments.yaml")
    fake_server.enqueue(Text("from main"))
    server = ServerThread(create_app(Router(config), ServerSettings(), keys=KeyCheck([SERVER_KEY.encode()]))).start()
    try:
        assert chat(server, "hello").status_code == 200
        data = status(server, SERVER_KEY).json()
    finally:
        server.stop()
    (model,) = next(p for p in data["providers"] if p["name"] == "fake")["models"]
    rows = {d["name"]: d for d in model["deployments"]}
    assert set(rows) == {"main", "spare"}
    assert rows["main"]["key_set"] is True and rows["spare"]["key_set"] is False
    assert rows["main"]["breaker"] == "closed" and rows["main"]["latency_ms"] is not None
    assert data["decisions"][0]["deployment"] == "main"
    assert UPSTREAM_SECRET not in json.dumps(data)


def test_a_decision_names_the_tools_that_ran_and_their_mcp_server() -> None:
    from router.server.status.decisions import DecisionLog, decision_of
    from router.types import Answer, ToolRecord

    answer = Answer(text="ok", mode="react", provider="p", model="m", tool_records=(
        ToolRecord(tool="calculator", arguments={"expression": "1+1"}, result="2"),
        ToolRecord(tool="notes_get_note", arguments={"title": "secret title"}, result="body",
                   server="notes", server_tool="get_note")))
    log = DecisionLog(2)
    for _ in range(3):
        log.add(decision_of(answer, dialect="openai_chat", status=200))
    assert len(log) == 2  # bounded
    row = log.recent()[0].to_dict()
    assert row["tools"] == ("calculator", "notes:get_note")
    assert "secret title" not in json.dumps(row) and "body" not in json.dumps(row)
