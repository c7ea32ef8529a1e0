"""``python -m bench.fuzz``: run many random programs against NumPy and summarize.

    python -m bench.fuzz --programs 100000 --backend llvm --seed 0 --jobs 2

Each job is a worker process (``bench.fuzz.worker``) over every ``jobs``-th seed; a worker
that crashes or hangs costs one program (recorded as ``crash``/``hang`` with its unshrunk
reproducer) and is restarted after it, and workers are recycled every ``--recycle`` seeds
to keep memory flat.  The summary (counts, failures by category, first reproducers) goes
to stdout; shrunk reproducers go to ``--out``.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import pickle
import selectors
import signal
import subprocess
import sys
import tempfile
import time

from .generate import generate
from .run import Failure
from .shrink import reproducer, shrink_crash
from .worker import inflight_path, reproducers_written, write_reproducer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse(argv):
    parser = argparse.ArgumentParser(prog="python -m bench.fuzz", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--programs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="first seed (programs use seed..seed+programs-1)")
    parser.add_argument("--backend", default="llvm",
                        help="llvm, numpy, tiers (llvm under LAZYNUM_COMPILE=background, each "
                             "program run 3 times), immediate (llvm with the immediate tier on "
                             "for the smallest arrays), or both (llvm,numpy); comma-separated")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "lazynum-fuzz"),
                        help="directory for reproducer scripts")
    parser.add_argument("--shrink", type=int, default=2, help="failures shrunk per category and backend")
    parser.add_argument("--shrink-budget", type=int, default=400, help="program runs per shrink")
    parser.add_argument("--min-statements", type=int, default=5)
    parser.add_argument("--max-statements", type=int, default=30)
    parser.add_argument("--threads", default="", help="LAZYNUM_THREADS for the workers")
    parser.add_argument("--timeout", type=float, default=600, help="seconds without progress = hang")
    parser.add_argument("--recycle", type=int, default=2000, help="seeds per worker process")
    parser.add_argument("--json", default="", help="write every failing record here")
    parser.add_argument("--show", type=int, default=3, help="reproducers printed in full")
    parser.add_argument("--recheck", default="", metavar="DIR",
                        help="instead of fuzzing: run every reproducer in DIR (and its backend folders) and "
                             "list which still fail")
    options = parser.parse_args(argv)
    options.backends = ["llvm", "numpy"] if options.backend == "both" else options.backend.split(",")
    return options


class Job:
    """One stream of seeds (start, start + jobs, ...) and its current worker process."""

    def __init__(self, options, first: int, stop: int, step: int):
        self.options, self.next, self.stop, self.step = options, first, stop, step
        self.process = None
        self.buffer = b""
        self.reported: collections.Counter = collections.Counter()   # seed -> backends reported
        self.last_progress = time.monotonic()

    def start(self) -> None:
        o = self.options
        end = min(self.stop, self.next + o.recycle * self.step)
        command = [sys.executable, "-m", "bench.fuzz.worker", "--seeds", f"{self.next}:{end}:{self.step}",
                   "--backends", ",".join(o.backends), "--out", o.out, "--shrink", str(o.shrink),
                   "--shrink-budget", str(o.shrink_budget), "--min-statements", str(o.min_statements),
                   "--max-statements", str(o.max_statements)]
        if o.threads:
            command += ["--threads", o.threads]
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, start_new_session=True)
        self.last_progress = time.monotonic()

    def lines(self, data: bytes) -> list:
        self.buffer += data
        *complete, self.buffer = self.buffer.split(b"\n")
        records = [json.loads(line) for line in complete if line.strip()]
        for record in records:
            self.reported[record["seed"]] += 1
            if self.reported[record["seed"]] == len(self.options.backends):
                del self.reported[record["seed"]]
                self.next = record["seed"] + self.step
        self.last_progress = time.monotonic()
        return records

    def kill(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()


def lost_program(options, seed: int, why: str, pid: int) -> list:
    """Records (with a reproducer, shrunk for the first crash of its kind) for a program
    whose worker crashed or hung: the program and backend the worker said it was running,
    else the seed's program as this process generates it, on every backend."""
    inflight = _inflight(options.out, pid)
    if inflight is not None:
        program, backends = inflight[0], [inflight[1]]
    else:
        program, backends = generate(seed, options.min_statements, options.max_statements), options.backends
    records = []
    for backend in backends:
        category = why
        failure = Failure(category, None, None, "", why)
        if why.startswith("crash") and not reproducers_written(options.out, backend, category):
            program = shrink_crash(program, backend)
        path = write_reproducer(options.out, backend, seed, category, reproducer(program, failure, backend))
        records.append({"seed": seed, "backend": backend, "status": "fail", "category": category,
                        "numpy": "", "lazynum": why, "reproducer": path, "seconds": 0.0})
    return records


def _inflight(out_dir: str, pid: int):
    path = inflight_path(out_dir, pid)
    try:
        with open(path, "rb") as handle:
            return pickle.load(handle)
    except (OSError, EOFError, pickle.UnpicklingError):
        return None
    finally:
        if os.path.exists(path):
            os.unlink(path)


def drive(options) -> list:
    stop = options.seed + options.programs
    jobs = [Job(options, options.seed + j, stop, options.jobs) for j in range(options.jobs)]
    selector = selectors.DefaultSelector()
    for job in jobs:
        if job.next < stop:
            job.start()
            selector.register(job.process.stdout, selectors.EVENT_READ, job)
    records, last_report = [], time.monotonic()
    started = time.monotonic()
    while selector.get_map():
        for key, _ in selector.select(timeout=1.0):
            job = key.data
            data = os.read(key.fileobj.fileno(), 1 << 16)
            if data:
                records += job.lines(data)
                continue
            selector.unregister(key.fileobj)
            code = job.process.wait()
            records += _after_exit(job, code, selector, stop)
        for job in jobs:
            if job.process and job.process.poll() is None and time.monotonic() - job.last_progress > options.timeout:
                selector.unregister(job.process.stdout)
                job.kill()
                records += _after_exit(job, "hang", selector, stop)
        if time.monotonic() - last_report > 30:
            last_report = time.monotonic()
            _progress(records, started)
    return records


def _after_exit(job, code, selector, stop) -> list:
    """A worker ended: finished, recycled, crashed (signal / status) or hung."""
    lost = []
    if code != 0 and job.next < stop:
        why = "hang" if code == "hang" else (f"crash:signal{-code}" if code < 0 else f"crash:status{code}")
        lost = lost_program(job.options, job.next, why, job.process.pid)
        job.next += job.step
        job.reported.clear()
    if job.next < stop:
        job.start()
        selector.register(job.process.stdout, selectors.EVENT_READ, job)
    return lost


def _progress(records, started) -> None:
    done = len(records)
    failing = sum(r["status"] == "fail" for r in records)
    rate = done / max(time.monotonic() - started, 1e-9)
    print(f"[fuzz] {done} runs, {failing} failing, {rate:.1f} runs/s", file=sys.stderr, flush=True)


def summarize(options, records, seconds) -> str:
    lines = [f"lazynum fuzz: seeds {options.seed}..{options.seed + options.programs - 1}, "
             f"backends {','.join(options.backends)}, {options.jobs} job(s), "
             f"{options.min_statements}-{options.max_statements} statements"]
    for backend in options.backends:
        mine = [r for r in records if r["backend"] == backend]
        status = collections.Counter(r["status"] for r in mine)
        busy = sum(r.get("seconds", 0.0) for r in mine)
        lines.append(f"{backend}: {len(mine)} programs, ok {status['ok']}, invalid {status['invalid']}, "
                     f"failing {status['fail']}; {len(mine) / max(busy, 1e-9):.1f} programs/s per job "
                     f"(check time only), {len(mine) / max(seconds, 1e-9):.1f} programs/s wall")
    failing = [r for r in records if r["status"] == "fail"]
    groups = collections.defaultdict(list)
    for record in failing:
        groups[(record["backend"], record["category"])].append(record)
    if groups:
        lines.append("\nfailures by category (count, backend, category, first seed, reproducer):")
    shown = []
    for (backend, category), members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        first = min(members, key=lambda r: r["seed"])
        path = next((r["reproducer"] for r in sorted(members, key=lambda r: r["seed"]) if r.get("reproducer")), "-")
        lines.append(f"  {len(members):6d}  {backend:5s}  {category:55s} seed {first['seed']:<8d} {path}")
        if path != "-":
            shown.append(path)
    for path in shown[: options.show]:
        with open(path) as handle:
            lines.append(f"\n==== {path}\n{handle.read()}")
    return "\n".join(lines)


def recheck(folder: str) -> int:
    """Run each reproducer script under ``folder``; print which still fail (exit status)."""
    scripts = sorted(os.path.join(root, name) for root, _, names in os.walk(folder)
                     for name in names if name.endswith(".py"))
    failing = 0
    for script in scripts:
        try:
            code = subprocess.run([sys.executable, script], cwd=ROOT, capture_output=True, timeout=300).returncode
        except subprocess.TimeoutExpired:
            code = "timeout"
        failing += code != 0
        print(f"{'FAIL' if code != 0 else 'pass'} ({code})  {script}", flush=True)
    print(f"{failing} of {len(scripts)} reproducers still fail")
    return 1 if failing else 0


def main(argv=None) -> int:
    options = parse(argv)
    if options.recheck:
        return recheck(options.recheck)
    os.makedirs(options.out, exist_ok=True)
    started = time.monotonic()
    records = drive(options)
    seconds = time.monotonic() - started
    print(summarize(options, records, seconds))
    print(f"\nreproducers: {options.out}  ({seconds:.0f} s)")
    if options.json:
        with open(options.json, "w") as handle:
            json.dump([r for r in records if r["status"] == "fail"], handle, indent=1)
    return 1 if any(r["status"] == "fail" for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
