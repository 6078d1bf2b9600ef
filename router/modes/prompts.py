"""Prompt texts of the answering modes, in Chinese and English.

A Chinese question gets Chinese instructions: mixing languages makes smaller
models answer in the wrong one. Texts live here, apart from the mode logic, so
wording can change without touching control flow (and tests pin the wording).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from router.lazyre import LazyPattern

Language = Literal["zh", "en"]

_CJK = LazyPattern(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]", ascii="")
_LATIN = re.compile(r"[A-Za-z]")
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"|'[^']*'")
# Grammar characters only a Chinese sentence has: "请 deepseek 解释 attention 的原理" is Chinese
# even though most of its letters are Latin.
_ZH_FUNCTION = LazyPattern(r"[的了吗呢吧是在我你他她请帮把么什怎哪个这那就都也和与]", ascii="")


def detect_language(text: str) -> Language:
    """``"zh"`` when the sentence is Chinese, ``"en"`` otherwise (quoted material is ignored)."""
    body = _QUOTED.sub(" ", text)
    if not _CJK.search(body) and not _LATIN.search(body):
        body = text  # everything was quoted: judge the quote itself
    cjk = len(_CJK.findall(body))
    if cjk == 0:
        return "en"
    if _ZH_FUNCTION.search(body):
        return "zh"
    return "zh" if cjk * 2 >= len(_LATIN.findall(body)) else "en"


@dataclass(frozen=True)
class ModePrompts:
    cot_system: str
    cot_user: str  # {question}
    few_shot_system: str
    react_system: str
    tot_approaches_system: str
    tot_approaches_user: str  # {n} {question}
    tot_scores_system: str
    tot_scores_user: str  # {n} {question} {approaches}
    tot_choice_system: str
    tot_choice_user: str  # {question} {approaches} {scores}
    tot_text: str  # {approaches} {scores} {choice}


PROMPTS: dict[Language, ModePrompts] = {
    "zh": ModePrompts(
        cot_system="你是一个逻辑缜密、思维严谨的推理助手。",
        cot_user="请一步步思考，再给出答案。\n问题：{question}",
        few_shot_system="你是擅长信息抽取的助手。请严格按照示例的格式输出，不要添加其他内容。",
        react_system=(
            "你是一位有多种能力的小助手。需要实时信息（天气、时间、新闻、汇率等）或精确计算时，"
            "请调用提供的工具，并根据工具结果回答；不要编造工具没有给出的数据。"
        ),
        tot_approaches_system="你是擅长发散思维的规划专家。",
        tot_approaches_user="请针对以下问题给出{n}种不同的解决思路，编号列出，每种用两三句话说明：\n{question}",
        tot_scores_system="你是严格的评审专家，打分要客观。",
        tot_scores_user=(
            "问题：{question}\n\n以下是{n}个方案：\n{approaches}\n\n"
            "请根据可行性、实施难度和风险，对每个方案逐一打分（1-10分），并各用一句话说明理由。"
        ),
        tot_choice_system="你是决策专家，直接给出最终选择。",
        tot_choice_user=(
            "问题：{question}\n\n方案：\n{approaches}\n\n评分：\n{scores}\n\n"
            "综合以上评分，选出最优方案，说明理由，并给出具体实施步骤。"
        ),
        tot_text="【方案】\n{approaches}\n\n【评审】\n{scores}\n\n【决策】\n{choice}",
    ),
    "en": ModePrompts(
        cot_system="You are a careful, rigorous reasoning assistant.",
        cot_user="Think step by step, then give the answer.\nQuestion: {question}",
        few_shot_system=(
            "You are an assistant that extracts information. Answer strictly in the format of the examples, "
            "with nothing else."
        ),
        react_system=(
            "You are a helpful assistant with tools. When the answer needs live information (weather, time, news, "
            "exchange rates, ...) or exact calculation, call the tools provided and answer from their results; "
            "never invent data a tool did not return."
        ),
        tot_approaches_system="You are a planning expert who thinks broadly.",
        tot_approaches_user=(
            "Give {n} distinct approaches to the following problem, numbered, each explained in two or three "
            "sentences:\n{question}"
        ),
        tot_scores_system="You are a strict reviewer; score objectively.",
        tot_scores_user=(
            "Problem: {question}\n\nHere are {n} approaches:\n{approaches}\n\n"
            "Score each approach from 1 to 10 for feasibility, difficulty and risk, with a one-sentence reason each."
        ),
        tot_choice_system="You are a decision maker; state your final choice directly.",
        tot_choice_user=(
            "Problem: {question}\n\nApproaches:\n{approaches}\n\nScores:\n{scores}\n\n"
            "Taking the scores into account, choose the best approach, say why, and give concrete steps to carry it out."
        ),
        tot_text="## Approaches\n{approaches}\n\n## Scores\n{scores}\n\n## Choice\n{choice}",
    ),
}

DEFAULT_FEW_SHOT_EXAMPLES: tuple[tuple[str, str], ...] = (
    ("我明天下午3点约了张医生复诊", "时间:明天下午3点;人物:张医生;事项:复诊"),
    ("周五晚上和李总在望江楼吃饭", "时间:周五晚上;人物:李总;事项:吃饭"),
    ("Lunch with Sarah next Monday at noon", "time: next Monday at noon; person: Sarah; event: lunch"),
)
"""The seeds' time/person/event examples, used when providers.yaml lists none."""


def prompts_for(language: Language) -> ModePrompts:
    return PROMPTS[language]


__all__ = ["DEFAULT_FEW_SHOT_EXAMPLES", "PROMPTS", "Language", "ModePrompts", "detect_language", "prompts_for"]
