"""Timing, peer detection, result checks and the table/JSON output of ``bench.run``.

A benchmark is a ``Case``: one row of the table, with one ``Impl`` per library.  Every
implementation is run once untimed (warm-up: JIT compiles, caches, page faults; its time is
kept as ``first_s``), then ``repeat`` times with the garbage collector off (as ``timeit``
does); the row reports the median.  Each library's result is checked against NumPy's, so a
fast wrong answer shows up as ``WRONG`` instead of a number.
"""
from __future__ import annotations

import gc
import importlib
import os
import platform
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy

LIBRARIES = ("numpy", "lazynum", "numexpr", "numba", "jax")
PEERS = ("numexpr", "numba", "jax")


@dataclass
class Impl:
    """One library's way to run a case.

    ``run`` is timed.  ``after(result)`` runs untimed after each timed call (e.g. compute a
    lazy graph that a trace-only timing left pending).  ``value(result)`` turns the result
    into a NumPy array for the correctness check (``None``: no check).
    """
    run: Callable[[], Any]
    after: Callable[[Any], Any] | None = None
    value: Callable[[Any], Any] | None = None


@dataclass
class Case:
    """One row: ``per`` divides the timings (e.g. 1000 for a per-op figure)."""
    name: str
    size: str
    impls: dict
    reference: Any = None
    per: int = 1
    unit: str = "call"
    rtol: float = 1e-7
    atol: float = 0.0               # for results with entries near zero (prices, centred values)
    min_repeat: int = 1             # short timings take more samples (a scheduler hiccup is ms)
    notes: list = field(default_factory=list)


@dataclass
class Result:
    case: str
    size: str
    library: str
    status: str                     # ok | n/a | not applicable | WRONG | error
    detail: str = ""
    median_s: float | None = None   # per `unit` (already divided by `per`)
    min_s: float | None = None
    samples_s: list = field(default_factory=list)
    first_s: float | None = None
    unit: str = "call"
    ratio_vs_numpy: float | None = None


def load_peers() -> dict:
    """Installed peers: name -> module (numexpr, numba, jax with 64-bit floats enabled)."""
    found = {}
    for name in PEERS:
        try:
            module = importlib.import_module(name)
        except Exception:          # not installed, or broken: skip it cleanly
            continue
        if name == "jax":
            try:
                module.config.update("jax_enable_x64", True)   # compare float64 with float64
                import jax.numpy  # noqa: F401  (fails early if jax is broken)
            except Exception:
                continue
        found[name] = module
    return found


def _timed(impl: Impl):
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        result = impl.run()
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return elapsed, result


def _check(case: Case, impl: Impl, result) -> str:
    if case.reference is None or impl.value is None:
        return ""
    got = numpy.asarray(impl.value(result))
    want = numpy.asarray(case.reference)
    if got.shape != want.shape:
        return f"shape {got.shape} != NumPy's {want.shape}"
    if not numpy.allclose(got, want, rtol=case.rtol, atol=case.atol, equal_nan=True):
        return f"values differ from NumPy's (max abs diff {numpy.max(numpy.abs(got - want)):.3g})"
    return ""


def measure(case: Case, library: str, repeat: int) -> Result:
    impl = case.impls.get(library)
    out = Result(case.name, case.size, library, "not applicable", unit=case.unit)
    if impl is None:
        return out
    try:
        first, result = _timed(impl)
        problem = _check(case, impl, result)
        if impl.after is not None:
            impl.after(result)
        del result
        if library == "lazynum":
            _settle(impl)
        samples = []
        for _ in range(max(repeat, case.min_repeat)):
            elapsed, result = _timed(impl)
            if impl.after is not None:
                impl.after(result)
            del result
            samples.append(elapsed / case.per)
    except NotImplementedError as exc:
        out.status, out.detail = "n/a", f"not implemented yet: {exc}"
        return out
    except Exception as exc:       # report, keep benchmarking the rest
        out.status, out.detail = "error", f"{type(exc).__name__}: {exc}"
        return out
    out.first_s = first / case.per
    out.samples_s = samples
    out.median_s = statistics.median(samples)
    out.min_s = min(samples)
    out.status, out.detail = ("WRONG", problem) if problem else ("ok", "")
    return out


def _settle(impl) -> None:
    """lazynum's steady state: a new program's second run starts its background compile
    (``LAZYNUM_COMPILE=background``); wait for it, so the timed runs measure compiled code
    (the first run, ``first_s``, is what a new program costs)."""
    try:
        from lazynum.runtime.tiers import wait_for_compiles
    except ImportError:             # an older lazynum: no background tier
        return
    _, result = _timed(impl)
    if impl.after is not None:
        impl.after(result)
    del result
    wait_for_compiles(600)


def run_cases(cases, libraries, repeat: int, progress=None) -> list:
    results = []
    for case in cases:
        row = {}
        for library in libraries:
            if progress:
                progress(f"  {case.name} [{case.size}] {library} ...")
            row[library] = measure(case, library, repeat)
        base = row.get("numpy")
        for result in row.values():
            if base and base.median_s and result.median_s is not None:
                result.ratio_vs_numpy = result.median_s / base.median_s
        results.extend(row.values())
    return results


def format_time(seconds: float) -> str:
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def _cell(result: Result) -> str:
    if result.status == "not applicable":
        return "—"
    if result.status == "n/a":
        return "n/a (not yet)"
    if result.status == "error":
        return "error"
    text = format_time(result.median_s)
    if result.unit != "call":
        text += f"/{result.unit}"
    if result.library != "numpy" and result.ratio_vs_numpy is not None:
        text += f" {result.ratio_vs_numpy:.2f}x"
    if result.status == "WRONG":
        text += " WRONG"
    return text


def format_table(results, libraries) -> str:
    rows, order = {}, []
    for r in results:
        key = (r.case, r.size)
        if key not in rows:
            rows[key] = {}
            order.append(key)
        rows[key][r.library] = r
    header = ["benchmark", "size"] + list(libraries)
    body = [[case, size] + [_cell(rows[(case, size)][lib]) for lib in libraries]
            for case, size in order]
    widths = [max(len(line[i]) for line in [header] + body) for i in range(len(header))]

    def line(cells):
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    out = [line(header), line(["-" * w for w in widths])]
    out += [line(cells) for cells in body]
    problems = [r for r in results if r.status in ("error", "WRONG", "n/a")]
    if problems:
        out.append("")
        for r in problems:
            out.append(f"  {r.status}: {r.case} [{r.size}] {r.library}: {r.detail}")
    return "\n".join(out)


def environment(peers: dict) -> dict:
    import lazynum
    env = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "numpy": numpy.__version__,
        "lazynum": lazynum.__version__,
        "lazynum_backend": settings_module().get().backend,
    }
    for name, module in peers.items():
        env[name] = getattr(module, "__version__", "?")
    if hasattr(os, "getloadavg"):
        env["load_avg_1m"] = round(os.getloadavg()[0], 2)
    if "numexpr" in peers:
        env["numexpr_threads"] = peers["numexpr"].get_num_threads()
    return env


def settings_module():
    """lazynum's settings module (``lazynum.control.settings``; ``lazynum.settings`` or ``lazynum.config`` in older trees,
    where the package attribute ``lazynum.config`` is the ``with`` block function)."""
    for name in ("lazynum.control.settings", "lazynum.settings", "lazynum.config"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "describe"):
            return module
    raise ImportError("lazynum has no settings module")
