"""Benchmarks of bounded dims (issue 5): data-dependent shapes without a host round trip.

- ``masked``: ``y = x[x > t]`` then ``sum``, ``mean`` and ``var`` of ``y`` (10^7 float64):
  lazynum computes all three in one sync; numba is the hand-written two-pass ``prange``
  loop; JAX's jit-able form masks with ``where``.
- ``kmeans``: one k-means step whose center update selects each cluster's points with a
  mask (``X[assign == c].mean(axis=0)``), 10^6 2-d points, 8 clusters: lazynum runs the
  whole step as one program (one sync); JAX's form uses one-hot masks.  A second row
  writes the update with ``bincount`` (per-cluster sums and counts).
"""
from __future__ import annotations

import numpy

import lazynum

from .harness import Case, Impl


def _masked_stats(xp, x, t):
    y = x[x > t]
    return y.sum(), y.mean(), y.var()


def masked(peers, quick=False):
    n = 10**5 if quick else 10**7
    x = numpy.random.default_rng(4).standard_normal(n)
    t = 0.25
    reference = numpy.array(_masked_stats(numpy, x, t))
    case = Case("masked stats: y = x[x > t]; sum, mean, var", f"{n:.0e} f64".replace("+0", ""),
                {}, reference, rtol=1e-9)
    case.impls["numpy"] = Impl(lambda: numpy.array(_masked_stats(numpy, x, t)), value=lambda r: r)
    lx = lazynum.asarray(x)

    def lazy():
        results = _masked_stats(lazynum, lx, t)
        lazynum.sync(*results)                       # one sync for all three
        return numpy.array([float(r) for r in results])
    case.impls["lazynum"] = Impl(lazy, value=lambda r: r)
    if "numba" in peers:
        kernel = _numba_masked_stats(peers["numba"])
        case.impls["numba"] = Impl(lambda: kernel(x, t), value=lambda r: r)
    if "jax" in peers:
        jax, jnp = peers["jax"], peers["jax"].numpy

        @jax.jit
        def stats(x, t):
            keep = x > t
            count = keep.sum()
            total = jnp.where(keep, x, 0.0).sum()
            mean = total / count
            var = jnp.where(keep, (x - mean) ** 2, 0.0).sum() / count
            return jnp.stack([total, mean, var])
        jx = jax.device_put(x)
        case.impls["jax"] = Impl(lambda: numpy.asarray(stats(jx, t)), value=lambda r: r)
    return [case]


def _numba_masked_stats(numba):
    """The hand-written form: two parallel passes (count and sum, then squared deviations)."""
    @numba.njit(parallel=True, cache=False)
    def stats(x, t):
        total, count = 0.0, 0
        for i in numba.prange(x.shape[0]):
            if x[i] > t:
                total += x[i]
                count += 1
        mean = total / count
        squares = 0.0
        for i in numba.prange(x.shape[0]):
            if x[i] > t:
                squares += (x[i] - mean) ** 2
        return numpy.array([total, mean, squares / count])
    return stats


CLUSTERS = 8


def _kmeans_step(xp, points, centers):
    distances = ((points[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
    assign = distances.argmin(axis=1)
    return xp.stack([points[assign == c].mean(axis=0) for c in range(CLUSTERS)])


def _kmeans_counts_step(xp, points, centers):
    """The same step written with ``bincount``: per-cluster sums and counts, no masks."""
    distances = ((points[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
    assign = distances.argmin(axis=1)
    counts = xp.bincount(assign, minlength=CLUSTERS)
    sums = xp.stack([xp.bincount(assign, weights=points[:, d], minlength=CLUSTERS)
                     for d in range(points.shape[1])], axis=1)
    return sums / counts[:, None]


def kmeans(peers, quick=False):
    n = 10**4 if quick else 10**6
    rng = numpy.random.default_rng(5)
    points = rng.standard_normal((n, 2)) + rng.integers(0, 4, (n, 1)) * 3.0
    centers = points[rng.choice(n, CLUSTERS, replace=False)]
    reference = _kmeans_step(numpy, points, centers)
    case = Case(f"k-means step: {CLUSTERS} masked means", f"{n:.0e}x2 f64".replace("+0", ""),
                {}, reference, rtol=1e-9)
    case.impls["numpy"] = Impl(lambda: _kmeans_step(numpy, points, centers), value=lambda r: r)
    lp, lc = lazynum.asarray(points), lazynum.asarray(centers)
    case.impls["lazynum"] = Impl(lambda: numpy.asarray(_kmeans_step(lazynum, lp, lc)),
                                 value=lambda r: r)
    if "jax" in peers:
        jax = peers["jax"]

        @jax.jit
        def step(points, centers):
            distances = ((points[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
            onehot = jax.nn.one_hot(distances.argmin(axis=1), CLUSTERS, dtype=points.dtype)
            return (onehot.T @ points) / onehot.sum(axis=0)[:, None]
        jp, jc = jax.device_put(points), jax.device_put(centers)
        case.impls["jax"] = Impl(lambda: numpy.asarray(step(jp, jc)), value=lambda r: r)
    counted = Case(f"k-means step: {CLUSTERS} bincount sums", f"{n:.0e}x2 f64".replace("+0", ""),
                   {}, _kmeans_counts_step(numpy, points, centers), rtol=1e-9)
    counted.impls["numpy"] = Impl(lambda: _kmeans_counts_step(numpy, points, centers),
                                  value=lambda r: r)
    counted.impls["lazynum"] = Impl(lambda: numpy.asarray(_kmeans_counts_step(lazynum, lp, lc)),
                                    value=lambda r: r)
    return [case, counted]
