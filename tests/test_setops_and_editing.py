"""union1d, intersect1d, setdiff1d, setxor1d (frontend/setops.py), delete (editing.py),
unwrap (series.py), window functions (windows.py) and triangle/grid indices
(index_grids.py): NumPy's values, dtypes and shapes with no sync and no fallback before
the result is read; data-dependent sizes are bounded arrays."""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp
from .strategies import rngs, st


def _same(got, expected, exact=True):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got.dtype, expected.dtype,
                                                                        got.shape, expected.shape)
    if exact:
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def _no_sync(fn):
    lnp.reset_metrics()
    result = fn()
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    return result


SET_OPS = ["union1d", "intersect1d", "setdiff1d", "setxor1d"]


@pytest.mark.parametrize("name", SET_OPS)
@given(rng=rngs(), sizes=st.tuples(st.integers(0, 9), st.integers(0, 9)),
       dtypes=st.sampled_from([("i8", "i8"), ("i4", "f8"), ("f4", "f4"), ("u1", "i2")]),
       assume_unique=st.booleans(), lazy_second=st.booleans())
def test_set_operations_match_numpy(name, rng, sizes, dtypes, assume_unique, lazy_second):
    a = rng.integers(-4, 5, sizes[0]).astype(dtypes[0])
    b = rng.integers(-4, 5, sizes[1]).astype(dtypes[1])
    kwargs = {} if name == "union1d" else {"assume_unique": assume_unique}
    second = lnp.asarray(b) if lazy_second else b
    got = _no_sync(lambda: getattr(lnp, name)(lnp.asarray(a), second, **kwargs))
    _same(got, getattr(np, name)(a, b, **kwargs))


def test_set_operations_of_2d_and_of_bounded_inputs():
    a = np.array([[3, 1], [2, 3]])
    b = np.array([5, 7, 1, 1, 2])
    sel = _no_sync(lambda: lnp.asarray(b)[lnp.asarray(b) > 1])          # bounded
    _same(lnp.setdiff1d(lnp.asarray(a), sel), np.setdiff1d(a, b[b > 1]))
    _same(lnp.union1d(sel, lnp.asarray(a)), np.union1d(b[b > 1], a))
    _same(lnp.intersect1d(lnp.asarray(a), b, return_indices=True)[1],
          np.intersect1d(a, b, return_indices=True)[1])


@given(rng=rngs(), n=st.integers(1, 8), ndim=st.integers(1, 3), axis=st.integers(-1, 2),
       kind=st.sampled_from(["int", "negative", "slice", "list", "mask", "lazy_mask", "lazy_int"]))
def test_delete_matches_numpy(rng, n, ndim, axis, kind):
    shape = (n,) * ndim
    x = rng.standard_normal(shape)
    axis = None if axis >= ndim else axis
    length = x.size if axis is None else shape[axis]
    obj = {"int": length - 1, "negative": -1, "slice": slice(0, None, 2),
           "list": [0, length - 1, 0], "mask": np.arange(length) % 2 == 0,
           "lazy_mask": np.arange(length) % 3 == 0, "lazy_int": np.array([length - 1, 0])}[kind]
    lazy_obj = lnp.asarray(obj) if kind.startswith("lazy") else obj
    got = _no_sync(lambda: lnp.delete(lnp.asarray(x), lazy_obj, axis=axis))
    _same(got, np.delete(x, obj, axis=axis))


def test_delete_errors_are_numpys():
    x = lnp.arange(5.0)
    with pytest.raises(IndexError):
        lnp.delete(x, 7)
    with pytest.raises(ValueError):
        lnp.delete(x, lnp.asarray(np.array([True, False])))
    with pytest.raises(IndexError):
        lnp.delete(x, lnp.asarray(np.array([0.5])))
    bad = lnp.delete(x, lnp.asarray(np.array([9])))       # a lazy index: checked at the sync
    with pytest.raises(IndexError):
        np.asarray(bad)


@pytest.mark.parametrize("dtype", ["f8", "f4", "i8"])
@pytest.mark.parametrize("period", [2 * np.pi, 6, 5.0])
def test_unwrap_matches_numpy(dtype, period):
    rng = np.random.default_rng(3)
    base = np.cumsum(rng.uniform(-2, 2, (3, 40)), axis=1)
    p = (base % period).astype(dtype) if dtype != "i8" else (np.round(base * 3) % 12).astype(dtype)
    for axis in (-1, 0):
        got = _no_sync(lambda: lnp.unwrap(lnp.asarray(p), axis=axis, period=period))
        _same(got, np.unwrap(p, axis=axis, period=period), exact=False)
    _same(lnp.unwrap(lnp.asarray(p), discont=1.0, period=period),
          np.unwrap(p, discont=1.0, period=period), exact=False)


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("m", [0, 1, 2, 7, 16])
def test_windows_are_numpys(name, m):
    got = _no_sync(lambda: getattr(lnp, name)(m))
    assert isinstance(got, lnp.ndarray)
    _same(got, getattr(np, name)(m))
    _same(_no_sync(lambda: lnp.kaiser(m, 4.5)), np.kaiser(m, 4.5))


@pytest.mark.parametrize("n,k,m", [(4, 0, None), (4, 1, 6), (5, -2, 3), (0, 0, None)])
def test_triangle_indices(n, k, m):
    for name in ("tril_indices", "triu_indices"):
        got = _no_sync(lambda: getattr(lnp, name)(n, k, m))
        for g, w in zip(got, getattr(np, name)(n, k, m)):
            _same(g, w)
    a = np.zeros((n, m if m is not None else n))
    for name in ("tril_indices_from", "triu_indices_from"):
        for g, w in zip(getattr(lnp, name)(lnp.asarray(a), k), getattr(np, name)(a, k)):
            _same(g, w)
    with pytest.raises(ValueError):
        lnp.tril_indices_from(lnp.zeros(3))


def test_mask_indices_and_ix():
    for g, w in zip(_no_sync(lambda: lnp.mask_indices(4, lnp.triu, 1)), np.mask_indices(4, np.triu, 1)):
        _same(g, w)
    rows, mask = np.array([0, 2]), np.array([True, False, True, True])
    got = _no_sync(lambda: lnp.ix_(lnp.asarray(rows), lnp.asarray(mask), [1, 0]))
    for g, w in zip(got, np.ix_(rows, mask, [1, 0])):
        _same(g, w)
    x = np.arange(60).reshape(3, 4, 5)
    _same(lnp.asarray(x)[lnp.ix_(lnp.asarray(rows), lnp.asarray(mask), [1, 0])],
          x[np.ix_(rows, mask, [1, 0])])
    with pytest.raises(ValueError):
        lnp.ix_(lnp.zeros((2, 2)))
