"""Step 3: test your own tool and loop with a scripted model, no network, no tokens.

Write a tool with @tool (its schema comes from the type hints and docstring),
script the model's replies, and assert on what really happened.
"""

from router import ScriptedLLM, ToolRegistry, run_tools, text_response, tool, tool_call_response, validate_messages


@tool
def count_words(text: str) -> int:
    """Count the words in a text.

    Args:
        text: the text to count.
    """
    return len(text.split())


llm = ScriptedLLM([tool_call_response(("count_words", {"text": "the quick brown fox"})), text_response("4 words.")])
result = run_tools(llm, [{"role": "user", "content": "How many words in 'the quick brown fox'?"}], ToolRegistry([count_words]))

assert [r.result for r in result.tool_records] == ["4"], result.tool_records
assert all(not validate_messages(call.messages) for call in llm.calls)  # every request kept the protocol
print("schema:", count_words.schema["function"]["parameters"])
print("answer:", result.answer, "| grounded:", result.grounded)
