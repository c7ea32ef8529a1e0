"""Benchmarks of the compile cache (issue 3): changing sizes, and the cost of a replay.

- ``dynamic``: an MLP forward (784 -> 256 -> 10, relu, softmax; float32) over 50 batch
  sizes from 1 to 512, from a cold start (empty cache, disk cache off), timed as one total.
  Tracing JITs compile once per new shape: lazynum compiles once per structure (size 1 is
  its own structure: it changes broadcasting), so its total is NumPy's plus one compile.
  A second row times the same 50 batches warm (every program compiled, inputs already in
  each library's arrays): the steady state of a serving loop, beside a hand-written numba
  forward (``@`` then one loop for bias + relu, one for the row softmax).
- ``replay``: a 20-op elementwise program on 64-element arrays, traced and replayed from
  the cache: the host cost per replay (trace + signature + lookup + run) beside NumPy
  running the same 20 ops eagerly.
"""
from __future__ import annotations

import numpy

import lazynum
from lazynum.runtime import compile_cache

from .harness import Case, Impl

N_BATCHES = 50


def _mlp(xp, x, w1, b1, w2, b2):
    h = xp.maximum(x @ w1 + b1, 0.0)
    logits = h @ w2 + b2
    e = xp.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _batch_sizes(quick):
    count = 10 if quick else N_BATCHES
    sizes = numpy.unique(numpy.linspace(1, 512, count).astype(int))
    return [int(s) for s in numpy.random.default_rng(3).permutation(sizes)]


def dynamic(peers, quick=False):
    rng = numpy.random.default_rng(0)
    f32 = numpy.float32
    w1, b1 = (rng.standard_normal((784, 256)) * 0.05).astype(f32), (rng.standard_normal(256) * 0.1).astype(f32)
    w2, b2 = (rng.standard_normal((256, 10)) * 0.05).astype(f32), (rng.standard_normal(10) * 0.1).astype(f32)
    sizes = _batch_sizes(quick)
    batches = [rng.standard_normal((n, 784)).astype(f32) for n in sizes]
    reference = numpy.concatenate([_mlp(numpy, x, w1, b1, w2, b2) for x in batches])
    case = Case(f"dynamic batch: MLP over {len(sizes)} batch sizes 1..512, cold",
                "784-256-10 f32", {}, reference, rtol=1e-4)
    case.impls["numpy"] = Impl(lambda: numpy.concatenate([_mlp(numpy, x, w1, b1, w2, b2)
                                                          for x in batches]), value=lambda r: r)
    lw = [lazynum.asarray(w) for w in (w1, b1, w2, b2)]

    def lazy_cold():
        compile_cache.clear_memory()
        with lazynum.config(cache_dir="off"):
            before = lazynum.metrics()["compiles"]
            out = [numpy.asarray(_mlp(lazynum, lazynum.asarray(x), *lw)) for x in batches]
            lazy_cold.compiles = lazynum.metrics()["compiles"] - before
        return numpy.concatenate(out)
    case.impls["lazynum"] = Impl(lazy_cold, value=lambda r: r)
    if "jax" in peers:
        jax, jnp = peers["jax"], peers["jax"].numpy
        jw = [jax.device_put(w) for w in (w1, b1, w2, b2)]

        def jax_cold():
            f = jax.jit(lambda x, *w: _mlp(jnp, x, *w))       # a new function: an empty cache
            return numpy.concatenate([numpy.asarray(f(x, *jw)) for x in batches])
        case.impls["jax"] = Impl(jax_cold, value=lambda r: r)
    lazy_cold()
    case.notes.append(f"dynamic batch: every run starts from an empty compile cache; lazynum "
                      f"compiled {lazy_cold.compiles} program(s) for {len(sizes)} batch sizes "
                      f"(size 1 is its own structure); jax.jit compiles once per batch size.")
    return [case, _warm(peers, batches, (w1, b1, w2, b2), reference)]


def _warm(peers, batches, weights, reference):
    """The 50 batches again, every library's compiled code warm (its warm-up run compiles;
    lazynum's programs and jax's per-shape functions are reused by the timed runs)."""
    case = Case(f"dynamic batch: MLP over {len(batches)} batch sizes 1..512, warm",
                "784-256-10 f32", {}, reference, rtol=1e-4)
    case.impls["numpy"] = Impl(lambda: numpy.concatenate([_mlp(numpy, x, *weights) for x in batches]),
                               value=lambda r: r)
    lazy_batches, lazy_weights = [lazynum.asarray(x) for x in batches], [lazynum.asarray(w) for w in weights]
    case.impls["lazynum"] = Impl(lambda: numpy.concatenate(
        [numpy.asarray(_mlp(lazynum, x, *lazy_weights)) for x in lazy_batches]), value=lambda r: r)
    if "numba" in peers:
        forward = _numba_mlp(peers["numba"])
        case.impls["numba"] = Impl(lambda: numpy.concatenate([forward(x, *weights) for x in batches]),
                                   value=lambda r: r)
    if "jax" in peers:
        jax, jnp = peers["jax"], peers["jax"].numpy
        f = jax.jit(lambda x, *w: _mlp(jnp, x, *w))
        jax_batches, jax_weights = [jax.device_put(x) for x in batches], [jax.device_put(w) for w in weights]
        case.impls["jax"] = Impl(lambda: numpy.concatenate(
            [numpy.asarray(f(x, *jax_weights)) for x in jax_batches]), value=lambda r: r)
    return case


def _numba_mlp(numba):
    @numba.njit(cache=False)
    def forward(x, w1, b1, w2, b2):
        h = x @ w1
        for i in range(h.shape[0]):
            for j in range(h.shape[1]):
                h[i, j] = max(h[i, j] + b1[j], 0.0)
        logits = h @ w2
        for i in range(logits.shape[0]):
            top = -numpy.inf
            for j in range(logits.shape[1]):
                logits[i, j] += b2[j]
                top = max(top, logits[i, j])
            total = 0.0
            for j in range(logits.shape[1]):
                logits[i, j] = numpy.exp(logits[i, j] - top)
                total += logits[i, j]
            for j in range(logits.shape[1]):
                logits[i, j] /= total
        return logits
    return forward


REPLAY_OPS = 20


def _program(xp, x, y):
    for _ in range(REPLAY_OPS // 4):
        x = x * y
        x = x + 0.5
        x = x - y
        x = xp.maximum(x, y)
    return x


def replay(peers, quick=False):
    rng = numpy.random.default_rng(2)
    a, b = rng.random(64), rng.random(64)
    case = Case(f"replay: {REPLAY_OPS}-op program, cache hit", "64 f64", {}, _program(numpy, a, b),
                per=REPLAY_OPS, unit="op", min_repeat=31)
    repeats = 100 if quick else 1000
    case.per = REPLAY_OPS * repeats

    def numpy_loop():
        for _ in range(repeats):
            out = _program(numpy, a, b)
        return out

    def lazy_loop():
        for _ in range(repeats):
            out = numpy.asarray(_program(lazynum, lazynum.asarray(a), lazynum.asarray(b)))
        return out
    case.impls["numpy"] = Impl(numpy_loop, value=lambda r: r)
    case.impls["lazynum"] = Impl(lazy_loop, value=lambda r: r)
    case.notes.append(f"replay: per op of a {REPLAY_OPS}-op program replayed {repeats} times "
                      f"(lazynum: asarray + trace + signature + cache lookup + run, every time).")
    return [case]
