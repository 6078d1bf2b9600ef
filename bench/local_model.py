"""Load time, throughput and peak memory of the embedded model, printed.

Run: ``python bench/local_model.py [--model PATH] [--runs 3] [--max-tokens 64]``

Memory is the process's peak resident set size (``ru_maxrss``): llama.cpp
allocates in C, where tracemalloc sees nothing. The baseline RSS before
loading is printed too, so the model's share can be read off.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time

PROMPT = [
    {"role": "system", "content": "You are a concise assistant."},
    {"role": "user", "content": "Explain in three sentences why the sky looks blue during the day."},
]
# About the size of a text-ReAct request (tool descriptions + history): reading it dominates a loop step.
LONG_PROMPT = [
    {"role": "system", "content": "You are a concise assistant. " + "Answer carefully and cite the facts you use. " * 40},
    {"role": "user", "content": "Say yes."},
]


def peak_rss_mib() -> float:
    # Linux reports KiB, macOS bytes.
    per_mib = 1024 * 1024 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / per_mib


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="GGUF path (default: ROUTER_LOCAL_MODEL, then the bundled SmolLM2)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=64)
    parser.add_argument("--n-threads", type=int, default=None)
    args = parser.parse_args(argv)

    from router.clients.local_model import embedded_model_path, missing_model_message

    path = args.model or embedded_model_path()
    if not path:
        print(f"skipped: {missing_model_message()}")
        return 0

    rss_before = peak_rss_mib()
    started = time.perf_counter()
    import llama_cpp  # noqa: F401  (import cost is part of a cold start)

    import_s = time.perf_counter() - started

    from router.clients.llama_cpp import LlamaCppClient
    from router.types import RequestOptions

    started = time.perf_counter()
    # No prefix reuse: every run reads the whole prompt, so prompt processing is measured too.
    client = LlamaCppClient(path, max_tokens=args.max_tokens, n_threads=args.n_threads, reuse_prefix=False)
    load_s = time.perf_counter() - started
    rss_loaded = peak_rss_mib()

    totals: list[float] = []
    generation: list[float] = []
    prompt_tokens = completion_tokens = 0
    for _ in range(args.runs):
        started = time.perf_counter()
        response = client.chat(PROMPT, options=RequestOptions(temperature=0.0))
        elapsed = time.perf_counter() - started
        prompt_tokens, completion_tokens = response.usage.prompt_tokens, response.usage.completion_tokens
        totals.append((prompt_tokens + completion_tokens) / elapsed)
        generation.append(completion_tokens / elapsed)

    reading: list[float] = []
    long_prompt_tokens = 0
    for _ in range(args.runs):
        started = time.perf_counter()
        response = client.chat(LONG_PROMPT, options=RequestOptions(temperature=0.0, max_tokens=1))
        reading.append(response.usage.prompt_tokens / (time.perf_counter() - started))
        long_prompt_tokens = response.usage.prompt_tokens

    print(f"model:                 {path}")
    print(f"llama_cpp import:      {import_s:.2f} s")
    print(f"model load:            {load_s:.2f} s")
    print(f"tokens per request:    {prompt_tokens} prompt + {completion_tokens} generated (temperature 0, max {args.max_tokens})")
    print(f"throughput (p+g)/s:    median {statistics.median(totals):.1f} tok/s over {args.runs} runs")
    print(f"generated tokens/s:    median {statistics.median(generation):.1f} tok/s (wall time incl. prompt)")
    print(f"prompt reading:        median {statistics.median(reading):.1f} tok/s ({long_prompt_tokens}-token prompt, 1 generated)")
    print(f"peak RSS before load:  {rss_before:.0f} MiB")
    print(f"peak RSS after load:   {rss_loaded:.0f} MiB")
    print(f"peak RSS after runs:   {peak_rss_mib():.0f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
