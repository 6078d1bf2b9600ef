"""Step 6: switching providers is a YAML edit (or ROUTER_PROVIDER, or --provider), never code."""

import os
import tempfile
from pathlib import Path

from router import Router

YAML = """\
default: {default}
providers:
  first:
    client: mock
    aliases: [first]
    models: [{{id: first-model, default: true}}]
  second:
    client: mock
    aliases: [second]
    models: [{{id: second-model, default: true}}]
"""

# This demo writes its own providers.yaml and sets ROUTER_PROVIDER itself; a value from your shell
# (ROUTER_PROVIDER=mock, as the README runs the examples) names a provider this YAML does not have.
inherited = os.environ.pop("ROUTER_PROVIDER", None)
if inherited:
    print(f"(ROUTER_PROVIDER={inherited} from the environment is set aside: this demo's YAML has its own providers)")

with tempfile.TemporaryDirectory() as folder:
    path = Path(folder) / "providers.yaml"
    for default in ("first", "second"):
        path.write_text(YAML.format(default=default), encoding="utf-8")
        answer = Router.from_yaml(path).ask("hello", mode="cot")
        print(f"default: {default:6s} -> answered by {answer.provider}/{answer.model}")
    os.environ["ROUTER_PROVIDER"] = "first"
    answer = Router.from_yaml(path).ask("hello", mode="cot")
    print(f"ROUTER_PROVIDER=first -> answered by {answer.provider}/{answer.model}")
    answer = Router.from_yaml(path).ask("hello", mode="cot", provider="second")
    print(f"provider='second'     -> answered by {answer.provider}/{answer.model}")
