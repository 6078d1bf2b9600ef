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


def test_one_long_answer_does_not_overflow_later_questions() -> None:
    from router.conversation import HISTORY_SHARE, estimate_tokens

    window = 4096
    memory = Conversation()
    memory.add("Write me a very long essay.", "word " * 50_000)
    for i in range(3):
        question = f"follow-up {i}"
        history = memory.history(question=question, context_window=window)
        used = sum(estimate_tokens(m["content"]) for m in history) + estimate_tokens(question)
        assert used <= window * HISTORY_SHARE
        memory.add(question, f"short answer {i}")
    history = memory.history(question="next", context_window=window)
    assert history[-2:] == [{"role": "user", "content": "follow-up 2"}, {"role": "assistant", "content": "short answer 2"}]


def test_a_long_answer_is_clipped_in_memory_and_says_so() -> None:
    memory = Conversation(max_chars=1000)
    memory.add("q", "x" * 10_000)
    stored = memory.history()[-1]["content"]
    assert len(stored) < 1000
    assert stored.endswith("clipped in the conversation memory]")


def test_newest_turns_are_kept_first_when_the_window_is_small() -> None:
    memory = Conversation(max_chars=100_000, keep_recent_turns=10)
    for i in range(10):
        memory.add(f"question {i} " + "a" * 300, f"answer {i} " + "b" * 300)
    history = memory.history(question="now", context_window=600)
    assert history and history[-1]["content"].startswith("answer 9")
    assert all(not m["content"].startswith("question 0") for m in history)


def test_cjk_text_is_counted_about_one_token_a_character() -> None:
    from router.conversation import estimate_tokens

    assert estimate_tokens("天气" * 100) >= 200
    assert estimate_tokens("a" * 300) <= 110
