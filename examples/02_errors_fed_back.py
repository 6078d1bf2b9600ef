"""Step 2: errors are fed back to the model instead of crashing the loop.

The scripted model first sends broken JSON, then calls a tool that does not
exist, then gets it right. Each mistake becomes the tool message's content, so
the model can correct itself; the tool is never run with {} after a bad parse.
"""

from router import ScriptedLLM, ToolRegistry, run_tools, text_response, tool_call_response

llm = ScriptedLLM(
    [
        tool_call_response(("calculator", '{"expression": "365*24"')),  # truncated JSON
        tool_call_response(("calculater", {"expression": "365*24"})),  # misspelt tool
        tool_call_response(("calculator", {"expression": "365*24"})),
        text_response("There are 8760 hours in a year."),
    ]
)
result = run_tools(llm, [{"role": "user", "content": "How many hours are in a year?"}], ToolRegistry.default())
for message in result.messages:
    if message["role"] == "tool":
        print("tool message:", message["content"])
print("answer:", result.answer)
print("records:", [(r.tool, r.error is None) for r in result.tool_records])
