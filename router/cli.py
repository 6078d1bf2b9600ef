"""``python -m router``: ask one question, or chat in a REPL with no question.

Output contract: the answer goes to stdout; what happened on the way (mode, route,
tool calls, warnings) goes to stderr, so ``python -m router "q" > answer.txt``
keeps only the answer. Errors are one line on stderr; exit 2 for usage/config
problems, 1 for provider failures; a traceback only with ``--verbose``.

With no question the REPL starts. On a terminal it has line editing and a
history (``readline``, imported only then; history in
``$XDG_STATE_HOME/router/history`` or ``~/.router_history``, at most
``HISTORY_LENGTH`` lines). Ctrl-C cancels the line being typed or the answer
being produced and keeps the session; Ctrl-D, ``exit`` or ``quit`` end it. An
empty question given as an argument (``python -m router ""``) is a usage error,
never a REPL that would block a script on stdin.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any, NoReturn, TextIO

from router.errors import ConfigError, ProviderError, RouterError, UsageError

EXIT_OK, EXIT_PROVIDER, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
MODES = ("cot", "few_shot", "react", "tot")
HISTORY_LENGTH = 1000


class _ArgumentsError(Exception):
    """argparse would print usage and exit; we want one line on *our* stderr instead."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _ArgumentsError(f"router: error: {message} (see --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="router", description="Ask a question; router picks the provider, model and answering mode.")
    parser.add_argument("question", nargs="*", help="the question (none: interactive REPL)")
    parser.add_argument("--provider", help="provider name from providers.yaml (overrides routing)")
    parser.add_argument("--model", help="model id (overrides the provider's default)")
    parser.add_argument("--mode", choices=MODES, help="answering mode (default: chosen automatically)")
    parser.add_argument("--config", help="path to providers.yaml (default: $ROUTER_CONFIG, ./providers.yaml, packaged)")
    parser.add_argument("--json", action="store_true", help="print the whole Answer as JSON")
    parser.add_argument("--stream", action="store_true", help="print the answer as it is generated")
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
    failed = [a for a in answer.attempts if not a.ok and a.error_kind not in ("no_key", "not_installed", "capability", "context_window")]
    if failed:
        kinds = ", ".join(f"{a.provider}: {a.error_kind}" for a in failed)
        err.write(f"[route] answered by {answer.provider}/{answer.model} after {len(failed)} failed attempt(s) ({kinds})\n")


def history_file() -> Path:
    """Where the REPL keeps its line history: $XDG_STATE_HOME/router/history, else ~/.router_history."""
    state = os.environ.get("XDG_STATE_HOME")
    if state:
        return Path(state) / "router" / "history"
    return Path.home() / ".router_history"


class _LineReader:
    """Reads REPL lines: ``input()`` with readline on a terminal, plain ``readline()`` otherwise."""

    def __init__(self, stdin: TextIO, err: TextIO) -> None:
        self.stdin, self.err = stdin, err
        self.readline: Any = None
        if stdin is sys.stdin and stdin.isatty():
            try:
                import readline  # only for a person at a terminal: arrow keys, history
            except ImportError:  # Windows without pyreadline: still a working REPL
                readline = None
            self.readline = readline
        if self.readline is not None:
            self.readline.set_history_length(HISTORY_LENGTH)
            try:
                self.readline.read_history_file(history_file())
            except (OSError, ValueError):
                pass

    def read(self, prompt: str) -> str | None:
        """A line without its newline, or None at end of input. Ctrl-C raises KeyboardInterrupt."""
        if self.readline is not None:
            try:
                return input(prompt)
            except EOFError:
                return None
        self.err.write(prompt)
        self.err.flush()
        line = self.stdin.readline()
        return line.rstrip("\n") if line else None

    def close(self) -> None:
        if self.readline is None:
            return
        path = history_file()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.readline.write_history_file(path)
        except OSError:
            pass  # a read-only home must not turn leaving the REPL into an error


def _context_window(router: Any, args: argparse.Namespace, last: Any) -> int | None:
    """The smallest known context window among the models that may answer next."""
    windows = []
    config = router.config
    for provider, model in ((args.provider or config.default, args.model), (getattr(last, "provider", None), getattr(last, "model", None))):
        if provider and provider in config.providers:
            window = config.providers[provider].model(model).context_window
            if window:
                windows.append(window)
    return min(windows) if windows else None


def _repl(router: Any, args: argparse.Namespace, printer: Printer, out: TextIO, err: TextIO, stdin: TextIO) -> int:
    from router.conversation import SUMMARY_PROMPT, Conversation

    def summarise(messages: list[dict[str, Any]]) -> str:
        transcript = "\n".join(f"{m['role']}: {m['content']}" for m in messages)
        return router.ask(f"{SUMMARY_PROMPT}\n\n{transcript}", mode="cot", provider=args.provider, model=args.model).text

    memory = Conversation(summariser=summarise)
    reader = _LineReader(stdin, err)
    err.write("router REPL: type a question; 'exit', 'quit' or Ctrl-D to leave; Ctrl-C cancels.\n")
    last: Any = None
    try:
        while True:
            try:
                line = reader.read("you> ")
            except KeyboardInterrupt:  # Ctrl-C at the prompt: drop the line, keep the session
                err.write("^C\n")
                continue
            if line is None:
                err.write("\n")
                return EXIT_OK
            question = line.strip()
            if not question:
                continue
            if question.lower() in ("exit", "quit", ":q"):
                return EXIT_OK
            printer.streamed = False
            try:
                history = memory.history(question=question, context_window=_context_window(router, args, last))
                answer = _ask(router, question, args, printer, history)
            except KeyboardInterrupt:
                err.write("\n[cancelled] the answer was interrupted; ask again or Ctrl-D to leave\n")
                continue
            except RouterError as exc:
                code = _report(exc, args, err, out)
                if code == EXIT_USAGE and isinstance(exc, ConfigError):
                    return code
                continue
            if not args.json:
                _announce_fallback(answer, err)
            _print_answer(answer, args, printer, out, err)
            memory.add(question, answer.text)
            last = answer
    finally:
        reader.close()


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


def main(argv: list[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    out, err, inp = stdout or sys.stdout, stderr or sys.stderr, stdin or sys.stdin
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"]:  # the server has its own options; the question parser never sees them
        from router.server.cli import main as serve

        return serve(argv[1:], stderr=err)
    try:
        args = build_parser().parse_args(argv)
    except _ArgumentsError as exc:
        err.write(f"{exc}\n")
        return EXIT_USAGE
    except SystemExit as exc:  # --help: already printed
        return int(exc.code or 0)
    question = " ".join(args.question).strip()
    if args.question and not question:
        err.write("router: error: the question is empty (give a question, or no argument for the interactive REPL)\n")
        return EXIT_USAGE
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


def _run(args: argparse.Namespace, printer: Printer, out: TextIO, err: TextIO, inp: TextIO) -> int:
    try:
        from router.core import Router

        router = args.router = Router.from_yaml(args.config)
        _show_config(router, args, err)
        if args.provider is not None:
            args.provider = router.resolve_provider(args.provider)  # names and aliases, as the library resolves them
        question = " ".join(args.question).strip()
        if not question:
            return _repl(router, args, printer, out, err, inp)
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


__all__ = ["HISTORY_LENGTH", "build_parser", "history_file", "main"]
