"""route_model: explicit requests route, topic mentions do not, explicit arguments win."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from router.config import RouterConfig, parse_config
from router.errors import UsageError
from router.routing.names import Route, route_model

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
    assert route == Route("kimi", "moonshot-v1-8k", "--provider kimi")


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
    assert route_model("hi", config, provider="openai", model="gpt-4o") == Route("openai", "gpt-4o", "--provider openai --model gpt-4o")
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
