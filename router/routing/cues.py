"""Is this mention of a model a request to use it, or only a topic?

Names appear as topics all the time ("What does GPT stand for?", "讲讲 deepseek 这家
公司", "is kimi better than chatgpt", "用千问还是 kimi"), so a name only routes when
it sits in a *request*: an imperative verb or an answer-giving preposition right
before it, an ``@``, the name addressed at the start ("Kimi, ...", "kimi 帮我查下...",
"Qwen please: ..."), or a counterfactual about its answer ("how would kimi answer",
"千问会怎么回答"). Comparisons never route: choosing between models is the user's
question, not an instruction.

These are general patterns over the words around the name, not a list of sentences:
English has inflection ("ChatGPT writes" describes, "ChatGPT, write" asks), Chinese
has none, so a bare Chinese verb after a name at the start only counts with a marker
of a request (帮我, 一下, a measure word, a colon) and never before 的/了/过.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# English cues placed right before the name. Strong verbs make a request on their own;
# weak prepositions ("with", "via", ...) only with an answering verb before them or a
# request-looking continuation after the name, because "what's wrong with ChatGPT" is a topic.
_EN_STRONG = r"(?:use|ask|tell|let|have|try|switch\s+to|change\s+to|route\s+(?:this\s+|it\s+)?to|send\s+(?:this\s+|it\s+)?to|pass\s+(?:this\s+|it\s+)?to|query|call\s+on|go\s+with)"
_EN_WEAK = r"(?:with|via|using|through|by|on|from)"
_EN_FILLER = r"(?:(?:the|a|an|model|provider|llm|assistant)\s+)*"
_EN_STRONG_BEFORE = re.compile(rf"(?:^|[^a-z0-9_-]){_EN_STRONG}\s+{_EN_FILLER}$", re.I)
_EN_WEAK_BEFORE = re.compile(rf"(?:^|[^a-z0-9_-]){_EN_WEAK}\s+{_EN_FILLER}$", re.I)
_EN_ANSWER_VERB = re.compile(
    r"\b(?:answer(?:ed)?|reply|replied|respond(?:ed)?|explain(?:ed)?|write|written|translate[d]?|solve[d]?|do|done|"
    r"generate[d]?|summari[sz]e[d]?|run|this|it|please)\s+(?:this\s+|it\s+|that\s+)?$",
    re.I,
)
# Before an English request verb: a question about whether to use it, not an instruction.
_EN_DELIBERATION = re.compile(
    r"\b(?:should|shall|would|do|does|did|whether|why|how|when|who|which|is|are|was|were|worth|better|cost|price)\b"
    r"[^.!?;:]*$",
    re.I,
)
# A subject right before the verb makes a statement ("I use chatgpt daily"), not an instruction.
_EN_SUBJECT = re.compile(
    r"\b(?:i|we|they|he|she|people|everyone|everybody|many|most|who|nobody|someone)\s+(?:\w+ly\s+|also\s+|still\s+|often\s+)?$",
    re.I,
)
_EN_POLITE = re.compile(r"\b(?:can|could|would|will)\s+you\s+(?:please\s+)?$|\bplease\s+$", re.I)
# "how would kimi answer", "what would GPT say": a counterfactual about the model's own answer.
_EN_WOULD_BEFORE = re.compile(r"\b(?:how|what)\s+(?:would|will|might)\s+$", re.I)
_EN_WOULD_AFTER = re.compile(
    r"^\s+(?:answer|respond|reply|say|solve|explain|handle|approach|translate|write|do|think)\b", re.I
)

# Chinese request verbs right before the name (spaces allowed); "一下" may follow the verb.
_ZH_REQUEST_BEFORE = re.compile(
    r"(?:用|让|请|叫|换成|换到|换|切换到|切换成|切到|改用|改成|使用|通过|交给|转给|找|问问|问一下|问|调用|由|麻烦)(?:一下)?\s*$"
)
# Habit or past before the verb: "我一直用 chatgpt", "大家都用 deepseek" describe, they do not ask.
_ZH_HABITUAL = re.compile(r"(?:一直|经常|平时|都|常常|总是|以前|之前|曾经|一般|习惯|还在|正在|[我你他她们家]在)\s*$")
_ZH_DELIBERATION = re.compile(r"(?:为什么|为何|要不要|该不该|应该|是否|值不值得|哪个|哪家|谁)[^。！？!?；;]*$")
# "kimi 会怎么回答", "千问怎么看": how the model itself would answer.
_ZH_WOULD_AFTER = re.compile(r"^\s*(?:会|将)?\s*(?:怎么|如何|怎样)\s*(?:回答|答|说|解答|解|看|处理|翻译|写)")

# After the name: a request continues with an action or a colon; a topic continues with
# a copula, a possessive company/product word, or another name to compare with.
_AFTER_REQUEST = re.compile(
    r"^\s*(?:[:：,，]|来|帮|给|回答|答|解答|写|翻译|算|分析|说|讲|看|处理|生成|总结|作答|"
    r"(?:to\s+)?(?:answer|reply|respond|explain|write|translate|solve|do|help|tell|summari[sz]e|check|generate|think)\b)",
    re.I,
)
_AFTER_TOPIC = re.compile(
    r"^\s*(?:是|的(?:公司|创始|历史|模型有|价格|优缺点)|这家|这个公司|公司|怎么样|好不好|好用|还是|或者|对比|比较|"
    r"vs\.?|versus|or\b|compared|is\b|was\b|are\b|stand|better|worse|cost|price|company)",
    re.I,
)
# Text between two different names that makes them alternatives rather than a request
# (a bare comma too: "kimi, qwen and gpt are ..." is a list, "Kimi, what is qwen?" is not).
_JOINED = re.compile(r"\b(?:or|and|vs\.?|versus|compared?|than|better|worse)\b|还是|或|和|与|跟|比|对比|比较|、|/|^\s*[,，]\s*$", re.I)

# Before a name addressed at the start of a clause: nothing, or a greeting.
_GREETING_ONLY = re.compile(r"^\s*(?:(?:hey|hi|hello|ok|okay|嗨|喂|哈喽|你好|那|好)[\s,，!！]*)?$", re.I)
# After a name addressed at the start. English needs the base form of a verb ("Kimi explain",
# not "Kimi explains"); Chinese needs a request marker, and "的"/"了"/"过" right after the
# verb makes it a description ("kimi 写的代码", "kimi 回答了").
_ZH_VERB = r"(?:说说|看看|讲讲|查查|算算|回答|解答|解释|翻译|总结|写|算|查|分析|计算|生成|处理|列)"
_ZH_OBJECT = r"(?:一下|下|[一这那]?[个首篇段份道句条些]|这|以下|下面|\s*[:：])"
_ADDRESS_AFTER = re.compile(
    r"^(?:\s*[:：,，]"
    r"|\s*(?:please\b|请)"
    r"|\s+(?:(?:can|could|would|will)\s+you\b|(?:answer|reply|respond|explain|write|translate|solve|help|tell|"
    r"summari[sz]e|check|calculate|compute|describe|draft|give\s+me|find|list|plan|review|rewrite|fix|look\s+up|search)\b)"
    r"|\s*(?:的\s*(?:模型|大模型|ai|助手)\s*)?(?:你|您)?\s*(?:能不能|能|可以|可不可以|会不会|来|请)?\s*"
    r"(?:帮我|帮忙|给我|替我|为我|告诉我)(?!\s*[\u3400-\u9fff]{1,2}的)"
    r"|\s*(?:你|您)?\s*(?:来|请)?\s*(?:帮|来)(?![了过的得我忙])"
    rf"|\s*(?:你|您)?\s*(?:来|请)?\s*{_ZH_VERB}{_ZH_OBJECT})",
    re.I,
)


# "..., then kimi please: ...": a colon after "please" is an instruction wherever the name is.
_PLEASE_COLON = re.compile(r"^\s*[,，]?\s*(please|请)\s*[:：]", re.I)
_SPACES = re.compile(r"\s{2,}")


def _squeeze(text: str) -> str:
    return _SPACES.sub(lambda m: "\n" if "\n" in m.group(0) else " ", text)


def _before_clause(before: str) -> str:
    return re.split(r"[.!?。！？;；\n]", before[-200:])[-1]


def request_cue(question: str, start: int, end: int, rivals: Sequence[tuple[int, int]] = ()) -> str | None:
    """The words that make ``question[start:end]`` a request (quoted in the route reason), or None.

    ``rivals`` are the spans of the nearest mentions of *other* providers: a name joined
    to one of them by "or", "还是", "than", ... is being compared, not asked for.
    """
    name = question[start:end]
    # A request sits right around the name: bounded windows with whitespace runs squeezed
    # keep every pattern below cheap on hostile input (100 KB of spaces or newlines).
    before = _squeeze(question[max(0, start - 400) : start])
    after = _squeeze(question[end : end + 200])
    clause_before = _before_clause(before)
    if before.endswith("@") and not re.search(r"[A-Za-z0-9._%+-]@$", before):  # "@qwen", not "me@qwen.com"
        return "@" + name
    for lo, hi in rivals:
        if (lo - end if lo >= end else start - hi) > 40:
            continue
        between = question[end:lo] if lo >= end else question[hi:start]
        if _JOINED.search(between) and not re.search(r"[。！？；\n]|[.!?;]\s", between + " "):
            return None
    if _AFTER_TOPIC.match(after):
        return None
    if (m := _EN_WOULD_BEFORE.search(clause_before)) and _EN_WOULD_AFTER.match(after):
        return f"{m.group(0).strip()} {name}"
    if (m := _ZH_WOULD_AFTER.match(after)) and not re.search(r"(?:为什么|为何)[^。！？!?]*$", clause_before):
        return f"{name} {m.group(0).strip()}"
    near = before[-40:]  # a request verb sits right before the name; the window keeps long texts cheap
    if m := _ZH_REQUEST_BEFORE.search(near):
        head = near[: m.start()]
        if not _ZH_DELIBERATION.search(head) and not _ZH_HABITUAL.search(head):
            return f"{m.group(0).strip()} {name}"
        return None
    if m := _EN_STRONG_BEFORE.search(clause_before):
        head = clause_before[: m.start() + 1]
        if (not _EN_DELIBERATION.search(head) or _EN_POLITE.search(head)) and not _EN_SUBJECT.search(head):
            return f"{m.group(0).strip()} {name}"
        return None
    if m := _EN_WEAK_BEFORE.search(clause_before):
        head = clause_before[: m.start() + 1]
        at_start = not head.strip(" ,")
        if _EN_ANSWER_VERB.search(head) or ((at_start or _AFTER_REQUEST.match(after)) and not _EN_DELIBERATION.search(head)):
            return f"{m.group(0).strip()} {name}"
        return None
    if m := _PLEASE_COLON.match(after):
        return f"{name} {m.group(1)}"
    if _GREETING_ONLY.match(clause_before) and _ADDRESS_AFTER.match(after):
        return name  # addressed: "Kimi, ...", "kimi 帮我查下 ...", "Qwen please: ..."
    return None


__all__ = ["request_cue"]
