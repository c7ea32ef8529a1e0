"""The ndarray surface beyond computing: strides, views, bytes, pickles, flags, choose,
compress, and hashing the 0-d values NumPy returns as scalars."""
import io
import pickle

import numpy as np
import pytest

import lazynum as lnp


def test_strides_follow_the_layout_numpy_would_have():
    x = np.arange(24.0).reshape(2, 3, 4)
    lx = lnp.asarray(x)
    for got, expected in ((lx, x), (lx.T, x.T), (lx[:, ::2, 1:], x[:, ::2, 1:]),
                          (lx.transpose(1, 0, 2) + 1, x.transpose(1, 0, 2) + 1)):
        assert got.strides == expected.strides
    assert lnp.asarray(np.zeros(3, np.int16)).strides == (2,)


def test_bytes_files_and_pickles_hold_the_data(tmp_path):
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    lx = lnp.asarray(x) * 1
    assert lx.tobytes() == x.tobytes() and lx.tobytes("F") == x.tobytes("F")
    path = tmp_path / "data.bin"
    lx.tofile(path)
    np.testing.assert_array_equal(np.fromfile(path, np.int32), x.ravel())
    np.testing.assert_array_equal(np.asarray(pickle.loads(lx.dumps())), x)
    buffer = io.BytesIO()
    lx.dump(buffer)
    np.testing.assert_array_equal(np.asarray(pickle.loads(buffer.getvalue())), x)


def test_view_shares_the_storage_and_setflags_controls_writes():
    lx = lnp.asarray(np.arange(4.0))
    v = lx.view()
    v[0] = 9.0
    assert float(lx[0]) == 9.0 and v is not lx
    assert lx.view(np.int64).dtype == np.int64      # (tests/test_views_of_dtype.py)
    lx.setflags(write=False)
    with pytest.raises(ValueError):
        lx[1] = 0.0


def test_choose_and_compress_methods_match_numpy():
    a = np.array([[0, 2], [1, 3]])
    choices = [np.full((2, 2), 10.0 * k) for k in range(4)]
    np.testing.assert_array_equal(np.asarray(lnp.asarray(a).choose(choices)), a.choose(choices))
    np.testing.assert_array_equal(np.asarray(lnp.choose(lnp.asarray(a + 2), choices, mode="clip")),
                                  np.choose(a + 2, choices, mode="clip"))
    with pytest.raises(ValueError):
        np.asarray(lnp.choose(lnp.asarray(a + 2), choices))          # 4 and 5: at the sync
    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(np.asarray(lnp.asarray(x).compress([True, False, True], axis=1)),
                                  x.compress([True, False, True], axis=1))


def test_a_zero_d_value_numpy_returns_as_a_scalar_hashes_like_it():
    lx = lnp.asarray(np.array([1.5, 2.0, 7.0]))
    assert hash(lx[1]) == hash(np.float64(2.0)) == hash(2)
    counts = {lx[2]: "seven"}
    assert counts[7.0] == "seven"
    with pytest.raises(TypeError):
        hash(lx)                                     # arrays stay unhashable, as in NumPy


# NumPy's conversion reads these before ``__array__``: defining them would make
# ``numpy.asarray(x)`` a read-only alias instead of NumPy's writable copy.
NOT_DEFINED_ON_PURPOSE = {"__array_interface__", "__array_struct__", "__buffer__"}


def test_every_ndarray_attribute_exists():
    """dir(numpy.ndarray) against dir(lazynum.ndarray): the whole surface is there, except
    the conversion protocols NumPy would prefer to ``__array__``."""
    missing = [name for name in dir(np.ndarray) if not hasattr(lnp.ndarray, name)]
    assert set(missing) <= NOT_DEFINED_ON_PURPOSE
    lazy = lnp.asarray(np.arange(3.0)) * 2
    out = np.asarray(lazy)
    out[0] = 7.0                                            # NumPy's writable copy
    assert np.asarray(lazy)[0] == 0.0


def test_c_level_exports_are_read_only_copies_that_outlive_their_temporaries():
    """``ctypes`` and ``data``: a read-only copy, alive while the array is."""
    x = np.arange(6.0).reshape(2, 3)
    lx = lnp.asarray(x) + 1
    pointer = lx.ctypes.data                                # the ctypes object is a temporary
    import ctypes
    values = (ctypes.c_double * 6).from_address(pointer)
    assert list(values) == list((x + 1).ravel())
    assert lx.data.readonly and np.frombuffer(lx.data, np.float64).tolist() == list((x + 1).ravel())
    np.testing.assert_array_equal(np.array(lx), x + 1)      # NumPy still reads it through __array__


def test_byteswap_is_lazy_and_inplace_writes_through_views():
    x = np.array([1, 256, -2], dtype=np.int16)
    lx = lnp.asarray(x)
    view = lx[1:]
    syncs = lnp.metrics()["syncs"]
    swapped = lx.byteswap()
    assert lx.byteswap(inplace=True) is lx
    assert lnp.metrics()["syncs"] == syncs
    np.testing.assert_array_equal(np.asarray(swapped), x.byteswap())
    np.testing.assert_array_equal(np.asarray(view), x.byteswap()[1:])
    assert np.asarray(swapped).dtype == np.int16


def test_resize_pads_truncates_and_refuses_views_as_numpy_does():
    lx = lnp.asarray(np.arange(6.0)) * 2
    x = np.arange(6.0) * 2
    lx.resize((2, 5))
    x.resize((2, 5))
    np.testing.assert_array_equal(np.asarray(lx), x)
    assert lx.shape == (2, 5)
    view = lx[1:]
    with pytest.raises(ValueError, match="does not own its data"):
        view.resize(3)
    with pytest.raises(ValueError, match="referenced"):
        lx.resize(3)
    del view
    lx.resize(3)
    np.testing.assert_array_equal(np.asarray(lx), x.ravel()[:3])
    with pytest.raises(ValueError, match="negative"):
        lx.resize(-1)


def test_deleting_elements_raises():
    lx = lnp.asarray(np.arange(3.0))
    with pytest.raises(ValueError, match="cannot delete"):
        del lx[0]
    assert lnp.ndarray[int, np.dtype[np.float64]] is not None      # typing subscripts work
