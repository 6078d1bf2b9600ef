"""Learning from outcomes, in one process: answer ids, feedback, implicit signals, the learner's decisions."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import textwrap

import pytest

from router import (
    ConfigError,
    FeedbackRefusedError,
    Router,
    ScriptedLLM,
    UnknownAnswerError,
    UsageError,
    parse_config,
    text_response,
)
from router.routing.learning import STATS_KEY, Explorer, Learner
from router.routing.outcomes import schema_holds, signals
from router.state.memory import MemoryStore
from router.types import Answer, RequestOptions

CONFIG = textwrap.dedent(
    """\
    default: cheap
    fallbacks: [cheap]
    retry: {max_wait_s: 0}
    routing:
      strategy: auto
      threshold: 0.75
      tiers:
        fast: [cheap/cheap-1]
        strong: [big/big-1]
      learning: {enabled: true, explore_share: 0.0, min_evidence: 8}
    providers:
      cheap:
        client: mock
        models: [{id: cheap-1, price_in: 0.1, price_out: 0.2}]
      big:
        client: mock
        models: [{id: big-1, price_in: 5, price_out: 15}]
    """
)


class Echo(ScriptedLLM):
    """Answers every call (a scripted client that never runs out)."""

    def __init__(self, name: str) -> None:
        super().__init__([], provider=name, model=name)

    async def achat(self, messages, tools=None, *, options=None):  # type: ignore[no-untyped-def,override]
        self.calls.append(list(messages))
        return text_response(f"answer from {self.provider}")


def make_router(text: str = CONFIG, **kwargs) -> Router:  # type: ignore[no-untyped-def]
    return Router(parse_config(text, "learn.yaml"), clients={"cheap": Echo("cheap"), "big": Echo("big")}, **kwargs)


CODING = [f"Write a python function that returns the {n}th fibonacci number using a loop" for n in range(3, 40)]
WRITING = [f"Write a short poem about the colour number {n} of a rainbow at dusk" for n in range(3, 40)]


def test_every_answer_has_its_own_id() -> None:
    r = make_router(CONFIG.replace("enabled: true", "enabled: false"))
    ids = {r.ask("hello there", mode="cot").id for _ in range(5)}
    ids.add(asyncio.run(r.achat([{"role": "user", "content": "hi"}])).id)
    assert len(ids) == 6 and all(i.startswith("ans-") and len(i) > 12 for i in ids)
    given = asyncio.run(r.aask("hello", mode="cot", answer_id="chatcmpl-abc"))
    assert given.id == "chatcmpl-abc"


def test_feedback_with_learning_off_says_why() -> None:
    r = make_router(CONFIG.replace("enabled: true", "enabled: false"))
    answer = r.ask("hello there", mode="cot")
    with pytest.raises(UnknownAnswerError, match=r"routing\.learning\.enabled"):
        r.feedback(answer.id, 1.0)
    with pytest.raises(UsageError, match=r"between 0\.0 and 1\.0"):
        r.feedback(answer.id, 2.0)


@pytest.mark.parametrize("score", [-0.01, 1.01, math.nan, math.inf, True, "0.5", None])
def test_bad_scores_are_refused_and_nothing_is_stored(score: object) -> None:
    r = make_router()
    answer = r.ask(CODING[0], model="auto", mode="cot")
    before = asyncio.run(r.state.note_get(f"answer:{answer.id}"))
    with pytest.raises(UsageError, match="score"):
        r.feedback(answer.id, score)  # type: ignore[arg-type]
    assert asyncio.run(r.state.note_get(f"answer:{answer.id}")) == before


def test_unknown_expired_and_foreign_ids_are_refused() -> None:
    now = [1_000_000.0]
    r = make_router(clock=lambda: now[0])
    with pytest.raises(UnknownAnswerError):
        r.feedback("ans-never-issued", 1.0)
    answer = asyncio.run(r.aask(CODING[0], model="auto", mode="cot", caller="KEY_A"))
    fields = ["*|fast|n", "*|fast|r"]
    stats = asyncio.run(r.state.decay_read(STATS_KEY, fields, now[0], 7 * 86400))
    with pytest.raises(FeedbackRefusedError):
        asyncio.run(r.afeedback(answer.id, 0.0, caller="KEY_B"))
    assert asyncio.run(r.state.decay_read(STATS_KEY, fields, now[0], 7 * 86400)) == stats  # nothing counted
    asyncio.run(r.afeedback(answer.id, 0.0, caller="KEY_A"))
    after = asyncio.run(r.state.decay_read(STATS_KEY, fields, now[0], 7 * 86400))
    assert after[0] == pytest.approx(1.0) and after[1] == pytest.approx(0.0)  # the implicit 0.1 replaced by weight 1
    now[0] += 86_400 + 1  # past routing.learning.feedback_window_s
    with pytest.raises(UnknownAnswerError, match="feedback_window_s"):
        asyncio.run(r.afeedback(answer.id, 1.0, caller="KEY_A"))


def test_feedback_twice_replaces_instead_of_adding() -> None:
    r = make_router(clock=lambda: 5_000.0)
    answer = r.ask(CODING[0], model="auto", mode="cot")
    for score in (0.0, 1.0, 0.25):
        r.feedback(answer.id, score)
    n, total = asyncio.run(r.state.decay_read(STATS_KEY, ["*|fast|n", "*|fast|r"], 5_000.0, 7 * 86400))
    assert (n, total) == (pytest.approx(1.0), pytest.approx(0.25))


def test_learning_sends_a_kind_the_fast_tier_fails_up_and_leaves_others_alone() -> None:
    r = make_router()
    before = r.ask(CODING[-1], model="auto", mode="cot")
    assert before.provider == "cheap" and "learned" not in before.route_reason
    for coding, writing in zip(CODING[:20], WRITING[:20], strict=True):
        r.feedback(r.ask(coding, model="auto", mode="cot").id, 0.0)
        r.feedback(r.ask(writing, model="auto", mode="cot").id, 1.0)
    after = r.ask(CODING[-1], model="auto", mode="cot")  # a question of that kind it has not seen
    assert after.provider == "big", after.route_reason
    assert "(learned +" in after.route_reason and "outcomes)" in after.route_reason
    other = r.ask(WRITING[-1], model="auto", mode="cot")
    assert other.provider == "cheap"


def test_a_difference_the_evidence_does_not_show_leaves_the_prior_to_decide() -> None:
    r = make_router()
    for i, (coding, writing) in enumerate(zip(CODING[:30], WRITING[:30], strict=True)):
        # the fast tier does a little worse on coding (0.6 against 0.7): too little, on 30 outcomes each, to tell
        r.feedback(r.ask(coding, model="auto", mode="cot").id, 1.0 if i % 5 < 3 else 0.0)
        r.feedback(r.ask(writing, model="auto", mode="cot").id, 1.0 if i % 10 < 7 else 0.0)
    for question in (CODING[-1], WRITING[-1]):
        after = r.ask(question, model="auto", mode="cot")
        assert after.provider == "cheap" and "learned" not in after.route_reason, after.route_reason


def test_explicit_requests_are_never_explored() -> None:
    r = make_router(CONFIG.replace("explore_share: 0.0", "explore_share: 0.5"))
    answers = [r.ask(f"question {i}", mode="cot", provider="cheap") for i in range(40)]
    assert {a.provider for a in answers} == {"cheap"} and not any("exploring" in a.route_reason for a in answers)
    auto = [r.ask(f"question {i}", mode="cot", model="auto") for i in range(40)]
    assert 19 <= sum("exploring" in a.route_reason for a in auto) <= 21


@pytest.mark.parametrize("share", [0.05, 0.1, 0.2])
def test_exploration_share_holds_within_one_point_over_1000_decisions(share: float) -> None:
    import random

    rng = random.Random(7)
    explorer = Explorer(share, rng)
    margins = [rng.random() for _ in range(4000)]  # how far each decision's score was from the threshold
    decisions = [explorer.explores(m) for m in margins]
    for start in range(0, 3001, 100):  # every window of 1,000 decisions
        assert abs(sum(decisions[start : start + 1000]) / 1000 - share) <= 0.01, start
    explored = [m for m, e in zip(margins, decisions, strict=True) if e]
    assert sum(explored) / len(explored) < 0.25  # the cheap ones, near the threshold (all: 0.5)
    # and nearly all of them among the nearest few: twice the share of decisions (the nearest third cost PGR)
    assert sum(m <= 2 * share for m in explored) >= 0.8 * len(explored)


def test_a_store_that_cannot_be_reached_means_the_prior_and_one_warning(caplog) -> None:  # type: ignore[no-untyped-def]
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nothing listens here once closed
    text = CONFIG.replace("routing:", f"state: {{redis_url: 'redis://127.0.0.1:{port}/0', timeout_s: 0.2}}\nrouting:")
    r = make_router(text)
    with caplog.at_level(logging.WARNING):
        answers = [r.ask(CODING[i], model="auto", mode="cot") for i in range(3)]
    assert all(a.provider == "cheap" and "learned" not in a.route_reason for a in answers)
    mine = [rec for rec in caplog.records if rec.name == "router.learning"]
    assert len(mine) == 1 and "routing by the prior" in mine[0].getMessage()


def test_the_same_question_again_marks_the_earlier_answer() -> None:
    r = make_router()
    first = asyncio.run(r.aask(CODING[0], model="auto", mode="cot", caller="K"))
    asyncio.run(r.aask(CODING[0], model="auto", mode="cot", caller="OTHER"))  # another key: not a re-ask
    assert json.loads(asyncio.run(r.state.note_get(f"answer:{first.id}")) or "{}")["src"] == "answered"
    asyncio.run(r.aask(CODING[0], model="auto", mode="cot", caller="K"))
    record = json.loads(asyncio.run(r.state.note_get(f"answer:{first.id}")) or "{}")
    assert (record["src"], record["s"], record["w"]) == ("repeat", 0.0, 0.5)


def answer(**fields) -> Answer:  # type: ignore[no-untyped-def]
    return Answer(**{"text": "fine", "mode": "cot", "provider": "p", "model": "m", **fields})


def test_implicit_signals() -> None:
    assert signals(answer(), None) == []
    assert signals(answer(text="  "), None) == ["empty"]
    assert signals(answer(stopped_reason="error"), None) == ["error"]
    assert signals(answer(stopped_reason="max_steps"), None) == ["step_bound"]
    assert signals(answer(refused=True), None) == ["refusal"]
    assert signals(answer(finish_reason="content_filter"), None) == ["content_filter"]
    assert signals(answer(finish_reason="length"), None) == ["length"]
    schema = {"type": "json_schema", "json_schema": {"name": "x", "schema": {
        "type": "object", "required": ["city", "days"],
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}}}  # fmt: skip
    wants = RequestOptions(response_format=schema)
    assert signals(answer(text='{"city": "Oslo", "days": 3}'), wants) == []
    assert signals(answer(text='{"city": "Oslo"}'), wants) == ["schema_failure"]
    assert signals(answer(text='{"city": "Oslo", "days": "3"}'), wants) == ["schema_failure"]
    assert signals(answer(text="Oslo, 3 days"), wants) == ["schema_failure"]
    assert not schema_holds("[1]", {"type": "json_object"}) and schema_holds("{}", {"type": "json_object"})


def test_learning_yaml_is_validated_with_file_and_line() -> None:
    with pytest.raises(ConfigError, match=r"learn.yaml:\d+.*routing.learning.explore_sahre: unknown key \(did you mean explore_share\?\)"):
        parse_config(CONFIG.replace("explore_share: 0.0", "explore_sahre: 0.1"), "learn.yaml")
    with pytest.raises(ConfigError, match=r"learn.yaml:\d+.*routing.learning.explore_share"):
        parse_config(CONFIG.replace("explore_share: 0.0", "explore_share: 2"), "learn.yaml")
    with pytest.raises(ConfigError, match=r"routing.learning.signals.empty"):
        parse_config(CONFIG.replace("min_evidence: 8", "min_evidence: 8, signals: {empty: -1}"), "learn.yaml")
    assert parse_config(CONFIG.replace("enabled: true, ", ""), "learn.yaml").routing.learning.enabled is False


def test_decayed_counters_halve_every_half_life_and_survive_rebasing() -> None:
    store = MemoryStore()

    async def run() -> None:
        await store.decay_add("k", {"a": 1.0}, at=0.0, half_life_s=10.0, ttl_s=1e9)
        assert await store.decay_read("k", ["a", "b"], 10.0, 10.0) == [pytest.approx(0.5), 0.0]
        await store.decay_add("k", {"a": 1.0}, at=10.0, half_life_s=10.0, ttl_s=1e9)
        assert (await store.decay_read("k", ["a"], 10.0, 10.0))[0] == pytest.approx(1.5)
        await store.decay_add("k", {"a": 1.0}, at=5000.0, half_life_s=10.0, ttl_s=1e9)  # rebased: old evidence ~0
        assert (await store.decay_read("k", ["a"], 5000.0, 10.0))[0] == pytest.approx(1.0)

    asyncio.run(run())


def test_learner_cells_are_stable_across_processes() -> None:
    class U:
        task, vector = "coding", (0.3, -0.2, 0.9, 0.1)

    one = Learner(parse_config(CONFIG, "l.yaml").routing.learning, MemoryStore(), understand=lambda q: U())
    two = Learner(parse_config(CONFIG, "l.yaml").routing.learning, MemoryStore(), understand=lambda q: U())
    assert one.kind("x") == two.kind("x") and one.kind("x").cells[0] == "coding"


def test_decayed_counters_on_redis_match_memory(redis_server) -> None:  # type: ignore[no-untyped-def]
    from router.state.redis import RedisStore

    redis = RedisStore(redis_server.url, key_prefix="learn-decay-test:")
    memory = MemoryStore()

    async def run(store) -> list[float]:  # type: ignore[no-untyped-def]
        await store.decay_add("k", {"a": 1.0, "b": 0.25}, at=100.0, half_life_s=10.0, ttl_s=60.0)
        await store.decay_add("k", {"a": -0.5}, at=100.0, half_life_s=10.0, ttl_s=60.0)  # a withdrawal
        await store.decay_add("k", {"a": 2.0}, at=120.0, half_life_s=10.0, ttl_s=60.0)
        early = await store.decay_read("k", ["a", "b", "c"], 120.0, 10.0)
        await store.decay_add("k", {"b": 1.0}, at=100.0 + 10.0 * 200, half_life_s=10.0, ttl_s=60.0)  # rebased
        late = await store.decay_read("k", ["a", "b"], 100.0 + 10.0 * 200, 10.0)
        assert await store.note_set("n", "one", 5.0, swap=True) is None
        assert await store.note_set("n", "two", 5.0, swap=True) == "one"
        assert await store.note_get("n") == "two"
        await store.aclose()
        return [*early, *late]

    got, want = asyncio.run(run(redis)), asyncio.run(run(memory))
    assert got == pytest.approx(want) and got[:3] == pytest.approx([0.5 * 0.25 + 2.0, 0.25 * 0.25, 0.0])


def test_within_a_tier_the_model_that_did_better_on_the_task_goes_first() -> None:
    from router.routing.auto import choose
    from router.routing.learning import Decision, Kind

    text = CONFIG.replace("fast: [cheap/cheap-1]", "fast: [cheap/cheap-1, big/big-1]")
    config = parse_config(text, "learn.yaml")

    class U:
        task, vector = "coding", ()

    learner = Learner(config.routing.learning, MemoryStore(), clock=lambda: 100.0, understand=lambda q: U())
    kind = Kind("coding", ("coding",))

    async def run():  # type: ignore[no-untyped-def]
        for _ in range(10):
            await learner.observe(Decision(kind, "fast", "cheap/cheap-1", 0.1), 0.0, 1.0, 100.0)
            await learner.observe(Decision(kind, "fast", "big/big-1", 0.1), 1.0, 1.0, 100.0)
        return await learner.advise("any coding question", config.routing.tiers)

    advice = asyncio.run(run())
    assert advice.prefer == {"fast": ("big/big-1", "cheap/cheap-1")}
    before = choose(EASY_FAST, "cot", config)
    after = choose(EASY_FAST, "cot", config, advice=advice)
    assert before.candidates[0] == ("cheap", "cheap-1") and after.candidates[0] == ("big", "big-1")
    assert after.reason.endswith("; learned model order: big/big-1")


EASY_FAST = "hi there"


def test_a_filtered_reply_counts_as_a_failure_of_its_tier_without_any_feedback() -> None:
    from router import FunctionLLM

    config = parse_config(CONFIG, "learn.yaml")
    filtered = FunctionLLM(lambda m, t: text_response("I can't", finish_reason="content_filter"), provider="cheap",
                           model="cheap-1")  # fmt: skip
    r = Router(config, clients={"cheap": filtered, "big": Echo("big")}, clock=lambda: 50.0)
    answer = asyncio.run(r.achat([{"role": "user", "content": CODING[0]}], model="auto"))
    record = json.loads(asyncio.run(r.state.note_get(f"answer:{answer.id}")) or "{}")
    assert (record["src"], record["s"], record["w"], record["t"]) == ("content_filter", 0.0, 0.3, "fast")
    n, total = asyncio.run(r.state.decay_read(STATS_KEY, ["*|fast|n", "*|fast|r"], 50.0, 7 * 86400))
    assert (n, total) == (pytest.approx(0.3), pytest.approx(0.0))


def test_a_kind_whose_fast_tier_gets_worse_goes_up_within_tens_of_its_outcomes_and_stays() -> None:
    now = [1_000_000.0]
    r = make_router(clock=lambda: now[0])
    coding = [f"Write a python function that sorts a list of {n} integers with a heap" for n in range(200)]
    writing = [f"Write a short poem about the colour number {n} of a rainbow at dusk" for n in range(200)]

    def ask(question: str, fast_score: float) -> str:
        now[0] += 600.0
        answer = r.ask(question, model="auto", mode="cot")
        r.feedback(answer.id, fast_score if answer.provider == "cheap" else 1.0)
        return answer.provider

    for i in range(40):  # both kinds are fine on the fast tier
        assert ask(coding[i], 1.0) == "cheap" and ask(writing[i], 1.0) == "cheap"
    went_up = None
    for i in range(40, 140):  # from here the fast tier fails every coding question
        if ask(coding[i], 0.0) == "big" and went_up is None:
            went_up = i - 40
        assert ask(writing[i], 1.0) == "cheap", i  # the other kind is not disturbed
    assert went_up is not None and went_up <= 30, went_up
    assert [ask(coding[i], 0.0) for i in range(140, 160)].count("big") >= 18  # it stays up: no falling back and forth
    reason = r.ask(coding[199], model="auto", mode="cot").route_reason
    assert "(learned +" in reason and reason.endswith("-> strong: big/big-1"), reason


def test_topics_are_deterministic_and_tell_kinds_of_work_apart() -> None:
    from router.routing.difficulty import multiple_choice
    from router.routing.kinds import NO_TOPIC, tokens, topic
    from router.understanding import understand

    def near(question: str) -> int:
        return topic(question, understand(question).task, multiple_choice(question))

    sql = ["Write an SQL query that joins the orders and customers tables and counts orders per customer",
           "Write an SQL query listing every customer with more than three orders, joined from two tables"]
    biology = ["Which organelle makes most of the ATP in a eukaryotic cell?\nA. Ribosome\nB. Mitochondrion\nC. Golgi body"
               "\nD. Nucleus\nAnswer:",
               "In which organ are red blood cells mostly produced in adults?\nA. Liver\nB. Spleen\nC. Bone marrow"
               "\nD. Kidney\nAnswer:"]
    word_problems = ["Tom buys 3 boxes of pencils with 12 pencils in each box and gives 7 to his sister. How many are left?",
                     "A baker makes 48 muffins and sells them in packs of 6 for 4 dollars a pack. How much does she make?"]
    groups = [{near(q) for q in group} for group in (sql, biology, word_problems)]
    assert all(len(g) == 1 and NO_TOPIC not in g for g in groups), groups  # alike questions share their topic
    assert len(set.union(*groups)) == 3  # and different kinds of work do not
    assert near(sql[0]) == near(sql[0])
    assert {"~choice", "~digits", "~task:maths"} <= tokens("What is 2+2?\nA. 3\nB. 4", "maths", True)


def test_adapt_outcomes_is_validated() -> None:
    with pytest.raises(ConfigError, match=r"learn.yaml:\d+.*routing.learning.adapt_outcomes"):
        parse_config(CONFIG.replace("min_evidence: 8", "min_evidence: 8, adapt_outcomes: 1"), "learn.yaml")
