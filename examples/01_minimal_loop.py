"""Step 1: the minimal function-calling loop, offline.

MockLLM plays the model: it asks for the calculator, sees the result, answers.
The loop appends the assistant message with its tool_calls unchanged and one
tool message per call, then asks again until the model stops asking for tools.
"""

from router import MockLLM, ToolRegistry, run_tools

result = run_tools(
    MockLLM(),
    [{"role": "user", "content": "帮我计算 365*24 等于多少"}],
    ToolRegistry.default(),
)
for message in result.messages:
    print(message["role"], "|", message.get("content") or message.get("tool_calls"))
print("answer:", result.answer)
print("stopped:", result.stopped_reason, "| steps:", result.steps)
