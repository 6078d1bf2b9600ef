"""``/v1/messages`` with the official ``anthropic`` SDK (sync and async) against ``router serve``.

Upstream is the scripted OpenAI-compatible FakeOpenAIServer: what the gateway must get
right is the translation both ways. Every body and event is validated by the SDK's own
typed models (tests/dialect_checks.py); on the upstream side the chain rules are checked
on what really arrived.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import anthropic
import httpx
import pytest
from dialect_checks import (
    anthropic_sequence_ok,
    anthropic_sse,
    chain_ok,
    check_anthropic_error,
    check_anthropic_message,
)
from fake_openai_server import CutStream, FakeOpenAIServer, RawChunks, Replay, ServerError, Text, ToolCalls
from server_harness import SERVER_KEY, ServerThread

HEADERS = {"x-api-key": SERVER_KEY, "anthropic-version": "2023-06-01"}
HI = [{"role": "user", "content": "hi"}]
WEATHER = {"name": "get_weather", "description": "The weather in a city.",
           "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
TIME = {"name": "get_time", "description": "The time in a timezone.",
        "input_schema": {"type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]}}


@pytest.fixture
def server(serve_gateway: Callable[..., ServerThread]) -> ServerThread:
    return serve_gateway()


def client(server: ServerThread, **kwargs: Any) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=server.url, api_key=SERVER_KEY, max_retries=0, **kwargs)


def post(server: ServerThread, body: dict[str, Any], headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.post(server.url + "/v1/messages", json=body, headers=headers or HEADERS, timeout=10)


def upstream(fake: FakeOpenAIServer) -> list[dict[str, Any]]:
    messages = fake.last_body["messages"]
    chain_ok(messages)
    return messages


# --- plain and streamed ------------------------------------------------------------------


def test_sync_plain_message_is_a_valid_anthropic_message(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("Hello there", usage=(12, 3)))
    raw = client(server).messages.with_raw_response.create(model="auto", max_tokens=64, system="Be brief.",
                                                           messages=HI, extra_body={"temperature": 0.3})
    message = raw.parse()
    assert [b.type for b in message.content] == ["text"] and message.content[0].text == "Hello there"
    assert message.stop_reason == "end_turn" and message.model == "fake/fake-model"
    assert (message.usage.input_tokens, message.usage.output_tokens) == (12, 3)
    check_anthropic_message(json.loads(raw.http_response.content))
    assert raw.headers["anthropic-version"] == raw.http_request.headers["anthropic-version"] and raw.headers["x-router-provider"] == "fake"
    sent = fake_server.last_body
    assert sent["messages"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]
    assert (sent["max_tokens"], sent["temperature"]) == (64, 0.3)


def test_sync_stream_follows_anthropic_event_sequence(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("streamed answer", chunk_size=3, usage=(9, 4)))
    with client(server).messages.stream(model="auto", max_tokens=64, messages=HI) as stream:
        texts = list(stream.text_stream)
        final = stream.get_final_message()
    assert len(texts) > 3 and "".join(texts) == "streamed answer"  # piece by piece, not one lump
    assert final.content[0].text == "streamed answer" and final.stop_reason == "end_turn"
    assert final.usage.output_tokens == 4 and final.usage.input_tokens == 9

    fake_server.enqueue(Text("raw events", chunk_size=4))
    response = post(server, {"model": "auto", "max_tokens": 64, "messages": HI, "stream": True})
    assert response.headers["content-type"].startswith("text/event-stream")
    events = anthropic_sse(response.content)
    anthropic_sequence_ok(events)
    assert [e["type"] for e in events[:2]] == ["message_start", "ping"]
    assert "".join(e["delta"]["text"] for e in events if e["type"] == "content_block_delta") == "raw events"


def test_async_plain_and_stream(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("one"), Text("two streamed", chunk_size=2))

    async def main() -> tuple[str, str]:
        async with anthropic.AsyncAnthropic(base_url=server.url, api_key=SERVER_KEY, max_retries=0) as aclient:
            plain = await aclient.messages.create(model="auto", max_tokens=32, messages=HI)
            async with aclient.messages.stream(model="auto", max_tokens=32, messages=HI) as stream:
                pieces = [text async for text in stream.text_stream]
            return plain.content[0].text, "".join(pieces)  # type: ignore[union-attr]

    assert asyncio.run(main()) == ("one", "two streamed")


# --- tools: the client runs its own ----------------------------------------------------------


def _run_tool(name: str, arguments: dict[str, Any]) -> str:
    return {"get_weather": lambda a: f"sunny in {a['city']}", "get_time": lambda a: f"12:00 {a['tz']}"}[name](arguments)


def test_tool_use_round_trip_streams_arguments_and_keeps_the_chain(server: ServerThread,
                                                                    fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ToolCalls((("get_weather", '{"city": "Paris"}'),), chunk_size=3, id_prefix="call_up_"),
                        Text("It is sunny in Paris."))
    sdk = client(server)
    with sdk.messages.stream(model="auto", max_tokens=128, tools=[WEATHER], messages=[
            {"role": "user", "content": "weather in Paris?"}]) as stream:
        partials = [e.partial_json for e in stream if e.type == "input_json"]
        first = stream.get_final_message()
    assert len(partials) >= 3 and "".join(partials) == '{"city": "Paris"}'  # as the upstream wrote them
    [use] = first.content
    assert first.stop_reason == "tool_use" and use.type == "tool_use"
    assert (use.id, use.name, use.input) == ("call_up_0", "get_weather", {"city": "Paris"})

    result = _run_tool(use.name, use.input)  # the client's own tool
    second = sdk.messages.create(model="auto", max_tokens=128, tools=[WEATHER], messages=[
        {"role": "user", "content": "weather in Paris?"}, {"role": "assistant", "content": first.content},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": result}]}])
    assert second.content[0].text == "It is sunny in Paris." and second.stop_reason == "end_turn"
    sent = upstream(fake_server)
    assert sent[1]["tool_calls"][0]["id"] == "call_up_0"  # the id the upstream issued, unchanged
    assert sent[1]["tool_calls"][0]["function"]["arguments"] == '{"city": "Paris"}'  # its own string (rule 1)
    assert sent[2] == {"role": "tool", "tool_call_id": "call_up_0", "content": "sunny in Paris"}
    assert fake_server.bodies[0]["tools"][0]["function"]["parameters"] == WEATHER["input_schema"]


def test_two_tool_results_in_one_turn_reach_the_upstream_in_call_order(server: ServerThread,
                                                                         fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ToolCalls((("get_weather", '{"city": "Oslo"}'), ("get_time", '{"tz": "CET"}'))),
                        Text("Cold, and noon."))
    sdk = client(server)
    ask = {"role": "user", "content": "weather in Oslo and the time?"}
    first = sdk.messages.create(model="auto", max_tokens=128, tools=[WEATHER, TIME], messages=[ask])
    assert [b.type for b in first.content] == ["tool_use", "tool_use"]
    weather, clock = first.content
    results = [  # listed in the reverse order, with one marked as an error
        {"type": "tool_result", "tool_use_id": clock.id, "content": [{"type": "text", "text": "12:00"}]},
        {"type": "tool_result", "tool_use_id": weather.id, "content": "station offline", "is_error": True},
    ]
    second = sdk.messages.create(model="auto", max_tokens=128, tools=[WEATHER, TIME],
                                 messages=[ask, {"role": "assistant", "content": first.content},
                                           {"role": "user", "content": results}])
    assert second.content[0].text == "Cold, and noon."
    sent = upstream(fake_server)
    assert [m["role"] for m in sent] == ["user", "assistant", "tool", "tool"]
    assert [(m["tool_call_id"], m["content"]) for m in sent[2:]] == [
        (weather.id, "Error: station offline"), (clock.id, "12:00")]


def test_thinking_blocks_carry_reasoning_across_turns(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    """DeepSeek-style reasoning comes back as thinking blocks; sent back, it reaches the upstream as reasoning_content."""
    reasoning_then_call = RawChunks((
        {"reasoning_content": "The user wants weather; "}, {"reasoning_content": "call the tool."},
        {"tool_calls": [{"index": 0, "id": "call_r1", "type": "function",
                         "function": {"name": "get_weather", "arguments": '{"city":'}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": ' "Rome"}'}}]},
    ), finish_reason="tool_calls")
    fake_server.enqueue(reasoning_then_call, Text("Sunny in Rome.", reasoning="The tool said sunny."))
    sdk = client(server)
    ask = {"role": "user", "content": "weather in Rome?"}
    with sdk.messages.stream(model="auto", max_tokens=256, tools=[WEATHER], messages=[ask],
                             thinking={"type": "enabled", "budget_tokens": 1024}) as stream:
        kinds = [e.type for e in stream]
        first = stream.get_final_message()
    assert "thinking" in kinds and "signature" in kinds
    thinking, use = first.content
    assert thinking.type == "thinking" and thinking.thinking == "The user wants weather; call the tool."
    assert thinking.signature and use.type == "tool_use" and use.input == {"city": "Rome"}

    second = sdk.messages.create(model="auto", max_tokens=256, tools=[WEATHER],
                                 thinking={"type": "enabled", "budget_tokens": 1024}, messages=[
        ask, {"role": "assistant", "content": first.content},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "sunny"}]}])
    assert [b.type for b in second.content] == ["thinking", "text"]
    assert second.content[0].thinking == "The tool said sunny."  # type: ignore[union-attr]
    sent = upstream(fake_server)
    assert sent[1]["reasoning_content"] == "The user wants weather; call the tool."  # rule 1: echoed on the tool turn
    assert sent[1]["tool_calls"][0]["id"] == "call_r1"

    fake_server.enqueue(Text("You're welcome."))  # a third turn: the earlier reasoning stays in the client's history
    third = sdk.messages.create(model="auto", max_tokens=64, messages=[
        ask, {"role": "assistant", "content": first.content},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "sunny"}]},
        {"role": "assistant", "content": second.content}, {"role": "user", "content": "thanks"}])
    assert third.content[0].text == "You're welcome."  # type: ignore[union-attr]
    upstream(fake_server)


def test_a_streamed_tool_call_is_one_valid_block_sequence(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(ToolCalls((("get_weather", '{"city": "Lima"}'), ("get_time", '{"tz": "PET"}')),
                                  content="Checking.", chunk_size=4))
    response = post(server, {"model": "auto", "max_tokens": 64, "tools": [WEATHER, TIME], "stream": True,
                             "messages": [{"role": "user", "content": "Lima?"}]})
    events = anthropic_sse(response.content)
    anthropic_sequence_ok(events)
    starts = [e["content_block"] for e in events if e["type"] == "content_block_start"]
    assert [b["type"] for b in starts] == ["text", "tool_use", "tool_use"]
    assert [b["id"] for b in starts[1:]] == ["call_0", "call_1"]
    pieces: dict[int, str] = {}
    for e in events:
        if e["type"] == "content_block_delta" and e["delta"]["type"] == "input_json_delta":
            pieces[e["index"]] = pieces.get(e["index"], "") + e["delta"]["partial_json"]
    assert pieces == {1: '{"city": "Lima"}', 2: '{"tz": "PET"}'}
    [delta] = [e for e in events if e["type"] == "message_delta"]
    assert delta["delta"]["stop_reason"] == "tool_use"


# --- count_tokens, models, keys --------------------------------------------------------------


def test_count_tokens_estimates_and_refuses_what_messages_refuses(server: ServerThread) -> None:
    sdk = client(server)
    short = sdk.messages.count_tokens(model="auto", messages=HI)
    long = sdk.messages.count_tokens(model="auto", messages=[{"role": "user", "content": "hello " * 400}],
                                     tools=[WEATHER], system="You are terse.")
    assert 0 < short.input_tokens < long.input_tokens and long.input_tokens > 400
    with pytest.raises(anthropic.BadRequestError) as caught:
        sdk.messages.count_tokens(model="auto", messages=[{"role": "robot", "content": "x"}])  # type: ignore[typeddict-item]
    assert "messages[0].role" in str(caught.value)


def test_models_list_in_anthropic_shape(server: ServerThread) -> None:
    ids = [m.id for m in client(server).models.list()]
    assert ids[0] == "auto" and "fake/fake-model" in ids
    plain = httpx.get(server.url + "/v1/models", headers={"Authorization": f"Bearer {SERVER_KEY}"}).json()
    assert plain["object"] == "list"  # without anthropic-version: OpenAI's shape


def test_wrong_key_raises_authentication_error_sync_and_async(server: ServerThread) -> None:
    wrong = anthropic.Anthropic(base_url=server.url, api_key="sk-wrong", max_retries=0)
    with pytest.raises(anthropic.AuthenticationError) as caught:
        wrong.messages.create(model="auto", max_tokens=8, messages=HI)
    check_anthropic_error(caught.value.body)  # type: ignore[arg-type]

    async def main() -> None:
        async with anthropic.AsyncAnthropic(base_url=server.url, api_key="sk-wrong", max_retries=0) as aclient:
            await aclient.messages.create(model="auto", max_tokens=8, messages=HI)

    with pytest.raises(anthropic.AuthenticationError):
        asyncio.run(main())


def test_bearer_and_x_api_key_both_accepted(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("via bearer"), Text("via x-api-key"))
    bearer = anthropic.Anthropic(base_url=server.url, auth_token=SERVER_KEY, max_retries=0)
    assert bearer.messages.create(model="auto", max_tokens=8, messages=HI).content[0].text == "via bearer"  # type: ignore[union-attr]
    reply = post(server, {"model": "auto", "max_tokens": 8, "messages": HI}, {"x-api-key": SERVER_KEY,
                                                                              "anthropic-version": "2024-10-22"})
    assert reply.status_code == 200 and reply.headers["anthropic-version"] == "2024-10-22"


# --- errors in Anthropic's shape ---------------------------------------------------------


def test_caller_mistakes_are_4xx_in_anthropic_shape(server: ServerThread) -> None:
    cases = [
        ({"model": "auto", "messages": HI}, "max_tokens"),
        ({"model": "auto", "max_tokens": 8, "messages": HI, "temprature": 1}, "temprature"),
        ({"model": "auto", "max_tokens": 8, "messages": [
            {"role": "user", "content": "x"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]},
            {"role": "user", "content": "no result"}]}, "t1"),
        ({"model": "auto", "max_tokens": 8, "messages": [{"role": "user", "content": [{"type": "video"}]}]},
         "messages[0].content[0]"),
        ({"model": "auto", "max_tokens": 8, "tools": [{"type": "web_search_20250305", "name": "web_search"}],
          "messages": HI}, "tools[0].type"),
    ]
    for body, named in cases:
        reply = post(server, body)
        assert reply.status_code == 400, (body, reply.text)
        error = check_anthropic_error(reply.json())["error"]
        assert error["type"] == "invalid_request_error" and named in error["message"], error
    missing = post(server, {"model": "nosuch/model", "max_tokens": 8, "messages": HI})
    assert missing.status_code == 404 and check_anthropic_error(missing.json())["error"]["type"] == "not_found_error"
    with pytest.raises(anthropic.NotFoundError):
        client(server).messages.create(model="nosuch/model", max_tokens=8, messages=HI)


def test_upstream_failure_is_an_anthropic_error(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(*[ServerError(503)] * 6)
    reply = post(server, {"model": "auto", "max_tokens": 8, "messages": HI})
    assert reply.status_code >= 500
    assert check_anthropic_error(reply.json())["error"]["type"] in ("overloaded_error", "api_error")


def test_a_stream_broken_after_text_ends_with_an_error_event(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(CutStream(Text("this answer breaks in the middle", chunk_size=3), after_chunks=4),
                        *[CutStream(Text("again cut", chunk_size=2), after_chunks=2)] * 4)
    response = post(server, {"model": "auto", "max_tokens": 64, "messages": HI, "stream": True})
    events = anthropic_sse(response.content)
    assert events[-1]["type"] == "error" and "message_stop" not in [e["type"] for e in events]


# --- mapping details ---------------------------------------------------------------------


def test_parameters_reach_the_upstream_translated(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("ok"))
    reply = post(server, {
        "model": "fake/fake-model", "max_tokens": 50, "temperature": 0.5, "top_p": 0.9, "top_k": 40,
        "stop_sequences": ["END"], "metadata": {"user_id": "u-42"}, "tools": [WEATHER, TIME],
        "tool_choice": {"type": "tool", "name": "get_time", "disable_parallel_tool_use": True},
        "system": [{"type": "text", "text": "Rule one.", "cache_control": {"type": "ephemeral"}},
                   {"type": "text", "text": "Rule two."}],
        "messages": [{"role": "user", "content": [
            {"type": "text", "text": "what is in this picture?"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}]}],
    })
    assert reply.status_code == 200, reply.text
    sent = fake_server.last_body
    assert (sent["max_tokens"], sent["temperature"], sent["top_p"], sent["top_k"]) == (50, 0.5, 0.9, 40)
    assert sent["stop"] == ["END"] and sent["user"] == "u-42" and sent["parallel_tool_calls"] is False
    assert sent["tool_choice"] == {"type": "function", "function": {"name": "get_time"}}
    assert sent["messages"][0] == {"role": "system", "content": "Rule one.\n\nRule two."}
    assert sent["messages"][1]["content"][1] == {"type": "image_url",
                                                 "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
    for anthropic_choice, openai_choice in (({"type": "any"}, "required"), ({"type": "none"}, "none"),
                                            ({"type": "auto"}, "auto")):
        fake_server.enqueue(Text("ok"))
        post(server, {"model": "auto", "max_tokens": 8, "tools": [WEATHER], "tool_choice": anthropic_choice,
                      "messages": HI})
        assert fake_server.last_body["tool_choice"] == openai_choice


def test_stop_reasons_and_cache_usage(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    sdk = client(server)
    fake_server.enqueue(Text("cut of", finish_reason="length"))
    assert sdk.messages.create(model="auto", max_tokens=3, messages=HI).stop_reason == "max_tokens"
    fake_server.enqueue(RawChunks(({"refusal": "I can't help with that."},),
                                  message={"role": "assistant", "content": None, "refusal": "I can't help with that."}))
    refused = sdk.messages.create(model="auto", max_tokens=30, messages=HI)
    assert refused.stop_reason == "refusal" and refused.content[0].text == "I can't help with that."  # type: ignore[union-attr]
    cached = {"id": "c1", "object": "chat.completion", "created": 1, "model": "fake-model",
              "choices": [{"index": 0, "message": {"role": "assistant", "content": "cached"}, "finish_reason": "stop"}],
              "usage": {"prompt_tokens": 1000, "completion_tokens": 5, "total_tokens": 1005,
                        "prompt_tokens_details": {"cached_tokens": 900}}}
    fake_server.enqueue(Replay(body=cached))
    usage = sdk.messages.create(model="auto", max_tokens=30, messages=HI).usage
    assert (usage.input_tokens, usage.cache_read_input_tokens, usage.output_tokens) == (100, 900, 5)


def test_image_in_a_tool_result_follows_the_tool_message(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("a cat"))
    picture = {"type": "image", "source": {"type": "url", "url": "https://example.invalid/cat.png"}}
    reply = post(server, {"model": "auto", "max_tokens": 8, "tools": [WEATHER], "messages": [
        {"role": "user", "content": "screenshot?"},
        {"role": "assistant", "content": [{"type": "text", "text": "Taking it."},
                                          {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [picture]},
                                     {"type": "text", "text": "what is it?"}]}]})
    assert reply.status_code == 200, reply.text
    sent = upstream(fake_server)
    assert sent[1]["content"] == "Taking it." and sent[1]["tool_calls"][0]["function"]["arguments"] == "{}"
    assert sent[2]["role"] == "tool" and "image" in sent[2]["content"]
    assert sent[3]["role"] == "user" and sent[3]["content"][1] == {
        "type": "image_url", "image_url": {"url": "https://example.invalid/cat.png"}}
    assert sent[3]["content"][-1] == {"type": "text", "text": "what is it?"}


def test_mode_extension_answers_with_the_router_modes(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    fake_server.enqueue(Text("Step by step: 4."))
    message = client(server).messages.create(model="auto", max_tokens=64, messages=[
        {"role": "user", "content": "what is 2+2?"}], extra_body={"mode": "cot"})
    assert message.content[0].text == "Step by step: 4."  # type: ignore[union-attr]
    assert message.model_extra and message.model_extra["router"]["mode"] == "cot"


def test_the_readme_example_runs_against_the_server(server: ServerThread, fake_server: FakeOpenAIServer,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import re
    from pathlib import Path

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    [block] = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "anthropic.Anthropic(" in b]
    fake_server.enqueue(Text("Hello from the README."))
    exec(block.replace("http://127.0.0.1:8000", server.url).replace("sk-my-gateway-key", SERVER_KEY), {})
    assert capsys.readouterr().out.strip() == "fake/fake-model Hello from the README."


def test_provider_fields_and_strings_of_calls_go_back_unchanged(server: ServerThread,
                                                                 fake_server: FakeOpenAIServer) -> None:
    """A Gemini-style thought signature on a call and the provider's spacing survive the Anthropic round trip;
    a call the client changed goes as the client sent it."""
    signed = RawChunks(({"tool_calls": [{"index": 0, "id": "call_g1", "type": "function",
                                         "extra_content": {"google": {"thought_signature": "c2lnbmF0dXJl"}},
                                         "function": {"name": "get_weather", "arguments": '{ "city" : "Bern" }'}}]},),
                       finish_reason="tool_calls", message={
                           "role": "assistant", "content": None, "tool_calls": [{
                               "id": "call_g1", "type": "function",
                               "extra_content": {"google": {"thought_signature": "c2lnbmF0dXJl"}},
                               "function": {"name": "get_weather", "arguments": '{ "city" : "Bern" }'}}]})
    sdk = client(server)
    for edited in (False, True):
        fake_server.enqueue(signed, Text("done"))
        ask = {"role": "user", "content": "Bern?"}
        first = sdk.messages.create(model="auto", max_tokens=64, tools=[WEATHER], messages=[ask])
        content = [block.model_dump(exclude_none=True) for block in first.content]
        if edited:
            content[0]["input"] = {"city": "Basel"}
        sdk.messages.create(model="auto", max_tokens=64, tools=[WEATHER], messages=[
            ask, {"role": "assistant", "content": content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_g1", "content": "mild"}]}])
        [call] = upstream(fake_server)[1]["tool_calls"]
        if edited:
            assert call["function"]["arguments"] == '{"city":"Basel"}' and "extra_content" not in call
        else:
            assert call["function"]["arguments"] == '{ "city" : "Bern" }'
            assert call["extra_content"] == {"google": {"thought_signature": "c2lnbmF0dXJl"}}


def test_fallbacks_and_routing_are_the_pipelines(server: ServerThread, fake_server: FakeOpenAIServer) -> None:
    """A failing provider falls back to the next one, and provider/model picks one, as on chat completions."""
    fake_server.enqueue(ServerError(500), Text("from the fallback"))
    message = client(server).messages.create(model="auto", max_tokens=16, messages=HI)
    assert message.model == "other/other-model" and message.content[0].text == "from the fallback"  # type: ignore[union-attr]
    attempts = message.model_extra["router"]["attempts"]  # type: ignore[index]
    assert [(a["provider"], a["ok"]) for a in attempts] == [("fake", False), ("other", True)]
    fake_server.enqueue(Text("chosen"))
    assert client(server).messages.create(model="other/other-model", max_tokens=16, messages=HI).model == (
        "other/other-model")
