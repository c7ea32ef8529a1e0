"""The hypothesis strategies every differential test draws from (one shared module).

Shapes include 0-d, size-0, size-1 and broadcastable pairs; dtypes cover every dtype
lazynum supports (``every_dtype``: float16 and complex too); arrays may be non-contiguous views (``strided`` gives the same values
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
FLOAT16 = [np.dtype(np.float16)]
COMPLEX = [np.dtype(np.complex64), np.dtype(np.complex128)]
NUMERIC = INTEGER + FLOAT
ALL = BOOL + NUMERIC
# float16 and complex: differential tests of NumPy semantics draw them (``every_dtype``);
# tests of kernels, combines and bounded machinery keep to ``ALL``.
WIDE = FLOAT16 + COMPLEX
EVERY = ALL + WIDE

dtypes = st.sampled_from(ALL)
every_dtype = st.sampled_from(EVERY)
every_numeric = st.sampled_from(NUMERIC + WIDE)
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
    if dtype.kind == "c":
        return st.complex_numbers(max_magnitude=1e3 if small else None, allow_nan=not finite,
                                  allow_infinity=not finite, width=dtype.itemsize * 8)
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
    if expected.dtype.kind in "fc":
        if rtol is None:
            rtol = {2: 1e-3, 4: 1e-5}.get(np.finfo(expected.dtype).dtype.itemsize, 1e-12)
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


# --- gradients (issue 6) ---------------------------------------------------------------------

def rngs():
    """NumPy generators from a drawn seed: smooth random values that stay off kinks and
    ties (hypothesis shrinks the seed, and the ci profile keeps the draws deterministic)."""
    return st.integers(0, 2**32 - 1).map(np.random.default_rng)


def uniform(rng, shape, low=-2.0, high=2.0):
    """float64 values in ``[low, high)`` of ``shape`` (0-d included)."""
    return np.asarray(rng.uniform(low, high, size=shape), dtype=np.float64)


def grad_shapes(max_dims=3, max_side=4):
    """Shapes for gradient checks: 0-d, size-1 dims, no size-0 (finite differences of an
    empty array say nothing)."""
    return shapes(min_dims=0, max_dims=max_dims, min_side=1, max_side=max_side)


def grad_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4):
    """Broadcastable shape tuples for gradient checks (size-1 dims, no size 0)."""
    return hnp.mutually_broadcastable_shapes(num_shapes=num_shapes, min_dims=0, max_dims=max_dims,
                                             min_side=1, max_side=max_side).map(
                                                 lambda bs: bs.input_shapes)


# --- random fused graphs (issue 4: compiled backends) ----------------------------------------

FUSED_UNARY = ("negative", "absolute", "exp", "tanh", "sin", "sqrt_abs", "square", "floor")
FUSED_BINARY = ("add", "subtract", "multiply", "maximum", "minimum", "where_gt")
FUSED_VIEWS = ("transpose", "reverse", "slice_step", "broadcast_row")
FUSED_REDUCTIONS = ("sum", "max", "mean", "center")


@st.composite
def fused_programs(draw, max_steps=6):
    """(float array, list of steps) for ``apply_fused_program``: random chains of pointwise
    ops, broadcasts, views and reductions that a compiled backend fuses."""
    shape = draw(hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=6))
    dtype = draw(float_dtypes)
    data = draw(hnp.arrays(dtype, shape, elements=st.floats(-3, 3, width=dtype.itemsize * 8)))
    kinds = st.sampled_from(["unary", "binary", "view", "reduce"])
    steps = []
    for _ in range(draw(st.integers(1, max_steps))):
        kind = draw(kinds)
        pool = {"unary": FUSED_UNARY, "binary": FUSED_BINARY, "view": FUSED_VIEWS,
                "reduce": FUSED_REDUCTIONS}[kind]
        steps.append((draw(st.sampled_from(pool)), draw(st.floats(-2, 2, width=32))))
    return data, steps


def apply_fused_program(m, x, steps):
    """Run ``steps`` (from ``fused_programs``) with module ``m`` (numpy or lazynum)."""
    for name, k in steps:
        if x.ndim < 2:
            x = x.reshape(1, -1) if x.ndim == 1 else x.reshape(1, 1)
        x = _FUSED_STEPS[name](m, x, k)
    return x * 1.0


_FUSED_STEPS = {
    "negative": lambda m, x, k: -x, "absolute": lambda m, x, k: m.abs(x),
    "exp": lambda m, x, k: m.exp(m.minimum(x, 5.0)), "tanh": lambda m, x, k: m.tanh(x),
    "sin": lambda m, x, k: m.sin(x), "sqrt_abs": lambda m, x, k: m.sqrt(m.abs(x)),
    "square": lambda m, x, k: x * x, "floor": lambda m, x, k: m.floor(x * 3),
    "add": lambda m, x, k: x + k, "subtract": lambda m, x, k: k - x,
    "multiply": lambda m, x, k: x * k, "maximum": lambda m, x, k: m.maximum(x, k),
    "minimum": lambda m, x, k: m.minimum(x, x.T.T * k),
    "where_gt": lambda m, x, k: m.where(x > k, x, -x),
    "transpose": lambda m, x, k: x.T, "reverse": lambda m, x, k: x[::-1],
    "slice_step": lambda m, x, k: x[:, ::2], "broadcast_row": lambda m, x, k: x + x[:1],
    "sum": lambda m, x, k: x.sum(axis=-1, keepdims=True) + x,
    "max": lambda m, x, k: x.max(axis=0),
    "mean": lambda m, x, k: x.mean(axis=1, keepdims=True) * x,
    "center": lambda m, x, k: x - x.mean(axis=-1, keepdims=True),
}


# --- masked selections (issue 5): chains of elementwise ops and masks on x[x > t] ------------

SELECTION_STEPS = ("scale", "abs", "square", "float32", "mask", "combine", "maximum", "negative")
SELECTION_REDUCTIONS = ("sum", "mean", "var", "std", "max", "min", "prod", "any", "all")


@st.composite
def selection_programs(draw, max_steps=5):
    """(data, threshold, steps, final reduction, axis) for ``apply_selection_program``:
    a selection ``x[mask]`` (1-d or row-wise on 2-d data) transformed by random steps."""
    shape = draw(st.one_of(shapes(min_dims=1, max_dims=1, max_side=7),
                           st.tuples(st.integers(0, 7), st.integers(1, 4))))
    data = draw(arrays(st.just(np.dtype(np.float64)), st.just(shape), small=True))
    threshold = draw(st.floats(-50, 50))
    steps = draw(st.lists(st.tuples(st.sampled_from(SELECTION_STEPS), st.floats(-20, 20)),
                          max_size=max_steps))
    name = draw(st.sampled_from(SELECTION_REDUCTIONS))
    axis = draw(st.sampled_from([None, 0] + ([1] if data.ndim == 2 else [])))
    return data, threshold, steps, name, axis


def apply_selection_program(m, x, threshold, steps):
    """The selection after ``steps`` (``m`` is numpy or lazynum, ``x`` an array of it)."""
    y = x[x > threshold] if x.ndim == 1 else x[x[:, 0] > threshold]
    for kind, value in steps:
        if kind == "scale":
            y = y * value + 1.0
        elif kind == "abs":
            y = m.abs(y)
        elif kind == "square":
            y = m.square(y)
        elif kind == "float32":
            y = y.astype(np.float32)
        elif kind == "mask" and y.ndim == 1:
            y = y[y > value]
        elif kind == "combine":
            y = y + y * 0.5
        elif kind == "maximum":
            y = m.maximum(y, value)
        elif kind == "negative":
            y = -y
    return y


# --- dtypes with no lazy form: NumPy-backed arrays (issue 15 item 2) --------------------------

STRUCTURED = np.dtype([("a", "i4"), ("b", "f8")])
EXOTIC = [np.dtype("datetime64[D]"), np.dtype("timedelta64[s]"), np.dtype("U4"),
          np.dtype("S3"), np.dtype(object), np.dtype(np.longdouble), STRUCTURED,
          np.dtypes.StringDType()]
exotic_dtypes = st.sampled_from(EXOTIC)
_WORDS = st.text("abcAB z", max_size=4)


def _exotic_elements(dtype):
    if dtype.kind in "Mm":
        return st.integers(-20000, 20000).map(lambda v: np.array(v).astype(dtype)[()])
    if dtype.kind == "U" or dtype.kind == "T":
        return _WORDS
    if dtype.kind == "S":
        return _WORDS.map(lambda s: s.strip().encode()[:3])
    if dtype.kind == "O":
        return st.integers(-2**70, 2**70)
    if dtype.kind == "f":
        return st.floats(-1e6, 1e6)
    return st.tuples(st.integers(-100, 100), st.floats(-1e3, 1e3))      # STRUCTURED


@st.composite
def exotic_arrays(draw, dtype=exotic_dtypes, shape=None):
    """NumPy arrays of a dtype lazynum keeps NumPy-backed (``EXOTIC``), 0-d to 3-d."""
    dt = draw(dtype) if not isinstance(dtype, np.dtype) else dtype
    shape = draw(shapes(max_dims=3, max_side=4) if shape is None else shape)
    values = draw(st.lists(_exotic_elements(dt), min_size=int(np.prod(shape)),
                           max_size=int(np.prod(shape))))
    stored = np.dtype("U4") if dt.kind == "T" else dt
    array = np.empty(len(values), dtype=stored)
    for i, value in enumerate(values):
        array[i] = value
    return array.reshape(shape).astype(dt)


# --- polynomials, bits and least squares (issue 16 item 3) -----------------------------------

def polynomial_coefficients(min_size=1, max_size=6):
    """1-d coefficient arrays (highest power first) of small integers or floats, leading
    zeros included (NumPy keeps them)."""
    return st.sampled_from([np.dtype(np.int64), np.dtype(np.float64), np.dtype(np.float32)]).flatmap(
        lambda dt: hnp.arrays(dt, st.integers(min_size, max_size), elements=_elements(dt, small=True)))


def bit_arrays(dtype=None):
    """Integer or boolean arrays of 0-3 dims whose values are mostly 0 and 1 (what bits
    are packed from), any integer values included."""
    dtype = st.sampled_from(BOOL + INTEGER) if dtype is None else st.just(np.dtype(dtype))
    return dtype.flatmap(lambda dt: hnp.arrays(dt, shapes(0, 3, 0, 11), elements=(
        st.booleans() if dt.kind == "b" else st.integers(0, 1) | st.integers(0, 100))))


def least_squares_problems():
    """(m, n, k or None, rank-deficient?) for ``lstsq``: tall, square and wide systems."""
    return st.tuples(st.integers(1, 7), st.integers(1, 5), st.none() | st.integers(1, 3),
                     st.booleans())


# --- slices with lazy bounds are views (issue 11) ----------------------------------------------

SLICE_SOURCES = ("array", "selection", "trim_zeros", "trim_selection")
SLICE_WRITES = ("fill", "iadd", "ellipsis", "sort", "mask", "none")
BASE_WRITES = ("mask", "iadd", "fill", "none")


@st.composite
def lazy_slice_programs(draw):
    """(data, program) for ``apply_lazy_slice_program``: a slice with 0-d integer array
    bounds (negative, past the end, or None) of an array, of a selection of it, or
    ``trim_zeros`` of it, then a write through the slice and a write through its base
    (each a form bounded arrays write lazily: no sync before the result is read)."""
    shape = draw(st.one_of(st.tuples(st.integers(0, 7)),
                           st.tuples(st.integers(0, 5), st.integers(1, 3))))
    data = draw(arrays(st.just(np.dtype(np.float64)), st.just(shape), small=True)).round()
    data = np.where(draw(hnp.arrays(np.bool_, shape)), 0.0, data)    # runs of zeros to trim
    n = shape[0]
    bound = st.one_of(st.none(), st.integers(-n - 2, n + 2))
    return data, {
        "source": draw(st.sampled_from(SLICE_SOURCES)), "start": draw(bound),
        "stop": draw(bound), "trim": draw(st.sampled_from(["fb", "f", "b"])),
        "write": draw(st.sampled_from(SLICE_WRITES)), "base_write": draw(st.sampled_from(BASE_WRITES)),
        "axis": draw(st.sampled_from([0, -1])), "value": draw(st.integers(-9, 9))}


def _lazy_bound(m, k):
    """``k`` as a lazy 0-d int64 (lazynum: a pending node; NumPy: its int64 scalar)."""
    return None if k is None else m.asarray(np.array(k, np.int64)) * 1


def _positive_rows(a):
    """A row mask (1-d: bounded arrays write through 1-d masks lazily)."""
    return a > 0 if a.ndim == 1 else a[:, 0] > 0


def apply_lazy_slice_program(m, x, p):
    """``{name: array}`` after the program (``m`` is numpy or lazynum, ``x`` an array of it)."""
    selection = p["source"] in ("selection", "trim_selection")
    base = (x[x[:, 0] != 1] if x.ndim == 2 else x[x != 1]) if selection else x
    if p["source"].startswith("trim"):
        view = m.trim_zeros(base, p["trim"], axis=p["axis"] if x.ndim == 2 else None)
    else:
        view = base[_lazy_bound(m, p["start"]):_lazy_bound(m, p["stop"])]
    value = p["value"]
    if p["write"] == "fill":
        view.fill(value)
    elif p["write"] == "iadd":
        view += value
    elif p["write"] == "ellipsis":
        view[...] = value
    elif p["write"] == "sort":
        view.sort(axis=0)
    elif p["write"] == "mask" and not (x.ndim == 2 and p["source"].startswith("trim")
                                       and p["axis"] == -1):    # (a row mask along axis 0)
        view[_positive_rows(view)] = value
    if p["base_write"] == "mask":
        base[_positive_rows(base)] = value * 2
    elif p["base_write"] == "iadd":
        base += 1
    elif p["base_write"] == "fill":
        base.fill(value - 1)
    return {"x": x, "base": base, "view": view}


# The size limit the immediate tier's tests run it with (the ``immediate_tier`` fixture):
# small enough that "over the limit" is a cheap array.
IMMEDIATE_LIMIT = 64


def computed(x) -> bool:
    """Whether lazynum array ``x``'s value is computed (a realized node)."""
    return x._n().buffer is not None
