"""``python -m router``: ask one question, or chat in a REPL with no question.

Output contract: the answer goes to stdout; what happened on the way (mode, route,
tool calls, warnings) goes to stderr, so ``python -m router "q" > answer.txt``
keeps only the answer. Errors are one line on stderr; exit 2 for usage/config
problems, 1 for provider failures; a traceback only with ``--verbose``.

With no question the REPL starts (``router.cli.repl``). An empty question given
as an argument (``python -m router ""``) is a usage error, never a REPL that
would block a script on stdin, and a question that is exactly a subcommand word
is a usage error too (``router --json models`` must not bill a model). The
answer streams by default, so a slow small model shows progress; ``--json``
and ``--no-stream`` print it whole.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from typing import Any, NoReturn, TextIO

from router.errors import ConfigError, ProviderError, RouterError, UsageError

EXIT_OK, EXIT_PROVIDER, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
MODES = ("cot", "few_shot", "react", "tot")


class _ArgumentsError(Exception):
    """argparse would print usage and exit; we want one line on *our* stderr instead."""


class _Parser(argparse.ArgumentParser):
    out: TextIO | None = None
    """Where --help goes (the caller's stdout, not necessarily sys.stdout)."""

    def error(self, message: str) -> NoReturn:
        raise _ArgumentsError(f"router: error: {message} (see --help)")

    def print_help(self, file: TextIO | None = None) -> None:
        super().print_help(file or self.out)


def build_parser() -> _Parser:
    from router.cli.commands import epilog

    parser = _Parser(
        prog="router",
        description="Ask a question; router picks the provider, model and answering mode.",
        epilog=epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("question", nargs="*", help="the question (none: interactive REPL)")
    parser.add_argument("--provider", help="provider name from providers.yaml (overrides routing)")
    parser.add_argument("--model", help="model id (overrides the provider's default)")
    parser.add_argument("--mode", choices=MODES, help="answering mode (default: chosen automatically)")
    parser.add_argument("--config", help="path to providers.yaml (default: $ROUTER_CONFIG, ./providers.yaml, packaged)")
    parser.add_argument("--json", action="store_true", help="print the whole Answer as JSON")
    parser.add_argument("--stream", action=argparse.BooleanOptionalAction, default=None,
                        help="print the answer as it is generated (default: on, except with --json)")
    parser.add_argument("--verbose", "-v", action="store_true", help="show the message chain and tracebacks")
    parser.add_argument("--max-steps", type=_positive_int, help="bound on tool-calling rounds")
    return parser


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


class Printer:
    """Shows tool calls as they happen; silent in --json mode except for the final JSON."""

    def __init__(self, err: TextIO, out: TextIO, *, quiet: bool, stream: bool) -> None:
        self.err, self.out, self.quiet, self.stream = err, out, quiet, stream
        self.streamed = False
        self.shown: set[str] = set()

    def __call__(self, event: Any) -> None:
        kind = getattr(event, "kind", None)
        if kind == "text" and self.stream and not self.quiet:
            if not event.reasoning:
                self.out.write(event.text)
                self.out.flush()
                self.streamed = True
            return
        if self.quiet:
            return
        if kind == "tool_call":
            self.err.write(f"  -> {getattr(event, 'name', '?')}({_short(getattr(event, 'arguments', ''))})\n")
        elif kind == "tool_result":
            error = getattr(event, "error", None)
            shown = f"error: {error}" if error else _short(getattr(event, "result", ""))
            self.err.write(f"  <- {getattr(event, 'name', '?')}: {shown}\n")
        elif kind in ("notice", "mode", "route"):
            label = "note" if kind == "notice" else kind
            if kind == "mode":
                text = f"{event.mode}: {event.reason}"
            elif kind == "route":
                text = f"{event.provider}/{event.model}: {event.reason}"
            else:
                text = event.text
            self.shown.add(text)
            self.err.write(f"[{label}] {text}\n")


def _short(value: Any, limit: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _print_answer(answer: Any, args: argparse.Namespace, printer: Printer, out: TextIO, err: TextIO) -> None:
    if args.json:
        out.write(answer.to_json() + "\n")
        return
    if printer.streamed:
        out.write("\n")
    else:
        out.write(answer.text.rstrip() + "\n")
    for warning in answer.warnings:
        if warning not in printer.shown:  # the no-key notice was already printed before the answer
            err.write(f"[warning] {warning}\n")
    if args.verbose:
        from router.loop.chain import format_chain

        if answer.messages:
            err.write(format_chain(list(answer.messages)) + "\n")
        err.write(f"[usage] {answer.usage} cost={answer.cost} latency={answer.latency_s}s\n")
        for attempt in answer.attempts:
            err.write(f"[attempt] {attempt}\n")


def _ask(router: Any, question: str, args: argparse.Namespace, printer: Printer, history: list[dict[str, Any]] | None = None) -> Any:
    return router.ask(
        question,
        mode=args.mode,
        provider=args.provider,
        model=args.model,
        stream=args.stream,
        history=history,
        on_event=printer,
        max_steps=args.max_steps,
    )


def _announce_fallback(answer: Any, err: TextIO) -> None:
    """The route line was printed before the call; say so when someone else answered."""
    from router.answers import failed_attempts

    failed = failed_attempts(answer)
    if failed:
        kinds = ", ".join(f"{a.provider}: {a.error_kind}" for a in failed)
        err.write(f"[route] answered by {answer.provider}/{answer.model} after {len(failed)} failed attempt(s) ({kinds})\n")


def _show_config(router: Any, args: argparse.Namespace, err: TextIO) -> None:
    """Which providers.yaml and .env are in use: always with --verbose, else when picked up from the directory."""
    config = getattr(router, "config", None)
    if config is None or args.json:
        return
    origin = getattr(config, "origin", "argument")
    env_file = getattr(config, "env_file", None)
    if args.verbose:
        err.write(f"[config] {config.source} ({origin}); .env: {env_file or 'none loaded'}\n")
    elif origin == "working directory" or env_file:
        loaded = [f"{config.source} from the working directory"] if origin == "working directory" else []
        loaded += [f"keys from {env_file}"] if env_file else []
        err.write(f"[config] using {' and '.join(loaded)}\n")


def _report(exc: BaseException, args: argparse.Namespace, err: TextIO, out: TextIO | None = None) -> int:
    """One line on stderr; with --json also the error as a JSON object on stdout (scripts read one stream)."""
    if args.verbose:
        traceback.print_exception(exc, file=err)
    message = " ".join(str(exc).split())
    err.write(f"router: error: {message}\n")
    code = EXIT_USAGE if isinstance(exc, (ConfigError, UsageError)) else EXIT_PROVIDER
    if args.json and out is not None:
        out.write(json.dumps(error_object(exc, message, code), ensure_ascii=False) + "\n")
    return code


def error_object(exc: BaseException, message: str, code: int) -> dict[str, Any]:
    """``{"error": {...}}`` for --json: type, message, provider/model, kind, status, attempts, exit code."""
    from dataclasses import asdict, is_dataclass

    from router.redaction import redact

    attempts = [asdict(a) for a in getattr(exc, "attempts", ()) or () if is_dataclass(a) and not isinstance(a, type)]
    failed = [a for a in attempts if not a["ok"]]
    provider = getattr(exc, "provider", None) or (failed[-1]["provider"] if failed else None)
    model = getattr(exc, "model", None) or (failed[-1]["model"] if failed else None)
    return {
        "error": {
            "type": type(exc).__name__,
            "message": redact(message),
            "kind": getattr(exc, "kind", None),
            "provider": provider,  # the last provider that failed, when the chain as a whole did
            "model": model,
            "status": getattr(exc, "status", None),
            "attempts": attempts,
            "exit_code": code,
        }
    }


def version() -> str:
    from router import __version__

    return f"router {__version__} (Python {sys.version.split()[0]})"


def main(argv: list[str], *, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """The question path: one answer, or the REPL when there is no question."""
    out, err, inp = stdout, stderr, stdin
    parser = build_parser()
    parser.out = out
    try:
        args = parser.parse_args(argv)
    except _ArgumentsError as exc:
        err.write(f"{exc}\n")
        return EXIT_USAGE
    except SystemExit as exc:  # --help: already printed
        return int(exc.code or 0)
    if args.version:
        out.write(version() + "\n")
        return EXIT_OK
    question = " ".join(args.question).strip()
    if args.question and not question:
        err.write("router: error: the question is empty (give a question, or no argument for the interactive REPL)\n")
        return EXIT_USAGE
    from router.cli.commands import is_subcommand_word

    if is_subcommand_word(question):
        err.write(f"router: error: '{question}' is a command, not a question: put it first (`python -m router "
                  f"{question.lower()}`), or ask a longer question\n")
        return EXIT_USAGE
    if args.stream is None:
        args.stream = not args.json
    printer = Printer(err, out, quiet=args.json, stream=args.stream)
    try:
        return _run(args, printer, out, err, inp)
    finally:
        _close(getattr(args, "router", None))


def _close(router: Any) -> None:
    """Release the HTTP clients before the interpreter exits (else aiohttp warns about unclosed sessions)."""
    if router is None:
        return
    try:
        router.close()
    except Exception:  # leaving must not turn an answer into an error
        pass


_FROZEN: list[bool] = []
"""Set once this process froze its start-up objects: a second call in one process (tests) must not
freeze its caller's garbage as well."""


def _start(config: str | None) -> Any:
    """The Router, built with the cyclic garbage collector paused, its objects then frozen.

    Start-up allocates a few hundred thousand long-lived objects (modules, classes, the
    config), so the collections it triggers find nothing, and every later collection
    (the answer's own imports, the exit) would scan them all again. Pausing collection
    while they are built and freezing them once (``gc.freeze``, as ``serve`` does) saves
    ~6% of a mock answer's instructions (bench/startup.py --instructions). Collection
    resumes before any question is answered.
    """
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        from router.core import Router

        return Router.from_yaml(config)
    finally:
        if enabled:
            if not _FROZEN:
                gc.freeze()
                _FROZEN.append(True)
            gc.enable()


def _run(args: argparse.Namespace, printer: Printer, out: TextIO, err: TextIO, inp: TextIO) -> int:
    try:
        router = args.router = _start(args.config)
        _show_config(router, args, err)
        if args.provider is not None:
            args.provider = router.resolve_provider(args.provider)  # names and aliases, as the library resolves them
        question = " ".join(args.question).strip()
        if not question:
            from router.cli.repl import run_repl

            return run_repl(router, args, printer, out, err, inp)
        answer = _ask(router, question, args, printer)
    except (RouterError, ProviderError) as exc:
        return _report(exc, args, err, out)
    except KeyboardInterrupt:
        err.write("router: interrupted\n")
        return EXIT_INTERRUPTED
    except Exception as exc:  # a bug of ours: still one line (the traceback with --verbose), never a crash dump
        from router.redaction import redact

        if args.verbose:
            traceback.print_exception(exc, file=err)
        message = f"internal error: {type(exc).__name__}: {redact(str(exc))} (run with --verbose for details)"
        err.write(f"router: {message}\n")
        if args.json:
            out.write(json.dumps(error_object(exc, message, EXIT_PROVIDER), ensure_ascii=False) + "\n")
        return EXIT_PROVIDER
    if not args.json:
        _announce_fallback(answer, err)
    _print_answer(answer, args, printer, out, err)
    return EXIT_OK


__all__ = ["build_parser", "error_object", "main", "version"]
