"""``/v1/responses`` with the openai SDK's ``client.responses`` against ``router serve``.

Upstream is the scripted OpenAI-compatible FakeOpenAIServer. Every JSON body and every
streamed event is validated against OpenAI's published Responses schemas
(tests/data/openai_responses_schemas.json, via tests/dialect_checks.py); on the upstream
side the chain rules are checked on what really arrived. ``previous_response_id`` is
followed across two gateway processes that share one real redis-server.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from dialect_checks import chain_ok, check_responses, responses_sse
from fake_openai_server import CutStream, FakeOpenAIServer, RawChunks, Text, ToolCalls
from pydantic import BaseModel
from server_harness import SERVER_KEY, UPSTREAM_KEY_ENV, ServerThread, free_port

AUTH = {"Authorization": f"Bearer {SERVER_KEY}"}
WEATHER = {"type": "function", "name": "get_weather", "description": "The weather in a city.", "strict": True,
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
                          "additionalProperties": False}}


@pytest.fixture
def server(serve_gateway: Callable[..., ServerThread]) -> ServerThread:
    return serve_gateway()


def client(server: ServerThread) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.url + "/v1", api_key=SERVER_KEY, max_retries=0)


def post(server: ServerThread, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(server.url + "/v1/responses", json=body, headers=AUTH, timeout=10)


def upstream(fake: FakeOpenAIServer) -> list[dict[str, Any]]:
    messages = fake.last_body["messages"]
    chain_ok(messages)
    return messages


# --- plain and streamed ------------------------------------------------------------------


def test_plain_response_matches_the_published_schema(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("Hello there", usage=(12, 3)))
    raw = client(server).responses.with_raw_response.create(model="auto", input="hi", instructions="Be brief.",
                                                            temperature=0.4, max_output_tokens=64)
    response = raw.parse()
    assert response.output_text == "Hello there" and response.status == "completed"
    assert response.model == "fake/fake-model" and response.id.startswith("resp_")
    assert response.usage is not None and (response.usage.input_tokens, response.usage.output_tokens) == (12, 3)
    body = check_responses("response", json.loads(raw.http_response.content))
    assert body["instructions"] == "Be brief." and body["router"]["provider"] == "fake"
    assert raw.headers["x-router-provider"] == "fake"
    sent = fake_server.last_body
    assert sent["messages"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]
    assert (sent["temperature"], sent["max_tokens"]) == (0.4, 64)


def test_stream_events_match_the_schema_and_arrive_piece_by_piece(server: ServerThread,
                                                                   fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("streamed answer", chunk_size=3))
    with client(server).responses.stream(model="auto", input="hi") as stream:
        deltas = [e.delta for e in stream if e.type == "response.output_text.delta"]
        final = stream.get_final_response()
    assert len(deltas) > 3 and "".join(deltas) == "streamed answer" and final.output_text == "streamed answer"

    fake_server.enqueue(Text("raw events", chunk_size=4, reasoning="Let me think."))
    events = responses_sse(post(server, {"model": "auto", "input": "hi", "stream": True}).content)
    kinds = [e["type"] for e in events]
    assert kinds[:2] == ["response.created", "response.in_progress"] and kinds[-1] == "response.completed"
    for needed in ("response.output_item.added", "response.content_part.added", "response.output_text.delta",
                   "response.output_text.done", "response.content_part.done", "response.output_item.done",
                   "response.reasoning_text.delta"):
        assert needed in kinds, needed
    output = events[-1]["response"]["output"]
    assert [o["type"] for o in output] == ["reasoning", "message"]
    assert output[0]["content"][0]["text"] == "Let me think." and output[1]["content"][0]["text"] == "raw events"
    added = [e["item"]["id"] for e in events if e["type"] == "response.output_item.added"]
    assert added == [o["id"] for o in output]  # the same item ids from first delta to the end


def test_async_client(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    import asyncio

    fake_server.enqueue(Text("async answer"))

    async def main() -> str:
        async with openai.AsyncOpenAI(base_url=server.url + "/v1", api_key=SERVER_KEY, max_retries=0) as aclient:
            return (await aclient.responses.create(model="auto", input="hi")).output_text

    assert asyncio.run(main()) == "async answer"


# --- function calls: the client runs its own tools -------------------------------------------


def test_function_call_round_trip_streams_arguments_and_keeps_the_chain(server: ServerThread,
                                                                        fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ToolCalls((("get_weather", '{"city": "Paris"}'),), chunk_size=3, id_prefix="call_up_"),
                        Text("Sunny in Paris."))
    sdk = client(server)
    with sdk.responses.stream(model="auto", input="weather in Paris?", tools=[WEATHER]) as stream:  # type: ignore[list-item]
        pieces = [e.delta for e in stream if e.type == "response.function_call_arguments.delta"]
        first = stream.get_final_response()
    assert len(pieces) >= 3 and "".join(pieces) == '{"city": "Paris"}'
    [call] = [o for o in first.output if o.type == "function_call"]
    assert (call.call_id, call.name, call.arguments) == ("call_up_0", "get_weather", '{"city": "Paris"}')
    assert fake_server.bodies[0]["tools"][0]["function"]["strict"] is True

    result = f"sunny in {json.loads(call.arguments)['city']}"  # the client's own tool
    second = sdk.responses.create(model="auto", tools=[WEATHER], store=False, input=[  # type: ignore[list-item]
        {"role": "user", "content": "weather in Paris?"},
        {"type": "function_call", "call_id": call.call_id, "name": call.name, "arguments": call.arguments},
        {"type": "function_call_output", "call_id": call.call_id, "output": result}])
    assert second.output_text == "Sunny in Paris."
    sent = upstream(fake_server)
    assert sent[1]["tool_calls"][0] == {"id": "call_up_0", "type": "function",
                                        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
    assert sent[2] == {"role": "tool", "tool_call_id": "call_up_0", "content": "sunny in Paris"}


def test_parallel_call_outputs_reach_the_upstream_in_call_order(server: ServerThread,
                                                                fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ToolCalls((("get_weather", '{"city": "Oslo"}'), ("get_weather", '{"city": "Rome"}'))),
                        Text("Cold and warm."))
    sdk = client(server)
    first = sdk.responses.create(model="auto", input="Oslo and Rome?", tools=[WEATHER])  # type: ignore[list-item]
    calls = [o for o in first.output if o.type == "function_call"]
    assert [c.call_id for c in calls] == ["call_0", "call_1"]
    outputs = [{"type": "function_call_output", "call_id": c.call_id, "output": f"r{n}"} for n, c in enumerate(calls)]
    second = sdk.responses.create(model="auto", previous_response_id=first.id, tools=[WEATHER],  # type: ignore[list-item]
                                  input=list(reversed(outputs)))
    assert second.output_text == "Cold and warm."
    sent = upstream(fake_server)
    assert [(m["role"], m.get("tool_call_id")) for m in sent] == [
        ("user", None), ("assistant", None), ("tool", "call_0"), ("tool", "call_1")]


def test_structured_output_with_text_format(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    class City(BaseModel):
        name: str
        population: int

    fake_server.enqueue(Text('{"name": "Oslo", "population": 709000}'))
    parsed = client(server).responses.parse(model="auto", input="Oslo facts", text_format=City)
    assert parsed.output_parsed == City(name="Oslo", population=709000)
    form = fake_server.last_body["response_format"]
    assert form["type"] == "json_schema" and form["json_schema"]["name"] == "City"
    assert form["json_schema"]["schema"]["properties"]["population"]["type"] == "integer"


def test_reasoning_items_go_back_as_reasoning_content(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(RawChunks((
        {"reasoning_content": "Need the tool."},
        {"tool_calls": [{"index": 0, "id": "call_r", "type": "function",
                         "function": {"name": "get_weather", "arguments": '{"city": "Rome"}'}}]},
    ), finish_reason="tool_calls", message={
        "role": "assistant", "content": None, "reasoning_content": "Need the tool.",
        "tool_calls": [{"id": "call_r", "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Rome"}'}}]}), Text("Warm."))
    sdk = client(server)
    first = sdk.responses.create(model="auto", input="Rome?", tools=[WEATHER], reasoning={"effort": "high"})  # type: ignore[list-item]
    assert fake_server.last_body["reasoning_effort"] == "high"  # passed through
    assert [o.type for o in first.output] == ["reasoning", "function_call"]
    items = [o.model_dump(exclude_none=True) for o in first.output]
    second = sdk.responses.create(model="auto", tools=[WEATHER], store=False, input=[  # type: ignore[list-item]
        {"role": "user", "content": "Rome?"}, *items,
        {"type": "function_call_output", "call_id": "call_r", "output": "warm"}])
    assert second.output_text == "Warm."
    sent = upstream(fake_server)
    assert sent[1]["reasoning_content"] == "Need the tool." and sent[1]["tool_calls"][0]["id"] == "call_r"


# --- stored responses ----------------------------------------------------------------------


def test_store_previous_response_get_and_delete(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("My name is Router."), Text("You asked my name."))
    sdk = client(server)
    first = sdk.responses.create(model="auto", input="what is your name?", instructions="Answer in English.")
    second = sdk.responses.create(model="auto", input="what did I ask?", previous_response_id=first.id)
    assert second.output_text == "You asked my name." and second.previous_response_id == first.id
    assert [m["role"] for m in fake_server.last_body["messages"]] == ["user", "assistant", "user"]  # no instructions
    got = httpx.get(f"{server.url}/v1/responses/{second.id}", headers=AUTH)
    assert got.status_code == 200 and check_responses("response", got.json())["id"] == second.id
    assert sdk.responses.retrieve(first.id).output_text == "My name is Router."
    sdk.responses.delete(first.id)
    with pytest.raises(openai.NotFoundError):
        sdk.responses.retrieve(first.id)
    with pytest.raises(openai.BadRequestError) as caught:
        sdk.responses.create(model="auto", input="again?", previous_response_id=first.id)
    assert caught.value.code == "previous_response_not_found"
    fake_server.enqueue(Text("not kept"))
    unstored = sdk.responses.create(model="auto", input="x", store=False)
    with pytest.raises(openai.NotFoundError):
        sdk.responses.retrieve(unstored.id)


def _config(tmp_path: Path, base_url: str, redis_url: str) -> str:
    path = tmp_path / "providers.yaml"
    path.write_text(f"""default: fake
state: {{redis_url: "{redis_url}", key_prefix: "router-responses-test:"}}
providers:
  fake:
    client: openai
    base_url: {base_url}
    api_key_env: {UPSTREAM_KEY_ENV}
    max_retries: 0
    models: [{{id: fake-model, default: true}}]
""")
    return str(path)


def _gateway(config: str, port: int) -> subprocess.Popen[str]:
    root = str(Path(__file__).parent.parent)  # this checkout's router, whatever is installed
    env = {**os.environ, UPSTREAM_KEY_ENV: "sk-upstream-test",
           "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    return subprocess.Popen([sys.executable, str(Path(__file__).parent / "serve_app.py"), config, str(port)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _up(url: str, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read() if process.stderr else "gateway exited"
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)
    raise AssertionError("gateway did not come up")


def test_previous_response_id_across_two_gateway_processes_sharing_redis(
        tmp_path: Path, fake_server: FakeOpenAIServer, redis_server: Any) -> None:
    config = _config(tmp_path, fake_server.base_url, redis_server.url)
    ports = [free_port(), free_port()]
    processes = [_gateway(config, port) for port in ports]
    try:
        urls = [f"http://127.0.0.1:{port}" for port in ports]
        for url, process in zip(urls, processes, strict=True):
            _up(url, process)
        one, two = (openai.OpenAI(base_url=url + "/v1", api_key=SERVER_KEY, max_retries=0) for url in urls)
        fake_server.enqueue(ToolCalls((("get_weather", '{"city":  "Lima"}'),)), Text("Lima is mild."))
        first = one.responses.create(model="auto", input="Lima?", tools=[WEATHER])  # type: ignore[list-item]
        [call] = [o for o in first.output if o.type == "function_call"]
        second = two.responses.create(model="auto", previous_response_id=first.id, tools=[WEATHER], input=[  # type: ignore[list-item]
            {"type": "function_call_output", "call_id": call.call_id, "output": "mild"}])
        assert second.output_text == "Lima is mild."
        sent = upstream(fake_server)
        assert sent[1]["tool_calls"][0]["function"]["arguments"] == '{"city":  "Lima"}'  # the provider's string, unchanged
        assert one.responses.retrieve(second.id).output_text == "Lima is mild."  # and back on the first process
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


# --- errors ----------------------------------------------------------------------------------


def test_caller_mistakes_are_4xx_in_openai_shape(server: ServerThread) -> None:
    cases = [
        ({"model": "auto", "input": "x", "temprature": 1}, "temprature"),
        ({"model": "auto", "input": "x", "tools": [{"type": "web_search"}]}, "tools[0].type"),
        ({"model": "auto", "input": [{"type": "function_call_output", "call_id": "c9", "output": "?"}]}, "c9"),
        ({"model": "auto", "input": "x", "background": True}, "background"),
        ({"model": "auto", "input": [{"role": "user", "content": [{"type": "input_audio"}]}]}, "input[0].content[0]"),
    ]
    for body, named in cases:
        reply = post(server, body)
        assert reply.status_code == 400, (body, reply.text)
        error = check_responses("error", reply.json())["error"]
        assert named in error["message"], error
    missing = post(server, {"model": "nosuch/model", "input": "x"})
    assert missing.status_code == 404 and check_responses("error", missing.json())["error"]["code"] == "model_not_found"


def test_cut_answers_and_broken_streams_are_never_complete(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("cut of", finish_reason="length"))
    cut = check_responses("response", post(server, {"model": "auto", "input": "x", "max_output_tokens": 2}).json())
    assert cut["status"] == "incomplete" and cut["incomplete_details"] == {"reason": "max_output_tokens"}
    fake_server.enqueue(Text("cut streamed", chunk_size=3, finish_reason="length"))
    events = responses_sse(post(server, {"model": "auto", "input": "x", "stream": True}).content)
    assert events[-1]["type"] == "response.incomplete"

    fake_server.enqueue(CutStream(Text("this answer breaks in the middle", chunk_size=3), after_chunks=4),
                        *[CutStream(Text("again cut", chunk_size=2), after_chunks=2)] * 4)
    events = responses_sse(post(server, {"model": "auto", "input": "x", "stream": True}).content)
    kinds = [e["type"] for e in events]
    assert kinds[-2:] == ["error", "response.failed"] and "response.completed" not in kinds
    assert events[-1]["response"]["status"] == "failed"


def test_models_list_is_openai_shape(server: ServerThread) -> None:
    ids = [m.id for m in client(server).models.list()]
    assert ids[0] == "auto" and "fake/fake-model" in ids


def test_mode_extension_answers_with_the_router_modes(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("Step by step: 4."))
    raw = client(server).responses.with_raw_response.create(model="auto", input="what is 2+2?",
                                                            extra_body={"mode": "cot"})
    assert raw.parse().output_text == "Step by step: 4."
    assert json.loads(raw.http_response.content)["router"]["mode"] == "cot"


def test_wrong_key_is_401(server: ServerThread) -> None:
    with pytest.raises(openai.AuthenticationError):
        openai.OpenAI(base_url=server.url + "/v1", api_key="sk-wrong", max_retries=0).responses.create(
            model="auto", input="x")




def test_the_readme_example_runs_against_the_server(server: ServerThread, fake_server: FakeOpenAIServer,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import re

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    [block] = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "responses.create(" in b]
    fake_server.enqueue(Text("101"), Text("103"))
    exec(block.replace("http://127.0.0.1:8000", server.url).replace("sk-my-gateway-key", SERVER_KEY), {})
    assert capsys.readouterr().out.strip() == "103"
    assert [m["content"] for m in fake_server.last_body["messages"]] == [
        "Name a prime above 100.", "101", "And the next one?"]


def test_fallbacks_are_the_pipelines(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    from fake_openai_server import ServerError

    fake_server.enqueue(ServerError(500), Text("from the fallback"))
    response = client(server).responses.create(model="auto", input="x")
    assert response.model == "other/other-model" and response.output_text == "from the fallback"
