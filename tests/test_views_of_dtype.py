"""``ndarray.view(dtype)`` and ``view(type)``: lazy reinterpretations with NumPy's rules.

Differential against NumPy on arrays whose layouts are NumPy's (the same windows taken of
both): values bit for bit, dtype, shape, strides, exception type and message; aliasing in
both directions; no sync until a value is read.
"""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp
from . import strategies as S
st = S.st

WINDOWS = {
    "plain": lambda a: a,
    "transposed": lambda a: a.T,
    "every other last": lambda a: a[..., ::2] if a.ndim else a,
    "every other first": lambda a: a[::2] if a.ndim else a,
    "reversed": lambda a: a[::-1] if a.ndim else a,
    "tail of last": lambda a: a[..., 1:] if a.ndim else a,
}


@st.composite
def windows(draw):
    """(NumPy array, lazynum array): the same window of the same data, so both have one
    layout (NumPy's contiguity errors depend on it)."""
    base = draw(S.arrays(S.every_dtype, S.shapes(max_dims=3)))
    window = WINDOWS[draw(st.sampled_from(sorted(WINDOWS)))]
    return window(base), window(lnp.asarray(base))


def _numpy_error(fn):
    try:
        return fn(), None
    except Exception as exc:  # noqa: BLE001 - compared with lazynum's below
        return None, exc


def assert_same_bits(result, expected):
    """Bit for bit; a bool array as bools: NumPy keeps a bool view's raw bytes (0x80 reads
    True), compiled kernels store any true bool as 1 (README: known differences)."""
    got = np.asarray(result)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if got.dtype == np.bool_:
        got, expected = got.view(np.uint8) != 0, expected.view(np.uint8) != 0
    assert got.tobytes() == expected.tobytes()


@given(windows(), S.every_dtype)
def test_view_dtype_matches_numpy(pair, dtype):
    x, lx = pair
    lnp.reset_metrics()                     # (per example: hypothesis runs many per test)
    expected, error = _numpy_error(lambda: x.view(dtype))
    if error is not None:
        with pytest.raises(S.public_type(error), match=str(error).replace(".", r"\.")):
            lx.view(dtype)
        return
    result = lx.view(dtype)
    assert lnp.metrics()["syncs"] == 0
    assert result.shape == expected.shape and result.dtype == expected.dtype
    if expected.size:           # (a length-1 axis's stride is never used: NumPy's is arbitrary)
        assert [s for s, d in zip(result.strides, result.shape) if d > 1] == \
            [s for s, d in zip(expected.strides, expected.shape) if d > 1]
        assert result.flags.c_contiguous == expected.flags.c_contiguous
    assert_same_bits(result, expected)


def _one(dtype):
    return np.ones((), dtype)


@given(windows(), S.every_dtype)
def test_writes_reach_both_ways(pair, dtype):
    x, lx = pair
    x = x.copy() if not x.flags.writeable else x
    try:
        v = x.view(dtype)
    except ValueError:
        return
    lnp.reset_metrics()
    lv = lx.view(dtype)
    if v.size == 0:
        return
    v[(0,) * v.ndim] = _one(dtype)                     # through the view ...
    lv[(0,) * v.ndim] = _one(dtype)
    x[(-1,) * x.ndim] = _one(x.dtype)                  # ... and into the base afterwards
    lx[(-1,) * x.ndim] = _one(x.dtype)
    assert lnp.metrics()["syncs"] == 0
    assert_same_bits(lv, v)
    assert_same_bits(lx, x)


def test_the_view_of_a_window_writes_only_its_bytes():
    x = np.arange(24, dtype=np.int16).reshape(4, 6)
    lx = lnp.asarray(x)
    v, lv = x[1::2, 2:].view(np.int64), lx[1::2, 2:].view(np.int64)
    v[:, 0] = -1
    lv[:, 0] = -1
    lv2 = lv.view(np.float64)                          # a view of a view
    lv2 += 1.0
    v.view(np.float64)[...] += 1.0
    assert_same_bits(lx, x)
    assert_same_bits(lv, v)
    assert lv.strides == v.strides


def test_zero_d_and_scalar_results():
    lx = lnp.asarray(2.0)
    v = lx.view(np.int64)
    lx[...] = 1.0
    assert int(v) == np.float64(1.0).view(np.int64)
    v[()] = 0
    assert float(lx) == 0.0
    with pytest.raises(ValueError, match="0d array"):
        lx.view(np.int32)
    total = lnp.asarray(np.arange(4.0)).sum()
    assert int(total.view(np.uint64)) == np.float64(6.0).view(np.uint64)


def test_errors_are_numpys():
    lx = lnp.asarray(np.arange(6, dtype=np.int16).reshape(2, 3))
    with pytest.raises(ValueError, match="last axis must be contiguous"):
        lx.T.view(np.int8)
    with pytest.raises(ValueError, match="larger dtype"):
        lx.view(np.int32)
    with pytest.raises(ValueError, match="smaller dtype"):
        lnp.zeros(3, np.complex64).view(np.dtype("f8")).view("V3")   # NumPy-backed: NumPy's
    with pytest.raises(ValueError, match="sub-type of ndarray"):
        lx.view(type=np.int8)


def test_read_only_stays_read_only_and_empty_arrays():
    lx = lnp.asarray(np.arange(4.0))
    lx.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        lx.view(np.int64)[0] = 1
    empty = lnp.zeros((3, 0), np.int16).view(np.int32)
    assert empty.shape == (3, 0) and empty.dtype == np.int32


def test_view_of_type():
    x = np.arange(6.0).reshape(2, 3)
    lx = lnp.asarray(x)
    for kind in (np.ndarray, lnp.ndarray):
        same = lx.view(kind)
        assert type(same) is type(lx)
        same[0, 0] = 7.0
        assert float(lx[0, 0]) == 7.0
        assert type(lx.view(dtype=kind)) is type(lx)
    assert lnp.metrics()["fallbacks"] == 0
    ints = lx.view(np.int64, type=np.ndarray)
    assert ints.dtype == np.int64 and type(ints) is type(lx)
    matrix = lx.view(np.matrix)                        # a foreign subclass: NumPy's, synced
    assert type(matrix) is np.matrix and lnp.metrics()["fallbacks"] == 1
    np.testing.assert_array_equal(np.asarray(matrix), np.asarray(lx))
    assert lx.view(np.int64, np.matrix).dtype == np.int64


def test_exotic_dtype_is_numpys_view_of_a_copy():
    lx = lnp.asarray(np.arange(3, dtype=np.int64))
    stamps = lx.view("M8[s]")
    assert stamps.dtype == np.dtype("M8[s]")
    np.testing.assert_array_equal(np.asarray(stamps), np.arange(3).view("M8[s]"))


def test_no_gradient_through_a_bitcast():
    def f(x):
        return x.view(np.float32).sum()
    with pytest.raises(TypeError, match="reinterprets bits"):
        lnp.grad(f)(lnp.asarray(np.arange(3.0)))


# -- getfield / setfield: lazy views of each element's bytes ------------------------------------
FIELDS = [(np.int32, 0), (np.int32, 4), (np.uint8, 7), (np.int16, 2), (np.float64, 0),
          (np.bool_, 3), (np.float32, 4)]


@pytest.mark.parametrize("dtype, offset", FIELDS)
@pytest.mark.parametrize("window", ["whole", "transposed", "sliced"])
def test_getfield_matches_numpy_and_aliases_both_ways(dtype, offset, window):
    base = np.arange(12.0).reshape(3, 4) * 1.5 - 4
    lazy = lnp.asarray(base)
    pick = {"whole": lambda a: a, "transposed": lambda a: a.T, "sliced": lambda a: a[1:, ::2]}[window]
    expected, lnp_base = pick(base).getfield(dtype, offset), lazy
    lnp.reset_metrics()
    got = pick(lnp_base).getfield(dtype, offset)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert got.strides == expected.strides
    assert lnp.metrics()["syncs"] == 0
    assert np.asarray(got).tobytes() == expected.tobytes()
    # a write through the field reaches the array's bytes; a write to the array reaches the field
    got[...] = 1
    expected[...] = 1
    assert np.asarray(lnp_base).tobytes() == base.tobytes()
    lnp_base[...] = 2.5
    base[...] = 2.5
    assert np.asarray(got).tobytes() == expected.tobytes()


def test_setfield_writes_the_field_bytes():
    base = np.arange(4.0)
    lazy = lnp.asarray(base)
    base.setfield(7, np.int32, 4)
    lazy.setfield(7, np.int32, 4)
    assert np.asarray(lazy).tobytes() == base.tobytes()


def test_getfield_of_a_scalar_is_a_scalar_and_errors_are_numpys():
    x = np.array([1.5, 2.0])
    s, expected = lnp.asarray(x).sum(), x.sum().getfield(np.int32, 4)
    got = s.getfield(np.int32, 4)
    assert isinstance(got, lnp.ndarray) and got.ndim == 0 and int(got) == int(expected)
    assert lnp.asarray(np.array(2.0)).getfield(np.int32, 4).shape == ()
    lazy = lnp.asarray(x)
    for args in [(np.int32, 5), (np.int32, -1), (np.complex128, 0)]:
        with pytest.raises(ValueError) as caught:
            lazy.getfield(*args)
        with pytest.raises(ValueError) as numpys:
            x.getfield(*args)
        assert str(caught.value) == str(numpys.value)
