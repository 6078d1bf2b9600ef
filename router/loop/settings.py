"""``loop_settings``: the tool loop's bounds for one call, the config's with the caller's overrides.

Its own module because every answer asks for it, tool loop or not: importing it must
not load the loop (``router.loop.run``), which a plain chat answer never runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from router.errors import UsageError

if TYPE_CHECKING:
    from router.config import LoopSettings


def loop_settings(base: LoopSettings | None = None, **overrides: Any) -> LoopSettings:
    """``base`` (or the defaults) with explicit per-call overrides, validated by the one model."""
    from pydantic import ValidationError

    from router.config import LoopSettings

    changes = {name: value for name, value in overrides.items() if value is not None}
    try:
        data = (base or LoopSettings()).model_dump()
        return LoopSettings.model_validate({**data, **changes})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UsageError(f"invalid loop setting {where}: {first['msg']} (got {first.get('input')!r})") from exc


__all__ = ["loop_settings"]
