"""Time the real programs: NumPy against lazynum cold (a fresh process, empty compile cache)
and warm (later runs in that process).

Usage (from the repository root)::

    python -m bench.programs                      # every program (several minutes)
    python -m bench.programs --quick              # smaller sizes
    python -m bench.programs --only gauss lu --json out.json
    python -m bench.programs -v --timeout 300     # progress on stderr; kill a worker after 300 s

NumPy's time is the median of ``--repeat`` runs after one untimed run, in this process.  For
lazynum each program runs in a fresh Python subprocess with an empty temporary
``LAZYNUM_CACHE_DIR``: run 1 is COLD (what a new user sees: tracing, compiling, running),
runs 2..``--runs`` are WARM (median reported).  Only the program is timed, inside the
subprocess (its result converted to NumPy arrays, which syncs); ``import lazynum`` is timed
separately.  Both lazynum results are checked against NumPy's (dtype, shape, values); a
mismatch prints WRONG.  compiles, kernels and syncs are ``lazynum.metrics()`` of the cold run.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy

from bench.harness import Impl, _timed, environment, format_time
from bench.programs import PROGRAMS, mismatch, to_numpy

ROOT = Path(__file__).resolve().parents[2]


def time_numpy(program, size, repeat):
    inputs = program.make_inputs(size)
    impl = Impl(run=lambda: to_numpy(program(numpy, size, inputs)))
    _, reference = _timed(impl)             # untimed first run: page faults, caches
    samples = [_timed(impl)[0] for _ in range(repeat)]
    return statistics.median(samples), reference


def run_lazynum(program, size, runs, timeout):
    """Run the worker in a fresh process with an empty cache; returns its report: the times
    and metrics of the runs that finished, their results (``cold``, ``warm``), and ``error``
    (with ``failure``: timeout or crash) when the worker did not finish cleanly."""
    with tempfile.TemporaryDirectory(prefix="lazynum-programs-") as tmp:
        cache = Path(tmp) / "cache"
        cache.mkdir()
        env = dict(os.environ, LAZYNUM_CACHE_DIR=str(cache),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        command = [sys.executable, "-m", "bench.programs.worker", program.name, str(size), str(runs), tmp]
        try:
            done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            report = _last_report(exc.stdout)
            report["failure"] = "timeout"
            report["error"] = f"timeout: killed after {timeout:g} s, {len(report['times_s'])} run(s) finished"
        else:
            report = _last_report(done.stdout)
            if done.returncode != 0:       # a crash (even after the last run) is lazynum's failure
                tail = [line[:200] for line in done.stderr.strip().splitlines()[-2:]]
                report["failure"] = "crash"
                report["error"] = (f"worker exited {done.returncode} after {len(report['times_s'])} "
                                   "finished run(s): " + " | ".join(tail))
        for kind in ("cold", "warm"):
            path = Path(tmp) / f"{kind}.npz"
            if path.exists():
                with numpy.load(path) as saved:
                    report[kind] = {key: saved[key] for key in saved.files}
        return report


def _last_report(stdout) -> dict:
    """The worker's last JSON line (it prints one after every run, so a killed worker's
    finished runs are kept)."""
    if isinstance(stdout, bytes):
        stdout = stdout.decode(errors="replace")
    lines = [line for line in (stdout or "").splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {"times_s": []}


def measure(program, size, repeat, runs, timeout) -> dict:
    row = {"program": program.name, "what": program.what, "size": size}
    row["numpy_s"], reference = time_numpy(program, size, repeat)
    report = run_lazynum(program, size, runs, timeout)
    times = report.get("times_s", [])
    row["import_s"] = report.get("import_s")
    row["samples_s"] = times
    row["cold_s"] = times[0] if times else None
    row["warm_s"] = statistics.median(times[1:]) if len(times) > 1 else None
    row["cold_metrics"] = report.get("cold_metrics")
    row["warm_metrics"] = report.get("warm_metrics")
    problems = [f"{kind}: {why}" for kind in ("cold", "warm") if kind in report
                for why in [mismatch(report[kind], reference, program.rtol, program.atol)] if why]
    # WRONG (a result differs) first; else timeout, crash (the worker died) or error (raised).
    failure = report.get("failure", "error") if report.get("error") else "ok"
    row["status"] = "WRONG" if problems else failure
    if report.get("error"):
        problems.append(report["error"])
    row["problems"] = problems
    return row


def _timing(seconds, base):
    if seconds is None:
        return "—"
    return f"{format_time(seconds)} {seconds / base:.2f}x"


def format_rows(rows) -> str:
    header = ["program", "size", "numpy", "lazynum cold", "lazynum warm", "import", "compiles",
              "kernels", "syncs", "status"]
    body = []
    for r in rows:
        m = r["cold_metrics"] or {}
        body.append([r["program"], str(r["size"]), format_time(r["numpy_s"]),
                     _timing(r["cold_s"], r["numpy_s"]), _timing(r["warm_s"], r["numpy_s"]),
                     format_time(r["import_s"]) if r["import_s"] is not None else "—",
                     str(m.get("compiles", "—")), str(m.get("kernels_launched", "—")),
                     str(m.get("syncs", "—")), r["status"]])
    complete = [r for r in rows if r["cold_s"] is not None and r["warm_s"] is not None]
    if complete:
        numpy_sum = sum(r["numpy_s"] for r in complete)
        cold_sum = sum(r["cold_s"] for r in complete)
        warm_sum = sum(r["warm_s"] for r in complete)
        left = len(rows) - len(complete)
        body.append([f"suite sum ({len(complete)} programs)" + (f", {left} left out" if left else ""), "",
                     format_time(numpy_sum), _timing(cold_sum, numpy_sum), _timing(warm_sum, numpy_sum),
                     "", "", "", "", ""])
    widths = [max(len(line[i]) for line in [header] + body) for i in range(len(header))]

    def line(cells):
        return "  ".join(c.ljust(w) if i in (0, 1, 9) else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    out = [line(header), line(["-" * w for w in widths])] + [line(cells) for cells in body]
    out.insert(len(out) - 1 if complete else len(out), line(["-" * w for w in widths]))
    problems = [(r, p) for r in rows for p in r["problems"]]
    if problems:
        out.append("")
        out += [f"  {r['status']}: {r['program']} [{r['size']}]: {p}" for r, p in problems]
    return "\n".join(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.programs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=sorted(PROGRAMS), metavar="NAME",
                        help=f"run only these programs ({', '.join(PROGRAMS)})")
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer runs: a smoke run")
    parser.add_argument("--json", metavar="PATH", help="also write every sample, the metrics and the environment")
    parser.add_argument("--repeat", type=int, default=None, help="timed NumPy runs (median; default 5, 3 with --quick)")
    parser.add_argument("--runs", type=int, default=None,
                        help="lazynum runs per subprocess: 1 cold + the rest warm (default 3, 2 with --quick)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds allowed per lazynum subprocess")
    parser.add_argument("-v", "--verbose", action="store_true", help="print progress to stderr")
    args = parser.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 5)
    runs = args.runs or (2 if args.quick else 3)
    if repeat < 1 or runs < 2:
        parser.error("--repeat must be at least 1 and --runs at least 2")

    env = environment({})
    print("lazynum real programs: NumPy median of", repeat, "runs; lazynum cold = run 1 in a fresh process with an "
          f"empty cache, warm = median of runs 2..{runs}; ratio = time / NumPy time (lower is better)")
    print("  " + "  ".join(f"{k}={v}" for k, v in env.items() if k != "platform"))
    print()
    rows = []
    for name in args.only or list(PROGRAMS):
        program = PROGRAMS[name]
        size = program.quick if args.quick else program.size
        if args.verbose:
            print(f"  {name} [{size}] ...", file=sys.stderr, flush=True)
        rows.append(measure(program, size, repeat, runs, args.timeout))
    print(format_rows(rows))
    if args.json:
        payload = {"environment": env, "repeat": repeat, "runs": runs, "quick": args.quick, "results": rows}
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
