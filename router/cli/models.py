"""``python -m router models [--json] [--config PATH]``: every provider and model the config knows.

Shows aliases, tier membership, context window, prices (USD per 1M tokens) and
whether the provider's key is set, never the key. Exit 2 when the config is invalid.
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from router.routing.inventory import load, price, rows


def _width(text: str) -> int:
    """Terminal columns: CJK aliases take two each."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="router models", description=__doc__.splitlines()[0].split(": ", 1)[1])
    parser.add_argument("--json", action="store_true", help="one JSON object: config source and a list of models")
    parser.add_argument("--config", help="providers.yaml (default: $ROUTER_CONFIG, ./providers.yaml, packaged)")
    return parser


def main(argv: list[str], *, stdout: TextIO, stderr: TextIO) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    config = load(args.config, stderr)
    if config is None:
        return 2
    table = rows(config)
    if args.json:
        payload = {"config": config.source, "default": config.default, "fallbacks": list(config.fallbacks),
                   "models": [row.to_dict() for row in table]}  # fmt: skip
        stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
        return 0
    header = ("provider", "model", "tiers", "context", "in $/1M", "out $/1M", "key")
    lines = [header]
    for row in table:
        key = row.key if row.key_env is None else f"{row.key} ({row.key_env})"
        if row.note:
            key = f"{key}; {row.note}"
        name = f"{row.provider}" + (f" [{', '.join(a for a in row.aliases if a != row.provider)}]" if row.default and len(row.aliases) > 1 else "")
        lines.append((
            name if row.default else "", row.model + (" *" if row.default else ""), ",".join(row.tiers) or "-",
            f"{row.context_window:,}" if row.context_window else "-", price(row.price_in), price(row.price_out),
            key if row.default else "",
        ))  # fmt: skip
    widths = [max(_width(line[i]) for line in lines) for i in range(len(header) - 1)]
    for line in lines:
        cells = [cell + " " * (width - _width(cell)) for cell, width in zip(line, widths, strict=False)]
        stdout.write("  ".join(cells) + "  " + line[-1] + "\n")
    stdout.write(f"\n* default model of its provider. config: {config.source}; default provider: {config.default}; "
                 f"fallbacks: {', '.join(config.fallbacks) or 'none'}\n")  # fmt: skip
    return 0


__all__ = ["main"]
