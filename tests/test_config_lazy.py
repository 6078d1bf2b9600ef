"""The config's validators are built per section, on first use (``router.config.base``), and that changes nothing.

Speed is bench/startup.py's business; these tests pin what the laziness must keep:
the defaults of an absent section are exactly the model's own, a mistake inside a
section validated on its own still gets ``file:line``, its key path and a suggestion,
and a file that leaves a section out never builds that section's validator.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from pydantic import BaseModel

import router.config as config_module
from router.config import RouterConfig, parse_config
from router.config.base import _Strict, defaults
from router.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]

BASE = textwrap.dedent(
    """\
    default: alpha
    providers:
      alpha:
        client: openai
        base_url: https://alpha.example/v1
        api_key_env: ALPHA_KEY
        models:
          - id: alpha-1
    """
)


def _models() -> list[type[BaseModel]]:
    from router.config.deployments import Deployment
    from router.config.learning import LearningSettings, SignalWeights
    from router.config.mcp import McpServerSettings, McpSettings

    found = {m for m in vars(config_module).values() if isinstance(m, type) and issubclass(m, _Strict) and m is not _Strict}
    return sorted(found | {Deployment, LearningSettings, SignalWeights, McpServerSettings, McpSettings}, key=lambda m: m.__name__)


def _made_by_defaults() -> list[type[BaseModel]]:
    """The models some field builds with ``defaults(Model)`` when its key is absent."""
    by_name = {m.__name__: m for m in _models()}
    made = {getattr(field.default_factory, "__qualname__", "") for m in _models() for field in m.model_fields.values()}
    return [by_name[name[len("defaults("):-1]] for name in sorted(made) if name.startswith("defaults(")]


def test_every_section_with_defaults_is_checked() -> None:
    names = {m.__name__ for m in _made_by_defaults()}
    assert {"LoopSettings", "ServerSettings", "McpSettings", "LearningSettings", "SignalWeights", "Capabilities"} <= names


@pytest.mark.parametrize("model", _made_by_defaults(), ids=lambda m: m.__name__)
def test_the_defaults_of_an_absent_section_are_the_models_own(model: type[BaseModel]) -> None:
    constructed, validated = defaults(model)(), model()
    assert constructed == validated
    assert constructed.model_dump() == validated.model_dump()
    assert constructed.model_fields_set == validated.model_fields_set == set()


def test_a_config_without_sections_equals_one_that_writes_every_default_out() -> None:
    sparse = parse_config(BASE, "sparse.yaml")
    written = {name: defaults(field.annotation)().model_dump()  # type: ignore[arg-type]
               for name, field in RouterConfig.model_fields.items()
               if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel)}
    lines = "".join(f"{name}: {{}}\n" for name in written)
    full = parse_config(BASE + lines, "full.yaml")
    assert sparse.model_copy(update={"source": "x"}) == full.model_copy(update={"source": "x"})
    assert {name: getattr(full, name).model_dump() for name in written} == written
    assert sparse.model_dump(mode="json") == full.model_dump(mode="json")  # sections dump through their own models


NESTED = [
    pytest.param("    limits: {requests_per_mintue: 10}\n", "providers.alpha.limits.requests_per_mintue",
                 "did you mean requests_per_minute", id="provider-limits"),
    pytest.param("    deployments:\n      - name: one\n        wieght: 2\n", "providers.alpha.deployments[0].wieght",
                 "did you mean weight", id="deployment"),
    pytest.param("    deployments:\n      - name: one\n        limits: {tokens_per_minute: -1}\n",
                 "providers.alpha.deployments[0].limits.tokens_per_minute", "greater than 0", id="deployment-limits"),
]


@pytest.mark.parametrize(("extra", "where", "says"), NESTED)
def test_a_mistake_in_a_section_validated_on_its_own_names_file_line_and_key(extra: str, where: str, says: str) -> None:
    text = BASE + extra
    line = len(BASE.splitlines()) + next(i for i, row in enumerate(extra.splitlines(), 1)
                                         if where.rsplit(".", 1)[-1] in row)
    with pytest.raises(ConfigError) as info:
        parse_config(text, "p.yaml")
    message = str(info.value)
    assert message.startswith(f"p.yaml:{line}: {where}: "), message
    assert says in message


@pytest.mark.parametrize(("section", "where", "says"), [
    ("routing:\n  learning:\n    signals: {eror: 0.5}\n", "routing.learning.signals.eror", "did you mean error"),
    ("mcp:\n  max_tool_per_request: 3\n", "mcp.max_tool_per_request", "did you mean max_tools_per_request"),
    ("server:\n  max_body_bytes: 12\n", "server.max_body_bytes", "greater than or equal to 1024"),
])
def test_a_mistake_in_a_top_level_section_keeps_its_line_and_suggestion(section: str, where: str, says: str) -> None:
    text = section + BASE
    line = next(i for i, row in enumerate(text.splitlines(), 1) if where.rsplit(".", 1)[-1] + ":" in row)
    with pytest.raises(ConfigError) as info:
        parse_config(text, "p.yaml")
    assert str(info.value).startswith(f"p.yaml:{line}: {where}: ")
    assert says in str(info.value)


def test_a_section_the_file_leaves_out_is_never_built() -> None:
    """In a fresh process: the file has no server, state, mcp or learning, so their validators stay unbuilt."""
    text = BASE + "loop: {max_steps: 3}\n"
    code = textwrap.dedent(
        f"""
        from router.config import parse_config, ServerSettings, StateSettings, LoopSettings
        from router.config.mcp import McpSettings
        from router.config.learning import LearningSettings
        config = parse_config({text!r}, "p.yaml")
        assert config.loop.max_steps == 3 and config.server.max_body_bytes > 0 and not config.mcp.servers
        built = [m.__name__ for m in (ServerSettings, StateSettings, McpSettings, LearningSettings) if m.__pydantic_complete__]
        print(LoopSettings.__pydantic_complete__, built)
        """
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROUTER_")}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env,
                            check=False, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "[]"]


def test_the_config_json_schema_still_describes_every_section() -> None:
    schema = RouterConfig.model_json_schema()

    def resolved(node: dict) -> dict:  # type: ignore[type-arg]
        while "$ref" in node:
            node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        return node

    for name, field in RouterConfig.model_fields.items():
        if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel):
            assert set(resolved(schema["properties"][name])["properties"]) == set(field.annotation.model_fields), name
    provider = resolved(schema["properties"]["providers"]["additionalProperties"])
    assert {"client", "models", "deployments", "limits"} <= set(provider["properties"])
    assert resolved(schema["properties"]["server"])["properties"]["max_body_bytes"]["minimum"] == 1024
