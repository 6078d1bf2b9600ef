"""What the loop itself says to a model, and the notes it adds to an answer.

Every instruction of ours starts with ``[router]`` so that, should a model quote
one back, ``without_own_instructions`` can keep it out of the answer.
"""

from __future__ import annotations

import re

from router.loop.text_react import FINAL_NOW

CUT_TOOL_CALL = (
    "[router] Your last reply was cut off by the output length limit while writing a tool call, so the call "
    "was NOT executed. Call the tool again with shorter arguments, or answer directly."
)
CONTINUE = "[router] Your answer was cut off by the length limit. Continue exactly where you stopped, without repeating."
FINAL_PROMPTS = {
    "max_steps": "[router] The tool step limit ({max_steps}) has been reached. Do not call tools. Give your best final "
    "answer from what is known so far.",
    "planned": "[router] The tool result above answers the question. Do not call tools. Reply with 'Final Answer:' "
    "and the answer, using that result.",
    "repeated_calls": "[router] You keep repeating the same tool call and already have its result. Do not call tools. "
    "Give your final answer now from the results above.",
}
NOTES = {
    "max_steps": "[注意 / note: stopped at the tool step limit ({max_steps}) while the model still wanted tools; "
    "this answer was cut short and may be incomplete]",
    "repeated_calls": "[注意 / note: stopped because the model kept repeating the same tool call]",
    "length": "[注意 / note: the answer was cut off by the length limit]",
    "content_filter": "[注意 / note: the provider's content filter stopped this answer; it is incomplete or missing]",
}
_OWN_LINES = re.compile(r"^[^\n]*\[router\][^\n]*(?:\n|$)", re.MULTILINE)


_OWN_TEXTS = tuple(text.replace("[router] ", "") for text in (CUT_TOOL_CALL, CONTINUE, *FINAL_PROMPTS.values(), FINAL_NOW))


def without_own_instructions(text: str) -> str:
    """A model sometimes quotes our "[router] ..." instructions back (a small one without the tag,
    sentence by sentence); they never reach the user."""
    if "[router]" in text:
        text = _OWN_LINES.sub("", text).strip()
    kept = [line for line in text.split("\n") if not _quotes_us(line)]
    return "\n".join(kept).strip() if len(kept) != text.count("\n") + 1 else text


def _quotes_us(line: str) -> bool:
    """A line that is only (a run of sentences of) one of our instructions."""
    plain = line.strip()
    return len(plain) >= 20 and any(plain in instruction for instruction in _OWN_TEXTS)


__all__ = ["CONTINUE", "CUT_TOOL_CALL", "FINAL_PROMPTS", "NOTES", "without_own_instructions"]
