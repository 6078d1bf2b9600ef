"""A recognisable key must never surface: not in errors, logs, reprs or attempts.

The fake server is hostile on purpose: its 401 and 500 bodies echo the
Authorization header back, as some real servers do.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterator

import pytest
from fake_openai_server import FakeOpenAIServer, Status, Unauthorized

from router.clients.factory import make_client
from router.config import RouterConfig, parse_config
from router.errors import AllProvidersFailedError, MissingAPIKeyError, ProviderError
from router.redaction import MASK, RedactingFilter, redact, register_secret, scrub_exception, secrets_from_config

KEY = "sk-test-SECRET-1234567890abcdef"
ENV = "ROUTER_TEST_SECRET_KEY"
LOGGERS = ("", "openai", "openai._base_client", "httpx", "httpx2", "httpcore", "LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "router")
QUESTION = [{"role": "user", "content": "hi"}]


def leaky(code: int) -> Status:
    return Status(code, f"server says {code}, you sent", echo_authorization=True)


def config_for(server: FakeOpenAIServer) -> RouterConfig:
    return parse_config(
        f"""
default: viaopenai
fallbacks: [viaopenai, vialitellm]
providers:
  viaopenai:
    client: openai
    base_url: {server.base_url}
    api_key_env: {ENV}
    max_retries: 1
    models: [{{id: fake-model}}]
  vialitellm:
    client: litellm
    base_url: {server.base_url}
    api_key_env: {ENV}
    max_retries: 1
    models: [{{id: fake-model}}]
""",
        "secrets-test.yaml",
    )


def exception_texts(exc: BaseException) -> Iterator[str]:
    """str / repr of the exception and of everything chained to it, and the printed traceback."""
    seen: set[int] = set()
    pending: list[BaseException | None] = [exc]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        yield str(current)
        yield repr(current)
        pending += [current.__cause__, current.__context__]
    yield "".join(traceback.format_exception(exc))


@pytest.fixture
def debug_logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    for name in LOGGERS:
        caplog.set_level(logging.DEBUG, logger=name or None)
    return caplog


def test_key_never_leaks_after_auth_and_server_failures(
    fake_server: FakeOpenAIServer, debug_logs: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, KEY)
    config = config_for(fake_server)
    failures: list[BaseException] = []
    clients = [make_client(config, "viaopenai"), make_client(config, "vialitellm")]
    for client in clients:
        fake_server.enqueue(Unauthorized(echo_key=True), leaky(500), leaky(403), leaky(400), Unauthorized(echo_key=True))
        for _call in range(4):
            with pytest.raises(ProviderError) as caught:
                client.chat(QUESTION)
            failures.append(caught.value)
        with pytest.raises(ProviderError) as caught:
            list(client.stream(QUESTION))
        failures.append(caught.value)

    # through the resilience layer: retries, fallback, all failing
    fake_server.enqueue(leaky(500), leaky(502), Unauthorized(echo_key=True))
    from router.core import Router

    async def no_wait(_seconds: float) -> None:
        return None

    router = Router(config, sleep=no_wait)
    resilient = router._chain(router.plan(router.route("hi", provider="viaopenai"), needs_tools=False), None)
    with pytest.raises(AllProvidersFailedError) as all_failed:
        resilient.chat(QUESTION)
    failures.append(all_failed.value)

    requests_with_key = [r for r in fake_server.requests if KEY in r.headers.get("authorization", "")]
    assert len(requests_with_key) == len(fake_server.requests) == 13  # the key was really sent...
    assert any(KEY in str(r.headers) for r in fake_server.requests)

    for failure in failures:  # ...and never came back out
        for text in exception_texts(failure):
            assert KEY not in text
    assert any(MASK in str(f) for f in failures)  # the echoed key was masked, not silently dropped
    for attempt in all_failed.value.attempts:
        assert KEY not in repr(attempt)
    assert len(all_failed.value.attempts) == 3
    for client in [*clients, resilient]:
        assert KEY not in repr(client)
        assert KEY not in str(client)
    assert debug_logs.records, "DEBUG logging was captured"
    for record in debug_logs.records:
        assert KEY not in record.getMessage()
    assert KEY not in debug_logs.text


def test_missing_key_names_the_variable_not_a_value(fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    config = config_for(fake_server)
    with pytest.raises(MissingAPIKeyError) as caught:
        make_client(config, "viaopenai")
    assert ENV in str(caught.value)
    assert caught.value.provider == "viaopenai"


def test_redact_masks_given_registered_and_key_shaped_values() -> None:
    register_secret("registered-value-123")
    text = "a sk-abcdefghijklmnop b plain-secret-9 c registered-value-123 d Bearer tok_abcdefghij e"
    cleaned = redact(text, "plain-secret-9")
    assert "sk-abcdefghijklmnop" not in cleaned
    assert "plain-secret-9" not in cleaned
    assert "registered-value-123" not in cleaned
    assert "tok_abcdefghij" not in cleaned
    assert cleaned.startswith("a *** b *** c *** d Bearer *** e")
    assert redact("nothing to hide here") == "nothing to hide here"
    assert redact("", "whatever") == ""
    assert redact("short abc", "abc") == "short abc"  # too short to be a key: not masked


def test_secrets_from_config_reads_the_environment_now(fake_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "value-from-env-123")
    assert secrets_from_config(config_for(fake_server)) == ("value-from-env-123", "value-from-env-123")
    monkeypatch.delenv(ENV)
    assert secrets_from_config(config_for(fake_server)) == ()


def test_scrub_exception_rewrites_the_whole_chain() -> None:
    secret = "hunter2-hunter2"
    try:
        try:
            raise ValueError(f"inner {secret}")
        except ValueError as inner:
            raise RuntimeError(f"outer {secret}") from inner
    except RuntimeError as outer:
        scrub_exception(outer, secret)
        assert secret not in "".join(traceback.format_exception(outer))


def test_log_filter_masks_messages_args_and_tracebacks() -> None:
    secret = "log-secret-value-42"
    register_secret(secret)
    try:
        raise ValueError(f"boom {secret}")
    except ValueError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "key=%s", (secret,), sys.exc_info())
    assert RedactingFilter().filter(record)
    formatted = logging.Formatter().format(record)
    assert secret not in formatted
    assert "key=***" in formatted
