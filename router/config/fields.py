"""Checks of single values that more than one section uses (a provider's and a deployment's URL and key name).

Written once so a deployment's ``base_url`` is refused for exactly the reasons a
provider's is, with the same wording and the same care not to echo a secret.
"""

from __future__ import annotations

from urllib.parse import urlparse

from router.redaction import has_url_credentials, looks_like_secret


def check_base_url(value: str | None) -> str | None:
    if value is None:
        return value
    if has_url_credentials(value) or looks_like_secret(value.rsplit("/", 1)[-1]):
        raise ValueError(
            "the URL contains credentials (user:password@ or a key); put the key in the environment "
            "variable named by api_key_env instead (value not shown)"
        )
    try:
        parsed = urlparse(value)
        parsed.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        parsed = None
    if parsed is None or parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ValueError(f"malformed URL {value[:80]!r} (expected http:// or https:// with a host)")
    return value.rstrip("/")


def check_env_name(value: str | None) -> str | None:
    if value is None:
        return value
    if looks_like_secret(value):
        raise ValueError(
            "this looks like an API key itself; api_key_env takes the NAME of an environment variable "
            "(e.g. OPENAI_API_KEY) whose value is the key (value not shown)"
        )
    if not value or len(value) > 64 or not value.replace("_", "a").isalnum() or value[0].isdigit():
        raise ValueError("not an environment variable name (letters, digits and _, e.g. OPENAI_API_KEY; value not shown)")
    return value


__all__ = ["check_base_url", "check_env_name"]
