"""lazynum.lib.stride_tricks: windows and strided views are lazy views with NumPy's values,
shapes and strides; a view outside the array's memory is a ValueError, never a crash."""
import numpy as np
import pytest
from hypothesis import given
from numpy.lib import stride_tricks as numpy_tricks

import lazynum as lnp
from lazynum.lib import stride_tricks
from tests.strategies import rngs, st


@given(shape=st.sampled_from([(7,), (4, 5), (3, 4, 2)]), window=st.integers(1, 3),
       pick=st.integers(0, 2), rng=rngs())
def test_sliding_window_view_is_numpys_view(shape, window, pick, rng):
    x = rng.standard_normal(shape)
    axis = pick % len(shape)
    if shape[axis] < window:
        return
    expected = numpy_tricks.sliding_window_view(x, window, axis=axis)
    lnp.reset_metrics()
    got = stride_tricks.sliding_window_view(lnp.asarray(x), window, axis=axis)
    assert got.shape == expected.shape and got.strides == expected.strides
    means = got.mean(axis=-1)
    assert lnp.metrics()["syncs"] == 0
    np.testing.assert_array_equal(np.asarray(got), expected)
    np.testing.assert_allclose(np.asarray(means), expected.mean(axis=-1), rtol=1e-13)
    with pytest.raises(ValueError):
        got[(0,) * got.ndim] = 1.0                   # read-only by default, as NumPy's


def test_every_window_of_every_axis_and_the_errors():
    x = np.arange(24.0).reshape(4, 6)
    np.testing.assert_array_equal(np.asarray(stride_tricks.sliding_window_view(lnp.asarray(x), (2, 3))),
                                  numpy_tricks.sliding_window_view(x, (2, 3)))
    np.testing.assert_array_equal(
        np.asarray(stride_tricks.sliding_window_view(lnp.asarray(x), (2, 2), axis=(1, 1))),
        numpy_tricks.sliding_window_view(x, (2, 2), axis=(1, 1)))
    for window, axis in (((5,), 0), ((2,), None), ((-1,), 0), ((2, 2), 0)):
        with pytest.raises(ValueError):
            numpy_tricks.sliding_window_view(x, window, axis=axis)
        with pytest.raises(ValueError):
            stride_tricks.sliding_window_view(lnp.asarray(x), window, axis=axis)


def test_as_strided_views_and_refuses_to_leave_the_buffer():
    x = np.arange(20.0)
    lx = lnp.asarray(x)
    expected = numpy_tricks.as_strided(x, shape=(4, 5), strides=(40, 8))
    got = stride_tricks.as_strided(lx, shape=(4, 5), strides=(40, 8))
    assert got.strides == expected.strides
    np.testing.assert_array_equal(np.asarray(got), expected)
    overlapping = stride_tricks.as_strided(lx, shape=(3, 4), strides=(16, 8), writeable=False)
    np.testing.assert_array_equal(np.asarray(overlapping),
                                  numpy_tricks.as_strided(x, shape=(3, 4), strides=(16, 8)))
    with pytest.raises(ValueError, match="outside"):
        stride_tricks.as_strided(lx, shape=(10, 10), strides=(40, 8))
    with pytest.raises(ValueError, match="multiples"):
        stride_tricks.as_strided(lx, shape=(3,), strides=(4,))
    writer = stride_tricks.as_strided(lx, shape=(2,), strides=(80,))
    writer[1] = -1.0                                 # writes reach the array (a view)
    assert float(lx[10]) == -1.0


def test_the_rest_of_numpy_lib_is_numpys():
    assert lnp.lib.stride_tricks is stride_tricks
    import lazynum.lib.stride_tricks as imported      # a real module path
    assert imported is stride_tricks
    lnp.reset_metrics()
    np.testing.assert_allclose(np.asarray(lnp.lib.scimath.sqrt(lnp.asarray([4.0]))), [2.0])
    assert lnp.metrics()["fallbacks"] == 1
