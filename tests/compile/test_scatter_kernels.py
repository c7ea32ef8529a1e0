"""Scatter targets (kernel_ir.ScatterTarget): bincount, add.at and histogram counts run as
kernel reductions into private copies, fused with their producers; a k-means step's
argmin, counts and per-cluster sums run in one kernel, one pass over the points."""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp
from lazynum import config

from .. import strategies as S
from ..strategies import rngs, st
from .llvm_harness import on_llvm


def _kmeans_update(m, points, centers):
    labels = ((points[:, None, :] - centers[None]) ** 2).sum(axis=2).argmin(axis=1)
    k = centers.shape[0]
    counts = m.bincount(labels, minlength=k)
    sums = m.stack([m.bincount(labels, weights=points[:, d], minlength=k)
                    for d in range(points.shape[1])], axis=1)
    return labels, counts, sums


def _scatter_kernels(program):
    return [k for k in program.kernels_ir if k.targets]


@pytest.mark.parametrize("threads", [1, 2])
def test_kmeans_argmin_counts_and_sums_are_one_kernel_pass(threads):
    rng = np.random.default_rng(2)
    points, centers = rng.standard_normal((300_000, 2)), rng.standard_normal((8, 2))
    with on_llvm() as programs, config(threads=threads):
        labels, counts, sums = _kmeans_update(lnp, lnp.asarray(points), lnp.asarray(centers))
        lnp.sync(labels, counts, sums)
    (program,) = programs
    (kernel,) = _scatter_kernels(program)
    assert len(kernel.targets) == 3 and [bool(p.reductions) for p in kernel.phases] == [True, False]
    assert lnp.metrics()["fallbacks"] == 0
    want = _kmeans_update(np, points, centers)
    S.assert_same(labels, want[0])
    S.assert_same(counts, want[1])
    S.assert_same(sums, want[2], rtol=1e-12)      # parts combined in order: a different association


def test_private_copies_give_the_same_result_every_run():
    rng = np.random.default_rng(3)
    x, w = rng.integers(0, 50, 400_000), rng.standard_normal(400_000)
    with config(backend="llvm", threads=2):
        runs = [np.asarray(lnp.bincount(lnp.asarray(x) % 50, weights=lnp.asarray(w) * 1.0))
                for _ in range(3)]
    assert all(np.array_equal(runs[0], r) for r in runs)
    np.testing.assert_allclose(runs[0], np.bincount(x, weights=w), rtol=1e-12)


@given(n=st.integers(0, 300), size=st.integers(1, 20), dtype=S.numeric_dtypes, rng=rngs(),
       negative=st.booleans())
def test_add_at_with_repeated_indices_matches_numpy(n, size, dtype, rng, negative):
    idx = rng.integers(-size if negative else 0, size, n)
    values = (rng.standard_normal(n) * 5).astype(dtype)
    base = (rng.standard_normal(size) * 5).astype(dtype)
    expected = base.copy()
    np.add.at(expected, idx, values)
    lazy = lnp.asarray(base) * dtype.type(1)
    lnp.reset_metrics()
    lnp.add.at(lazy, lnp.asarray(idx), lnp.asarray(values) * dtype.type(1))
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    S.assert_same(lazy, expected)


def test_buffered_setitem_add_keeps_numpys_last_write_semantics():
    idx = np.array([0, 1, 1, 3, 3, 3])
    expected = np.zeros(5)
    expected[idx] += np.arange(6.0)
    lazy = lnp.zeros(5)
    lazy[lnp.asarray(idx)] += lnp.arange(6.0)
    S.assert_same(lazy, expected)


def test_out_of_bounds_add_at_raises_and_leaves_the_array_unchanged():
    a = lnp.zeros(4) + 1.0
    lnp.add.at(a, lnp.asarray(np.array([0, 4])), 1.0)
    with pytest.raises(IndexError):
        np.asarray(a)


def test_histogram_counts_are_a_scatter_kernel():
    x = np.random.default_rng(4).standard_normal(10_000)
    with on_llvm() as programs:
        counts, edges = lnp.histogram(lnp.asarray(x) * 1.0, bins=12, range=(-2, 2))
        lnp.sync(counts, edges)
    assert any(_scatter_kernels(p) for p in programs)
    S.assert_same(counts, np.histogram(x, bins=12, range=(-2, 2))[0])


def test_a_scatter_result_read_in_the_same_loop_is_not_fused_into_it():
    x = np.random.default_rng(5).integers(0, 6, 1000)
    with on_llvm():
        lx = lnp.asarray(x) % 6
        counts = lnp.bincount(lx, minlength=6)
        got = counts[lx] + lx           # reads the counts at every point of the scatter's loop
        np.asarray(got)
    counts_np = np.bincount(x, minlength=6)
    S.assert_same(got, counts_np[x] + x)
