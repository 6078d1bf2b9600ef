"""Name matching with thousands of aliases, all measured in one run.

Prints the median time of ``route_model`` per question with the shipped providers.yaml
(about 30 names) and with 3,000 extra aliases, and their ratio (target: <= 2x, i.e. the
cost does not grow with the number of aliases). For contrast it also times the
v0.1.0 matcher shape on the same 3,000 names: one flat alternation with lookarounds
on every alternative, which the regex engine tries one by one at every position, and
prints the worst time of route_model over a few hostile 100-300 KB inputs.

    python bench/routing_names.py [--aliases 3000] [--rounds 30]
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from pathlib import Path

from router.config import RouterConfig, parse_config
from router.routing.names import _table, route_model

REPO = Path(__file__).resolve().parents[1]

QUESTIONS = [
    "用 kimi 回答：什么是量子计算",
    "kimi 帮我查下明天上海的天气",
    "What does GPT stand for?",
    "ask openai gpt-4.1-mini what a monad is",
    "用千问的 qwen-turbo 模型回答",
    "Is Kimi better than ChatGPT?",
    "今天北京天气怎么样",
    "Please summarise the following text in three bullet points. " * 8,
    "请把下面这段话翻译成英文，并解释其中的成语。" * 6,
    "ask crowd0042 to explain this",
]


def crowd_config(base_text: str, count: int) -> RouterConfig:
    """The shipped config plus one provider with ``count`` aliases (half Latin, half Chinese)."""
    latin = [f"crowd{i:04d}" for i in range(count // 2)]
    chinese = [f"众{i:04d}号" for i in range(count - count // 2)]
    extra = "\n  crowd:\n    client: mock\n    aliases: [" + ", ".join(latin + chinese) + "]\n    models: [{id: crowd-model}]\n"
    return parse_config(base_text + extra, "crowd.yaml")


def per_question_us(config: RouterConfig, rounds: int) -> float:
    route_model("warm up", config)
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for question in QUESTIONS:
            route_model(question, config)
        samples.append((time.perf_counter() - start) / len(QUESTIONS) * 1e6)
    return statistics.median(samples)


def flat_matcher(config: RouterConfig) -> re.Pattern[str]:
    """The v0.1.0 shape: one alternative per name, each with its own lookarounds."""
    names = sorted(_table(config).names, key=lambda n: (-len(n), n))
    parts = [re.escape(n) if re.search(r"[\u3400-\u9fff]", n) else rf"(?<![a-z0-9_\-/.]){re.escape(n)}(?![a-z0-9_]|-[a-z0-9])"
             for n in names]
    return re.compile("|".join(parts), re.I)


def matcher_us(pattern: re.Pattern[str], rounds: int, fold: bool) -> float:
    texts = [q.lower() for q in QUESTIONS] if fold else QUESTIONS
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for text in texts:
            list(pattern.finditer(text))
        samples.append((time.perf_counter() - start) / len(texts) * 1e6)
    return statistics.median(samples)


HOSTILE = {
    "100 KB of spaces after a name": "kimi" + " " * 100_000 + "x",
    "100 KB of newlines between names": "kimi\n" * 20_000,
    "a 100 KB dashed version tail": "use gpt" + "-1" * 50_000 + "_",
    "20,000 compared names": "use kimi or " * 20_000,
    "30,000 Chinese names": "用千问的" * 30_000,
    "a 100 KB path after provider/": "use local/" + "a:" * 50_000,
}


def hostile_worst_ms() -> tuple[str, float]:
    config = parse_config((REPO / "providers.yaml").read_text(encoding="utf-8"), "providers.yaml")
    worst = ("", 0.0)
    for label, text in HOSTILE.items():
        start = time.perf_counter()
        route_model(text, config)
        elapsed = (time.perf_counter() - start) * 1e3
        worst = max(worst, (label, elapsed), key=lambda item: item[1])
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--aliases", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    text = (REPO / "providers.yaml").read_text(encoding="utf-8")
    small = parse_config(text, "providers.yaml")
    big = crowd_config(text, args.aliases)
    start = time.perf_counter()
    _table(big)
    build_ms = (time.perf_counter() - start) * 1e3
    assert route_model("ask crowd0042 to explain this", big).provider == "crowd"
    small_us = per_question_us(small, args.rounds)
    big_us = per_question_us(big, args.rounds)
    ratio = big_us / small_us
    print(f"questions: {len(QUESTIONS)}, rounds: {args.rounds} (median per question)")
    print(f"names in the shipped config: {len(_table(small).names)}; with the crowd: {len(_table(big).names)}")
    print(f"route_model, shipped config:  {small_us:8.1f} us/question")
    print(f"route_model, +{args.aliases} aliases: {big_us:8.1f} us/question  (ratio {ratio:.2f}x; target <= 2x) "
          f"{'OK' if ratio <= 2 else 'MISSED'}")
    print(f"name table + matcher build, once per config: {build_ms:.1f} ms")
    flat = flat_matcher(big)
    trie_us = matcher_us(_table(big).matcher, args.rounds, fold=True)
    flat_us = matcher_us(flat, max(3, args.rounds // 10), fold=False)
    print(f"matcher only, {len(_table(big).names)} names: prefix tree {trie_us:.1f} us/question, "
          f"v0.1.0 flat alternation {flat_us:.1f} us/question ({flat_us / trie_us:.0f}x slower)")
    label, worst = hostile_worst_ms()
    print(f"hostile inputs (100-300 KB each): worst {worst:.0f} ms ({label}); target <= 500 ms "
          f"{'OK' if worst <= 500 else 'MISSED'}")


if __name__ == "__main__":
    main()
