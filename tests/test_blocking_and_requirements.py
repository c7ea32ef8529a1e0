"""insert (editing.py), block (blocking.py) and the array-requirement functions
(requirements.py): NumPy's values, dtypes, shapes, layouts and errors, with no sync and no
fallback before the result is read."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazynum as lnp


def _same(got, expected):
    got_np = np.asarray(got)
    assert got_np.dtype == expected.dtype and got_np.shape == expected.shape
    np.testing.assert_array_equal(got_np, expected)


def _lazily(fn):
    lnp.reset_metrics()
    result = fn()
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    return result


X = np.arange(12.0).reshape(3, 4)


@pytest.mark.parametrize("arr, obj, values, axis", [
    (X, 1, 5, None), (X, 1, [7, 8, 9], 1), (X, [1], [7, 8, 9], 1), (X, [1], [[1], [2], [3]], 1),
    (X, [1, 1], [10, 11], 1), (X, [0, 2, 2], 1.5, 0), (X, slice(1, 3), [[1, 2, 3, 4]], 0),
    (X, -1, 9, 0), (np.arange(5), [3, 0], [7, 8], None), (X, 2, [[1], [2], [3]], 1),
    (np.arange(5), [], [], None), (X, 1, np.arange(8.0).reshape(2, 4), 0),
    (X, np.array([True, False, True, False]), 5, 1), (X, slice(None), 0, 1),
    (np.arange(3, dtype=np.int32), 1, 2.7, None), (X, np.array([2, 0]), [[1, 2], [3, 4], [5, 6]], 1),
])
def test_insert_matches_numpy(arr, obj, values, axis):
    got = _lazily(lambda: lnp.insert(lnp.asarray(arr), obj, values, axis=axis))
    _same(got, np.insert(arr, obj, values, axis=axis))


@given(st.integers(0, 6), st.lists(st.integers(-7, 7), max_size=4), st.integers(-3, 3))
def test_insert_positions_follow_numpys_rules(n, obj, value):
    arr = np.arange(n) * 10
    try:
        expected = np.insert(arr, obj, value)
    except (IndexError, ValueError) as error:      # (NumPy's ValueError for some negatives)
        with pytest.raises(type(error)):
            lnp.insert(lnp.asarray(arr), obj, value)
        return
    _same(lnp.insert(lnp.asarray(arr), obj, value), expected)


def test_insert_errors_are_numpys():
    with pytest.raises(IndexError):
        lnp.insert(lnp.asarray(X), 9, 1, axis=0)
    with pytest.raises(np.exceptions.AxisError):
        lnp.insert(lnp.asarray(X), 1, 1, axis=2)
    with pytest.raises(ValueError):
        np.asarray(lnp.insert(lnp.asarray(X), [3], [[1, 2], [3, 4]], axis=0))
    with pytest.raises(NotImplementedError):
        lnp.insert(lnp.asarray(X), lnp.asarray(np.array([1])), 0, axis=0)


def test_block_matches_numpy():
    a, b, c = np.ones((2, 2)), np.zeros((2, 1)), np.full((1, 3), 2.0)
    for structure in ([[a, b], [c]], [a, a], [[[1, 2]], [[3, 4]]], [1, 2.5], [[1], [np.float32(2)]]):
        lazy = [[lnp.asarray(x) if isinstance(x, np.ndarray) else x for x in row]
                if isinstance(row, list) else (lnp.asarray(row) if isinstance(row, np.ndarray) else row)
                for row in structure]
        _same(_lazily(lambda: lnp.block(lazy)), np.block(structure))
    lone = lnp.asarray(a)
    result = lnp.block(lone)
    assert result is not lone
    _same(result, np.block(a))
    _same(lnp.block(5), np.block(5))


@pytest.mark.parametrize("structure, error", [
    ([], ValueError), ([[1], []], ValueError), (([1], [2]), TypeError), ([[1], 2], ValueError),
    ([[np.ones((2, 2)), np.ones(3)]], ValueError),
])
def test_block_errors_are_numpys(structure, error):
    with pytest.raises(error) as expected:
        np.block(structure)
    with pytest.raises(error) as got:
        lnp.block(structure)
    if error is TypeError or "List" in str(expected.value):
        assert str(got.value) == str(expected.value)


def test_asfortranarray_isfortran_and_require_copy_where_numpy_copies():
    x = lnp.asarray(X)
    f = lnp.asfortranarray(x)
    assert f.flags.f_contiguous and lnp.isfortran(f) and not lnp.isfortran(x)
    assert lnp.asfortranarray(f) is f
    _same(f, np.asfortranarray(X))
    assert lnp.asfortranarray(5).shape == (1,)
    assert lnp.require(x, requirements="CW") is x
    req = lnp.require(x, np.float32, requirements=["F", "A"])
    assert req.dtype == np.float32 and req.flags.f_contiguous
    view = x[:, ::2]
    assert lnp.require(view, requirements="O") is not view
    assert lnp.require(view, requirements="O").flags.owndata
    with pytest.raises(ValueError):
        lnp.require(x, requirements="CF")
    with pytest.raises(KeyError):
        lnp.require(x, requirements=["Q"])
    assert lnp.isfortran(lnp.asarray(X).T) == np.isfortran(X.T)


def test_asarray_chkfinite_checks_the_data_at_the_sync():
    good = _lazily(lambda: lnp.asarray_chkfinite(lnp.asarray(X) + 1))
    _same(good, X + 1)
    bad = lnp.asarray_chkfinite(lnp.asarray(X) / 0)          # recorded: no error yet
    with pytest.raises(ValueError, match="infs or NaNs"):
        np.asarray(bad)
    ints = lnp.asarray_chkfinite(lnp.asarray(np.arange(3)))
    _same(ints, np.arange(3))
