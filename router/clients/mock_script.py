"""What ``MockLLM`` says: the script of the offline demo, apart from the fake's plumbing.

Deterministic text from the request alone: the same messages always get the same
reply. Answers follow the question's language (``modes.prompts.detect_language``)
and start with ``[mock]``; tool calls are chosen the way the router itself spots a
plain tool need (``modes.pretools``), plus a keyword match on the names and
descriptions of a user's own tools.
"""

from __future__ import annotations

import json
import re
from typing import Any

from router.modes.prompts import PROMPTS, detect_language

# Pattern texts, compiled by ``re`` on first use (and cached there): a question with no tool
# offered never needs them, and the CLI's start-up should not pay for them.
_WEATHER = r"(?i)天气|气温|下雨|weather|rain|temperature|forecast"
_CALC = r"(?i)计算|等于|算一下|calculate|compute|what is [\d(]"
_EXPRESSION = r"[\d.()\s]+(?:\s*(?:\*\*|[-+*/×÷^%])\s*[\d.()\s]+)+"
_CITY_ZH = r"([\u4e00-\u9fff]{2,4}?)(?:今天|明天|现在|的)?(?:天气|气温)"
_CITY_EN = r"\b(?:in|at|for)\s+([A-Z][a-zA-Z]+(?:\s[A-Z][a-zA-Z]+)?)"
_ZH_NOISE = r"^(?:今天|明天|现在|请问|查一下|帮我查)"


def _guess_city(question: str) -> str:
    match = re.search(_CITY_ZH, question)
    if match:
        return re.sub(_ZH_NOISE, "", match.group(1)) or "北京"
    match = re.search(_CITY_EN, question)
    return match.group(1) if match else "北京"


def _guess_expression(question: str) -> str:
    match = re.search(_EXPRESSION, question)
    if not match:
        return "1+1"
    return match.group(0).strip().replace("×", "*").replace("÷", "/").replace("^", "**")


_STOP = frozenset(
    "get set the and for with from into this that what when where which who how tool tools call run make info data "
    "current value values look lookup find give show return returns list about your you are is of to in on at by an".split()
)
_WORD = r"[a-z][a-z0-9]+"
_ID_TOKEN = r"\b[A-Za-z]*[-_#]?\d[\w-]*\b"
_NUMBER = r"-?\d+(?:\.\d+)?"
_QUOTED = r"[\"“'「]([^\"”'」]{1,200})[\"”'」]"
_PROPER = r"\b[A-Z][\w-]*(?:\s[A-Z][a-z][\w-]*)*"


def _content(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content or "")


def question_of(messages: list[dict[str, Any]]) -> str:
    """The user's question, with the modes' own wrapping (cot, tot templates) taken off."""
    user = next((_content(m) for m in reversed(messages) if m.get("role") == "user"), "")
    for prompts in PROMPTS.values():
        prefix = prompts.cot_user.split("{question}")[0]
        if user.startswith(prefix):
            return user[len(prefix):].strip()
        if user.startswith(prompts.tot_approaches_user.split("{n}")[0]) and "\n" in user:
            return user.split("\n", 1)[1].strip()  # "... {n} approaches ...:\n{question}"
        for label in ("问题：", "Problem: "):
            if user.startswith(label):
                return user[len(label):].split("\n\n", 1)[0].strip()
    return user.strip()


# -- tools ------------------------------------------------------------------------------


def _words(text: str) -> set[str]:
    return {w for w in re.findall(_WORD, text.lower()) if w not in _STOP and len(w) >= 3}


def _stem_hit(token: str, words: set[str]) -> bool:
    return any(w == token or (len(token) >= 5 and w.startswith(token[:5])) for w in words)


def _matches(question: str, name: str, description: str) -> bool:
    """The question names the tool (``order_status`` for "Where is order A-17?"), or two words of its description."""
    words = _words(question)
    name_tokens = _words(re.sub(r"([a-z])([A-Z])", r"\1 \2", name).replace("_", " "))
    if any(_stem_hit(token, words) for token in name_tokens):
        return True
    described = _words(description.split("\n\n", 1)[0])
    if sum(_stem_hit(token, words) for token in described) >= 2:
        return True
    bigrams = {description[i:i + 2] for i in range(len(description) - 1)}
    return sum(1 for b in bigrams if re.fullmatch(r"[\u4e00-\u9fff]{2}", b) and b in question) >= 2


def _argument(name: str, schema: dict[str, Any], question: str, numbers: list[str], names: list[str]) -> Any:
    kind = schema.get("type")
    if kind in ("integer", "number"):
        if not numbers:
            return 0
        raw = numbers.pop(0)
        return int(float(raw)) if kind == "integer" else float(raw)
    if kind == "boolean":
        return True
    if schema.get("enum"):
        return schema["enum"][0]
    if quoted := re.search(_QUOTED, question):
        return quoted.group(1)
    lowered = name.lower()
    if lowered.endswith("id") or any(k in lowered for k in ("number", "code", "sku", "ref")):
        if token := re.search(_ID_TOKEN, question):
            return token.group(0)
    if names:
        return names.pop(0)  # capitalised words in order: "100 USD in CNY" -> source USD, target CNY
    return question.strip()[:200]


def _arguments(function: dict[str, Any], question: str) -> dict[str, Any]:
    parameters = function.get("parameters") or {}
    properties: dict[str, Any] = parameters.get("properties") or {}
    required = list(parameters.get("required") or properties)
    numbers = re.findall(_NUMBER, question)
    names = [m.group(0) for m in re.finditer(_PROPER, question) if m.start() > 0]  # a sentence starts capitalised anyway
    return {
        name: _argument(name, properties.get(name) or {}, question, numbers, names) for name in required if name in properties
    }


def choose_call(question: str, tools: list[dict[str, Any]]) -> tuple[str, dict[str, Any]] | None:
    """The one call a question plainly asks for among the offered tools, else None."""
    functions = {t.get("function", {}).get("name"): t.get("function", {}) for t in tools}
    offered = frozenset(name for name in functions if name)
    if not offered or not question:
        return None
    from router.modes.pretools import recognise

    planned = recognise(question, offered)
    if planned is not None:
        return planned.tool, planned.arguments
    if "get_weather" in offered and re.search(_WEATHER, question):
        return "get_weather", {"city": _guess_city(question)}
    if "calculator" in offered and re.search(_CALC, question):
        return "calculator", {"expression": _guess_expression(question)}
    for name, function in functions.items():
        if name and name not in ("calculator", "get_weather", "get_current_time") and _matches(
            question, name, str(function.get("description") or "")
        ):
            return name, _arguments(function, question)
    return None


def _render(name: str, content: str, zh: bool) -> str:
    try:
        data: Any = json.loads(content)
    except ValueError:
        return content
    if not isinstance(data, dict):
        return json.dumps(data, ensure_ascii=False) if not isinstance(data, str) else data
    if "error" in data:
        return (f"{name} 出错：{data['error']}" if zh else f"{name} failed: {data['error']}")
    if name == "calculator" and "result" in data:
        return f"{data.get('expression', '')} = {data['result']}".strip(" =")
    if name == "get_current_time" and "time" in data:
        if zh:
            return f"{data.get('timezone', '')} 现在是 {data.get('date', '')} {data.get('weekday', '')} {data['time']}"
        return f"it is {data['time']} on {data.get('date', '')} in {data.get('timezone', '')}"
    sep = "，" if zh else ", "
    colon = "：" if zh else ": "
    return sep.join(f"{key}{colon}{value}" for key, value in data.items())


def answer_from_tools(messages: list[dict[str, Any]], question: str) -> str:
    """Reads the tool results after the last assistant turn, in the question's language."""
    zh = detect_language(question) == "zh"
    names: dict[str, str] = {}
    for message in messages:
        for call in message.get("tool_calls") or ():
            names[call.get("id", "")] = (call.get("function") or {}).get("name", "tool")
    results = []
    for message in reversed(messages):
        if message.get("role") != "tool":
            break
        results.append(_render(names.get(message.get("tool_call_id", ""), "tool"), _content(message), zh))
    joined = ("；" if zh else "; ").join(reversed(results))
    return f"根据工具结果：{joined}（[mock] 模拟模型的脚本回答）" if zh else f"[mock] From the tool results: {joined}."


# -- text answers -----------------------------------------------------------------------

_APPROACHES = {
    "zh": ["稳妥方案：用最成熟、最常见的做法，先保证可用，风险最低", "最快方案：先做一个最小可行版本，当天就能看到结果，之后再补",
           "长远方案：按以后的规模设计，前期投入更多，但后面改动最少", "外包方案：交给现成的服务或工具，自己只做集成",
           "试验方案：两种做法并行小范围试用，用数据决定", "渐进方案：分三步走，每一步都能单独交付",
           "保守方案：维持现状，只修最痛的问题", "激进方案：彻底重做，一次到位"],
    "en": ["The safe approach: use the most established, common practice first; lowest risk",
           "The fast approach: ship a minimal version today, improve it afterwards",
           "The long-term approach: design for the scale you expect later; more work up front, fewer changes after",
           "The outsourced approach: use an existing service or tool and only integrate it",
           "The experimental approach: trial two options side by side on a small scale and let data decide",
           "The incremental approach: three steps, each deliverable on its own",
           "The conservative approach: keep what exists and fix only the worst pain",
           "The radical approach: rebuild it properly in one go"],
}  # fmt: skip
_SCORES = (7, 6, 8, 5, 6, 7, 4, 5)


def _branches(text: str) -> int:
    match = re.search(r"(\d+)\s*(?:种|个|distinct)", text)
    return max(2, min(8, int(match.group(1)))) if match else 3


def tot_stage(messages: list[dict[str, Any]]) -> str | None:
    """The tree-of-thought stage this request is, answered as such; None when it is none."""
    system = next((_content(m) for m in messages if m.get("role") == "system"), "")
    user = next((_content(m) for m in reversed(messages) if m.get("role") == "user"), "")
    for language, prompts in PROMPTS.items():
        zh = language == "zh"
        n = _branches(user)
        names = _APPROACHES[language][:n]
        if system == prompts.tot_approaches_system:
            return "\n".join(f"{i}. {text}。" if zh else f"{i}. {text}." for i, text in enumerate(names, 1)) + (
                "\n（[mock] 模拟模型的脚本方案）" if zh else "\n([mock] scripted approaches)")
        if system == prompts.tot_scores_system:
            n = max(2, min(8, len(re.findall(r"^\d+\.", user, re.M)) or n))
            lines = [f"方案{i}：{_SCORES[i - 1]}/10，{_APPROACHES['zh'][i - 1].split('：')[0]}的取舍清楚。" if zh else
                     f"Approach {i}: {_SCORES[i - 1]}/10, {_APPROACHES['en'][i - 1].split(':')[0].lower()} has a clear trade-off."
                     for i in range(1, n + 1)]  # fmt: skip
            return "\n".join(lines)
        if system == prompts.tot_choice_system:
            n = max(2, min(8, len(re.findall(r"^\d+\.", user, re.M)) or n))
            best = max(range(n), key=lambda i: _SCORES[i])
            title = _APPROACHES[language][best].split("：" if zh else ":")[0]
            if zh:
                return (f"[mock] 选择方案{best + 1}（{title}，{_SCORES[best]}/10）：得分最高。步骤：1. 明确目标；"
                        "2. 按该方案做第一版；3. 评估后再调整。（模拟模型的脚本决策）")
            return (f"[mock] Choose approach {best + 1} ({title}, {_SCORES[best]}/10): it scored highest. Steps: "
                    "1. state the goal; 2. build the first version that way; 3. review and adjust. (scripted decision)")
    return None


def plain_answer(question: str) -> str:
    shown = " ".join(question.split())[:200]
    if detect_language(question) == "zh":
        return f"[mock] 这是模拟模型的脚本回答（scripted mock answer），不是真实模型的回答。你的问题是：{shown}"
    return f"[mock] This is a scripted mock answer, not a real model's. Your question was: {shown}"


__all__ = ["answer_from_tools", "choose_call", "plain_answer", "question_of", "tot_stage"]
