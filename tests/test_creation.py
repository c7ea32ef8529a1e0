"""Differential tests of lazynum.creation against NumPy: array conversion, filled arrays,
ranges (arange/linspace/logspace/geomspace), matrices (eye/tri/tril/triu/diag), grids
(meshgrid/indices/fromfunction); dtypes, shapes, values and error types."""
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import lazynum as lnp

from . import strategies as S
from .test_ufuncs import check_against_numpy


def _lazy_is_traced(result):
    for r in result if isinstance(result, tuple) else (result,):
        assert isinstance(r, lnp.ndarray)


# -- conversion and filled arrays ----------------------------------------------------------

@given(pair=S.lazy_views(S.arrays(S.every_dtype, small=True)), dtype=st.one_of(st.none(), S.every_dtype))
@settings(max_examples=40)
def test_array_and_asarray_match_numpy(pair, dtype):
    # small values: float -> int casts of out-of-range values are undefined (see test_dtypes)
    base, lazy = pair
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = np.array(base, dtype=dtype)
        S.assert_same(lnp.array(base, dtype=dtype), expected, rtol=0.0)
        S.assert_same(lnp.array(lazy, dtype=dtype), expected, rtol=0.0)
        S.assert_same(lnp.asarray(lazy, dtype=dtype), expected, rtol=0.0)
    check_against_numpy(lambda: lnp.asarray(base.tolist(), dtype=dtype),
                        lambda: np.asarray(base.tolist(), dtype=dtype))
    assert lnp.asarray(lazy) is lazy
    assert lnp.asarray(lazy, dtype=lazy.dtype) is lazy
    assert lnp.array(lazy) is not lazy
    S.assert_same(lnp.array(lazy, ndmin=5), np.array(base, ndmin=5))


def test_numpy_input_is_snapshotted_and_copies_do_not_alias():
    x = np.arange(4.0)
    a = lnp.asarray(x)
    x[0] = 100.0
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]
    b = lnp.array(a)
    c = lnp.copy(a)
    b[1] = -1.0
    c[2] = -2.0
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(ValueError, match="copy"):
        lnp.asarray(a, dtype=np.int32, copy=False)


def test_ascontiguousarray_is_at_least_1d_and_contiguous():
    a = lnp.asarray(np.arange(12.0).reshape(3, 4)).T
    assert a.flags["C_CONTIGUOUS"] is False
    c = lnp.ascontiguousarray(a)
    assert c.flags["C_CONTIGUOUS"] is True
    S.assert_same(c, np.ascontiguousarray(np.arange(12.0).reshape(3, 4).T))
    S.assert_same(lnp.ascontiguousarray(3.5), np.ascontiguousarray(3.5))
    b = lnp.asarray(np.arange(3))
    assert lnp.ascontiguousarray(b) is b


@given(shape=S.shapes(), dtype=st.one_of(st.none(), S.every_dtype),
       fill=st.one_of(st.booleans(), st.integers(-5, 5), st.floats(-10, 10)))
@settings(max_examples=40)
def test_filled_arrays_match_numpy(shape, dtype, fill):
    for name in ("zeros", "ones", "empty"):
        got = getattr(lnp, name)(shape, dtype)
        expected = getattr(np, name)(shape, dtype)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        if name != "empty":
            S.assert_same(got, expected)
    check_against_numpy(lambda: lnp.full(shape, fill, dtype), lambda: np.full(shape, fill, dtype))
    proto = np.ones(shape, np.int16)
    for name in ("zeros_like", "ones_like", "empty_like"):
        got = getattr(lnp, name)(lnp.asarray(proto), dtype=dtype)
        expected = getattr(np, name)(proto, dtype=dtype)
        assert got.dtype == expected.dtype and got.shape == expected.shape
    check_against_numpy(lambda: lnp.full_like(lnp.asarray(proto), fill, dtype=dtype),
                        lambda: np.full_like(proto, fill, dtype=dtype))
    S.assert_same(lnp.zeros_like(proto, shape=(2, 1)), np.zeros_like(proto, shape=(2, 1)))


def test_filled_array_errors_match_numpy():
    for fn in (lambda m: m.zeros((2, -1)), lambda m: m.ones(-3), lambda m: m.full((-1,), 2.0),
               lambda m: m.zeros(2.5), lambda m: m.zeros((2,), dtype="nonsense"),
               lambda m: m.full(3, 300, dtype=np.int8), lambda m: m.empty((1, None))):
        check_against_numpy(lambda: fn(lnp), lambda: fn(np))
    S.assert_same(lnp.full((2, 3), [1, 2, 3]), np.full((2, 3), [1, 2, 3]))
    S.assert_same(lnp.full(3, lnp.asarray(2.5)), np.full(3, 2.5))


# -- arange --------------------------------------------------------------------------------

range_scalars = st.one_of(
    st.integers(-50, 50), st.floats(-50, 50, allow_subnormal=False),
    st.sampled_from([0.1, 0.37, -0.5, 1e-3, np.int8(3), np.uint8(7), np.float32(0.25),
                     np.int64(-4), np.uint64(5), np.float64(2.5), True, 2**62]))


@given(start=range_scalars, stop=st.one_of(st.none(), range_scalars),
       step=st.one_of(st.none(), range_scalars), dtype=st.one_of(st.none(), S.every_dtype))
@settings(max_examples=200)
def test_arange_matches_numpy(start, stop, step, dtype):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:      # NumPy's own length arithmetic (uint64 scalars wrap): no huge arrays
            span = (start if stop is None else stop - start) / (1 if step is None else step)
            assume(abs(float(span)) < 10_000)
        except (ZeroDivisionError, OverflowError):
            pass
    args = (start,) if stop is None and step is None else (start, stop, step)
    check_against_numpy(lambda: lnp.arange(*args, dtype=dtype), lambda: np.arange(*args, dtype=dtype))


@pytest.mark.parametrize("args, kwargs", [
    ((5,), {}), ((1, 10, 3), {}), ((10, 0, -3), {}), ((0.1, 1, 0.1), {}),
    ((0.1, 100, 0.37), {"dtype": np.float32}), ((0, 200), {"dtype": np.int8}),
    ((-3, 3), {"dtype": np.uint8}), ((5, 0, -1), {"dtype": np.uint8}), ((2,), {"dtype": bool}),
    ((3,), {"dtype": bool}), ((0, 5, 0), {}), ((0, 5, 0.0), {}), ((np.uint64(3),), {}),
    ((0.5, 5), {"dtype": int}), ((1e30,), {}), ((float("nan"),), {}), ((float("inf"),), {}),
    ((1, 2), {}), ((0, 1e-300, 1e-301), {}), ((2**62, 2**62 + 5), {}), ((2**63, 2**63 + 3), {}),
    ((np.int8(3), np.int8(10)), {}), ((0, 10, 3), {"dtype": "f4"}), ((5, 1), {}),
    ((0, 5, 1.5), {"dtype": np.int8}),
])
def test_arange_edge_cases_match_numpy(args, kwargs):
    check_against_numpy(lambda: lnp.arange(*args, **kwargs), lambda: np.arange(*args, **kwargs))


def test_arange_keywords_and_lazy_bounds():
    S.assert_same(lnp.arange(stop=4), np.arange(stop=4))
    S.assert_same(lnp.arange(start=2, stop=5), np.arange(start=2, stop=5))
    with pytest.raises(TypeError, match="stop"):
        lnp.arange()
    with pytest.raises(TypeError):
        lnp.arange(lnp.asarray([3, 4]))
    n = lnp.asarray(np.int64(5))
    lnp.reset_metrics()
    S.assert_same(lnp.arange(n), np.arange(5))
    assert lnp.metrics()["syncs"] >= 1          # the length needs the value
    lnp.reset_metrics()
    a = lnp.arange(1000, dtype=np.float32)
    assert lnp.metrics()["syncs"] == 0 and a.shape == (1000,)


# -- linspace / logspace / geomspace -------------------------------------------------------------

bound_values = st.one_of(st.integers(-100, 100), st.floats(-1e3, 1e3),
                         st.sampled_from([np.float32(1.5), np.int8(-3), 1e-320, 0.0]))


@st.composite
def bounds(draw):
    """A bound: a Python/NumPy scalar, a NumPy array or a lazynum array (and its NumPy twin)."""
    kind = draw(st.sampled_from(["scalar", "numpy", "lazy"]))
    if kind == "scalar":
        v = draw(bound_values)
        return v, v
    shape = draw(st.sampled_from([(), (2,), (2, 3)]))
    base, lazy = draw(S.lazy_views(S.arrays(S.every_numeric, st.just(shape), small=True)))
    return base, (base if kind == "numpy" else lazy)


@given(start=bounds(), stop=bounds(), num=st.integers(0, 9), endpoint=st.booleans(),
       retstep=st.booleans(), dtype=st.one_of(st.none(), S.every_numeric),
       axis=st.integers(-3, 2))
@settings(max_examples=120)
def test_linspace_matches_numpy(start, stop, num, endpoint, retstep, dtype, axis):
    kw = dict(num=num, endpoint=endpoint, retstep=retstep, dtype=dtype, axis=axis)
    result = check_against_numpy(lambda: lnp.linspace(start[1], stop[1], **kw),
                                 lambda: np.linspace(start[0], stop[0], **kw))
    if result is not None:
        assert isinstance(result[0], lnp.ndarray)


def test_linspace_edge_cases():
    for args, kw in [((0, 1), {}), ((0, 1, 1), {}), ((0, 1, 0), {}), ((0, 1e-320, 5), {}),
                     ((-5, 5, 7), {"dtype": np.int8}), ((np.float32(0), 1, 7), {}),
                     (([0, 1], [2, 5], 4), {"axis": -1}), ((0, 1, -1), {}), ((0, 1, 2.5), {}),
                     ((0, 1, 3), {"axis": 1})]:
        check_against_numpy(lambda: lnp.linspace(*args, **kw), lambda: np.linspace(*args, **kw))
    y, step = lnp.linspace(0, 1, 5, retstep=True)
    assert type(step) is np.float64 and step == 0.25     # host bounds: NumPy's own step
    y, step = lnp.linspace(lnp.asarray(0.0), 1, 5, retstep=True)
    assert isinstance(step, lnp.ndarray) and float(step) == 0.25


@given(start=bounds(), stop=bounds(), num=st.integers(0, 6), endpoint=st.booleans(),
       base=st.one_of(st.sampled_from([10.0, 2, 0.5, np.float32(3)]),
                      st.just(np.array([2.0, 10.0]))),
       dtype=st.one_of(st.none(), st.just(np.dtype(np.float32))))
@settings(max_examples=60)
def test_logspace_matches_numpy(start, stop, num, endpoint, base, dtype):
    kw = dict(num=num, endpoint=endpoint, base=base, dtype=dtype)
    check_against_numpy(lambda: lnp.logspace(start[1], stop[1], **kw),
                        lambda: np.logspace(start[0], stop[0], **kw))


@given(start=bounds(), stop=bounds(), num=st.integers(0, 6), endpoint=st.booleans(),
       dtype=st.one_of(st.none(), S.every_numeric), axis=st.integers(-2, 1))
@settings(max_examples=60)
def test_geomspace_matches_numpy(start, stop, num, endpoint, dtype, axis):
    kw = dict(num=num, endpoint=endpoint, dtype=dtype, axis=axis)
    # geomspace is 10 ** (log10(start) + t * log10(stop / start)): a last-bit difference of
    # the llvm backend's log10 is magnified by that exponent (up to ~700 between 1 and a
    # subnormal), as it would be between any two correctly rounded libms.
    check_against_numpy(lambda: lnp.geomspace(start[1], stop[1], **kw),
                        lambda: np.geomspace(start[0], stop[0], **kw), magnify=1000.0)


def test_geomspace_cannot_include_zero():
    with pytest.raises(ValueError, match="zero"):
        lnp.geomspace(0, 10)
    with pytest.raises(ValueError, match="zero"):
        lnp.geomspace(lnp.asarray([1.0, 0.0]), 10)
    S.assert_same(lnp.geomspace(-1, -1000, 4), np.geomspace(-1, -1000, 4))


# -- matrices --------------------------------------------------------------------------------

matrix_sizes = st.integers(0, 6)
offsets = st.one_of(st.integers(-7, 7), st.sampled_from([-100, 100]))


@given(n=matrix_sizes, m=st.one_of(st.none(), matrix_sizes), k=offsets,
       dtype=st.one_of(st.none(), S.every_dtype))
@settings(max_examples=60)
def test_eye_identity_tri_match_numpy(n, m, k, dtype):
    dt = float if dtype is None else dtype
    check_against_numpy(lambda: lnp.eye(n, m, k, dtype=dt), lambda: np.eye(n, m, k, dtype=dt))
    check_against_numpy(lambda: lnp.tri(n, m, k, dtype=dt), lambda: np.tri(n, m, k, dtype=dt))
    check_against_numpy(lambda: lnp.identity(n, dtype=dtype), lambda: np.identity(n, dtype=dtype))


def test_matrix_argument_errors_match_numpy():
    for fn in (lambda m: m.eye(-1), lambda m: m.eye(2.5), lambda m: m.eye(3, k=1.5),
               lambda m: m.tri(-1), lambda m: m.identity(-2), lambda m: m.tril(m.asarray(3)),
               lambda m: m.diag(m.ones((2, 2, 2))), lambda m: m.eye(3, dtype="not a dtype")):
        check_against_numpy(lambda: fn(lnp), lambda: fn(np))


@given(pair=S.lazy_views(S.arrays(S.every_dtype, S.shapes(min_dims=1, max_dims=4, max_side=4))),
       k=offsets)
@settings(max_examples=60)
def test_tril_triu_match_numpy(pair, k):
    base, lazy = pair
    check_against_numpy(lambda: lnp.tril(lazy, k), lambda: np.tril(base, k))
    check_against_numpy(lambda: lnp.triu(lazy, k), lambda: np.triu(base, k))


@given(pair=S.lazy_views(S.arrays(S.every_dtype, S.shapes(min_dims=1, max_dims=2, max_side=5))),
       k=st.integers(-6, 6))
@settings(max_examples=60)
def test_diag_and_diagflat_match_numpy(pair, k):
    base, lazy = pair
    check_against_numpy(lambda: lnp.diag(lazy, k), lambda: np.diag(base, k))
    check_against_numpy(lambda: lnp.diagflat(lazy, k), lambda: np.diagflat(base, k))
    if base.ndim == 2:
        assert lnp.diag(lazy, k).flags["WRITEABLE"] is False      # NumPy's read-only view


# -- grids ---------------------------------------------------------------------------------

@given(data=st.data(), count=st.integers(0, 4), indexing=st.sampled_from(["xy", "ij"]),
       sparse=st.booleans(), copy=st.booleans())
@settings(max_examples=60)
def test_meshgrid_matches_numpy(data, count, indexing, sparse, copy):
    pairs = [data.draw(S.lazy_views(S.arrays(S.every_dtype, S.shapes(max_dims=2, max_side=3))))
             for _ in range(count)]
    kw = dict(indexing=indexing, sparse=sparse, copy=copy)
    result = check_against_numpy(lambda: lnp.meshgrid(*[p[1] for p in pairs], **kw),
                                 lambda: np.meshgrid(*[p[0] for p in pairs], **kw))
    if result is not None:
        assert type(lnp.meshgrid(*[p[1] for p in pairs], **kw)) is type(
            np.meshgrid(*[p[0] for p in pairs], **kw))


def test_meshgrid_errors_and_views():
    with pytest.raises(ValueError, match="indexing"):
        lnp.meshgrid([1, 2], indexing="xyz")
    x = lnp.asarray(np.arange(3.0))
    (sx,) = lnp.meshgrid(x, sparse=True, copy=False)
    x[0] = 9.0                                # a sparse, uncopied grid is a view of its input
    assert sx.tolist() == [9.0, 1.0, 2.0]


@given(dims=st.lists(st.integers(0, 4), max_size=4),
       dtype=st.sampled_from([int, float, np.int8, np.uint16, np.float32]),
       sparse=st.booleans())
@settings(max_examples=40)
def test_indices_match_numpy(dims, dtype, sparse):
    check_against_numpy(lambda: lnp.indices(dims, dtype=dtype, sparse=sparse),
                        lambda: np.indices(dims, dtype=dtype, sparse=sparse))


def test_indices_bool_dtype_and_fromfunction():
    check_against_numpy(lambda: lnp.indices((3,), dtype=bool), lambda: np.indices((3,), dtype=bool))
    check_against_numpy(lambda: lnp.indices((2, 2), dtype=bool),
                        lambda: np.indices((2, 2), dtype=bool))
    for fn, shape, kw in [(lambda i, j: i * 10 + j, (3, 4), {}),
                          (lambda i, j: i == j, (3, 3), {"dtype": int}),
                          (lambda i: i ** 2, (5,), {"dtype": np.float32}),
                          (lambda i, j, k, scale: (i + j - k) * scale, (2, 3, 2), {"scale": 0.5})]:
        lnp.reset_metrics()
        result = lnp.fromfunction(fn, shape, **kw)
        assert lnp.metrics()["syncs"] == 0        # the function receives lazy index arrays
        S.assert_same(result, np.fromfunction(fn, shape, **kw))


def test_creation_never_syncs():
    lnp.reset_metrics()
    made = [lnp.arange(10), lnp.linspace(0, 1, 7), lnp.logspace(0, 3, 4), lnp.eye(4, k=1),
            lnp.identity(3), lnp.tri(3, 4), lnp.tril(lnp.ones((3, 3))), lnp.triu(lnp.ones((3, 3))),
            lnp.meshgrid(lnp.arange(3), lnp.arange(2))[0], lnp.indices((2, 3)),
            lnp.diag(lnp.arange(3.0), 1), lnp.diagflat(lnp.ones((2, 2))), lnp.zeros((3, 3)),
            lnp.full((2, 2), 7), lnp.linspace(lnp.zeros(2), 1, 3), lnp.geomspace(1, 100, 3)]
    _lazy_is_traced(tuple(made))
    assert lnp.metrics()["syncs"] == 0


def test_asarray_of_a_scalar_result_is_a_new_array_whose_views_alias_it():
    # fuzz seed 427467: np.asarray(a - 3) of a 0-d a stayed NumPy's (immutable) scalar, so
    # its .T was a copy and missed a later write; NumPy's asarray makes a new 0-d array
    x = np.array(0, dtype=np.uint16)
    lazy = lnp.asarray(x)
    scalar = lazy - 3
    made, want = lnp.asarray(scalar), np.asarray(x - 3)
    views, numpy_views = made.T, want.T
    made[None] = 5
    want[None] = 5
    assert type(made) is lnp.ndarray
    for got, expected in ((views, numpy_views), (scalar, x - 3), (lnp.asarray(scalar, dtype=np.float32),
                                                                   np.asarray(x - 3, dtype=np.float32))):
        assert np.asarray(got).dtype == np.asarray(expected).dtype
        np.testing.assert_array_equal(np.asarray(got), expected)
    with pytest.raises(ValueError):
        lnp.asarray(scalar, copy=False)


def test_astype_of_a_scalar_result_is_a_scalar_result():
    # fuzz seed 434207: float() of (a - a).astype(complex64) for a 0-d a raised TypeError (a
    # 0-d array's rule); NumPy's scalar astype is a scalar, whose float() is its real part
    x = np.array(3, dtype=np.int8)
    lazy = lnp.asarray(x)
    converted, want = (lazy - lazy).astype(np.complex64), (x - x).astype(np.complex64)
    with pytest.warns(np.exceptions.ComplexWarning):
        assert float(converted) == float(want) == 0.0
    total = lnp.asarray(np.arange(3)).sum().astype(np.float32)
    kept = total
    total += 1                              # a scalar rebinds: kept keeps its value
    assert float(kept) == 3.0 and float(total) == 4.0
    assert type(lazy.astype(np.float32)) is lnp.ndarray      # a 0-d array stays an array


def test_array_of_a_lazy_scalar_is_a_0d_array_whose_views_alias_it():
    # tiers fuzz seed 713773: np.array(x > 4) of a 0-d x is NumPy's 0-d array (x > 4 is a
    # NumPy scalar); lazynum kept the scalar kind, whose views are detached copies
    def program(m, x):
        a = m.array(x > 4)
        m.squeeze(a)[...] = True
        b = m.array(x * 2, dtype=np.float32)
        b.reshape(1)[0] = 7
        return a, b
    for got, want in zip(program(lnp, lnp.asarray(np.array(0))), program(np, np.array(0))):
        S.assert_same(got, want)
