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
    with pytest.raises(NotImplementedError):
        lx.view(np.int64)
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
