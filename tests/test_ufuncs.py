"""Differential tests of every ufunc and every operator against NumPy.

Each test draws dtypes, broadcastable shapes (0-d and size-0 included), non-contiguous
lazy views and weak Python scalars, runs the same call through NumPy and lazynum, and
compares dtype, shape and values, or the exception type where NumPy raises.

Every loop NumPy has runs, float16 and complex ones included (``sin`` of int8 is float16).
"""
import operator
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import lazynum as lnp
from lazynum.expr.elementwise import BINARY_UFUNCS, MULTI_OUTPUT_UFUNCS, UNARY_UFUNCS

from . import strategies as S

ALL_UFUNCS = UNARY_UFUNCS + BINARY_UFUNCS + MULTI_OUTPUT_UFUNCS

# Python scalars NumPy treats as weak, with the values that exercise NEP 50's edges.
EDGE_INTS = [0, 1, -1, 2, 7, 127, 128, -128, -129, 255, 256, 300, -300, 2**15, 2**31, 2**32,
             2**53 + 1, 2**63 - 1, 2**63, -2**63, -2**63 - 1, 2**64 - 1, 2**64, 2**70]
python_scalars = st.one_of(
    st.booleans(),
    st.sampled_from(EDGE_INTS),
    st.integers(-1000, 1000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 0.5, -1.5, 1e300, -1e-300, float("nan"), float("inf")]),
)


def _numpy(fn):
    """Run ``fn`` eagerly with NumPy's floating-point warnings silenced."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _float_tolerance(dtype):
    # NumPy's own loops take different (SIMD vs. scalar) paths for contiguous and strided
    # inputs, and the llvm backend uses glibc's vector math: allow a few ULPs.
    if np.dtype(dtype).kind not in "fc":
        return (None, 0.0)
    eps = np.finfo(dtype).eps
    return (4 * eps, 4 * np.finfo(dtype).tiny)


def check_against_numpy(lazy_fn, numpy_fn, magnify=1.0):
    """Same exception type, or same dtype/shape/values (float tolerances times ``magnify``
    where the function amplifies a last-bit difference of its inner steps)."""
    try:
        expected = _numpy(numpy_fn)
    except Exception as exc:  # noqa: BLE001 - compare the type with lazynum's
        with pytest.raises(type(exc)):
            _numpy(lambda: [np.asarray(r) for r in _as_tuple(lazy_fn())])
        return None
    expected = _as_tuple(expected)
    result = _as_tuple(_numpy(lazy_fn))      # NumPy's cast warnings happen at trace time
    assert len(result) == len(expected)
    got = _numpy(lambda: [np.asarray(r) for r in result])
    for g, e in zip(got, expected):
        e = np.asarray(e)
        if e.dtype.kind in "fc":
            rtol, atol = _float_tolerance(e.dtype)
            S.assert_same(g, e, rtol=rtol * magnify, atol=atol)
        else:
            S.assert_same(g, e)
    return result


@st.composite
def operands(draw, nin, allow_scalar=True, max_dims=3):
    """(numpy operands, lazynum operands): arrays (maybe non-contiguous views, maybe with
    NaN/inf) of drawn dtypes and mutually broadcastable shapes, or weak Python scalars."""
    if draw(st.integers(0, 4)):
        shapes = draw(S.broadcastable_shapes(nin, max_dims=max_dims, max_side=4))
    else:           # size-0 dims too (broadcasting 0 against 1)
        shapes = draw(hnp.mutually_broadcastable_shapes(
            num_shapes=nin, min_dims=0, max_dims=max_dims, min_side=0, max_side=3)).input_shapes
    scalar_at = draw(st.sampled_from([None] * 2 + list(range(nin)))) if allow_scalar else None
    np_ops, lazy_ops = [], []
    for i, shape in enumerate(shapes):
        if i == scalar_at:
            value = draw(python_scalars)
            np_ops.append(value)
            lazy_ops.append(value)
            continue
        finite = draw(st.booleans())
        base, lazy = draw(S.lazy_views(S.arrays(S.every_dtype, st.just(shape), finite=finite)))
        np_ops.append(base)
        lazy_ops.append(lazy)
    return np_ops, lazy_ops


@pytest.mark.parametrize("name", ALL_UFUNCS)
@settings(max_examples=30)
@given(data=st.data())
def test_every_ufunc_matches_numpy(name, data):
    uf, luf = getattr(np, name), getattr(lnp, name)
    np_ops, lazy_ops = data.draw(operands(uf.nin, allow_scalar=uf.nin > 1))
    lnp.reset_metrics()
    result = check_against_numpy(lambda: luf(*lazy_ops), lambda: uf(*np_ops))
    if result is not None:
        assert all(isinstance(r, lnp.ndarray) for r in result)


@pytest.mark.parametrize("name", UNARY_UFUNCS + ("modf", "frexp"))
@given(value=python_scalars)
@settings(max_examples=8)
def test_unary_ufunc_of_a_python_scalar(name, value):
    if isinstance(value, int) and not -2**63 <= value < 2**64:
        return      # NumPy makes an object array: lazynum has no object dtype
    check_against_numpy(lambda: getattr(lnp, name)(value), lambda: getattr(np, name)(value))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "power", "maximum",
                                  "less", "equal", "arctan2", "left_shift", "bitwise_and"])
@given(a=python_scalars, b=python_scalars)
@settings(max_examples=15)
def test_binary_ufunc_of_two_python_scalars(name, a, b):
    if any(isinstance(v, int) and not -2**63 <= v < 2**63 for v in (a, b)):
        return      # huge ints make NumPy object arrays
    check_against_numpy(lambda: getattr(lnp, name)(a, b), lambda: getattr(np, name)(a, b))


# -- operators ---------------------------------------------------------------------------

BINARY_OPERATORS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "divmod": divmod,
    "&": operator.and_, "|": operator.or_, "^": operator.xor, "<<": operator.lshift,
    ">>": operator.rshift, "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}
INPLACE_OPERATORS = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow, "&=": operator.iand,
    "|=": operator.ior, "^=": operator.ixor, "<<=": operator.ilshift, ">>=": operator.irshift,
}
UNARY_OPERATORS = {"-": operator.neg, "+": operator.pos, "~": operator.invert, "abs": abs}


@pytest.mark.parametrize("symbol", sorted(BINARY_OPERATORS))
@given(data=st.data())
@settings(max_examples=40)
def test_binary_operator_matches_numpy(symbol, data):
    op = BINARY_OPERATORS[symbol]
    np_ops, lazy_ops = data.draw(operands(2))
    lnp.reset_metrics()
    check_against_numpy(lambda: op(*lazy_ops), lambda: op(*np_ops))


@pytest.mark.parametrize("symbol", sorted(BINARY_OPERATORS))
@given(data=st.data())
@settings(max_examples=20)
def test_reflected_operator_with_numpy_left_operand(symbol, data):
    """``numpy_array OP lazy`` and ``numpy_scalar OP lazy`` go through NumPy's protocols
    (``__array_ufunc__`` / reflected methods) and stay lazy."""
    op = BINARY_OPERATORS[symbol]
    left, _ = data.draw(S.lazy_views(S.arrays(S.every_dtype, S.shapes(max_dims=2, max_side=3))))
    if data.draw(st.booleans()):
        left = left.dtype.type(left.reshape(-1)[0]) if left.size else left.dtype.type(1)
    right, lazy_right = data.draw(S.lazy_views(S.arrays(S.every_dtype, S.shapes(max_dims=2, max_side=3))))
    lnp.reset_metrics()
    result = check_against_numpy(lambda: op(left, lazy_right), lambda: op(left, right))
    if result is not None and symbol != "divmod" and np.ndim(left):
        assert all(isinstance(r, lnp.ndarray) for r in result)


@pytest.mark.parametrize("symbol", sorted(UNARY_OPERATORS))
@given(pair=S.lazy_views(S.arrays(S.every_dtype, finite=False)))
@settings(max_examples=25)
def test_unary_operator_matches_numpy(symbol, pair):
    op = UNARY_OPERATORS[symbol]
    base, lazy = pair
    check_against_numpy(lambda: op(lazy), lambda: op(base))


@pytest.mark.parametrize("symbol", sorted(INPLACE_OPERATORS))
@given(data=st.data())
@settings(max_examples=30)
def test_inplace_operator_matches_numpy(symbol, data):
    """``a op= b``: NumPy's casting (same_kind, UFuncTypeError), broadcasting into ``a``,
    the same object back, and the write visible through the base of a view."""
    op = INPLACE_OPERATORS[symbol]
    np_ops, lazy_ops = data.draw(operands(2, max_dims=2))
    if not isinstance(np_ops[0], np.ndarray):
        np_ops, lazy_ops = np_ops[::-1], lazy_ops[::-1]
    target_np = np_ops[0].copy()
    base_np = np.stack([target_np, target_np])       # the target is a view of this base
    base_lazy = lnp.asarray(base_np)
    target_lazy = base_lazy[1, ...]

    def lazy_fn():
        out = op(target_lazy, lazy_ops[1])
        assert out is target_lazy
        return out

    def numpy_fn():
        view = base_np[1, ...]
        return op(view, np_ops[1])

    result = check_against_numpy(lazy_fn, numpy_fn)
    if result is not None:
        S.assert_same(base_lazy, base_np, *_float_tolerance(base_np.dtype))


def test_inplace_add_float_into_int_raises_numpys_ufunc_type_error():
    a = lnp.asarray(np.arange(3))
    with pytest.raises(np._core._exceptions._UFuncOutputCastingError):
        a += 1.5
    with pytest.raises(TypeError):
        a *= lnp.asarray(np.ones(3))
    b = lnp.asarray(np.ones(3, np.float32))
    b += np.float64(2.5)          # same_kind: float64 -> float32 is allowed
    assert b.dtype == np.float32 and b.tolist() == [3.5, 3.5, 3.5]
    with pytest.raises(ValueError, match="non-broadcastable"):
        b += lnp.ones((2, 3))


def test_matmul_operator_and_reflected_matmul():
    a = np.arange(6.0).reshape(2, 3)
    b = np.arange(12, dtype=np.int32).reshape(3, 4)
    S.assert_same(lnp.asarray(a) @ lnp.asarray(b), a @ b)
    S.assert_same(a @ lnp.asarray(b), a @ b)
    S.assert_same(lnp.asarray(a) @ b, a @ b)
    c = lnp.asarray(np.eye(3))
    c @= lnp.asarray(np.full((3, 3), 2.0))
    S.assert_same(c, np.eye(3) @ np.full((3, 3), 2.0))
    with pytest.raises(ValueError):
        lnp.asarray(a) @ lnp.asarray(a)


# -- NEP 50 specifics --------------------------------------------------------------------

@pytest.mark.parametrize("dtype", S.INTEGER)
@pytest.mark.parametrize("value", [-2**70, -2**63 - 1, -2**63, -129, -1, 128, 256, 300,
                                   2**31, 2**63, 2**64, 2**70])
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "bitwise_and", "floor_divide"])
def test_out_of_range_python_int_raises_overflow_error(dtype, value, name):
    x = np.array([1, 2, 3], dtype)
    check_against_numpy(lambda: getattr(lnp, name)(lnp.asarray(x), value),
                        lambda: getattr(np, name)(x, value))


@pytest.mark.parametrize("dtype", S.EVERY)
@pytest.mark.parametrize("value", [-2**70, -2**64, -2**63 - 1, -2**63, -129, -1, 0, 127, 128,
                                   255, 256, 2**31, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**70])
@pytest.mark.parametrize("name", ["equal", "not_equal", "less", "less_equal", "greater",
                                  "greater_equal"])
def test_comparison_with_any_python_int_is_exact(dtype, value, name):
    x = np.array([0, 1, 100], dtype) if dtype.kind != "b" else np.array([True, False])
    if dtype.kind == "i":
        x = np.array([np.iinfo(dtype).min, -1, 0, np.iinfo(dtype).max], dtype)
    elif dtype.kind == "u":
        x = np.array([0, 1, np.iinfo(dtype).max], dtype)
    lazy = lnp.asarray(x)
    uf = getattr(np, name)
    check_against_numpy(lambda: getattr(lnp, name)(lazy, value), lambda: uf(x, value))
    check_against_numpy(lambda: getattr(lnp, name)(value, lazy), lambda: uf(value, x))


def test_python_bool_acts_like_numpy_bool():
    x = np.arange(3, dtype=np.int8)
    S.assert_same(lnp.asarray(x) + True, x + True)
    S.assert_same(lnp.asarray(x > 0) & True, (x > 0) & True)
    S.assert_same(lnp.left_shift(True, lnp.asarray(x)), np.left_shift(True, x))


def test_ldexp_with_python_int_uses_numpys_legacy_loop():
    x = np.array([1.5, -2.0], np.float32)
    S.assert_same(lnp.ldexp(lnp.asarray(x), 3), np.ldexp(x, 3))
    S.assert_same(lnp.ldexp(lnp.asarray(x), np.int32(3)), np.ldexp(x, np.int32(3)))
    with pytest.raises(TypeError):
        lnp.ldexp(lnp.asarray(x), 1.5)


def test_float16_loops_run_as_numpys():
    x = lnp.asarray(np.arange(4, dtype=np.int8))
    S.assert_same(lnp.sin(x), np.sin(np.arange(4, dtype=np.int8)), rtol=0.0)
    S.assert_same(np.sqrt(x), np.sqrt(np.arange(4, dtype=np.int8)), rtol=0.0)  # __array_ufunc__
    S.assert_same(lnp.signbit(x), np.signbit(np.arange(4, dtype=np.int8)))


# -- out=, where=, dtype=, casting= ------------------------------------------------------

@given(data=st.data())
@settings(max_examples=40)
def test_out_and_where_match_numpy(data):
    name = data.draw(st.sampled_from(["add", "multiply", "subtract", "maximum", "sqrt",
                                      "negative", "less", "floor_divide", "arctan2"]))
    uf = getattr(np, name)
    np_ops, lazy_ops = data.draw(operands(uf.nin, max_dims=2))
    shape = np.broadcast_shapes(*[np.shape(o) for o in np_ops])
    out_dtype = data.draw(S.dtypes)
    out_np = np.zeros(shape, out_dtype)
    out_lazy = lnp.asarray(out_np)
    kwargs_np, kwargs_lazy = {"out": out_np}, {"out": out_lazy}
    if data.draw(st.booleans()) and not _numpy_where_crashes(uf, np_ops):
        mask = data.draw(S.arrays(np.dtype(bool), st.just(shape)))
        kwargs_np["where"], kwargs_lazy["where"] = mask, lnp.asarray(mask)

    def lazy_fn():
        result = getattr(lnp, name)(*lazy_ops, **kwargs_lazy)
        assert result is out_lazy
        return result

    check_against_numpy(lazy_fn, lambda: uf(*np_ops, **kwargs_np))


def _numpy_where_crashes(uf, np_ops):
    """NumPy 2.4 segfaults on ``less(uint32_array, -1, where=mask)``: a comparison of an
    integer array with an out-of-range Python int under a where= mask (its exact-comparison
    loop).  lazynum handles it; the test cannot ask NumPy."""
    if uf.__name__ not in ("equal", "not_equal", "less", "less_equal", "greater",
                           "greater_equal"):
        return False
    arrays = [o for o in np_ops if isinstance(o, np.ndarray)]
    ints = [o for o in np_ops if type(o) is int]
    return bool(arrays and ints and arrays[0].dtype.kind in "iu" and not
                np.iinfo(arrays[0].dtype).min <= ints[0] <= np.iinfo(arrays[0].dtype).max)


def test_comparison_with_out_of_range_int_under_where_mask():
    """The case NumPy 2.4 crashes on (see ``_numpy_where_crashes``): lazynum's answer."""
    x = lnp.asarray(np.array([950, 3], np.uint32))
    out = lnp.zeros(2, np.int8)
    lnp.less(x, -1, out=out, where=lnp.asarray([True, False]))
    assert out.tolist() == [0, 0]
    lnp.greater(x, -1, out=out, where=lnp.asarray([True, False]))
    assert out.tolist() == [1, 0]
    got = lnp.not_equal(x, -2**63, where=lnp.asarray([False, True]))
    assert got.tolist() == [False, True]


def test_out_errors_match_numpy():
    x = np.arange(6.0).reshape(2, 3)
    lx = lnp.asarray(x)
    with pytest.raises(np._core._exceptions._UFuncOutputCastingError):
        lnp.add(lx, 1, out=lnp.zeros((2, 3), np.int64))
    with pytest.raises(ValueError, match="non-broadcastable"):
        lnp.add(lx, 1, out=lnp.zeros((3,)))
    with pytest.raises(TypeError, match="tuple"):
        lnp.modf(lx, out=lnp.zeros((2, 3)))
    with pytest.raises(ValueError, match="one entry per ufunc output"):
        lnp.add(lx, 1, out=(lnp.zeros((2, 3)), lnp.zeros((2, 3))))
    with pytest.raises(TypeError, match="both a positional and keyword"):
        lnp.add(lx, 1, lnp.zeros((2, 3)), out=lnp.zeros((2, 3)))
    with pytest.raises(TypeError, match="positional arguments"):
        lnp.add(lx)
    with pytest.raises(TypeError, match="unexpected keyword"):
        lnp.add(lx, 1, bogus=1)
    with pytest.raises(TypeError):
        lnp.add(lx, 1, where=lnp.asarray(np.ones((2, 3), np.int8)), out=lnp.zeros((2, 3)))
    with pytest.raises(ValueError, match="read-only"):
        lnp.add(lx, 1, out=lnp.broadcast_to(lnp.zeros(3), (2, 3)))


def test_out_broadcasts_inputs_and_positional_out():
    x = np.arange(3.0)
    out = lnp.zeros((2, 3))
    assert lnp.add(lnp.asarray(x), 1, out) is out
    S.assert_same(out, np.add(x, 1, np.zeros((2, 3))))
    # where= without out= broadcasts with the mask; masked-off elements are 0 in lazynum
    # (uninitialized in NumPy).
    r = lnp.add(lnp.asarray(x), 1, where=lnp.asarray(np.array([[True, False, True]] * 2)))
    assert r.shape == (2, 3)
    S.assert_same(r, np.array([[1.0, 0.0, 3.0]] * 2))


def test_multi_output_out_tuple_and_none_entries():
    x = np.array([1.5, -2.25, 0.0])
    frac, whole = lnp.zeros(3), lnp.zeros(3)
    got = lnp.modf(lnp.asarray(x), out=(frac, whole))
    assert got[0] is frac and got[1] is whole
    for g, e in zip(got, np.modf(x)):
        S.assert_same(g, e)
    mant = lnp.zeros(3)
    m, e = lnp.frexp(lnp.asarray(x), out=(mant, None))
    assert m is mant
    S.assert_same(e, np.frexp(x)[1])
    q, r = divmod(lnp.asarray(np.arange(-3, 4)), 2)
    S.assert_same(q, np.arange(-3, 4) // 2)
    S.assert_same(r, np.arange(-3, 4) % 2)


@pytest.mark.parametrize("name, args, dtype, casting", [
    ("add", (np.arange(3, dtype=np.int8), 1), np.float32, "same_kind"),
    ("add", (np.arange(3, dtype=np.int8), 1.5), np.int8, "same_kind"),
    ("add", (np.arange(3, dtype=np.int8), 1.5), np.uint8, "unsafe"),
    ("sqrt", (np.arange(3, dtype=np.int8),), np.float32, "same_kind"),
    ("sqrt", (np.arange(3, dtype=np.float64),), np.float32, "same_kind"),
    ("multiply", (np.arange(3, dtype=np.int16), np.arange(3, dtype=np.int8)), None, "no"),
    ("multiply", (np.arange(3, dtype=np.int16), np.arange(3, dtype=np.int16)), None, "no"),
    ("less", (np.arange(3, dtype=np.int16), np.arange(3.0)), None, "safe"),
    ("divide", (np.arange(3), 2), np.float32, "same_kind"),
])
def test_dtype_and_casting_arguments(name, args, dtype, casting):
    lazy_args = [lnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    check_against_numpy(lambda: getattr(lnp, name)(*lazy_args, dtype=dtype, casting=casting),
                        lambda: getattr(np, name)(*args, dtype=dtype, casting=casting))


# -- ufunc.outer, protocols, aliases -------------------------------------------------------

@pytest.mark.parametrize("name", ["add", "multiply", "subtract", "less", "maximum", "power",
                                  "arctan2", "divmod", "logical_and", "left_shift"])
@given(a=S.lazy_views(S.arrays(S.every_dtype, S.shapes(max_dims=2, max_side=3))),
       b=S.lazy_views(S.arrays(S.every_dtype, S.shapes(max_dims=2, max_side=3))))
@settings(max_examples=10)
def test_ufunc_outer_matches_numpy(name, a, b):
    check_against_numpy(lambda: getattr(lnp, name).outer(a[1], b[1]),
                        lambda: getattr(np, name).outer(a[0], b[0]))


def test_outer_scalars_are_strong_and_non_binary_outer_raises():
    x = np.arange(3, dtype=np.int8)
    S.assert_same(lnp.add.outer(lnp.asarray(x), 1), np.add.outer(x, 1))
    S.assert_same(np.add.outer(x, lnp.asarray(x)), np.add.outer(x, x))
    with pytest.raises(ValueError, match="binary"):
        lnp.sin.outer(lnp.asarray(x), lnp.asarray(x))


def test_numpy_ufuncs_on_lazy_arrays_stay_lazy():
    x = np.linspace(0.0, 1.0, 5)
    lx = lnp.asarray(x)
    lnp.reset_metrics()
    results = [np.sin(lx), np.add(x, lx), np.float64(2) * lx, x + lx, lx + x,
               np.maximum(lx, 0.5), np.divmod(lx, 0.3)[1], np.multiply.outer(lx, lx)]
    assert all(isinstance(r, lnp.ndarray) for r in results)
    assert lnp.metrics()["syncs"] == 0
    S.assert_same(results[0], np.sin(x))
    S.assert_same(results[2], 2 * x)
    S.assert_same(results[7], np.multiply.outer(x, x))
    out = lnp.zeros(5)
    assert np.add(lx, 1.0, out=out) is out
    S.assert_same(out, x + 1)


def test_ufunc_objects_mirror_numpy():
    for name in ALL_UFUNCS:
        ours, theirs = getattr(lnp, name), getattr(np, name)
        assert (ours.nin, ours.nout, ours.nargs) == (theirs.nin, theirs.nout, theirs.nargs)
        assert ours.__name__ == theirs.__name__
        assert repr(ours) == f"<lazynum ufunc '{theirs.__name__}'>"
    assert lnp.abs is lnp.absolute and lnp.conj is lnp.conjugate and lnp.pow is lnp.power
    assert lnp.bitwise_not is lnp.invert and lnp.true_divide is lnp.divide
    assert lnp.add.identity == 0 and lnp.multiply.identity == 1
    with pytest.raises(NotImplementedError):
        lnp.add(lnp.ones(2), 1, signature=(None, None, "f8"))


def test_tracing_a_ufunc_never_syncs():
    x = lnp.asarray(np.arange(10.0))
    lnp.reset_metrics()
    y = lnp.sin(x) * 2 + lnp.maximum(x, 3) - (x < 4) + lnp.modf(x)[0]
    y += 1
    assert lnp.metrics()["syncs"] == 0
    np.asarray(y)
    assert lnp.metrics()["syncs"] == 1


def test_out_casting_is_checked_before_shapes_like_numpy():
    for m in (np, lnp):
        a = m.zeros(5, np.uint32)
        with pytest.raises(TypeError):      # NumPy's UFuncTypeError, not the shape ValueError
            a **= m.zeros((0, 3), np.int64)


# -- NumPy arrays as out=, NumPy's error order, huge Python ints --------------------------
@pytest.mark.parametrize("call", [
    lambda m, h: m.negative(h, out=h),
    lambda m, h: m.negative(h, h),                              # out given positionally
    lambda m, h: m.add(h, m.asarray(np.ones(3)), out=h),
    lambda m, h: m.add(h, m.asarray(np.ones(3)), out=(h,)),
    lambda m, h: m.multiply(m.asarray(np.full(3, 2.0)), 3, out=h),
    lambda m, h: m.add(h, 1, out=h, where=np.array([True, False, True])),
])
def test_ufunc_writes_into_a_numpy_out_array(call):
    """NumPy's in-place semantics: the NumPy array itself is updated (the lazy operands are
    synced) and is what the call returns."""
    expected_h, h = np.arange(3.0), np.arange(3.0)
    expected = call(np, expected_h)
    result = call(lnp, h)
    assert type(result) is np.ndarray and result is h
    np.testing.assert_array_equal(h, expected_h)
    np.testing.assert_array_equal(result, expected)


def test_ufunc_into_a_numpy_out_array_keeps_numpys_errors():
    for m in (np, lnp):
        with pytest.raises(TypeError):        # float result into an int array
            m.add(np.arange(3), m.asarray(np.ones(3)) * 1.5, out=np.arange(3))
        readonly = np.arange(3.0)
        readonly.flags.writeable = False
        with pytest.raises(ValueError):
            m.negative(m.asarray(np.ones(3)), out=readonly)


def test_numpy_array_inplace_operator_with_a_lazy_operand():
    h = np.arange(3.0)
    before = h
    h += lnp.asarray(np.ones(3))
    assert h is before and type(h) is np.ndarray
    np.testing.assert_array_equal(h, [1.0, 2.0, 3.0])
    h *= lnp.asarray(np.full(3, 2.0))
    np.testing.assert_array_equal(before, [2.0, 4.0, 6.0])


F16_THREE = np.zeros(3, np.float16)


@pytest.mark.parametrize("call", [
    lambda m: m.add(F16_THREE, m.zeros(4)),
    lambda m: m.add(m.zeros(4), F16_THREE),
    lambda m: m.zeros(4) + F16_THREE,
    lambda m: m.multiply(m.zeros((2, 4)), F16_THREE),
    lambda m: m.add(m.zeros(3), m.zeros(4), dtype="float16"),
    lambda m: m.add(m.zeros(3), m.zeros(4), dtype="complex128"),
    lambda m: m.sin(m.asarray(np.zeros(3, np.int8)), out=m.zeros(4)),
    lambda m: m.negative(F16_THREE, out=m.zeros(4)),
])
def test_shape_errors_of_float16_and_complex_loops(call):
    """NumPy's broadcasting errors for float16 and complex loops."""
    with pytest.raises(ValueError):
        call(np)
    with pytest.raises(ValueError):
        call(lnp)


@pytest.mark.parametrize("dtype", S.INTEGER)
@pytest.mark.parametrize("value", [2**70, -2**70, 2**63, 2**64 - 1, 2**64, -2**63 - 1, 2**63 - 1,
                                   -2**63, 300])
def test_out_of_range_python_int_overflow_message_is_numpys(dtype, value):
    x = np.arange(3, dtype=dtype)
    for op in (lambda a: a + value, lambda a: value * a, lambda a: np.maximum(a, value)):
        try:
            op(x)
        except OverflowError as exc:
            with pytest.raises(OverflowError) as ours:
                op(lnp.asarray(x))
            assert str(ours.value) == str(exc)
        else:
            S.assert_same(op(lnp.asarray(x)), op(x))


# -- power: NumPy's fast exponents and its result types ----------------------------------

POWER_BASES = [-0.0, 0.0, -np.inf, np.inf, np.nan, -2.0, 4.0, -1.0, 1.0, 3.0, 0.7, 1e30, -0.5]
# How the exponent reaches power.  NumPy's float loop takes its fast cases (-1, 0, 0.5, 1
# and 2 as 1/x, 1, sqrt, x, x*x) only when the exponent's stride is 0, and its ``**``
# operator calls reciprocal/sqrt/square for an exact Python -1, 0.5 or 2.
POWER_FORMS = {
    "operator": lambda m, x, e, dt: x ** e,
    "ufunc": lambda m, x, e, dt: m.power(x, e),
    "0-d": lambda m, x, e, dt: m.power(x, m.asarray(np.asarray(e, dt))),
    "size 1": lambda m, x, e, dt: m.power(x, m.asarray(np.full(1, e, dt))),
    "(1, 1) against 2-d": lambda m, x, e, dt: m.power(x.reshape(13, 1) * m.ones(2, dt), m.asarray(np.full((1, 1), e, dt))),
    "same shape": lambda m, x, e, dt: m.power(x, m.asarray(np.full(13, e, dt))),
    "(13, 1) against 2-d": lambda m, x, e, dt: m.power(x.reshape(13, 1) * m.ones(2, dt), m.asarray(np.full((13, 1), e, dt))),
    "(1,) and (1,)": lambda m, x, e, dt: m.power(x[4:5], m.asarray(np.full(1, e, dt))),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("form", sorted(POWER_FORMS))
@pytest.mark.parametrize("exponent", [0.5, 2, -1, 2.0, -1.0, 1, 1.0, 0, 0.0, -0.0, 3, -3.0, 4.0,
                                      1.3, -0.5, np.inf, -np.inf, np.float64(0.5), True, np.nan])
def test_power_special_exponents_follow_numpy(exponent, form, dtype):
    """``(-0.0) ** 0.5`` is -0.0 and ``(-inf) ** 0.5`` NaN where NumPy takes sqrt, 0.0 and
    inf where it calls pow (an exponent array of the output's shape); float32
    ``1e30 ** -1`` is the division's result.  Exact where NumPy's answer is an exact
    operation, a few ULPs apart where both call a pow; pow's signs and NaNs for negative
    bases, -0.0 and infinities are C's (odd integer exponents keep the sign)."""
    fn = POWER_FORMS[form]
    base = np.array(POWER_BASES, dtype)
    with np.errstate(all="ignore"):
        expected = np.asarray(fn(np, base, exponent, dtype))
    got = np.asarray(fn(lnp, lnp.asarray(base), exponent, dtype))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))
    exact = exponent in (-1, 0, 0.5, 1, 2) and "shape" not in form and "(13, 1)" not in form \
        and form != "(1,) and (1,)"
    np.testing.assert_allclose(got, expected, rtol=0 if exact else 4 * np.finfo(dtype).eps, atol=0)


POWER_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                "float32", "float64"]
POWER_SCALARS = [2, -1, 3, 0, 0.5, 2.0, -1.0, 1.5, True, False, 2**40, -2**40]


def _power_operand(dtype):
    return np.array([True, False, True] if dtype == "bool" else [1, 2, 3], dtype)


@pytest.mark.parametrize("left", POWER_DTYPES)
def test_power_result_types_match_numpy_for_every_operand_pair(left):
    """``a ** b``, ``np.power``, the reflected operator and ``**=`` over every dtype pair
    and weak Python scalars: NumPy's dtype (``bool_array ** 2`` is NumPy's square: int8),
    values, or exception type."""
    a = _power_operand(left)
    for right in [_power_operand(d) for d in POWER_DTYPES] + POWER_SCALARS:
        lazy_right = lnp.asarray(right) if isinstance(right, np.ndarray) else right
        check_against_numpy(lambda: lnp.asarray(a) ** lazy_right, lambda: a ** right)
        check_against_numpy(lambda: lnp.power(lnp.asarray(a), lazy_right), lambda: np.power(a, right))
        check_against_numpy(lambda: lazy_right ** lnp.asarray(a), lambda: right ** a)

        def inplace(m, target):
            target **= lazy_right if m is lnp else right
            return target
        check_against_numpy(lambda: inplace(lnp, lnp.asarray(a)), lambda: inplace(np, a.copy()))


def test_power_operator_calls_numpys_unary_ufuncs_for_exact_python_exponents():
    x = lnp.asarray(np.array([True, False]))
    assert (x ** 2).dtype == np.int8 and lnp.power(x, 2).dtype == np.int64
    with pytest.raises(np._core._exceptions._UFuncOutputCastingError, match="square"):
        x **= 2
    y = lnp.asarray(np.array([-0.0, -np.inf], np.float32))
    for got in (y ** 0.5, lnp.sqrt(y)):
        assert got.dtype == np.float32 and np.signbit(np.asarray(got)[0])
        assert np.isnan(np.asarray(got)[1])


@pytest.mark.parametrize("name", ["maximum", "minimum"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_maximum_minimum_of_signed_zeros_and_nans_are_numpys(name, dtype):
    """A tie of signed zeros gives NumPy's second operand and a NaN in either propagates
    (the llvm backend's IEEE maximum/minimum intrinsics ordered -0.0 below +0.0)."""
    a = np.array([-0.0, 0.0, np.nan, 1.0, -0.0, np.nan] * 4, dtype=dtype)
    b = np.array([0.0, -0.0, 1.0, np.nan, -0.0, np.nan] * 4, dtype=dtype)
    expected = getattr(np, name)(a, b)
    got = np.asarray(getattr(lnp, name)(lnp.asarray(a), lnp.asarray(b)))
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))
