"""Reductions, arg-reductions and scans: differential tests against NumPy.

Every test runs the same call through NumPy and lazynum (often on a non-contiguous lazy
view of the same values) and compares dtype, shape, values, or the exception type.
"""
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import lazynum as lnp

from . import strategies as S

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

NAN_SPECIALS = [np.nan, np.nan, np.inf, -np.inf]


# -- helpers ------------------------------------------------------------------------------------
def tolerance(a, result_dtype, power=1):
    """(rtol, atol) for a float result whose value comes from summing ``a``'s elements
    (``power`` = 2 for sums of squares): summation order may differ between layouts."""
    dt = np.dtype(result_dtype)
    if dt.kind != "f":
        return None, 0.0
    eps = np.finfo(dt).eps
    a = np.asarray(a, dtype=np.float64)
    finite = a[np.isfinite(a)]
    scale = float(np.max(np.abs(finite))) ** power if finite.size else 0.0
    return 64 * eps, 8 * eps * max(a.size, 1) * scale + np.finfo(dt).tiny


def compare(lazy_fn, numpy_fn, a=None, power=1, rtol=None, atol=None):
    """Run both; the same (public) exception type, or the same dtype, shape and values.
    Errors may come at the call or at the sync, as NumPy raises them at the call."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = numpy_fn()
        except Exception as exc:  # noqa: BLE001 - compared with lazynum's below
            with pytest.raises(S.public_type(exc)):
                np.asarray(lazy_fn())
            return None
        got = lazy_fn()
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            _assert(g, w, a, power, rtol, atol)
    else:
        _assert(got, want, a, power, rtol, atol)
    return got


def _assert(got, want, a, power, rtol, atol):
    want = np.asarray(want)
    auto_rtol, auto_atol = tolerance(a if a is not None else want, want.dtype, power)
    S.assert_same(got, want, rtol=auto_rtol if rtol is None else rtol,
                  atol=auto_atol if atol is None else atol)


def where_masks(shape):
    """Bool masks that broadcast against ``shape`` (some dims 1, some leading dims dropped)."""
    return st.tuples(*[st.sampled_from([d, 1]) for d in shape]).flatmap(
        lambda dims: st.integers(0, len(dims)).flatmap(
            lambda drop: hnp.arrays(np.bool_, dims[drop:])))


def nan_arrays(dtypes=S.float_dtypes, shape=None, max_side=5, bound=1e3):
    """Float arrays with small finite values plus NaN/±inf (order-independent results)."""
    shape = S.shapes(max_side=max_side) if shape is None else shape

    def build(dt):
        finite = st.floats(-bound, bound, width=dt.itemsize * 8)
        return hnp.arrays(dt, shape, elements=st.one_of(finite, finite, st.sampled_from(NAN_SPECIALS)))
    return dtypes.flatmap(build)


def product_arrays(dtype=S.every_dtype):
    """Arrays for products: at most 81 elements, floats in [-2, 2], so partial products
    never overflow and any multiplication order agrees to within ``PRODUCT_ATOL``."""
    return S.arrays(dtype, shape=S.shapes(max_side=3), small=True).map(
        lambda a: a / 500 if a.dtype.kind == "f" else a)


OPTIONAL_DTYPES = st.one_of(st.none(), S.every_dtype)
PRODUCT_RTOL, PRODUCT_ATOL = 1e-4, 1e-30


# -- sum / prod ---------------------------------------------------------------------------------
@given(S.lazy_views(S.arrays(small=True)), st.data())
def test_sum_matches_numpy(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim), "axis")
    keepdims = data.draw(st.booleans(), "keepdims")
    dtype = data.draw(OPTIONAL_DTYPES, "dtype")
    kwargs = dict(axis=axis, dtype=dtype, keepdims=keepdims)
    if data.draw(st.booleans(), "use initial"):
        kwargs["initial"] = data.draw(st.one_of(st.none(), st.integers(-3, 300), st.floats(-5, 5)))
    if data.draw(st.booleans(), "use where"):
        kwargs["where"] = data.draw(where_masks(a.shape), "where")
    compare(lambda: lnp.sum(x, **kwargs), lambda: np.sum(a, **kwargs), a)


@given(S.lazy_views(product_arrays()), st.data())
def test_prod_matches_numpy(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim), "axis")
    kwargs = dict(axis=axis, keepdims=data.draw(st.booleans()), dtype=data.draw(OPTIONAL_DTYPES))
    if data.draw(st.booleans(), "use where"):
        kwargs["where"] = data.draw(where_masks(a.shape), "where")
        kwargs["initial"] = data.draw(st.integers(-2, 2))
    compare(lambda: lnp.prod(x, **kwargs), lambda: np.prod(a, **kwargs), rtol=PRODUCT_RTOL,
            atol=PRODUCT_ATOL)


@given(S.lazy_views(S.arrays(S.int_dtypes)), st.data())
def test_integer_sums_wrap_exactly_like_numpy(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim))
    dtype = data.draw(st.sampled_from([None] + S.INTEGER))
    compare(lambda: lnp.sum(x, axis, dtype), lambda: np.sum(a, axis, dtype))
    compare(lambda: lnp.prod(x, axis, dtype), lambda: np.prod(a, axis, dtype))


def test_sum_accumulator_dtypes():
    for dt in S.EVERY:
        a = np.ones(3, dt)
        for fn in ("sum", "prod", "cumsum", "cumprod", "nansum", "nanprod", "nancumsum",
                   "mean", "var", "std", "nanmean"):
            assert getattr(lnp, fn)(lnp.asarray(a)).dtype == getattr(np, fn)(a).dtype, (fn, dt)


# -- max / min / any / all ----------------------------------------------------------------------
@given(S.lazy_views(), st.data())
def test_max_min_match_numpy(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim), "axis")
    kwargs = dict(axis=axis, keepdims=data.draw(st.booleans()))
    if data.draw(st.booleans(), "use initial"):
        kwargs["initial"] = data.draw(st.one_of(st.none(), st.integers(-5, 300), st.floats(-5, 5)))
    if data.draw(st.booleans(), "use where"):
        kwargs["where"] = data.draw(where_masks(a.shape), "where")
    for name in ("max", "min", "amax", "amin"):
        compare(lambda: getattr(lnp, name)(x, **kwargs), lambda: getattr(np, name)(a, **kwargs))


@given(S.lazy_views(nan_arrays()), st.data())
def test_max_min_propagate_nan_and_any_all_count_nan_as_true(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim))
    for name in ("max", "min", "any", "all"):
        compare(lambda: getattr(lnp, name)(x, axis), lambda: getattr(np, name)(a, axis))


@given(S.lazy_views(), st.data())
def test_any_all_match_numpy(pair, data):
    a, x = pair
    kwargs = dict(axis=data.draw(S.axes_for(a.ndim)), keepdims=data.draw(st.booleans()))
    if data.draw(st.booleans(), "use where"):
        kwargs["where"] = data.draw(where_masks(a.shape), "where")
    for name in ("any", "all"):
        compare(lambda: getattr(lnp, name)(x, **kwargs), lambda: getattr(np, name)(a, **kwargs))


def test_empty_max_needs_initial_and_where_needs_initial():
    empty = np.zeros((0, 3))
    for kwargs in [{}, dict(axis=0), dict(axis=1), dict(axis=()), dict(initial=2.0),
                   dict(axis=0, initial=-1), dict(where=np.ones((0, 3), bool))]:
        for name in ("max", "min", "argmax", "argmin", "ptp", "nanmax", "nanargmin"):
            if name.startswith(("arg", "nanarg", "ptp")) and set(kwargs) - {"axis"}:
                continue
            if name.startswith("arg") or name.startswith("nanarg"):
                kwargs = {k: v for k, v in kwargs.items() if not isinstance(v, tuple)}
            compare(lambda: getattr(lnp, name)(lnp.asarray(empty), **kwargs),
                    lambda: getattr(np, name)(empty, **kwargs))
    a = np.arange(4.0)
    for name in ("max", "min", "nanmax", "nanmin"):
        compare(lambda: getattr(lnp, name)(lnp.asarray(a), where=a > 1),
                lambda: getattr(np, name)(a, where=a > 1))
    compare(lambda: lnp.sum(lnp.asarray(empty), initial=None), lambda: np.sum(empty, initial=None))
    compare(lambda: lnp.sum(lnp.asarray(a), where=a > 1, initial=None),
            lambda: np.sum(a, where=a > 1, initial=None))


# -- mean / var / std ---------------------------------------------------------------------------
@given(S.lazy_views(S.arrays(small=True)), st.data())
def test_mean_matches_numpy(pair, data):
    a, x = pair
    kwargs = dict(axis=data.draw(S.axes_for(a.ndim)), keepdims=data.draw(st.booleans()))
    if data.draw(st.booleans(), "use dtype"):
        kwargs["dtype"] = data.draw(st.sampled_from(S.FLOAT + [np.dtype(np.int64)]))
    if data.draw(st.booleans(), "use where"):
        kwargs["where"] = data.draw(where_masks(a.shape), "where")
    compare(lambda: lnp.mean(x, **kwargs), lambda: np.mean(a, **kwargs), a)


@given(S.lazy_views(S.arrays(small=True)), st.data())
def test_var_std_match_numpy(pair, data):
    a, x = pair
    kwargs = dict(axis=data.draw(S.axes_for(a.ndim)), keepdims=data.draw(st.booleans()))
    key = data.draw(st.sampled_from(["ddof", "correction"]))
    kwargs[key] = data.draw(st.one_of(st.integers(0, 3), st.sampled_from([0.5, 1.5])))
    if data.draw(st.booleans(), "use dtype"):
        kwargs["dtype"] = data.draw(st.sampled_from(S.FLOAT))
    if data.draw(st.booleans(), "use where"):
        kwargs["where"] = data.draw(where_masks(a.shape), "where")
    compare(lambda: lnp.var(x, **kwargs), lambda: np.var(a, **kwargs), a, power=2)
    rtol, atol = tolerance(a, np.result_type(a.dtype, kwargs.get("dtype") or np.float64), 2)
    compare(lambda: lnp.std(x, **kwargs), lambda: np.std(a, **kwargs), rtol=rtol,
            atol=math.sqrt(atol))


def test_var_mean_argument_ddof_and_correction_errors():
    a = np.arange(12.0).reshape(3, 4)
    x = lnp.asarray(a)
    m = a.mean(axis=1, keepdims=True)
    compare(lambda: lnp.var(x, axis=1, mean=m), lambda: np.var(a, axis=1, mean=m))
    compare(lambda: lnp.std(x, axis=1, mean=lnp.asarray(m)), lambda: np.std(a, axis=1, mean=m))
    compare(lambda: lnp.var(x, axis=1, mean=m[:, 0]), lambda: np.var(a, axis=1, mean=m[:, 0]))
    compare(lambda: lnp.var(x, ddof=1, correction=1), lambda: np.var(a, ddof=1, correction=1))
    compare(lambda: lnp.var(x, ddof=20), lambda: np.var(a, ddof=20))
    compare(lambda: lnp.var(x, ddof=12), lambda: np.var(a, ddof=12))
    compare(lambda: lnp.std(x, dtype=np.int64), lambda: np.std(a, dtype=np.int64))
    compare(lambda: lnp.std(x, axis=0, dtype=np.int64), lambda: np.std(a, axis=0, dtype=np.int64))
    compare(lambda: lnp.var(x, axis=0, dtype=np.int64), lambda: np.var(a, axis=0, dtype=np.int64))
    compare(lambda: lnp.mean(x, dtype=bool), lambda: np.mean(a, dtype=bool))


def test_empty_mean_and_dof_warn_like_numpy():
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        r = lnp.mean(lnp.zeros((0, 3)), axis=0)
    S.assert_same(r, np.full(3, np.nan))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        r = lnp.var(lnp.ones(2), ddof=2)
    S.assert_same(r, np.var(np.ones(2), ddof=2))


def test_float32_mean_rounds_like_numpy():
    a = np.array([0.1, 0.2, 0.7, 1e-3, 3.3], np.float32)
    x = lnp.asarray(a)
    for fn in ("mean", "var", "std"):
        S.assert_same(getattr(lnp, fn)(x), getattr(np, fn)(a), rtol=0)


# -- arg-reductions -----------------------------------------------------------------------------
@given(S.lazy_views(S.arrays(shape=S.shapes(min_side=0))), st.data())
def test_argmax_argmin_match_numpy(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim, allow_tuple=False) if a.ndim else
                     st.sampled_from([None, 0, -1, 1]))
    keepdims = data.draw(st.booleans())
    for name in ("argmax", "argmin"):
        compare(lambda: getattr(lnp, name)(x, axis, keepdims=keepdims),
                lambda: getattr(np, name)(a, axis, keepdims=keepdims))


@given(S.lazy_views(nan_arrays()), st.data())
def test_argmax_prefers_first_nan(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim, allow_tuple=False))
    for name in ("argmax", "argmin"):
        compare(lambda: getattr(lnp, name)(x, axis), lambda: getattr(np, name)(a, axis))


# -- scans --------------------------------------------------------------------------------------
def scan_axes(ndim):
    return S.axes_for(ndim, allow_tuple=False) if ndim else st.sampled_from([None, 0, -1, 1])


@given(S.lazy_views(S.arrays(small=True)), st.data())
def test_cumsum_matches_numpy(pair, data):
    a, x = pair
    axis, dtype = data.draw(scan_axes(a.ndim)), data.draw(OPTIONAL_DTYPES)
    compare(lambda: lnp.cumsum(x, axis, dtype), lambda: np.cumsum(a, axis, dtype), a)
    compare(lambda: x.cumsum(axis, dtype), lambda: a.cumsum(axis, dtype), a)


@given(S.lazy_views(product_arrays()), st.data())
def test_cumprod_matches_numpy(pair, data):
    a, x = pair
    axis, dtype = data.draw(scan_axes(a.ndim)), data.draw(OPTIONAL_DTYPES)
    compare(lambda: lnp.cumprod(x, axis, dtype), lambda: np.cumprod(a, axis, dtype),
            rtol=PRODUCT_RTOL, atol=PRODUCT_ATOL)


@given(S.lazy_views(product_arrays()), st.data())
def test_cumulative_sum_and_prod_match_numpy(pair, data):
    a, x = pair
    axis = data.draw(st.one_of(st.none(), st.integers(-4, 3)))
    include = data.draw(st.booleans())
    dtype = data.draw(OPTIONAL_DTYPES)
    for name in ("cumulative_sum", "cumulative_prod"):
        compare(lambda: getattr(lnp, name)(x, axis=axis, dtype=dtype, include_initial=include),
                lambda: getattr(np, name)(a, axis=axis, dtype=dtype, include_initial=include),
                rtol=PRODUCT_RTOL, atol=PRODUCT_ATOL)


# -- out= ---------------------------------------------------------------------------------------
CALLS_WITH_OUT = {
    "sum": lambda m, a, axis, out: m.sum(a, axis, out=out),
    "sum_keepdims": lambda m, a, axis, out: m.sum(a, axis, out=out, keepdims=True),
    "prod": lambda m, a, axis, out: m.prod(a, axis, out=out),
    "max": lambda m, a, axis, out: m.max(a, axis, out=out),
    "any": lambda m, a, axis, out: m.any(a, axis, out=out),
    "mean": lambda m, a, axis, out: m.mean(a, axis, out=out),
    "var": lambda m, a, axis, out: m.var(a, axis, out=out),
    "std": lambda m, a, axis, out: m.std(a, axis, out=out),
    "argmax": lambda m, a, axis, out: m.argmax(a, axis if not isinstance(axis, tuple) else None, out=out),
    "cumsum": lambda m, a, axis, out: m.cumsum(a, axis if not isinstance(axis, tuple) else None, out=out),
    "ptp": lambda m, a, axis, out: m.ptp(a, axis, out=out),
    "nansum": lambda m, a, axis, out: m.nansum(a, axis, out=out),
    "nanmean": lambda m, a, axis, out: m.nanmean(a, axis, out=out),
    "nanmax": lambda m, a, axis, out: m.nanmax(a, axis, out=out),
}


@settings(max_examples=100)
@given(S.lazy_views(S.arrays(S.numeric_dtypes, shape=S.shapes(max_dims=3, min_side=1), small=True)),
       st.data())
def test_out_matches_numpy(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim))
    name = data.draw(st.sampled_from(sorted(CALLS_WITH_OUT)))
    call = CALLS_WITH_OUT[name]
    try:
        shape = np.shape(call(np, a, axis, None))
    except Exception:  # noqa: BLE001 - the error itself is compared below with a fitting out
        shape = ()
    # NumPy's accumulate broadcasts into some larger outs (an nditer quirk lazynum does not
    # copy: its scans want out's shape exactly), so scans get the exact shape or one that
    # NumPy rejects too.
    wrong = ([(7,)] if math.prod(shape) > 1 else []) if name == "cumsum" else [shape + (1,), (7,)]
    shape = data.draw(st.sampled_from([shape] + wrong), "out shape")
    out_dtype = data.draw(S.dtypes, "out dtype")
    out_np, out_lazy = np.zeros(shape, out_dtype), lnp.zeros(shape, out_dtype)
    got = compare(lambda: call(lnp, x, axis, out_lazy), lambda: call(np, a, axis, out_np), a, power=2)
    if got is not None:
        assert got is out_lazy
        S.assert_same(out_lazy, out_np, *tolerance(a, out_dtype, 2))


def test_out_writes_through_views_and_into_numpy_out():
    a = np.arange(12.0).reshape(3, 4)
    base = lnp.zeros((2, 4))
    row = base[1]
    lnp.sum(lnp.asarray(a), axis=0, out=row)
    S.assert_same(base, np.array([[0.0] * 4, a.sum(axis=0)]))
    host = np.zeros(4)          # NumPy writes its own out= array, as numpy.sum(a, out=host) does
    assert lnp.sum(lnp.asarray(a), axis=0, out=host) is host
    S.assert_same(host, a.sum(axis=0))
    with pytest.raises(ValueError):
        lnp.sum(lnp.asarray(a), axis=0, out=lnp.zeros((1, 4)))


@pytest.mark.parametrize("name", ["max", "nanmax", "ptp", "median", "cumsum", "argmin"])
def test_numpy_out_is_written_by_numpy(name):
    # np.max(lazy, axis=0, out=numpy_array): NumPy's result in NumPy's array, returned
    x = np.array([[3, 1, 4], [1, 5, 9]], dtype=np.uint16)
    kwargs = {} if name in ("cumsum", "argmin") else {"axis": 0}
    expected = getattr(np, name)(x, **kwargs)
    for call in (getattr(lnp, name), getattr(np, name)):       # direct, and NumPy's dispatch
        out = np.zeros_like(expected)
        assert call(lnp.asarray(x), **kwargs, out=out) is out
        S.assert_same(out, expected)


# -- NaN variants -------------------------------------------------------------------------------
NAN_REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax"]


@given(st.sampled_from(NAN_REDUCTIONS), st.data())
def test_nan_reductions_match_numpy(name, data):
    products = name == "nanprod"
    a, x = data.draw(S.lazy_views(nan_arrays(max_side=3 if products else 4,
                                             bound=2 if products else 1e3)), "arrays")
    kwargs = dict(axis=data.draw(S.axes_for(a.ndim)), keepdims=data.draw(st.booleans()))
    if name in ("nanvar", "nanstd"):
        kwargs["ddof"] = data.draw(st.integers(0, 2))
    if name in ("nanmean", "nanvar", "nanstd", "nansum") and data.draw(st.booleans()):
        kwargs["dtype"] = data.draw(st.sampled_from(S.FLOAT))
    if data.draw(st.booleans(), "use where"):
        kwargs["where"] = data.draw(where_masks(a.shape), "where")
        if name in ("nanmin", "nanmax"):
            kwargs["initial"] = data.draw(st.floats(-5, 5))
    power = 2 if name in ("nanvar", "nanstd") else 1
    atol = PRODUCT_ATOL if products else math.sqrt(tolerance(a, a.dtype, 2)[1]) \
        if name == "nanstd" else None
    rtol = PRODUCT_RTOL if products else None
    compare(lambda: getattr(lnp, name)(x, **kwargs), lambda: getattr(np, name)(a, **kwargs), a,
            power=power, atol=atol, rtol=rtol)


@given(S.lazy_views(S.arrays(S.int_dtypes, small=True)), st.data())
def test_nan_functions_on_integers_are_the_plain_ones(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim))
    for name in NAN_REDUCTIONS:
        compare(lambda: getattr(lnp, name)(x, axis), lambda: getattr(np, name)(a, axis), a, power=2)
    axis = data.draw(S.axes_for(a.ndim, allow_tuple=False))
    for name in ("nanargmax", "nanargmin", "nancumsum", "nancumprod"):
        compare(lambda: getattr(lnp, name)(x, axis), lambda: getattr(np, name)(a, axis))


@given(S.lazy_views(nan_arrays(max_side=4)), st.data())
def test_nan_scans_and_nanarg_match_numpy(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim, allow_tuple=False))
    compare(lambda: lnp.nancumsum(x, axis), lambda: np.nancumsum(a, axis), a)
    for name in ("nanargmax", "nanargmin"):
        try:
            expected = getattr(np, name)(a, axis)
        except ValueError as exc:
            if "All-NaN" not in str(exc):     # an empty axis: known from the shapes
                with pytest.raises(ValueError):
                    getattr(lnp, name)(x, axis)
                continue
            result = getattr(lnp, name)(x, axis)   # data-dependent: the sync raises
            with pytest.raises(ValueError, match="All-NaN slice"):
                np.asarray(result)
            continue
        S.assert_same(getattr(lnp, name)(x, axis), expected)


@given(S.lazy_views(nan_arrays(max_side=3, bound=2)), st.data())
def test_nancumprod_matches_numpy(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim, allow_tuple=False))
    compare(lambda: lnp.nancumprod(x, axis), lambda: np.nancumprod(a, axis), rtol=PRODUCT_RTOL,
            atol=PRODUCT_ATOL)


def test_nanargmax_all_nan_raises_at_the_sync_not_the_call():
    x = lnp.asarray(np.array([[1.0, np.nan], [np.nan, np.nan]]))
    result = lnp.nanargmax(x, axis=1)
    assert lnp.metrics()["syncs"] == 0
    with pytest.raises(ValueError, match="assert_all"):   # the note names the op
        result.tolist()
    S.assert_same(lnp.nanargmax(x[0]), 0)
    S.assert_same(lnp.nanargmin(x[:, :1], axis=0, keepdims=True), np.array([[0]]))


def test_nan_function_dtype_checks():
    a = np.array([1.0, np.nan])
    for name in ("nanmean", "nanvar", "nanstd"):
        compare(lambda: getattr(lnp, name)(lnp.asarray(a), dtype=np.int64),
                lambda: getattr(np, name)(a, dtype=np.int64))
        compare(lambda: getattr(lnp, name)(lnp.asarray(a), out=lnp.zeros((), np.int64)),
                lambda: getattr(np, name)(a, out=np.zeros((), np.int64)))


# -- the smaller functions ----------------------------------------------------------------------
@given(S.lazy_views(S.arrays(S.every_numeric, small=True)), st.data())
def test_ptp_count_nonzero_match_numpy(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim))
    keepdims = data.draw(st.booleans())
    compare(lambda: lnp.ptp(x, axis, keepdims=keepdims), lambda: np.ptp(a, axis, keepdims=keepdims))
    compare(lambda: lnp.count_nonzero(x, axis, keepdims=keepdims),
            lambda: np.count_nonzero(a, axis, keepdims=keepdims))


@given(S.lazy_views(S.arrays(small=True, shape=S.shapes(min_dims=2, max_dims=4))), st.data())
def test_trace_matches_numpy(pair, data):
    a, x = pair
    offset = data.draw(st.integers(-3, 3))
    axis1, axis2 = data.draw(st.lists(st.integers(-a.ndim, a.ndim - 1), min_size=2, max_size=2))
    dtype = data.draw(OPTIONAL_DTYPES)
    compare(lambda: lnp.trace(x, offset, axis1, axis2, dtype),
            lambda: np.trace(a, offset, axis1, axis2, dtype), a)


@given(S.lazy_views(S.arrays(S.every_numeric, small=True, shape=S.shapes(min_side=1))),
       st.data())
def test_average_matches_numpy(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim), "axis")
    kwargs = dict(axis=axis, returned=data.draw(st.booleans()), keepdims=data.draw(st.booleans()))
    if data.draw(st.booleans(), "weighted"):
        full = data.draw(st.booleans()) or axis is None
        axes = (axis,) if isinstance(axis, int) else axis
        shape = a.shape if full else tuple(a.shape[ax] for ax in axes)
        kwargs["weights"] = data.draw(hnp.arrays(data.draw(S.every_numeric), shape,
                                                 elements=st.integers(1, 9)))
    compare(lambda: lnp.average(x, **kwargs), lambda: np.average(a, **kwargs), a)


def test_average_errors_match_numpy():
    a = np.ones((2, 3))
    for kwargs in [dict(weights=np.ones(3)), dict(axis=1, weights=np.ones(2)),
                   dict(axis=(0, 1), weights=np.ones(3)), dict(axis=0, weights=np.ones((2, 3)))]:
        compare(lambda: lnp.average(lnp.asarray(a), **kwargs), lambda: np.average(a, **kwargs))


@given(S.lazy_views(st.one_of(nan_arrays(max_side=4), S.arrays(small=True))),
       st.data())
def test_median_matches_numpy(pair, data):
    a, x = pair
    axis = data.draw(S.axes_for(a.ndim))
    keepdims = data.draw(st.booleans())
    compare(lambda: lnp.median(x, axis, keepdims=keepdims),
            lambda: np.median(a, axis, keepdims=keepdims), a)


# -- ufunc.reduce / ufunc.accumulate ------------------------------------------------------------
REDUCIBLE = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or"]


@given(S.lazy_views(product_arrays()), st.data())
def test_ufunc_reduce_matches_numpy(pair, data):
    a, x = pair
    name = data.draw(st.sampled_from(REDUCIBLE), "ufunc")
    axis = data.draw(st.one_of(st.just(0), S.axes_for(a.ndim)), "axis")
    kwargs = dict(keepdims=data.draw(st.booleans()))
    if name in ("add", "multiply") and data.draw(st.booleans()):
        kwargs["dtype"] = data.draw(S.every_dtype)
    got = compare(lambda: getattr(lnp, name).reduce(x, axis, **kwargs),
                  lambda: getattr(np, name).reduce(a, axis, **kwargs), rtol=PRODUCT_RTOL,
                  atol=PRODUCT_ATOL)
    if got is not None:     # NumPy's own ufunc dispatches to lazynum: the result stays lazy
        assert isinstance(getattr(np, name).reduce(x, axis, **kwargs), lnp.ndarray)
        assert lnp.metrics()["fallbacks"] == 0


@given(S.lazy_views(product_arrays()), st.data())
def test_ufunc_accumulate_matches_numpy(pair, data):
    a, x = pair
    name = data.draw(st.sampled_from(["add", "multiply", "logical_and", "logical_or"]))
    axis = data.draw(st.one_of(st.none(), st.integers(-3, 2)))
    compare(lambda: getattr(lnp, name).accumulate(x, axis),
            lambda: getattr(np, name).accumulate(a, axis), rtol=PRODUCT_RTOL, atol=PRODUCT_ATOL)


def test_unsupported_ufunc_reductions_fall_back_to_numpy_and_are_counted():
    a = np.array([[3, 5], [6, 7]])
    S.assert_same(lnp.bitwise_and.reduce(lnp.asarray(a)), np.bitwise_and.reduce(a))
    S.assert_same(lnp.subtract.accumulate(lnp.asarray(a)), np.subtract.accumulate(a))
    S.assert_same(lnp.add.reduce(lnp.asarray(a), out=(lnp.zeros(2),)),
                  np.add.reduce(a, out=(np.zeros(2),)))
    S.assert_same(np.bitwise_and.reduce(lnp.asarray(a)), np.bitwise_and.reduce(a))
    S.assert_same(np.subtract.accumulate(lnp.asarray(a)), np.subtract.accumulate(a))
    assert lnp.metrics()["fallbacks"] == 4


# -- argument errors ----------------------------------------------------------------------------
BAD_CALLS = [
    lambda m, a: m.sum(a, axis=2),
    lambda m, a: m.sum(a, axis=-3),
    lambda m, a: m.sum(a, axis=(0, 0)),
    lambda m, a: m.sum(a, axis=(0, -2)),
    lambda m, a: m.sum(a, axis=[0]),
    lambda m, a: m.sum(a, axis=1.0),
    lambda m, a: m.sum(a, dtype="not a dtype"),
    lambda m, a: m.sum(a, where=np.array([1, 0, 1])),
    lambda m, a: m.sum(a, where=np.ones((3, 2, 3), bool)),
    lambda m, a: m.sum(a, initial=[1, 2]),
    lambda m, a: m.sum(a.astype(np.uint8), initial=-1),
    lambda m, a: m.max(a.astype(np.int64), initial=2 ** 70),
    lambda m, a: m.mean(a, axis=2),
    lambda m, a: m.var(a, axis=(1, 1)),
    lambda m, a: m.argmax(a, axis=(0,)),
    lambda m, a: m.argmax(a, axis=2),
    lambda m, a: m.argmin(a, out=m.zeros(())),
    lambda m, a: m.cumsum(a, axis=2),
    lambda m, a: m.cumsum(a, axis=(0,)),
    lambda m, a: m.cumulative_sum(a),
    lambda m, a: m.any(a, axis=5),
    lambda m, a: m.ptp(a.astype(bool)),
    lambda m, a: m.trace(a[0]),
    lambda m, a: m.count_nonzero(a, axis=2),
    lambda m, a: m.logical_and.reduce(a, dtype=np.int64),
    lambda m, a: m.add.accumulate(a, axis=None),
    lambda m, a: m.add.accumulate(a[0, 0]),
    lambda m, a: m.median(a, axis=3),
    lambda m, a: m.nanmax(a, axis=(0, 0)),
]


@pytest.mark.parametrize("index", range(len(BAD_CALLS)))
def test_bad_arguments_raise_numpys_exception_type(index):
    a = np.arange(6.0).reshape(2, 3)
    fn = BAD_CALLS[index]
    with pytest.raises(Exception) as info:
        fn(np, a)
    with pytest.raises(S.public_type(info.value)):
        fn(lnp, lnp.asarray(a))


def test_zero_d_inputs_follow_numpys_axis_rules():
    a = np.array(2.5)
    x = lnp.asarray(a)
    for name in ("sum", "prod", "max", "min", "any", "all", "mean", "var", "argmax", "cumsum",
                 "count_nonzero", "nansum", "nanmax", "nanmean", "median"):
        for axis in (None, 0, -1, 1, (), (0,)):
            if name in ("argmax", "cumsum") and isinstance(axis, tuple):
                continue
            compare(lambda: getattr(lnp, name)(x, axis=axis), lambda: getattr(np, name)(a, axis=axis))
    compare(lambda: lnp.sum(x, axis=0, keepdims=True), lambda: np.sum(a, axis=0, keepdims=True))
    compare(lambda: lnp.argmax(x, keepdims=True), lambda: np.argmax(a, keepdims=True))


# -- laziness -----------------------------------------------------------------------------------
def test_sum_chain_is_one_sync_and_computes_nothing_before():
    a = np.arange(12.0).reshape(3, 4)
    x = lnp.asarray(a)
    lnp.reset_metrics()
    result = ((x * 2).sum(axis=0) + 1).mean()
    assert lnp.metrics()["syncs"] == 0
    assert lnp.metrics()["nodes_computed"] == 0
    assert result.item() == ((a * 2).sum(axis=0) + 1).mean()
    assert lnp.metrics()["syncs"] == 1


def test_every_reduction_traces_without_syncing():
    x = lnp.asarray(np.arange(24.0).reshape(2, 3, 4)) + 1.0
    where = np.ones((3, 4), bool)
    with lnp.config(sync="raise"):
        results = [
            x.sum(), x.sum(axis=(0, 2), keepdims=True, where=where), x.prod(1, initial=2.0),
            x.mean(0), x.var(1, ddof=1), x.std(), x.max(2), x.min(initial=0.0), x.argmax(1),
            x.argmin(), x.any(0), x.all(), lnp.ptp(x, 1), x.cumsum(), x.cumprod(2), x[0].trace(),
            lnp.count_nonzero(x, 1), lnp.average(x, 1, weights=np.ones(3)), lnp.median(x, 2),
            lnp.nansum(x), lnp.nanprod(x, 0), lnp.nanmean(x, 1), lnp.nanvar(x), lnp.nanstd(x, 2),
            lnp.nanmin(x), lnp.nanmax(x, 0), lnp.nanargmin(x, 1), lnp.nanargmax(x),
            lnp.nancumsum(x, 0), lnp.nancumprod(x), lnp.cumulative_sum(x, axis=1),
            lnp.add.reduce(x), lnp.multiply.accumulate(x, 1),
        ]
    assert lnp.metrics()["syncs"] == 0
    lnp.sync(*results)
    assert lnp.metrics()["syncs"] == 1


def test_methods_and_numpy_functions_dispatch_lazily():
    a = np.arange(6.0).reshape(2, 3)
    x = lnp.asarray(a)
    for name in ("sum", "mean", "std", "var", "max", "min", "median", "average", "nanmean",
                 "count_nonzero", "amax", "cumsum", "argmax"):
        result = getattr(np, name)(x)
        assert isinstance(result, lnp.ndarray), name
        S.assert_same(result, getattr(np, name)(a))
    S.assert_same(x.prod(axis=1, keepdims=True), a.prod(axis=1, keepdims=True))
    S.assert_same(x.cumprod(axis=0), a.cumprod(axis=0))
    assert lnp.metrics()["fallbacks"] == 0


@pytest.mark.parametrize("op, attrs", [("reduce_sum", ((0,),)), ("reduce_prod", ((0,),)),
                                       ("cumsum", (0,)), ("cumprod", (0,))])
def test_sum_primitives_keep_narrow_int_dtypes(op, attrs):
    from lazynum.array.arraytype import wrap
    from lazynum.expr import node as nodes
    from lazynum.expr.registry import lookup
    x = lnp.asarray(np.array([100, 100], np.int8))
    result = wrap(nodes.apply(lookup(op), (x._n(),), attrs))
    expected = getattr(np, op.replace("reduce_", ""))(np.array([100, 100], np.int8), dtype=np.int8)
    S.assert_same(result, expected)     # the backend's InternalError is an AssertionError


def test_a_non_bool_where_mask_is_the_first_error_like_numpy():
    x = np.arange(6).reshape(2, 3)
    for m in (np, lnp):
        with pytest.raises(TypeError):
            m.min(m.asarray(x), axis=0, where=m.asarray(x.astype(np.int32)))
        with pytest.raises(TypeError):
            m.sum(m.asarray(x), axis=5, where=m.asarray(x))


@given(shape=st.sampled_from([(6,), (3, 5), (2, 3, 4)]), dtype=st.sampled_from(["f8", "f4", "i2", "?"]),
       name=st.sampled_from(["maximum", "minimum", "fmax", "fmin"]), data=st.data())
def test_running_extremes_are_numpys_accumulate(shape, dtype, name, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    x = rng.standard_normal(shape) * 5
    x = (x > 0) if dtype == "?" else x.astype(dtype)
    if dtype[0] == "f":
        x.flat[1] = np.nan                     # maximum propagates it, fmax skips it
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    lnp.reset_metrics()
    got = getattr(lnp, name).accumulate(lnp.asarray(x), axis=axis)
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    expected = getattr(np, name).accumulate(x, axis=axis)
    got = np.asarray(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("value", [-0.0, complex(-1.0, np.nan), complex(np.inf, 0.0), complex(-0.0, -0.0)])
def test_sum_and_prod_over_no_axis_start_at_the_identity(value):
    # fuzz seed 420822: prod of a 0-d complex (-1+nanj) was the element; NumPy's reduction
    # starts at the identity (1 * (-1+nanj) is nan+nanj, 0 + -0.0 is 0.0), over axis=() too
    x = np.array(value)
    lazy = lnp.asarray(x)
    with np.errstate(invalid="ignore"):
        for got, want in [(lazy.prod(), x.prod()), (lazy.sum(), x.sum()), (lazy.mean(), x.mean()),
                          (lnp.sum(lnp.asarray(x[None]), axis=()), np.sum(x[None], axis=()))]:
            got = np.asarray(got)
            assert got.dtype == np.asarray(want).dtype
            assert np.array_equal(np.signbit(np.asarray(got).real), np.signbit(np.asarray(want).real))
            np.testing.assert_array_equal(got, want)


def test_median_of_a_slice_with_nan_is_that_nan_element():
    # fuzz seed 420339: median of complex (-3.5+nanj) was nan (so its real part nan); NumPy
    # returns the NaN element sorted last, keeping its other part
    for x in (np.array([[complex(-3.5, np.nan)]], dtype=np.complex64),
              np.array([[complex(np.nan, 2.0), 1.0, 5j], [1.0, 2.0, 3.0]]), np.array([1.0, np.nan, 3.0])):
        for axis in (None, -1):
            got, want = np.asarray(lnp.median(lnp.asarray(x), axis=axis)), np.median(x, axis=axis)
            assert got.dtype == np.asarray(want).dtype
            np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(np.real(got), np.real(want))
