"""Dtypes and NumPy 2 (NEP 50) promotion: every dtype pair, weak Python scalars, NumPy
scalars (strong), casts, and the dtypes lazynum refuses."""
import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings

import lazynum as lnp
from lazynum.expr import dtypes

from . import strategies as S

PAIRS = list(itertools.product(S.EVERY, S.EVERY))
WEAK = [True, False, 0, 1, -1, 127, 128, 255, 256, -129, 2**31, 2**63 - 1, 2**63, -2**63 - 1,
        2**64, 0.5, -0.0, 1e300, float("nan"), float("inf")]


def _sample(dtype):
    if dtype.kind == "b":
        return np.array([True, False, True])
    if dtype.kind == "u":
        return np.array([0, 1, 7], dtype)
    return np.array([-3, 0, 5], dtype)


@pytest.mark.parametrize("left, right", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_promotion_table_matches_numpy(left, right):
    expected = np.result_type(left, right)
    assert lnp.result_type(left, right) == expected
    assert lnp.promote_types(left, right) == np.promote_types(left, right)
    a, b = lnp.asarray(_sample(left)), lnp.asarray(_sample(right))
    assert lnp.result_type(a, b) == expected
    # Every array-array op lands on NumPy's dtype: arithmetic, comparison, where.
    for name in ("add", "multiply", "maximum", "equal", "divide", "arctan2"):
        with np.errstate(all="ignore"):
            try:
                want = getattr(np, name)(_sample(left), _sample(right)).dtype
            except TypeError:
                with pytest.raises(TypeError):
                    getattr(lnp, name)(a, b)
                continue
        if want == np.float16:
            continue        # documented: lazynum has no float16
        assert getattr(lnp, name)(a, b).dtype == want, name
    assert lnp.where(True, a, b).dtype == np.where(True, _sample(left), _sample(right)).dtype


@pytest.mark.parametrize("dtype", S.EVERY)
@pytest.mark.parametrize("value", WEAK, ids=repr)
def test_weak_python_scalars_match_numpy(dtype, value):
    x = _sample(dtype)
    lazy = lnp.asarray(x)
    try:
        assert lnp.result_type(lazy, value) == np.result_type(x, value)
    except (TypeError, OverflowError) as exc:
        with pytest.raises(type(exc)):
            np.result_type(x, value)
    for op in (lambda a, v: a + v, lambda a, v: v * a, lambda a, v: a < v,
               lambda a, v: np.maximum(a, v), lambda a, v: a / v):
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                expected = op(x, value)
            except Exception as exc:  # noqa: BLE001
                with pytest.raises(type(exc)):
                    np.asarray(op(lazy, value))
                continue
            if expected.dtype == np.float16:
                continue
            got = np.asarray(op(lazy, value))
        S.assert_same(got, expected, rtol=0.0)


@pytest.mark.parametrize("scalar_type", [np.bool_, np.int8, np.uint8, np.int16, np.int32,
                                         np.int64, np.uint64, np.float32, np.float64])
@pytest.mark.parametrize("dtype", S.EVERY)
def test_numpy_scalars_are_strong(scalar_type, dtype):
    x = _sample(dtype)
    s = scalar_type(1)
    for op in (lambda a, v: a + v, lambda a, v: v + a, lambda a, v: v < a):
        with np.errstate(all="ignore"):
            try:
                expected = op(x, s)
            except TypeError:
                with pytest.raises(TypeError):
                    op(lnp.asarray(x), s)
                continue
        S.assert_same(op(lnp.asarray(x), s), expected)


@given(pair=S.lazy_views(S.arrays(S.every_dtype, finite=False)), target=S.every_dtype)
@settings(max_examples=60)
def test_astype_matches_numpy(pair, target):
    base, lazy = pair
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = base.astype(target)
        if base.dtype.kind == "f" and target.kind in "iu":
            # float -> int of NaN/inf/out-of-range values is undefined in C (NumPy's
            # result is platform-specific): compare the in-range ones only.
            info = np.iinfo(target)
            ok = np.isfinite(base) & (base > info.min - 1.0) & (base < info.max + 1.0)
            got = np.asarray(lazy.astype(target))
            assert got.dtype == target and got.shape == expected.shape
            np.testing.assert_array_equal(got[ok], expected[ok])
            return
        S.assert_same(lazy.astype(target), expected, rtol=0.0)


def test_astype_casting_rule_errors_match_numpy():
    x = lnp.asarray(np.arange(3.0))
    with pytest.raises(TypeError):
        x.astype(np.int64, casting="safe")
    assert x.astype(np.float32, casting="same_kind").dtype == np.float32
    assert lnp.astype(x, np.int8).dtype == np.int8


@pytest.mark.parametrize("bad", [object, "U3", "datetime64[s]", np.longdouble])
def test_dtypes_with_no_lazy_form_are_numpy_backed(bad):
    with pytest.raises(dtypes.UnsupportedDtype, match="does not support"):
        dtypes.normalize(bad)           # the front end's refusal, a TypeError ...
    for x in (lnp.zeros(3, dtype=bad), lnp.asarray(np.zeros(3, dtype=bad))):
        # ... that the namespace answers with a NumPy-backed array (test_exotic_dtypes)
        assert isinstance(x, lnp.ndarray) and x.dtype == np.dtype(bad)


def test_complex_python_scalars_are_weak():
    x = lnp.asarray(np.arange(3.0, dtype=np.float32))
    assert (x + 1j).dtype == np.complex64
    assert lnp.asarray([1 + 2j]).dtype == np.complex128
    S.assert_same(np.asarray(x * 1j), np.arange(3.0, dtype=np.float32) * 1j, rtol=0.0)


def test_dtype_names_are_numpys():
    for name in ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float32", "float64", "intp", "uintp", "float_", "int_", "double",
                 "single"):
        assert getattr(lnp, name) is getattr(dtypes, name)
        assert np.dtype(getattr(lnp, name)) in dtypes.SUPPORTED
    assert lnp.bool is np.bool_
    assert lnp.dtype is np.dtype and lnp.finfo is np.finfo and lnp.iinfo is np.iinfo
    assert lnp.issubdtype(lnp.int8, lnp.integer) and not lnp.issubdtype(lnp.float32, lnp.integer)
    assert lnp.can_cast(np.int8, np.float32) and not lnp.can_cast(np.float64, np.int8)
    assert len(dtypes.SUPPORTED) == 14
    assert lnp.float16 is np.float16 and lnp.complex64 is np.complex64
    assert lnp.complex128 is np.complex128 and lnp.half is np.half


@pytest.mark.parametrize("dtype", S.EVERY)
def test_default_dtypes_of_python_values(dtype):
    assert lnp.asarray(1).dtype == np.asarray(1).dtype
    assert lnp.asarray(1.0).dtype == np.float64
    assert lnp.asarray(True).dtype == np.bool_
    assert lnp.asarray([1, 2.5]).dtype == np.float64
    assert lnp.asarray(2**63).dtype == np.uint64
    assert lnp.asarray(_sample(dtype)).dtype == dtype
    assert lnp.zeros(2).dtype == np.float64 and lnp.ones(2, dtype).dtype == dtype
