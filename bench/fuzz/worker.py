"""One fuzzing process: generate, run and (for the first failures of each category) shrink
programs for a stream of seeds, printing one JSON line per program and backend.

Run by ``python -m bench.fuzz`` as ``python -m bench.fuzz.worker ...`` so that a crash or a
hang in lazynum costs one program, not the run: the parent restarts the stream after it.
"""
from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import sys
import time

from .generate import generate
from .run import check
from .shrink import reproducer, shrink


def slug(category: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", category).strip("-")[:80]


def write_reproducer(out_dir: str, backend: str, seed: int, category: str, text: str) -> str:
    folder = os.path.join(out_dir, backend)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{slug(category)}-seed{seed}.py")
    with open(path, "w") as handle:
        handle.write(text)
    return path


def reproducers_written(out_dir: str, backend: str, category: str) -> int:
    """How many reproducers of ``category`` this run wrote already (any worker)."""
    folder = os.path.join(out_dir, backend)
    if not os.path.isdir(folder):
        return 0
    prefix = slug(category) + "-seed"
    return sum(name.startswith(prefix) for name in os.listdir(folder))


def inflight_path(out_dir: str, pid: int) -> str:
    """Where a worker keeps the program it is running (what a crash report needs)."""
    return os.path.join(out_dir, f".inflight-{pid}.pkl")


def fuzz_one(seed: int, backend: str, lazynum, options) -> dict:
    program = generate(seed, options.min_statements, options.max_statements)
    if options.out:
        with open(inflight_path(options.out, os.getpid()), "wb") as handle:
            pickle.dump((program, backend), handle)
    start = time.perf_counter()
    result = check(program, lazynum, backend)
    record = {"seed": seed, "backend": backend, "status": result.status,
              "seconds": round(time.perf_counter() - start, 4), "statements": len(program.statements)}
    if result.status != "fail":
        return record
    failure = result.failure
    record.update(category=failure.category, numpy=failure.numpy_result[:300],
                  lazynum=failure.lazynum_result[:300])
    if options.out and reproducers_written(options.out, backend, failure.category) < options.shrink:
        small = shrink(program, failure, lazynum, backend, budget=options.shrink_budget)
        again = check(small, lazynum, backend)
        final = again.failure if again.status == "fail" else failure
        if again.status != "fail":
            small = program           # flaky: keep the original program
        text = reproducer(small, final, backend)
        record["reproducer"] = write_reproducer(options.out, backend, seed, failure.category, text)
        record["shrunk_statements"] = len(small.statements)
    return record


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.fuzz.worker")
    parser.add_argument("--seeds", default="0:0:1", help="start:stop:step")
    parser.add_argument("--backends", required=True, help="comma-separated")
    parser.add_argument("--out", default="")
    parser.add_argument("--shrink", type=int, default=2, help="failures shrunk per category")
    parser.add_argument("--shrink-budget", type=int, default=400)
    parser.add_argument("--min-statements", type=int, default=5)
    parser.add_argument("--max-statements", type=int, default=30)
    parser.add_argument("--threads", default="")
    parser.add_argument("--program", default="", help="run this pickled Program once (crash checks)")
    options = parser.parse_args(argv)
    os.environ["LAZYNUM_CACHE_DIR"] = "off"
    os.environ["LAZYNUM_RECOMPILE_LIMIT"] = "0"
    if options.threads:
        os.environ["LAZYNUM_THREADS"] = options.threads
    import lazynum                            # after the environment is set
    backends = options.backends.split(",")
    if options.program:
        with open(options.program, "rb") as handle:
            program = pickle.load(handle)
        for backend in backends:
            print(json.dumps({"backend": backend, "status": check(program, lazynum, backend).status}))
        return
    start, stop, step = (int(part) for part in options.seeds.split(":"))
    for seed in range(start, stop, step):
        for backend in backends:
            record = fuzz_one(seed, backend, lazynum, options)
            sys.stdout.write(json.dumps(record) + "\n")
            sys.stdout.flush()
    if options.out and os.path.exists(inflight_path(options.out, os.getpid())):
        os.unlink(inflight_path(options.out, os.getpid()))


if __name__ == "__main__":
    main()
