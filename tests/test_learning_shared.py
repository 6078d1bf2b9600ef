"""Two ``python -m router serve`` processes on one real redis-server learn as one, over HTTP with the openai SDK.

Feedback given through one process changes the next decision of the other; bad feedback
(a bad score, an unknown id, another key's answer, a malformed body) is refused with a 4xx
and changes nothing.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from redis_server import RedisServer
from test_failover_shared import Serve, serve  # noqa: F401 - the fixture

KEY_A, KEY_B = "LEARN_SHARED_KEY_A", "LEARN_SHARED_KEY_B"
SECRET = {KEY_A: "sk-learn-shared-a", KEY_B: "sk-learn-shared-b"}

CODING = [f"Write a python function that returns the {n}th fibonacci number using a loop" for n in range(3, 40)]
WRITING = [f"Write a short poem about the colour number {n} of a rainbow at dusk" for n in range(3, 40)]


def _config(path: Path, redis_url: str) -> Path:
    path.write_text(f"""
default: cheap
state: {{redis_url: "{redis_url}", key_prefix: "learn-shared:", timeout_s: 0.5}}
server: {{api_key_envs: [{KEY_A}, {KEY_B}]}}
routing:
  strategy: auto
  threshold: 0.75
  tiers: {{fast: [cheap/cheap-1], strong: [big/big-1]}}
  learning: {{enabled: true, explore_share: 0.0, min_evidence: 8}}
providers:
  cheap: {{client: mock, models: [{{id: cheap-1, price_in: 0.1, price_out: 0.2}}]}}
  big: {{client: mock, models: [{{id: big-1, price_in: 5, price_out: 15}}]}}
""")
    return path


def _post(server: Serve, path: str, body: Any, key: str = KEY_A) -> tuple[int, dict[str, Any], dict[str, str]]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", data,
                                     {"Content-Type": "application/json", "Authorization": f"Bearer {SECRET[key]}"})  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read()), dict(reply.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}"), dict(exc.headers)


def _ask(server: Serve, question: str, key: str = KEY_A) -> tuple[str, str, str]:
    """(response id, provider/model, route reason) of one chat completion with model auto."""
    status, body, headers = _post(server, "/v1/chat/completions",
                                  {"model": "auto", "messages": [{"role": "user", "content": question}]}, key)  # fmt: skip
    assert status == 200, body
    return body["id"], body["model"], urllib.request.unquote(headers.get("x-router-route-reason", ""))


@pytest.fixture
def servers(make_redis_server: Callable[..., RedisServer], serve, tmp_path: Path, monkeypatch):  # type: ignore[no-untyped-def]  # noqa: F811
    for name, value in SECRET.items():
        monkeypatch.setenv(name, value)
    config = _config(tmp_path / "providers.yaml", make_redis_server().url)
    return serve(config), serve(config)


def test_feedback_through_one_process_changes_the_other_ones_next_decision(servers) -> None:  # type: ignore[no-untyped-def]
    one, two = servers
    _, model, reason = _ask(two, CODING[-1])
    assert model.startswith("cheap/") and "learned" not in reason
    for coding, writing in zip(CODING[:16], WRITING[:16], strict=True):
        for question, score in ((coding, 0.0), (writing, 1.0)):
            answer_id, _, _ = _ask(one, question)
            status, body, _ = _post(one, "/v1/feedback", {"id": answer_id, "score": score})
            assert status == 200 and body == {"id": answer_id, "object": "feedback", "score": score}
    _, model, reason = _ask(two, CODING[-1])  # the other process, a question of that kind it never saw
    assert model.startswith("big/"), reason
    assert "(learned +" in reason and "outcomes)" in reason
    _, model, _ = _ask(two, WRITING[-1])
    assert model.startswith("cheap/")


def test_bad_feedback_is_refused_and_nothing_is_stored(servers) -> None:  # type: ignore[no-untyped-def]
    one, two = servers
    answer_id, _, _ = _ask(one, CODING[0], key=KEY_A)
    refused = [
        (_post(one, "/v1/feedback", {"id": answer_id, "score": 1.5}), 400),
        (_post(one, "/v1/feedback", {"id": answer_id, "score": "good"}), 400),
        (_post(one, "/v1/feedback", {"id": answer_id}), 400),
        (_post(one, "/v1/feedback", {"id": answer_id, "score": 0.5, "rating": 3}), 400),
        (_post(one, "/v1/feedback", b"{not json"), 400),
        (_post(one, "/v1/feedback", {"id": "chatcmpl-never-issued", "score": 0.5}), 404),
        (_post(two, "/v1/feedback", {"id": answer_id, "score": 0.0}, key=KEY_B), 403),  # another key's answer
    ]
    for (status, body, _), expected in refused:
        assert status == expected, body
        assert body["error"]["message"] and body["error"]["code"]
    # none of them counted: eight "bad" outcomes through key B would have moved this kind up
    for _ in range(8):
        _post(two, "/v1/feedback", {"id": answer_id, "score": 0.0}, key=KEY_B)
    _, model, reason = _ask(two, CODING[-1])
    assert model.startswith("cheap/") and "learned" not in reason
    status, _, _ = _post(two, "/v1/feedback", {"id": answer_id, "score": 0.0}, key=KEY_A)  # the owner, via the other process
    assert status == 200
