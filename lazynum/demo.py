"""A one-screen tour of lazynum: ``python -m lazynum.demo``.

Each step shows the code it runs (the ``>>>`` lines are executed exactly as printed), then what
happened: the graph recorded, what the metrics say ran, a value check against NumPy running
the *same* code, mutation through views, data-dependent shapes as bounded dims,
``LAZYNUM_SYNC=raise`` catching an implicit sync, and honest timings against NumPy.
"""
from __future__ import annotations

import os
import statistics
import sys
import textwrap
import time

import numpy

import lazynum
from lazynum.control import settings as _settings

SHAPE = (1000, 1000)
RUNS = 7
INDENT = "    "

STEP_RECORD = """\
x = np.asarray(data)                      # data: a NumPy (1000, 1000) float64 array
e = np.exp(x - x.max(axis=1, keepdims=True))
y = e / e.sum(axis=1, keepdims=True)      # softmax over the rows
"""

STEP_GRAPH = """\
print(np.graph_text(y))                   # the pending graph: nothing has been computed
"""

STEP_SYNC = """\
y.sync()                                  # one explicit sync computes the whole graph
"""

STEP_CACHE = """\
for rows in (400, 500, 700, 900):         # new sizes, same code: the compiled program replays
    x = np.asarray(data[:rows])
    e = np.exp(x - x.max(axis=1, keepdims=True))
    (e / e.sum(axis=1, keepdims=True)).sync()
"""

STEP_VIEWS = """\
a = np.zeros(200_000)                     # (arrays this large are recorded; small ones run at once)
v = a[2:6]                                # a view of a
v += 1                                    # writes into a through the view
a[::2] = -1                               # writes into a; v sees it
w = v * 10
"""

STEP_VIEWS_SYNC = """\
print(a[:8])                              # printing needs the value: a sync
print(w)
"""

STEP_BOUNDED = """\
x = np.asarray(data)
for t in (0.0, 1.0, 2.0):                 # any threshold: the same compiled program
    sel = x[x > t]                        # no sync: data padded to a bound, plus a lazy size
    stats = np.stack([sel.mean(), sel.var()])
    print(sel.shape, stats)               # one sync for both (printing needs the values)
"""

STEP_RAISE = """\
with np.config(sync="raise"):             # same as LAZYNUM_SYNC=raise
    z = y * 2 - 1
    if z[0, 0] > 0:                       # if needs a Python bool: an implicit sync
        pass
"""


def _show(code: str) -> None:
    for line in code.rstrip("\n").splitlines():
        print(f"{INDENT}{'...' if line.startswith(' ') else '>>>'} {line}")


def _run(code: str, namespace: dict, step: str) -> None:
    # Compiled under a "<demo ...>" file name: lazynum reports it as the user's line.
    exec(compile(code, f"<demo {step}>", "exec"), namespace)


def _indented_print(*args, **kwargs):
    """``print`` for the executed steps: their output is indented under their code."""
    text = " ".join(str(a) for a in args)
    print(textwrap.indent(text, INDENT + "  ", lambda line: True), **kwargs)


def _counters(*names) -> str:
    m = lazynum.metrics()
    return "  ".join(f"{name}={m[name]}" for name in names)


def _median_seconds(fn, runs=RUNS, after=None) -> float:
    """Median time of ``fn()``; ``after(result)`` runs untimed after each call."""
    result = fn()                          # warm-up, untimed
    if after is not None:
        after(result)
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - start)
        if after is not None:
            after(result)
    return statistics.median(samples)


def _softmax(xp, x):
    e = xp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _masked_stats(x):
    y = x[x > 0.25]
    return y.sum(), y.mean(), y.var()


def _chain(x, b, n_ops=1000):
    for _ in range(n_ops // 4):
        x = x * b + 0.5
        x = x * 0.5 - b
    return x


def _timings(data) -> list:
    """(what, NumPy seconds, lazynum seconds) rows; lazynum times include the sync, except
    the last row's (the cost of recording one op)."""
    lx = lazynum.asarray(data)
    a, b = data.ravel(), data.T.ravel()
    la, lb = lazynum.asarray(a), lazynum.asarray(b)
    small_a, small_b = numpy.linspace(-1, 1, 8), numpy.linspace(0.9, 1.1, 8)
    small_la, small_lb = lazynum.asarray(small_a), lazynum.asarray(small_b)

    rows = [
        ("softmax over rows, 1000x1000",
         _median_seconds(lambda: _softmax(numpy, data)),
         _median_seconds(lambda: lazynum.sync(_softmax(lazynum, lx)))),
        ("2*a + b*b - a/3, 10^6 float64",
         _median_seconds(lambda: 2 * a + b * b - a / 3),
         _median_seconds(lambda: lazynum.sync(2 * la + lb * lb - la / 3))),
        ("x[x > 0.25]: sum, mean, var, 10^6 float64",
         _median_seconds(lambda: _masked_stats(a)),
         _median_seconds(lambda: lazynum.sync(*_masked_stats(la)))),
    ]
    # Per-op rows take more samples: one scheduler hiccup (ms) would swamp a 1000-op chain.
    numpy_op = _median_seconds(lambda: _chain(small_a, small_b), runs=21) / 1000
    # Trace only; each chain is computed (untimed) before the next is recorded, otherwise
    # the next identical chain would be deduplicated against the pending one, not recorded.
    lazy_op = _median_seconds(lambda: _chain(small_la, small_lb), runs=21, after=lazynum.sync) / 1000
    rows.append(("cost of one op on 8 elements (1000-op chain)", numpy_op, lazy_op))
    return rows


def _format_time(seconds: float) -> str:
    return f"{seconds * 1e3:8.2f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:8.2f} µs"


def main() -> int:
    backend = _settings.get().backend
    described = "the NumPy reference backend" if backend == "numpy" else f"the {backend} backend"
    print(f"lazynum {lazynum.__version__} demo: NumPy code, run lazily (backend: {described})")
    data = numpy.random.default_rng(0).standard_normal(SHAPE)
    lazy_ns = {"data": data, "print": _indented_print}
    numpy_ns = {"np": numpy, "data": data}
    exec("import lazynum as np", lazy_ns)
    lazynum.reset_metrics()

    # The demo's own implicit syncs are intended; it compiles each new program before running
    # it, so the counts it prints are the same every time (LAZYNUM_COMPILE=background, the
    # default, would run a new program as NumPy calls first and compile it in the background).
    with lazynum.config(sync="allow", compile="eager"):
        print("\n[1] Record: every operation adds a node to a graph; nothing is computed")
        print(f"{INDENT}>>> import lazynum as np")
        _show(STEP_RECORD + STEP_GRAPH)
        _run(STEP_RECORD, lazy_ns, "step 1")
        _run(STEP_GRAPH, lazy_ns, "step 1")
        print(f"{INDENT}metrics: {_counters('ops_traced', 'syncs', 'nodes_computed')}"
              "   <- recorded, nothing ran")

        print("\n[2] Sync: the pending graph is computed in one run")
        _show(STEP_SYNC)
        _run(STEP_SYNC, lazy_ns, "step 2")
        print(f"{INDENT}metrics: {_counters('syncs', 'nodes_computed', 'kernels_launched')}")
        _run(STEP_RECORD, numpy_ns, "numpy")
        same = numpy.allclose(numpy.asarray(lazy_ns["y"]), numpy_ns["y"], rtol=1e-12, atol=0)
        print(f"{INDENT}numpy.allclose(y, the same code run by NumPy) -> {same}")

        print("\n[3] Cache: a new size or a new Python scalar replays the compiled program")
        _show(STEP_CACHE)
        before = lazynum.metrics()
        _run(STEP_CACHE, lazy_ns, "step 3")
        after = lazynum.metrics()
        delta = {k: after[k] - before[k] for k in ("syncs", "compiles", "cache_hits", "cache_hits_disk")}
        print(f"{INDENT}in those 4 syncs: " + "  ".join(f"{k}={v}" for k, v in delta.items())
              + "   <- sizes are symbols: one program")
        print(f"{INDENT}(step 2's square input was another structure: equal sizes share one symbol)")

        print("\n[4] Mutation through views keeps NumPy's aliasing, and stays lazy")
        syncs_before = lazynum.metrics()["syncs"]
        _show(STEP_VIEWS)
        _run(STEP_VIEWS, lazy_ns, "step 4")
        print(f"{INDENT}syncs while recording those writes: {lazynum.metrics()['syncs'] - syncs_before}")
        _show(STEP_VIEWS_SYNC)
        _run(STEP_VIEWS_SYNC, lazy_ns, "step 4")
        _run(STEP_VIEWS, numpy_ns, "numpy")
        same = all(numpy.array_equal(numpy.asarray(lazy_ns[k]), numpy_ns[k]) for k in "avw")
        print(f"{INDENT}a, v, w equal to the same code run by NumPy: {same}")

        print("\n[5] Data-dependent shapes stay lazy: bounded dims (size known only at run time)")
        _show(STEP_BOUNDED)
        before = lazynum.metrics()
        _run(STEP_BOUNDED, lazy_ns, "step 5")
        after = lazynum.metrics()
        delta = {k: after[k] - before[k] for k in ("syncs", "compiles", "cache_hits")}
        print(f"{INDENT}for 3 thresholds: " + "  ".join(f"{k}={v}" for k, v in delta.items())
              + "   <- one program for every mask")
        selected = data[data > 2.0]
        same = numpy.allclose(numpy.asarray(lazy_ns["stats"]), [selected.mean(), selected.var()],
                              rtol=1e-12, atol=0)
        print(f"{INDENT}stats equal to NumPy's data[data > 2.0].mean(), .var(): {same}")

        print("\n[6] LAZYNUM_SYNC=raise finds the implicit syncs (the line that asked for a value)")
        _show(STEP_RAISE)
        try:
            _run(STEP_RAISE, lazy_ns, "step 6")
            print(f"{INDENT}(no SyncError raised: unexpected)")
        except lazynum.SyncError as exc:
            print(f"{INDENT}lazynum.SyncError: {exc}")

    print(f"\n[7] Time against NumPy (median of {RUNS} runs; lazynum includes recording and the sync)")
    load, cores = (os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0), os.cpu_count() or 1
    if load > cores * 0.5:
        print(f"{INDENT}(this machine is busy: load average {load:.1f} on {cores} cores, so these are noisy)")
    print(f"{INDENT}{'':46s} {'NumPy':>11s} {'lazynum':>11s}   lazynum/NumPy")
    with lazynum.config(logs=""):             # LAZYNUM_LOGS would print every timed run
        rows = _timings(data)
    for what, numpy_s, lazy_s in rows:
        ratio = lazy_s / numpy_s
        verdict = "slower" if ratio > 1.1 else "faster" if ratio < 0.9 else "about the same"
        print(f"{INDENT}{what:46s} {_format_time(numpy_s)} {_format_time(lazy_s)}   "
              f"{ratio:5.2f}x {verdict}")
    print(f"{INDENT}(last row: NumPy computes each op; lazynum only records it, computing later)")
    if backend == "numpy":
        print(f"{INDENT}This ran on the NumPy reference backend (op by op, no fusion): NumPy's work plus")
        print(f"{INDENT}lazynum's recording. The default llvm backend fuses (LAZYNUM_BACKEND=llvm).")
    print(f"{INDENT}Full numbers, with numexpr, numba and jax where installed: python -m bench.run")
    print("\nMore: LAZYNUM_LOGS=graph,sync python -m lazynum.demo  |  lazynum.metrics_report()")
    return 0


if __name__ == "__main__":
    sys.exit(main())
