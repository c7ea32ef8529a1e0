"""digitize, histogram, histogram_bin_edges and interp (frontend/binning.py): NumPy's exact
values, dtypes and shapes with no sync and no fallback; NumPy's errors at the call, and at
the sync for what only the data reveals."""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp
from .strategies import rngs, st


def _same(got, expected):
    got = np.asarray(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got.dtype, expected.dtype)
    np.testing.assert_array_equal(got, expected)


def _data(rng, n, dtype, special):
    x = rng.standard_normal(n) * 3
    if np.dtype(dtype).kind == "i":
        return np.round(x).astype(dtype)
    x = x.astype(dtype)
    if special and n > 4:
        x[:3] = [x[4], x[4], 0.0]           # ties with other values, and a zero
    return x


@given(n=st.integers(0, 300), bins=st.integers(1, 12), dtype=st.sampled_from(["f8", "f4", "i8", "i4"]),
       ranged=st.sampled_from([None, (-2, 2), (-1.5, 0.25), (0.0, 0.0)]), weighted=st.booleans(),
       density=st.booleans(), rng=rngs())
def test_histogram_with_equal_bins_matches_numpy(n, bins, dtype, ranged, weighted, density, rng):
    a = _data(rng, n, dtype, special=True)
    w = rng.random(n).astype("f4" if dtype == "f4" else "f8") if weighted else None
    with np.errstate(all="ignore"):
        expected = np.histogram(a, bins=bins, range=ranged, weights=w, density=density)
    lnp.reset_metrics()
    got = lnp.histogram(lnp.asarray(a), bins=bins, range=ranged,
                        weights=None if w is None else lnp.asarray(w), density=density)
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    _same(got[1], expected[1])
    if density:
        # (a float32 total: lazynum sums float32 in float64 blocks, NumPy pairwise in float32)
        np.testing.assert_allclose(np.asarray(got[0]), expected[0], equal_nan=True,
                                   rtol=1e-6 if dtype == "f4" and weighted else 1e-12)
    else:
        _same(got[0], expected[0])
    _same(lnp.histogram_bin_edges(lnp.asarray(a), bins=bins, range=ranged),
          np.histogram_bin_edges(a, bins=bins, range=ranged))


@given(n=st.integers(0, 200), edges=st.lists(st.floats(-4, 4), min_size=2, max_size=8, unique=True),
       weighted=st.booleans(), rng=rngs())
def test_histogram_with_explicit_edges_matches_numpy(n, edges, weighted, rng):
    a = _data(rng, n, "f8", special=True)
    if n > 5:
        a[5] = np.nan                       # NaNs fall in no bin
    edges = np.sort(np.asarray(edges))
    w = rng.random(n) if weighted else None
    expected = np.histogram(a, bins=edges, weights=w)
    got = lnp.histogram(lnp.asarray(a), bins=edges, weights=None if w is None else lnp.asarray(w))
    _same(got[0], expected[0])
    _same(got[1], expected[1])


def test_weighted_histograms_of_many_values_sum_in_numpys_blocks():
    rng = np.random.default_rng(2)
    a = rng.standard_normal(150_001)
    w = rng.random(150_001).astype(np.float32)
    for bins in (13, np.linspace(-3, 3, 9)):
        expected = np.histogram(a, bins=bins, weights=w)
        got = lnp.histogram(lnp.asarray(a), bins=bins, weights=lnp.asarray(w))
        _same(got[0], expected[0])


def test_histogram_errors_at_the_call_and_at_the_sync():
    a = lnp.asarray(np.arange(5.0))
    for kwargs in ({"bins": 0}, {"bins": [3, 1, 2]}, {"bins": [[1, 2]]}, {"range": (2, 1)},
                   {"range": (0, np.inf)}, {"weights": lnp.ones(4)}):
        with pytest.raises(ValueError):
            np.histogram(np.arange(5.0), **{k: np.ones(4) if k == "weights" else v
                                            for k, v in kwargs.items()})
        with pytest.raises(ValueError):
            lnp.histogram(a, **kwargs)
    with pytest.raises(TypeError):
        lnp.histogram(a, bins=2.5)
    counts, _ = lnp.histogram(lnp.asarray(np.array([1.0, np.nan])))       # data reveals it
    with pytest.raises(ValueError, match="not finite"):
        np.asarray(counts)
    tiny = np.array([1.0, 1.0 + 2e-16])
    with pytest.raises(ValueError, match="Too many bins"):
        np.histogram(tiny, bins=10)
    with pytest.raises(ValueError, match="Too many bins"):
        np.asarray(lnp.histogram(lnp.asarray(tiny), bins=10)[0])
    np.testing.assert_array_equal(np.asarray(a * 2), np.arange(5.0) * 2)   # still usable


def test_estimator_names_fall_back_to_numpy_and_are_counted():
    a = np.random.default_rng(1).standard_normal(100)
    lnp.reset_metrics()
    counts, edges = lnp.histogram(lnp.asarray(a), bins="auto")
    expected = np.histogram(a, bins="auto")
    _same(counts, expected[0])
    assert lnp.metrics()["fallbacks"] == 1


@given(n=st.integers(0, 50), right=st.booleans(), decreasing=st.booleans(),
       dtype=st.sampled_from(["f8", "i8", "f4"]), rng=rngs())
def test_digitize_matches_numpy(n, right, decreasing, dtype, rng):
    x = _data(rng, n, dtype, special=True)
    bins = np.array([-3.0, -1.0, 0.0, 0.0, 2.5])
    if decreasing:
        bins = bins[::-1].copy()
    lnp.reset_metrics()
    got = lnp.digitize(lnp.asarray(x), bins, right=right)
    assert lnp.metrics()["syncs"] == 0
    _same(got, np.digitize(x, bins, right=right))


def test_digitize_refuses_bins_that_are_not_monotonic():
    with pytest.raises(ValueError, match="monotonically"):
        lnp.digitize(lnp.asarray([1.0]), [1.0, 3.0, 2.0])


@given(n=st.integers(1, 12), m=st.integers(0, 40), repeat=st.booleans(),
       bounds=st.sampled_from([(None, None), (-7.0, 9.0)]), rng=rngs())
def test_interp_matches_numpy(n, m, repeat, bounds, rng):
    xp = np.sort(rng.standard_normal(n))
    fp = rng.standard_normal(n)
    if repeat and n > 2:
        xp[1] = xp[2]                     # a repeated sample point
        fp[0] = fp[1]
    x = np.concatenate([rng.standard_normal(m) * 2, xp, [xp[0] - 1.0, xp[-1] + 1.0]])
    left, right = bounds
    lnp.reset_metrics()
    got = lnp.interp(lnp.asarray(x), lnp.asarray(xp), fp, left=left, right=right)
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    _same(got, np.interp(x, xp, fp, left=left, right=right))


def test_interp_special_values_and_errors():
    xp, fp = np.array([0.0, 1.0, 2.0]), np.array([0.0, np.inf, 1.0])
    x = np.array([0.5, 1.0, 1.5, np.nan, -np.inf, np.inf])
    _same(lnp.interp(lnp.asarray(x), xp, fp), np.interp(x, xp, fp))
    _same(lnp.interp(lnp.asarray(np.array([3, 0, 1])), np.array([1]), np.array([5])),
          np.interp(np.array([3, 0, 1]), np.array([1]), np.array([5])))
    _same(lnp.interp(2.5, xp, fp), np.asarray(np.interp(2.5, xp, fp)))
    for bad in ((np.ones(3), np.ones(2)), (np.ones(0), np.ones(0))):
        with pytest.raises(ValueError):
            np.interp([1.0], *bad)
        with pytest.raises(ValueError):
            lnp.interp(lnp.asarray([1.0]), *bad)
