"""select, isin, unravel_index, ravel_multi_index (frontend/selecting.py) and trapezoid,
ediff1d, polyval, vander, cross (frontend/series.py): NumPy's values, dtypes and shapes
with no sync and no fallback; NumPy's error types at the call or, for what the data
decides, at the sync."""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp
from .strategies import rngs, st

NUMERIC = ["f8", "f4", "i8", "i4", "u1", "?"]


def _same(got, expected):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got.dtype, expected.dtype,
                                                                        got.shape, expected.shape)
    np.testing.assert_array_equal(got, expected)


def _array(rng, shape, dtype):
    x = rng.standard_normal(shape) * 3
    return (x > 0) if dtype == "?" else np.round(x).astype(dtype) if dtype[0] in "iu" else x.astype(dtype)


def _no_sync(fn):
    lnp.reset_metrics()
    result = fn()
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    return result


@given(n=st.integers(0, 8), dtypes=st.lists(st.sampled_from(NUMERIC), min_size=1, max_size=3),
       default=st.sampled_from([0, 1.5, -2, "array"]), rng=rngs())
def test_select_takes_the_first_true_condition_in_numpys_dtype(n, dtypes, default, rng):
    x = rng.standard_normal(n)
    conds = [x > t for t in (1.0, 0.0, -1.0)[:len(dtypes)]]
    choices = [_array(rng, (n,), d) for d in dtypes]
    fill = np.full(n, 7, np.int16) if default == "array" else default
    expected = np.select(conds, choices, fill)
    got = _no_sync(lambda: lnp.select([lnp.asarray(c) for c in conds],
                                      [lnp.asarray(c) for c in choices],
                                      lnp.asarray(fill) if default == "array" else fill))
    _same(got, expected)


def test_select_errors():
    x = lnp.asarray(np.arange(3.0))
    with pytest.raises(ValueError):
        lnp.select([x > 1], [x, x])
    with pytest.raises(ValueError):
        lnp.select([], [])
    with pytest.raises(TypeError):
        lnp.select([x], [x])                # a condition that is not boolean


@given(n=st.integers(0, 10), m=st.integers(0, 6), dtype=st.sampled_from(["f8", "i8", "f4"]),
       invert=st.booleans(), rng=rngs())
def test_isin_matches_numpy(n, m, dtype, invert, rng):
    element = _array(rng, (n, 2), dtype)
    tests = _array(rng, (m,), "f8" if dtype == "i8" else dtype)
    if dtype[0] == "f" and n:
        element[0, 0] = np.nan
        tests = np.append(tests, np.nan)        # NaN is never found, as in NumPy
    expected = np.isin(element, tests, invert=invert)
    _same(_no_sync(lambda: lnp.isin(lnp.asarray(element), lnp.asarray(tests), invert=invert)), expected)


@given(shape=st.sampled_from([(6,), (2, 3), (4, 1, 5)]), order=st.sampled_from(["C", "F"]),
       rng=rngs())
def test_index_conversions_round_trip_as_in_numpy(shape, order, rng):
    size = int(np.prod(shape))
    flat = rng.integers(0, size, 7)
    expected = np.unravel_index(flat, shape, order=order)
    got = _no_sync(lambda: lnp.unravel_index(lnp.asarray(flat), shape, order=order))
    for g, e in zip(got, expected):
        _same(g, e)
    _same(lnp.ravel_multi_index(tuple(lnp.asarray(e) for e in expected), shape, order=order),
          np.ravel_multi_index(expected, shape, order=order))
    wild = tuple(np.asarray(e) + d for e, d in zip(expected, shape))
    for mode in ("wrap", "clip"):
        _same(lnp.ravel_multi_index(tuple(lnp.asarray(w) for w in wild), shape, mode=mode),
              np.ravel_multi_index(wild, shape, mode=mode))


def test_index_conversions_raise_at_the_sync_for_bad_data():
    with pytest.raises(ValueError):
        np.unravel_index(np.array([7]), (2, 3))
    bad = lnp.unravel_index(lnp.asarray([1, 7]), (2, 3))[0]
    with pytest.raises(ValueError, match="out of bounds"):
        np.asarray(bad)
    bad = lnp.ravel_multi_index((lnp.asarray([4]), lnp.asarray([0])), (4, 3))
    with pytest.raises(ValueError, match="invalid entry"):
        np.asarray(bad)
    with pytest.raises(TypeError):
        lnp.unravel_index(lnp.asarray([1.0]), (2, 3))


@given(shape=st.sampled_from([(5,), (3, 4), (2, 3, 4)]), axis=st.sampled_from([-1, 0]),
       spacing=st.sampled_from(["none", "dx", "x1d", "xnd"]), rng=rngs())
def test_trapezoid_matches_numpy(shape, axis, spacing, rng):
    y = rng.standard_normal(shape)
    kwargs = {"none": {}, "dx": {"dx": 0.25},
              "x1d": {"x": np.cumsum(rng.random(shape[axis]))},
              "xnd": {"x": np.cumsum(rng.random(shape), axis=axis)}}[spacing]
    expected = np.trapezoid(y, axis=axis, **kwargs)
    got = np.asarray(_no_sync(lambda: lnp.trapezoid(lnp.asarray(y), axis=axis, **{
        k: lnp.asarray(v) if k == "x" else v for k, v in kwargs.items()})))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    # (the final sum: a compiled reduction may add in another order than NumPy's pairwise)
    np.testing.assert_allclose(got, expected, rtol=1e-13, atol=1e-15)


def test_ediff1d_polyval_vander_and_cross_match_numpy():
    rng = np.random.default_rng(4)
    v, a, b = rng.standard_normal(6), rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
    ints = np.arange(5)
    cases = [
        (lambda m, v, a, b: m.ediff1d(a), None),
        (lambda m, v, a, b: m.ediff1d(v, to_begin=[-1, -2], to_end=7), None),
        (lambda m, v, a, b: m.polyval([1.5, -2, 3], v), None),
        (lambda m, v, a, b: m.polyval(m.asarray(ints[:3]), m.asarray(ints)), None),
        (lambda m, v, a, b: m.vander(v, 4), None),
        (lambda m, v, a, b: m.vander(m.asarray(ints), increasing=True), None),
        (lambda m, v, a, b: m.vander(v, 0), None),
        (lambda m, v, a, b: m.cross(a, b), None),
        (lambda m, v, a, b: m.cross(a.T, b.T, axis=0), None),
        (lambda m, v, a, b: m.cross(a, b[0]), None),
    ]
    for fn, _ in cases:
        expected = fn(np, v, a, b)
        _same(_no_sync(lambda: fn(lnp, lnp.asarray(v), lnp.asarray(a), lnp.asarray(b))), expected)
    with pytest.raises(TypeError):
        lnp.ediff1d(lnp.asarray(ints), to_begin=[0.5])      # float into int: NumPy refuses
    with pytest.raises(ValueError):
        lnp.vander(lnp.asarray(a))
    with pytest.raises(ValueError):
        lnp.cross(lnp.asarray(np.ones((2, 4))), lnp.asarray(np.ones((2, 4))))


@given(shape=st.sampled_from([(5,), (3, 6), (2, 3, 4)]), edge_order=st.sampled_from([1, 2]),
       spacing=st.sampled_from(["none", "scalar", "coordinates", "even coordinates"]),
       dtype=st.sampled_from(["f8", "f4", "i8"]), rng=rngs())
def test_gradient_matches_numpy_bit_for_bit(shape, edge_order, spacing, dtype, rng):
    f = _array(rng, shape, dtype)
    axis = len(shape) - 1
    spacings = {"none": (), "scalar": (0.25,),
                "coordinates": (np.cumsum(rng.random(shape[axis]) + 0.1),),
                "even coordinates": (np.arange(shape[axis]) * 3,)}[spacing]
    expected = np.gradient(f, *spacings, axis=axis, edge_order=edge_order)
    got = _no_sync(lambda: lnp.gradient(lnp.asarray(f), *spacings, axis=axis, edge_order=edge_order))
    _same(got, expected)
    if min(shape) <= edge_order:
        with pytest.raises(ValueError):
            np.gradient(f, edge_order=edge_order)
        with pytest.raises(ValueError):
            lnp.gradient(lnp.asarray(f), edge_order=edge_order)
        return
    every = np.gradient(f, edge_order=edge_order)
    got_every = lnp.gradient(lnp.asarray(f), edge_order=edge_order)
    for g, e in zip(got_every if isinstance(got_every, tuple) else (got_every,),
                    every if isinstance(every, tuple) else (every,)):
        _same(g, e)


def test_gradient_errors():
    f = lnp.asarray(np.arange(2.0))
    with pytest.raises(ValueError):
        lnp.gradient(f, edge_order=2)               # too short for second-order edges
    with pytest.raises(ValueError):
        lnp.gradient(f, edge_order=3)
    with pytest.raises(TypeError):
        lnp.gradient(lnp.asarray(np.ones((3, 3))), 1.0, 2.0, 3.0)
