"""The benchmarks: each function returns ``Case`` rows with one implementation per library.

lazynum timings include the sync (the value is computed) unless a row says "trace only".
Peers get their idiomatic best form: numexpr ``evaluate``, a numba ``@njit`` loop, a
``jax.jit`` function on device-resident inputs (``block_until_ready`` included).  JIT
compile time is excluded from the median (each implementation runs once untimed first) and
kept in the JSON as ``first_s``.
"""
from __future__ import annotations

import numpy

import lazynum

from .harness import Case, Impl

_sync = lazynum.sync


def _pow10(n: int) -> str:
    exponent = len(str(n)) - 1
    return f"10^{exponent}" if n == 10**exponent else str(n)


def _lazy_value(x):
    """A synced lazynum result as NumPy (explicit sync first: no implicit-sync warnings)."""
    return numpy.asarray(_sync(x))


# ---------------------------------------------------------------------------------------------
# 1. Tracing overhead: the cost of recording one op, on arrays so small the math is free.

TRACE_OPS = 1000


def op_chain(x, b, n_ops=TRACE_OPS):
    """``n_ops`` elementwise ops alternating array and Python-scalar operands."""
    for _ in range(n_ops // 4):
        x = x + b
        x = x * 0.5
        x = x * b
        x = x - 1.0
    return x


def tracing(peers, quick=False):
    a = numpy.linspace(-1.0, 1.0, 8)
    b = numpy.linspace(0.9, 1.1, 8)          # keeps the chain bounded: no inf/denormals
    reference = op_chain(a, b)
    la, lb = lazynum.asarray(a), lazynum.asarray(b)
    size = f"{TRACE_OPS} ops x 8 f64"
    trace = Case("trace: record one op (lazy, no compute)", size, {}, reference, per=TRACE_OPS,
                 unit="op", min_repeat=31)
    trace.impls["numpy"] = Impl(lambda: op_chain(a, b), value=lambda r: r)
    trace.impls["lazynum"] = Impl(lambda: op_chain(la, lb), after=_sync, value=_lazy_value)
    run = Case("trace+sync: record and compute one op", size, {}, reference, per=TRACE_OPS,
               unit="op", min_repeat=31)
    run.impls["numpy"] = trace.impls["numpy"]
    run.impls["lazynum"] = Impl(lambda: _sync(op_chain(la, lb)), value=_lazy_value)
    if "jax" in peers:
        jax, jnp = peers["jax"], peers["jax"].numpy
        ja, jb = jnp.asarray(a), jnp.asarray(b)
        trace.impls["jax"] = Impl(lambda: jax.make_jaxpr(op_chain)(ja, jb))
        run.impls["jax"] = Impl(lambda: op_chain(ja, jb).block_until_ready(),
                                value=numpy.asarray)
    trace.notes.append("trace: the numpy column is NumPy running the chain eagerly (its per-op cost); "
                       "lazynum's chain is computed untimed after each timed recording (a pending "
                       "identical chain would be deduplicated, not recorded)"
                       + ("; the jax column is jax.make_jaxpr tracing the same chain." if "jax" in peers
                          else "."))
    if "jax" in peers:
        run.notes.append("trace+sync: the jax column is JAX's eager op-by-op dispatch.")
    return [trace, run]


# ---------------------------------------------------------------------------------------------
# 2. End-to-end elementwise expression (memory-bound; where fusion pays).

EXPR = "2*a + b*b - a/3"


def _expr(a, b):
    return 2 * a + b * b - a / 3


def elementwise(peers, quick=False):
    cases = []
    for n in ((10**5,) if quick else (10**6, 10**7)):
        rng = numpy.random.default_rng(0)
        a, b = rng.standard_normal(n), rng.standard_normal(n)
        la, lb = lazynum.asarray(a), lazynum.asarray(b)
        case = Case(f"elementwise: {EXPR}", f"{_pow10(n)} f64", {}, _expr(a, b))
        case.impls["numpy"] = Impl(lambda a=a, b=b: _expr(a, b), value=lambda r: r)
        case.impls["lazynum"] = Impl(lambda la=la, lb=lb: _sync(_expr(la, lb)), value=_lazy_value)
        if "numexpr" in peers:
            ne = peers["numexpr"]
            case.impls["numexpr"] = Impl(lambda a=a, b=b: ne.evaluate(EXPR, local_dict={"a": a, "b": b}),
                                         value=lambda r: r)
        if "numba" in peers:
            kernel = _numba_elementwise(peers["numba"])
            case.impls["numba"] = Impl(lambda a=a, b=b: kernel(a, b), value=lambda r: r)
        if "jax" in peers:
            jax = peers["jax"]
            f = jax.jit(_expr)
            ja, jb = jax.device_put(a), jax.device_put(b)
            case.impls["jax"] = Impl(lambda ja=ja, jb=jb: f(ja, jb).block_until_ready(),
                                     value=numpy.asarray)
        cases.append(case)
    return cases


def _numba_elementwise(numba):
    @numba.njit(cache=False)
    def kernel(a, b):
        out = numpy.empty_like(a)
        for i in range(a.size):
            out[i] = 2 * a[i] + b[i] * b[i] - a[i] / 3
        return out
    return kernel


# ---------------------------------------------------------------------------------------------
# 3. A reduction of an expression: ((a - b)**2).sum()

def _sumsq(a, b):
    return ((a - b) ** 2).sum()


def reduction(peers, quick=False):
    n = 10**5 if quick else 10**7
    rng = numpy.random.default_rng(1)
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    la, lb = lazynum.asarray(a), lazynum.asarray(b)
    case = Case("reduction: ((a - b)**2).sum()", f"{_pow10(n)} f64", {}, _sumsq(a, b), rtol=1e-9)
    case.impls["numpy"] = Impl(lambda: _sumsq(a, b), value=lambda r: r)
    case.impls["lazynum"] = Impl(lambda: _sync(_sumsq(la, lb)), value=_lazy_value)
    if "numexpr" in peers:
        ne = peers["numexpr"]
        case.impls["numexpr"] = Impl(lambda: ne.evaluate("sum((a - b)**2)", local_dict={"a": a, "b": b}),
                                     value=lambda r: r)
    if "numba" in peers:
        @peers["numba"].njit(cache=False)
        def kernel(a, b):
            total = 0.0
            for i in range(a.size):
                d = a[i] - b[i]
                total += d * d
            return total
        case.impls["numba"] = Impl(lambda: kernel(a, b), value=lambda r: r)
    if "jax" in peers:
        jax = peers["jax"]
        f = jax.jit(_sumsq)
        ja, jb = jax.device_put(a), jax.device_put(b)
        case.impls["jax"] = Impl(lambda: f(ja, jb).block_until_ready(), value=numpy.asarray)
    return [case]


# ---------------------------------------------------------------------------------------------
# 4. Row softmax: a reduction, a broadcast and an elementwise epilogue.

def _softmax(xp, x):
    e = xp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def softmax(peers, quick=False):
    shape = (200, 200) if quick else (1000, 1000)
    x = numpy.random.default_rng(2).standard_normal(shape)
    lx = lazynum.asarray(x)
    case = Case("softmax over rows", f"{shape[0]}x{shape[1]} f64", {}, _softmax(numpy, x))
    case.impls["numpy"] = Impl(lambda: _softmax(numpy, x), value=lambda r: r)
    case.impls["lazynum"] = Impl(lambda: _sync(_softmax(lazynum, lx)), value=_lazy_value)
    if "numba" in peers:
        @peers["numba"].njit(cache=False)
        def kernel(x):
            out = numpy.empty_like(x)
            for i in range(x.shape[0]):
                m = x[i, 0]
                for j in range(x.shape[1]):
                    m = max(m, x[i, j])
                s = 0.0
                for j in range(x.shape[1]):
                    out[i, j] = numpy.exp(x[i, j] - m)
                    s += out[i, j]
                for j in range(x.shape[1]):
                    out[i, j] /= s
            return out
        case.impls["numba"] = Impl(lambda: kernel(x), value=lambda r: r)
    if "jax" in peers:
        jax = peers["jax"]
        f = jax.jit(lambda v: _softmax(jax.numpy, v))
        jx = jax.device_put(x)
        case.impls["jax"] = Impl(lambda: f(jx).block_until_ready(), value=numpy.asarray)
    return [case]


# ---------------------------------------------------------------------------------------------
# 5. In-place stencil through views: mutation must stay lazy until the end.

STEPS = 100


def _stencil(xp, n, steps=STEPS):
    a = xp.zeros(n)
    a[0] = 1.0
    a[-1] = 1.0
    for _ in range(steps):
        a[1:-1] = 0.5 * (a[:-2] + a[2:])
    return a


def stencil(peers, quick=False):
    n = 10**4 if quick else 10**5
    case = Case(f"stencil: {STEPS}x a[1:-1] = 0.5*(a[:-2]+a[2:])", f"{_pow10(n)} f64", {},
                _stencil(numpy, n))
    case.impls["numpy"] = Impl(lambda: _stencil(numpy, n), value=lambda r: r)
    case.impls["lazynum"] = Impl(lambda: _sync(_stencil(lazynum, n)), value=_lazy_value)
    if "numba" in peers:
        @peers["numba"].njit(cache=False)
        def kernel(n, steps):
            a = numpy.zeros(n)
            a[0] = 1.0
            a[-1] = 1.0
            tmp = numpy.empty(n)
            for _ in range(steps):
                for i in range(1, n - 1):
                    tmp[i] = 0.5 * (a[i - 1] + a[i + 1])
                for i in range(1, n - 1):
                    a[i] = tmp[i]
            return a
        case.impls["numba"] = Impl(lambda: kernel(n, STEPS), value=lambda r: r)
    if "jax" in peers:
        jax = peers["jax"]
        jnp = jax.numpy

        @jax.jit
        def f(a):
            def body(_, a):
                return a.at[1:-1].set(0.5 * (a[:-2] + a[2:]))
            return jax.lax.fori_loop(0, STEPS, body, a)
        start = jnp.zeros(n).at[0].set(1.0).at[-1].set(1.0)
        case.impls["jax"] = Impl(lambda: f(start).block_until_ready(), value=numpy.asarray)
    return [case]


from .cache_cases import dynamic, replay  # noqa: E402  (after the helpers they share)
from .bounded_cases import kmeans, masked  # noqa: E402
from .autograd_cases import logistic_gradient, mlp_step  # noqa: E402
from .kernel_cases import kernels, wide_dtypes  # noqa: E402

ALL = {
    "tracing": tracing,
    "elementwise": elementwise,
    "reduction": reduction,
    "softmax": softmax,
    "stencil": stencil,
    "dynamic": dynamic,
    "replay": replay,
    "masked": masked,
    "kmeans": kmeans,
    "kernels": kernels,
    "wide_dtypes": wide_dtypes,
    "logistic_gradient": logistic_gradient,
    "mlp_step": mlp_step,
}
