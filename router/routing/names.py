"""Provider and model names: how every spelling of one resolves, and who a question asks for.

One name table per config (provider keys, aliases, model ids, all from providers.yaml)
serves every entry point, so ``--provider moonshot``, ``Router.ask(provider="Moonshot")``,
``default: moonshot`` in YAML, ``ROUTER_PROVIDER=moonshot`` and a server's
``model: "kimi/moonshot-v1-8k"`` all mean the same thing, and a typo gets the same
"did you mean" everywhere.

Inside a question a name routes only when it is a request (``router.routing.cues``).
A model id that providers.yaml does not list still routes when it is named with its
provider ("用千问的 qwen-turbo 模型回答", "ask openai gpt-4.1-mini", "use qwen-turbo"):
the route says it is unlisted instead of quietly answering with the default model.

Matching stays fast with thousands of aliases: all names are compiled once per config
into one prefix-tree regex, so a question costs about the same with 10 names or 3,000.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from router.errors import UsageError

if TYPE_CHECKING:
    from router.config import RouterConfig

UNLISTED = "not listed in providers.yaml"


@dataclass(frozen=True)
class Route:
    """Who was asked for. Whether they can answer (key, capabilities) is decided next,
    along ``fallbacks``, by ``Router.plan``: a route is the request, not the outcome."""

    provider: str
    model: str
    reason: str
    explicit: bool = field(default=True, compare=False)
    """False only for the configured default: an explicit choice is never silently replaced."""
    model_listed: bool = True
    """False when the model id was asked for by name but providers.yaml does not list it
    (so its context window, prices and capabilities are the provider's defaults)."""
    alternatives: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    """Further (provider, model) to try before ``fallbacks``: the rest of an automatic tier."""


@dataclass(frozen=True)
class Target:
    """What a name such as ``kimi``, ``qwen-max`` or ``deepseek/deepseek-chat`` points at."""

    provider: str
    model: str | None
    """None when only a provider was named: its default model answers."""
    model_listed: bool = True

    def __str__(self) -> str:
        return self.provider if self.model is None else f"{self.provider}/{self.model}"


@dataclass(frozen=True)
class _Name:
    """One routable name: ``model`` is set when the name is a listed model id; ``family``
    when a version tail may follow it ("gpt" -> "gpt-4.1-mini", "qwen" -> "qwen2.5-72b")."""

    text: str
    provider: str
    model: str | None
    family: bool = False


@dataclass(frozen=True)
class _Mention:
    provider: str
    model: str | None
    listed: bool
    start: int
    end: int


@dataclass(frozen=True)
class _Table:
    names: dict[str, _Name]
    providers: dict[str, str]
    """lower-cased provider key or alias -> provider key"""
    models: dict[str, tuple[str, str]]
    """lower-cased model id (and short id after '/') -> (provider, id); full ids win"""
    matcher: re.Pattern[str]


_LEAD = re.compile(r"[a-z]+")
# Words that make a name's tail a model variant ("qwen-turbo") rather than a word ("chatgpt-like").
_VARIANTS = frozenset(
    "mini nano small medium large turbo max plus pro lite flash chat coder code reasoner instruct preview "
    "latest long vision vl thinking omni audio math r1 v1 v2 v3 k2 o1 o3 o4 haiku sonnet opus".split()
)
_TAIL = r"(?P<tail>(?:\d(?:[a-z0-9.]*[a-z0-9])?)?(?:-[a-z0-9](?:[a-z0-9.]*[a-z0-9])?)*)"
# A model id written after a provider: "/id", "'s id", "的 id", "id 模型" or a bare id with a digit.
# (a pattern text: ``re`` compiles it on the first request that names a provider, not at start-up)
_MODEL_AFTER = (
    r"(?i)^(?:/(?P<slash>(?:[^\s,，。:：;；!?！？]|:(?=[^\s:]))+)"
    r"|\s*(?P<poss>的|'s|’s)?\s*(?P<id>[a-z][a-z0-9]*(?:[-.:_][a-z0-9]+)*)(?![a-z0-9])(?P<mark>\s*(?:模型|model\b))?)"
)

_TABLES: dict[int, tuple[RouterConfig, _Table]] = {}


def _table(config: RouterConfig) -> _Table:
    """The name table of one config object, built once (configs hold dicts: not hashable)."""
    cached = _TABLES.get(id(config))
    if cached is None or cached[0] is not config:
        if len(_TABLES) >= 32:
            _TABLES.clear()
        cached = (config, _build(config))
        _TABLES[id(config)] = cached
    return cached[1]


def _short(model_id: str) -> str:
    return model_id.rsplit("/", 1)[-1]


def _build(config: RouterConfig) -> _Table:
    names: dict[str, _Name] = {}
    providers: dict[str, str] = {}
    models: dict[str, tuple[str, str]] = {}
    families: set[tuple[str, str]] = set()
    for pname, provider in config.providers.items():
        for alias in (pname, *provider.aliases):
            key = alias.strip().lower()
            if key:
                providers.setdefault(key, pname)
                names.setdefault(key, _Name(key, pname, None))
        for model in provider.models:
            key = model.id.lower()
            models.setdefault(key, (pname, model.id))
            names[key] = _Name(key, pname, model.id, family=True)
            if lead := _LEAD.match(_short(key)):
                families.add((lead.group(0), pname))
    for pname, provider in config.providers.items():
        for model in provider.models:
            short = _short(model.id.lower())
            models.setdefault(short, (pname, model.id))
            names.setdefault(short, _Name(short, pname, model.id, family=True))
    for word, pname in families:  # "gpt" of openai may carry a tail; "ds" of deepseek may not
        name = names.get(word)
        if name is not None and name.provider == pname and name.model is None:
            names[word] = _Name(word, pname, None, family=True)
    return _Table(names, providers, models, _matcher(names))


def _trie(words: list[str]) -> str:
    """One regex for many literal words, factored by prefix: the engine walks a tree
    instead of trying every alternative at every position. Longer words win."""
    root: dict[str, Any] = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict[str, Any]) -> str:
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 and "" not in node else "(?:" + "|".join(branches) + ")"
        return body + "?" if "" in node else body

    return build(root)


def _has_cjk(name: str) -> bool:
    """A character class of these ranges costs ms to compile; names are short, a scan is not."""
    return not name.isascii() and any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in name)


def _matcher(names: dict[str, _Name]) -> re.Pattern[str]:
    ascii_names = [n for n in names if not _has_cjk(n)]
    cjk_names = [n for n in names if _has_cjk(n)]
    parts = []
    if ascii_names:
        # Word boundaries for Latin names; a hyphenated or digit tail is captured whole so
        # "gpt-4.1-mini" is one token, and "chatgpt-like" is one non-name.
        parts.append(rf"(?<![a-z0-9_\-/.])(?P<word>{_trie(ascii_names)}){_TAIL}(?![a-z0-9_])")
    if cjk_names:
        parts.append(rf"(?P<cjk>{_trie(cjk_names)})")
    return re.compile("|".join(parts) or r"(?!)")


def _fold(text: str) -> str:
    """Lower case with every index kept (matches map back onto the original text)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _is_variant(tail: str) -> bool:
    if len(tail) > 64:  # no model id is that long: a pasted run of digits and dashes
        return False
    return any(ch.isdigit() for ch in tail) or any(part in _VARIANTS for part in tail.split("-"))


def _mentions(question: str, table: _Table) -> list[_Mention]:
    found = []
    for match in table.matcher.finditer(_fold(question)):
        text = match.group("word") or match.group("cjk")
        name = table.names[text]
        tail = match.group("tail") if match.group("word") else ""
        if not tail:
            found.append(_Mention(name.provider, name.model, True, match.start(), match.end()))
        elif name.family and _is_variant(tail):
            model_id = match.group(0)
            listed = table.models.get(model_id)
            if listed is not None and listed[0] == name.provider:
                found.append(_Mention(name.provider, listed[1], True, match.start(), match.end()))
            else:
                found.append(_Mention(name.provider, model_id, False, match.start(), match.end()))
    return found


# --- resolving a name given as an argument, in YAML, in the environment or on the wire -----


def _closest(word: str, choices: dict[str, str]) -> str | None:
    """'moonshot -> kimi' for an alias, 'kimi' for a key, None when nothing is close."""
    import difflib  # only on the error path

    close = difflib.get_close_matches(word.strip().lower(), list(choices), n=1, cutoff=0.75)
    if not close:
        return None
    return close[0] if close[0] == choices[close[0]].lower() else f"{close[0]} -> {choices[close[0]]}"


def provider_hint(config: RouterConfig, name: str) -> str:
    """The tail of an unknown-provider message: ' (did you mean moonshot -> kimi?); known: ...'."""
    guess = _closest(name, _table(config).providers)
    known = ", ".join(config.providers)
    return (f" (did you mean {guess}?)" if guess else "") + f"; known: {known}"


def resolve_provider(config: RouterConfig, name: str) -> str:
    """The provider key for a key or alias in any case; UsageError with a suggestion otherwise."""
    if name in config.providers:
        return name
    if not isinstance(name, str) or not name.strip():
        raise UsageError(f"provider name must be a non-empty string, got {name!r}")
    found = _table(config).providers.get(name.strip().lower())
    if found is None:
        raise UsageError(f"unknown provider {name!r}{provider_hint(config, name)}")
    return found


def resolve_model(config: RouterConfig, provider: str | None, model_id: str) -> tuple[str, str, bool]:
    """(provider, model id, listed) for a model asked of a provider, or of anyone when None.

    A listed id comes back in its YAML spelling. An id the provider does not list is
    passed through as given (``listed`` False): providers ship models faster than YAML
    files follow. An id another provider lists, or with no provider an id nobody lists,
    is a UsageError, because then the caller most likely meant something else.
    """
    if not isinstance(model_id, str) or not model_id.strip():
        raise UsageError(f"model id must be a non-empty string, got {model_id!r}")
    wanted = model_id.strip()
    key = wanted.lower()
    table = _table(config)
    if provider is None:
        owner = table.models.get(key)
        if owner is None:
            ids = {m.id.lower(): m.id for p in config.providers.values() for m in p.models}
            guess = _closest(key, ids)
            hint = f" (did you mean {ids[guess] if guess in ids else guess}?)" if guess else ""
            raise UsageError(f"unknown model {model_id!r}{hint}; known: {', '.join(ids.values())}")
        return owner[0], owner[1], True
    pname = resolve_provider(config, provider)
    listed = config.providers[pname].models
    for m in listed:
        if key in (m.id.lower(), _short(m.id.lower())):
            return pname, m.id, True
    owner = table.models.get(key)
    if owner is not None and owner[0] != pname:
        raise UsageError(f"model {model_id!r} belongs to provider {owner[0]!r}, not {pname!r} "
                         f"(models of {pname}: {', '.join(m.id for m in listed)})")
    return pname, wanted, False


def resolve_target(config: RouterConfig, text: str) -> Target:
    """A provider, a model id, or ``provider/model`` (as a server's ``model`` field carries it).

    A listed model id wins over splitting at '/', because some ids contain one
    ("anthropic/claude-3-5-haiku-latest"). When a provider's listed ids all carry the
    prefix that was written ("anthropic/claude-3-opus"), the whole text is the id.
    """
    if not isinstance(text, str) or not text.strip():
        raise UsageError(f"model name must be a non-empty string, got {text!r}")
    raw = text.strip()
    key = raw.lower()
    table = _table(config)
    owner = table.models.get(key)
    if owner is not None and owner[1].lower() == key:
        return Target(owner[0], owner[1])
    if key in table.providers:
        return Target(table.providers[key], None)
    if owner is not None:
        return Target(owner[0], owner[1])
    head, slash, rest = raw.partition("/")
    if slash and rest.strip():
        pname = table.providers.get(head.strip().lower())
        if pname is None:
            raise UsageError(f"unknown provider {head!r} in {raw!r}{provider_hint(config, head)}")
        provider, model_id, listed = resolve_model(config, pname, rest)
        if not listed and any(m.id.lower().startswith(head.strip().lower() + "/") for m in config.providers[pname].models):
            model_id = raw
        return Target(provider, model_id, listed)
    choices = {**table.providers, **{k: v[1] for k, v in table.models.items()}}
    guess = _closest(key, choices)
    hint = f" (did you mean {guess}?)" if guess else ""
    raise UsageError(f"unknown provider or model {raw!r}{hint}; known providers: {', '.join(config.providers)}; "
                     f"write provider/model for a model providers.yaml does not list")


# --- a request inside the question ------------------------------------------------------


def _model_after(question: str, mention: _Mention, following: _Mention | None, config: RouterConfig) -> _Mention:
    """'用千问的 qwen-turbo', 'ask openai gpt-4.1-mini', 'use deepseek/deepseek-chat': the model id
    written right after a provider name belongs to it; anything else leaves the provider's default."""
    after = question[mention.end : mention.end + 120]
    if following is not None and following.model is not None and following.provider == mention.provider \
            and following.start - mention.end <= 8:
        if re.fullmatch(r"/|\s*(?:的|'s|’s)?\s*", question[mention.end : following.start]):
            return _Mention(mention.provider, following.model, following.listed, mention.start, following.end)
    m = re.match(_MODEL_AFTER, after)
    if m is None:
        return mention
    model_id = m.group("slash") or m.group("id")
    if m.group("id"):  # a word after a name is a model id only if it looks like one
        digit = any(c.isdigit() for c in model_id)
        if not (m.group("mark") or (m.group("poss") and (digit or "-" in model_id)) or digit):
            return mention
    try:
        _, resolved, listed = resolve_model(config, mention.provider, model_id if m.group("slash") else model_id.lower())
    except UsageError:  # another provider's model: the provider named first stays
        return mention
    return _Mention(mention.provider, resolved, listed, mention.start, mention.end + m.end())


# A question naming more models than this is a text about models: only the names near its
# start and its end, where an instruction would be, are examined (bounded time on long input).
_EXAMINED = 64


def _find_request(question: str, config: RouterConfig) -> tuple[_Mention, str] | None:
    mentions = _mentions(question, _table(config))  # in order of appearance, never overlapping
    if not mentions:
        return None
    from router.routing.cues import request_cue  # ~20 ms of regexes, needed only once a name is mentioned

    count = len(mentions)
    indices = range(count) if count <= 2 * _EXAMINED else [*range(_EXAMINED), *range(count - _EXAMINED, count)]
    for i in indices:
        mention = mentions[i]
        neighbours = mentions[max(i - 1, 0) : i] + mentions[i + 1 : i + 2]
        rivals = [(o.start, o.end) for o in neighbours if o.provider != mention.provider]
        cue = request_cue(question, mention.start, mention.end, rivals)
        if cue is not None:
            if mention.model is None:
                following = mentions[i + 1] if i + 1 < len(mentions) else None
                mention = _model_after(question, mention, following, config)
            return mention, cue
    return None


def _asked(mention: _Mention) -> str:
    if mention.model is None:
        return mention.provider
    if mention.listed:
        return mention.model
    return f"{mention.provider}/{mention.model} ({UNLISTED})"


def route_model(question: str, config: RouterConfig, *, provider: str | None = None, model: str | None = None) -> Route:
    """Explicit arguments win, then a request in the question, then ``config.default``.

    ``provider`` takes a key or alias; ``model`` a model id or ``provider/model``. A model
    the YAML does not list is allowed with its provider and marked ``model_listed=False``.
    """
    if provider is not None:
        pname = resolve_provider(config, provider)
        if model is not None:
            _, mname, listed = resolve_model(config, pname, model)
            note = "" if listed else f" ({UNLISTED})"
            return Route(pname, mname, f"requested {pname}/{mname}{note}", model_listed=listed)
        asked = _find_request(question, config)
        if asked is not None and asked[0].provider == pname and asked[0].model is not None:
            found, cue = asked
            return Route(pname, found.model or "", f"requested {pname}; question asks for {_asked(found)} ('{cue}')",
                         model_listed=found.listed)
        return Route(pname, config.providers[pname].default_model.id, f"requested {pname}")
    if model is not None:
        if "/" in model:
            target = resolve_target(config, model)
            pname, mname, listed = target.provider, target.model, target.model_listed
        else:
            pname, mname, listed = resolve_model(config, None, model)
        mname = mname or config.providers[pname].default_model.id
        note = "" if listed else f", {UNLISTED}"
        return Route(pname, mname, f"--model {mname} (provider {pname}{note})", model_listed=listed)
    asked = _find_request(question, config)
    if asked is not None:
        found, cue = asked
        mname = found.model or config.providers[found.provider].default_model.id
        return Route(found.provider, mname, f"question asks for {_asked(found)} ('{cue}')", model_listed=found.listed)
    default = config.default
    return Route(default, config.providers[default].default_model.id, "default provider", explicit=False)


__all__ = ["UNLISTED", "Route", "Target", "provider_hint", "resolve_model", "resolve_provider", "resolve_target", "route_model"]
