"""One program under lazynum in this (fresh) process: ``python -m bench.programs.worker NAME
SIZE RUNS OUTDIR``.  Run 1 is cold (an empty ``LAZYNUM_CACHE_DIR`` set by the caller), runs
2..RUNS are warm.  Only the program is timed (its result converted to NumPy, which syncs);
the interpreter start is not, and ``import lazynum`` is timed on its own.  Writes the cold
and last warm results to OUTDIR as .npz and prints, after each run, a JSON line of the
timings and metrics so far.
"""
from __future__ import annotations

import json
import sys
import time

import numpy


def main(argv) -> int:
    name, size, runs, outdir = argv[0], int(argv[1]), int(argv[2]), argv[3]
    start = time.perf_counter()
    import lazynum
    import_s = time.perf_counter() - start

    from bench.harness import Impl, _timed
    from bench.programs import PROGRAMS, to_numpy
    program = PROGRAMS[name]
    inputs = program.make_inputs(size)
    impl = Impl(run=lambda: to_numpy(program(lazynum, size, inputs)))
    report = {"import_s": import_s, "times_s": []}
    for run in range(runs):
        lazynum.reset_metrics()
        try:
            elapsed, result = _timed(impl)
        except Exception as exc:       # report it with the run that raised; the suite goes on
            report["error"] = f"run {run + 1}: {type(exc).__name__}: {exc}"
            break
        report["times_s"].append(elapsed)
        if run == 0:
            report["cold_metrics"] = lazynum.metrics()
            numpy.savez(f"{outdir}/cold.npz", **result)
        else:
            report["warm_metrics"] = lazynum.metrics()
            numpy.savez(f"{outdir}/warm.npz", **result)
        # The report so far after every run: a caller that kills a slow worker keeps it.
        print(json.dumps(report), flush=True)
    if "error" in report:
        print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
