"""Conversation memory for the REPL: recent turns verbatim, older turns summarised.

Long histories cost tokens on every request and eventually overflow small context
windows, so once the history passes a budget the oldest turns are folded into one
summary message. Summarising is a model call that may fail; the fallback is an
extractive summary, so memory never blocks an answer.

Memory is also bounded by the answering model's context window: one very long
answer must not make every later question fail with a context error. A turn is
stored clipped to ``max_chars // 2`` characters per side, and ``history`` returns
only the newest turns (and the summary) that fit in ``HISTORY_SHARE`` of the
window after the question itself; the rest of the window is left for the system
prompt, tool schemas and the answer. Tokens are estimated without a tokenizer,
on the safe side: one token per non-ASCII character (CJK text is about one token
a character) and one per three ASCII characters (English is about four).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Summariser = Callable[[list[dict[str, Any]]], str]

HISTORY_SHARE = 0.5
"""Part of the context window that history plus the question may take."""
_CLIPPED = " [... clipped in the conversation memory]"


def estimate_tokens(text: str) -> int:
    """A conservative token count: non-ASCII characters count one each, ASCII ones a third."""
    ascii_chars = sum(1 for char in text if ord(char) < 128)
    return (len(text) - ascii_chars) + (ascii_chars + 2) // 3 + 4  # + per-message overhead


def _message_tokens(message: dict[str, Any]) -> int:
    return estimate_tokens(str(message.get("content") or ""))


class Conversation:
    def __init__(self, *, max_chars: int = 6000, keep_recent_turns: int = 3, summariser: Summariser | None = None) -> None:
        self.max_chars = max_chars
        self.keep_recent_turns = keep_recent_turns
        self.summariser = summariser
        self.summary: str | None = None
        self.turns: list[tuple[str, str]] = []
        self.summaries_made = 0

    def history(self, *, question: str = "", context_window: int | None = None) -> list[dict[str, Any]]:
        """Messages to put before the next question; with a ``context_window``, only what fits."""
        summary = (
            [{"role": "system", "content": f"Summary of the earlier conversation: {self.summary}"}] if self.summary else []
        )
        pairs = [
            [{"role": "user", "content": question_text}, {"role": "assistant", "content": answer}]
            for question_text, answer in self.turns
        ]
        if context_window is None:
            return summary + [message for pair in pairs for message in pair]
        budget = int(context_window * HISTORY_SHARE) - estimate_tokens(question)
        kept: list[list[dict[str, Any]]] = []
        for pair in reversed(pairs):  # newest first: the latest turns matter most
            cost = sum(_message_tokens(message) for message in pair)
            if cost > budget:
                break
            kept.insert(0, pair)
            budget -= cost
        if summary and _message_tokens(summary[0]) > budget:
            summary = []
        return summary + [message for pair in kept for message in pair]

    def add(self, question: str, answer: str) -> None:
        self.turns.append((self._clip(question), self._clip(answer)))
        if self._size() > self.max_chars and len(self.turns) > self.keep_recent_turns:
            self._compact()

    def _clip(self, text: str) -> str:
        limit = max(200, self.max_chars // 2)
        return text if len(text) <= limit else text[:limit] + _CLIPPED

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

__all__ = ["HISTORY_SHARE", "SUMMARY_PROMPT", "Conversation", "estimate_tokens"]
