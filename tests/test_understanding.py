"""router.understanding: the task type, language and constraints of questions phrased by others.

The phrasings here were written after the cue tables, as new users would ask; none of them is
in the tables' vocabulary lists as a sentence."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from known_misses import missed  # tests/ is on sys.path under pytest

from router.understanding import TASK_TYPES, VECTOR_DIMENSION, Understanding, understand


@pytest.mark.parametrize(
    ("question", "task"),
    [
        ("Could you write a bash one-liner that renames every .txt file to .md?", "coding"),
        ("我的 Python 脚本一跑就报 KeyError，怎么排查？", "coding"),
        ("Why does my Docker container exit immediately after starting?", "coding"),
        ("Find all real x with x^2 - 5x + 6 = 0.", "maths"),
        ("证明：任意两个奇数之和是偶数", "maths"),
        ("What is the probability of drawing two aces from a shuffled deck without replacement?", "maths"),
        ("Knights always tell the truth and knaves always lie. A says 'B is a knave'. B says 'we are both knights'. Who is what?", "reasoning"),
        ("有三个盒子，一个装苹果，一个装橘子，一个混装，标签全贴错了，只摸一个水果怎么确定？这是逻辑题", "reasoning"),
        ("Extract the invoice number, date and total from this email and give me JSON.", "extraction"),
        ("把下面这段会议纪要里的待办事项和负责人提取出来", "extraction"),
        ("Compose a limerick about a cat who hates Mondays.", "writing"),
        ("帮我写一封辞职信，语气要客气", "writing"),
        ("Act as my Spanish tutor and correct everything I say.", "roleplay"),
        ("你扮演一个脾气很好的客服，我来投诉", "roleplay"),
        ("How do black holes form?", "knowledge"),
        ("DNA 和 RNA 有什么区别？", "knowledge"),
        ("What was the significance of the Treaty of Westphalia in European history?", "humanities"),
        ("唐朝为什么会发生安史之乱？", "humanities"),
        ("Translate this into German: where is the train station?", "translation"),
        ("把“我们周五上午九点见”翻译成日语", "translation"),
        ("Reword this to sound more confident: I think maybe we could try launching next week.", "translation"),
        ("good evening! long day at work", "chat"),
        ("最近总是失眠，心情也不好", "chat"),
        ("Will it rain in Seattle tomorrow?", "live_data"),
        ("比特币现在多少钱一个？", "live_data"),
        ("What's the current EUR/USD exchange rate?", "live_data"),
        ("Board meeting with Karen on Thursday at 11am", "schedule"),
        ("下周三下午三点带妈妈去医院复诊", "schedule"),
    ],
)
def test_task_types_on_new_phrasing(question: str, task: str) -> None:
    u = understand(question)
    assert u.task == task, (u.task, u.evidence, u.scores)


@pytest.mark.parametrize(
    ("question", "task"),
    [
        # a role handed to the model, however it is phrased (even the role of a scientist)
        ("You are Marie Curie, and a student asks you why you kept working with radium.", "roleplay"),
        ("Picture yourself as an old oak tree in a park that is about to be cut down. Tell me how you feel.", "roleplay"),
        ("现在你是一位严厉的健身教练，请给我安排今天的训练并且用教练的口气督促我", "roleplay"),
        # puzzles: relations, constraints and deductions, not knowledge and not sums
        ("Five runners finish a race. Kim beats Lee, Lee beats Ana, and Ana beats Raj. Who came last?", "reasoning"),
        ("No reptiles are warm-blooded and all snakes are reptiles. What can we conclude about snakes?", "reasoning"),
        ("一条船一次只能载两个人，四个人过河各需1、2、5、10分钟，最少多久全部过河？能否判断最优顺序？", "reasoning"),
        # an operation over a text the question hands over
        ("Classify each line below as a question or a statement:\nThe shop opens at nine.\nWhere is the bus stop?", "extraction"),
        ("下面是三条快讯，请找出其中提到的所有公司名称，用列表返回：\n1. 星河电子今日发布新品\n2. 远山银行上调利率", "extraction"),
        # social science and literature are humanities; venting is conversation
        ("How does a central bank's interest rate decision ripple through the housing market?", "humanities"),
        ("What does the green light symbolise in The Great Gatsby, and how do its themes evolve?", "humanities"),
        ("ugh, long day at work and my manager ignored my proposal again. I just need to vent", "chat"),
        # writing requests, including names and a piece full of figures
        ("Generate a wedding toast for my brother: together 8 years, married on 12 June, two dogs.", "writing"),
        ("帮我的宠物店起三个好记的名字", "writing"),
        # a counting problem is maths; a program asked for in a story is code
        ("In how many ways can a committee of 3 be chosen from 9 people?", "maths"),
        ("The old librarian wants a little program that sorts her book list by author. Can you write it in Python?", "coding"),
        # summarising a subject explains it; summarising a given text rewrites it
        ("Summarize the main ideas of Keynesian economics in about 150 words.", "humanities"),
        ("Summarise this for my boss: the vendor missed two deadlines and wants 10% more.", "translation"),
        # a memo that mentions a share price is writing, not a market look-up
        ("Please draft a memo telling staff that the office closes early on Friday because our share price event runs late.", "writing"),
        # quantities written as words, and ages inside a word problem, are still a word problem
        ("Maya bakes two dozen cookies and gives a third of them to her neighbours. How many cookies does she keep?", "maths"),
        ("Tom is 4 years older than his sister, who is 9 years old. How old will Tom be in 3 years?", "maths"),
        # an age is not an operand in an explanation
        ("Explain how tides work as if I were a 7 year old.", "knowledge"),
        # a framing persona ("you are an expert ...") is not a character to play
        ("You are an expert tax assistant. What is the difference between a deduction and a credit?", "knowledge"),
        # a greeting opens a Chinese message too
        ("嗨嗨，周末过得怎么样？", "chat"),
        # a currency pair written as codes is a live rate
        ("What's the JPY to USD rate right now?", "live_data"),
        # 'act like' hands over a character
        ("Act like a bored medieval knight answering my questions about dragons.", "roleplay"),
        # natural_holdout8's kinds (new phrasings): a value that changes, asked for now; a recent result;
        # a service's state now
        ("how much are eggs at the moment", "live_data"),
        ("did the yankees beat boston yesterday", "live_data"),
        ("巴萨昨天输了吗", "live_data"),
        ("is the Brooklyn bridge still closed after the crash", "live_data"),
        ("GBP to SGD right now", "live_data"),
        ("上海今天有大雾吗", "live_data"),
        # an exam item and a word problem never need a look-up, whatever weather they mention
        ("Which gas makes up most of a thunderstorm cloud?\nA. Oxygen\nB. Nitrogen\nC. Water vapour\nD. Helium", "knowledge"),
        ("A storm drops 2 cm of rain an hour for 3 hours. How much rain falls in all?", "maths"),
        # job schedulers and code named in Chinese text are programming
        ("写个crontab每周一早上八点跑备份脚本", "coding"),
        ("这段代码为什么报错：for i in range(3) print(i)", "coding"),
        # a decision between tools is a decision; counting days from a weekday and a rate riddle are puzzles
        ("Django or Rails for a two-person startup, which one", "reasoning"),
        ("If it's Friday today, what day is it in 30 days?", "reasoning"),
        ("今天周五，100天后是星期几？", "reasoning"),
        ("If 4 painters paint 4 walls in 4 hours, how long do 8 painters take for 8 walls?", "reasoning"),
        # a genre named first is the request; "it's 2am" describes the moment
        ("haiku about a leaky faucet", "writing"),
        ("limerick for my dad's retirement", "writing"),
        ("it's 2am and i'm still doing homework, kill me", "chat"),
        # a safety question about the world, nobody's own situation
        ("is it safe to microwave plastic containers", "knowledge"),
        # "from this <text>, pull ...": the text and its fields; "tldr this:" a text to condense
        ("from this invoice pull the total, due date and vendor: 'ACME Ltd, due 3 May, total $1,240'", "extraction"),
        ("tldr this: The city council voted 7-2 on Tuesday to extend the bike lane network by 12 miles over the next "
         "two years, funded by a parking levy.", "translation"),
        # natural_holdout9's kinds (new phrasings): apostrophes left out; a service running or down; market
        # sessions; the day's sunrise
        ("whos leading the tour de france right now", "live_data"),
        ("is gmail down for everyone or just me", "live_data"),
        ("is the northern line running on time", "live_data"),
        ("tsla after hours trading?", "live_data"),
        ("when's sunrise in denver tomorrow", "live_data"),
        ("北京地铁现在正常运行吗", "live_data"),
        # "make a csv of ...: <items>"; a language's short name; family and ordering riddles
        ("make a csv of the names and ages: Ana 31, Ben 27, Cy 45", "extraction"),
        ("how does a hash table work in js", "coding"),
        ("a woman has 3 sons and each son has a sister. how many children does she have", "reasoning"),
        ("老王比老李大，老李比老张大，谁最大？", "reasoning"),
        # rewrites asked as "make this more ..." or "fix my wording"; "X文什么意思" is a translation
        ("make this text more upbeat: 'The event is cancelled.'", "translation"),
        ("fix my wording: 'we was late cause traffic'", "translation"),
        ("这句法文什么意思：Je suis fatigué.", "translation"),
        # "feeling <state>" and laughter are talk; a title's words are the work's name; movements by their artists
        ("feeling pretty down tonight tbh", "chat"),
        ("嘿嘿，今天终于放假了", "chat"),
        ("《活着》这本书主要讲了什么", "humanities"),
        ("what did the surrealists want to achieve", "humanities"),
        # natural_holdout10's kinds (new phrasings): a place's or a service's state today, the weather asked as
        # "is it <weather>", the next departure, a rate "in the US"
        ("is the louvre open today", "live_data"),
        ("are flights out of denver delayed right now", "live_data"),
        ("is it raining in glasgow", "live_data"),
        ("next train to oxford from paddington", "live_data"),
        ("What's the current prime rate in the US?", "live_data"),
        ("上海今天空气好吗", "live_data"),
        # "how can I schedule ..." asks how, it files nothing
        ("how can i schedule a bash script to run at midnight on a mac", "coding"),
        # a sequence to continue and a turn-and-face riddle are puzzles
        missed("what number comes next: 1, 4, 9, 16, ?", "reasoning", why="a sequence puzzle is read as a sum to calculate"),
        ("i face east and turn left twice, which direction am i facing now", "reasoning"),
        # a greeting after the colon is the text's; "be a <role> giving ..." hands over a character
        ("rewrite as a polite message: hi team, stop booking the big room without asking", "translation"),
        ("be a strict drill sergeant giving me a workout", "roleplay"),
        # schools of thought; "如何理解“...”" interprets a saying
        ("what did the epicureans believe about pleasure", "humanities"),
        ("如何理解“知行合一”", "humanities"),
        ("collect all the emails from this: a@x.com, b@y.org, c@z.net", "extraction"),
        ("帮我缩写一下：下周起食堂午餐时间调整为十一点半到一点，请各部门错峰就餐，避免拥挤。", "translation"),
        # natural_holdout11's kinds (new phrasings): a result, a road's state, a price "these days", an office
        # holder now, casual spelling, availability, a launch event today
        ("latest result chelsea vs spurs", "live_data"),
        ("is the i-95 closed near baltimore", "live_data"),
        ("how much is a dozen eggs these days", "live_data"),
        ("wats the weather in rome", "live_data"),
        ("who is the current president of brazil", "live_data"),
        ("周六去杭州的动车还有票吗", "live_data"),
        ("小米今天发布会有什么新品", "live_data"),
        # a library's how-to is code, whatever "format" it names; an inequality on a variable is maths
        ("numpy: how to parse dates in the format yyyy/mm/dd", "coding"),
        ("什么是回调函数", "coding"),
        ("solve for all real x: |2x + 1| < 7", "maths"),
        ("if some dogs are loud and all loud animals are annoying, are some dogs annoying?", "reasoning"),
        # a language pair, "what's 'x' in <language>", a quoted English phrase's meaning asked in Chinese
        ("spanish to english: ¿dónde está la estación?", "translation"),
        ("what's 'see you soon' in portuguese", "translation"),
        ("“piece of cake”是什么意思", "translation"),
        ("帮我总结下这篇通知的要点：因电路检修，本周三上午九点至下午五点全楼停电，请提前保存工作文件。", "translation"),
        ("funny quote for my sister's birthday card", "writing"),
        ("play a nervous job candidate for a bank teller role", "roleplay"),
        ("list all the companies in this paragraph: Acme hired Globex and Initech to audit Umbrella.", "extraction"),
        ("add the school play on may 3 at 6pm to the calendar", "schedule"),
        ("今天的晚霞好美", "chat"),
        # natural_holdout12's kinds (new phrasings): opening on a day, alerts, a code pair side by side, a
        # question opening with "has"
        ("is the apple store open on new year's day", "live_data"),
        ("any tornado warning for tulsa", "live_data"),
        ("gbp chf", "live_data"),
        ("has the storm reached florida yet", "live_data"),
        # a difference between two things is explained, never looked up
        ("what's the difference between a tornado and a hurricane", "knowledge"),
        # shell flags; algorithms named in Chinese; expectation; patterns to find
        ("what does the -f flag do in grep", "coding"),
        ("帮我写一个快速排序", "coding"),
        ("what's the expected value of a single die roll", "maths"),
        ("find the pattern: 1, 2, 4, 7, 11, ...", "reasoning"),
        ("lmao the cat fell off the couch again", "chat"),
        ("今天被老板气死了", "chat"),
        # natural_holdout13's kinds (new phrasings): a flight's status, delays on a line, a market's present tense
        ("BA 117 to JFK, is it on time", "live_data"),
        ("any delays on the piccadilly line", "live_data"),
        ("what's a barrel of oil trading at", "live_data"),
        ("昨天国足比赛结果怎么样", "live_data"),
        # spreadsheets are programming; "which process" inside a how-to is no choice
        ("in excel how do i remove duplicate rows", "coding"),
        ("mac 怎么查看哪个程序占用内存", "coding"),
        ("poem idea about a lighthouse keeper", "writing"),
        # natural_holdout15-16's kinds (new phrasings): a quoted expression's meaning is a translation, unless it
        # is asked inside a language of code; "the <language> for '...'" with a greeting quoted inside
        ("what does 'sine qua non' mean", "translation"),
        ("What does 'yield' mean in Python generators?", "coding"),
        ("What's the Korean for 'hello, nice to meet you'?", "translation"),
        # log lines parsed into a table are an extraction, their clock times the records'; a job ad is writing
        ("parse these rows into a table with columns time and user:\n09:14 anna login\n09:20 li logout", "extraction"),
        ("帮我写一份产品经理的JD", "writing"),
        ("excel公式怎么把两列合并", "coding"),
        # traditional characters are read as their simplified forms
        ("幫我寫一首關於秋天的詩", "writing"),
        ("這段程式碼報錯了怎麼辦：print(x", "coding"),
        # a greeting that names a piece's kind is no greeting; a maths task for someone's homework is maths
        ("write a good morning text for my girlfriend", "writing"),
        ("find the area of a trapezoid with bases 6 and 10 and height 4, it's for my son's homework", "maths"),
    ],
)
def test_task_types_by_kind(question: str, task: str) -> None:
    u = understand(question)
    assert u.task == task, (u.task, u.evidence, u.scores)


DATA = Path(__file__).resolve().parent / "data"
sys.path.append(str(DATA.parent.parent / "bench"))  # appended: nothing of the tests' own is shadowed
from heldout_sets import held_out  # noqa: E402  (bench/heldout_sets.py: the one reader of unrun_sets.txt)

TASK_SETS = held_out(sorted(DATA.glob("task_holdout*.jsonl")))
"""Without the sets committed before their first run (tests/data/unrun_sets.txt), until that run has been made."""
HELD_OUT_FLOOR = {"task_holdout6": 0.8, "task_holdout7": 0.85, "task_holdout8": 0.85}
"""Each set was written before the cue changes that followed it. Sets 1-5 then served to find misses
(>= 0.9 per language since); set 6 was written after the last change and never used to fix anything:
its first run, 0.845 en / 0.929 zh, is the held-out figure, and it must not fall below 0.8. Set 7 (new voices,
written by one developer before reading the cue tables, committed unrun) had its one first run on main e16fe3a:
62/68 en (0.912), 38/42 zh (0.905); nothing was changed after it, and it must not fall below 0.85. Set 8 (written
the same way, other voices) had its one first run on main 28d31fb: 58/65 en (0.892), 42/45 zh (0.933); floor 0.85."""


@pytest.mark.parametrize("path", TASK_SETS, ids=lambda p: p.stem)
def test_task_type_accuracy_on_labelled_prompts(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) >= 100 and {r["task"] for r in rows} >= set(TASK_TYPES) - {"translation", "chat"}
    floor = HELD_OUT_FLOOR.get(path.stem, 0.9)
    for language in ("en", "zh"):
        mine = [r for r in rows if r["lang"] == language]
        misses = [f"{r['question'][:80]!r}: {r['task']} -> {understand(r['question']).task}"
                  for r in mine if understand(r["question"]).task != r["task"]]
        assert 1 - len(misses) / len(mine) >= floor, "\n".join(misses)


@pytest.mark.parametrize(
    ("question", "wrong"),
    [
        # numbers that are not arithmetic
        ("My grandfather was born in 1931 and fought in Korea. What was that war about?", "maths"),
        ("我家有3只猫和2条狗，它们总打架，怎么办？", "maths"),
        ("Windows 11 keeps restarting after updates, what should I check?", "maths"),
        # time words that are not schedules
        ("Translate into Chinese: our flight leaves Monday at 6am", "schedule"),
        ("Write a poem about Sunday mornings with grandma", "schedule"),
        ("昨天下午三点和老王吃了顿饭，聊得很开心", "schedule"),
        # a text to summarise, whatever times it mentions (written after the round's code, found as a miss)
        ("Summarize this: the board meets at 3pm on Friday to approve the budget.", "schedule"),
        missed("概括一下：周五下午三点董事会开会审批预算。", "schedule", why="a text to summarise is read as the entry it holds (0.80)"),
        # a habit with a clock time is talk, not an entry to file
        ("I always lie awake at 2am worrying about money. Is that common?", "schedule"),
        ("每天早上六点就醒了，再也睡不着", "schedule"),
        # symbols inside proofs are not sums
        ("Prove that 2^n > n for every natural number n.", "live_data"),
    ],
)
def test_traps_are_not_read_as_their_surface(question: str, wrong: str) -> None:
    u = understand(question)
    assert u.task != wrong, (u.task, u.evidence)
    if "Prove" in question:
        assert "proof" in u.constraints and "exact_figure" not in u.constraints


@pytest.mark.parametrize(
    "question",
    [
        "How much will $2,000 grow to in 15 years at 6% compounded quarterly?",
        "房贷100万，30年，利率3.8%，等额本息月供多少？",
        "What is 18% of 2,450?",
        "How many kilometres is 26.2 miles? Convert it.",
        "12.5 * 4.2 - 7 = ?",
    ],
)
def test_exact_figures_are_flagged(question: str) -> None:
    u = understand(question)
    assert u.task == "maths" and "exact_figure" in u.constraints, (u.task, u.constraints, u.evidence)


def test_lettered_options_are_a_question_not_a_text_to_extract_from() -> None:
    question = ("Read the question and pick the best option.\nWhich gas do plants absorb?\n"
                "A. Oxygen\nB. Carbon dioxide\nC. Nitrogen\nD. Helium")
    assert understand(question).task != "extraction"


@pytest.mark.parametrize("listed", [
    "Find every city named in these lines and return JSON:\na) Lima is foggy\nb) Oslo is cold\nc) Pune is hot",
])
def test_lines_lettered_in_lower_case_are_a_text_to_extract_from(listed: str) -> None:
    assert understand(listed).task == "extraction"


def test_long_texts_are_read_at_their_start_and_end() -> None:
    filler = " ".join(["The committee met and discussed the budget at length."] * 60)
    assert understand("Translate the following into French:\n" + filler).task == "translation"
    assert understand(filler + "\nWrite a Python function that counts the words above.").task == "coding"


def test_format_and_length_constraints() -> None:
    assert "format" in understand("List the planets as a markdown table with their radius").constraints
    assert "length" in understand("用一句话解释区块链").constraints
    assert "length" in understand("Summarise the causes of WW1 in three sentences").constraints
    assert not understand("Why is the sea salty?").constraints


@pytest.mark.parametrize(
    ("text", "language"),
    [("今天天气怎么样", "zh"), ("What's up?", "en"), ("こんにちは、元気ですか", "ja"), ("안녕하세요", "ko"),
     ("Translate to English: 我下午三点要去医院复查", "zh"), ("Привет, как дела?", "ru")],
)
def test_language(text: str, language: str) -> None:
    assert understand(text).language == language


def test_the_shape_of_an_understanding() -> None:
    u = understand("prove that sqrt(2) is irrational")
    assert isinstance(u, Understanding)
    assert u.task in TASK_TYPES and u.task == "maths"
    assert isinstance(u.constraints, frozenset)
    assert 0.0 < u.confidence <= 1.0
    assert len(u.vector) == VECTOR_DIMENSION and all(isinstance(v, float) for v in u.vector)
    assert u.evidence and "proof" in u.summary
    assert understand("prove that sqrt(2) is irrational") is u  # cached per text


def test_vector_is_deterministic_across_processes_and_separates_kinds() -> None:
    code = "from router.understanding import understand; print(understand('写一首关于秋天的诗').vector)"
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert other == str(understand("写一首关于秋天的诗").vector)

    def cosine(a: tuple[float, ...], b: tuple[float, ...]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True)) / (
            sum(x * x for x in a) ** 0.5 * sum(y * y for y in b) ** 0.5
        )

    poem, poem2 = understand("Write a poem about the sea").vector, understand("Write a short poem about rain").vector
    code_q = understand("Fix this Python TypeError in my loop").vector
    assert cosine(poem, poem2) > cosine(poem, code_q)


def test_odd_inputs() -> None:
    assert understand("").task in TASK_TYPES
    assert understand("   \n").confidence < 0.5
    huge = "这是一段很长的文字。" * 5000 + "请问今天北京天气怎么样？"
    assert understand(huge).task == "live_data"
    with pytest.raises(Exception, match="string"):
        understand(None)  # type: ignore[arg-type]


def test_importing_router_compiles_no_cue_table() -> None:
    code = (
        "import sys, router, router.understanding, router.modes.select; "
        "from router.understanding import cues; "
        "print(cues.compiled.cache_info().currsize, 'router.config' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "False"]


def test_the_fallback_model_loads_only_for_a_question_no_cue_speaks_for() -> None:
    code = (
        "from router.understanding import fallback, understand; "
        "understand('Write a Python function that reverses a list'); a = fallback._model.cache_info().currsize; "
        "u = understand('黄金能买吗'); "
        "print(a, fallback._model.cache_info().currsize, u.task, any('worded like' in e for e in u.evidence))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "1", "live_data", "True"]


@pytest.mark.parametrize(
    ("question", "task"),
    [
        # no cue family fires on these; the fallback reads them by their words
        ("meaning of life", "humanities"),
        ("黄金能买吗", "live_data"),
    ],
)
def test_the_fallback_reads_questions_without_cues(question: str, task: str) -> None:
    assert understand(question).task == task


def test_the_fallback_never_makes_an_extraction_without_a_text_nor_a_lookup_of_a_why() -> None:
    from router.understanding import fallback

    for question in ("为啥冰箱里的东西不容易坏", "why do stocks fall when rates rise"):
        u = understand(question)
        assert u.task not in ("extraction", "schedule", "live_data"), (question, u.task, u.evidence)
    assert fallback.predict("") is None


def test_an_emoji_does_not_make_a_how_to_without_a_technical_object_a_coding_question() -> None:
    """The fallback's coding needs a technical object unless the text is Chinese (its words are characters);
    a crying face is no Chinese, so a plain how-to with one is still no coding question."""
    for question in ("how do i get better at this 😭", "how do I make it work again 😅 pls"):
        u = understand(question)
        assert u.task != "coding", (question, u.evidence)
    assert understand("how do i get my script working again 😭").task == "coding"  # a script is a technical object


def test_the_reading_is_the_same_in_every_process_whatever_its_hash_seed() -> None:
    """The reason a mode or route cites must not change from one process to the next: a set's order
    follows the string hash seed, so a reading that walked sets as they come cited other terms."""
    questions = [
        "请解释一下光合作用的原理，用初中生能懂的话",
        "解方程 3x + 7 = 22，写出步骤",
        "帮我把这段话翻译成英文并润色一下：我们下周一开会讨论预算",
        "whats the best way to learn rust if i already know python and go",
    ]
    script = (
        "import json, sys\n"
        "from router.understanding import understand\n"
        "rows = [understand(q) for q in json.loads(sys.argv[1])]\n"
        "print(json.dumps([[u.task, u.confidence, list(u.evidence), list(u.scores), list(u.vector)] for u in rows]))\n"
    )
    readings = set()
    for seed in ("0", "1", "7", "12345"):
        done = subprocess.run(
            [sys.executable, "-c", script, json.dumps(questions)], capture_output=True, text=True, timeout=60,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
            check=True,
        )
        readings.add(done.stdout)
    assert len(readings) == 1, readings


@pytest.mark.parametrize(
    ("question", "task"),
    [
        # everyday know-how is knowledge, however much "how do I ..." is worded like a coding question
        ("How do I unclog a kitchen sink without chemicals?", "knowledge"),
        ("How do I stop my garden tools from getting rust on them?", "knowledge"),
        ("How do I ask for a raise without sounding greedy?", "knowledge"),
        ("Which river flows through Budapest?", "knowledge"),
        ("What is blockchain, in layman's terms?", "knowledge"),
        # a physical law is science, an ethical question about lying is humanities
        ("Explain the first law of thermodynamics with an everyday example.", "knowledge"),
        ("How would a utilitarian weigh lying to spare someone's feelings?", "humanities"),
        # a puzzle's premises name things; the puzzle is still reasoning
        ("If every planet has a core and some planets have rings, do all planets with rings have a core? Explain.",
         "reasoning"),
        ("A ferryman has to take a fox, a hen and a sack of grain over a lake one at a time; the fox can't be left "
         "alone with the hen, nor the hen with the grain. How does he do it?", "reasoning"),
        ("With a 4-minute and a 7-minute sand timer, how can you time exactly 9 minutes?", "reasoning"),
        ("Spot the one that doesn't belong: trumpet, oboe, clarinet, piano.", "reasoning"),
        # a list asked for is knowledge; a list to choose from is a decision
        ("What are some podcasts worth following for amateur astronomers?", "knowledge"),
        ("What are some ways to pay off a car loan faster, and which would you start with?", "reasoning"),
        ("A columnist says teenagers read less because phones exist. Evaluate the argument and name one fact "
         "that would weaken it.", "reasoning"),
        # labelling a given text is extraction; reworking code is code; telling a story is writing
        missed("Read this support ticket and tag it with a priority and a department: 'The payment page shows a blank "
               "screen since this morning.'", "extraction", why="a ticket to tag is read as reasoning (0.81, the bar 0.8)"),
        ("Turn this for loop into a map() call: for item in rows: out.append(item.strip())", "coding"),
        ("Write a function in Rust that parses one CSV line into fields.", "coding"),
        ("Tell me a short story about a robot who learns to paint.", "writing"),
        ("Simplify this for my grandmother: 'Mitochondria generate ATP through oxidative phosphorylation.'",
         "translation"),
        ("Simplify (x^2 - 9)/(x - 3).", "maths"),
        ("A lamp sells for $56 after a 30% markdown. What was its price before the discount?", "maths"),
    ],
)
def test_open_ended_prompts_are_read_by_their_kind_of_work(question: str, task: str) -> None:
    assert understand(question).task == task


def test_justify_your_answer_asks_for_reasons_not_a_proof() -> None:
    u = understand("Some dogs are brown and all brown animals blend in with mud. Do all dogs blend in with mud? "
                   "Justify your answer.")
    assert u.task == "reasoning"
    assert "proof" not in u.constraints
