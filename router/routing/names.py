"""Which provider and model answer a question.

Users name a model in the question itself ("用 kimi 回答", "ask gpt-4o: ...").
Names also appear as mere topics ("What does GPT stand for?", "讲讲 deepseek 这家
公司"), so a name only routes when it sits in a *request*: an imperative verb or
an answer-giving preposition right before it, an ``@``, or a vocative at the
start. Comparisons ("is kimi better than chatgpt", "用千问还是 kimi") never route:
choosing between models is the user's question, not an instruction.

The name table comes from providers.yaml (provider keys, aliases, model ids), so a
provider added in YAML is routable without touching this file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from router.errors import UsageError

if TYPE_CHECKING:
    from router.config import RouterConfig


@dataclass(frozen=True)
class Route:
    """Who was asked for. Whether they can answer (key, capabilities) is decided next,
    along ``fallbacks``, by ``Router.plan``: a route is the request, not the outcome."""

    provider: str
    model: str
    reason: str
    explicit: bool = field(default=True, compare=False)
    """False only for the configured default: an explicit choice is never silently replaced."""


@dataclass(frozen=True)
class _Name:
    """One routable name: ``model`` is set when the name is a model id."""

    text: str
    provider: str
    model: str | None


@dataclass(frozen=True)
class _Mention:
    name: _Name
    start: int
    end: int


_CJK = re.compile(r"[\u3400-\u9fff]")

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

# Chinese request verbs right before the name (spaces allowed); "一下" may follow the verb.
_ZH_REQUEST_BEFORE = re.compile(
    r"(?:用|让|请|叫|换成|换到|换|切换到|切换成|切到|改用|改成|使用|通过|交给|转给|找|问问|问一下|问|调用|由|麻烦)(?:一下)?\s*$"
)
# Habit or past before the verb: "我一直用 chatgpt", "大家都用 deepseek" describe, they do not ask.
_ZH_HABITUAL = re.compile(r"(?:一直|经常|平时|都|常常|总是|以前|之前|曾经|一般|习惯|还在|正在|[我你他她们家]在)\s*$")
_ZH_DELIBERATION = re.compile(r"(?:为什么|为何|要不要|该不该|应该|是否|值不值得|哪个|哪家|谁)[^。！？!?；;]*$")

# After the name: a request continues with an action or a colon; a topic continues with
# a copula, a possessive company/product word, or another name to compare with.
_AFTER_REQUEST = re.compile(
    r"^\s*(?:[:：,，]|来|帮|给|回答|答|解答|写|翻译|算|分析|说|讲|看|处理|生成|总结|总结|作答|"
    r"(?:to\s+)?(?:answer|reply|respond|explain|write|translate|solve|do|help|tell|summari[sz]e|check|generate|think)\b)",
    re.I,
)
_AFTER_TOPIC = re.compile(
    r"^\s*(?:是|的(?:公司|创始|历史|模型有|价格|优缺点)|这家|这个公司|公司|怎么样|好不好|好用|还是|或者|对比|比较|"
    r"vs\.?|versus|or\b|compared|is\b|was\b|are\b|stand|better|worse|cost|price|company)",
    re.I,
)
# Text between two different names that makes them alternatives rather than a request.
_JOINED = re.compile(r"\b(?:or|and|vs\.?|versus|compared?|than|better|worse)\b|还是|或|和|与|跟|比|对比|比较|、|/", re.I)


_TABLES: dict[int, tuple[RouterConfig, tuple[_Name, ...], re.Pattern[str]]] = {}


def _table(config: RouterConfig) -> tuple[tuple[_Name, ...], re.Pattern[str]]:
    """Names and matcher per config object (configs hold dicts, so they are not hashable)."""
    cached = _TABLES.get(id(config))
    if cached is None or cached[0] is not config:
        if len(_TABLES) > 32:
            _TABLES.clear()
        names = _names(config)
        cached = (config, names, _pattern(names))
        _TABLES[id(config)] = cached
    return cached[1], cached[2]


def _names(config: RouterConfig) -> tuple[_Name, ...]:
    """Every routable name, longest first so "gpt-4o-mini" wins over "gpt-4o" and "gpt"."""
    table: dict[str, _Name] = {}
    for pname, provider in config.providers.items():
        for alias in (pname, *provider.aliases):
            key = alias.strip().lower()
            if key:
                table.setdefault(key, _Name(key, pname, None))
        for model in provider.models:
            key = model.id.lower()
            table[key] = _Name(key, pname, model.id)
            short = key.rsplit("/", 1)[-1]
            if short != key:
                table.setdefault(short, _Name(short, pname, model.id))
    return tuple(sorted(table.values(), key=lambda n: (-len(n.text), n.text)))


def _pattern(names: tuple[_Name, ...]) -> re.Pattern[str]:
    parts = []
    for name in names:
        escaped = re.escape(name.text)
        if _CJK.search(name.text):
            parts.append(escaped)
        else:
            # ASCII names need word boundaries; a hyphen+alnum after the name makes it a
            # different word ("chatgpt-like", "gpt-5"), but model ids with hyphens match whole.
            parts.append(rf"(?<![a-z0-9_\-/.]){escaped}(?![a-z0-9_]|-[a-z0-9])")
    return re.compile("|".join(parts), re.I)


def _mentions(question: str, config: RouterConfig) -> list[_Mention]:
    names, pattern = _table(config)
    by_text = {n.text: n for n in names}
    found = []
    for match in pattern.finditer(question):
        name = by_text.get(match.group(0).lower())
        if name is not None:
            found.append(_Mention(name, match.start(), match.end()))
    return found


def _is_request(question: str, mention: _Mention, neighbours: list[_Mention]) -> str | None:
    """The cue that makes this mention a request (quoted in the reason), or None."""
    before = question[: mention.start]
    after = question[mention.end :]
    clause_before = re.split(r"[.!?。！？;；\n]", before[-200:])[-1]
    if before.endswith("@") and not re.search(r"[A-Za-z0-9._%+-]@$", before):  # "@qwen", not "me@qwen.com"
        return "@" + question[mention.start : mention.end]
    # Choosing between two named models is a question about them, not an instruction.
    # Only the nearest names on either side count: "用kimi回答：qwen和gpt有什么区别" compares qwen
    # with gpt, not with kimi.
    for other in neighbours:
        if other.name.provider == mention.name.provider:
            continue
        lo, hi = sorted((mention, other), key=lambda m: m.start)
        between = question[lo.end : hi.start]
        if len(between) <= 40 and _JOINED.search(between):
            return None
    if _AFTER_TOPIC.match(after):
        return None
    cue: str | None = None
    near = before[-40:]  # a request verb sits right before the name; the window keeps long texts cheap
    if m := _ZH_REQUEST_BEFORE.search(near):
        head = near[: m.start()]
        if not _ZH_DELIBERATION.search(head) and not _ZH_HABITUAL.search(head):
            cue = m.group(0).strip()
    elif m := _EN_STRONG_BEFORE.search(clause_before):
        head = clause_before[: m.start() + 1]
        if (not _EN_DELIBERATION.search(head) or _EN_POLITE.search(head)) and not _EN_SUBJECT.search(head):
            cue = m.group(0).strip()
    elif m := _EN_WEAK_BEFORE.search(clause_before):
        head = clause_before[: m.start() + 1]
        at_start = not head.strip(" ,")
        if _EN_ANSWER_VERB.search(head) or ((at_start or _AFTER_REQUEST.match(after)) and not _EN_DELIBERATION.search(head)):
            cue = m.group(0).strip()
    elif not clause_before.strip() and re.match(r"^\s*[:：,，]", after):
        cue = "addressed"  # vocative: "Kimi, ..." / "qwen: ..."
    if cue is None:
        return None
    name_text = question[mention.start : mention.end]
    return name_text if cue == "addressed" else f"{cue} {name_text}"


def _find_request(question: str, config: RouterConfig) -> tuple[_Name, str] | None:
    mentions = _mentions(question, config)  # in order of appearance, never overlapping
    for i, mention in enumerate(mentions):
        neighbours = mentions[max(i - 1, 0) : i] + mentions[i + 1 : i + 2]
        cue = _is_request(question, mention, neighbours)
        if cue is not None:
            return mention.name, cue
    return None


def _known_models(config: RouterConfig) -> str:
    return ", ".join(m.id for p in config.providers.values() for m in p.models)


def _resolve_provider(name: str, config: RouterConfig) -> str:
    key = name.strip().lower()
    for pname, provider in config.providers.items():
        if key == pname.lower() or key in (a.strip().lower() for a in provider.aliases):
            return pname
    raise UsageError(f"unknown provider {name!r} (known: {', '.join(config.providers)})")


def _provider_of_model(model: str, config: RouterConfig) -> tuple[str, str]:
    key = model.strip().lower()
    for pname, provider in config.providers.items():
        for m in provider.models:
            if key in (m.id.lower(), m.id.lower().rsplit("/", 1)[-1]):
                return pname, m.id
    raise UsageError(f"unknown model {model!r} (known: {_known_models(config)})")


def resolve_provider(config: RouterConfig, name: str) -> str:
    """A provider name or alias (any case) -> its providers.yaml key; the one resolution everywhere."""
    if name in config.providers:
        return name
    wanted = name.strip().lower()
    for key, settings in config.providers.items():
        if wanted == key.lower() or wanted in (alias.strip().lower() for alias in settings.aliases):
            return key
    import difflib

    known = [*config.providers, *(a for s in config.providers.values() for a in s.aliases)]
    close = difflib.get_close_matches(wanted, [k.lower() for k in known], n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise UsageError(f"unknown provider {name!r}{hint}; known: {', '.join(config.providers)}")


def route_model(question: str, config: RouterConfig, *, provider: str | None = None, model: str | None = None) -> Route:
    """Explicit arguments win, then a request in the question, then ``config.default``."""
    if provider is not None:
        pname = _resolve_provider(provider, config)
        listed = config.providers[pname].models
        if model is not None:
            mname, owner = model, None
            for m in listed:
                if m.id.lower() == model.strip().lower():
                    mname, owner = m.id, pname
            if owner is None:
                other, _ = _provider_of_model(model, config)  # raises for a model nobody lists
                raise UsageError(f"model {model!r} belongs to provider {other!r}, not {pname!r} "
                                 f"(models of {pname}: {', '.join(m.id for m in listed)})")
            return Route(pname, mname, f"--provider {pname} --model {mname}")
        asked = _find_request(question, config)
        if asked is not None and asked[0].provider == pname and asked[0].model is not None:
            return Route(pname, asked[0].model, f"--provider {pname}; question asks for {asked[0].model} ('{asked[1]}')")
        return Route(pname, config.providers[pname].default_model.id, f"--provider {pname}")
    if model is not None:
        pname, mname = _provider_of_model(model, config)
        return Route(pname, mname, f"--model {mname} (provider {pname})")
    asked = _find_request(question, config)
    if asked is not None:
        name, cue = asked
        target = config.providers[name.provider]
        mname = name.model or target.default_model.id
        what = name.model or name.provider
        return Route(name.provider, mname, f"question asks for {what} ('{cue}')")
    default = config.default
    return Route(default, config.providers[default].default_model.id, "default provider", explicit=False)


__all__ = [
    "Route",
    "resolve_provider",
    "route_model",
]
