"""Issue 18 item 7: a refused key is out only where the refusal applies, visible, and clearable."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from balance_upstream import KEY_ENVS
from fake_openai_server import FakeOpenAIServer, Status, Text, Unauthorized

from router import Router
from router.aio import run_sync
from router.balance.status import clear_refused_key, deployment_status, describe
from router.config import parse_config
from router.errors import UsageError

pytestmark = pytest.mark.usefixtures("keys")


def _config(one: FakeOpenAIServer, two: FakeOpenAIServer) -> str:
    return f"""
default: pooled
providers:
  pooled:
    client: openai
    max_retries: 0
    models: [{{id: big-model, default: true}}, {{id: small-model}}]
    deployments:
      - {{name: one, base_url: {one.base_url}, api_key_env: {KEY_ENVS[0]}}}
      - {{name: two, base_url: {two.base_url}, api_key_env: {KEY_ENVS[1]}}}
"""


def _ask(router: Router, model: str) -> tuple[str | None, list[tuple[str | None, str | None]]]:
    answer = router.ask("hi", mode="cot", model=f"pooled/{model}")
    return answer.deployment, [(a.deployment, a.error_kind) for a in answer.attempts if not a.ok]


def test_a_401_for_one_model_puts_out_that_model_on_that_deployment_only(
    make_fake_server: Callable[[], FakeOpenAIServer],
) -> None:
    one, two = make_fake_server(), make_fake_server()
    one.default_reply = two.default_reply = Text("fine")
    router = Router(parse_config(_config(one, two)))
    denied = Status(403, "The API key does not have access to model big-model")
    # weighted 1:1 starts with "one" for big-model: it refuses that model, "two" answers at once
    one.enqueue(denied)
    assert _ask(router, "big-model") == ("two", [("one", "auth")])
    for _ in range(4):  # big-model: "one" is out (recorded as a skip when its turn comes), "two" answers
        deployment, failed = _ask(router, "big-model")
        assert deployment == "two" and set(failed) <= {("one", "auth_out")}
    small = {_ask(router, "small-model")[0] for _ in range(4)}
    assert small == {"one", "two"}  # the same key on the same deployment still serves the other model

    states = {s.name: s for s in run_sync(deployment_status(router))}
    out = states["pooled/big-model@one"]
    assert not out.healthy and "big-model" in out.refused and states["pooled/small-model@one"].healthy
    lines = "\n".join(describe(list(states.values())))
    assert f"key for model big-model in {KEY_ENVS[0]} refused" in lines and "sk-" not in lines

    assert run_sync(clear_refused_key(router, "pooled", "one")) == ["pooled@one"]
    assert run_sync(deployment_status(router))[0].healthy
    assert {_ask(router, "big-model")[0] for _ in range(4)} == {"one", "two"}  # back in the rotation
    with pytest.raises(UsageError, match="no deployment 'three' \\(deployments: one, two\\)"):
        run_sync(clear_refused_key(router, "pooled", "three"))
    router.close()


def test_a_401_about_the_key_puts_out_the_key_on_that_deployment_for_every_model(
    make_fake_server: Callable[[], FakeOpenAIServer],
) -> None:
    one, two = make_fake_server(), make_fake_server()
    one.default_reply, two.default_reply = Unauthorized(), Text("fine")
    router = Router(parse_config(_config(one, two)))
    answers = [_ask(router, model)[0] for model in ("big-model", "small-model") for _ in range(3)]
    router.close()
    assert set(answers) == {"two"} and len(one.requests) == 1  # one refusal; then skipped for both models


def test_router_check_shows_a_refused_key_and_clears_it_for_every_process(
    make_fake_server: Callable[[], FakeOpenAIServer], redis_server: object, tmp_path: object,
) -> None:
    import io
    from pathlib import Path

    from router.cli import main

    one, two = make_fake_server(), make_fake_server()
    one.default_reply = two.default_reply = Text("fine")
    yaml = _config(one, two) + f"state: {{redis_url: {redis_server.url}, key_prefix: 'check-test:'}}\n"  # type: ignore[attr-defined]
    path = Path(str(tmp_path)) / "providers.yaml"
    path.write_text(yaml, encoding="utf-8")
    gateway = Router(parse_config(yaml, str(path)))  # a gateway process's router: its refusal is shared
    one.enqueue(Unauthorized())
    assert _ask(gateway, "big-model")[0] == "two"
    gateway.close()

    def check(*argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = main(["check", "--config", str(path), *argv], stdin=io.StringIO(""), stdout=out, stderr=err)
        return code, out.getvalue(), err.getvalue()

    code, out, _ = check()
    assert code == 1, out
    assert "problem: out: pooled/big-model@one: OUT" in out and f"in {KEY_ENVS[0]} refused" in out
    assert "sk-" not in out
    code, out, err = check("--clear-key", "pooled/three")
    assert code == 2 and "no deployment 'three'" in err
    code, out, _ = check("--clear-key", "pooled/one")
    assert code == 0 and out == "cleared: pooled@one\n"
    code, out, _ = check()
    assert code == 0 and "OUT" not in out
