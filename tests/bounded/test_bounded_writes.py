"""Bounded arrays are arrays: writes into them, views of them, selections as values.

Each test runs the same statements on NumPy and on lazynum and compares every array the
program still holds.  Issue 11's reproducers are here one by one, then random chains.
"""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazynum as lnp

from ..strategies import assert_same


def syncs():
    return lnp.metrics()["syncs"]


def both(program, *inputs):
    """``program(m, *arrays)`` on NumPy and on lazynum: the dicts of arrays it returns."""
    expected = program(np, *[np.array(x) for x in inputs])
    got = program(lnp, *[lnp.asarray(np.array(x)) for x in inputs])
    assert expected.keys() == got.keys()
    for name in expected:
        assert_same(got[name], expected[name])


def test_copyto_from_a_bounded_array():
    def program(m, a):
        x = m.zeros(2)
        _, counts = m.unique(a, return_counts=True)
        m.copyto(x, counts)
        return {"x": x}
    both(program, [1, 1, 2])


def test_fill_writes_into_the_selection():
    def program(m, a):
        s = a[a > 1]
        s.fill(7)
        return {"s": s * 1, "a": a}
    both(program, [1, 2, 3])


def test_fill_is_lazy():
    a = lnp.asarray(np.array([1, 2, 3]))
    s = a[a > 1]
    lnp.reset_metrics()
    s.fill(7)
    assert syncs() == 0
    assert_same(s, np.array([7, 7]))


def test_sort_method_sorts_in_place_and_np_sort_copies():
    def program(m, a):
        u = a[a > 0]
        copy = m.sort(u)
        result = u.sort()
        assert result is None
        return {"u": u, "copy": copy}
    both(program, [3, 1, 2, -1, 0, 5])


def test_reshape_of_a_selection_is_a_view():
    def program(m, a):
        u = a[a > 0]
        v = u.reshape(1, -1)
        w = u[1:]
        u[0] = 9
        v[0, 1] += 100
        return {"u": u, "v": v, "w": w}
    both(program, [3, 1, 2])


def test_transpose_and_column_of_a_2d_selection_are_views():
    def program(m, a):
        rows = a[a[:, 0] > 0]
        t = rows.T
        col = rows[:, 1]
        col[...] = -1
        rows[:, 0] *= 2
        first = rows[0]
        first[2] = 50
        return {"rows": rows, "t": t, "col": col}
    both(program, np.arange(12.0).reshape(4, 3) - 3)


def test_slice_augmented_assignment_into_a_selection_then_concatenate():
    def program(m, a, z):
        s = a[a > 0]
        s[..., -2:3:3] += z
        return {"joined": m.concatenate([s, s]), "s": s}
    both(program, [3.0, 1.0, 2.0], [10.0])


def test_inplace_operator_with_a_bounded_operand_writes_into_the_array():
    def program(m, x, a):
        view = x[1:]
        s = a[a > 0]
        x += s
        x *= s
        return {"x": x, "view": view}
    both(program, np.zeros(3, dtype=np.float32), [3.0, 1.0, 2.0])


def test_inplace_operator_with_a_bounded_operand_is_lazy():
    x = lnp.zeros(3, dtype=np.float32)
    a = lnp.asarray(np.array([3.0, 1.0, 2.0]))
    lnp.reset_metrics()
    x += a[a > 0]
    assert syncs() == 0 and x.dtype == np.float32
    assert_same(x, np.array([3, 1, 2], dtype=np.float32))


def test_inplace_operator_with_a_bounded_operand_of_the_wrong_size_raises_at_the_sync():
    x = lnp.zeros(3)
    a = lnp.asarray(np.array([3.0, -1.0, 2.0]))
    x += a[a > 0]                 # 2 selected: NumPy's broadcast error, found at the sync
    with pytest.raises(ValueError):
        x.sync()
    assert_same(x, np.zeros(3))   # the failed write did not happen


@pytest.mark.parametrize("shape", [(4, 0, 1), ()])
def test_inplace_operator_on_an_empty_selection_checks_the_bounded_operand(shape):
    # x[m] *= v with nothing selected: NumPy's multiply still raises its broadcast error
    # (v has 2 elements); the check must reach x although nothing is written.
    x = lnp.asarray(np.full(shape, -3))
    v = lnp.nonzero(lnp.asarray(np.array([6, 1])))[0]
    x[x > -3] *= v
    with pytest.raises(ValueError, match="broadcast"):
        x.sync()
    assert_same(x, np.full(shape, -3))
    with pytest.raises(ValueError):
        y = np.full(shape, -3)
        y[y > -3] *= np.array([0, 1])


def test_augmented_ops_on_a_selection_keep_its_dtype_and_feed_its_reductions():
    def program(m, a):
        s = a[a > 0]
        s += 3
        s //= 2
        total = s.sum()
        return {"s": s, "total": total}
    both(program, np.array([4, -1, 7, 0, 9], dtype=np.int16))


def test_ufunc_out_into_a_selection_and_from_a_selection():
    def program(m, a, x):
        s = a[a > 0]
        m.multiply(s, 2, out=s)
        m.add(s, 1, out=x[:2])
        return {"s": s, "x": x}
    both(program, [3.0, -1.0, 2.0], np.zeros(4))


def test_argmin_keepdims_on_a_2d_selection():
    x = np.arange(6.0).reshape(2, 3)
    a = lnp.asarray(x)
    s, expected = a[a.sum(1) > 0], x[x.sum(1) > 0]
    for kwargs in ({"keepdims": True}, {"axis": 1, "keepdims": True}, {"axis": 0, "keepdims": True},
                   {"axis": -1}):
        assert_same(s.argmin(**kwargs), expected.argmin(**kwargs))
        assert_same(s.argmax(**kwargs), expected.argmax(**kwargs))


def test_mask_assignment_of_a_bounded_uint64_into_int8_wraps_like_numpy():
    def program(m, a, x, keep):
        x[keep] = a[a > 0]
        return {"x": x}
    both(program, np.array([2**63 + 5, 3], dtype=np.uint64), np.zeros(2, dtype=np.int8),
         np.array([True, True]))


@pytest.mark.parametrize("producer", ["mask", "nonzero", "compress", "flatnonzero", "extract"])
def test_a_selection_is_its_source_at_one_version(producer):
    def program(m, a):
        make = {"mask": lambda: a[a > 0], "nonzero": lambda: m.nonzero(a)[0],
                "compress": lambda: m.compress(a > 0, a), "flatnonzero": lambda: m.flatnonzero(a),
                "extract": lambda: m.extract(a > 0, a)}[producer]
        s = make()
        a[...] = 0
        return {"sum": s.sum(), "again": s[s > 1], "s": s, "a": a}
    both(program, [3, 5, 0, 2])


def test_a_selection_does_not_see_writes_through_views_of_its_source():
    def program(m, a):
        keep = a > 0
        s = a[keep]
        view = a[::2]
        view[...] = -7
        keep[...] = False
        return {"mean": s.mean(), "s": s, "max": s.max(), "a": a}
    both(program, [3.0, 5.0, 1.0, 2.0])


def test_a_size_one_dim_broadcasts_against_a_bounded_dim():
    def program(m, a):
        s = a[a > 0]
        return {"eq": a[1:2] == s, "ne": s != a[0:1], "add": a[:1] + s}
    both(program, [7, 2])


def test_a_mask_of_extent_zero_selects_nothing_from_any_extent():
    for shape, mask_shape in (((3, 2, 0), (3, 0)), ((3,), (0,)), ((3, 2, 4), (3, 0))):
        x = np.zeros(shape)
        expected = x[np.zeros(mask_shape, dtype=bool)]
        got = lnp.asarray(x)[lnp.zeros(mask_shape, dtype=bool)]
        assert_same(got, expected)
    a = lnp.asarray(np.zeros((3, 2, 0)))
    assert_same(a[a[:, 0] > 0], np.zeros((0, 0)))
    with pytest.raises(IndexError):
        lnp.zeros((3, 2))[lnp.zeros((0, 5), dtype=bool)]
    with pytest.raises(IndexError):
        lnp.zeros(3)[lnp.zeros((0, 0), dtype=bool)]


# --- random chains ------------------------------------------------------------------------------

_WRITES = ("fill", "iadd", "imul_source", "setitem_mask", "setitem_slice", "sort", "view_write",
           "source_write", "out")
_READS = ("sum", "max", "mean", "copy", "concat", "mask_again")


def _apply(m, a, s, step, value):
    if step == "fill":
        s.fill(value)
    elif step == "iadd":
        s += value
    elif step == "imul_source":
        a *= value                        # the source changes; the selection must not
    elif step == "setitem_mask":
        s[s > value] = -value
    elif step == "setitem_slice":
        s[:2] = value
    elif step == "sort":
        s.sort()
    elif step == "view_write":
        v = s.reshape(-1, 1)
        v[:, 0] -= value
    elif step == "source_write":
        a[1:] = value
    elif step == "out":
        m.subtract(s, value, out=s)


def _read(m, s, read):
    return {"sum": lambda: s.sum(), "max": lambda: s.max() if int(s.size) else s.sum(),
            "mean": lambda: s.sum() * 1.0, "copy": lambda: s.copy(),
            "concat": lambda: m.concatenate([s, s]), "mask_again": lambda: s[s > 0]}[read]()


@given(st.lists(st.integers(-4, 6), min_size=1, max_size=8),
       st.lists(st.tuples(st.sampled_from(_WRITES), st.integers(-3, 3), st.sampled_from(_READS)),
                min_size=1, max_size=5))
def test_random_write_chains_on_a_selection_match_numpy(values, steps):
    def program(m, a):
        s = a[a > 0]
        out = {}
        for k, (step, value, read) in enumerate(steps):
            _apply(m, a, s, step, value)
            out[f"read{k}"] = _read(m, s, read)
        out["s"], out["a"] = s, a
        return out
    both(program, np.array(values, dtype=np.int64))


@pytest.mark.parametrize("thresholds", [(5, 0), (0, 5), (5, 6), (1, 2), (6, 8)])
def test_a_selection_of_one_element_broadcasts_like_numpy(thresholds):
    """Run-time sizes follow NumPy's broadcast rule: 1 stretches, other mismatches raise."""
    t1, t2 = thresholds
    x = np.array([7.0, 2.0, 3.0])
    n1, n2 = int((x > t1).sum()), int((x > t2).sum())

    def program(m, a):
        s1, s2 = a[a > t1], a[a > t2]
        out = {"plus_regular": s1 + a, "regular_minus": a - s1}
        z = m.zeros(3)
        z += s1
        out["z"] = z
        if n1 == n2 or 1 in (n1, n2):
            out["product"] = s1 * s2
            out["where"] = m.where(s1 > 3, s1, s2)
        return out
    if n1 in (1, 3):
        both(program, x)
    else:
        a = lnp.asarray(x)
        with pytest.raises(ValueError):
            np.asarray(a[a > t1] + a)


def test_bounded_sizes_that_neither_agree_nor_are_one_raise_at_the_sync():
    a = lnp.asarray(np.array([7.0, 2.0, 3.0, 9.0]))
    product = a[a > 2.5] * a[a > 6]            # 3 and 2 elements
    with pytest.raises(ValueError, match="broadcast"):
        product.sync()
    stacked = lnp.stack([a[a > 6], a[a > 8]])  # 2 and 1: stack does not broadcast
    with pytest.raises(ValueError, match="same shape"):
        stacked.sync()


# --- found by the random-program fuzzer (bench/fuzz), shrunk -------------------------------------

@pytest.mark.parametrize("make_view", [
    lambda m, y: m.transpose(y), lambda m, y: m.swapaxes(y, 0, 1), lambda m, y: m.moveaxis(y, 0, 1),
    lambda m, y: m.expand_dims(y, 0), lambda m, y: m.asarray(y)])
def test_function_form_views_of_a_bounded_array_share_its_storage(make_view):
    def program(m, a):
        y = m.argwhere(a)
        view = make_view(m, y)
        view[0, 0] = 7
        y[1] = -1
        return {"y": y, "view": view}
    both(program, np.array([[6, 0], [-2, 1]], dtype=np.int8))


def test_asarray_of_a_bounded_array_is_the_array_itself():
    a = lnp.asarray(np.array([3.0, -1.0]))
    s = a[a > 0]
    assert lnp.asarray(s) is s
    lnp.asarray(s)[...] = 0
    assert_same(s, np.zeros(1))


def test_broadcast_to_of_a_selection_is_a_view():
    def program(m, a):
        s = a[a != 9]
        b = m.broadcast_to(s, (2, 3))
        s[::2] = -2
        return {"b": b}
    both(program, [1, 2, 3])


def test_reduction_into_a_bounded_out():
    def program(m, a, b):
        y = m.argwhere(a)
        m.min(b, axis=0, out=y)
        m.sum(b, axis=0, out=y)
        return {"y": y}
    both(program, np.array([[1, 0], [0, 5]], dtype=np.int16), np.ones((3, 2, 2), dtype=np.int32))


def test_augmented_assignment_to_an_element_of_a_selection_is_scalar_read_then_store():
    def program(m, a):
        y = m.flatnonzero(a)
        y[1] /= -1            # a scalar: y[1] / -1 is float, stored back with setitem casting
        y[-1] -= 2.5
        return {"y": y}
    both(program, np.array([[-3.5, -2.0], [-3.0, 3.5]]))


def test_ufunc_out_a_bounded_array_from_a_0d_input():
    def program(m, a, b):
        y = b[a < 3]
        m.floor(m.float64(2.5) if m is np else lnp.asarray(np.float64(2.5)), out=y)
        return {"y": y}
    both(program, np.zeros((1, 4), dtype=np.int16), np.zeros((1, 4), dtype=np.float32))


@pytest.mark.parametrize("kept", [0, 1, 3])
def test_mask_assignment_of_a_one_element_selection_broadcasts(kept):
    def program(m, a, b):
        a[a < kept] = m.compress(b > -5, b)
        return {"a": a}
    both(program, np.array([0, 1, 2], dtype=np.uint8), np.array([4], dtype=np.int8))


def test_concatenate_of_a_selection_and_a_0d_array_raises_numpys_value_error():
    a = lnp.asarray(np.array([1, 0]))
    with pytest.raises(ValueError, match="same number of dimensions"):
        lnp.concatenate([a[a > 0], lnp.asarray(np.int64(3))])


def test_integer_power_of_an_empty_selection_does_not_raise():
    def program(m, a):
        empty, full = a[a < -4], a[a >= 0]
        nested = full[full > 6]                      # a mask of a mask: reduced over its source
        return {"empty": empty ** -1, "square": full ** 2, "nested": m.prod(nested ** -1)}
    both(program, np.array([0, 2, 3]))
    a = lnp.asarray(np.array([2, 3]))
    with pytest.raises(ValueError, match="negative integer powers"):
        np.asarray(a[a > 0] ** -1)


def test_argwhere_is_f_ordered_so_its_ravel_copies():
    def program(m, a):
        y = m.argwhere(a)
        flat = y.ravel()
        y[:, [0]] = 1
        return {"flat": flat, "y": y}
    both(program, np.array([[[-1], [-3]]], dtype=np.int32))


def test_numpy_array_matmul_a_selection():
    x = np.array([3.0, -1.0, 2.0])
    a = lnp.asarray(x)
    assert_same(np.ones((2, 2)) @ a[a > 0], np.ones((2, 2)) @ x[x > 0])


def test_joins_of_bounded_arrays_whose_dims_all_came_back_regular():
    def program(m, b):
        v2 = m.cumsum(m.extract(b != 0, b))
        v3 = m.stack([v2, b, v2])            # the regular operand fixes every dim
        v9 = m.concatenate([v3, v3, v3])
        return {"v9": v9, "c": m.compress(m.sort(v2, axis=None) > -5, v9)}
    both(program, np.array([-4, -3], dtype=np.int8))


def test_mask_assignment_into_a_selection_checks_the_scalar_like_numpy():
    a = lnp.asarray(np.array([1, 0, 2], dtype=np.int8))
    s = a[a >= 0]
    with pytest.raises(OverflowError):
        s[s != 2] = 300
    s[s != 2] = -7
    assert_same(s, np.array([-7, -7, 2], dtype=np.int8))


def test_nonzero_of_a_2d_array_gives_strided_columns_whose_ravel_copies():
    def program(m, a):
        rows, cols = m.nonzero(a)
        flat = cols.ravel()
        flat[:] = -3
        return {"rows": rows, "cols": cols, "flat": flat}
    both(program, np.array([[-6, -2], [0, 4]], dtype=np.int8))


def test_a_bounded_mask_over_a_regular_leading_dim_is_checked_against_its_extent():
    def program(m, a):
        _, _, counts = m.unique(a, return_index=True, return_counts=True)
        ratio = counts / a                                  # (1, <=1)
        keep = m.logical_not(m.ceil(m.unique(a)))           # (<=1,)
        return {"picked": ratio[keep]}
    both(program, np.array([[0.0]], dtype=np.float32))


def test_writes_through_a_selection_keep_the_sign_of_zero():
    def program(m, a, b):
        a[a > 0] *= -0.0
        return {"a": 1 / a, "dot": 1 / (b[b > 0] @ m.asarray(np.array([-0.0, -0.0])))}
    both(program, [2.0, -1.0], [3.0, 1.0])


@pytest.mark.parametrize("rows", [[[0], [-6]], [[0, 0], [0, 3]], [[0, 0], [0, 0]], [[1, 0], [-6, 0], [1, 1]]])
def test_ravel_of_a_bounded_array_with_one_true_row_is_a_view(rows):
    # fuzz seed 401814: a nonzero column (or an argwhere) with one true row is C-contiguous
    # in NumPy (a dim of one is ignored), so its ravel is a view; lazynum copied
    def program(m, a):
        column = m.nonzero(a)[-1]
        flat = m.ravel(column)
        flat[...] = -4
        where = m.argwhere(a)
        where.ravel()[...] = 7
        return {"column": column, "flat": flat, "where": where}
    both(program, np.array(rows, dtype=np.int32))


def test_an_integer_power_of_computed_padding_never_raises():
    # fuzz seeds 406221, 407896: once the selection is computed, ** -1 ran on the padding at
    # once (the immediate tier) and raised NumPy's negative-power ValueError; an empty
    # selection ** -1 is an empty array
    def program(m, a):
        rows = m.argwhere(a)
        column = m.nonzero(a)[0]
        np.asarray(rows), np.asarray(column)          # computed: later ops run at once
        return {"rows": rows ** -1, "column": column ** -1, "pair": m.power(rows, rows - 1)}
    both(program, np.array([[0, 0]], dtype=np.int64))


@pytest.mark.parametrize("rows", [[[1], [0]], [[0], [0]], [[1], [1]], [[1, 0], [0, 0]], [[1, 1], [0, 0]]])
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.int64, np.complex128])
def test_a_dtype_view_of_an_argwhere_follows_numpys_contiguity(rows, dtype):
    # fuzz seeds 440313, 444728: argwhere's one true row is C-contiguous in NumPy (its
    # padded data is F order, so the true-size view's last axis is not), so NumPy views it
    # as another itemsize, and the view aliases the rows; two rows raise NumPy's ValueError
    def program(m, a):
        where = m.argwhere(a)
        try:
            view = where.view(dtype)
        except ValueError as error:
            return {"error": m.asarray(str(error) == "To change to a dtype of a different size, "
                                       "the last axis must be contiguous")}
        view[...] = 3
        return {"where": where, "view": view, "after": view * 1}
    both(program, np.array(rows, dtype=np.int8))


@pytest.mark.parametrize("include_initial", [False, True])
def test_cumulative_sum_of_an_argwhere_keeps_its_f_order(include_initial):
    # immediate fuzz seed 832472: NumPy's cumulative_sum allocates like a copy of argwhere's
    # F-ordered result, so a view as another itemsize raises; lazynum's was C-ordered
    def program(m, a):
        sums = m.cumulative_sum(m.argwhere(a), axis=0, dtype=m.int32, include_initial=include_initial)
        try:
            sums.view(m.uint64)
        except ValueError:
            return {"sums": sums, "strides": m.asarray(sums.strides)}
        return {"sums": sums, "strides": m.asarray(sums.strides), "viewed": m.asarray(True)}
    both(program, np.array([[5, -4], [0, 2]], dtype=np.int64))
