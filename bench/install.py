"""Time the README's install command in a fresh venv with an empty pip cache.

Runs the first half of the README's first command (everything before ``&&``), exactly as written plus
``--no-cache-dir``, with a new venv's ``bin`` first on PATH, so what is measured is what a new user
types. It then runs the second half (the embedded answer) with the new venv's python and checks it
says 8760. Target: the install <= 300 s on a 2-core machine. Bounded: the install is killed after
``--timeout`` seconds.

    python bench/install.py [--timeout 900] [--keep]
    python bench/install.py --command 'pip install -e ".[local]"'   # e.g. the plain build, as a baseline

It also prints the CPU seconds the install used (user + sys of pip and the compilers) and the load average:
on a shared machine the wall time depends on what else runs, the CPU time much less.

While it runs it prints, once per build step the compiler reports, a timestamped progress line, so a
stalled build shows.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET_S = 300.0
_PROGRESS = re.compile(r"^\s*(\[\d+/\d+\])|^(Collecting|Building wheel|Successfully installed|Installing collected)")


def readme_first_command() -> str:
    """The README's first command line, comment stripped."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("```bash", 1)[1].split("```", 1)[0]
    first = next(line for line in block.splitlines() if line.strip())
    return first.split("  #", 1)[0].strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds before the install is killed")
    parser.add_argument("--command", help="install command to time instead of the README's (e.g. a baseline)")
    parser.add_argument("--keep", action="store_true", help="keep the venv (its path is printed)")
    args = parser.parse_args()

    full = readme_first_command()
    install, _, answer = full.partition("&&")
    install = (args.command or install).strip() + " --no-cache-dir"
    answer = answer.strip()
    workdir = Path(tempfile.mkdtemp(prefix="router-install-"))
    venv = workdir / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("ROUTER_")}
    env.pop("PIP_NO_CACHE_DIR", None)
    env.update(
        PATH=f"{venv / 'bin'}:{env.get('PATH', '')}",
        VIRTUAL_ENV=str(venv),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        LITELLM_LOCAL_MODEL_COST_MAP="True",
    )
    print(f"fresh venv: {venv}\ninstall command: {install}", flush=True)
    log_path = workdir / "install.log"
    load_start = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)  # the venv's creation is not the install's
    started = time.monotonic()
    status = "finished"
    with open(log_path, "w", encoding="utf-8") as log:
        process = subprocess.Popen(
            ["bash", "-c", install], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True,  # its own process group: a timeout ends pip and the compilers too
        )
        assert process.stdout is not None
        expired = threading.Event()

        def kill() -> None:  # a watchdog, so a silent hang is bounded too
            expired.set()
            os.killpg(process.pid, signal.SIGKILL)

        watchdog = threading.Timer(args.timeout, kill)
        watchdog.start()
        last_print = 0.0
        for line in process.stdout:
            log.write(line)
            now = time.monotonic() - started
            if _PROGRESS.search(line) and now - last_print >= 5:
                print(f"{now:6.1f}s  {line.strip()[:110]}", flush=True)
                last_print = now
        try:
            returncode = process.wait()
        except KeyboardInterrupt:
            os.killpg(process.pid, signal.SIGKILL)
            raise
        finally:
            watchdog.cancel()
        if expired.is_set():
            status = f"killed after {args.timeout:.0f} s"
    install_s = time.monotonic() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # pip and every compiler it waited for
    cpu_s = usage.ru_utime + usage.ru_stime - before.ru_utime - before.ru_stime
    load_end = os.getloadavg()[0]
    ok = status == "finished" and returncode == 0
    print(f"install: {install_s:.1f} s ({status}, exit {returncode}); CPU {cpu_s:.0f} s (user+sys, all processes); "
          f"load average {load_start:.1f} at the start, {load_end:.1f} at the end; log {log_path}")
    if not ok:
        print(open(log_path, encoding="utf-8").read()[-3000:])
    answered = ""
    if ok and answer:
        begun = time.monotonic()
        result = subprocess.run(["bash", "-c", answer], cwd=workdir, env=env, capture_output=True, text=True, timeout=300)
        answered = result.stdout.strip()
        print(f"answer ({time.monotonic() - begun:.1f} s, exit {result.returncode}): {answered[:200]}")
        ok = result.returncode == 0 and "8760" in answered.replace(",", "")
    print(f"install / target: {install_s / TARGET_S:.2f} ({install_s:.0f} s vs {TARGET_S:.0f} s) "
          f"{'OK' if ok and install_s <= TARGET_S else 'MISSED'}")
    if args.keep:
        print(f"kept: {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
