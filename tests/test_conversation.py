"""REPL memory: recent turns verbatim, older ones folded into a summary, nothing lost on failure."""

from __future__ import annotations

from typing import Any

from router.conversation import Conversation


def test_short_history_is_kept_verbatim() -> None:
    memory = Conversation(max_chars=1000)
    memory.add("My name is Ada.", "Hi Ada!")
    assert memory.history() == [
        {"role": "user", "content": "My name is Ada."},
        {"role": "assistant", "content": "Hi Ada!"},
    ]


def test_long_history_is_summarised_by_the_model() -> None:
    seen: list[list[dict[str, Any]]] = []

    def summarise(messages: list[dict[str, Any]]) -> str:
        seen.append(messages)
        return "User is Ada; asked about weather."

    memory = Conversation(max_chars=200, keep_recent_turns=2, summariser=summarise)
    memory.add("My name is Ada.", "Hi Ada!")
    for i in range(4):
        memory.add(f"question {i} " + "x" * 40, f"answer {i} " + "y" * 40)
    history = memory.history()
    assert history[0] == {"role": "system", "content": "Summary of the earlier conversation: User is Ada; asked about weather."}
    assert [m["content"][:10] for m in history[1:]] == ["question 2", "answer 2 y", "question 3", "answer 3 y"]
    assert seen and seen[0][0] == {"role": "user", "content": "My name is Ada."}
    assert memory.summaries_made >= 1


def test_failed_summary_falls_back_to_extract_and_keeps_facts() -> None:
    def broken(_messages: list[dict[str, Any]]) -> str:
        raise RuntimeError("provider down")

    memory = Conversation(max_chars=120, keep_recent_turns=1, summariser=broken)
    memory.add("My name is Ada.", "Hi Ada!")
    memory.add("a" * 80, "b" * 80)
    memory.add("last question", "last answer")
    summary = memory.history()[0]["content"]
    assert "My name is Ada." in summary
    assert memory.history()[-2:] == [{"role": "user", "content": "last question"}, {"role": "assistant", "content": "last answer"}]
