"""Differential tests of lazynum.mathfuncs against NumPy: where, clip, rounding, nan_to_num,
isclose/allclose, array_equal/array_equiv, real/imag helpers, sinc, isposinf/isneginf."""
import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import lazynum as lnp

from . import strategies as S
from .test_ufuncs import check_against_numpy, operands, python_scalars


def _quiet(fn):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


# -- where -------------------------------------------------------------------------------

@given(data=st.data())
@settings(max_examples=80)
def test_where_matches_numpy(data):
    np_ops, lazy_ops = data.draw(operands(3, max_dims=3))
    if not isinstance(np_ops[0], np.ndarray):     # the condition: any dtype, as NumPy takes it
        np_ops[0] = lazy_ops[0] = data.draw(st.booleans())
    if all(isinstance(o, (int, float)) for o in np_ops[1:]):
        return          # two huge Python ints: NumPy's own conversion rules for objects
    lnp.reset_metrics()
    result = check_against_numpy(lambda: lnp.where(*lazy_ops), lambda: np.where(*np_ops))
    if result is not None:
        assert lnp.metrics()["syncs"] == 1      # only the comparison's own np.asarray


@pytest.mark.parametrize("value", [300, -129, 255, 2**63, 2**64, 2**70, 1.5, True, -1])
@pytest.mark.parametrize("dtype", S.INTEGER + S.FLOAT)
def test_where_with_python_scalars_uses_numpys_conversion(value, dtype):
    x = np.array([1, 2, 3], dtype)
    cond = np.array([True, False, True])
    check_against_numpy(lambda: lnp.where(lnp.asarray(cond), lnp.asarray(x), value),
                        lambda: np.where(cond, x, value))
    check_against_numpy(lambda: lnp.where(lnp.asarray(cond), value, lnp.asarray(x)),
                        lambda: np.where(cond, value, x))


def test_where_one_argument_is_nonzero_and_argument_errors():
    x = np.array([[0, 3], [4, 0]])
    got = lnp.where(lnp.asarray(x))
    assert isinstance(got, tuple) and len(got) == 2
    for g, e in zip(got, np.where(x)):
        S.assert_same(g, e)
    with pytest.raises(ValueError, match="both or neither"):
        lnp.where(lnp.asarray(x), 1)
    with pytest.raises(ValueError, match="broadcast"):
        lnp.where(lnp.ones(3, bool), lnp.ones(2), 0)
    S.assert_same(np.where(lnp.asarray(x) > 0, x, -1.5), np.where(x > 0, x, -1.5))  # dispatch


# -- clip ------------------------------------------------------------------------------

bounds = st.one_of(st.none(), python_scalars)


@given(data=st.data())
@settings(max_examples=80)
def test_clip_matches_numpy(data):
    base, lazy = data.draw(S.lazy_views(S.arrays(S.every_dtype, S.shapes(max_dims=3), finite=False)))
    kinds = data.draw(st.sampled_from(["scalars", "arrays", "keywords"]))
    if kinds == "arrays":
        shape = base.shape[data.draw(st.integers(0, base.ndim)):]
        lo_np, lo = data.draw(S.lazy_views(S.arrays(S.every_dtype, st.just(shape))))
        hi_np, hi = data.draw(st.one_of(st.just((None, None)), S.lazy_views(
            S.arrays(S.every_dtype, st.just(shape)))))
        check_against_numpy(lambda: lnp.clip(lazy, lo, hi), lambda: np.clip(base, lo_np, hi_np))
        return
    lo, hi = data.draw(bounds), data.draw(bounds)
    if kinds == "keywords":
        check_against_numpy(lambda: lnp.clip(lazy, min=lo, max=hi),
                            lambda: np.clip(base, min=lo, max=hi))
        check_against_numpy(lambda: lazy.clip(lo, hi), lambda: base.clip(lo, hi))
    else:
        check_against_numpy(lambda: lnp.clip(lazy, lo, hi), lambda: np.clip(base, lo, hi))


@pytest.mark.parametrize("lo, hi", [(False, np.nan), (np.nan, 0), (complex(np.nan, 1), 5),
                                    (complex(1.5, np.nan), 2 + 1j), (0, complex(1, np.nan)),
                                    (complex(0, np.nan), complex(5, np.nan)), (0, 5 + 1j),
                                    (1.5 + 1j, 2 + 0.5j), (2 + 0j, 1 + 0j)])
def test_clip_of_complex_follows_numpys_extremes(lo, hi):
    # CI (hypothesis) and the fuzzer (seed 230731) found it: NumPy's complex clip keeps x when
    # x is NaN or lexicographically beyond the bound (a NaN imaginary part of a bound decides
    # only on a tie of real parts), so clip(3.5+2.5j, 1.5+nanj, 2+1j) is 2+1j
    a = np.array([0j, 1 + 2j, 3 - 1j, 3.5 + 2.5j, 1.7 + 0j, complex(5, np.nan),
                  complex(np.nan, 1), complex(0, np.nan), 2 + 1j], np.complex64)
    with np.errstate(invalid="ignore"):
        expected = np.clip(a, lo, hi)
    with lnp.errstate(invalid="ignore"):
        S.assert_same(lnp.clip(lnp.asarray(a), lo, hi), expected)


def test_clip_arguments_out_and_errors():
    x = np.arange(-3.0, 4.0)
    lx = lnp.asarray(x)
    with pytest.raises(TypeError, match="a_max"):
        lnp.clip(lx, 1)
    with pytest.raises(ValueError, match="forbidden"):
        lnp.clip(lx, 0, 1, min=0)
    S.assert_same(lnp.clip(lx), np.clip(x))
    S.assert_same(lnp.clip(lx, max=1), np.clip(x, max=1))
    out = lnp.zeros(7)
    assert lnp.clip(lx, -1, 1, out=out) is out
    S.assert_same(out, np.clip(x, -1, 1))
    with pytest.raises(TypeError):
        lnp.clip(lx, -1, 1, out=lnp.zeros(7, np.int64))
    S.assert_same(lnp.clip(lnp.asarray(np.arange(5, dtype=np.int8)), 1, 300),
                  np.clip(np.arange(5, dtype=np.int8), 1, 300))
    with pytest.raises(TypeError):
        lnp.clip(lnp.asarray(np.array([True, False])), None, None)
    S.assert_same(np.clip(lx, 0, 2), np.clip(x, 0, 2))             # __array_function__


# -- rounding -----------------------------------------------------------------------------

@given(pair=S.lazy_views(S.arrays(S.every_dtype, S.shapes(max_dims=3), finite=False)),
       decimals=st.one_of(st.integers(-4, 4), st.sampled_from([-400, -20, 20, 400])))
@settings(max_examples=100)
def test_round_matches_numpy(pair, decimals):
    base, lazy = pair
    check_against_numpy(lambda: lnp.round(lazy, decimals), lambda: np.round(base, decimals))
    check_against_numpy(lambda: lnp.around(lazy, decimals), lambda: np.around(base, decimals))
    check_against_numpy(lambda: lazy.round(decimals), lambda: base.round(decimals))


def test_round_out_and_identity_of_int_results():
    x = np.array([1.25, 2.5, -3.75, 0.125], np.float32)
    out = lnp.zeros(4, np.float32)
    assert lnp.round(lnp.asarray(x), 2, out=out) is out
    S.assert_same(out, np.round(x, 2), rtol=0.0)
    out64 = lnp.zeros(4)
    assert lnp.round(lnp.asarray(x), 1, out=out64) is out64
    S.assert_same(out64, np.round(x, 1, out=np.zeros(4)), rtol=0.0)
    i = lnp.asarray(np.arange(5))
    r = lnp.round(i)
    assert r is not i
    with pytest.raises(TypeError):
        lnp.round(lnp.asarray(x), -1, out=lnp.zeros(4, np.int64))
    S.assert_same(lnp.round(lnp.asarray(np.array([True]))), np.round(np.array([True])))  # float16


@given(pair=S.lazy_views(S.arrays(S.every_dtype, finite=False)))
@settings(max_examples=40)
def test_fix_matches_numpy(pair):
    base, lazy = pair
    check_against_numpy(lambda: lnp.fix(lazy), lambda: np.fix(base))


# -- NaN and infinity ---------------------------------------------------------------------

@given(pair=S.lazy_views(S.arrays(S.every_dtype, finite=False)),
       nan=st.sampled_from([0.0, -1, 5.5, float("inf")]),
       posinf=st.sampled_from([None, 1e3, 7]), neginf=st.sampled_from([None, -2.5, -1e40]))
@settings(max_examples=60)
def test_nan_to_num_matches_numpy(pair, nan, posinf, neginf):
    base, lazy = pair
    check_against_numpy(lambda: lnp.nan_to_num(lazy, nan=nan, posinf=posinf, neginf=neginf),
                        lambda: np.nan_to_num(base, nan=nan, posinf=posinf, neginf=neginf))


def test_nan_to_num_copy_false_writes_in_place():
    x = np.array([np.nan, np.inf, -np.inf, 2.0])
    base = lnp.asarray(np.stack([x, x]))
    view = base[1]
    got = lnp.nan_to_num(view, copy=False)
    assert got is view
    S.assert_same(base, np.stack([x, np.nan_to_num(x)]))
    ints = lnp.asarray(np.arange(3))
    assert lnp.nan_to_num(ints, copy=False) is ints


@given(pair=S.lazy_views(S.arrays(S.every_dtype, finite=False)))
@settings(max_examples=40)
def test_isposinf_isneginf_match_numpy(pair):
    base, lazy = pair
    check_against_numpy(lambda: lnp.isposinf(lazy), lambda: np.isposinf(base))
    check_against_numpy(lambda: lnp.isneginf(lazy), lambda: np.isneginf(base))


# -- closeness and equality -------------------------------------------------------------------

@st.composite
def close_pairs(draw):
    """Two arrays (or an array and a Python scalar) that are often close, sometimes NaN."""
    np_ops, lazy_ops = draw(operands(2, max_dims=3))
    if isinstance(np_ops[0], np.ndarray) and isinstance(np_ops[1], np.ndarray) and draw(st.booleans()):
        np_ops[1] = _quiet(lambda: (np_ops[0] * (1 + 1e-7)).astype(np_ops[0].dtype)) \
            if np_ops[0].dtype.kind == "f" else np_ops[0].copy()
        np_ops[1] = np.broadcast_to(np_ops[1], np_ops[1].shape).copy()
        lazy_ops[1] = lnp.asarray(np_ops[1])
    return np_ops, lazy_ops


@given(pair=close_pairs(), rtol=st.sampled_from([1e-5, 0.0, 0.1]),
       atol=st.sampled_from([1e-8, 0.0, 1.0]), equal_nan=st.booleans())
@settings(max_examples=80)
def test_isclose_and_allclose_match_numpy(pair, rtol, atol, equal_nan):
    np_ops, lazy_ops = pair
    kw = dict(rtol=rtol, atol=atol, equal_nan=equal_nan)
    check_against_numpy(lambda: lnp.isclose(*lazy_ops, **kw), lambda: np.isclose(*np_ops, **kw))
    try:
        expected = _quiet(lambda: np.allclose(*np_ops, **kw))
    except Exception as exc:  # noqa: BLE001
        with pytest.raises(type(exc)):
            lnp.allclose(*lazy_ops, **kw)
        return
    got = lnp.allclose(*lazy_ops, **kw)
    assert type(got) is bool and got == expected


@given(pair=close_pairs(), equal_nan=st.booleans())
@settings(max_examples=80)
def test_array_equal_and_array_equiv_match_numpy(pair, equal_nan):
    np_ops, lazy_ops = pair
    got = lnp.array_equal(*lazy_ops, equal_nan=equal_nan)
    assert type(got) is bool
    assert got == _quiet(lambda: np.array_equal(*np_ops, equal_nan=equal_nan))
    got = lnp.array_equiv(*lazy_ops)
    assert type(got) is bool and got == _quiet(lambda: np.array_equiv(*np_ops))


def test_equality_helpers_sync_once_and_accept_anything():
    x = lnp.asarray(np.arange(6.0).reshape(2, 3))
    lnp.reset_metrics()
    assert lnp.allclose(x, x + 1e-12) is True
    assert lnp.metrics()["syncs"] == 1
    assert lnp.array_equal(x, x, equal_nan=True) is True
    assert lnp.array_equal(x, lnp.ones(3)) is False           # shapes differ: no sync
    assert lnp.array_equal(x, "not an array") is False
    assert lnp.array_equiv(lnp.asarray([[0.0, 1, 2], [0, 1, 2]]), np.arange(3.0)) is True
    assert lnp.array_equiv(x, np.arange(2.0)) is False
    assert np.allclose(x, np.arange(6.0).reshape(2, 3)) is True   # __array_function__
    assert lnp.allclose(lnp.asarray([np.nan]), [np.nan]) is False
    assert lnp.allclose(lnp.asarray([np.nan]), [np.nan], equal_nan=True) is True


# -- real / imag / complex predicates ----------------------------------------------------------

@given(pair=S.lazy_views(S.arrays(S.every_dtype)))
@settings(max_examples=30)
def test_real_imag_and_predicates_match_numpy(pair):
    base, lazy = pair
    for name in ("real", "imag", "isreal", "iscomplex", "real_if_close", "conj", "conjugate"):
        check_against_numpy(lambda: getattr(lnp, name)(lazy), lambda: getattr(np, name)(base))
    check_against_numpy(lambda: lazy.real, lambda: base.real)
    check_against_numpy(lambda: lazy.imag, lambda: base.imag)
    check_against_numpy(lambda: lazy.conj(), lambda: base.conj())
    check_against_numpy(lambda: lazy.conjugate(), lambda: base.conjugate())
    if base.dtype.kind != "c":
        assert lazy.conj() is lazy            # NumPy returns a real array itself
    assert lnp.isrealobj(lazy) is np.isrealobj(base)
    assert lnp.iscomplexobj(lazy) is np.iscomplexobj(base)


def test_real_is_a_writable_view_and_imag_is_read_only():
    a = lnp.asarray(np.arange(4.0))
    r = lnp.real(a)
    r[0] = 10.0
    assert a.tolist() == [10.0, 1.0, 2.0, 3.0]
    im = a.imag
    assert im.flags["WRITEABLE"] is False
    with pytest.raises(ValueError, match="read-only"):
        im[0] = 1.0
    assert lnp.real(3) == 3 and lnp.imag(2.5) == 0.0
    assert lnp.iscomplexobj(1 + 2j) and lnp.isrealobj([1, 2]) and not lnp.iscomplexobj(np.ones(2))
    assert lnp.isreal(3) is True


@given(pair=S.lazy_views(S.arrays(S.every_dtype, finite=False)))
@settings(max_examples=40)
def test_sinc_matches_numpy(pair):
    base, lazy = pair
    check_against_numpy(lambda: lnp.sinc(lazy), lambda: np.sinc(base))


def test_mathfuncs_trace_without_syncing():
    x = lnp.asarray(np.linspace(-2.0, 2.0, 9))
    lnp.reset_metrics()
    results = [lnp.where(x > 0, x, 0.0), lnp.clip(x, -1, 1), lnp.round(x, 1), lnp.fix(x),
               lnp.nan_to_num(x / 0.0), lnp.isclose(x, 0.5), lnp.sinc(x), lnp.real(x),
               lnp.imag(x), lnp.isposinf(x)]
    assert all(isinstance(r, lnp.ndarray) for r in results)
    assert lnp.metrics()["syncs"] == 0


def test_isclose_keeps_python_scalar_tolerances_weak_like_numpy():
    # rtol * abs(b) is a Python float in NumPy: compared with a float32 difference it stays
    # weak (NEP 50), which decides the result near float32's overflow limit.
    a, b = np.array(0.0, np.float32), 3.4028235677973366e+43
    with np.errstate(over="ignore"):
        expected = np.isclose(a, b)
        got = np.asarray(lnp.isclose(lnp.asarray(a), b))
    assert got.dtype == expected.dtype and got.shape == expected.shape and got == expected


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_clip_keeps_the_sign_of_a_zero_on_a_tie_and_propagates_nan_as_numpy(dtype):
    """NumPy's clip keeps x when it is not strictly outside the bounds (clip(-0.0, -1, 0)
    is -0.0, where minimum(-0.0, 0.0) is 0.0), gives NaN for a NaN anywhere and high when
    low > high."""
    values = np.array([np.nan, -5.0, -1.0, -0.0, 0.0, 0.5, 1.0, 5.0] * 3, dtype=dtype)
    for low, high in itertools.product([np.nan, -1.0, -0.0, 0.0, 1.0], repeat=2):
        expected = np.clip(values, low, high)
        got = np.asarray(lnp.clip(lnp.asarray(values), low, high))
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))


def test_clip_into_a_read_only_output_is_a_value_error_before_its_casting_error():
    # fuzz seed 420676: clip(bool view, 1, -1, out=the read-only broadcast view) raised the
    # casting TypeError; NumPy checks that the output is writable first (ValueError)
    x = np.zeros((3, 1), dtype=bool)
    view = lnp.broadcast_to(lnp.asarray(x), (3, 2))
    with pytest.raises(ValueError):
        np.clip(np.broadcast_to(x, (3, 2)), 1, -1, out=np.broadcast_to(x, (3, 2)))
    with pytest.raises(ValueError, match="read-only"):
        lnp.clip(view, 1, -1, out=view)


@pytest.mark.parametrize("dtype", [np.uint16, np.int8, np.complex128, np.float32])
@pytest.mark.parametrize("decimals", [0, 1, -1])
def test_round_keeps_the_memory_order_of_its_input(dtype, decimals):
    # fuzz seed 449434: round of a transposed integer array was C-ordered, so its ravel was
    # a view that a later write to the result reached; NumPy's is a copy in order 'K'
    x = np.arange(6).reshape(1, 2, 3).astype(dtype)
    got, want = lnp.round(lnp.asarray(x).T, decimals), np.round(x.T, decimals)
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == (want.flags.c_contiguous, want.flags.f_contiguous)
    flat, numpy_flat = got.ravel(), want.ravel()
    got += 3
    want += 3
    np.testing.assert_array_equal(np.asarray(flat), numpy_flat)
    np.testing.assert_array_equal(np.asarray(got), want)
