"""``python -m router completion bash|zsh``: a completion script, built from the real parsers.

    eval "$(python -m router completion bash)"      # in ~/.bashrc
    eval "$(python -m router completion zsh)"       # in ~/.zshrc

Completes the subcommands, each command's options, ``--mode`` values and paths
after ``--config``; on ``python`` it completes only after ``-m router`` (other
uses of python keep file-name completion). Generated from the argparse parsers and the command table,
so a new option or command is completed without editing this file. Complete for
``router`` (the console script) and ``python -m router``.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from router.cli.commands import SUBCOMMANDS, load

SHELLS = ("bash", "zsh")


def _options(parser: argparse.ArgumentParser) -> list[str]:
    return sorted({flag for action in parser._actions for flag in action.option_strings if flag.startswith("--")})


def _command_options() -> dict[str, list[str]]:
    """Options per subcommand, from its module's ``build_parser`` where it has one."""
    from importlib import import_module

    out: dict[str, list[str]] = {}
    for name, (target, _) in SUBCOMMANDS.items():
        module = import_module(target.partition(":")[0])
        build = getattr(module, "build_parser", None)
        if build is None and name == "serve":
            from router.server.cli import build_parser as build
        out[name] = _options(build()) if build is not None else []
    out["completion"] = list(SHELLS)
    return out


def bash_script() -> str:
    from router.cli.ask import MODES, build_parser

    cases = "\n".join(f'        {name}) opts="{" ".join(options)}" ;;' for name, options in _command_options().items())
    return f"""# bash completion for router (python -m router completion bash)
_router_complete() {{
    local cur prev cmd opts i
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    local start=1
    case "${{COMP_WORDS[0]}}" in
        python*) [[ "${{COMP_WORDS[1]}}" == "-m" && "${{COMP_WORDS[2]}}" == "router" ]] || {{ COMPREPLY=(); return 0; }}
                 start=3; [[ $COMP_CWORD -ge 3 ]] || {{ COMPREPLY=(); return 0; }} ;;
    esac
    case "$prev" in
        --config) COMPREPLY=( $(compgen -f -- "$cur") ); return 0 ;;
        --mode) COMPREPLY=( $(compgen -W "{" ".join(MODES)}" -- "$cur") ); return 0 ;;
    esac
    cmd=""
    for (( i=start; i<COMP_CWORD; i++ )); do
        case "${{COMP_WORDS[i]}}" in
            -*) ;;
            *) cmd="${{COMP_WORDS[i]}}"; break ;;
        esac
    done
    case "$cmd" in
{cases}
        *) opts="{" ".join(SUBCOMMANDS)} {" ".join(_options(build_parser()))}" ;;
    esac
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}}
complete -o default -F _router_complete router
complete -o default -F _router_complete python python3   # acts only on `python -m router ...`
"""


def zsh_script() -> str:
    # zsh runs bash completion functions through bashcompinit: one logic for both shells.
    return (
        "# zsh completion for router (python -m router completion zsh)\n"
        "autoload -U +X compinit && compinit\n"
        "autoload -U +X bashcompinit && bashcompinit\n" + bash_script()
    )


def main(argv: list[str], *, stdout: TextIO, stderr: TextIO) -> int:
    if len(argv) != 1 or argv[0] not in SHELLS:
        stderr.write(f"router: error: usage: python -m router completion {{{'|'.join(SHELLS)}}} (got {' '.join(argv) or 'nothing'})\n")
        return 2
    stdout.write(bash_script() if argv[0] == "bash" else zsh_script())
    return 0


__all__ = ["bash_script", "load", "main", "zsh_script"]
