"""Step 4: every answer says which tools really ran; a react answer without tools is flagged."""

from router import Router, load_config

router = Router(load_config().with_default("mock"))

looked_up = router.ask("计算 123*456 等于多少", mode="react")
print("answer:", looked_up.text)
for record in looked_up.tool_records:
    print(f"  ran {record.tool}({record.arguments}) -> {record.result} error={record.error}")
print("grounded:", looked_up.grounded, "| warnings:", list(looked_up.warnings))

guessed = router.ask("hello there", mode="react")
print("answer:", guessed.text)
print("grounded:", guessed.grounded, "| warnings:", list(guessed.warnings))
