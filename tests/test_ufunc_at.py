"""ufunc.at beyond add/subtract (multiply, minimum, maximum, fmin, fmax, bitwise_and/or/xor,
logical_and/or): a lazy ``scatter_reduce`` against NumPy's own ``at`` on both backends:
repeated indices, NaNs, every int/float dtype, index forms, broadcast and 0-d values, no
sync or fallback before the read, and one scatter kernel where add.at is one."""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp

from . import strategies as S
from .compile.llvm_harness import on_llvm
from .strategies import rngs, st

ARITHMETIC = ("multiply", "minimum", "maximum", "fmin", "fmax")
BITWISE = ("bitwise_and", "bitwise_or", "bitwise_xor")


def _values(rng, n, dtype, nans):
    if dtype.kind == "f":
        # multiply: factors near 1 (parts combine in another association: no overflow)
        out = rng.uniform(0.5, 2.0, n) * rng.choice([-1, 1], n)
        if nans:
            out[rng.random(n) < 0.2] = np.nan
        return out.astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -100), min(info.max, 100), n, endpoint=True).astype(dtype)


def _no_sync_at(name, base, idx, values):
    """``lnp.<name>.at`` on pending arrays; asserts nothing synced or fell back."""
    lazy = lnp.asarray(base) * base.dtype.type(1) if base.dtype != bool else lnp.asarray(base) | False
    lnp.reset_metrics()
    if values is None:
        getattr(lnp, name).at(lazy, idx)
    else:
        getattr(lnp, name).at(lazy, idx, values)
    metrics = lnp.metrics()
    assert metrics["syncs"] == 0 and metrics["fallbacks"] == 0, lnp.metrics_report()
    return lazy


@given(name=st.sampled_from(ARITHMETIC + BITWISE), dtype=S.numeric_dtypes, rng=rngs(),
       n=st.integers(0, 60), size=st.integers(1, 12), negative=st.booleans(), nans=st.booleans())
def test_repeated_indices_match_numpy(name, dtype, rng, n, size, negative, nans):
    if name in BITWISE and dtype.kind == "f":
        dtype = np.dtype(np.int32)
    idx = rng.integers(-size if negative else 0, size, n)
    base, values = _values(rng, size, dtype, nans), _values(rng, n, dtype, nans)
    expected = base.copy()
    with np.errstate(all="ignore"):
        getattr(np, name).at(expected, idx, values)
    lazy_values = lnp.asarray(values) * dtype.type(1)
    lazy = _no_sync_at(name, base, lnp.asarray(idx), lazy_values)
    S.assert_same(lazy, expected)


@pytest.mark.parametrize("name", ["minimum", "maximum", "fmin", "fmax"])
def test_nan_rules_match_numpy(name):
    base = np.array([1.0, np.nan, 3.0, 4.0, np.nan])
    idx = np.array([0, 0, 1, 2, 2, 3, 4])
    values = np.array([np.nan, 5.0, 2.0, np.nan, 1.0, -1.0, np.nan])
    expected = base.copy()
    with np.errstate(invalid="ignore"):
        getattr(np, name).at(expected, idx, values)
    S.assert_same(_no_sync_at(name, base, lnp.asarray(idx), lnp.asarray(values) + 0.0), expected)


@pytest.mark.parametrize("name", ["logical_and", "logical_or", *BITWISE])
def test_bool_arrays(name):
    base = np.array([True, False, True, False])
    idx, values = np.array([0, 0, 1, 3, 3]), np.array([True, False, True, True, True])
    expected = base.copy()
    getattr(np, name).at(expected, idx, values)
    S.assert_same(_no_sync_at(name, base, lnp.asarray(idx), lnp.asarray(values) | False), expected)


@pytest.mark.parametrize("key", [
    ([0, 0, 2], [1, 1, 3]), (slice(None), [0, 0]), (slice(1, None), 2), [-1, -1, 0],
    (np.array([[0, 1], [1, 1]]), slice(None, None, 2))])
@pytest.mark.parametrize("name", ["multiply", "maximum"])
def test_index_forms_broadcast_and_0d_values(key, name):
    x = np.arange(12.0).reshape(3, 4) - 5.0
    for b in (np.float64(1.5), np.array(2.0), np.array([0.5, 3.0, -2.0, 1.25])[:1]):
        expected = x.copy()
        getattr(np, name).at(expected, key, b)
        S.assert_same(_no_sync_at(name, x, key, lnp.asarray(b)), expected)
    expected = x.copy()
    getattr(np, name).at(expected, key, 3)          # a weak Python scalar
    S.assert_same(_no_sync_at(name, x, key, 3), expected)


def test_loops_in_another_dtype_match_numpy():
    # int8 products through an int64 loop wrap either way: lazy; float32 extremes through a
    # float64 loop round monotonically: lazy; a float loop into ints is NumPy's own at
    cases = [("multiply", np.int8, np.array([100, 3, -7], np.int64), 0),
             ("maximum", np.float32, np.array([0.1, 2.5, -1.0]), 0),
             ("bitwise_xor", np.uint8, np.array([257, 3, 1024], np.int64), 0),
             ("multiply", np.int32, np.array([1.5, 2.5, 0.5]), 1)]
    for name, dtype, values, fallbacks in cases:
        base = np.arange(1, 5).astype(dtype)
        expected = base.copy()
        getattr(np, name).at(expected, [0, 0, 3], values)
        lazy = lnp.asarray(base) + dtype(0)
        lnp.reset_metrics()
        getattr(lnp, name).at(lazy, [0, 0, 3], lnp.asarray(values))
        assert lnp.metrics()["fallbacks"] == fallbacks, name
        S.assert_same(lazy, expected)


@pytest.mark.parametrize("dtype, name, value", [
    (np.uint8, "add", 300), (np.uint16, "minimum", -1), (np.uint16, "multiply", -1),
    (np.uint64, "add", False), (np.int8, "maximum", 2.7), (np.float32, "add", 1e40)])
def test_python_scalars_are_strong_in_at(dtype, name, value):
    # Fuzz findings (seeds 170006, 170043): NumPy's at converts a Python scalar to an array
    # (int64/float64/bool), so -1 into uint16 is no OverflowError and 300 into uint8 wraps;
    # a Python bool raised TypeError inside lazynum
    expected = np.arange(1, 5).astype(dtype)
    with np.errstate(all="ignore"):
        getattr(np, name).at(expected, [0, 0, -1], value)
    lazy = lnp.asarray(np.arange(1, 5).astype(dtype))
    with lnp.errstate(all="ignore"):
        getattr(lnp, name).at(lazy, [0, 0, -1], value)
        S.assert_same(lazy, expected)


def test_errors_match_numpy():
    x = np.ones(4)
    with pytest.raises(TypeError):              # as NumPy: a binary ufunc needs b
        lnp.maximum.at(lnp.asarray(x), [0])
    with pytest.raises(IndexError):             # host indices: at the call, as NumPy
        lnp.maximum.at(lnp.asarray(x), [4], 1.0)
    with pytest.raises(ValueError):             # values do not broadcast to the selection
        lnp.maximum.at(lnp.asarray(x), [0, 1], lnp.asarray([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError):             # a read-only target
        lnp.multiply.at(lnp.broadcast_to(lnp.asarray(1.0), (4,)), [0], 2.0)


def test_out_of_bounds_lazy_indices_raise_at_the_sync_and_leave_the_array():
    a = lnp.zeros(4) + 1.0
    lnp.minimum.at(a, lnp.asarray(np.array([0, 4])) * 1, -1.0)
    with pytest.raises(IndexError, match="test_ufunc_at"):
        np.asarray(a)
    S.assert_same(a, np.ones(4))


def test_a_numpy_target_stays_numpys():
    target = np.arange(4.0)
    lnp.maximum.at(target, [1, 1], lnp.asarray(9.0))
    S.assert_same(target, np.array([0.0, 9.0, 2.0, 3.0]))


def _scatter_kernel_counts(name):
    rng = np.random.default_rng(7)
    x, w = rng.integers(0, 16, 50_000), rng.uniform(0.5, 2.0, 50_000)
    with on_llvm() as programs:
        target = lnp.ones(16) * 1.0
        getattr(lnp, name).at(target, lnp.asarray(x) % 16, lnp.asarray(w) * 1.0)
        np.asarray(target)
    (program,) = programs
    expected = np.ones(16)
    getattr(np, name).at(expected, x % 16, w)
    S.assert_same(target, expected)
    return len(program.kernels_ir), sum(1 for k in program.kernels_ir if k.targets)


@pytest.mark.parametrize("name", ["multiply", "minimum", "maximum", "fmin", "fmax"])
def test_one_scatter_kernel_where_add_at_is_one(name):
    assert _scatter_kernel_counts(name) == _scatter_kernel_counts("add")
    assert _scatter_kernel_counts(name)[1] == 1


@given(name=st.sampled_from(["negative", "invert", "positive", "absolute", "floor", "ceil",
                             "trunc", "rint", "sign", "conjugate"]),
       dtype=S.numeric_dtypes, rng=rngs(), n=st.integers(0, 30), size=st.integers(1, 8))
def test_unary_at_with_repeated_indices_matches_numpy(name, dtype, rng, n, size):
    if name == "invert" and dtype.kind == "f":
        dtype = np.dtype(np.int16)
    if name in ("floor", "ceil", "trunc", "rint") and dtype.kind != "f":
        dtype = np.dtype(np.float32)
    idx = rng.integers(-size, size, n)
    base = _values(rng, size, dtype, nans=True) * dtype.type(3)
    expected = base.copy()
    getattr(np, name).at(expected, idx)
    S.assert_same(_no_sync_at(name, base, lnp.asarray(idx), None), expected)


def test_unary_at_errors_and_fallbacks():
    a = lnp.arange(4.0) + 0.0
    with pytest.raises(TypeError):
        lnp.negative.at(a, [0], 1.0)
    lnp.reset_metrics()
    lnp.sqrt.at(a, [2, 2])                  # applied twice: NumPy's own at
    assert lnp.metrics()["fallbacks"] == 1
    S.assert_same(a, np.array([0.0, 1.0, 2.0 ** 0.25, 3.0]))
