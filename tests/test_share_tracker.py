"""``strong_share`` is a share of the user's own traffic, not of the mix the score was fitted on."""

from __future__ import annotations

import random
import textwrap

from router import parse_config
from router.routing.auto import choose
from router.routing.share import WARMUP, WINDOW, ShareTracker

SHIPPED = 0.5


def _stream(tracker: ShareTracker, scores: list[float], share: float) -> list[bool]:
    sent = []
    for score in scores:
        sent.append(score >= tracker.threshold(share, SHIPPED))
        tracker.observe(score)
    return sent


def test_a_skewed_traffic_gets_the_share_asked_for_once_warm() -> None:
    rng = random.Random(7)
    # a team that asks mostly hard questions: the shipped threshold would send ~90% up
    scores = [min(1.0, max(0.0, rng.gauss(0.75, 0.12))) for _ in range(1500)]
    assert sum(s >= SHIPPED for s in scores) / len(scores) > 0.85
    sent = _stream(ShareTracker(), scores, 0.3)
    tail = sent[WINDOW:]
    assert abs(sum(tail) / len(tail) - 0.3) <= 0.05
    assert all(score >= SHIPPED for score, up in zip(scores[:WARMUP], sent[:WARMUP], strict=True) if up)


def test_which_questions_go_up_is_still_the_score_order() -> None:
    rng = random.Random(3)
    scores = [rng.random() for _ in range(2000)]
    tracker = ShareTracker()
    sent = _stream(tracker, scores, 0.2)
    up = [s for s, u in zip(scores[WINDOW:], sent[WINDOW:], strict=True) if u]
    down = [s for s, u in zip(scores[WINDOW:], sent[WINDOW:], strict=True) if not u]
    assert sum(up) / len(up) > 0.75 > sum(down) / len(down)
    assert len(tracker) == WINDOW  # bounded, whatever the traffic


def test_shares_of_zero_and_one_keep_the_shipped_threshold() -> None:
    tracker = ShareTracker()
    for k in range(WINDOW):
        tracker.observe(k / WINDOW)
    assert tracker.threshold(0.0, 1.5) == 1.5
    assert tracker.threshold(1.0, 0.0) == 0.0


def _config(routing: str):  # type: ignore[no-untyped-def]
    return parse_config(textwrap.dedent(f"""\
        default: cheap
        routing:
          strategy: auto
          {routing}
          tiers: {{fast: [cheap/cheap-1], strong: [big/big-1]}}
        providers:
          cheap: {{client: mock, models: [{{id: cheap-1}}]}}
          big: {{client: mock, models: [{{id: big-1}}]}}
        """), "share.yaml")


def test_choose_adapts_a_share_but_never_an_explicit_threshold() -> None:
    people = ["Ana", "Bo", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea", "Mo", "Nia", "Oli",
              "Pia"]
    stories = [  # one-step purchases and wages: one kind, far from the fitted mix (which reads them as easy maths)
        "{p} buys {a} pens at {b} dollars each and pays with a 100 dollar bill. How much change does {p} get?",
        "{p} earns {a} dollars an hour, works {b} hours, and saves 20% of it. How much does {p} save?",
        "A train leaves at {a} km/h; {p} follows {b} minutes later at 90 km/h. After how long does {p} catch up?",
    ]
    questions = [s.format(p=p, a=12 + 7 * i, b=3 + j) for i, p in enumerate(people) for j, s in enumerate(stories)]
    random.Random(5).shuffle(questions)  # 48 word problems: one kind, not the fitted mix
    shipped = [choose(q, "cot", _config("strong_share: 0.3")).tier for q in questions]
    assert abs(shipped.count("strong") / len(shipped) - 0.3) > 0.15  # the fitted mix's threshold misses 0.3
    tracker = ShareTracker()
    stream = questions * 6
    adapted = [choose(q, "cot", _config("strong_share: 0.3"), share=tracker) for q in stream]
    warm = adapted[WARMUP * 2:]
    assert abs(sum(c.tier == "strong" for c in warm) / len(warm) - 0.3) <= 0.07
    same = ShareTracker()
    fixed = [choose(q, "cot", _config("threshold: 0.2"), share=same).tier for q in stream]
    assert fixed == [choose(q, "cot", _config("threshold: 0.2")).tier for q in stream]
