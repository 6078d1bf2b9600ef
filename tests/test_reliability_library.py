"""Issue 18, the library's items: what recorded provider replies and hostile setups broke, through ``Router``.

Replies come from a real HTTP server on 127.0.0.1 (``fake_openai_server``), replayed
from recordings of live providers where one exists; nothing inside the router is patched.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fake_openai_server import EchoAuthorization, FakeOpenAIServer, Replay, Text, cassette

from router import Router
from router.tools.registry import ToolRegistry, tool
from router.types import TextEvent

KEY = "sk-rel-lib-SECRET-0123456789abcdef"
CLIENTS = ["openai", "litellm"]


def write_config(tmp_path: Path, servers: list[FakeOpenAIServer], client: str, extra: str = "") -> Path:
    names = [f"p{i}" for i in range(len(servers))]
    providers = "".join(
        f"""\
  {name}:
    client: {client}
    base_url: {server.base_url}
    api_key_env: ROUTER_REL_LIB_KEY
    max_retries: 2
    timeout_s: 5
    models: [{{id: {name}-model, default: true}}]
"""
        for name, server in zip(names, servers, strict=True)
    )
    path = tmp_path / "providers.yaml"
    path.write_text(
        f"default: {names[0]}\nfallbacks: [{', '.join(names)}]\nretry: {{max_wait_s: 0.01}}\n{extra}providers:\n{providers}",
        encoding="utf-8",
    )
    return path


@pytest.fixture
def servers(make_fake_server: Callable[[], FakeOpenAIServer], monkeypatch: pytest.MonkeyPatch) -> list[FakeOpenAIServer]:
    monkeypatch.setenv("ROUTER_REL_LIB_KEY", KEY)
    monkeypatch.delenv("ROUTER_PROVIDER", raising=False)
    return [make_fake_server(), make_fake_server()]


def asked(server: FakeOpenAIServer) -> list[dict[str, Any]]:
    return [r.body for r in server.requests if r.body is not None]


def completion(message: dict[str, Any], finish: str) -> dict[str, Any]:
    return {"id": "c", "object": "chat.completion", "created": 1, "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}}  # fmt: skip


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip


# --- item 12: tool-call ids reused across turns (Kimi numbers its calls per turn) -----------------


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two numbers."""
    return a * b


KIMI = {False: "TestOpenAICompatibleCommon__groq-kimi-k2__multi_tool",
        True: "TestOpenAICompatibleCommon__groq-kimi-k2__multi_tool_streaming"}  # fmt: skip


def _second_turn(replay: Replay) -> Replay:
    """The recorded turn again with other numbers: Kimi names the calls functions.add:0 / functions.multiply:1 again."""
    text = json.dumps({"body": replay.body, "sse": replay.sse}).replace('\\"a\\":2,\\"b\\":3', '\\"a\\":4,\\"b\\":5')
    data = json.loads(text)
    return Replay(body=data["body"], sse=tuple(data["sse"]) if data["sse"] else None)


@pytest.mark.parametrize("streamed", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("client", CLIENTS)
def test_tool_call_ids_reused_across_turns_keep_the_loop_going(
    client: str, streamed: bool, servers: list[FakeOpenAIServer], tmp_path: Path
) -> None:
    first = servers[0]
    recorded = cassette(KIMI[streamed])
    first.enqueue(recorded, _second_turn(recorded), Text("2+3=5, 2*3=6, 4+5=9, 4*5=20"))
    router = Router.from_yaml(write_config(tmp_path, servers[:1], client), registry=ToolRegistry([add, multiply]))
    answer = router.ask("add and multiply 2 and 3, then 4 and 5", mode="react", stream=streamed)

    assert answer.text == "2+3=5, 2*3=6, 4+5=9, 4*5=20"
    assert [(r.call_id, r.result) for r in answer.tool_records] == [
        ("functions.add:0", "5"), ("functions.multiply:1", "6"), ("functions.add:0", "9"), ("functions.multiply:1", "20"),
    ]  # fmt: skip
    sent = asked(first)[-1]["messages"]
    pairs = [(m["role"], m.get("tool_call_id") or [c["id"] for c in m.get("tool_calls") or []]) for m in sent[2:]]
    assert pairs == [
        ("assistant", ["functions.add:0", "functions.multiply:1"]), ("tool", "functions.add:0"), ("tool", "functions.multiply:1"),
        ("assistant", ["functions.add:0", "functions.multiply:1"]), ("tool", "functions.add:0"), ("tool", "functions.multiply:1"),
    ]  # fmt: skip
    assert [m["content"] for m in sent if m["role"] == "tool"] == ["5", "6", "9", "20"]


def test_gateway_accepts_a_history_with_ids_reused_across_turns(servers: list[FakeOpenAIServer], tmp_path: Path) -> None:
    def turn(a: int) -> list[dict[str, Any]]:
        call = {"id": "functions.add:0", "type": "function", "function": {"name": "add", "arguments": f'{{"a":{a},"b":1}}'}}
        return [{"role": "assistant", "content": "", "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "functions.add:0", "content": str(a + 1)}]  # fmt: skip

    history = [{"role": "user", "content": "add 1 to 1, then to 2"}, *turn(1), *turn(2)]
    servers[0].enqueue(Text("2 and 3"))
    router = Router.from_yaml(write_config(tmp_path, servers[:1], "openai"))
    from router.aio import run_sync

    answer = run_sync(router.achat(history))
    assert answer.text == "2 and 3"
    assert asked(servers[0])[0]["messages"] == history


# --- item 13: content_filter ------------------------------------------------------------------------


FILTERED_EMPTY = Replay(body=completion({"content": None}, "content_filter"),
                        sse=(chunk({"role": "assistant"}), chunk({}, "content_filter")))  # fmt: skip
FILTERED_PARTIAL = Replay(body=completion({"content": "Here is how to"}, "content_filter"),
                          sse=(chunk({"content": "Here is "}), chunk({"content": "how to"}), chunk({}, "content_filter")))  # fmt: skip


@pytest.mark.parametrize("streamed", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("client", CLIENTS)
def test_a_reply_the_content_filter_emptied_says_so_and_is_not_retried(
    client: str, streamed: bool, servers: list[FakeOpenAIServer], tmp_path: Path
) -> None:
    servers[0].enqueue(FILTERED_EMPTY, FILTERED_EMPTY)
    router = Router.from_yaml(write_config(tmp_path, servers, client))
    answer = router.ask("tell me something", mode="cot", stream=streamed)
    assert answer.finish_reason == "content_filter"
    assert any("content filter" in w for w in answer.warnings), answer.warnings
    assert [a.ok for a in answer.attempts] == [True] and len(servers[0].requests) == 1 and not servers[1].requests
    assert not any("empty reply" in (a.error or "") for a in answer.attempts)

    servers[0].enqueue(FILTERED_EMPTY)
    react = router.ask("tell me something", mode="react", stream=streamed)
    assert react.finish_reason == "content_filter" and "content filter" in react.text


@pytest.mark.parametrize("streamed", [False, True], ids=["json", "stream"])
def test_on_content_filter_fallback_asks_the_next_provider(streamed: bool, servers: list[FakeOpenAIServer], tmp_path: Path) -> None:
    servers[0].enqueue(FILTERED_EMPTY)
    servers[1].enqueue(Text("the fallback's answer"))
    config = write_config(tmp_path, servers, "openai", extra="")
    config.write_text(config.read_text().replace("retry: {max_wait_s: 0.01}", "retry: {max_wait_s: 0.01, on_content_filter: fallback}"))
    answer = Router.from_yaml(config).ask("tell me something", mode="cot", stream=streamed)
    assert answer.text == "the fallback's answer" and answer.provider == "p1"
    assert len(servers[0].requests) == 1, "a filtered reply is never retried on the same model"
    assert "content filter blocked" in (answer.attempts[0].error or "")


@pytest.mark.parametrize("mode", ["cot", "react", "direct"])
@pytest.mark.parametrize("client", CLIENTS)
def test_a_stream_the_filter_cut_is_never_a_complete_answer(
    client: str, mode: str, servers: list[FakeOpenAIServer], tmp_path: Path
) -> None:
    servers[0].enqueue(FILTERED_PARTIAL)
    router = Router.from_yaml(write_config(tmp_path, servers[:1], client))
    shown: list[str] = []
    sink = lambda e: shown.append(e.text) if isinstance(e, TextEvent) else None  # noqa: E731
    if mode == "direct":
        from router.aio import run_sync

        answer = run_sync(router.achat([{"role": "user", "content": "how do I"}], stream=True, on_event=sink))
    else:
        answer = router.ask("how do I", mode=mode, stream=True, on_event=sink)
    assert answer.text.startswith("Here is how to")
    assert answer.finish_reason == "content_filter"
    assert any("content filter" in w for w in answer.warnings), answer.warnings
    if mode == "react":
        assert "content filter" in answer.text and "content filter" in "".join(shown)


# --- item 18: an upstream echoing the Authorization header ------------------------------------------------


@pytest.mark.parametrize("size", [1, 3, 7, 50])
@pytest.mark.parametrize("streamed", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("client", CLIENTS)
def test_a_key_echoed_into_the_reply_never_reaches_the_caller(
    client: str, streamed: bool, size: int, servers: list[FakeOpenAIServer], tmp_path: Path
) -> None:
    servers[0].enqueue(EchoAuthorization(chunk_size=size))
    router = Router.from_yaml(write_config(tmp_path, servers[:1], client))
    shown: list[str] = []
    answer = router.ask("hi", mode="cot", stream=streamed, on_event=lambda e: shown.append(e.text) if isinstance(e, TextEvent) else None)
    assert servers[0].requests[0].headers["authorization"] == f"Bearer {KEY}", "the key did go upstream"
    assert answer.text == "You sent: Bearer ***"
    assert KEY not in json.dumps(answer.to_dict())
    if streamed:
        assert "".join(shown) == "You sent: Bearer ***"
        fragments = {KEY[i : i + 4] for i in range(len(KEY) - 3)}
        assert not any(f in piece for piece in shown for f in fragments), shown  # not even a piece of it


# --- item 16: hung sync tools ----------------------------------------------------------------------------


@pytest.mark.timeout(120)
def test_one_hung_sync_tool_does_not_take_the_other_tools_down(servers: list[FakeOpenAIServer], tmp_path: Path) -> None:
    import threading

    from fake_openai_server import ToolCalls

    release = threading.Event()

    @tool(timeout_s=0.05)
    def lookup(key: str) -> str:
        """A lookup whose backend hangs."""
        release.wait(60)
        return key

    hung = tuple(("lookup", json.dumps({"key": f"k{i}"})) for i in range(70))  # more than the old 64-thread pool
    servers[0].enqueue(ToolCalls(hung), ToolCalls((("add", '{"a": 2, "b": 3}'),)), Text("done"))
    config = write_config(tmp_path, servers[:1], "openai", extra="loop: {max_calls_per_turn: 100}\n")
    router = Router.from_yaml(config, registry=ToolRegistry([lookup, add]))
    try:
        answer = router.ask("look up 70 keys, then add 2 and 3", mode="react")
        records = answer.tool_records
        assert [r.tool for r in records] == ["lookup"] * 70 + ["add"]
        assert records[-1].ok and records[-1].result == "5", records[-1]
        errors = [r.error or "" for r in records[:70]]
        assert errors.count("timed out after 0.05 s") == 32, "no tool holds more than a quarter of the pool"
        assert errors[32:] == ["tool lookup already has 32 calls running; not started"] * 38

        # the next request in the process: the hung tool is refused at once, the others run
        servers[0].enqueue(ToolCalls((("lookup", '{"key": "again"}'), ("add", '{"a": 4, "b": 5}'))), Text("still fine"))
        again = router.ask("look up again and add 4 and 5", mode="react")
        refused, added = again.tool_records
        assert "still running past their timeout" in (refused.error or "") and refused.duration_s < 0.05
        assert added.ok and added.result == "9"
    finally:
        release.set()


# --- item 17: config and .env reads bounded by the bytes actually read -------------------------------------


def _cli(cwd: Path, **env: str) -> tuple[int, list[str]]:
    """``python -m router`` in a child with 1.5 GB of address space and 20 s: an unbounded read fails the test, not the machine."""
    import os
    import resource
    import subprocess
    import sys

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))

    child_env = {k: v for k, v in os.environ.items() if k not in ("ROUTER_CONFIG", "ROUTER_PROVIDER")}
    child_env.update(env, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    result = subprocess.run([sys.executable, "-m", "router", "--provider", "mock", "hi"], cwd=cwd, env=child_env,
                            capture_output=True, text=True, timeout=20, preexec_fn=limits, check=False)  # fmt: skip
    return result.returncode, result.stderr.strip().splitlines()


@pytest.mark.parametrize("kind", ["device", "fifo", "directory"])
def test_a_config_that_is_not_a_regular_file_is_refused_in_one_line(kind: str, tmp_path: Path) -> None:
    import os

    if kind == "device":
        target = "/dev/zero"  # st_size 0, endless bytes
    elif kind == "fifo":
        target = str(tmp_path / "providers.fifo")
        os.mkfifo(target)  # no writer: reading it would wait forever
    else:
        target = str(tmp_path)
    code, lines = _cli(tmp_path, ROUTER_CONFIG=target)
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith(f"router: error: {target}: the config file is a") and "not a regular file" in lines[0]


def test_a_huge_dotenv_is_refused_without_reading_it(tmp_path: Path) -> None:
    with open(tmp_path / ".env", "wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # sparse: 200 MB to read, nothing on disk
    code, lines = _cli(tmp_path)
    assert code == 2 and len(lines) == 1, lines
    assert f"{tmp_path / '.env'}: .env is larger than 1,000,000 bytes" in lines[0]


def test_a_dotenv_fifo_is_refused_and_a_virtualenv_named_dotenv_is_ignored(tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / ".env")
    code, lines = _cli(tmp_path)
    assert code == 2 and "a FIFO (named pipe), not a regular file" in lines[0], lines
    os.unlink(tmp_path / ".env")
    (tmp_path / ".env").mkdir()  # `python -m venv .env`
    code, lines = _cli(tmp_path)
    assert code == 0, lines


# --- item 21: Router(sleep=...) ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["plain", "coroutine", "returns-awaitable"])
def test_router_sleep_may_be_a_plain_or_a_coroutine_function(kind: str, servers: list[FakeOpenAIServer], tmp_path: Path) -> None:
    import asyncio

    from fake_openai_server import RateLimited

    waits: list[float] = []

    async def coroutine(seconds: float) -> None:
        waits.append(seconds)

    def returns_awaitable(seconds: float) -> Any:
        waits.append(seconds)
        return asyncio.sleep(0)

    sleep = {"plain": waits.append, "coroutine": coroutine, "returns-awaitable": returns_awaitable}[kind]
    servers[0].enqueue(RateLimited(retry_after=0.01), Text("after the wait"))
    config = write_config(tmp_path, servers[:1], "openai").read_text().replace("max_wait_s: 0.01", "max_wait_s: 5")
    (tmp_path / "providers.yaml").write_text(config)
    router = Router.from_yaml(tmp_path / "providers.yaml", sleep=sleep)
    assert router.ask("hi", mode="cot").text == "after the wait"
    assert waits == [0.01]


def test_router_sleep_that_is_no_function_is_refused_at_construction(tmp_path: Path, servers: list[FakeOpenAIServer]) -> None:
    from router.errors import UsageError

    with pytest.raises(UsageError) as caught:
        Router.from_yaml(write_config(tmp_path, servers[:1], "openai"), sleep=0.5)
    assert str(caught.value) == "Router(sleep=...) takes a function of the seconds to wait, got float"


# --- item 22: install hints that name the checkout, not an unrelated PyPI package -------------------------


def test_serve_without_the_server_extra_names_the_checkout_install() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['starlette'] = None\n"  # as if the server extra were not installed
        "from router.server.cli import main\n"
        "sys.exit(main([]))\n"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 2
    assert out.stderr == 'router serve: error: starlette is not installed: run pip install -e ".[server]" in the router checkout\n'


# --- item 23: the suite says what it skipped and why ---------------------------------------------------------


def test_the_suite_ends_with_what_it_skipped_and_why(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    (tmp_path / "test_needs_redis.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.parametrize('n', range(3))\n"
        "def test_store(n):\n"
        "    pytest.skip('redis-server is not installed (apt-get install redis-server)')\n\n"
        "def test_plain():\n"
        "    assert True\n",
        encoding="utf-8",
    )
    tests = str(Path(__file__).resolve().parent)
    env = {**os.environ, "PYTHONPATH": tests}
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "skip_summary", "-p", "no:cacheprovider", "-q", str(tmp_path)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert out.returncode == 0, out.stdout
    tail = out.stdout[out.stdout.index("3 test(s) SKIPPED: they did not run") :]
    assert "    3 x redis-server is not installed (apt-get install redis-server)" in tail
    assert "-> install Debian's redis-server" in tail


# --- item 13 over HTTP: the server passes the filter on ---------------------------------------------------


@pytest.mark.parametrize("mode", [None, "cot"])
@pytest.mark.parametrize("streamed", [False, True], ids=["json", "stream"])
def test_the_server_says_a_reply_was_filtered(
    mode: str | None, streamed: bool, fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from openai import OpenAI
    from server_harness import SERVER_KEY, UPSTREAM_KEY_ENV, ServerThread, upstream_config

    from router.config import ServerSettings
    from router.server.app import create_app
    from router.server.auth import KeyCheck

    monkeypatch.setenv(UPSTREAM_KEY_ENV, "sk-upstream-test")
    fake_server.enqueue(FILTERED_PARTIAL if streamed else FILTERED_EMPTY)
    app = create_app(Router(upstream_config(fake_server.base_url)), ServerSettings(), keys=KeyCheck([SERVER_KEY.encode()]))
    server = ServerThread(app).start()
    try:
        client = OpenAI(base_url=server.url + "/v1", api_key=SERVER_KEY, max_retries=0)
        extra = {"extra_body": {"mode": mode}} if mode else {}
        messages = [{"role": "user", "content": "how do I"}]
        if streamed:
            chunks = list(client.chat.completions.create(model="fake", messages=messages, stream=True, **extra))
            finish = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
            assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices).startswith("Here is how to")
        else:
            completion = client.chat.completions.create(model="fake", messages=messages, **extra)
            finish = [completion.choices[0].finish_reason]
        assert finish == ["content_filter"]
        assert len(fake_server.requests) == 1
    finally:
        server.stop()


# --- item 12 over HTTP: the gateway takes a history whose ids repeat across turns -----------------------


def test_the_server_accepts_tool_call_ids_reused_across_turns(fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from openai import OpenAI
    from server_harness import SERVER_KEY, UPSTREAM_KEY_ENV, ServerThread, upstream_config

    from router.config import ServerSettings
    from router.server.app import create_app
    from router.server.auth import KeyCheck

    monkeypatch.setenv(UPSTREAM_KEY_ENV, "sk-upstream-test")
    recorded = cassette(KIMI[False])
    fake_server.enqueue(_second_turn(recorded), Text("9 and 20"))
    first_turn = recorded.body["choices"][0]["message"]
    history: list[Any] = [{"role": "user", "content": "add and multiply 2 and 3, then 4 and 5"}, first_turn,
                          *({"role": "tool", "tool_call_id": c["id"], "content": r} for c, r in zip(first_turn["tool_calls"], "56", strict=True))]  # fmt: skip
    app = create_app(Router(upstream_config(fake_server.base_url)), ServerSettings(), keys=KeyCheck([SERVER_KEY.encode()]))
    server = ServerThread(app).start()
    try:
        client = OpenAI(base_url=server.url + "/v1", api_key=SERVER_KEY, max_retries=0)
        tools = [{"type": "function", "function": {"name": n, "parameters": {"type": "object", "properties": {}}}} for n in ("add", "multiply")]
        second = client.chat.completions.create(model="fake", messages=history, tools=tools).choices[0].message
        assert [c.id for c in second.tool_calls or ()] == ["functions.add:0", "functions.multiply:1"]
        history += [second.model_dump(exclude_none=True),
                    *({"role": "tool", "tool_call_id": c.id, "content": r} for c, r in zip(second.tool_calls or (), ["9", "20"], strict=True))]  # fmt: skip
        final = client.chat.completions.create(model="fake", messages=history, tools=tools)
        assert final.choices[0].message.content == "9 and 20"
        sent = fake_server.requests[-1].body["messages"]
        assert [m.get("tool_call_id") for m in sent if m["role"] == "tool"] == ["functions.add:0", "functions.multiply:1"] * 2
    finally:
        server.stop()


@pytest.mark.parametrize("client", CLIENTS)
def test_a_key_echoed_into_streamed_tool_arguments_is_masked_in_every_fragment(client: str, fake_server: FakeOpenAIServer) -> None:
    import asyncio

    arguments = json.dumps({"header": f"Bearer {KEY}"})
    pieces = [arguments[i : i + 5] for i in range(0, len(arguments), 5)]
    first = {"index": 0, "id": "c1", "type": "function", "function": {"name": "echo", "arguments": ""}}
    sse = (chunk({"tool_calls": [first]}), *(chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]}) for p in pieces),
           chunk({}, "tool_calls"))  # fmt: skip
    fake_server.enqueue(Replay(sse=sse))
    if client == "openai":
        from router.clients.openai import OpenAIClient

        llm: Any = OpenAIClient(base_url=fake_server.base_url, api_key=KEY, model="m", provider="fake")
    else:
        from router.clients.litellm import LiteLLMClient

        llm = LiteLLMClient(model="m", api_key=KEY, base_url=fake_server.base_url, provider="fake")

    async def events() -> list[Any]:
        try:
            return [event async for event in llm.astream([{"role": "user", "content": "x"}])]
        finally:
            await llm.aclose()

    got = asyncio.run(events())
    fragments = [e.text for e in got if e.kind == "tool_call"]
    assert "".join(fragments) == json.dumps({"header": "Bearer ***"})
    assert got[0].kind == "tool_call" and (got[0].tool_call_id, got[0].name) == ("c1", "echo")
    pieces_of_key = {KEY[i : i + 4] for i in range(len(KEY) - 3)}
    assert not any(p in f for f in fragments for p in pieces_of_key), fragments
    (made,) = got[-1].response.message.tool_calls
    assert made.arguments == json.dumps({"header": "Bearer ***"})
