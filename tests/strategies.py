"""The hypothesis strategies every differential test draws from (one shared module).

Shapes include 0-d, size-0, size-1 and broadcastable pairs; dtypes cover every dtype
lazynum supports; arrays may be non-contiguous views (``strided`` gives the same values
through a transposed/sliced window of a larger lazy array).
"""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st  # noqa: F401  (re-exported as S.st)
from hypothesis.extra import numpy as hnp

import lazynum as lnp

BOOL = [np.dtype(np.bool_)]
SIGNED = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64)]
UNSIGNED = [np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)]
INTEGER = SIGNED + UNSIGNED
FLOAT = [np.dtype(np.float32), np.dtype(np.float64)]
NUMERIC = INTEGER + FLOAT
ALL = BOOL + NUMERIC

dtypes = st.sampled_from(ALL)
numeric_dtypes = st.sampled_from(NUMERIC)
float_dtypes = st.sampled_from(FLOAT)
int_dtypes = st.sampled_from(INTEGER)


def shapes(min_dims=0, max_dims=4, min_side=0, max_side=5):
    """Array shapes, including 0-d and size-0/size-1 dims."""
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


def broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=5):
    """Tuples of shapes that broadcast together (NumPy's rules)."""
    return hnp.mutually_broadcastable_shapes(num_shapes=num_shapes, min_dims=min_dims,
                                             max_dims=max_dims, max_side=max_side).map(
                                                 lambda bs: bs.input_shapes)


def _elements(dtype, finite=True, small=False):
    if dtype.kind == "f":
        bound = 1e3 if small else None
        return st.floats(min_value=-bound if bound else None, max_value=bound,
                         allow_nan=not finite, allow_infinity=not finite, width=dtype.itemsize * 8)
    if dtype.kind in "iu" and small:
        info = np.iinfo(dtype)
        return st.integers(max(info.min, -100), min(info.max, 100))
    return None


def arrays(dtype=dtypes, shape=None, finite=True, small=False):
    """NumPy arrays of a drawn dtype and shape (finite floats by default)."""
    shape = shapes() if shape is None else shape
    if isinstance(dtype, np.dtype):
        dtype = st.just(dtype)
    return dtype.flatmap(lambda dt: hnp.arrays(dt, shape, elements=_elements(dt, finite, small)))


@st.composite
def lazy_views(draw, array_strategy=None):
    """(numpy array, lazynum array with the same values), the latter sometimes a
    non-contiguous window (transpose of a transposed copy, or a strided slice)."""
    base = draw(array_strategy if array_strategy is not None else arrays())
    how = draw(st.sampled_from(["plain", "transposed", "strided"]))
    if how == "transposed" and base.ndim >= 2:
        lazy = lnp.asarray(np.ascontiguousarray(base.T)).T
    elif how == "strided" and base.ndim >= 1:
        padded = np.repeat(base, 2, axis=-1)
        lazy = lnp.asarray(padded)[..., ::2]
    else:
        lazy = lnp.asarray(base)
    return base, lazy


def axes_for(ndim, allow_none=True, allow_tuple=True):
    """Valid ``axis`` arguments for an array of ``ndim`` dims, negative ones included."""
    options = []
    if allow_none:
        options.append(st.none())
    if ndim:
        options.append(st.integers(-ndim, ndim - 1))
        if allow_tuple:
            options.append(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim).flatmap(
                lambda axes: st.tuples(*[st.sampled_from([a, a - ndim]) for a in axes])))
    return st.one_of(options) if options else st.none()


def assert_same(result, expected, rtol=None, atol=0.0):
    """``result`` (lazynum or NumPy) equals NumPy's ``expected``: dtype, shape, values."""
    got = np.asarray(result)
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype, f"dtype {got.dtype} != numpy's {expected.dtype}"
    assert got.shape == expected.shape, f"shape {got.shape} != numpy's {expected.shape}"
    if expected.dtype.kind == "f":
        if rtol is None:
            rtol = 1e-5 if expected.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)


def public_type(exc):
    """The exception type users can name: NumPy's private subclasses (``_UFuncNoLoopError``,
    ...) map to their first builtin or ``numpy.exceptions`` base."""
    return next(t for t in type(exc).__mro__ if t.__module__ in ("builtins", "numpy.exceptions"))


def same_error(fn_lazy, fn_numpy):
    """Both raise, with the same exception type (or both succeed): returns the results."""
    try:
        expected = fn_numpy()
    except Exception as exc:  # noqa: BLE001 - we compare the type with lazynum's
        import pytest
        with pytest.raises(public_type(exc)):
            result = fn_lazy()
            np.asarray(result)
        return None, None
    return fn_lazy(), expected


# --- symbolic sizes and replay (issue 3) -----------------------------------------------------

SIZE_OPS = ("add", "sub", "mul", "floordiv", "mod")


@st.composite
def size_exprs(draw, n_symbols=3, depth=3):
    """A canonical size expression over ``$s0..`` (what shape functions compile)."""
    if depth == 0 or draw(st.booleans()):
        if draw(st.booleans()):
            return ("$s", draw(st.integers(0, n_symbols - 1)))
        return draw(st.integers(-5, 9))
    name = draw(st.sampled_from(SIZE_OPS))
    a = draw(size_exprs(n_symbols, depth - 1))
    if name in ("floordiv", "mod"):   # divisors stay positive, as sizes and strides are
        return (name, a, draw(st.one_of(st.integers(1, 7), st.just(("$s", 0)))))
    return (name, a, draw(size_exprs(n_symbols, depth - 1)))


def distinct_sizes(count, lo=12, hi=24):
    """``count`` sizes, pairwise different (duck sizing must not merge them)."""
    return st.lists(st.integers(lo, hi), min_size=count, max_size=count, unique=True)
