"""run_mode: the exact prompts each mode sends, languages, tot stages, history, streaming, react."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from router.clients.mock import ScriptedLLM, text_response, tool_call_response
from router.config import RouterConfig, parse_config
from router.errors import UsageError
from router.loop.run import loop_settings
from router.modes.prompts import DEFAULT_FEW_SHOT_EXAMPLES, PROMPTS, detect_language
from router.modes.run import MODES, ModeResult, run_mode
from router.types import Attempt, ChatResponse, RequestOptions, TextEvent, Usage

REPO = Path(__file__).resolve().parent.parent
YAML_TEXT = (REPO / "providers.yaml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def config() -> RouterConfig:
    return parse_config(YAML_TEXT, "providers.yaml")


def _reply(text: str, *, tokens: int = 10, finish_reason: str = "stop", attempts: tuple[Attempt, ...] = ()) -> ChatResponse:
    base = text_response(text, finish_reason=finish_reason)
    return ChatResponse(base.message, finish_reason=finish_reason, usage=Usage(tokens, tokens, 2 * tokens), attempts=attempts)


def test_modes_registry() -> None:
    assert MODES == ("cot", "few_shot", "react", "tot")


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("今天北京天气怎么样", "zh"),
        ("What is the weather in Beijing?", "en"),
        ("请 deepseek 解释 transformer 的 attention", "zh"),
        ("用 kimi 回答", "zh"),
        ("What does 月之暗面 mean in English", "en"),
        ("Translate '你好吗' into English", "en"),
        ("", "en"),
    ],
)
def test_detect_language(text: str, language: str) -> None:
    assert detect_language(text) == language


def test_cot_sends_the_step_by_step_prompt_in_chinese(config: RouterConfig) -> None:
    llm = ScriptedLLM([_reply("答案是 12")])
    result = run_mode("cot", "长方形周长24，长比宽多4，面积多少？", llm, config=config)
    assert llm.calls[0].messages == [
        {"role": "system", "content": "你是一个逻辑缜密、思维严谨的推理助手。"},
        {"role": "user", "content": "请一步步思考，再给出答案。\n问题：长方形周长24，长比宽多4，面积多少？"},
    ]
    assert llm.calls[0].tools is None
    assert result == ModeResult(
        text="答案是 12",
        mode="cot",
        provider="",
        model="",
        steps=1,
        usage=Usage(10, 10, 20),
        stopped_reason="answer",
        messages=(*llm.calls[0].messages, {"role": "assistant", "content": "答案是 12"}),
    )
    assert result.tool_records == () and result.grounded is False


def test_cot_in_english_and_options_reach_the_client(config: RouterConfig) -> None:
    llm = ScriptedLLM([_reply("42")])
    run_mode("cot", "Why is 6 * 7 = 42?", llm, config=config, options=RequestOptions(temperature=0.2))
    assert llm.calls[0].messages == [
        {"role": "system", "content": "You are a careful, rigorous reasoning assistant."},
        {"role": "user", "content": "Think step by step, then give the answer.\nQuestion: Why is 6 * 7 = 42?"},
    ]
    assert llm.calls[0].options == RequestOptions(temperature=0.2)


def test_language_can_be_forced(config: RouterConfig) -> None:
    llm = ScriptedLLM([_reply("ok")])
    run_mode("cot", "Why?", llm, config=config, language="zh")
    assert llm.calls[0].messages[0]["content"] == PROMPTS["zh"].cot_system
    with pytest.raises(UsageError, match="unknown language 'fr'"):
        run_mode("cot", "Why?", llm, config=config, language="fr")  # type: ignore[arg-type]


def test_few_shot_sends_the_yaml_examples_as_pairs(config: RouterConfig) -> None:
    llm = ScriptedLLM([_reply("时间:周三上午;人物:王老师;事项:开会")])
    result = run_mode("few_shot", "周三上午和王老师开会", llm, config=config)
    expected = [{"role": "system", "content": PROMPTS["zh"].few_shot_system}]
    for example in config.modes.few_shot_examples:
        expected += [{"role": "user", "content": example.question}, {"role": "assistant", "content": example.answer}]
    expected.append({"role": "user", "content": "周三上午和王老师开会"})
    assert llm.calls[0].messages == expected
    assert len(config.modes.few_shot_examples) == 3
    assert result.text == "时间:周三上午;人物:王老师;事项:开会"
    assert result.mode == "few_shot"


def test_few_shot_defaults_to_the_seed_examples_and_takes_custom_ones() -> None:
    bare = parse_config("default: m\nproviders:\n  m:\n    client: mock\n    models: [{id: m1}]\n", "bare.yaml")
    llm = ScriptedLLM([_reply("x")])
    run_mode("few_shot", "Tea with Jo at 4pm", llm, config=bare)
    sent = llm.calls[0].messages
    assert sent[0] == {"role": "system", "content": PROMPTS["en"].few_shot_system}
    pairs = [(sent[i]["content"], sent[i + 1]["content"]) for i in range(1, len(sent) - 1, 2)]
    assert pairs == list(DEFAULT_FEW_SHOT_EXAMPLES)
    assert ("我明天下午3点约了张医生复诊", "时间:明天下午3点;人物:张医生;事项:复诊") in pairs

    custom = parse_config(
        "default: m\nmodes:\n  few_shot_examples:\n    - {question: 'Q1', answer: 'A1'}\n"
        "providers:\n  m:\n    client: mock\n    models: [{id: m1}]\n",
        "custom.yaml",
    )
    llm = ScriptedLLM([_reply("x")])
    run_mode("few_shot", "Q2", llm, config=custom)
    assert [m["content"] for m in llm.calls[0].messages[1:]] == ["Q1", "A1", "Q2"]


def test_tot_runs_three_stages_and_keeps_them(config: RouterConfig) -> None:
    attempt = Attempt("deepseek", "deepseek-chat", ok=True)
    llm = ScriptedLLM(
        [
            _reply("1. 开咖啡店\n2. 做电商\n3. 开发App", tokens=5, attempts=(attempt,)),
            _reply("1. 7分 风险适中\n2. 8分 成本低\n3. 5分 门槛高", tokens=7),
            _reply("选择方案2：做电商。步骤：……", tokens=11),
        ]
    )
    question = "我想创业，开咖啡店、做电商和开发App，哪个方案最好？"
    result = run_mode("tot", question, llm, config=config)
    assert len(llm.calls) == 3
    first, second, third = (call.messages for call in llm.calls)
    assert first == [
        {"role": "system", "content": "你是擅长发散思维的规划专家。"},
        {"role": "user", "content": f"请针对以下问题给出3种不同的解决思路，编号列出，每种用两三句话说明：\n{question}"},
    ]
    assert second[0] == {"role": "system", "content": "你是严格的评审专家，打分要客观。"}
    assert second[1]["content"] == (
        f"问题：{question}\n\n以下是3个方案：\n1. 开咖啡店\n2. 做电商\n3. 开发App\n\n"
        "请根据可行性、实施难度和风险，对每个方案逐一打分（1-10分），并各用一句话说明理由。"
    )
    assert third[0] == {"role": "system", "content": "你是决策专家，直接给出最终选择。"}
    assert "1. 开咖啡店" in third[1]["content"] and "2. 8分 成本低" in third[1]["content"]
    assert result.stages == {
        "approaches": "1. 开咖啡店\n2. 做电商\n3. 开发App",
        "scores": "1. 7分 风险适中\n2. 8分 成本低\n3. 5分 门槛高",
        "choice": "选择方案2：做电商。步骤：……",
    }
    assert result.text == (
        "【方案】\n1. 开咖啡店\n2. 做电商\n3. 开发App\n\n【评审】\n1. 7分 风险适中\n2. 8分 成本低\n3. 5分 门槛高"
        "\n\n【决策】\n选择方案2：做电商。步骤：……"
    )
    assert result.steps == 3
    assert result.usage == Usage(23, 23, 46)
    assert result.attempts == (attempt,)
    assert result.mode == "tot" and result.tool_records == () and not result.grounded


def test_tot_in_english_uses_the_configured_branch_count() -> None:
    five = parse_config(YAML_TEXT.replace("tot_branches: 3", "tot_branches: 5", 1), "five.yaml")
    llm = ScriptedLLM([_reply("A"), _reply("S"), _reply("C")])
    result = run_mode("tot", "Which database should we pick?", llm, config=five)
    assert llm.calls[0].messages[1]["content"].startswith("Give 5 distinct approaches")
    assert "Here are 5 approaches:\nA" in llm.calls[1].messages[1]["content"]
    assert result.text == "## Approaches\nA\n\n## Scores\nS\n\n## Choice\nC"


def test_history_goes_right_before_the_question(config: RouterConfig) -> None:
    history = [{"role": "user", "content": "My name is Li."}, {"role": "assistant", "content": "Hello Li."}]
    llm = ScriptedLLM([_reply("Li")])
    run_mode("cot", "What is my name?", llm, config=config, history=history)
    sent = llm.calls[0].messages
    assert sent[1:3] == history
    assert sent[3]["role"] == "user" and sent[3]["content"].endswith("What is my name?")

    llm = ScriptedLLM([_reply("a"), _reply("b"), _reply("c")])
    run_mode("tot", "Which plan?", llm, config=config, history=history)
    for call in llm.calls:
        assert call.messages[1:3] == history and call.messages[3]["role"] == "user"

    with pytest.raises(UsageError, match="history"):
        run_mode("cot", "x", ScriptedLLM([]), config=config, history=[{"role": "tool", "content": "x"}])


def test_length_cut_and_reasoning_only_replies(config: RouterConfig) -> None:
    llm = ScriptedLLM([_reply("partial", finish_reason="length")])
    assert run_mode("cot", "Why?", llm, config=config).stopped_reason == "length"
    reasoning_only = text_response("", reasoning="thought it through: 4")
    assert run_mode("cot", "2+2?", ScriptedLLM([reasoning_only]), config=config).text == "thought it through: 4"


def test_unknown_mode_is_a_usage_error(config: RouterConfig) -> None:
    with pytest.raises(UsageError, match=r"unknown mode 'magic' \(choose from cot, few_shot, react, tot\)"):
        run_mode("magic", "x", ScriptedLLM([]), config=config)


def test_streaming_forwards_deltas_and_matches_the_text(config: RouterConfig) -> None:
    events: list[Any] = []
    llm = ScriptedLLM([_reply("first stage " * 3), _reply("second"), _reply("third")])
    result = run_mode("tot", "Which plan is best?", llm, config=config, stream=True, on_event=events.append)
    assert all(isinstance(e, TextEvent) and not e.reasoning for e in events)
    assert "".join(e.text for e in events) == result.text
    assert len(events) > 6  # headers plus several deltas per stage


# --- react goes through the shared loop -------------------------------------------------------


def _registry() -> Any:
    from router.tools.registry import ToolRegistry, tool

    @tool
    def get_weather(city: str) -> str:
        """Current weather of a city.

        Args:
            city: the city name
        """
        return f"{city}: 晴, 25°C"

    return ToolRegistry([get_weather])


def test_react_runs_the_tool_loop_and_records_the_tools(config: RouterConfig) -> None:
    llm = ScriptedLLM([tool_call_response(("get_weather", {"city": "北京"})), _reply("北京今天晴，25°C")])
    events: list[Any] = []
    result = run_mode(
        "react", "今天北京天气怎么样", llm, config=config, registry=_registry(), on_event=events.append
    )
    assert result.mode == "react"
    assert result.text == "北京今天晴，25°C"
    assert [(r.tool, r.arguments, r.result) for r in result.tool_records] == [("get_weather", {"city": "北京"}, "北京: 晴, 25°C")]
    assert result.grounded is True
    assert result.steps == 2
    assert result.stopped_reason == "answer"
    first = llm.calls[0]
    assert first.messages == [
        {"role": "system", "content": PROMPTS["zh"].react_system},
        {"role": "user", "content": "今天北京天气怎么样"},
    ]
    assert [t["function"]["name"] for t in first.tools or []] == ["get_weather"]
    roles = [m["role"] for m in result.messages]
    assert roles[-3:] == ["assistant", "tool", "assistant"]
    assert any(getattr(e, "kind", None) == "tool_call" for e in events)


def test_react_uses_config_loop_limits_unless_overridden(config: RouterConfig) -> None:
    # two tool steps; the model still wants a third, so the forced tool-less request gets the final answer
    looping = [tool_call_response(("get_weather", {"city": f"c{i}"})) for i in range(3)]
    llm = ScriptedLLM([*looping, _reply("best effort")])
    result = run_mode("react", "weather?", llm, config=config, registry=_registry(), loop=loop_settings(config.loop, max_steps=2))
    assert result.stopped_reason == "max_steps"
    assert len(result.tool_records) == 2
    assert "best effort" in result.text

    one_step = parse_config(YAML_TEXT.replace("max_steps: 8", "max_steps: 1", 1), "one.yaml")
    llm = ScriptedLLM([tool_call_response(("get_weather", {"city": "x"})), tool_call_response(("get_weather", {"city": "y"})), _reply("from config")])
    result = run_mode("react", "weather?", llm, config=one_step, registry=_registry())
    assert (result.stopped_reason, len(result.tool_records)) == ("max_steps", 1)


def test_react_streams_its_answer_as_it_comes(config: RouterConfig) -> None:
    llm = ScriptedLLM([_reply("no tools needed, the answer streams in pieces")])
    events: list[Any] = []
    result = run_mode("react", "hi", llm, config=config, registry=_registry(), stream=True, on_event=events.append)
    texts = [e.text for e in events if isinstance(e, TextEvent)]
    assert len(texts) > 1 and "".join(texts) == result.text
    assert result.tool_records == () and result.grounded is False


@pytest.mark.parametrize(
    ("question", "tool", "arguments"),
    [
        ("What is 365*24?", "calculator", {"expression": "365*24"}),
        ("计算 (12+8)×3 等于多少", "calculator", {"expression": "(12+8)*3"}),
        ("What time is it in Tokyo?", "get_current_time", {"timezone": "Asia/Tokyo"}),
        ("东京现在几点", "get_current_time", {"timezone": "Asia/Tokyo"}),
        ("What's the weather like in Paris?", "get_weather", {"city": "Paris"}),
    ],
)
def test_a_plain_tool_need_is_recognised(question: str, tool: str, arguments: dict[str, Any]) -> None:
    from router.modes.pretools import recognise

    call = recognise(question, frozenset({"calculator", "get_current_time", "get_weather"}))
    assert call is not None and (call.tool, call.arguments) == (tool, arguments)


@pytest.mark.parametrize("question", ["Why is the sky blue?", "Tell me about 2024", "Compare plan A with plan B", "What time is it?"])
def test_no_tool_is_guessed_without_a_plain_need(question: str) -> None:
    from router.modes.pretools import recognise

    assert recognise(question, frozenset({"calculator", "get_current_time", "get_weather"})) is None


def test_small_models_get_the_recognised_tool_result_before_answering(config: RouterConfig) -> None:
    from router.tools.registry import ToolRegistry

    llm = ScriptedLLM([_reply("Final Answer: 7836")])
    result = run_mode("react", "What is 365*24?", llm, config=config, registry=ToolRegistry.default(), protocol="text",
                      pre_run_tools=True)  # fmt: skip
    assert [(r.tool, r.result) for r in result.tool_records] == [("calculator", '{"expression": "365*24", "result": 8760}')]
    assert llm.calls == [], "the calculator's figure is the answer: the small model is not asked"
    assert result.text == "365*24 = 8760" and result.grounded
