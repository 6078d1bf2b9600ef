"""One decision path for who answers: each wrong record the v0.1.0 review found, as a test.

Each test failed on v0.1.0 (the planner and the executor disagreed, a skipped fallback
vanished, the wrong provider was remembered as tool-less, an alias worked in the
library but not in the CLI, loop settings took three shapes) and passes now.
"""

from __future__ import annotations

import io
import textwrap

import pytest

from router import (
    Answer,
    MissingAPIKeyError,
    ProviderUnavailableError,
    Router,
    ScriptedLLM,
    ToolsUnsupportedError,
    UsageError,
    parse_config,
    run_mode,
    run_tools,
    text_response,
)
from router.cli import main

CONFIG = textwrap.dedent(
    """\
    default: alpha
    fallbacks: [alpha, gamma, beta]
    retry: {max_wait_s: 0, cooldown_s: 60, failures_before_cooldown: 5}
    providers:
      alpha:
        client: openai
        base_url: https://alpha.example/v1
        api_key_env: DECISION_TEST_ALPHA_KEY
        aliases: [first-choice]
        max_retries: 0
        models: [{id: alpha-1}]
      gamma:
        client: openai
        base_url: https://gamma.example/v1
        api_key_env: DECISION_TEST_GAMMA_KEY
        models: [{id: gamma-1}]
      beta:
        client: openai
        base_url: https://beta.example/v1
        api_key_env: DECISION_TEST_BETA_KEY
        max_retries: 0
        models: [{id: beta-1}]
    """
)
QUESTION = "Explain why the sky is blue"


@pytest.fixture(autouse=True)
def _keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECISION_TEST_ALPHA_KEY", "alpha-secret")
    monkeypatch.setenv("DECISION_TEST_BETA_KEY", "beta-secret")
    monkeypatch.delenv("DECISION_TEST_GAMMA_KEY", raising=False)


def test_a_keyless_fallback_is_recorded_in_the_answer() -> None:
    config = parse_config(CONFIG, "d.yaml")
    alpha = ScriptedLLM([ProviderUnavailableError("HTTP 503: down", provider="alpha")], provider="alpha", model="alpha-1")
    beta = ScriptedLLM([text_response("blue light scatters more")], provider="beta", model="beta-1")
    answer = Router(config, clients={"alpha": alpha, "beta": beta}).ask(QUESTION, mode="cot")
    assert (answer.provider, answer.text) == ("beta", "blue light scatters more")
    kinds = [(a.provider, a.error_kind) for a in answer.attempts]
    assert ("gamma", "no_key") in kinds  # v0.1.0 dropped it before anything could record it
    assert kinds == [("gamma", "no_key"), ("alpha", "unavailable"), ("beta", None)]


def test_the_executed_chain_is_the_planned_chain() -> None:
    config = parse_config(CONFIG, "d.yaml")
    router = Router(config, clients={"alpha": ScriptedLLM([]), "beta": ScriptedLLM([])})
    planned = router.plan(router.route(QUESTION), needs_tools=False)
    chain = router._chain(planned, None)
    assert [(c.provider, c.model) for c in chain.candidates] == [(c.provider, c.model_id) for c in planned.candidates]
    assert [(c.provider, c.model) for c in chain.candidates] == [("alpha", "alpha-1"), ("beta", "beta-1")]


def test_the_provider_that_refused_tools_is_the_one_remembered() -> None:
    config = parse_config(CONFIG, "d.yaml")
    alpha = ScriptedLLM([ProviderUnavailableError("HTTP 503: down", provider="alpha")] * 2, provider="alpha")
    beta = ScriptedLLM(
        [ToolsUnsupportedError("tools are not supported", provider="beta", status=400), text_response("Final Answer: ok")],
        provider="beta",
    )
    router = Router(config, clients={"alpha": alpha, "beta": beta})
    answer = router.ask("What is 2+2? use the calculator", mode="react")
    assert answer.protocol == "text"
    assert set(router._protocol_memory.downgraded()) == {"beta"}  # v0.1.0 remembered alpha, which never refused


def test_cli_resolves_aliases_like_the_library() -> None:
    err = io.StringIO()
    code = main(["--provider", "first-choice", "--mode", "cot", "--config", "/nonexistent.yaml", "hi"], stdout=io.StringIO(), stderr=err)
    assert code == 2 and "config file not found" in err.getvalue()
    config = parse_config(CONFIG, "d.yaml")
    router = Router(config, clients={"alpha": ScriptedLLM([text_response("hello")], provider="alpha")})
    assert router.resolve_provider("First-Choice") == "alpha"
    assert router.ask("hi", provider="first-choice", mode="cot").provider == "alpha"
    with pytest.raises(UsageError, match="did you mean"):
        router.resolve_provider("frist-choice")


def test_cli_alias_resolution_end_to_end(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "providers.yaml"
    path.write_text(CONFIG.replace("DECISION_TEST_ALPHA_KEY", "DECISION_TEST_UNSET_KEY"), encoding="utf-8")
    monkeypatch.delenv("DECISION_TEST_UNSET_KEY", raising=False)
    err = io.StringIO()
    code = main(["--config", str(path), "--provider", "first-choice", "hi"], stdout=io.StringIO(), stderr=err)
    # the alias resolves (v0.1.0: "unknown provider"); the explicit provider's missing key is the error
    assert code == 2 and "DECISION_TEST_UNSET_KEY" in err.getvalue() and "unknown provider" not in err.getvalue()


def test_loop_settings_have_one_shape_and_one_set_of_bounds() -> None:
    config = parse_config(CONFIG, "d.yaml")
    router = Router(config, clients={"alpha": ScriptedLLM([text_response("x")])})
    with pytest.raises(UsageError, match="max_steps"):
        router.ask("hi", mode="react", max_steps=0)
    with pytest.raises(UsageError, match="max_steps"):
        router.ask("hi", mode="react", max_steps="3")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="max_steps"):
        run_tools(ScriptedLLM([]), [{"role": "user", "content": "x"}], max_steps=101)  # the config's bound, not another


def test_one_result_type_from_loop_modes_and_router() -> None:
    config = parse_config(CONFIG, "d.yaml")
    loop = run_tools(ScriptedLLM([text_response("a")]), [{"role": "user", "content": "x"}])
    mode = run_mode("cot", "x", ScriptedLLM([text_response("b")]), config=config)
    asked = Router(config, clients={"alpha": ScriptedLLM([text_response("c")])}).ask("x", mode="cot")
    assert all(type(result) is Answer for result in (loop, mode, asked))


def test_library_misuse_gets_a_usage_error_with_a_hint() -> None:
    with pytest.raises(UsageError, match="from_yaml"):
        Router("providers.yaml")  # type: ignore[arg-type]
    config = parse_config(CONFIG, "d.yaml")
    router = Router(config, clients={"alpha": ScriptedLLM([])})
    with pytest.raises(UsageError, match="string"):
        router.ask(123)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="unknown provider"):
        Router(config, clients={"nobody": ScriptedLLM([])})


def test_with_no_key_anywhere_the_error_names_every_variable_that_would_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DECISION_TEST_ALPHA_KEY")
    monkeypatch.delenv("DECISION_TEST_BETA_KEY")
    config = parse_config(CONFIG, "d.yaml")
    with pytest.raises(MissingAPIKeyError) as caught:
        Router(config).ask("hi", mode="cot")
    message = str(caught.value)
    assert all(name in message for name in ("DECISION_TEST_ALPHA_KEY", "DECISION_TEST_GAMMA_KEY", "DECISION_TEST_BETA_KEY"))


def test_router_closes_the_clients_it_built_but_not_injected_ones() -> None:
    config = parse_config(CONFIG, "d.yaml")
    injected = ScriptedLLM([text_response("x")], provider="alpha")
    with Router(config, clients={"alpha": injected}) as router:
        router.ask("hi", mode="cot")
        built = router.client_for("beta", "beta-1")
    assert not injected.closed
    assert built.__class__.__name__ == "OpenAIClient"


def test_open_circuits_are_listed_for_the_metrics() -> None:
    from router.aio import run_sync

    config = parse_config(CONFIG.replace("retry: {max_wait_s: 0, cooldown_s: 60, failures_before_cooldown: 5}",
                                         "retry: {max_wait_s: 0}\nbreaker: {failures: 1, window_s: 30, cooldown_s: 60}"), "d.yaml")
    alpha = ScriptedLLM([ProviderUnavailableError("HTTP 503: down", provider="alpha")], provider="alpha")
    router = Router(config, clients={"alpha": alpha, "beta": ScriptedLLM([text_response("ok")], provider="beta")})
    assert run_sync(router.open_circuits()) == []
    router.ask("hi", mode="cot")
    assert run_sync(router.open_circuits()) == [("alpha", "alpha-1")]


def test_a_downgrade_learnt_by_one_router_is_known_to_another_on_the_same_store() -> None:
    from router.loop.memory import ProtocolMemory
    from router.state.memory import MemoryStore

    store = MemoryStore()
    first, second = ProtocolMemory(store), ProtocolMemory(store)
    from router.aio import run_sync

    run_sync(first.aremember("beta", "tools are not supported"))
    assert not second.is_downgraded("beta")  # not yet in its local copy
    assert run_sync(second.ais_downgraded("beta")) and second.downgraded() == {"beta": "tools are not supported"}
