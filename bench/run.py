"""Run every benchmark in one go: NumPy, lazynum and the installed peers side by side.

Usage (from the repository root)::

    python -m bench.run                     # all benchmarks, median of 7 runs each
    python -m bench.run --quick             # small sizes, 3 runs (a smoke run)
    python -m bench.run --only tracing elementwise --json out.json
    python bench/run.py                     # same as python -m bench.run

Peers (numexpr, numba, jax) are measured only where installed (``pip install -e '.[bench]'``
brings numexpr and numba); a missing peer is listed and its column left out.  Each cell is
the median time and its ratio to NumPy's median (time / NumPy time: below 1.00x is faster
than NumPy, above is slower).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

if __package__ in (None, ""):          # `python bench/run.py`: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "bench"

from bench import cases as case_module  # noqa: E402
from bench.harness import LIBRARIES, PEERS, environment, format_table, load_peers, run_cases  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=None,
                        help="timed runs per measurement (median reported; default 7, 3 with --quick)")
    parser.add_argument("--quick", action="store_true", help="small sizes and 3 runs: a smoke run")
    parser.add_argument("--only", nargs="+", choices=sorted(case_module.ALL), metavar="NAME",
                        help=f"run only these benchmarks ({', '.join(case_module.ALL)})")
    parser.add_argument("--json", metavar="PATH", help="also write every sample and the environment as JSON")
    parser.add_argument("--no-peers", action="store_true", help="measure NumPy and lazynum only")
    parser.add_argument("-v", "--verbose", action="store_true", help="print progress to stderr")
    args = parser.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 7)
    if repeat < 1:
        parser.error("--repeat must be at least 1")

    peers = {} if args.no_peers else load_peers()
    libraries = [lib for lib in LIBRARIES if lib in ("numpy", "lazynum") or lib in peers]
    env = environment(peers)
    print(f"lazynum benchmarks: median of {repeat} runs (at least 31 for the per-op rows); "
          "cell = median time and time/NumPy time (lower is better, 1.00x = NumPy)")
    print("  " + "  ".join(f"{k}={v}" for k, v in env.items() if k != "platform"))
    missing = [p for p in PEERS if p not in peers]
    if missing:
        print(f"  not measured ({'skipped' if args.no_peers else 'not installed'}): {', '.join(missing)}")
    load = env.get("load_avg_1m")
    if load is not None and load > (env["cpu_count"] or 1) * 0.5:
        print(f"  warning: the machine is busy (load average {load} on {env['cpu_count']} cores): "
              "timings will be noisy")
    if env["lazynum_backend"] == "numpy":
        print("  note: lazynum runs on its NumPy reference backend (a program of NumPy calls, no "
              "fusion): the fused llvm backend (LAZYNUM_BACKEND=llvm) is the next milestone.")
    print()

    selected = args.only or list(case_module.ALL)
    built = []
    for name in selected:
        built.extend(case_module.ALL[name](peers, quick=args.quick))
    progress = (lambda text: print(text, file=sys.stderr, flush=True)) if args.verbose else None
    results = run_cases(built, libraries, repeat, progress)
    print(format_table(results, libraries))
    notes = [note for case in built for note in case.notes]
    if notes:
        print()
        for note in notes:
            print(f"  * {note}")

    if args.json:
        payload = {"environment": env, "repeat": repeat, "quick": args.quick,
                   "results": [vars(r) for r in results]}
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
