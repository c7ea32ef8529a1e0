"""Slices with lazy bounds are views, as NumPy's basic slices (issue 11).

``x[s:e]`` with 0-d integer arrays ``s``, ``e``, the same slice of a bounded array, and
``trim_zeros`` (NumPy's slice of its input) share their base's storage: writes through
either are seen by the other, padding rows of the slice never reach the base, and
nothing syncs before a value is read.
"""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp

from ..strategies import apply_lazy_slice_program, assert_same, lazy_slice_programs


def syncs():
    return lnp.metrics()["syncs"]


def both(program, *inputs, lazy=True):
    """``program(m, *arrays)`` on NumPy and on lazynum (``lazy``: no sync before the
    reads): the dicts of arrays it returns compared."""
    expected = program(np, *[np.array(x) for x in inputs])
    got = program(lnp, *[lnp.asarray(np.array(x)) for x in inputs])
    assert not lazy or syncs() == 0, "the program synced before its results were read"
    assert expected.keys() == got.keys()
    for name in expected:
        assert_same(got[name], expected[name])


def test_a_slice_with_a_lazy_start_is_a_view():
    def program(m, x):
        v = x[m.argmax(x != 0):m.asarray(3) * 1]
        v[...] = 7
        x_after_view_write = x.copy()
        x[1] = 5
        return {"x_after_view_write": x_after_view_write, "v": v * 1, "x": x}
    both(program, [0., 1., 2., 0.])


def test_the_issue_reproducer_reads_through_numpy():
    x = lnp.asarray(np.array([0., 1., 2., 0.]))
    v = x[lnp.argmax(x != 0):lnp.asarray(3)]
    v[...] = 7
    assert_same(x, np.array([0., 7., 7., 0.]))
    x[1] = 5
    assert_same(v, np.array([5., 7.]))


@pytest.mark.parametrize("write", ["fill", "iadd", "sort"])
def test_writes_through_a_lazy_slice_never_reach_rows_past_it(write):
    # The slice's padding rows (past its run-time size) are the base's rows: fill, +=
    # and sort write the padding too, which must stay out of the base.
    def program(m, x):
        start, stop = m.argmax(x > 1), m.argmax(x > 4)
        for v in (x[:stop], x[start:stop], x[start:]):
            if write == "fill":
                v.fill(-1)
            elif write == "iadd":
                v += 10
            else:
                v[::-1].sort() if False else v.sort()
        return {"x": x}
    both(program, [3., 1., 2., 6., 5., 0.])


def test_slices_of_a_bounded_array_with_lazy_bounds_are_views():
    def program(m, a):
        s = a[a > 0]
        v = s[m.argmax(s > 2):m.asarray(-1) * 1]
        v *= 10
        s[s > 25] = 0
        return {"s": s, "v": v, "a": a}
    both(program, [1, -1, 2, 3, 4, 5])


def test_negative_static_bounds_of_a_bounded_array_count_from_its_size():
    def program(m, a):
        s = a[a > 0]
        v = s[-3:-1]
        v.fill(0)
        return {"s": s, "v": v}
    both(program, [1, -1, 2, 3, 4, 5])


def test_trim_zeros_of_unique_is_a_view_seed_180232():
    def program(m, b):
        v1 = m.unique(b)
        v4 = m.trim_zeros(v1)
        v1[v1 > -5] *= v1[v1 > -5] * 2     # (a bounded value into a mask: one sync)
        return {"v4": v4, "v1": v1}
    both(program, np.array([[[6]]], dtype=np.int8), lazy=False)


def test_trim_zeros_of_extract_is_a_view_seed_180392():
    def program(m, a, d):
        v7 = m.extract(a, d)
        v8 = m.trim_zeros(v7, "b")
        v8[m.asarray(np.array([2, -4, -14]))] = -1.0
        return {"v7": v7, "v8": v8}
    # (a fancy write into a bounded array syncs once)
    both(program, np.ones((3, 6), bool), np.arange(18.).reshape(3, 6), lazy=False)


def test_copyto_into_the_base_of_trim_zeros_seed_180391():
    def program(m, b):
        v1 = m.extract(b != 0, b)
        v6 = m.trim_zeros(v1)
        m.copyto(v1, v6 > 3.5)
        return {"v6": v6, "v1": v1}
    both(program, np.array([[[-4.0]]], dtype=np.float32), lazy=False)   # (copyto syncs)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_trim_zeros_along_one_axis_of_a_matrix_is_a_view(axis):
    def program(m, a):
        t = m.trim_zeros(a, axis=axis)
        t += 5
        a[1, 1] = -3
        return {"t": t, "a": a}
    both(program, [[0, 0, 0, 0], [0, 1, 2, 0], [0, 0, 0, 0]])


def test_trim_zeros_of_a_bounded_matrix_along_its_regular_axis():
    def program(m, a):
        rows = a[a[:, 0] > 0]
        t = m.trim_zeros(rows, "fb", axis=1)
        t.fill(9)
        return {"t": t, "rows": rows}
    both(program, [[1, 0, 2, 0], [-1, 0, 0, 0], [3, 0, 4, 0]])


def test_lazy_bounds_on_another_axis_give_a_view():
    # x[:, s:e] syncs the bounds (NumPy's view, a concrete shape)
    def program(m, x):
        v = x[:, m.asarray(1) * 1:m.asarray(-1) * 1]
        v[...] = 0
        return {"x": x, "v": v}
    x = np.arange(12.).reshape(3, 4)
    both(program, x, lazy=False)


def test_lazy_bounds_with_a_step_give_a_view():
    def program(m, x):
        v = x[m.asarray(1) * 1:m.asarray(6) * 1:2]
        v[...] = 0
        return {"x": x, "v": v}
    x = np.arange(8.)
    both(program, x, lazy=False)


def test_shape_of_a_lazy_slice_shows_its_bound():
    x = lnp.asarray(np.arange(6.).reshape(3, 2))
    v = x[lnp.argmax(x[:, 0] > 0):]
    assert repr(v.shape) == "(<=3, 2)"
    assert syncs() == 0
    assert len(v) == 2


@given(program=lazy_slice_programs())
def test_random_lazy_slices_and_writes_match_numpy(program):
    data, steps = program
    lnp.reset_metrics()
    both(lambda m, x: apply_lazy_slice_program(m, x, steps), data)


def test_a_failed_write_through_a_lazy_slice_leaves_the_base_usable():
    x = lnp.asarray(np.arange(6.))
    v = x[lnp.argmax(x > 1):lnp.asarray(5) * 1]
    v[lnp.asarray(np.array([0, 9])) * 1] = -1        # out of bounds: raises at the sync
    with pytest.raises(IndexError):
        np.asarray(x)
    assert_same(x, np.arange(6.))
    assert_same(v, np.array([2., 3., 4.]))
    v += 1
    assert_same(x, np.array([0., 1., 3., 4., 5., 5.]))
