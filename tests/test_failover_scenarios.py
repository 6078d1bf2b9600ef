"""One test per failover scenario: a faulty primary and a healthy backup on 127.0.0.1, real OpenAIClient.

Behaviour only (who answered, how many tries, what the caller saw); the times
are measured by bench/failover.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from failover_scenarios import BACKUP_TEXT, KEY_ENV, TOOLS, ask, backup_server, closed_port_url, config, make_router
from fake_openai_server import (
    ContentPolicy,
    ContextExceeded,
    CutStream,
    FakeOpenAIServer,
    Malformed,
    MissingDone,
    RateLimited,
    Reset,
    ServerError,
    Silent,
    SlowFirstToken,
    Stall,
    Text,
    ToolCalls,
    Unauthorized,
)

from router.errors import ContentPolicyError

Make = Callable[[], FakeOpenAIServer]


def pair(make_fake_server: Make) -> tuple[FakeOpenAIServer, FakeOpenAIServer]:
    return make_fake_server(), backup_server(make_fake_server)


def answered_by_backup(outcome: object) -> None:
    assert outcome.error is None, outcome.error  # type: ignore[attr-defined]
    assert outcome.provider == "backup"  # type: ignore[attr-defined]
    assert outcome.answer.text == BACKUP_TEXT  # type: ignore[attr-defined]


def test_429_with_a_short_retry_after_is_waited_and_retried_on_the_primary(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(RateLimited(retry_after=0.1), Text("primary after the wait"))
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=False)
    assert outcome.provider == "primary" and outcome.answer.text == "primary after the wait"
    assert [a.wait_s for a in outcome.attempts if not a.ok] == [0.1]


def test_429_with_a_long_retry_after_falls_back_at_once(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(RateLimited(retry_after=120))
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=True)
    answered_by_backup(outcome)
    assert outcome.tries("primary") == 1


def test_429_without_retry_after_is_retried_once_then_falls_back(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(RateLimited(retry_after=None), RateLimited(retry_after=None), Text("never"))
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=False)
    answered_by_backup(outcome)
    assert outcome.tries("primary") == 2 and primary.pending == 1


def test_500_is_retried_once_while_a_fallback_remains(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(ServerError(), ServerError(), Text("never"))
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=True)
    answered_by_backup(outcome)
    assert outcome.tries("primary") == 2


def test_503_then_recovery_is_answered_by_the_primary(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(ServerError(503, "overloaded"), Text("primary again"))
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=False)
    assert outcome.provider == "primary" and outcome.answer.text == "primary again"
    assert [a.error_kind for a in outcome.attempts] == ["unavailable", None]


def test_connection_reset_falls_back(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(Reset(), Reset(), Reset())
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=True)
    answered_by_backup(outcome)
    assert outcome.tries("primary") == 2
    assert all(a.error_kind == "unavailable" for a in outcome.attempts if a.provider == "primary")


def test_refused_connection_falls_back(make_fake_server: Make) -> None:
    backup = backup_server(make_fake_server)
    with make_router(config(closed_port_url(), backup.base_url)) as router:
        outcome = ask(router, stream=False)
    answered_by_backup(outcome)
    assert outcome.tries("primary") == 2


def test_a_silent_provider_ends_in_the_fallback_after_the_first_token_deadline(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(Silent(), Silent())
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=True)
    answered_by_backup(outcome)
    assert outcome.tries("primary") == 1  # a timeout is not retried while a fallback remains
    [failed] = [a for a in outcome.attempts if a.provider == "primary"]
    assert failed.error_kind == "timeout" and "no first token after 1 s" in failed.error


def test_a_silent_provider_without_streaming_ends_in_the_fallback_too(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(Silent())
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=False)
    answered_by_backup(outcome)
    assert "no reply after 2 s" in outcome.attempts[0].error  # first_token_s + generation_s


def test_a_slow_first_token_past_the_limit_falls_back_and_within_it_is_waited_for(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(SlowFirstToken(5.0), SlowFirstToken(0.2, Text("primary, a little late")))
    with make_router(config(primary.base_url, backup.base_url)) as router:
        late = ask(router, stream=True)
        in_time = ask(router, stream=True)
    answered_by_backup(late)
    assert "no first token" in late.attempts[0].error
    assert in_time.provider == "primary" and in_time.answer.text == "primary, a little late"


def test_a_stall_mid_stream_restarts_the_answer_on_the_fallback(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(Stall(after_chunks=4))
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=True)
    answered_by_backup(outcome)
    assert outcome.restarted and outcome.text_after_restart == BACKUP_TEXT
    assert "stalled" in outcome.attempts[0].error


def test_a_stream_cut_mid_text_restarts_the_answer_on_the_fallback(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(CutStream(Text("the primary starts and is cut", chunk_size=3), after_chunks=4))
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=True)
    answered_by_backup(outcome)
    assert outcome.restarted and outcome.text_after_restart == BACKUP_TEXT
    assert outcome.tries("primary") == 1  # the restart goes to the next candidate, not the broken one


def test_a_stream_cut_mid_tool_call_never_delivers_half_a_call(make_fake_server: Make) -> None:
    primary, backup = make_fake_server(), make_fake_server()
    primary.enqueue(CutStream(ToolCalls((("lookup", '{"q": "a long query string"}'),), chunk_size=4), after_chunks=4))
    backup.enqueue(ToolCalls((("lookup", '{"q": "from the backup"}'),)))
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=True, tools=TOOLS)
    assert outcome.error is None and outcome.provider == "backup"
    # the primary's pieces were streamed as they came, so the caller is told to discard them
    assert outcome.restarted
    shown = [e for e in outcome.events if e.kind == "tool_call_delta"]
    restart_at = next(i for i, e in enumerate(outcome.events) if e.kind == "restart")
    after = "".join(e.arguments for e in outcome.events[restart_at:] if e.kind == "tool_call_delta")
    assert shown and after == '{"q": "from the backup"}'  # what a caller honouring the restart shows
    [call] = outcome.answer.tool_calls  # the answer holds the backup's whole call, never half of the primary's
    assert (call.name, call.arguments) == ("lookup", '{"q": "from the backup"}')


def test_a_malformed_chunk_is_a_failure_that_falls_back(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(Malformed(), Malformed())
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=True)
    answered_by_backup(outcome)
    assert {a.error_kind for a in outcome.attempts if a.provider == "primary"} == {"malformed"}


def test_a_stream_without_finish_or_done_is_never_a_success(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(MissingDone(), MissingDone())
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=True)
    answered_by_backup(outcome)
    assert outcome.restarted and outcome.text_after_restart == BACKUP_TEXT
    assert "no finish_reason" in outcome.attempts[0].error


def test_context_length_exceeded_goes_to_the_next_model_without_a_retry(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    primary.enqueue(ContextExceeded(), Text("never"))
    with make_router(config(primary.base_url, backup.base_url)) as router:
        outcome = ask(router, stream=False)
    answered_by_backup(outcome)
    assert outcome.tries("primary") == 1 and primary.pending == 1


def test_content_policy_follows_the_configured_choice_without_a_retry(make_fake_server: Make) -> None:
    primary, backup = pair(make_fake_server)
    filtered_reply = Text("cut short", finish_reason="content_filter")
    primary.enqueue(ContentPolicy(), filtered_reply, ContentPolicy(), filtered_reply)
    fallback = config(primary.base_url, backup.base_url, retry="max_wait_s: 2, on_content_filter: fallback")
    with make_router(fallback) as router:
        refused = ask(router, stream=False)
        filtered = ask(router, stream=True)
    answered_by_backup(refused)
    answered_by_backup(filtered)
    assert refused.tries("primary") == 1 and filtered.tries("primary") == 1

    with make_router(config(primary.base_url, backup.base_url)) as router:  # default: answer
        kept_refusal = ask(router, stream=False)
        kept_filtered = ask(router, stream=False)
    assert isinstance(kept_refusal.error, ContentPolicyError) and kept_refusal.tries("backup") == 0
    assert kept_filtered.provider == "primary" and kept_filtered.answer.finish_reason == "content_filter"
    assert any("content filter" in w for w in kept_filtered.answer.warnings)


def test_a_flapping_primary_costs_at_most_two_tries_a_request_and_is_used_again_after_it_recovers(
    make_fake_server: Make,
) -> None:
    import time

    primary, backup = pair(make_fake_server)
    cfg = config(primary.base_url, backup.base_url, failures=3, cooldown_s=0.3)
    with make_router(cfg) as router:
        phases = []
        for healthy in (False, True, False):
            primary.default_reply = Text("primary is up") if healthy else ServerError(503, "flapping")
            if healthy:
                time.sleep(0.4)  # the breaker's cooldown: the next request probes the primary
            phases.append([ask(router, stream=False) for _ in range(4)])
    for outcomes in phases:
        assert all(o.error is None for o in outcomes)
        assert all(o.tries("primary") <= 2 for o in outcomes)
    down, up, down_again = phases
    assert [o.provider for o in down] == ["backup"] * 4
    assert sum(o.tries("primary") for o in down) == 3  # the breaker opened after three failures
    assert [o.provider for o in up] == ["primary"] * 4
    assert [o.provider for o in down_again] == ["backup"] * 4


def test_a_refused_key_puts_the_provider_out_until_the_key_changes(make_fake_server: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    primary, backup = pair(make_fake_server)
    primary.default_reply = Unauthorized()
    monkeypatch.setenv(KEY_ENV, "sk-first-key-value-0001")
    with make_router(config(primary.base_url, backup.base_url)) as router:
        first = ask(router, stream=False)
        second = ask(router, stream=False)
        monkeypatch.setenv(KEY_ENV, "sk-second-key-value-0002")
        router._built.clear()  # a new key needs a new client (the old one holds the refused key)
        primary.default_reply = Text("the new key works")
        third = ask(router, stream=False)
    answered_by_backup(first)
    notices = [e.text for e in first.events if e.kind == "notice"]
    assert sum("skipped until the key in FAILOVER_TEST_KEY changes" in n for n in notices) == 1
    answered_by_backup(second)
    assert second.tries("primary") == 0 and second.attempts[0].error_kind == "auth_out"
    assert "sk-first" not in str(second.attempts) and "sk-first" not in " ".join(notices)
    assert third.provider == "primary"
    assert os.environ[KEY_ENV] == "sk-second-key-value-0002"
