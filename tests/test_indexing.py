"""Differential tests of indexing against NumPy: basic keys (views), integer-array and
boolean-mask keys (gathers/scatters), the take/put family, nonzero & co, and the errors
(eager IndexError for host indices, IndexError at the sync for lazy ones)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import lazynum as lnp
from lazynum.control import telemetry as lnp_telemetry
from lazynum.frontend.indexing.ufunc_at import ufunc_at
from tests.strategies import (INTEGER, arrays, assert_same, dtypes, lazy_views, same_error,
                              shapes)


def syncs():
    return lnp.metrics()["syncs"]


# -- key strategies ----------------------------------------------------------------------------
def _slices(size):
    bound = size + 2
    return st.builds(slice, st.none() | st.integers(-bound, bound),
                     st.none() | st.integers(-bound, bound),
                     st.none() | st.integers(-3, 3).filter(bool))


def _basic_item(size):
    options = [_slices(size), st.just(slice(None))]
    if size:
        options.append(st.integers(-size, size - 1))
    return st.one_of(options)


@st.composite
def basic_keys(draw, shape):
    """Valid basic keys: ints (negative too), slices with any step, None, one Ellipsis."""
    items = [draw(_basic_item(size)) for size in shape]
    if draw(st.booleans()):
        head = draw(st.integers(0, len(items)))
        tail = draw(st.integers(0, len(items) - head))
        key = items[:head] + [Ellipsis] + items[len(items) - tail:]
    else:
        key = items[:draw(st.integers(0, len(items)))]
    for _ in range(draw(st.integers(0, 2))):
        key.insert(draw(st.integers(0, len(key))), None)
    if len(key) == 1 and draw(st.booleans()):
        return key[0]
    return tuple(key)


def _index_array(draw, size, shape, form):
    """An integer index array for an axis of ``size`` (out of bounds when size is 0)."""
    dtype = draw(st.sampled_from(INTEGER))
    low = 0 if dtype.kind == "u" else -max(size, 1)
    values = draw(st.lists(st.integers(low, max(size, 1) - 1), min_size=int(np.prod(shape)),
                           max_size=int(np.prod(shape))))
    host = np.array(values, dtype=dtype).reshape(shape)
    if form == "list" and host.size:
        return host.tolist(), host
    if form == "lazy":
        return lnp.asarray(host), host
    if form == "pending":      # a lazy index that is not computed yet
        return lnp.asarray(host) + dtype.type(0), host
    return host, host


@st.composite
def advanced_keys(draw, shape, forms=("numpy", "list", "lazy", "pending")):
    """(lazy key, NumPy key): integer arrays (broadcasting shapes) mixed with slices, ints
    and None, in every placement NumPy distinguishes (adjacent or separated)."""
    common = draw(shapes(max_dims=2, max_side=3))
    kinds = [draw(st.sampled_from(["array", "array", "slice", "int"])) for _ in shape]
    if "array" not in kinds:
        kinds[draw(st.integers(0, len(shape) - 1))] = "array"
    last = max(k for k, kind in enumerate(kinds) if kind == "array")
    kinds = kinds[:draw(st.integers(last + 1, len(kinds)))]
    lazy_key, np_key = [], []
    for size, kind in zip(shape, kinds):
        if kind == "array":
            ishape = list(common[draw(st.integers(0, len(common))):])
            ishape = tuple(1 if draw(st.booleans()) and draw(st.booleans()) else d for d in ishape)
            lazy, host = _index_array(draw, size, ishape, draw(st.sampled_from(forms)))
        elif kind == "int" and size:
            lazy = host = draw(st.integers(-size, size - 1))
        else:
            lazy = host = draw(_slices(size))
        lazy_key.append(lazy)
        np_key.append(host)
    if draw(st.booleans()):
        at = draw(st.integers(0, len(lazy_key)))
        lazy_key.insert(at, None)
        np_key.insert(at, None)
    if len(lazy_key) == 1 and draw(st.booleans()):
        return lazy_key[0], np_key[0]
    return tuple(lazy_key), tuple(np_key)


def _value_for(draw, shape, dtype):
    """A value to assign into a region of ``shape``: scalar, full array or broadcast tail."""
    how = draw(st.sampled_from(["scalar", "array", "tail"]))
    if how == "scalar":
        return draw(st.booleans()) if dtype.kind == "b" else draw(st.integers(0, 100))
    if how == "tail":
        shape = shape[draw(st.integers(0, len(shape))):]
    value = draw(arrays(dtype, st.just(shape), small=True))
    return lnp.asarray(value) if draw(st.booleans()) else value


# -- basic indexing ----------------------------------------------------------------------------
@given(st.data())
def test_basic_getitem_matches_numpy(data):
    x, lazy = data.draw(lazy_views())
    key = data.draw(basic_keys(x.shape))
    assert_same(lazy[key], x[key])


@given(st.data())
def test_basic_getitem_out_of_range_keys(data):
    x, lazy = data.draw(lazy_views(arrays(shape=shapes(min_dims=1))))
    key = tuple(data.draw(st.integers(-8, 8) | _slices(8)) for _ in range(x.ndim))
    result, expected = same_error(lambda: lazy[key], lambda: x[key])
    if expected is not None:
        assert_same(result, expected)


@given(st.data())
def test_basic_setitem_matches_numpy(data):
    x, lazy = data.draw(lazy_views())
    key = data.draw(basic_keys(x.shape))
    value = _draw_value(data, x[key].shape, x.dtype)
    expected = x.copy()
    expected[key] = np.asarray(value) if isinstance(value, lnp.ndarray) else value
    lazy[key] = value
    assert_same(lazy, expected)


def _draw_value(data, shape, dtype):
    return _value_for(data.draw, shape, dtype)


def test_basic_views_alias_and_scalar_reads_copy():
    x = np.arange(12.0).reshape(3, 4)
    a = lnp.asarray(x)
    view = a[1:, ::-2]
    scalar = a[1, 2]
    zero_d_view = a[1, 2, ...]
    a[1, 2] = -1.0
    x[1, 2] = -1.0
    assert_same(view, x[1:, ::-2])
    assert float(scalar) == 6.0            # NumPy returns a scalar copy here
    assert float(zero_d_view) == -1.0      # ... but a 0-d view for a[1, 2, ...]


# -- integer-array indexing --------------------------------------------------------------------
def _host_key(key):
    if isinstance(key, tuple):
        return tuple(np.asarray(k) if isinstance(k, lnp.ndarray) else k for k in key)
    return np.asarray(key) if isinstance(key, lnp.ndarray) else key


@given(st.data())
def test_integer_array_getitem_matches_numpy(data):
    x, lazy = data.draw(lazy_views(arrays(shape=shapes(min_dims=1))))
    key, np_key = data.draw(advanced_keys(x.shape))
    result, expected = same_error(lambda: lazy[key], lambda: x[np_key])
    if expected is not None:
        assert_same(result, expected)


@given(st.data())
def test_integer_array_setitem_matches_numpy(data):
    x, lazy = data.draw(lazy_views(arrays(shape=shapes(min_dims=1))))
    key, np_key = data.draw(advanced_keys(x.shape))
    try:
        shape = x[np_key].shape
    except IndexError:
        with pytest.raises(IndexError):
            lazy[key] = 0
            lazy.sync()
        return
    value = _draw_value(data, shape, x.dtype)
    expected = x.copy()
    expected[np_key] = np.asarray(value) if isinstance(value, lnp.ndarray) else value
    before = syncs()
    lazy[key] = value
    assert syncs() == before
    assert_same(lazy, expected)


def test_integer_array_placement():
    x = np.arange(5 * 3 * 4 * 2).reshape(5, 3, 4, 2)
    a = lnp.asarray(x)
    i, j = np.array([[0], [2]]), np.array([1, 0, 1])
    for key in [(i, j), (slice(None), i, j), (i, slice(None), j), (0, slice(None), j),
                (slice(None), j, None, j), (j, 1), (slice(None), 0, j), (Ellipsis, j),
                (True, j), (slice(None), True, j), (np.array(1), slice(None), j),
                (i, slice(None), slice(None), j), (lnp.asarray(j), 0, lnp.asarray(i))]:
        assert_same(a[key], x[_host_key(key)])


def test_zero_width_ellipsis_still_separates_advanced_indices():
    # ``...`` standing for no dims keeps the advanced indices apart: NumPy moves the index
    # dims to the front (review finding: ``a[:, [0], ..., 0]`` had shape (2, 1)).
    x = np.arange(6.0).reshape(2, 1, 3)
    a = lnp.asarray(x)
    keys = [(slice(None), [0], Ellipsis, 0), ([1], Ellipsis, [0], [2]), (0, Ellipsis, 0, [1]),
            (slice(None), [0], Ellipsis, [0, 2, 1]), (Ellipsis, [0], 0, [2]),
            ([1, 0], slice(None), Ellipsis, [2, 2])]
    for key in keys:
        assert_same(a[key], x[key])
        expected, got = x.copy(), a.copy()
        value = np.arange(x[key].size, dtype=float).reshape(x[key].shape) + 10
        expected[key] = value
        got[key] = value
        assert_same(got, expected)
        expected, got = x.copy(), a.copy()
        np.add.at(expected, key, 1.0)
        lnp.add.at(got, key, 1.0)
        assert_same(got, expected)
    assert a[:, [0], ..., 0].shape == (1, 2)


def test_duplicate_indices_last_write_wins():
    x = np.zeros((3, 4))
    a = lnp.asarray(x)
    cases = [(([0, 0, 1], [2, 2, 3]), np.arange(3.0)),
             (([[1], [1]], [0, 0, 0]), np.arange(6.0).reshape(2, 3)),
             (([1, 1, 1],), np.arange(12.0).reshape(3, 4)),
             ((slice(None), [1, 1]), np.arange(6.0).reshape(3, 2)),
             (([2, 2], slice(None), None), np.arange(8.0).reshape(2, 4, 1))]
    for key, values in cases:
        expected = x.copy()
        expected[key] = values
        got = a.copy()
        got[key] = values
        assert_same(got, expected)


def test_list_and_tuple_indices():
    x = np.arange(20).reshape(4, 5)
    a = lnp.asarray(x)
    assert_same(a[[0, -1]], x[[0, -1]])
    assert_same(a[[]], x[[]])
    assert_same(a[[[0], [1]], (1, 2)], x[[[0], [1]], (1, 2)])
    assert_same(a[[True, False, True, False]], x[[True, False, True, False]])


def test_list_index_holding_lazy_scalars():
    x = np.arange(20).reshape(4, 5)
    assert_same(lnp.asarray(x)[[lnp.asarray(1), 2]], x[[1, 2]])


def test_host_index_arrays_are_snapshotted_not_frozen():
    x = np.arange(5.0)
    a = lnp.asarray(x)
    idx = np.array([0, 3])
    got = a[idx]
    taken = lnp.take(a, idx)
    b = a.copy()
    b[idx] = -1.0
    idx[0] = 4                       # still writable, and the lazy results do not change
    assert_same(got, x[[0, 3]])
    assert_same(taken, x[[0, 3]])
    assert_same(b, np.array([-1.0, 1.0, 2.0, -1.0, 4.0]))


# -- boolean masks -----------------------------------------------------------------------------
@st.composite
def masked(draw, lazy_mask):
    """(x, lazy x, mask, lazy-or-host mask, key position): a mask over some dims of x."""
    x, lazy = draw(lazy_views(arrays(shape=shapes(min_dims=1), small=True)))
    start = draw(st.integers(0, x.ndim - 1))
    stop = draw(st.integers(start + 1, x.ndim))
    mask = draw(arrays(np.dtype(bool), st.just(x.shape[start:stop])))
    return x, lazy, mask, (lnp.asarray(mask) if lazy_mask else mask), start


@given(masked(lazy_mask=True), st.booleans())
def test_boolean_mask_getitem(case, pad):
    x, lazy, mask, lmask, start = case
    key, np_key = (slice(None),) * start + (lmask,), (slice(None),) * start + (mask,)
    if pad:
        key, np_key = key + (Ellipsis,), np_key + (Ellipsis,)
    assert_same(lazy[key], x[np_key])


@given(masked(lazy_mask=True), st.integers(0, 50))
def test_boolean_mask_setitem_scalar_is_lazy(case, value):
    x, lazy, mask, lmask, start = case
    key, np_key = (slice(None),) * start + (lmask,), (slice(None),) * start + (mask,)
    expected = x.copy()
    expected[np_key] = value
    pending_mask = lmask | False     # an uncomputed mask
    before = syncs()
    lazy[key[:-1] + (pending_mask,)] = value
    assert syncs() == before
    assert_same(lazy, expected)


@given(masked(lazy_mask=False), st.data())
def test_boolean_mask_setitem_values(case, data):
    x, lazy, mask, _, start = case
    np_key = (slice(None),) * start + (mask,)
    shape = x[np_key].shape
    value = _draw_value(data, shape, x.dtype)
    expected = x.copy()
    expected[np_key] = np.asarray(value) if isinstance(value, lnp.ndarray) else value
    lazy_mask = lnp.asarray(mask) if data.draw(st.booleans()) else mask
    lazy[(slice(None),) * start + (lazy_mask,)] = value
    assert_same(lazy, expected)


def test_mask_setitem_with_a_separated_integer_moves_the_index_dims_first():
    # Review finding: an integer index apart from the mask makes NumPy put the selected
    # elements first; the lazy select shortcut used to write the value in the mask's place.
    x = np.zeros((2, 3, 4))
    a = lnp.zeros((2, 3, 4))
    mask = np.array([True, False, True, True])
    value = np.array([[1.0], [2.0], [3.0]])      # (3 selected, 1) against (3 selected, 3)
    x[0, :, mask] = value
    a[0, :, mask] = lnp.asarray(value)
    assert_same(a, x)
    with pytest.raises(ValueError, match="shape mismatch"):    # NumPy: (3, 1) vs (2, 3)
        x[0, :, mask[:2].tolist() + [False, False]] = value
    with pytest.raises(ValueError):
        a[0, :, mask[:2].tolist() + [False, False]] = value
    for key in [(0, slice(None), True), (0, None, slice(None), mask), (0, Ellipsis, mask),
                (slice(None), 1, slice(None), True), (mask[:2], slice(None), 0)]:
        for value in [np.array([[5.0], [6.0], [7.0]]), np.array([5.0, 6.0, 7.0]),
                      np.array([[5.0]]), 9.0]:
            expected = x.copy()
            try:
                expected[key] = value
            except ValueError:
                with pytest.raises(ValueError):
                    a[key] = value
                continue
            got = a.copy()
            got[key] = lnp.asarray(value)
            assert_same(got, expected)


@st.composite
def mixed_keys(draw, shape):
    """NumPy keys mixing boolean masks (also 0-d), integer arrays, integers, slices, None
    and an ellipsis (also one standing for no dims), adjacent or separated."""
    key, dim = [], 0
    while dim < len(shape):
        kind = draw(st.sampled_from(["mask", "array", "int", "int", "slice"]))
        if kind == "mask":
            width = draw(st.integers(1, len(shape) - dim))
            key.append(draw(arrays(np.dtype(bool), st.just(shape[dim:dim + width]))))
            dim += width
            continue
        size = shape[dim]
        if kind == "array" and size:
            key.append(np.array(draw(st.lists(st.integers(-size, size - 1), min_size=1,
                                              max_size=3))))
        elif kind == "int" and size:
            key.append(draw(st.integers(-size, size - 1)))
        else:
            key.append(draw(st.just(slice(None)) | _slices(size)))
        dim += 1
    if draw(st.booleans()):           # an ellipsis for a run of items (often none)
        start = draw(st.integers(0, len(key)))
        stop = draw(st.integers(start, len(key))) if draw(st.booleans()) else start
        key[start:stop] = [Ellipsis]
    for extra in draw(st.lists(st.sampled_from([None, None, True, False]), max_size=2)):
        key.insert(draw(st.integers(0, len(key))), extra)
    return tuple(key)


@settings(max_examples=300)
@given(st.data())
def test_mixed_advanced_keys_match_numpy(data):
    x, lazy = data.draw(lazy_views(arrays(shape=shapes(min_dims=1, max_dims=3, min_side=1,
                                                       max_side=3), small=True)))
    key = data.draw(mixed_keys(x.shape))
    result, expected = same_error(lambda: lazy[key], lambda: x[key])
    if expected is None:
        return
    assert_same(result, expected)
    shape = tuple(1 if data.draw(st.booleans()) else d for d in expected.shape)
    value = data.draw(arrays(x.dtype, st.just(shape[data.draw(st.integers(0, len(shape))):]),
                             small=True))
    target = x.copy()
    try:
        target[key] = value
    except ValueError:
        with pytest.raises(ValueError):
            lazy[key] = value
        return
    lazy[key] = lnp.asarray(value) if data.draw(st.booleans()) else value
    assert_same(lazy, target)


def test_mask_reads_and_augmented_writes_never_sync():
    x = np.arange(-6.0, 6.0).reshape(3, 4)
    a = lnp.asarray(x)
    lnp.reset_metrics()
    a[a > 0] = 0.5                       # lazy select
    a[a < -3] *= 2.0                     # a bounded read, updated and expanded back
    assert lnp.metrics()["syncs"] == 0
    x[x > 0] = 0.5
    x[x < -3] *= 2.0
    assert_same(a, x)


def test_boolean_scalars_and_zero_d_masks():
    x = np.arange(6).reshape(2, 3)
    a = lnp.asarray(x)
    for key in [True, False, (True, 1), (Ellipsis, False), np.bool_(True), np.array(True)]:
        assert_same(a[key], x[key])
    b, y = a.copy(), x.copy()
    lnp.reset_metrics()
    b[lnp.asarray(True) & True] = 7          # a pending 0-d mask: still a lazy select
    b[1, lnp.asarray(False) | False] = 8
    assert syncs() == 0
    y[True] = 7
    y[1, False] = 8
    assert_same(b, y)


# -- errors --------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", [[5], (slice(None), np.array([-4])), (0, [0, 3]),
                                 np.array([[0, 1], [2, 3]]), ([0, 1], 4)])
def test_host_indices_out_of_bounds_raise_at_the_call(key):
    x = np.zeros((3, 3))
    a = lnp.asarray(x)
    with pytest.raises(IndexError):
        x[key]
    lnp.reset_metrics()
    with pytest.raises(IndexError, match="out of bounds"):
        a[key]
    with pytest.raises(IndexError, match="out of bounds"):
        a[key] = 1.0
    assert syncs() == 0


def test_lazy_indices_out_of_bounds_raise_at_the_sync():
    a = lnp.asarray(np.zeros((3, 4)))
    bad = lnp.asarray(np.array([0, 7])) + 0
    lnp.reset_metrics()
    result = a[:, bad]
    take = lnp.take(a, bad, axis=0)
    assert syncs() == 0
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 1 with size 4") as info:
        result.sync()
    notes = info.value.__notes__
    assert any("check_index" in note and "test_indexing.py" in note for note in notes)
    with pytest.raises(IndexError, match="axis 0 with size 3"):
        np.asarray(take)
    b = lnp.asarray(np.zeros(3))
    b[bad] = 1.0
    with pytest.raises(IndexError, match="out of bounds"):
        b.sync()


@pytest.mark.parametrize("key, error", [
    ((0, 0, 0), "too many indices"), (1.5, "only integers"), ("a", "only integers"),
    (np.array([1.5]), "integer \\(or boolean\\) type"), ((Ellipsis, Ellipsis), "single ellipsis"),
    (np.ones(4, bool), "boolean index did not match"), (np.ones((2, 4), bool), "did not match"),
    (([0, 1], [0, 1, 2]), "shape mismatch"), (np.ones((3, 4, 1), bool), "too many indices"),
    ([0.0, 1.0], "integer"),
])
def test_bad_keys_raise_index_error(key, error):
    x = np.zeros((3, 4))
    a = lnp.asarray(x)
    with pytest.raises(IndexError):
        x[key]
    with pytest.raises(IndexError, match=error):
        a[key]
    with pytest.raises(IndexError, match=error):
        a[key] = 0.0


def test_setitem_value_errors_match_numpy():
    x = np.zeros(4, np.int8)
    a = lnp.asarray(x)
    for key in [0, slice(None), [1, 2]]:
        for value in [300, float("nan"), float("inf"), np.ones(3)]:
            same_error(lambda: a.__setitem__(key, value), lambda: x.copy().__setitem__(key, value))
    a[[0, 1]] = np.ones((1, 1, 2))       # extra leading size-1 dims are dropped, as NumPy does
    a[:] = 1.7
    assert_same(a, np.ones(4, np.int8))


@pytest.mark.parametrize("key, value", [
    (([], [-1, -1, -1]), -3.5), ([9, 2], 2**40), (([9, 1], [0, 1, 2]), 300),
    ([9, 2], np.zeros((1, 2))), (([9, 1], [0, 1]), [[1, 2, 3]]),
    (([9, 1], [0, 1, 2]), np.zeros((2, 2))), (([1, 1], 5), [[1, 2, 3]]),
])
def test_fancy_setitem_errors_come_in_numpys_order(key, value):
    # NumPy: the key's integers, then the value's conversion (OverflowError), the index
    # arrays' broadcast (IndexError), the value's broadcast (ValueError), and only then
    # the index bounds (IndexError).
    x = np.zeros((4, 3), np.uint8)
    a = lnp.asarray(x)
    same_error(lambda: a.__setitem__(key, value), lambda: x.__setitem__(key, value))
    assert_same(a, x)


@pytest.mark.parametrize("shape, key, value_shape", [
    ((0,), [[]], (3, 1, 0)), ((0,), [[]], (3, 2, 1)), ((0,), [[]], (0, 1)),
    ((5,), [[]], (2, 0)), ((5, 3), [[]], (2, 0, 3)), ((5, 3), [[]], (2, 1, 0)),
    ((5, 3), ([], []), (2, 1, 0)), ((5, 3), ([0, 1], slice(0, 0)), (3, 2, 0)),
    ((5, 3), ([0, 1], slice(0, 0)), (3, 2, 1)), ((5, 3), [[1, 2]], (1, 2, 3)),
    ((5, 3), [[1, 2]], (2, 1, 3)),
])
def test_fancy_setitem_value_with_extra_dims_is_reshaped_as_in_numpy(shape, key, value_shape):
    # NumPy reshapes a value with more dims than the result to its trailing dims when the
    # sizes agree (an empty value fits an empty result, whatever its leading dims).
    x = np.arange(float(np.prod(shape))).reshape(shape)
    a = lnp.asarray(x)
    value = np.arange(float(np.prod(value_shape))).reshape(value_shape)
    key = tuple(key)
    same_error(lambda: a.__setitem__(key, value), lambda: x.__setitem__(key, value))
    assert_same(a, x)



@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint8])
@pytest.mark.parametrize("key", [1, slice(None), (Ellipsis, 1), [1, 2]])
def test_numpy_scalars_store_into_signed_ints_as_int_does(dtype, key):
    # NumPy's basic-key setitem converts a NumPy scalar into a signed integer with int():
    # ValueError for NaN, OverflowError for inf and out-of-range; fancy keys and unsigned cast.
    values = [np.float64(np.nan), np.float32(np.inf), np.float64(300.0), np.int64(300),
              np.uint64(2**63), np.float64(-1.5)]
    for value in values:
        x = np.arange(4, dtype=dtype)
        a = lnp.asarray(x)
        with np.errstate(invalid="ignore"):
            result, expected = same_error(lambda: a.__setitem__(key, value) or a,
                                          lambda: x.__setitem__(key, value) or x)
        if expected is not None:
            assert_same(result, expected)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint8])
@pytest.mark.parametrize("step", [
    lambda a: a.__setitem__(-1, a[-1] / False),          # a[-1] /= False: inf
    lambda a: a.__setitem__(0, a[0] + np.nan),           # a[0] += nan
    lambda a: a.__setitem__(slice(None), a[1] * 1e300),
    lambda a: a.__setitem__(1, a[1] + np.int64(2**40)),
    lambda a: a.__setitem__((Ellipsis, 2), a[1] + 2.5),
])
def test_lazy_scalars_store_into_signed_ints_as_int_does(dtype, step):
    """A lazy scalar's int() conversion fails at the sync, with the op and line named, and
    leaves the array as NumPy does: unchanged.  (Unsigned targets cast, as in NumPy.)"""
    x = np.arange(1, 5, dtype=dtype)
    a = lnp.asarray(x)
    lnp.reset_metrics()
    step(a)
    assert syncs() == 0
    try:
        with np.errstate(all="ignore"):
            step(x)
    except (ValueError, OverflowError) as exc:
        with pytest.raises(type(exc)) as info:
            a.sync()
        assert any("int_value" in note and "test_indexing.py" in note
                   for note in info.value.__notes__)
    assert_same(a, x)

# -- take / put family -------------------------------------------------------------------------
@given(st.data(), st.sampled_from(["raise", "wrap", "clip"]), st.booleans())
def test_take_matches_numpy(data, mode, lazy_indices):
    x, lazy = data.draw(lazy_views())
    axis = data.draw(st.none() | st.integers(-x.ndim, x.ndim - 1)) if x.ndim else None
    size = x.size if axis is None else x.shape[axis]
    ishape = data.draw(shapes(max_dims=2, max_side=3))
    bound = max(size, 1) * (3 if mode != "raise" else 1)
    idx = np.array(data.draw(st.lists(st.integers(-bound, bound - 1), min_size=int(np.prod(ishape)),
                                      max_size=int(np.prod(ishape)))), np.int64).reshape(ishape)
    indices = lnp.asarray(idx) if lazy_indices else idx
    if size == 0 and mode == "wrap":
        mode = "clip"       # NumPy 2.4 loops forever on mode='wrap' over an empty axis
    result, expected = same_error(lambda: lnp.take(lazy, indices, axis=axis, mode=mode),
                                  lambda: np.take(x, idx, axis=axis, mode=mode))
    if expected is not None:
        assert_same(result, expected)


def test_take_method_out_and_dispatch():
    x = np.arange(12.0).reshape(3, 4)
    a = lnp.asarray(x)
    assert_same(a.take([0, 2], axis=1), x.take([0, 2], axis=1))
    assert_same(np.take(a, 5), np.take(x, 5))
    out = lnp.zeros((3, 2))
    assert lnp.take(a, [3, 1], axis=1, out=out) is out
    assert_same(out, x[:, [3, 1]])
    with pytest.raises(ValueError, match="clipmode"):
        lnp.take(a, [0], mode="nope")
    with pytest.raises(IndexError, match="empty"):
        lnp.take(lnp.zeros((0, 3)), [0], axis=0, mode="wrap")
    with pytest.raises(TypeError):
        lnp.take(a, np.array([0.5]))


@given(st.data(), st.booleans())
def test_take_along_axis_and_put_along_axis(data, lazy_indices):
    x, lazy = data.draw(lazy_views(arrays(shape=shapes(min_dims=1, min_side=1), small=True)))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    ishape = tuple(data.draw(st.sampled_from([1, d])) for d in x.shape)
    ishape = ishape[:axis % x.ndim] + (data.draw(st.integers(0, 4)),) + ishape[axis % x.ndim + 1:]
    size = x.shape[axis]
    idx = np.array(data.draw(st.lists(st.integers(-size, size - 1), min_size=int(np.prod(ishape)),
                                      max_size=int(np.prod(ishape)))), np.int64).reshape(ishape)
    indices = lnp.asarray(idx) if lazy_indices else idx
    assert_same(lnp.take_along_axis(lazy, indices, axis=axis),
                np.take_along_axis(x, idx, axis=axis))
    values = data.draw(st.integers(0, 9)) if data.draw(st.booleans()) else \
        data.draw(arrays(x.dtype, st.just(idx.shape), small=True))
    expected = x.copy()
    np.put_along_axis(expected, idx, values, axis)
    lnp.put_along_axis(lazy, indices, values, axis)
    assert_same(lazy, expected)


def test_take_along_axis_errors_and_axis_none():
    x = np.arange(6).reshape(2, 3)
    a = lnp.asarray(x)
    flat = np.array([4, -1])
    assert_same(lnp.take_along_axis(a, flat, None), np.take_along_axis(x, flat, None))
    with pytest.raises(IndexError, match="integer array"):
        lnp.take_along_axis(a, np.array([[0.5]]), 1)
    with pytest.raises(ValueError, match="same number of dimensions"):
        lnp.take_along_axis(a, np.array([0]), 1)
    with pytest.raises(ValueError, match="single dimension"):
        lnp.take_along_axis(a, np.array([[0]]), None)
    with pytest.raises(IndexError, match="shape mismatch"):
        lnp.take_along_axis(a, np.zeros((3, 1), int), 1)
    with pytest.raises(IndexError, match="out of bounds"):
        lnp.take_along_axis(a, np.array([[5]]), 1)
    b, y = a.copy(), x.copy()
    lnp.put_along_axis(b, np.array([4, -1]), [7, 8], None)
    np.put_along_axis(y, np.array([4, -1]), [7, 8], None)
    assert_same(b, y)


@given(st.data(), st.sampled_from(["raise", "wrap", "clip"]), st.booleans())
def test_put_matches_numpy(data, mode, lazy_indices):
    x, lazy = data.draw(lazy_views(arrays(shape=shapes(min_dims=1), small=True)))
    bound = max(x.size, 1) * (3 if mode != "raise" else 1)
    n = data.draw(st.integers(0, 6))
    idx = np.array(data.draw(st.lists(st.integers(-bound, bound - 1), min_size=n, max_size=n)),
                   np.int64)
    values = data.draw(arrays(x.dtype, shapes(max_dims=1, max_side=4), small=True))
    expected = x.copy()
    try:
        np.put(expected, idx, values, mode=mode)
    except IndexError:
        with pytest.raises(IndexError):
            lnp.put(lazy, lnp.asarray(idx) if lazy_indices else idx, values, mode=mode)
            lazy.sync()
        return
    lnp.put(lazy, lnp.asarray(idx) if lazy_indices else idx, values, mode=mode)
    assert_same(lazy, expected)


@given(st.data())
def test_compress_extract_place(data):
    x, lazy = data.draw(lazy_views(arrays(shape=shapes(min_dims=1), small=True)))
    axis = data.draw(st.none() | st.integers(-x.ndim, x.ndim - 1))
    length = x.size if axis is None else x.shape[axis]
    cond = data.draw(arrays(np.dtype(bool), st.just((data.draw(st.integers(0, length)),))))
    lazy_cond = lnp.asarray(cond) if data.draw(st.booleans()) else cond
    assert_same(lnp.compress(lazy_cond, lazy, axis=axis), np.compress(cond, x, axis=axis))
    mask = data.draw(arrays(np.dtype(bool), st.just(x.shape)))
    assert_same(lnp.extract(lnp.asarray(mask), lazy), np.extract(mask, x))
    values = data.draw(arrays(x.dtype, shapes(min_dims=1, max_dims=1, min_side=1, max_side=3),
                              small=True))
    expected = x.copy()
    np.place(expected, mask, values)
    lnp.place(lazy, lnp.asarray(mask), values)
    assert_same(lazy, expected)


def test_compress_and_place_errors():
    a = lnp.asarray(np.arange(3))
    with pytest.raises(IndexError, match="out of bounds"):
        lnp.compress([0, 1, 0, 0, 1], a)
    with pytest.raises(ValueError, match="1-d"):
        lnp.compress([[True]], a)
    with pytest.raises(ValueError, match="same size"):
        lnp.place(a, [True], [1])
    with pytest.raises(ValueError, match="empty"):
        lnp.place(a, [True, False, True], [])


@given(lazy_views(arrays(dtypes, shapes(min_dims=1), small=True)))
def test_nonzero_flatnonzero_argwhere(case):
    x, lazy = case
    lnp.reset_metrics()
    got = lnp.nonzero(lazy)
    assert isinstance(got, tuple) and len(got) == x.ndim
    for r, e in zip(got, np.nonzero(x)):
        assert_same(r, e)
    assert_same(lnp.flatnonzero(lazy), np.flatnonzero(x))
    assert_same(lnp.argwhere(lazy), np.argwhere(x))
    assert_same(lazy.nonzero()[0], x.nonzero()[0])
    # nonzero is lazy (a bounded array): only the comparisons' np.asarray synced
    assert {reason for reason, _ in lnp_telemetry.sync_sites} <= {"__array__"}


def test_nonzero_zero_d_and_syncs():
    with pytest.raises(ValueError, match="0d"):
        lnp.nonzero(lnp.asarray(3))
    assert_same(lnp.argwhere(lnp.asarray(3)), np.argwhere(3))
    assert_same(lnp.flatnonzero(lnp.asarray(0)), np.flatnonzero(0))
    a = lnp.asarray(np.arange(5)) - 2
    lnp.reset_metrics()
    (index,) = lnp.nonzero(a)
    assert lnp.metrics()["syncs"] == 0 and isinstance(index, lnp.BoundedArray)
    assert repr(index.shape) == "(<=5,)"


def test_ufunc_at_add_subtract():
    x = np.zeros((3, 4))
    a = lnp.asarray(x)
    np.add.at(x, ([0, 0, 2], [1, 1, 3]), 1.5)
    lnp.add.at(a, ([0, 0, 2], [1, 1, 3]), 1.5)
    np.subtract.at(x, (slice(None), [0, 0]), np.array([[1.0], [2.0], [3.0]]))
    np.subtract.at(a, (slice(None), [0, 0]), lnp.asarray([[1.0], [2.0], [3.0]]))
    np.add.at(x.T, [3, 3], 1.0)
    np.add.at(a.T, lnp.asarray([3, 3]), 1.0)
    np.add.at(x, x > 0, 10.0)
    np.add.at(a, a > 0, 10.0)
    assert_same(a, x)
    with pytest.raises(NotImplementedError, match="power.at"):     # not lazy
        ufunc_at(lnp.power, a, [0], 2.0)
    with pytest.raises(IndexError):
        lnp.add.at(a, [5], 1.0)


@pytest.mark.parametrize("dtype, values", [
    (np.int64, 1.5), (np.int32, np.array([1, 2, 3, 4], np.int64)),
    (np.int16, np.array([0.6, 0.6, 0.6, 0.7])), (np.float32, np.array([0.1, 0.2, 0.3, 0.4]))])
def test_ufunc_at_with_a_loop_in_another_dtype(dtype, values):
    # Review finding: NumPy casts back to a's dtype after every contribution, so repeated
    # indices in a mixed loop (int array, float value) must not be summed first.
    y = np.zeros(4, dtype)
    b = lnp.asarray(y)
    key = [0, 0, 1, 0]
    np.add.at(y, key, values)
    np.add.at(b, key, values)        # not lazy: NumPy's own add.at, written back
    assert_same(b, y)
    np.subtract.at(y, key, values)
    np.subtract.at(b, lnp.asarray(key), values)
    assert_same(b, y)
    if dtype != np.int32:       # (int64 sums into int32: wrapping commutes, so lazy)
        with pytest.raises(NotImplementedError, match="loop"):
            ufunc_at(lnp.add, b, key, values)
    assert_same(b, y)


def test_diag_indices():
    x = np.arange(9).reshape(3, 3)
    a = lnp.asarray(x)
    assert_same(a[lnp.diag_indices_from(a)], x[np.diag_indices_from(x)])
    a[lnp.diag_indices(3)] = 0
    x[np.diag_indices(3)] = 0
    assert_same(a, x)


def test_put_family_writes_a_numpy_target_like_numpy():
    for function, args in ((np.put, ([0, 2], 5.0)), (np.place, (None, [7.0])),
                           (np.put_along_axis, (np.array([[1], [0]]), 9.0, 1))):
        want, got = np.zeros((2, 2)), np.zeros((2, 2))
        ours = getattr(lnp, function.__name__)
        if function is np.place:
            function(want, want == 0, *args[1:])
            ours(got, lnp.asarray(got == 0), *args[1:])
        else:
            function(want, *args)
            ours(got, *args)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape, mask_shape", [
    ((3, 2, 0), (3, 0)), ((3, 2), (3, 0)), ((3, 2, 1), (3, 0)), ((3, 2, 0, 4), (3, 0)),
    ((3, 2, 0), (0, 2)), ((3, 2, 0), (0,)), ((3, 2), (0, 0)), ((3, 2, 0), (3, 5)), ((0, 2), (5,))])
def test_mask_dim_of_extent_zero_matches_any_axis(shape, mask_shape):
    """NumPy lets a boolean index dim of extent 0 stand against an axis of any extent
    (``a[a[:, 0] > 0]`` on a (3, 2, 0) array selects nothing); other mismatches raise."""
    x = np.arange(float(np.prod(shape))).reshape(shape)
    mask = np.zeros(mask_shape, bool)
    for lazy_key, numpy_key in ((mask, mask), ((mask, Ellipsis), (mask, Ellipsis)),
                                (lnp.asarray(mask), mask)):
        got, want = same_error(lambda: lnp.asarray(x)[lazy_key], lambda: x[numpy_key])
        if want is not None:
            assert_same(got, want)
    for value in (7.0, [7.0]):
        lazy, expected = lnp.asarray(x), x.copy()
        same_error(lambda: lazy.__setitem__(mask, value),
                   lambda: expected.__setitem__(mask, value))
        assert_same(lazy, expected)


def test_reported_mask_from_an_empty_column():
    x = np.zeros((3, 2, 0))
    lazy = lnp.asarray(x)
    assert_same(lazy[lazy[:, 0] > 0], x[x[:, 0] > 0])
    lazy[lazy[:, 0] > 0] = 1.0
    x[x[:, 0] > 0] = 1.0
    assert_same(lazy, x)


@pytest.mark.parametrize("value", [[300], (300,), [-3.5], [1.5], [np.int64(300)], [True], [1, 2.5, 3]])
@pytest.mark.parametrize("key", [slice(None, 1), [0]], ids=["slice", "fancy"])
def test_sequence_values_convert_their_python_scalars_as_numpy(value, key):
    """a[:1] = [300] into uint8 is NumPy's OverflowError (each Python scalar of the sequence
    is stored as it would be alone), not a wrapped 44."""
    n = len(value)
    key = slice(None, n) if isinstance(key, slice) else list(range(n))
    expected = np.zeros(3, np.uint8)
    try:
        expected[key] = value
    except Exception as exc:                      # noqa: BLE001 (NumPy's type is the point)
        got = lnp.zeros(3, lnp.uint8)
        with pytest.raises(type(exc)):
            got[key] = value
        np.testing.assert_array_equal(np.asarray(got), np.zeros(3, np.uint8))
        return
    got = lnp.zeros(3, lnp.uint8)
    got[key] = value
    assert np.asarray(got).dtype == np.uint8
    np.testing.assert_array_equal(np.asarray(got), expected)


@pytest.mark.parametrize("shape, value_shape", [((3, 5), (1, 15)), ((3, 5), (3, 5)), ((15,), (1, 15)),
                                                ((3, 5), (1, 1)), ((3, 5), (15,)), ((3, 5), ())])
def test_full_boolean_mask_assignment_takes_only_0d_and_1d_values(shape, value_shape):
    """NumPy's boolean-assignment path (one mask with the array's dimensions) raises
    TypeError for a value of 2 or more dimensions, even one that would broadcast."""
    x = np.arange(15.0).reshape(shape)
    value = np.zeros(value_shape)
    got = lnp.asarray(x)
    if len(value_shape) > 1:
        with pytest.raises(TypeError, match="0 or 1-dimensional"):
            x[x > -1] = value
        with pytest.raises(TypeError, match="0 or 1-dimensional"):
            got[got > -1] = value
        np.testing.assert_array_equal(np.asarray(got), np.arange(15.0).reshape(shape))
        return
    x[x > -1] = value
    got[got > -1] = value
    np.testing.assert_array_equal(np.asarray(got), x)


def test_an_element_of_a_computed_array_is_read_without_a_sync_and_keeps_its_value():
    x = lnp.asarray(np.arange(12.0).reshape(3, 4)) * 2.0
    np.asarray(x)                                   # computed
    lnp.reset_metrics()
    first, last = x[1, 2], x[-1, -1]
    assert lnp.metrics()["syncs"] == 0
    x[1, 2] = -1.0                                  # a later write: the read value stays
    assert (float(first), float(last), float(x[1, 2])) == (12.0, 22.0, -1.0)
    assert first.dtype == np.float64 and first.shape == ()
    with pytest.raises(IndexError):
        x[3, 0]


@pytest.mark.parametrize("dtype", ["complex64", "float64", "int8", "bool"])
@pytest.mark.parametrize("value_shape", [(1, 1), (2,)])
def test_a_sequence_into_one_element_raises_numpys_error(dtype, value_shape):
    # fuzz seed 1010220: complex() of a sequence is NumPy's TypeError for complex arrays; a
    # bool array takes a one-element sequence's truth value
    value = np.ones(value_shape, dtype=np.uint8)
    outcomes = []
    for module in (np, lnp):
        target = module.zeros(3, dtype=dtype)
        try:
            target[1] = module.asarray(value)
            outcomes.append(("ok", np.asarray(target).tolist()))
        except (TypeError, ValueError) as exc:
            outcomes.append((type(exc).__name__, None))
    assert outcomes[0] == outcomes[1]
