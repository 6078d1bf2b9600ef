"""Step 5: the mode is chosen per question, locally, with no model call."""

from router import select_mode

for question in [
    "Prove that the sum of two even numbers is even.",
    "提取时间、人物、事项：下周二下午两点和王经理开会",
    "现在伦敦几点？",
    "What's 15% of 2,340?",
    "Compare three ways to learn Spanish and recommend one.",
]:
    choice = select_mode(question)
    print(f"{choice.mode:9s} {choice.confidence:.2f}  {question}  ({choice.reason})")
