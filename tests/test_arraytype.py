"""ndarray basics: attributes, conversions, printing, protocols, the namespace."""
import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings

import lazynum as lnp

from . import strategies as S


@given(S.lazy_views())
def test_attributes_match_numpy(pair):
    expected, lazy = pair
    assert lazy.shape == expected.shape
    assert lazy.dtype == expected.dtype
    assert lazy.ndim == expected.ndim
    assert lazy.size == expected.size
    assert lazy.itemsize == expected.itemsize
    assert lazy.nbytes == expected.nbytes
    assert len(lazy) == len(expected) if expected.ndim else True
    assert lnp.metrics()["syncs"] == 0, "attributes never sync"


@given(S.lazy_views())
def test_printing_matches_numpy(pair):
    expected, lazy = pair
    assert repr(lazy) == repr(expected)
    assert str(lazy) == str(expected)


@given(S.lazy_views())
def test_tolist_and_item_match_numpy(pair):
    expected, lazy = pair
    assert lazy.tolist() == expected.tolist()
    if expected.size == 1:
        assert lazy.item() == expected.item()
        assert type(lazy.item()) is type(expected.item())
    else:
        with pytest.raises(ValueError):
            lazy.item()


@given(S.lazy_views())
def test_python_conversions_match_numpy(pair):
    expected, lazy = pair
    for convert in (bool, float, int):
        try:
            want = convert(expected)
        except (TypeError, ValueError) as exc:
            with pytest.raises(type(exc)):
                convert(lazy)
        else:
            assert convert(lazy) == want or (want != want)


def test_index_protocol():
    assert [1, 2, 3][lnp.asarray(np.int64(1))] == 2
    with pytest.raises(TypeError):
        [1, 2, 3][lnp.asarray(1.0)]
    with pytest.raises(TypeError):
        [1, 2, 3][lnp.asarray(np.array([1]))]


@given(S.lazy_views())
def test_iteration_matches_numpy(pair):
    expected, lazy = pair
    if expected.ndim == 0:
        with pytest.raises(TypeError):
            iter(lazy)
        return
    for got, want in zip(lazy, expected, strict=True):
        np.testing.assert_array_equal(np.asarray(got), want)
        assert np.asarray(got).dtype == np.asarray(want).dtype


def test_len_of_0d_is_a_type_error():
    with pytest.raises(TypeError):
        len(lnp.asarray(1.0))


def test_copy_deepcopy_and_pickle_round_trip():
    a = lnp.asarray(np.arange(6.0)).reshape(2, 3) * 2
    for clone in (copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
        assert isinstance(clone, lnp.ndarray)
        np.testing.assert_array_equal(np.asarray(clone), np.arange(6.0).reshape(2, 3) * 2)
    b = copy.copy(a)
    b[0, 0] = 100
    assert np.asarray(a)[0, 0] == 0


def test_unhashable_like_numpy():
    with pytest.raises(TypeError):
        hash(lnp.asarray(np.arange(3)))


def test_dtypes_with_no_lazy_form_are_numpy_backed():
    for other in (np.array(["a"]), [object()]):      # (tests/test_exotic_dtypes.py)
        x = lnp.asarray(other)
        assert isinstance(x, lnp.ndarray) and x.dtype == np.asarray(other).dtype


def test_ndarray_constructor_makes_zeros():
    a = lnp.ndarray((2, 3), dtype=np.int32)
    assert a.shape == (2, 3) and a.dtype == np.int32


def test_numpy_functions_on_lazy_arrays_stay_lazy_where_implemented():
    a = lnp.asarray(np.arange(6.0)).reshape(2, 3)
    out = np.transpose(a)
    assert isinstance(out, lnp.ndarray)
    out = np.sin(a) + np.float64(1.0)
    assert isinstance(out, lnp.ndarray)
    out = np.arange(3.0) + a
    assert isinstance(out, lnp.ndarray)
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    np.testing.assert_allclose(np.asarray(out), np.arange(3.0) + np.arange(6.0).reshape(2, 3))


def test_namespace_has_numpy_constants_and_dtypes():
    for name in ("pi", "e", "inf", "nan"):
        assert getattr(lnp, name) == getattr(np, name) or np.isnan(getattr(lnp, name))
    assert lnp.newaxis is None
    for name in ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float32", "float64", "finfo", "iinfo", "dtype"):
        assert getattr(lnp, name) is getattr(np, name)
    assert lnp.finfo(lnp.float32).eps == np.finfo(np.float32).eps


REQUIRED_METHODS = (
    "astype copy reshape transpose swapaxes ravel flatten squeeze sum prod mean var std min max "
    "argmin argmax any all cumsum cumprod clip round dot repeat take item tolist fill nonzero "
    "sort argsort conj conjugate sync __array__ __array_ufunc__ __array_function__ __len__ "
    "__iter__ __bool__ __int__ __float__ __index__ __repr__ __str__ __matmul__ __divmod__ "
    "__floordiv__ __mod__ __pow__ __lshift__ __rshift__ __and__ __or__ __xor__ __invert__ "
    "__neg__ __pos__ __abs__ __iadd__ __isub__ __imul__ __itruediv__ __ifloordiv__ __imod__ "
    "__ipow__ __iand__ __ior__ __ixor__ __ilshift__ __irshift__ __imatmul__ __radd__ __rsub__ "
    "__rmul__ __rtruediv__ __rfloordiv__ __rmod__ __rpow__ __rmatmul__ __rdivmod__"
).split()


@pytest.mark.parametrize("name", REQUIRED_METHODS)
def test_ndarray_has_numpy_method(name):
    assert callable(getattr(lnp.ndarray, name))
    for attr in ("shape", "dtype", "ndim", "size", "itemsize", "nbytes", "T", "mT", "flat", "real", "imag"):
        assert hasattr(lnp.ndarray, attr)


def test_numpy_out_array_is_returned_by_the_fallback_like_numpy():
    x = np.zeros(3)
    alias = x
    x += lnp.ones(3)
    assert x is alias and type(x) is np.ndarray
    np.testing.assert_array_equal(x, np.ones(3))
    assert lnp.metrics()["fallbacks"] == 1


def test_equality_with_foreign_objects_is_elementwise_like_numpy():
    a, lazy = np.array([1, 2]), lnp.asarray([1, 2])
    for other in (None, "x", object()):
        np.testing.assert_array_equal(np.asarray(lazy == other), a == other)
        np.testing.assert_array_equal(np.asarray(lazy != other), a != other)


def test_real_and_imag_setters_like_numpy():
    a = lnp.asarray(np.arange(3.0))
    a.real = 5
    np.testing.assert_array_equal(np.asarray(a), np.full(3, 5.0))
    with pytest.raises(TypeError):
        a.imag = 1


def test_flags_match_numpy_and_writeable_can_be_cleared():
    base = np.arange(6.0).reshape(2, 3)
    a = lnp.asarray(base)
    for lazy, ref in ((a, base), (a.T, base.T), (a[:, ::2], base[:, ::2])):
        assert lazy.flags.c_contiguous == ref.flags.c_contiguous
        assert lazy.flags["C_CONTIGUOUS"] == ref.flags["C_CONTIGUOUS"]
        assert lazy.flags.writeable
    a.flags.writeable = False
    with pytest.raises(ValueError):
        a[0, 0] = 1.0
    broadcast = lnp.broadcast_to(lnp.asarray([1.0, 2.0]), (2, 2))
    with pytest.raises(ValueError):
        broadcast.flags.writeable = True


def test_contains_like_numpy():
    base = np.arange(6).reshape(2, 3)
    a = lnp.asarray(base)
    for value in (3, 7, -1, 5.0):
        assert (value in a) == (value in base)


def test_ndarray_has_no_ptp_method_like_numpy_2():
    assert not hasattr(np.ndarray, "ptp")
    assert not hasattr(lnp.ndarray, "ptp")
