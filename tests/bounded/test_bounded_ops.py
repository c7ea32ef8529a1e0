"""Bounded dims, second part: chains of data-dependent ops, joins, contractions, factories."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazynum as lnp
from lazynum.runtime import compile_cache

from .. import strategies as S
from ..strategies import assert_same

vectors = S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=1, max_dims=1, min_side=0, max_side=12),
                   small=True)
small_ints = S.arrays(S.st.just(np.dtype(np.int64)), S.shapes(min_dims=1, max_dims=2, min_side=0, max_side=6),
                      small=True).map(lambda a: a % 5)


def syncs():
    return lnp.metrics()["syncs"]


@given(vectors, st.floats(-1e3, 1e3), st.floats(-1e3, 1e3))
def test_a_mask_of_a_mask(x, t, u):
    a = lnp.asarray(x)
    y = a[a > t]
    lnp.reset_metrics()
    z = y[y < u]
    assert syncs() == 0
    ref = x[x > t]
    assert_same(z, ref[ref < u])
    assert_same(z * 2 + z.sum(), ref[ref < u] * 2 + ref[ref < u].sum())


@given(small_ints, st.booleans(), st.booleans(), st.booleans())
def test_unique_matches_numpy_lazily(x, index, inverse, counts):
    lnp.reset_metrics()
    got = lnp.unique(lnp.asarray(x), return_index=index, return_inverse=inverse, return_counts=counts)
    assert syncs() == 0
    expected = np.unique(x, return_index=index, return_inverse=inverse, return_counts=counts)
    got = got if isinstance(got, tuple) else (got,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    for g, e in zip(got, expected):
        assert_same(g, e)


@given(vectors.map(lambda a: np.round(a / 100)), st.floats(-10, 10))
def test_unique_of_a_masked_selection_with_nans(x, t):
    x = np.where(x > 5, np.nan, x)
    a = lnp.asarray(x)
    lnp.reset_metrics()
    values, index, inverse, counts = lnp.unique(a[~(a < t)], return_index=True,
                                                return_inverse=True, return_counts=True)
    assert syncs() == 0
    expected = np.unique(x[~(x < t)], return_index=True, return_inverse=True, return_counts=True)
    for got, want in zip((values, index, inverse, counts), expected):
        assert_same(got, want)


@pytest.mark.parametrize("flags", [{}, {"return_counts": True}, {"return_inverse": True},
                                   {"return_index": True}])
def test_unique_keeps_numpys_signed_zero_and_nan(flags):
    """Of equal values (0.0 and -0.0, NaNs of either sign) unique returns the one NumPy's
    own sort puts first: its quicksort's (not the first occurrence) unless return_index."""
    rng = np.random.default_rng(7)
    for _ in range(30):
        x = rng.choice(np.array([-0.5, 0.0, -0.0, 1.0, np.nan, -np.nan]), int(rng.integers(2, 40)))
        got = lnp.unique(lnp.asarray(x), **flags)
        expected = np.unique(x, **flags)
        got = got if isinstance(got, tuple) else (got,)
        expected = expected if isinstance(expected, tuple) else (expected,)
        for g, e in zip(got, expected):
            assert_same(g, e)
            assert np.array_equal(np.asarray(g).view(np.int64), e.view(np.int64)), x


@given(S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=1, max_dims=3, min_side=0, max_side=5),
                small=True), st.floats(-1e3, 1e3))
def test_nonzero_then_gather_then_reduce(x, t):
    a = lnp.asarray(x)
    lnp.reset_metrics()
    picked = a[lnp.nonzero(a > t)]
    total = picked.sum()
    assert syncs() == 0
    assert_same(picked, x[np.nonzero(x > t)])
    assert_same(total, x[np.nonzero(x > t)].sum(), rtol=1e-9, atol=1e-9)


@given(vectors, st.integers(-15, 15), st.integers(-15, 15))
def test_slices_with_lazy_bounds(x, start, stop):
    a = lnp.asarray(x)
    lazy_start, lazy_stop = lnp.asarray(np.int64(start)), lnp.asarray(np.int64(stop))
    lnp.reset_metrics()
    got = (a[:lazy_stop], a[lazy_start:lazy_stop], a[lazy_start:])
    assert syncs() == 0 and all(isinstance(g, lnp.BoundedArray) for g in got)
    for g, e in zip(got, (x[:stop], x[start:stop], x[start:])):
        assert_same(g, e)


@given(vectors, vectors, st.floats(-1e3, 1e3))
def test_concatenate_and_stack(x, w, t):
    a, b = lnp.asarray(x), lnp.asarray(w)
    y, ref = a[a > t], x[x > t]
    assert_same(lnp.concatenate([y, b, y * 2]), np.concatenate([ref, w, ref * 2]))
    assert_same(lnp.stack([y, y + 1], axis=1), np.stack([ref, ref + 1], axis=1))


@given(S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=2, max_dims=2, min_side=1, max_side=5),
                small=True), st.floats(-1e3, 1e3))
def test_matmul_with_a_bounded_contraction_dim(x, t):
    a = lnp.asarray(x)
    keep = x[:, 0] > t
    rows = a[lnp.asarray(keep)]                 # (<=n, m)
    ref = x[keep]
    assert_same(rows @ a.T, ref @ x.T, rtol=1e-9, atol=1e-9)      # bounded rows stay bounded
    assert_same(rows.T @ rows if False else lnp.matmul(ref.T, ref), ref.T @ ref, rtol=1e-9, atol=1e-9)
    first = rows[:, 0]
    assert_same(first @ first, ref[:, 0] @ ref[:, 0], rtol=1e-9, atol=1e-9)


def test_factories_sized_by_a_bounded_dim_stay_lazy():
    x = lnp.asarray(np.arange(10.0))
    y = x[x > 6.5]
    lnp.reset_metrics()
    zeros, index = lnp.zeros(y.shape), lnp.arange(y.shape[0])
    full = lnp.full(y.shape[0] + 1, 2.0)
    assert syncs() == 0
    assert_same(zeros, np.zeros(3))
    assert_same(index, np.arange(3))
    assert_same(full, np.full(4, 2.0))
    assert_same(y + index, np.array([7.0, 9.0, 11.0]))


def test_explicit_padding_keywords_give_static_shapes():
    x = lnp.asarray(np.array([0, 3, 0, 1, 3]))
    (idx,) = lnp.nonzero(x, size=5, fill_value=-1)
    assert isinstance(idx, lnp.ndarray) and idx.shape == (5,)
    assert_same(idx, np.array([1, 3, 4, -1, -1]))
    assert_same(lnp.unique(x, size=4, fill_value=9), np.array([0, 1, 3, 9]))


def test_size_mismatches_raise_at_the_sync_and_leave_inputs_intact():
    data = np.arange(8.0)
    x = lnp.asarray(data)
    bad = x[x > 2] + x[x > 4]
    with pytest.raises(ValueError, match="could not be broadcast"):
        bad.sum().item()
    assert_same(x, data)
    y = x[x > 2]
    with pytest.raises(ValueError, match="cannot assign"):
        x[x > 5] = y
        np.asarray(x)
    assert_same(y, data[data > 2])


def test_twenty_thresholds_compile_once_with_one_sync_each():
    compile_cache.clear_memory()
    rng = np.random.default_rng(1)
    data = rng.standard_normal(1000)
    x = lnp.asarray(data)
    lnp.reset_metrics()
    for t in np.linspace(-2, 2, 20):
        y = x[x > t]
        assert y.mean().item() == pytest.approx(data[data > t].mean())
    assert lnp.metrics()["syncs"] == 20 and lnp.metrics()["compiles"] == 1


def test_writes_into_a_bounded_array():
    x = lnp.asarray(np.arange(-4.0, 5.0))
    y = x[x > -2]
    y[y > 1.5] = 0.0
    ref = np.arange(-4.0, 5.0)
    ref = ref[ref > -2]
    ref[ref > 1.5] = 0.0
    assert_same(y, ref)
    y[0] = 7.0                                    # other keys: y becomes true-size first
    ref[0] = 7.0
    assert_same(y, ref)


@given(vectors, st.floats(-1e3, 1e3), st.floats(-5, 5))
def test_elementwise_functions_transpose_and_copies_stay_bounded(x, t, k):
    a = lnp.asarray(x)
    y, ref = a[a > t], x[x > t]
    lnp.reset_metrics()
    got = (lnp.clip(y, -k, k), y.clip(0, 1), lnp.round(y / 7, 2), y.T, y.copy(), y.ravel())
    assert syncs() == 0 and all(isinstance(g, lnp.BoundedArray) for g in got)
    for g, e in zip(got, (np.clip(ref, -k, k), ref.clip(0, 1), np.round(ref / 7, 2), ref.T,
                          ref.copy(), ref.ravel())):
        assert_same(g, e)
    rows = lnp.asarray(np.outer(x, [1.0, 2.0]))[a > t]
    assert_same(rows.T, np.outer(ref, [1.0, 2.0]).T)


@given(S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=2, max_dims=2, min_side=1, max_side=5),
                small=True), st.floats(-1e3, 1e3), st.sampled_from([
                    (slice(None), None), (None, slice(None)), (slice(None), 0), (slice(None), slice(1, None)),
                    (slice(None), None, -1), (slice(None), slice(None, None, -1))]))
def test_basic_keys_on_the_regular_dims_of_a_bounded_array(x, t, key):
    keep = x[:, 0] > t
    y = lnp.asarray(x)[lnp.asarray(keep)]
    lnp.reset_metrics()
    got = y[key]
    assert syncs() == 0 and isinstance(got, lnp.BoundedArray)
    assert_same(got, x[keep][key])


@given(S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=2, max_dims=2, min_side=1, max_side=5),
                small=True), st.floats(-1e3, 1e3),
       st.sampled_from(["ravel", "flatten", "flat_reshape", "column", "row_block", "lazy_size"]))
def test_reshapes_that_keep_the_padding_apart_stay_lazy(x, t, form):
    a = lnp.asarray(x)
    keep = x[:, 0] > t
    y, ref = a[lnp.asarray(keep)], x[keep]
    k = x.shape[1]
    forms = {
        "ravel": (lambda v: v.ravel(), lambda v: v.ravel()),
        "flatten": (lambda v: v.flatten(), lambda v: v.flatten()),
        "flat_reshape": (lambda v: lnp.reshape(v, -1), lambda v: np.reshape(v, -1)),
        "column": (lambda v: v.reshape(-1, 1, k), lambda v: v.reshape(-1, 1, k)),
        "row_block": (lambda v: v[:, 0].reshape(1, -1), lambda v: v[:, 0].reshape(1, -1)),
        "lazy_size": (lambda v: v.reshape(v.shape[0], k, 1), lambda v: v.reshape(len(v), k, 1)),
    }
    lazy, eager = forms[form]
    lnp.reset_metrics()
    got = lazy(y)
    assert syncs() == 0 and isinstance(got, lnp.BoundedArray)
    assert_same(got, eager(ref))
    assert_same(got.sum(), eager(ref).sum(), rtol=1e-12, atol=1e-12)


def test_other_reshapes_of_a_bounded_array_run_on_the_true_size_array():
    a = lnp.asarray(np.arange(10.0))
    y = a[a > 3.5]                                   # 6 elements
    assert_same(y.reshape(2, -1), np.arange(4.0, 10.0).reshape(2, -1))
    with pytest.raises(ValueError):
        y.reshape(4, -1)                             # NumPy's error for 6 elements


@pytest.mark.parametrize("values, threshold", [([0.0, 0.0, 0.0], 7), ([3.0, 1.0, 2.0], 1), ([5.0, 0.0, 2.0], -1)])
def test_a_bounded_operand_aligned_in_two_dims_keeps_both(values, threshold):
    """where(regular, regular, bounded 2-d): each dim's stretch or crop applies to the array
    the earlier dims already aligned (the second dim undid the first: shapes (2,0) vs (3,0))."""
    base = np.array(values)
    order = np.argsort(base)
    expected_rows = order[order > threshold]
    expected_cols = np.argwhere(order)
    expected_outer = expected_rows == expected_cols
    squeezed = np.squeeze(expected_outer)
    expected = np.where(squeezed != -1, squeezed, expected_outer)

    lazy_order = lnp.argsort(lnp.asarray(base))
    outer = lazy_order[lazy_order > threshold] == lnp.argwhere(lazy_order)
    got = lnp.where(lnp.squeeze(outer) != -1, lnp.squeeze(outer), outer)
    result = np.asarray(got)
    assert result.shape == expected.shape and result.dtype == expected.dtype
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("values", [[0.0], [0.0, 3.0], [2.0, 5.0, 7.0]])
def test_a_bounded_mask_of_run_time_size_0_selects_nothing_from_any_extent(values):
    """NumPy indexes with an empty boolean array as with an empty integer one, whatever the
    indexed extent: a mask of run-time size 0 is no IndexError (it raised one at the sync)."""
    base = np.array(values)
    expected_indices = np.nonzero(base < -1)[0]                      # always empty
    expected = np.nonzero(base >= -1)[0][expected_indices >= 2]      # shapes (n,) vs (0,)
    lazy = lnp.asarray(base)
    indices = lnp.nonzero(lazy >= -1)[0]
    got = indices[lnp.nonzero(lazy < -1)[0] >= 2]
    result = np.asarray(got)
    assert result.shape == expected.shape == (0,) and result.dtype == expected.dtype


def test_results_over_argwhere_keep_its_f_order_so_a_c_reshape_copies():
    """Fuzz finding (seed 5325): NumPy's argwhere is F-ordered, so an elementwise result that
    also meets a regular operand is F-ordered and ``reshape`` of it in C order is a copy:
    a write through the reshape must not reach the result."""
    x = np.array([[[-2.0]], [[-4.0]], [[0.5]], [[-2.5]], [[-0.5]]])
    other = np.broadcast_to(np.linspace(0.0, 1.0, 3), (5, 3))
    expected = np.where(np.argwhere(x) > 0, np.argwhere(x), other)
    got = lnp.where(lnp.argwhere(lnp.asarray(x)) > 0, lnp.argwhere(lnp.asarray(x)), lnp.asarray(other))
    assert got.strides == expected.strides
    reshaped, numpy_reshaped = got.reshape((1, 15)), expected.reshape((1, 15))
    reshaped[...] = -4.0
    numpy_reshaped[...] = -4.0
    assert_same(got, expected)


@pytest.mark.parametrize("axis", [0, 1])
def test_concatenated_argwhere_results_keep_f_order(axis):
    """Fuzz finding (tiers, seed 120893): NumPy's concatenate keeps its inputs' memory order,
    so joined argwhere results are F-ordered and ``ravel`` of them is a copy; a write after
    the ravel must not reach it (lazynum's compaction wrote the join in C order)."""
    x = np.ones((2, 1))
    expected = np.concatenate([np.argwhere(x), np.argwhere(x)], axis=axis) / 1.0
    got = lnp.concatenate([lnp.argwhere(lnp.asarray(x)), lnp.argwhere(lnp.asarray(x))], axis=axis) / 1.0
    assert got.flags.f_contiguous == expected.flags.f_contiguous
    assert got.flags.c_contiguous == expected.flags.c_contiguous
    flat, numpy_flat = got.ravel(), expected.ravel()
    got[...] = -1.0
    expected[...] = -1.0
    assert_same(flat, numpy_flat)
    assert_same(got, expected)


def test_extremes_of_a_selection_are_numpy_scalars():
    # fuzz seed 241193: float(selection.min()) of complex data raised TypeError (a 0-d array's
    # rule) where NumPy's min returns a scalar (real part, ComplexWarning)
    z = np.array([1 + 2j, 3 - 1j, 0j], np.complex64)
    lazy = lnp.asarray(z)
    selected = lazy[lazy != 0]
    with pytest.warns(np.exceptions.ComplexWarning):
        assert float(selected.min()) == float(z[z != 0].min()) == 1.0
    x = np.array([2.0, -1.0, 5.0])
    best = lnp.asarray(x)[lnp.asarray(x) > 0].max()
    running = best
    running += 1.0                      # a scalar rebinds: best keeps its value
    assert float(best) == 5.0 and float(running) == 6.0
    assert int(lnp.argmax(lnp.asarray(x)[lnp.asarray(x) > 0])) == int(np.argmax(x[x > 0]))


def test_strides_are_numpys_for_the_true_size_and_sync_only_when_a_size_enters_them():
    # issue 11's documented deviation (argwhere of 5 true rows bound 9 reported (8, 72))
    x = np.array([[1.0, 0, 2], [0, 3, 0], [4, 0, 5]])
    lazy = lnp.asarray(x)
    lnp.reset_metrics()
    rows = lazy[lazy[:, 0] > 0.5]                   # C order: the bounded dim is the slowest
    assert rows.strides == x[x[:, 0] > 0.5].strides
    flat = lazy[lazy > 0]
    assert flat.strides == x[x > 0].strides
    assert lnp.metrics()["syncs"] == 0
    where = lnp.argwhere(lazy)                      # F order: the row count is in a stride
    assert where.strides == np.argwhere(x).strides == (8, 40)
    assert lnp.metrics()["syncs"] == 1


@pytest.mark.parametrize("name", ["sort", "argsort"])
def test_sorting_a_complex_selection_puts_true_nans_before_the_padding(name):
    # fuzz seed 301131: the padding (inf + infj) sorted before true values with a NaN part,
    # which NumPy's complex order puts last ([R + Rj, R + NaNj, NaN + Rj, NaN + NaNj])
    z = np.array([complex(-1, np.nan), complex(np.nan, 1), complex(np.nan, np.nan), 2 + 1j, 9 + 0j])
    lazy = lnp.asarray(z)
    selected = lazy[lazy.real < 5]
    assert_same(getattr(lnp, name)(selected), getattr(np, name)(z[z.real < 5]))
    joined = lnp.concatenate([lazy[lazy.real > 50], lazy[:1]])
    assert_same(getattr(lnp, name)(joined), getattr(np, name)(z[:1]))


def test_power_operator_of_a_selection_takes_numpys_unary_shortcuts():
    # fuzz seed 307521: (1.5 + inf j) ** -1 of a selection was power's nan + nanj where
    # NumPy's operator calls reciprocal (0 - 0j); bool ** 2 is square's int8, ** 0.5 is sqrt
    z = np.array([complex(1.5, np.inf), 2 + 0j, 9 + 0j])
    lazy = lnp.asarray(z)
    assert_same(lazy[lazy.real < 5] ** -1, z[z.real < 5] ** -1)
    selected = lazy[lazy.real < 5]
    selected **= -1
    assert_same(selected, z[z.real < 5] ** -1)
    flags = np.array([True, False, True])
    assert_same(lnp.asarray(flags)[lnp.asarray(flags)] ** 2, flags[flags] ** 2)
    x = np.array([-np.inf, 4.0, -0.0, 7.0])
    with np.errstate(invalid="ignore"):
        assert_same(lnp.asarray(x)[lnp.asarray(x) < 5] ** 0.5, x[x < 5] ** 0.5)


def test_sorting_a_selection_takes_the_stable_keyword():
    # fuzz seed 400222: argsort(selection, stable=True) raised ValueError (the bounded sort
    # added kind='stable' to it); kind= with stable= stays NumPy's ValueError
    x = np.array([3.0, 1.0, 2.0, 1.0, 9.0])
    lazy = lnp.asarray(x)
    selected = lazy[lazy < 5]
    for stable in (True, False):
        assert_same(lnp.argsort(selected, stable=stable), np.argsort(x[x < 5], stable=True))
        assert_same(lnp.sort(selected, stable=stable), np.sort(x[x < 5], stable=stable))
    with pytest.raises(ValueError):
        lnp.argsort(selected, kind="stable", stable=True)


def test_out_casting_error_comes_before_a_bounded_shape_error():
    # fuzz seed 409367: multiply(selection, (2,) array, out=uint8 array) raised the bounded
    # broadcast ValueError where NumPy's casting TypeError comes first (type resolution)
    a = lnp.asarray(np.array([0.0]))
    selected = a[a < -1.0]
    np.asarray(selected)                  # a known size: the shape check can run at the call
    with pytest.raises(TypeError, match="same_kind"):
        lnp.multiply(selected, lnp.zeros(2), out=lnp.zeros(0, dtype=np.uint8))
    with pytest.raises(TypeError):
        np.multiply(np.zeros(0), np.zeros(2), out=np.zeros(0, dtype=np.uint8))


def test_a_ufunc_type_error_comes_before_a_bounded_shape_error():
    # fuzz seed 415117: float64 ^ complex selection of a known, mismatched size raised the
    # bounded broadcast ValueError; NumPy resolves the loop first (TypeError)
    a = lnp.asarray(np.zeros(2, dtype=np.complex64))
    selected = a[a != 1j]
    np.asarray(selected)                  # a known size: the shape check can run at the call
    with pytest.raises(TypeError):
        lnp.zeros(3) ^ selected
    with pytest.raises(ValueError):      # at the call, or at the sync (a run-time size)
        np.asarray(lnp.zeros(3) + selected)


def test_in_place_casting_error_comes_before_a_bounded_shape_error():
    # fuzz seed 435336: flags[flags] += int8 selection (known, mismatched sizes) raised the
    # bounded broadcast ValueError; NumPy's in-place casting TypeError comes first
    flags = lnp.asarray(np.array([True, False, True]))
    values = lnp.asarray(np.array([1, 5], dtype=np.int8))
    picked, none = values[values > 2], values[values > 9]
    np.asarray(picked), np.asarray(none)  # known sizes: the shape check can run at the call
    selected = flags[flags]
    np.asarray(selected)
    with pytest.raises(TypeError, match="same_kind"):
        selected += none                  # sizes 2 and 0
    numbers = lnp.asarray(np.array([1, 2, 3]))[lnp.asarray(np.array([True, False, True]))]
    numbers += picked                     # sizes 2 and 1 broadcast
    assert_same(numbers, np.array([6, 8]))


def test_a_vector_product_is_numpys_scalar_kind():
    # immediate fuzz seed 852357: v @ v of 1-d operands (a selection too) is NumPy's scalar,
    # so float() of a complex product takes its real part; lazynum gave a 0-d array (TypeError)
    import warnings
    for m, a in ((np, np.array([1j, 2], dtype=np.complex64)),
                 (lnp, lnp.asarray(np.array([1j, 2], dtype=np.complex64)))):
        selected = a[a.real < 2.5]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert float(a @ a) == 3.0 and float(selected @ selected) == 3.0
            assert float(m.matmul(a, a)) == 3.0
