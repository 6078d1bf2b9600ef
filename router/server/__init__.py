"""``python -m router serve``: the router over OpenAI's chat-completions wire format.

Needs the ``[server]`` extra (starlette, uvicorn). Nothing here is imported by
``import router``.
"""

from __future__ import annotations

__all__ = ["create_app"]


def __getattr__(name: str) -> object:
    if name == "create_app":
        from router.server.app import create_app

        return create_app
    raise AttributeError(name)
