"""Conversation memory for the REPL: recent turns verbatim, older turns summarised.

Long histories cost tokens on every request and eventually overflow small context
windows, so once the history passes a budget the oldest turns are folded into one
summary message. Summarising is a model call that may fail; the fallback is an
extractive summary, so memory never blocks an answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Summariser = Callable[[list[dict[str, Any]]], str]


class Conversation:
    def __init__(self, *, max_chars: int = 6000, keep_recent_turns: int = 3, summariser: Summariser | None = None) -> None:
        self.max_chars = max_chars
        self.keep_recent_turns = keep_recent_turns
        self.summariser = summariser
        self.summary: str | None = None
        self.turns: list[tuple[str, str]] = []
        self.summaries_made = 0

    def history(self) -> list[dict[str, Any]]:
        """Messages to put before the next question."""
        messages: list[dict[str, Any]] = []
        if self.summary:
            messages.append({"role": "system", "content": f"Summary of the earlier conversation: {self.summary}"})
        for question, answer in self.turns:
            messages.append({"role": "user", "content": question})
            messages.append({"role": "assistant", "content": answer})
        return messages

    def add(self, question: str, answer: str) -> None:
        self.turns.append((question, answer))
        if self._size() > self.max_chars and len(self.turns) > self.keep_recent_turns:
            self._compact()

    def _size(self) -> int:
        return len(self.summary or "") + sum(len(q) + len(a) for q, a in self.turns)

    def _compact(self) -> None:
        old, self.turns = self.turns[: -self.keep_recent_turns], self.turns[-self.keep_recent_turns :]
        messages: list[dict[str, Any]] = []
        if self.summary:
            messages.append({"role": "system", "content": f"Earlier summary: {self.summary}"})
        for question, answer in old:
            messages += [{"role": "user", "content": question}, {"role": "assistant", "content": answer}]
        text = ""
        if self.summariser is not None:
            try:
                text = self.summariser(messages).strip()
            except Exception:  # a failed summary must never lose the conversation
                text = ""
        if not text:
            text = _extractive(self.summary, old)
        self.summary = text[: self.max_chars // 3]
        self.summaries_made += 1


def _extractive(previous: str | None, turns: list[tuple[str, str]]) -> str:
    parts = [previous] if previous else []
    parts += [f"Q: {q[:120]} A: {a[:200]}" for q, a in turns]
    return " | ".join(parts)


SUMMARY_PROMPT = (
    "Summarise the conversation below in a few sentences, keeping names, numbers, decisions and "
    "open questions. Answer in the conversation's language."
)

__all__ = ["SUMMARY_PROMPT", "Conversation"]
