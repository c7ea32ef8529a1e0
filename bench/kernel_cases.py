"""Benchmarks of the fused llvm backend (issue 4): each workload written once, NumPy style.

Rows: fused elementwise (``2*a + 3*b*c - a/(b+1)``, 10^7 float64; beside the bytes it moves
and a one-thread STREAM-like add of this machine), Black-Scholes-style pricing (5M
float64, a tanh-based normal CDF: NumPy has no ``erf``), row softmax (4096x4096 float32),
layernorm (8192x1024 float32), a 5-point heat/Jacobi stencil with in-place slice writes
(2000x2000, 50 iterations, one sync each: every iteration after the first replays the
cached program), and an n-body acceleration step (2000 bodies).  Peak memory of the
lazynum run (tracemalloc, which sees NumPy's allocations) is reported against the
inputs' and output's bytes.
"""
from __future__ import annotations

import time
import tracemalloc

import numpy

import lazynum

from .formulas import black_scholes, fused_elementwise
from .harness import Case, Impl


def _softmax(xp, x):
    e = xp.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _layernorm(xp, x):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / xp.sqrt(var + 1e-5)


def _standardize(xp, x):
    """Column statistics: reductions over the leading axis (the llvm backend keeps one
    accumulator per column and streams the rows), then the map that uses them."""
    return (x - x.mean(axis=0)) / x.std(axis=0)


def _heat_step(a):
    a[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])


def _nbody(xp, pos, mass):
    d = pos[None, :, :] - pos[:, None, :]
    r2 = (d * d).sum(axis=-1) + 1e-3
    inv = mass[None, :] / (r2 * xp.sqrt(r2))
    return (d * inv[:, :, None]).sum(axis=1)


def stream_bandwidth(n=10_000_000, repeat=5):
    """Bytes per second of a STREAM-like add, ``a = b + c`` in one pass (out=: no
    allocation; 24 bytes per element: two reads and a write)."""
    b, c, a = numpy.ones(n), numpy.ones(n), numpy.empty(n)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        numpy.add(b, c, out=a)
        best = min(best, time.perf_counter() - start)
    return 3 * 8 * n / best


def peak_bytes(fn) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _case(name, size, xp_fn, arrays, peers, rtol=1e-9, numexpr_text=None, atol=0.0):
    reference = xp_fn(numpy, *arrays)
    case = Case(name, size, {}, reference, rtol=rtol, atol=atol)
    case.impls["numpy"] = Impl(lambda: xp_fn(numpy, *arrays), value=lambda r: r)
    lazy = [lazynum.asarray(a) for a in arrays]
    case.impls["lazynum"] = Impl(lambda: lazynum.sync(xp_fn(lazynum, *lazy)), value=numpy.asarray)
    if numexpr_text and "numexpr" in peers:
        names = dict(zip("abc", arrays)) if len(arrays) == 3 else {}
        case.impls["numexpr"] = Impl(lambda: peers["numexpr"].evaluate(numexpr_text, local_dict=names),
                                     value=lambda r: r)
    if "jax" in peers:
        jax = peers["jax"]
        f = jax.jit(lambda *xs: xp_fn(jax.numpy, *xs))
        device = [jax.device_put(a) for a in arrays]
        case.impls["jax"] = Impl(lambda: f(*device).block_until_ready(), value=numpy.asarray)
    inputs = sum(a.nbytes for a in arrays) + numpy.asarray(reference).nbytes
    lazynum.sync(xp_fn(lazynum, *lazy))                      # compiled: measure a replay
    peak = peak_bytes(lambda: lazynum.sync(xp_fn(lazynum, *lazy)))
    case.notes.append(f"{name}: a lazynum replay allocates {peak / 1e6:.0f} MB at its peak "
                      f"(buffers come from the pool); inputs and output are {inputs / 1e6:.0f} MB")
    return case


def kernels(peers, quick=False):
    rng = numpy.random.default_rng(7)
    n = 10**5 if quick else 10**7
    a, b, c = (rng.random(n) for _ in range(3))
    rows = [_case("fused: 2a + 3bc - a/(b+1)", f"{n:.0e} f64".replace("+0", ""), fused_elementwise,
                  (a, b, c), peers, numexpr_text="2*a + 3*b*c - a/(b+1)")]
    bandwidth = stream_bandwidth(n)
    bound = 4 * 8 * n / bandwidth
    rows[0].notes.append(f"fused elementwise: the row moves {4 * 8 * n / 1e6:.0f} MB (3 reads, "
                         f"1 write); NumPy's one-thread STREAM-like add runs at "
                         f"{bandwidth / 1e9:.1f} GB/s here ({bound * 1e3:.1f} ms for those bytes); "
                         f"lazynum's kernel runs on every core, so it can go faster")
    m = 5 * 10**4 if quick else 5 * 10**6
    s, k, t = rng.uniform(10, 100, m), rng.uniform(10, 100, m), rng.uniform(0.1, 2, m)
    rows.append(_case("Black-Scholes (tanh CDF)", f"{m:.0e} f64".replace("+0", ""), black_scholes,
                      (s, k, t), peers, atol=1e-9))
    side = 256 if quick else 4096
    x = rng.random((side, side), dtype=numpy.float32)
    rows.append(_case("row softmax", f"{side}x{side} f32", _softmax, (x,), peers, rtol=1e-5))
    shape = (512, 1024) if quick else (8192, 1024)
    y = rng.random(shape, dtype=numpy.float32)
    rows.append(_case("layernorm", f"{shape[0]}x{shape[1]} f32", _layernorm, (y,), peers, rtol=1e-4, atol=1e-5))
    shape = (400, 256) if quick else (20000, 500)
    z = rng.standard_normal(shape)
    rows.append(_case("standardize columns: (x - mean(0)) / std(0)", f"{shape[0]}x{shape[1]} f64",
                      _standardize, (z,), peers))
    bodies = 200 if quick else 2000
    pos, mass = rng.standard_normal((bodies, 3)), rng.random(bodies)
    rows.append(_case("n-body accelerations", f"{bodies} bodies f64", _nbody, (pos, mass), peers))
    rows.append(_heat(peers, 200 if quick else 2000))
    return rows


def _complex_chain(xp, z, w):
    return xp.abs(z * w + z) + (z / (w - 1j)).conj()


def _phasors(xp, r, theta):
    return r * xp.exp(1j * theta) + xp.sqrt(r + 1j * theta)


def _float16_chain(xp, x, y):
    return (x * 3 + y) / 7 - xp.sqrt(xp.abs(x - y))


def wide_dtypes(peers, quick=False):
    """Fused complex128 and float16 chains (issue 15): complex values as pairs of parts in
    one kernel (fma multiply, Smith division, scaled-hypot abs, exp, sqrt), float16
    rounded per op."""
    rng = numpy.random.default_rng(9)
    n = 10**4 if quick else 10**6
    z, w = (rng.standard_normal(n) + 1j * rng.standard_normal(n) for _ in range(2))
    x, y = (rng.standard_normal(n).astype(numpy.float16) for _ in range(2))
    size = f"{n:.0e}".replace("+0", "")
    return [_case("complex: abs(z*w + z) + conj(z/(w - 1j))", f"{size} c128", _complex_chain,
                  (z, w), peers, rtol=1e-12),
            _case("complex: r*exp(1j*theta) + sqrt(r + 1j*theta)", f"{size} f64->c128",
                  _phasors, (numpy.abs(x.astype(float)), y.astype(float)), peers, rtol=1e-13,
                  atol=1e-13),
            _case("float16: (3x + y)/7 - sqrt(|x - y|)", f"{size} f16", _float16_chain,
                  (x, y), peers, rtol=1e-3)]


def _heat(peers, side, steps=50):
    grid = numpy.random.default_rng(8).random((side, side))

    def numpy_run():
        a = grid.copy()
        for _ in range(steps):
            _heat_step(a)
        return a

    def lazy_run():
        a = lazynum.asarray(grid) * 1.0
        for _ in range(steps):
            _heat_step(a)
            a.sync()                         # one program, replayed every iteration
        return a
    case = Case(f"heat stencil x{steps}, a sync per step", f"{side}x{side} f64", {}, numpy_run())
    case.impls["numpy"] = Impl(numpy_run, value=lambda r: r)
    case.impls["lazynum"] = Impl(lazy_run, value=numpy.asarray)
    before = lazynum.metrics()["compiles"]
    lazy_run()
    case.notes.append(f"heat: {lazynum.metrics()['compiles'] - before} program(s) compiled for "
                      f"{steps} iterations with a sync each (the first iteration's, then one "
                      f"replayed by every later iteration)")
    return case
