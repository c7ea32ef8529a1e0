"""Bounded dims: data-dependent shapes that stay lazy, differential against NumPy."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazynum as lnp
from lazynum.control import telemetry as lnp_telemetry
from lazynum.runtime import compile_cache

from .. import strategies as S
from ..strategies import assert_same

# NumPy's own statistics of empty selections warn; the expected values are NumPy's.
pytestmark = pytest.mark.filterwarnings("ignore:Mean of empty slice", "ignore:Degrees of freedom",
                                        "ignore:invalid value encountered")

floats = S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=1, max_dims=3, min_side=0, max_side=6),
                  small=True)


def syncs():
    return lnp.metrics()["syncs"]


@given(floats, st.floats(-1e3, 1e3))
def test_mask_select_matches_numpy_without_a_sync(x, t):
    a = lnp.asarray(x)
    lnp.reset_metrics()
    y = a[a > t]
    assert syncs() == 0 and isinstance(y, lnp.BoundedArray)
    assert lnp.bound_shape(y) == (x.size,)
    assert_same(y, x[x > t])


@given(S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=2, max_dims=3, min_side=1, max_side=5),
                small=True), st.floats(-1e3, 1e3))
def test_a_mask_over_leading_dims_keeps_the_trailing_ones(x, t):
    a = lnp.asarray(x)
    row_mask = x.sum(axis=-1) > t
    y = a[lnp.asarray(row_mask)]
    assert y.shape[1:] == x.shape[row_mask.ndim:]
    assert_same(y, x[row_mask])


REDUCTIONS = ["sum", "prod", "mean", "var", "std", "max", "min", "any", "all", "argmax", "argmin"]


@given(floats, st.floats(-1e3, 1e3), st.sampled_from(REDUCTIONS))
def test_reductions_ignore_the_padding_and_raise_numpys_error_when_empty(x, t, name):
    a = lnp.asarray(x)
    y = a[a > t]
    expected_input = x[x > t]
    lnp.reset_metrics()
    try:
        expected = getattr(expected_input, name)()
    except ValueError as exc:
        # at the sync; or at the call when the bound itself is 0 (statically empty)
        with pytest.raises(ValueError, match=str(exc).split(" which")[0]):
            np.asarray(getattr(y, name)())
        return
    result = getattr(y, name)()
    assert syncs() == 0
    with np.errstate(all="ignore"):
        assert_same(result, expected, rtol=1e-9, atol=1e-9)


@given(S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=2, max_dims=2, min_side=1, max_side=5),
                small=True), st.floats(-1e3, 1e3), st.sampled_from(["sum", "mean", "max", "std"]),
       st.sampled_from([0, 1, None, -1]), st.booleans())
def test_reductions_along_or_across_the_bounded_axis(x, t, name, axis, keepdims):
    rows = x[:, 0] > t
    if name == "max" and not rows.any() and axis in (0, None, -2):
        return                              # empty: covered by the test above
    y = lnp.asarray(x)[lnp.asarray(rows)]
    result = getattr(y, name)(axis=axis, keepdims=keepdims)
    with np.errstate(all="ignore"):
        assert_same(result, getattr(x[rows], name)(axis=axis, keepdims=keepdims), rtol=1e-9, atol=1e-9)


@given(floats, st.floats(-1e3, 1e3), st.floats(-5, 5))
def test_elementwise_scans_and_sorts_on_bounded_arrays(x, t, k):
    a = lnp.asarray(x)
    y, ref = a[a > t], x[x > t]
    assert_same(lnp.exp(y * 0.01) + k, np.exp(ref * 0.01) + k)
    assert_same(y - y.mean() if ref.size else y, ref - ref.mean() if ref.size else ref,
                rtol=1e-9, atol=1e-9)
    assert_same(lnp.cumsum(y * 2), np.cumsum(ref * 2))
    assert_same(lnp.sort(-y), np.sort(-ref))
    assert_same(y.argsort(), ref.argsort(kind="stable"))
    assert_same(lnp.where(y > 0, y, -y), np.where(ref > 0, ref, -ref))


def test_bounded_operands_from_different_masks_are_checked_at_the_sync():
    x = lnp.asarray(np.arange(6.0))
    same = x[x < 3] + x[x >= 3]               # 3 and 3 elements: NumPy adds them
    assert_same(same, np.arange(3.0) + np.arange(3.0, 6.0))
    different = x[x < 2] + x[x >= 2]          # 2 and 4: NumPy's broadcast error, at the sync
    with pytest.raises(ValueError, match="could not be broadcast"):
        np.asarray(different)
    full = x[x >= 0] * x                      # bounded (all kept) with a regular array
    assert_same(full, np.arange(6.0) ** 2)


@given(S.arrays(S.st.just(np.dtype(np.int64)), S.shapes(min_dims=1, max_dims=3, min_side=0, max_side=5),
                small=True))
def test_nonzero_family_matches_numpy_lazily(x):
    a = lnp.asarray(x)
    lnp.reset_metrics()
    got = (lnp.nonzero(a), lnp.flatnonzero(a), lnp.argwhere(a), lnp.where(a > 0))
    assert syncs() == 0
    for r, e in zip(got[0], np.nonzero(x)):
        assert_same(r, e)
    assert_same(got[1], np.flatnonzero(x))
    assert_same(got[2], np.argwhere(x))
    for r, e in zip(got[3], np.where(x > 0)):
        assert_same(r, e)
    assert_same(a[lnp.nonzero(a)], x[np.nonzero(x)])


@given(S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=2, max_dims=2, min_side=1, max_side=5)),
       st.data())
def test_compress_and_extract_with_lazy_conditions(x, data):
    axis = data.draw(st.sampled_from([0, 1, None]))
    n = x.size if axis is None else x.shape[axis]
    cond = np.array(data.draw(st.lists(st.booleans(), min_size=0, max_size=n)), dtype=bool)
    assert_same(lnp.compress(lnp.asarray(cond), lnp.asarray(x), axis=axis),
                np.compress(cond, x, axis=axis))
    mask = x > 0
    assert_same(lnp.extract(lnp.asarray(mask), lnp.asarray(x)), np.extract(mask, x))


@given(floats, st.floats(-1e3, 1e3), st.floats(-3, 3))
def test_masked_writes_keep_the_shape_and_never_sync(x, t, v):
    a, ref = lnp.asarray(x), x.copy()
    lnp.reset_metrics()
    a[a > t] += v
    a[a < t] = v
    ref[ref > t] += v
    ref[ref < t] = v
    assert syncs() == 0
    assert_same(a, ref)


def test_shapes_users_touch():
    x = lnp.asarray(np.arange(10.0))
    y = x[x > 6.5]
    lnp.reset_metrics()
    dim = y.shape[0]
    assert isinstance(dim, lnp.LazySize) and repr(y.shape) == "(<=10,)"
    assert syncs() == 0
    assert len(y) == 3 and int(dim) == 3 and dim == 3
    assert syncs() >= 1                         # len/int need a concrete int: a sync
    assert int(lnp.get_dim_size(y, 0)) == 3 and lnp.bound_shape(y) == (10,)
    assert int(lnp.get_dim_size(x, 0)) == 10


def test_set_dim_size_checks_its_size_at_the_sync():
    x = lnp.asarray(np.arange(8.0))
    y = lnp.set_dim_size(x, 0, lnp.asarray(3))
    assert_same(y, np.arange(3.0))
    assert y.sum().item() == 3.0
    too_big = lnp.set_dim_size(x, 0, lnp.asarray(9))
    with pytest.raises(ValueError, match="set_dim_size"):
        too_big.sum().item()
    with pytest.raises(TypeError):
        lnp.set_dim_size(x, 0, 2.5)


def test_one_sync_and_one_program_for_any_threshold_and_data():
    compile_cache.clear_memory()
    lnp.reset_metrics()
    rng = np.random.default_rng(0)
    for t in (-1.0, 0.0, 0.5, 2.0):
        data = rng.standard_normal(50)
        x = lnp.asarray(data)
        before = syncs()
        y = x[x > t]
        value = y.mean().item() if (data > t).any() else None
        if value is not None:
            assert value == pytest.approx(data[data > t].mean())
            assert syncs() - before == 1
    assert lnp.metrics()["compiles"] == 1


def test_unsupported_operations_run_on_the_true_size_array():
    x = lnp.asarray(np.arange(10.0))
    y = x[x > 4.5]
    assert_same(y.reshape(5, 1), np.arange(5.0, 10.0).reshape(5, 1))
    assert_same(lnp.diff(y), np.diff(np.arange(5.0, 10.0)))
    assert ("bounded" in {r for r, _ in lnp_telemetry.sync_sites}
            or "__array__" in {r for r, _ in lnp_telemetry.sync_sites})


def test_graph_text_shows_bounded_dims_as_at_most_the_bound():
    x = lnp.asarray(np.arange(6.0))
    text = lnp.graph_text(x[x > 2])
    assert "bounded: float64[<=6]" in text and "compact(" in text
