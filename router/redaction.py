"""Keeping API key values out of every string router produces.

Servers echo keys back in error bodies ("Incorrect API key provided: sk-..."),
SDKs put those bodies in exception messages, and exception messages end up in
logs, answers and saved records. So every message a client or the resilience
layer builds goes through ``redact``, foreign exceptions are scrubbed in place
before they are chained as ``__cause__``, and a logging filter redacts records of
the SDK loggers. Clients register their key on construction; the registry only
lives in memory.
"""

from __future__ import annotations

import logging
import os
import re
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from router.config import RouterConfig

MASK = "***"
_MIN_SECRET_LEN = 6
"""Shorter values are not treated as secrets: masking "abc" everywhere would mangle text."""

# Key-shaped tokens are masked even when we were never told about them (a server
# echoing some other key, a proxy adding its own): ``sk-...``, ``gsk_...``, ``Bearer ...``.
# Other vendors' prefixes only count with a digit in the token, so prose such as
# "hf_transfer-settings" is not masked.
_KEY_PREFIXES = r"(?:gsk|xai|hf|ghp|gho|ghs|github_pat|nvapi|pplx)"
_KEY_SHAPES = re.compile(
    r"(?:\bsk-[A-Za-z0-9_\-]{8,}"
    rf"|\b{_KEY_PREFIXES}[-_](?=[A-Za-z_\-]*[0-9])[A-Za-z0-9_\-]{{8,}}"
    r"|\bAIza[A-Za-z0-9_\-]{20,}"
    r"|(?<=Bearer )[A-Za-z0-9_\-.=]{8,})"
)
_URL_CREDENTIALS = re.compile(r"(?<=://)[^\s/@:]{1,256}(?::[^\s/@]{0,256})?@")
"""``https://user:pass@host``: the user info of any URL in a message."""
_TOKEN_LIKE = re.compile(r"[A-Za-z0-9_\-.=+/]{20,}")

_registry: set[str] = set()
_registry_lock = threading.Lock()


def register_secret(value: str | None) -> None:
    """Remember a key value so ``redact`` masks it everywhere from now on."""
    if value and len(value) >= _MIN_SECRET_LEN:
        with _registry_lock:
            _registry.add(value)


def known_secrets() -> tuple[str, ...]:
    with _registry_lock:
        return tuple(_registry)


def redact(text: str, *secrets: str | None) -> str:
    """``text`` with every given secret, every registered one and key-shaped tokens masked."""
    if not text:
        return text
    values = {s for s in secrets if s and len(s) >= _MIN_SECRET_LEN}
    values.update(known_secrets())
    for value in sorted(values, key=len, reverse=True):  # longest first: a key containing another
        if value in text:
            text = text.replace(value, MASK)
    text = _URL_CREDENTIALS.sub(MASK + "@", text)
    return _KEY_SHAPES.sub(MASK, text)


def _known_values(secrets: tuple[str | None, ...]) -> tuple[str, ...]:
    values = {s for s in secrets if s and len(s) >= _MIN_SECRET_LEN}
    values.update(known_secrets())
    return tuple(sorted(values, key=len, reverse=True))  # longest first: a key containing another


def redact_known(text: str, *secrets: str | None) -> str:
    """``text`` with the given and registered key values masked, and nothing else.

    For a model's reply (an upstream echoing the Authorization header into its text):
    key-shaped tokens a model writes on purpose ("keys look like sk-...") stay as they are.
    """
    if not text:
        return text
    for value in _known_values(secrets):
        if value in text:
            text = text.replace(value, MASK)
    return text


def _tail_held(text: str, secret: str) -> int:
    """Length of the longest end of ``text`` that is the start of ``secret`` (the rest may follow)."""
    start = max(0, len(text) - len(secret) + 1)
    first = secret[0]
    i = text.find(first, start)
    while i != -1:
        if secret.startswith(text[i:]):
            return len(text) - i
        i = text.find(first, i + 1)
    return 0


class StreamRedactor:
    """Masks known key values in text that arrives in pieces (a streamed reply).

    A chunk boundary may split a key (``"...Bearer sk-ab"`` then ``"cd1234..."``): the
    end of what arrived that could be the start of a key is held back until the next
    piece shows whether it is one, so a key never goes out in halves. ``flush`` gives
    back what is still held when the stream ends. Without known keys it passes text through.
    """

    def __init__(self, *secrets: str | None) -> None:
        self._secrets = _known_values(secrets)
        self._held = ""

    def feed(self, piece: str) -> str:
        if not self._secrets:
            return piece
        text = self._held + piece
        for value in self._secrets:
            if value in text:
                text = text.replace(value, MASK)
        hold = max((_tail_held(text, value) for value in self._secrets), default=0)
        self._held = text[len(text) - hold :] if hold else ""
        return text[: len(text) - hold]

    def flush(self) -> str:
        held, self._held = self._held, ""
        return held


def redact_url(url: str) -> str:
    """``url`` with its password (userinfo or ``?password=``) masked, for logs and errors.

    Store URLs such as ``redis://:secret@host:6379/0`` carry credentials; the host
    and port stay visible because they are what a reader needs to fix a problem.
    The password is also registered, so ``redact`` masks it in foreign messages.
    """
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:  # an unparsable URL may still hold a secret: show none of it
        return MASK
    netloc = parts.netloc
    if password is not None:
        register_secret(password)
        userinfo, _, hostinfo = netloc.rpartition("@")
        user = userinfo.partition(":")[0]
        netloc = f"{user}:{MASK}@{hostinfo}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        for key, value in pairs:
            if key.lower() == "password":
                register_secret(value)
        query = urlencode([(k, MASK if k.lower() == "password" else v) for k, v in pairs], safe="*")
    return redact(urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment)))


def looks_like_secret(value: str) -> bool:
    """True for a value that is probably a key itself (pasted where a variable *name* belongs).

    Environment variable names are short and mostly upper case; keys are long and
    mix cases and digits or carry a vendor prefix. Errors about such a value must
    describe it without showing it.
    """
    value = value.strip()
    if _KEY_SHAPES.search(value) or value.startswith(("sk-", "gsk_", "AIza")):
        return True
    if len(value) > 64:
        return True
    if len(value) >= 20 and _TOKEN_LIKE.fullmatch(value):
        has_lower = any(c.islower() for c in value)
        has_upper = any(c.isupper() for c in value)
        has_digit = any(c.isdigit() for c in value)
        digits = sum(c.isdigit() for c in value)
        return has_digit and ((has_lower and has_upper) or not has_upper or digits >= 6)
    return False


def has_url_credentials(text: str) -> bool:
    return bool(_URL_CREDENTIALS.search(text))


def secrets_from_config(config: RouterConfig) -> tuple[str, ...]:
    """Current values of every provider's ``api_key_env`` variable (read now, not stored)."""
    values = []
    for provider in config.providers.values():
        if provider.api_key_env:
            value = os.environ.get(provider.api_key_env)
            if value:
                values.append(value)
    return tuple(values)


def _scrub_value(value: Any, secrets: tuple[str | None, ...]) -> Any:
    if isinstance(value, str):
        return redact(value, *secrets)
    if isinstance(value, dict):
        return {k: _scrub_value(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_scrub_value(v, secrets) for v in value)
    return value


def scrub_exception(exc: BaseException | None, *secrets: str | None) -> None:
    """Redact a foreign exception chain in place before it becomes our ``__cause__``.

    A traceback prints the cause's message too, so wrapping alone is not enough
    when the SDK's message quotes the server's reply. ``args`` and the common
    ``message`` / ``body`` attributes of openai and litellm exceptions are rewritten.
    """
    seen: set[int] = set()
    pending = [exc]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        try:
            current.args = tuple(_scrub_value(a, secrets) for a in current.args)
            for attribute in ("message", "body", "detail", "litellm_debug_info"):
                value = getattr(current, attribute, None)
                if isinstance(value, (str, dict, list)):
                    setattr(current, attribute, _scrub_value(value, secrets))
        except (AttributeError, TypeError):  # read-only attributes on exotic exceptions
            pass
        pending.extend((current.__cause__, current.__context__))


class RedactingFilter(logging.Filter):
    """Masks secrets in a record's message before any handler sees it."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string is not ours to fix; drop nothing
            return True
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            # handlers format the traceback from exc_text when it is set: give them a clean one
            record.exc_text = redact(_FORMATTER.formatException(record.exc_info))
        return True


_FORMATTER = logging.Formatter()


_FILTER = RedactingFilter()


def install_log_redaction(*logger_names: str) -> None:
    """Attach the redacting filter to these loggers (idempotent)."""
    for name in logger_names:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


__all__ = [
    "MASK",
    "RedactingFilter",
    "StreamRedactor",
    "has_url_credentials",
    "install_log_redaction",
    "known_secrets",
    "looks_like_secret",
    "redact",
    "redact_known",
    "redact_url",
    "register_secret",
    "scrub_exception",
    "secrets_from_config",
]
