"""percentile, quantile, their nan forms, nanmedian, partition, argpartition, cov and
corrcoef (frontend/statistics.py): NumPy's exact values, dtypes and shapes, no sync and no
fallback, NumPy's errors at the call."""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp
from .strategies import rngs, st

METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf",
           "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
           "hazen", "weibull", "median_unbiased", "normal_unbiased"]


def _same(got, expected):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got.dtype, expected.dtype,
                                                                        got.shape, expected.shape)
    np.testing.assert_array_equal(got, expected)


def _data(rng, shape, dtype, nans):
    x = rng.standard_normal(shape) * 4
    if np.dtype(dtype).kind == "i":
        return np.round(x).astype(dtype)
    x = x.astype(dtype)
    if nans and x.size > 2:
        x.flat[1] = np.nan
    return x


@given(shape=st.sampled_from([(7,), (4, 5), (3, 1, 4)]), dtype=st.sampled_from(["f8", "f4", "i8"]),
       method=st.sampled_from(METHODS), q=st.sampled_from([0.0, 0.3, 1.0, [0.1, 0.5, 0.9]]),
       axis=st.sampled_from([None, 0, -1, (0, -1)]), keepdims=st.booleans(), rng=rngs())
def test_quantiles_and_percentiles_match_numpy_for_every_method(shape, dtype, method, q, axis,
                                                                  keepdims, rng):
    x = _data(rng, shape, dtype, nans=False)
    if isinstance(axis, tuple) and len(shape) == 1:
        with pytest.raises(ValueError, match="repeated axis"):       # NumPy's error too
            np.quantile(x, q, axis=axis)
        with pytest.raises(ValueError, match="repeated axis"):
            lnp.quantile(lnp.asarray(x), q, axis=axis)
        return
    lnp.reset_metrics()
    got_q = lnp.quantile(lnp.asarray(x), q, axis=axis, method=method, keepdims=keepdims)
    got_p = lnp.percentile(lnp.asarray(x), np.multiply(q, 100), axis=axis, method=method,
                           keepdims=keepdims)
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    _same(got_q, np.quantile(x, q, axis=axis, method=method, keepdims=keepdims))
    _same(got_p, np.percentile(x, np.multiply(q, 100), axis=axis, method=method, keepdims=keepdims))


@given(shape=st.sampled_from([(7,), (4, 5)]), axis=st.sampled_from([None, 0, -1]),
       keepdims=st.booleans(), rng=rngs())
def test_nan_forms_ignore_nans_as_numpy_does(shape, axis, keepdims, rng):
    x = _data(rng, shape, "f8", nans=True)
    with np.errstate(all="ignore"):
        _same(lnp.nanmedian(lnp.asarray(x), axis=axis, keepdims=keepdims),
              np.nanmedian(x, axis=axis, keepdims=keepdims))
        _same(lnp.nanpercentile(lnp.asarray(x), [25, 75], axis=axis, keepdims=keepdims),
              np.nanpercentile(x, [25, 75], axis=axis, keepdims=keepdims))
        _same(lnp.nanquantile(lnp.asarray(x), 0.5, axis=axis), np.nanquantile(x, 0.5, axis=axis))


def test_quantile_errors_are_numpys_at_the_call():
    x = lnp.asarray(np.arange(5.0))
    for call, args in ((lnp.percentile, (x, 101)), (lnp.quantile, (x, -0.1)),
                       (lnp.quantile, (x, 0.5))):
        kwargs = {"method": "bogus"} if args[1] == 0.5 else {}
        with pytest.raises(ValueError):
            call(*args, **kwargs)
    with pytest.raises(np.exceptions.AxisError):
        lnp.quantile(x, 0.5, axis=2)
    lnp.reset_metrics()
    np.testing.assert_allclose(np.asarray(lnp.percentile(x, 50, weights=np.ones(5),
                                                         method="inverted_cdf")), 2.0)
    assert lnp.metrics()["fallbacks"] == 1          # weights: NumPy's function, counted


@given(shape=st.sampled_from([(9,), (4, 6), (2, 3, 5)]), axis=st.sampled_from([-1, 0, None]),
       dtype=st.sampled_from(["f8", "i4", "f4"]), rng=rngs())
def test_partition_and_argpartition_are_numpys_own_order(shape, axis, dtype, rng):
    x = _data(rng, shape, dtype, nans=dtype == "f8")
    n = x.size if axis is None else x.shape[axis]
    kth = sorted({0, n // 2, n - 1})
    lnp.reset_metrics()
    got = lnp.partition(lnp.asarray(x), kth, axis=axis)
    got_index = lnp.argpartition(lnp.asarray(x), kth[1], axis=axis)
    assert lnp.metrics()["syncs"] == 0
    _same(got, np.partition(x, kth, axis=axis))
    _same(got_index, np.argpartition(x, kth[1], axis=axis).astype(np.int64))
    y = lnp.asarray(x) * 1
    k = x.shape[-1] // 2
    y.partition(k)                                  # the method partitions in place
    _same(y, np.partition(x * 1, k))
    with pytest.raises(ValueError):
        lnp.partition(lnp.asarray(x), n, axis=axis)


@given(rows=st.integers(0, 4), cols=st.integers(1, 7), rowvar=st.booleans(), bias=st.booleans(),
       ddof=st.sampled_from([None, 0, 2]), y_rows=st.sampled_from([None, 1, 2]),
       vector=st.booleans(), rng=rngs())
def test_cov_and_corrcoef_match_numpy(rows, cols, rowvar, bias, ddof, y_rows, vector, rng):
    m = rng.standard_normal(cols if vector else (rows, cols))
    y = None if y_rows is None else rng.standard_normal((y_rows, cols) if rowvar else (cols, y_rows))
    lazy_y = None if y is None else lnp.asarray(y)
    with np.errstate(all="ignore"), _quiet():
        try:
            expected = np.cov(m, y, rowvar=rowvar, bias=bias, ddof=ddof)
        except ValueError:
            with pytest.raises(ValueError):
                lnp.cov(lnp.asarray(m), lazy_y, rowvar=rowvar, bias=bias, ddof=ddof)
            return
        expected_r = np.corrcoef(m, y, rowvar=rowvar)
        lnp.reset_metrics()
        got = lnp.cov(lnp.asarray(m), lazy_y, rowvar=rowvar, bias=bias, ddof=ddof)
        got_r = lnp.corrcoef(lnp.asarray(m), lazy_y, rowvar=rowvar)
        assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
        for g, e in ((got, expected), (got_r, expected_r)):
            g = np.asarray(g)
            assert g.dtype == e.dtype and g.shape == e.shape, (g.shape, e.shape)
            # (NumPy's dot and lazynum's matmul may sum a product in another order)
            np.testing.assert_allclose(g, e, rtol=1e-13, atol=1e-15, equal_nan=True)


def test_cov_of_integers_and_a_vector():
    x = np.array([1, 4, 2, 8, 5])
    _same(lnp.cov(lnp.asarray(x)), np.cov(x))
    _same(lnp.corrcoef(lnp.asarray(x), lnp.asarray(x[::-1])), np.corrcoef(x, x[::-1]))
    with pytest.raises(ValueError):
        lnp.cov(lnp.asarray(np.ones((2, 2, 2))))


class _quiet:
    """NumPy warns about degrees of freedom <= 0 where lazynum (no warnings yet) does not."""

    def __enter__(self):
        import warnings
        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._catch.__exit__(*exc)


@given(n=st.integers(1, 7), m=st.integers(1, 7), mode=st.sampled_from(["full", "same", "valid"]),
       name=st.sampled_from(["convolve", "correlate"]), dtype=st.sampled_from(["f8", "f4", "i2"]),
       rng=rngs())
def test_convolve_and_correlate_are_numpys_with_gradients(n, m, mode, name, dtype, rng):
    a, v = _data(rng, (n,), dtype, nans=False), _data(rng, (m,), "f8", nans=False)
    expected = getattr(np, name)(a, v, mode)
    lnp.reset_metrics()
    got = getattr(lnp, name)(lnp.asarray(a), lnp.asarray(v), mode)
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    _same(got, expected)
    if dtype == "f8":
        from tests.autograd.finite_differences import assert_gradients
        w = rng.standard_normal(expected.shape)
        assert_gradients(lambda xp, a, v: (getattr(xp, name)(a, v, mode) * w).sum(), a, v)


def test_convolution_errors_are_numpys_at_the_call():
    for a, v, mode in (([], [1.0], "full"), ([1.0], [], "full"), ([1.0], [1.0], "bogus"),
                       ([[1.0]], [1.0], "full")):
        with pytest.raises(ValueError):
            np.convolve(a, v, mode)
        with pytest.raises(ValueError):
            lnp.convolve(lnp.asarray(np.asarray(a)), lnp.asarray(np.asarray(v)), mode)
