"""linalg.lstsq/tensorsolve/tensorinv/multi_dot, einsum_path (frontend/lapack.py,
frontend/contraction_order.py) and histogramdd/histogram2d (frontend/binning_nd.py): NumPy's
values, dtypes, shapes and exception types, no sync and no fallback before the read."""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp
from .strategies import assert_same, least_squares_problems, rngs, same_error, st


def _no_sync(results):
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    return results


@given(problem=least_squares_problems(), dtype=st.sampled_from(["f8", "f4", "i8"]), rng=rngs())
def test_lstsq_matches_numpy_with_bounded_residuals(problem, dtype, rng):
    m, n, k, deficient = problem
    a = rng.standard_normal((m, n))
    if deficient and n > 1:
        a[:, -1] = a[:, 0]
    b = rng.standard_normal((m,) if k is None else (m, k))
    a, b = (np.round(v * 3).astype(dtype) if dtype == "i8" else v.astype(dtype) for v in (a, b))
    expected = np.linalg.lstsq(a, b)
    lnp.reset_metrics()
    got = _no_sync(lnp.linalg.lstsq(lnp.asarray(a), lnp.asarray(b)))
    tol = 1e-3 if dtype == "f4" else 1e-8
    for g, e in zip(got, expected):
        assert_same(g, np.asarray(e), rtol=tol, atol=tol)


def test_lstsq_errors_are_numpys():
    for a, b in ((np.ones((3, 2)), np.ones(4)), (np.ones(3), np.ones(3)), (np.ones((2, 2, 2)), np.ones(2))):
        same_error(lambda: lnp.linalg.lstsq(lnp.asarray(a), lnp.asarray(b)), lambda: np.linalg.lstsq(a, b))


@given(dims=st.lists(st.integers(1, 6), min_size=3, max_size=7), first_vector=st.booleans(),
       last_vector=st.booleans(), rng=rngs())
def test_multi_dot_matches_numpy(dims, first_vector, last_vector, rng):
    arrays = [rng.standard_normal((dims[i], dims[i + 1])) for i in range(len(dims) - 1)]
    if first_vector:
        arrays[0] = arrays[0][0]
    if last_vector:
        arrays[-1] = arrays[-1][:, 0]
    expected = np.linalg.multi_dot(arrays)
    lnp.reset_metrics()
    got = _no_sync(lnp.linalg.multi_dot([lnp.asarray(x) for x in arrays]))
    assert_same(got, np.asarray(expected), rtol=1e-10, atol=1e-12)


def test_multi_dot_errors_are_numpys():
    for arrays in ([np.ones(2)], [np.ones((2, 2)), np.ones((2, 2, 2)), np.ones((2, 2))]):
        same_error(lambda: lnp.linalg.multi_dot([lnp.asarray(x) for x in arrays]),
                   lambda: np.linalg.multi_dot(arrays))


@pytest.mark.parametrize("shape,ind", [((6, 4, 2, 3, 4), 2), ((4, 6, 8, 3), 2), ((24, 2, 3, 4), 1)])
def test_tensorinv_and_tensorsolve_match_numpy(shape, ind):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape)
    a = a + 4 * np.eye(int(np.prod(shape[:ind]))).reshape(shape)
    lnp.reset_metrics()
    got = _no_sync(lnp.linalg.tensorinv(lnp.asarray(a), ind))
    assert_same(got, np.linalg.tensorinv(a, ind), rtol=1e-8, atol=1e-10)
    b = rng.standard_normal(shape[:ind])
    lnp.reset_metrics()
    got = _no_sync(lnp.linalg.tensorsolve(lnp.asarray(a), lnp.asarray(b)))
    assert_same(got, np.linalg.tensorsolve(a, b), rtol=1e-8, atol=1e-10)
    same_error(lambda: lnp.linalg.tensorinv(lnp.asarray(a), 0), lambda: np.linalg.tensorinv(a, 0))
    same_error(lambda: lnp.linalg.tensorsolve(lnp.asarray(a), lnp.ones(5)),
               lambda: np.linalg.tensorsolve(a, np.ones(5)))


def test_einsum_path_is_numpys_without_a_sync():
    shapes = [(2, 3), (3, 4), (4, 5)]
    expected = np.einsum_path("ij,jk,kl->il", *[np.ones(s) for s in shapes], optimize="optimal")
    got = lnp.einsum_path("ij,jk,kl->il", *[lnp.ones(s) * 2 for s in shapes], optimize="optimal")
    assert lnp.metrics()["syncs"] == 0 and got == expected


@given(n=st.integers(0, 60), d=st.integers(1, 3), bins=st.sampled_from([3, 5, "per-axis", "edges"]),
       ranged=st.booleans(), weighted=st.booleans(), density=st.booleans(),
       dtype=st.sampled_from(["f8", "f4", "i8"]), rng=rngs())
def test_histogramdd_matches_numpy(n, d, bins, ranged, weighted, density, dtype, rng):
    sample = (rng.standard_normal((n, d)) * 3).astype(dtype)
    if bins == "per-axis":
        bins = [2 + i for i in range(d)]
    elif bins == "edges":
        bins = [np.array([-2.0, 0.0, 1.5, 4.0])] + [4] * (d - 1)
    range_ = [(-2, 2)] * d if ranged else None
    w = rng.random(n) if weighted else None
    with np.errstate(all="ignore"):
        expected = np.histogramdd(sample, bins, range_, density, w)
    lnp.reset_metrics()
    got = _no_sync(lnp.histogramdd(lnp.asarray(sample), bins, range_, density,
                                   None if w is None else lnp.asarray(w)))
    assert_same(got[0], expected[0], rtol=1e-12)
    assert len(got[1]) == len(expected[1])
    for g, e in zip(got[1], expected[1]):
        assert_same(g, e)


@given(n=st.integers(0, 60), bins=st.sampled_from([4, [3, 5], np.array([-1.0, 0.0, 2.0])]), rng=rngs())
def test_histogram2d_matches_numpy(n, bins, rng):
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    expected = np.histogram2d(x, y, bins)
    lnp.reset_metrics()
    got = _no_sync(lnp.histogram2d(lnp.asarray(x), lnp.asarray(y), bins))
    for g, e in zip(got, expected):
        assert_same(g, e)


@pytest.mark.parametrize("call", [
    lambda m: m.histogramdd(m.ones((4, 2)), bins=[2, 2, 2]), lambda m: m.histogramdd(m.ones((4, 2)), bins=0),
    lambda m: m.histogramdd(m.ones((4, 2)), bins=[np.array([2.0, 1.0]), 2]),
    lambda m: m.histogramdd(m.ones((4, 2)), bins=[2.5, 2])])
def test_histogramdd_errors_are_numpys(call):
    same_error(lambda: call(lnp), lambda: call(np))
