"""The interactive REPL (``python -m router`` with no question).

On a terminal it has line editing and a history (``readline``, imported only
then; history in ``$XDG_STATE_HOME/router/history`` or ``~/.router_history``, at
most ``HISTORY_LENGTH`` lines). Ctrl-C cancels the line being typed or the answer
being produced and keeps the session; Ctrl-D, ``exit`` or ``quit`` end it. A line
that is exactly a subcommand word (``models``, ``check``...) is never sent to a
model: the REPL says how to run it instead.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from router.cli.ask import EXIT_OK, EXIT_USAGE, Printer, _announce_fallback, _ask, _print_answer, _report
from router.cli.commands import is_subcommand_word
from router.errors import ConfigError, RouterError

HISTORY_LENGTH = 1000


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


def run_repl(router: Any, args: argparse.Namespace, printer: Printer, out: TextIO, err: TextIO, stdin: TextIO) -> int:
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
            if is_subcommand_word(question):
                err.write(f"[note] '{question}' is a router command, not a question: run `python -m router {question.lower()}`\n")
                continue
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


__all__ = ["HISTORY_LENGTH", "history_file", "run_repl"]
