"""route_model: explicit requests route, topic mentions do not, explicit arguments win."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from router.config import RouterConfig, load_config, parse_config
from router.errors import ConfigError, UsageError
from router.routing.names import Route, Target, resolve_model, resolve_provider, resolve_target, route_model

REPO = Path(__file__).resolve().parent.parent
YAML_TEXT = (REPO / "providers.yaml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def config() -> RouterConfig:
    return parse_config(YAML_TEXT, "providers.yaml")


@pytest.mark.parametrize(
    ("question", "provider", "model"),
    [
        ("用 kimi 回答：什么是量子计算", "kimi", "moonshot-v1-8k"),
        ("ask gpt-4o what a monad is", "openai", "gpt-4o"),
        ("@qwen 帮我写一首诗", "qwen", "qwen-plus"),
        ("让千问回答这个问题", "qwen", "qwen-plus"),
        ("use deepseek-reasoner: prove that sqrt(2) is irrational", "deepseek", "deepseek-reasoner"),
        ("请 deepseek 帮我总结这段话", "deepseek", "deepseek-chat"),
        ("用月之暗面回答这个问题", "kimi", "moonshot-v1-8k"),
        ("请通义千问解释一下相对论", "qwen", "qwen-plus"),
        ("叫通义来回答", "qwen", "qwen-plus"),
        ("换成 moonshot 再答一遍", "kimi", "moonshot-v1-8k"),
        ("让深度求索来算", "deepseek", "deepseek-chat"),
        ("Please use gpt-4o-mini to summarise this", "openai", "gpt-4o-mini"),
        ("USE KIMI to answer this", "kimi", "moonshot-v1-8k"),
        ("Using chatgpt, translate 'hello' into French", "openai", "gpt-4o-mini"),
        ("answer with claude please", "claude", "anthropic/claude-3-5-haiku-latest"),
        ("qwen-max: 写一首关于秋天的诗", "qwen", "qwen-max"),
        ("Kimi, what is the capital of Peru?", "kimi", "moonshot-v1-8k"),
        ("switch to moonshot and answer again", "kimi", "moonshot-v1-8k"),
        ("Can you ask gpt to check my essay?", "openai", "gpt-4o-mini"),
        ("帮我用 Kimi 翻译这段话", "kimi", "moonshot-v1-8k"),
        ("用gpt-4o-mini算一下", "openai", "gpt-4o-mini"),
        ("用kimi回答：qwen和gpt有什么区别", "kimi", "moonshot-v1-8k"),
        ("tell kimi to summarise this", "kimi", "moonshot-v1-8k"),
        ("问kimi：今天吃什么", "kimi", "moonshot-v1-8k"),
        ("现在用kimi回答", "kimi", "moonshot-v1-8k"),
        ("Could you please use qwen-max for this?", "qwen", "qwen-max"),
    ],
)
def test_an_explicit_request_routes(config: RouterConfig, question: str, provider: str, model: str) -> None:
    route = route_model(question, config)
    assert (route.provider, route.model) == (provider, model)
    assert route.reason.startswith("question asks for ")


@pytest.mark.parametrize(
    "question",
    [
        "What does GPT stand for?",
        "讲讲 deepseek 这家公司",
        "Is Kimi better than ChatGPT?",
        "compare qwen and gpt",
        "chatgpt-like assistants are everywhere now",
        "what's wrong with ChatGPT?",
        "Should I use ChatGPT or Kimi for coding?",
        "我该用千问还是kimi",
        "为什么大家都用chatgpt",
        "我想问一下千问是哪家公司的",
        "What is the cost of using gpt-4o?",
        "GPT-4o is a multimodal model",
        "let's compare gpt and qwen",
        "月之暗面这家公司怎么样",
        "今天北京天气怎么样",
        "email me@qwen.com about it",
        "see https://kimi.moonshot.cn for details",
        "I use chatgpt every day, what do you think?",
        "We use qwen at work",
        "Everyone uses GPT nowadays",
        "我一直用chatgpt",
        "我在用kimi",
        "大家都用 deepseek 吗",
        "请问千问是什么",
    ],
)
def test_a_topic_mention_keeps_the_default(config: RouterConfig, question: str) -> None:
    route = route_model(question, config)
    assert route == Route("deepseek", "deepseek-chat", "default provider")


def test_gpt_is_not_matched_inside_longer_words(config: RouterConfig) -> None:
    assert route_model("use chatgptish wording", config).provider == "deepseek"
    assert route_model("use gpt-4o-mini", config).model == "gpt-4o-mini"  # longest model id wins over gpt-4o
    assert route_model("use gpt-4o", config).model == "gpt-4o"


def test_the_reason_quotes_the_request(config: RouterConfig) -> None:
    assert route_model("用 kimi 回答", config).reason == "question asks for kimi ('用 kimi')"
    assert route_model("@qwen hi", config).reason == "question asks for qwen ('@qwen')"
    assert route_model("ask qwen-max about it", config).reason == "question asks for qwen-max ('ask qwen-max')"


def test_explicit_provider_wins_over_the_question(config: RouterConfig) -> None:
    route = route_model("用 qwen 回答", config, provider="kimi")
    assert route == Route("kimi", "moonshot-v1-8k", "requested kimi")


def test_explicit_provider_accepts_an_alias(config: RouterConfig) -> None:
    assert route_model("hi", config, provider="月之暗面").provider == "kimi"
    assert route_model("hi", config, provider="ChatGPT").provider == "openai"


def test_explicit_provider_keeps_a_model_the_question_asks_of_it(config: RouterConfig) -> None:
    route = route_model("ask gpt-4o please", config, provider="openai")
    assert (route.provider, route.model) == ("openai", "gpt-4o")
    assert route_model("ask gpt-4o please", config, provider="kimi").model == "moonshot-v1-8k"


def test_an_explicit_model_names_its_provider(config: RouterConfig) -> None:
    assert route_model("用 kimi 回答", config, model="qwen-max") == Route("qwen", "qwen-max", "--model qwen-max (provider qwen)")
    assert route_model("hi", config, model="DeepSeek-Reasoner").model == "deepseek-reasoner"


def test_explicit_provider_and_model(config: RouterConfig) -> None:
    assert route_model("hi", config, provider="openai", model="gpt-4o") == Route("openai", "gpt-4o", "requested openai/gpt-4o")
    with pytest.raises(UsageError, match="belongs to provider 'qwen', not 'openai'"):
        route_model("hi", config, provider="openai", model="qwen-max")


def test_unknown_explicit_names_are_usage_errors_listing_the_known_ones(config: RouterConfig) -> None:
    with pytest.raises(UsageError, match=r"^unknown provider 'nope'; known: deepseek, openai, kimi, qwen"):
        route_model("hi", config, provider="nope")
    with pytest.raises(UsageError, match=r"unknown model 'gpt-9'.*gpt-4o-mini"):
        route_model("hi", config, model="gpt-9")


def test_yaml_default_switches_the_unrouted_answer() -> None:
    switched = parse_config(YAML_TEXT.replace("default: deepseek", "default: qwen", 1), "switched.yaml")
    assert route_model("What does GPT stand for?", switched) == Route("qwen", "qwen-plus", "default provider")
    assert route_model("用 kimi 回答", switched).provider == "kimi"


def test_a_provider_added_in_yaml_is_routable_by_its_aliases() -> None:
    text = """
default: alpha
providers:
  alpha:
    client: mock
    models: [{id: alpha-1}]
  beta:
    client: openai
    base_url: http://127.0.0.1:9/v1
    aliases: [贝塔, bee]
    models: [{id: beta-small, default: true}, {id: beta-large}]
"""
    config = parse_config(text, "two.yaml")
    assert route_model("让贝塔回答", config) == Route("beta", "beta-small", "question asks for beta ('让 贝塔')")
    assert route_model("ask beta-large: why?", config).model == "beta-large"
    assert route_model("is bee any good?", config).provider == "alpha"
    assert route_model("hello", config) == Route("alpha", "alpha-1", "default provider")


def test_route_is_frozen(config: RouterConfig) -> None:
    route = route_model("hi", config)
    with pytest.raises(dataclasses.FrozenInstanceError):
        route.provider = "kimi"  # type: ignore[misc]


def test_only_the_configured_default_is_not_explicit(config: RouterConfig) -> None:
    assert route_model("hello there", config).explicit is False
    assert route_model("用 kimi 回答：你好", config).explicit is True
    assert route_model("hello", config, provider="qwen").explicit is True
    assert route_model("hello", config, model="gpt-4o-mini").explicit is True


# --- requests written the way people write them ------------------------------------------


@pytest.mark.parametrize(
    ("question", "provider", "model"),
    [
        # a provider addressed at the start
        ("kimi 帮我查下明天上海的天气", "kimi", "moonshot-v1-8k"),
        ("Qwen, summarise this", "qwen", "qwen-plus"),
        ("Qwen summarise this", "qwen", "qwen-plus"),
        ("GPT explain monads to me", "openai", "gpt-4o-mini"),
        ("嗨 kimi，帮我写首诗", "kimi", "moonshot-v1-8k"),
        ("hey qwen, translate this", "qwen", "qwen-plus"),
        ("deepseek 算一下 365*24", "deepseek", "deepseek-chat"),
        ("kimi 回答这个问题：1+1", "kimi", "moonshot-v1-8k"),
        ("千问来回答", "qwen", "qwen-plus"),
        ("kimi 你能帮我查天气吗", "kimi", "moonshot-v1-8k"),
        # "<name> please: ..."
        ("kimi please: 写一首诗", "kimi", "moonshot-v1-8k"),
        ("ChatGPT please translate this", "openai", "gpt-4o-mini"),
        ("I have a question, and now qwen please: what is 2+2?", "qwen", "qwen-plus"),
        ("下面这个问题，千问请：解释一下", "qwen", "qwen-plus"),
        # "how would <name> answer ..."
        ("how would kimi answer this: what is 2+2?", "kimi", "moonshot-v1-8k"),
        ("What would ChatGPT say about this?", "openai", "gpt-4o-mini"),
        ("kimi 会怎么回答这个问题", "kimi", "moonshot-v1-8k"),
        ("千问怎么看这个问题", "qwen", "qwen-plus"),
        # "<provider> 的模型能帮我 ..."
        ("kimi 的模型能帮我写个总结吗", "kimi", "moonshot-v1-8k"),
        ("deepseek的模型可以帮我翻译吗", "deepseek", "deepseek-chat"),
        # brand names people use for a provider
        ("ChatGPT, what is 2+2", "openai", "gpt-4o-mini"),
        ("用通义回答这个问题", "qwen", "qwen-plus"),
        ("让深度求索来写", "deepseek", "deepseek-chat"),
        ("月之暗面，帮我总结一下", "kimi", "moonshot-v1-8k"),
        # a listed model named with its provider
        ("用千问 qwen-max 回答", "qwen", "qwen-max"),
        ("use deepseek/deepseek-reasoner: prove it", "deepseek", "deepseek-reasoner"),
        ("ask kimi/moonshot-v1-8k: hi", "kimi", "moonshot-v1-8k"),
    ],
)
def test_requests_written_the_way_people_write_them(config: RouterConfig, question: str, provider: str, model: str) -> None:
    route = route_model(question, config)
    assert (route.provider, route.model, route.model_listed) == (provider, model, True)
    assert route.reason.startswith("question asks for ") and route.explicit


@pytest.mark.parametrize(
    ("question", "provider", "model"),
    [
        ("用千问的 qwen-turbo 模型回答", "qwen", "qwen-turbo"),
        ("ask openai gpt-4.1-mini what a monad is", "openai", "gpt-4.1-mini"),
        ("use qwen-turbo to answer", "qwen", "qwen-turbo"),
        ("ask openai o3 about this", "openai", "o3"),
        ("ask openai's o3-mini", "openai", "o3-mini"),
        ("用 kimi 的 k2 模型回答", "kimi", "k2"),
        ("use local/qwen2.5:7b please", "local", "qwen2.5:7b"),
        ("use gpt-4o-2024-08-06 for this", "openai", "gpt-4o-2024-08-06"),
        ("ask qwen2.5-72b-instruct this", "qwen", "qwen2.5-72b-instruct"),
        ("让 Kimi-K2-Turbo-Preview 回答", "kimi", "kimi-k2-turbo-preview"),
    ],
)
def test_an_unlisted_model_named_with_its_provider_routes_and_says_so(
    config: RouterConfig, question: str, provider: str, model: str
) -> None:
    route = route_model(question, config)
    assert (route.provider, route.model, route.model_listed) == (provider, model, False)
    assert f"question asks for {provider}/{model} (not listed in providers.yaml)" in route.reason


def test_the_reason_quotes_the_new_forms(config: RouterConfig) -> None:
    assert route_model("I wonder, how would kimi answer this?", config).reason == "question asks for kimi ('how would kimi')"
    assert route_model("kimi 会怎么回答这个问题", config).reason == "question asks for kimi ('kimi 会怎么回答')"
    assert route_model("so then, kimi please: 2+2?", config).reason == "question asks for kimi ('kimi please')"
    assert route_model("Qwen, summarise this", config).reason == "question asks for qwen ('Qwen')"


def test_the_unlisted_reason_quotes_the_request(config: RouterConfig) -> None:
    route = route_model("用千问的 qwen-turbo 模型回答", config)
    assert route.reason == "question asks for qwen/qwen-turbo (not listed in providers.yaml) ('用 千问')"


def test_another_providers_model_after_a_name_does_not_change_the_provider(config: RouterConfig) -> None:
    route = route_model("用 kimi 的 gpt-4o 模型回答", config)
    assert (route.provider, route.model) == ("kimi", "moonshot-v1-8k")


@pytest.mark.parametrize(
    "question",
    [
        "用千问还是 kimi",
        "is kimi better than chatgpt",
        # third person, past or description after a name at the start
        "Kimi explained it well",
        "ChatGPT writes better code than me",
        "ChatGPT helps me every day",
        "GPT answers are often wrong",
        "kimi 说的对吗",
        "kimi 说这个不对",
        "千问给的答案不对",
        "kimi 给出的答案对吗",
        "deepseek 写的代码有 bug",
        "千问帮我写的代码有 bug",
        "kimi 回答了这个问题",
        "deepseek 帮了我很多",
        "kimi 写代码很厉害",
        "我觉得 deepseek 很好",
        # how it works, not how it would answer
        "How does GPT answer questions so fast?",
        "How would GPT compare with Kimi?",
        "为什么 kimi 会这么回答",
        "千问怎么用",
        # the models of a provider as a topic
        "kimi 的模型有哪些",
        "千问的模型怎么样",
        # model ids and version-like words as topics
        "GPT-5 is rumoured to launch soon",
        "qwen3 发布了吗",
        "qwen-turbo 和 qwen-plus 有什么区别",
        "is gpt-4.1-mini cheaper than gpt-4o?",
        "What is the context window of qwen-turbo?",
        "use chatgpt-like wording",
        "use ds-160 forms for this",
    ],
)
def test_new_forms_leave_topic_mentions_alone(config: RouterConfig, question: str) -> None:
    assert route_model(question, config) == Route("deepseek", "deepseek-chat", "default provider")


def test_ask_a_provider_a_question_does_not_take_a_word_for_a_model(config: RouterConfig) -> None:
    route = route_model("ask openai what-ifs about history", config)
    assert (route.provider, route.model, route.model_listed) == ("openai", "gpt-4o-mini", True)


# --- one resolution of names everywhere ---------------------------------------------------

KNOWN = "known: deepseek, openai, kimi, qwen, claude, local, embedded, mock"


@pytest.mark.parametrize(
    ("name", "provider"),
    [("kimi", "kimi"), ("Moonshot", "kimi"), ("月之暗面", "kimi"), ("ChatGPT", "openai"), ("GPT", "openai"),
     (" qwen ", "qwen"), ("通义", "qwen"), ("千问", "qwen"), ("深度求索", "deepseek"), ("DS", "deepseek")],
)
def test_resolve_provider_takes_keys_and_aliases_in_any_case(config: RouterConfig, name: str, provider: str) -> None:
    assert resolve_provider(config, name) == provider
    assert config.provider(name) is config.providers[provider]


def test_an_unknown_provider_gets_did_you_mean_on_one_line(config: RouterConfig) -> None:
    with pytest.raises(UsageError) as info:
        resolve_provider(config, "moonshoot")
    assert str(info.value) == f"unknown provider 'moonshoot' (did you mean moonshot -> kimi?); {KNOWN}"
    with pytest.raises(UsageError, match=r"^unknown provider 'deepsek' \(did you mean deepseek\?\); known: "):
        config.provider("deepsek")
    with pytest.raises(UsageError, match=r"^unknown provider 'nope'; known: "):
        route_model("hi", config, provider="nope")
    with pytest.raises(UsageError, match="non-empty"):
        resolve_provider(config, "  ")


def test_resolve_model(config: RouterConfig) -> None:
    assert resolve_model(config, "qwen", "QWEN-MAX") == ("qwen", "qwen-max", True)
    assert resolve_model(config, "anthropic", "claude-3-5-haiku-latest") == ("claude", "anthropic/claude-3-5-haiku-latest", True)
    assert resolve_model(config, "openai", "gpt-4.1-mini") == ("openai", "gpt-4.1-mini", False)
    assert resolve_model(config, None, "deepseek-reasoner") == ("deepseek", "deepseek-reasoner", True)
    with pytest.raises(UsageError, match="belongs to provider 'qwen', not 'kimi'"):
        resolve_model(config, "moonshot", "qwen-max")
    with pytest.raises(UsageError, match=r"^unknown model 'gpt-4o-minii' \(did you mean gpt-4o-mini\?\); known: "):
        resolve_model(config, None, "gpt-4o-minii")


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("deepseek/deepseek-chat", Target("deepseek", "deepseek-chat")),
        ("kimi/moonshot-v1-8k", Target("kimi", "moonshot-v1-8k")),
        ("Moonshot/moonshot-v1-8k", Target("kimi", "moonshot-v1-8k")),
        ("kimi", Target("kimi", None)),
        ("ChatGPT", Target("openai", None)),
        ("qwen-max", Target("qwen", "qwen-max")),
        ("anthropic/claude-3-5-haiku-latest", Target("claude", "anthropic/claude-3-5-haiku-latest")),
        ("claude/claude-3-5-haiku-latest", Target("claude", "anthropic/claude-3-5-haiku-latest")),
        ("anthropic/claude-3-opus", Target("claude", "anthropic/claude-3-opus", model_listed=False)),
        ("openai/gpt-4.1-mini", Target("openai", "gpt-4.1-mini", model_listed=False)),
        ("local/qwen2.5:7b", Target("local", "qwen2.5:7b", model_listed=False)),
    ],
)
def test_resolve_target(config: RouterConfig, text: str, target: Target) -> None:
    assert resolve_target(config, text) == target


def test_resolve_target_errors(config: RouterConfig) -> None:
    with pytest.raises(UsageError, match=r"^unknown provider 'moonshoot' in 'moonshoot/x' \(did you mean moonshot -> kimi\?\)"):
        resolve_target(config, "moonshoot/x")
    with pytest.raises(UsageError, match=r"^unknown provider or model 'gpt-4o-minii' \(did you mean gpt-4o-mini\?\)"):
        resolve_target(config, "gpt-4o-minii")
    with pytest.raises(UsageError, match="belongs to provider 'openai', not 'kimi'"):
        resolve_target(config, "kimi/gpt-4o")
    assert str(resolve_target(config, "kimi/moonshot-v1-8k")) == "kimi/moonshot-v1-8k"


def test_explicit_unlisted_models_route_with_their_provider(config: RouterConfig) -> None:
    expected = Route("openai", "gpt-4.1-mini", "requested openai/gpt-4.1-mini (not listed in providers.yaml)",
                     model_listed=False)
    assert route_model("hi", config, provider="ChatGPT", model="gpt-4.1-mini") == expected
    route = route_model("hi", config, model="openai/gpt-4.1-mini")
    assert (route.provider, route.model, route.model_listed) == ("openai", "gpt-4.1-mini", False)
    assert route.reason == "--model gpt-4.1-mini (provider openai, not listed in providers.yaml)"
    assert route_model("hi", config, model="kimi/moonshot-v1-8k").reason == "--model moonshot-v1-8k (provider kimi)"


def test_yaml_default_and_fallbacks_accept_aliases() -> None:
    text = YAML_TEXT.replace("default: deepseek", "default: Moonshot", 1).replace(
        "fallbacks: [deepseek, qwen, kimi, openai, embedded]", "fallbacks: [深度求索, 千问, kimi, ChatGPT, embedded]", 1
    )
    config = parse_config(text, "aliases.yaml")
    assert config.default == "kimi"
    assert config.fallbacks == ["deepseek", "qwen", "kimi", "openai", "embedded"]
    assert route_model("hello", config) == Route("kimi", "moonshot-v1-8k", "default provider")


def test_an_unknown_yaml_default_names_the_file_line_and_a_guess() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(YAML_TEXT.replace("default: deepseek", "default: moonshoot", 1), "typo.yaml")
    assert str(info.value) == f"typo.yaml:4: default: provider 'moonshoot' is not defined (did you mean moonshot -> kimi?); {KNOWN}"
    with pytest.raises(ConfigError, match=r"^typo.yaml:5: fallbacks\[1\]: provider 'qwn' is not defined \(did you mean qwen\?\)"):
        parse_config(YAML_TEXT.replace("fallbacks: [deepseek, qwen,", "fallbacks: [deepseek, qwn,", 1), "typo.yaml")


def test_router_provider_accepts_an_alias(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "providers.yaml"
    path.write_text(YAML_TEXT, encoding="utf-8")
    monkeypatch.setenv("ROUTER_PROVIDER", "月之暗面")
    assert load_config(path).default == "kimi"
    monkeypatch.setenv("ROUTER_PROVIDER", "moonshoot")
    with pytest.raises(ConfigError, match=r"ROUTER_PROVIDER='moonshoot' names no provider in .* \(did you mean moonshot -> kimi\?\)"):
        load_config(path)


# --- thousands of aliases -----------------------------------------------------------------


def _many_aliases(count: int) -> RouterConfig:
    """The shipped config plus a provider with ``count`` aliases, half Latin, half Chinese,
    many sharing prefixes with each other and with real names."""
    latin = [f"crowd{i:04d}" for i in range(count // 2)]
    chinese = [f"众{i:04d}号" for i in range(count - count // 2)]
    extra = (
        "\n  crowd:\n    client: mock\n    aliases: ["
        + ", ".join([*latin, *chinese, "kimi-fan-club"])
        + "]\n    models: [{id: crowd-model, default: true}, {id: crowd-model-large}]\n"
    )
    return parse_config(YAML_TEXT + extra, "crowd.yaml")


def test_routing_with_3000_aliases_still_finds_the_right_name() -> None:
    config = _many_aliases(3000)
    assert route_model("ask crowd1499 to explain this", config).provider == "crowd"
    assert route_model("让众1499号回答这个问题", config).provider == "crowd"
    assert route_model("用 kimi 回答：什么是量子计算", config).provider == "kimi"  # shared prefix with kimi-fan-club
    assert route_model("use kimi-fan-club", config).provider == "crowd"
    assert route_model("use crowd-model-large", config).model == "crowd-model-large"
    assert route_model("use crowd14990", config).provider == "deepseek"  # not an alias: a longer word
    assert route_model("is crowd0001 better than kimi?", config).provider == "deepseek"
    assert resolve_provider(config, "CROWD0042") == "crowd"


def test_long_texts_full_of_names_still_find_a_request_at_either_end(config: RouterConfig) -> None:
    pasted = "kimi, qwen and gpt are compared below. " * 200
    assert route_model(pasted + "用 kimi 回答这个问题", config).provider == "kimi"
    assert route_model("ask qwen to summarise this:\n" + pasted, config).provider == "qwen"
    assert route_model(pasted, config).provider == "deepseek"


@pytest.mark.parametrize(
    "text",
    ["kimi" + " " * 50_000 + "帮我", "kimi\n" * 10_000, "use gpt" + "-1" * 10_000 + "_", "use local/" + "a:" * 10_000],
)
def test_hostile_inputs_get_a_sane_route(config: RouterConfig, text: str) -> None:
    route = route_model(text, config)  # time is measured by bench/routing_names.py, not here
    assert len(route.model) <= 128


def test_a_comparison_in_an_earlier_sentence_does_not_cancel_a_request(config: RouterConfig) -> None:
    assert route_model("qwen 和 gpt 哪个好我不关心。用kimi回答：今天星期几", config).provider == "kimi"
    assert route_model("Forget qwen or gpt. Ask kimi instead", config).provider == "kimi"


_WORDS = ["kimi", "qwen", "gpt", "gpt-4o", "qwen-turbo", "千问", "用", "让", "ask", "use", "please", "的", "模型", "回答",
          "帮我", "or", "还是", "/", ":", "，", ",", " ", "\n", "'s", "how would", "answer", "o3", "@", "-", "4.1", "mini"]


@given(st.lists(st.one_of(st.sampled_from(_WORDS), st.text(max_size=5)), max_size=30))
@settings(max_examples=300, deadline=None)
def test_any_text_gets_a_route_to_a_configured_provider(parts: list[str]) -> None:
    config = parse_config(YAML_TEXT, "providers.yaml")
    route = route_model("".join(parts), config)
    assert route.provider in config.providers and route.model.strip() and route.reason
    assert route.model_listed or route.model not in {m.id for m in config.providers[route.provider].models}
