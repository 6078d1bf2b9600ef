"""What the CLI's start-up loads, and the lazily compiled patterns behind it (issue 22).

Timing is bench/startup.py's business; these tests pin the behaviour that keeps it low:
an answer with the mock provider loads none of the subsystems only some paths use, and
the patterns compiled on first use match exactly what ``re`` would.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from router.lazyre import LazyPattern

REPO = Path(__file__).resolve().parents[1]

NOT_ON_THE_MOCK_PATH = (
    "router.routing.cues",  # only once a question mentions a provider or model by name
    "router.server", "router.telemetry.otel", "router.balance", "router.tools.mcp", "router.routing.learning",
    "router.routing.difficulty", "router.routing.semantic", "router.clients.openai", "router.clients.lean",
    "router.clients.litellm", "numpy", "tokenizers", "safetensors",
    "router.loop.run", "router.loop.text_react", "router.loop.tool_runner", "router.tools.registry",  # the tool loop
    "openai", "litellm", "httpx", "aiohttp", "httptools", "mcp", "opentelemetry", "llama_cpp", "redis",
)


def _run_clean(code: str) -> str:
    """Run code in a new interpreter with no provider key and no ROUTER_ setting from this machine; its stdout."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("ROUTER_")}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env,
                            check=False, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _modules_after(question: str) -> tuple[str, set[str]]:
    code = (
        "import io, sys\n"
        "from router.cli import main\n"
        "out, err = io.StringIO(), io.StringIO()\n"
        f"code = main(['--provider', 'mock', {question!r}], stdout=out, stderr=err)\n"
        "assert code == 0, err.getvalue()\n"
        "print(err.getvalue().replace('\\n', ' | '))\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    stderr_line, modules = _run_clean(code).strip().split("\n")[-2:]
    return stderr_line, set(modules.split())


def test_a_mock_answer_loads_no_subsystem_it_does_not_use() -> None:
    shown, modules = _modules_after("hi")
    assert "[route] mock/mock-model" in shown
    loaded = [name for name in NOT_ON_THE_MOCK_PATH if name in modules]
    assert not loaded, loaded


def test_a_question_naming_a_model_still_routes_by_its_cue() -> None:
    """The cue vocabulary loads on demand, so a request in the question still counts."""
    shown, modules = _modules_after("ask mock-model to say hi")
    assert "router.routing.cues" in modules
    assert "question asks for mock-model" in shown


CJK = r"[\u3400-\u9fff\uf900-\ufaff]"
SKETCH = r"[a-z]+|[\u3400-\u9fff]"
TEXTS = ("hi", "What is 365*24?", "", "今天北京天气怎么样", "请 deepseek 解释 attention 的原理", "mixed 中文 text 二〇二四",
         "ÀÉÎ café naïve", "한국어 문장", "a" * 500)


@pytest.mark.parametrize("text", TEXTS)
def test_lazy_patterns_answer_as_re_does(text: str) -> None:
    for source, flags, ascii in ((CJK, 0, ""), (SKETCH, 0, r"[a-z]+"), (r"(\w+)\s*[=:]", re.I, None)):
        lazy, plain = LazyPattern(source, flags, ascii=ascii), re.compile(source, flags)
        assert lazy.findall(text) == plain.findall(text)
        assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in plain.finditer(text)]
        assert bool(lazy.search(text)) == bool(plain.search(text))
        assert bool(lazy.match(text)) == bool(plain.match(text))
        assert bool(lazy.fullmatch(text)) == bool(plain.fullmatch(text))
        assert lazy.sub("#", text) == plain.sub("#", text)
        if text:
            assert bool(lazy.match(text, 1)) == bool(plain.match(text, 1))


def test_a_pattern_that_cannot_match_ascii_is_never_compiled_for_ascii_text() -> None:
    lazy = LazyPattern(CJK, ascii="")
    for text in ("hi", "What is 365*24?", "x" * 10_000):
        assert lazy.search(text) is None
        assert lazy.findall(text) == []
    assert lazy._compiled is None
    assert lazy.findall("北京 and 上海") == ["北", "京", "上", "海"]
    assert lazy._compiled is not None


def test_collection_resumes_before_the_answer_and_start_up_is_frozen_once() -> None:
    """The CLI pauses the cyclic collector while it starts; the answer and any later call run with it on."""
    code = (
        "import gc, io\n"
        "from router.cli import main\n"
        "seen = []\n"
        "for _ in range(2):\n"
        "    out, err = io.StringIO(), io.StringIO()\n"
        "    assert main(['--provider', 'mock', 'hi'], stdout=out, stderr=err) == 0, err.getvalue()\n"
        "    seen.append((gc.isenabled(), gc.get_freeze_count()))\n"
        "print(repr(seen))\n"
    )
    (first_on, first_frozen), (second_on, second_frozen) = ast.literal_eval(_run_clean(code).strip().splitlines()[-1])
    assert first_on and second_on
    assert first_frozen > 10_000  # the modules, classes and config of start-up
    assert second_frozen <= first_frozen  # a second call in one process freezes nothing more (some frozen objects die)
