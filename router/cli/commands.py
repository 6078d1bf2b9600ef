"""The subcommands: one table, so adding one is a module with ``main`` plus one line here.

Each entry maps the word to ``"module:function"`` and a one-line help. The function
takes ``(argv, *, stdout, stderr)`` and returns the exit code. Nothing is imported
until its word is typed, so ``python -m router "question"`` pays for none of them.
"""

from __future__ import annotations

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("router.cli.serve:main", "serve the OpenAI-compatible HTTP API (python -m router serve --help)"),
    "models": ("router.cli.models:main", "list providers, aliases, models, tiers, context windows, prices, key status"),
    "check": ("router.cli.check:main", "validate the config and keys; --ping sends one token to each provider with a key"),
    "completion": ("router.cli.completion:main", "print a shell completion script: completion bash | zsh"),
    "tools": ("router.cli.tools:main", "list built-in, user and MCP tools: server, tool, argument summary"),
}


def is_subcommand_word(text: str) -> bool:
    """A question that is exactly a command word is a slip, never something to send to a model."""
    return text.strip().lower() in SUBCOMMANDS


def epilog() -> str:
    width = max(len(name) for name in SUBCOMMANDS)
    lines = [f"  {name:<{width}}  {help_text}" for name, (_, help_text) in SUBCOMMANDS.items()]
    return "commands (python -m router COMMAND --help):\n" + "\n".join(lines)


def load(name: str):  # type: ignore[no-untyped-def]
    """The ``main`` of a subcommand, imported now."""
    from importlib import import_module

    target = SUBCOMMANDS[name][0]
    module, _, function = target.partition(":")
    return getattr(import_module(module), function)


__all__ = ["SUBCOMMANDS", "epilog", "is_subcommand_word", "load"]
