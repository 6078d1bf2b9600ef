"""StreamAssembler against hand-written chunk sequences (no network)."""

from __future__ import annotations

from typing import Any

from router.clients.streaming import StreamAssembler
from router.types import StreamEvent, ToolCall, Usage


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, usage: dict[str, int] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"model": "m-1", "choices": [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]}
    if usage is not None:
        data["usage"] = usage
    return data


def frag(index: int | None = None, id: str | None = None, name: str | None = None, args: str | None = None) -> dict[str, Any]:
    fragment: dict[str, Any] = {"function": {"name": name, "arguments": args}}
    if index is not None:
        fragment["index"] = index
    if id is not None:
        fragment["id"] = id
    return {"tool_calls": [fragment]}


def feed(*chunks: dict[str, Any]) -> tuple[StreamAssembler, list[StreamEvent]]:
    assembler = StreamAssembler(provider="p", model="configured")
    events: list[StreamEvent] = []
    for item in chunks:
        events.extend(assembler.add_chunk(item))
    return assembler, events


def test_text_deltas_are_joined_and_usage_comes_from_the_last_chunk() -> None:
    assembler, events = feed(
        chunk({"role": "assistant", "content": ""}),
        chunk({"content": "Hel"}),
        chunk({"content": "lo"}),
        chunk({}, finish="stop"),
        chunk(None, usage={"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}),
    )
    response = assembler.response(latency_s=0.5)
    assert [e.text for e in events] == ["Hel", "lo"]
    assert all(e.kind == "text" for e in events)
    assert response.message.content == "Hello"
    assert response.message.tool_calls == ()
    assert response.finish_reason == "stop"
    assert response.usage == Usage(3, 2, 5)
    assert (response.provider, response.model, response.latency_s) == ("p", "m-1", 0.5)
    assert assembler.finished


def test_tool_call_fragments_merge_by_index_with_empty_names_later() -> None:
    assembler, events = feed(
        chunk(frag(0, "call_a", "get_weather", "")),
        chunk(frag(0, None, "", '{"ci')),
        chunk(frag(0, None, None, 'ty": "Par')),
        chunk(frag(0, None, "", 'is"}')),
        chunk({}, finish="tool_calls"),
    )
    message = assembler.message()
    assert message.tool_calls == (ToolCall("call_a", "get_weather", '{"city": "Paris"}'),)
    assert message.content == ""
    tool_events = [e for e in events if e.kind == "tool_call"]
    assert [e.text for e in tool_events] == ["", '{"ci', 'ty": "Par', 'is"}']
    assert {(e.index, e.tool_call_id, e.name) for e in tool_events} == {(0, "call_a", "get_weather")}


def test_parallel_calls_interleaved_with_text_and_reasoning() -> None:
    assembler, events = feed(
        chunk({"reasoning_content": "Two cities, "}),
        chunk(frag(0, "c0", "get_weather", '{"city":')),
        chunk({"content": "Checking "}),
        chunk(frag(1, "c1", "get_weather", '{"city":')),
        chunk({"reasoning_content": "two calls."}),
        chunk(frag(0, None, "", ' "Oslo"}')),
        chunk({"content": "both."}),
        chunk(frag(1, None, "", ' "Rome"}')),
        chunk({}, finish="tool_calls"),
    )
    message = assembler.message()
    assert message.tool_calls == (
        ToolCall("c0", "get_weather", '{"city": "Oslo"}'),
        ToolCall("c1", "get_weather", '{"city": "Rome"}'),
    )
    assert message.content == "Checking both."
    assert message.reasoning_content == "Two cities, two calls."
    assert [e.kind for e in events] == ["reasoning", "tool_call", "text", "tool_call", "reasoning", "tool_call", "text", "tool_call"]


def test_missing_index_falls_back_to_id_then_to_the_last_open_call() -> None:
    assembler, _ = feed(
        chunk(frag(None, "a", "first", '{"x"')),
        chunk(frag(None, "b", "second", '{"y"')),
        chunk(frag(None, "a", None, ": 1}")),  # by id
        chunk(frag(None, None, None, ": 2")),  # no index, no id: the last open call (b)
        chunk(frag(None, None, "", "}")),
        chunk({}, finish="tool_calls"),
    )
    assert assembler.message().tool_calls == (
        ToolCall("a", "first", '{"x": 1}'),
        ToolCall("b", "second", '{"y": 2}'),
    )


def test_reused_index_with_a_new_id_starts_a_new_call() -> None:
    assembler, events = feed(
        chunk(frag(0, "a", "f", '{"n": 1}')),
        chunk(frag(0, "b", "g", '{"n":')),
        chunk(frag(0, None, None, " 2}")),
        chunk({}, finish="tool_calls"),
    )
    assert assembler.message().tool_calls == (ToolCall("a", "f", '{"n": 1}'), ToolCall("b", "g", '{"n": 2}'))
    assert [e.index for e in events] == [0, 1, 1]


def test_first_name_wins_and_missing_ids_and_arguments_are_filled() -> None:
    assembler, _ = feed(
        chunk(frag(0, None, "list_files", None)),
        chunk(frag(0, None, "list_files", "")),  # some servers repeat the name
        chunk(frag(1, "c1", "now", None)),
        chunk({}, finish="tool_calls"),
    )
    first, second = assembler.message().tool_calls
    assert (first.name, first.arguments) == ("list_files", "{}")
    assert first.id.startswith("call_") and len(first.id) > 10
    assert second == ToolCall("c1", "now", "{}")
    again, _ = feed(chunk(frag(0, None, "list_files", None)), chunk({}, finish="tool_calls"))
    assert again.message().tool_calls[0].id != first.id, "generated ids must be unique across replies"


def test_sdk_objects_with_extras_are_read_like_dicts() -> None:
    from openai.types.chat import ChatCompletionChunk

    sdk_chunk = ChatCompletionChunk.model_validate(
        {
            "id": "x",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "deepseek-reasoner",
            "choices": [{"index": 0, "delta": {"reasoning_content": "hmm", "content": "ok"}, "finish_reason": "stop"}],
        }
    )
    assembler, events = feed(sdk_chunk)  # type: ignore[arg-type]
    assert [(e.kind, e.text) for e in events] == [("reasoning", "hmm"), ("text", "ok")]
    assert assembler.response().message.reasoning_content == "hmm"
    assert assembler.response().model == "deepseek-reasoner"


def test_a_stream_without_finish_reason_is_not_finished() -> None:
    assembler, _ = feed(chunk({"content": "half an ans"}))
    assert not assembler.finished
    assert assembler.has_content


def test_done_event_carries_the_response_and_other_choices_are_ignored() -> None:
    assembler, events = feed(
        {"choices": [{"index": 1, "delta": {"content": "other"}}, {"index": 0, "delta": {"content": "mine"}, "finish_reason": "length"}]}
    )
    done = assembler.done_event(latency_s=1.0)
    assert [e.text for e in events] == ["mine"]
    assert done.kind == "done" and done.response is not None
    assert done.response.message.content == "mine"
    assert done.response.finish_reason == "length"


def test_cumulative_fragments_emit_only_what_is_new() -> None:
    assembler, events = feed(
        chunk(frag(0, "c1", "calc", '{"e"')),
        chunk(frag(0, None, None, '{"e": "1+1"')),
        chunk(frag(0, None, None, '{"e": "1+1"}')),
        chunk({}, finish="tool_calls"),
    )
    assert "".join(e.text for e in events) == '{"e": "1+1"}'
    assert assembler.response().message.tool_calls == (ToolCall("c1", "calc", '{"e": "1+1"}'),)


def test_object_arguments_and_a_provider_field_on_the_call() -> None:
    fragment = {"index": 0, "id": "g1", "function": {"name": "calc", "arguments": {"e": "1+1"}}, "extra_content": {"k": "v"}}
    assembler, _ = feed(chunk({"tool_calls": [fragment]}), chunk({}, finish="tool_calls"))
    (made,) = assembler.response().message.tool_calls
    assert (made.arguments, dict(made.extra)) == ('{"e":"1+1"}', {"extra_content": {"k": "v"}})
    assert made.to_dict()["extra_content"] == {"k": "v"}


def test_truncating_finish_reason_is_an_error() -> None:
    import pytest

    from router.errors import TruncatedResponseError

    assembler, _ = feed(chunk({"content": "half an ans"}), chunk({}, finish="insufficient_system_resource"))
    with pytest.raises(TruncatedResponseError):
        assembler.response()
