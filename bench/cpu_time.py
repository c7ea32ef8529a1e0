"""Thread CPU time of bench cases, NumPy beside lazynum, one thread each.

Usage (from the repository root)::

    python -m bench.cpu_time mlp_step dynamic          # medians of 7, one thread each
    python -m bench.cpu_time mlp_step --steps          # and where lazynum's time goes

Wall time on a machine that other jobs keep busy measures the scheduler as much as the
code: NumPy's two-thread OpenBLAS took anything from 7 to 268 ms for the same ten MLP
batches while two test runs shared its two cores.  The CPU time of the calling thread
with every library on that thread (this module sets ``OPENBLAS_NUM_THREADS=1`` and
``LAZYNUM_THREADS=1`` before NumPy loads) varies by a few percent under the same load.
It counts work, not parallel speed-up: ``python -m bench.run`` on a quiet machine is the
wall-time figure.  ``--steps`` adds lazynum's time per kernel template and extern call (a
step of a compiled program), summed over a run.
"""
from __future__ import annotations

import os
import sys

os.environ["OPENBLAS_NUM_THREADS"] = "1"        # before NumPy loads OpenBLAS
os.environ["LAZYNUM_THREADS"] = "1"

import argparse  # noqa: E402
import collections  # noqa: E402
import gc  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

from bench import cases as case_module  # noqa: E402
from lazynum.backends.llvm import program as llvm_program  # noqa: E402
from lazynum.runtime.tiers import wait_for_compiles  # noqa: E402

TOP_STEPS = 12


def _cpu(runs: dict, repeat: int) -> dict:
    """Median thread CPU time of each run, the runs interleaved (a change in the machine's
    load then shifts every library's samples alike)."""
    samples = {name: [] for name in runs}
    gc.disable()
    try:
        for _ in range(repeat):
            for name, run in runs.items():
                start = time.thread_time()
                run()
                samples[name].append(time.thread_time() - start)
    finally:
        gc.enable()
    return {name: statistics.median(values) for name, values in samples.items()}


def _step_times(run, repeat: int) -> dict:
    """lazynum's CPU time per program step (kernel template or extern op and its operand
    shapes) over ``repeat`` runs, by wrapping ``Program._launch`` and ``_extern``."""
    spent = collections.Counter()
    launch, extern = llvm_program.Program._launch, llvm_program.Program._extern

    def timed_launch(self, step, *args, **kwargs):
        start = time.thread_time()
        try:
            return launch(self, step, *args, **kwargs)
        finally:
            spent[f"kernel {step.name}"] += time.thread_time() - start

    def timed_extern(self, step, values, *args, **kwargs):
        shapes = " ".join(str(getattr(values[n], "shape", "?")) for n in step.args)
        start = time.thread_time()
        try:
            return extern(self, step, values, *args, **kwargs)
        finally:
            spent[f"{step.op.name} {shapes}"] += time.thread_time() - start
    llvm_program.Program._launch, llvm_program.Program._extern = timed_launch, timed_extern
    try:
        for _ in range(repeat):
            run()
    finally:
        llvm_program.Program._launch, llvm_program.Program._extern = launch, extern
    return {name: seconds / repeat for name, seconds in spent.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cpu_time", description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="+", choices=sorted(case_module.ALL), metavar="NAME",
                        help=f"benchmarks to measure ({', '.join(case_module.ALL)})")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs of each (median; default 7)")
    parser.add_argument("--quick", action="store_true", help="the benchmarks' small sizes")
    parser.add_argument("--steps", action="store_true", help="lazynum's time per program step")
    args = parser.parse_args(argv)
    print("thread CPU time, one thread (OPENBLAS_NUM_THREADS=1, LAZYNUM_THREADS=1), "
          f"median of {args.repeat}")
    for name in args.names:
        for case in case_module.ALL[name]({}, quick=args.quick):
            runs = {lib: case.impls[lib].run for lib in ("numpy", "lazynum") if lib in case.impls}
            for run in runs.values():            # warm: compiled, caches filled
                run()
                run()
            wait_for_compiles(600)
            times = _cpu(runs, args.repeat)
            ratio = times["lazynum"] / times["numpy"]
            print(f"{case.name} [{case.size}]: numpy {times['numpy'] * 1e3:.2f} ms, "
                  f"lazynum {times['lazynum'] * 1e3:.2f} ms ({ratio:.2f}x)")
            if args.steps:
                steps = sorted(_step_times(runs["lazynum"], args.repeat).items(),
                               key=lambda item: -item[1])
                for step, seconds in steps[:TOP_STEPS]:
                    print(f"    {seconds * 1e3:8.3f} ms  {step}")
                if len(steps) > TOP_STEPS:
                    rest = sum(seconds for _, seconds in steps[TOP_STEPS:])
                    print(f"    {rest * 1e3:8.3f} ms  {len(steps) - TOP_STEPS} other steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
