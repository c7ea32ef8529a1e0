"""The immediate tier (runtime/immediate.py): small ops on computed arrays run at once as
NumPy calls; everything else stays lazy.  Values, dtypes, errors and warnings are NumPy's;
what is computed where is asserted through ``metrics()`` and the nodes' state."""
from __future__ import annotations

import gc
import inspect
import threading
import warnings
import weakref

import numpy
import pytest

import lazynum
from tests.strategies import IMMEDIATE_LIMIT, computed
from lazynum.expr import node as node_mod

LIMIT = IMMEDIATE_LIMIT
_computed = computed
pytestmark = pytest.mark.usefixtures("immediate_tier")


def test_small_ops_on_computed_arrays_run_at_once_without_a_sync():
    a = numpy.linspace(-2.0, 3.0, 12).reshape(3, 4)
    x = lazynum.asarray(a)
    lazynum.reset_metrics()
    pending = node_mod.trace_state().pending_nodes
    y = lazynum.exp(x[:, 1:] * 2.0 - 1.0).sum(axis=0) / 3
    assert _computed(y)
    m = lazynum.metrics()
    assert m["syncs"] == 0 and m["nodes_computed"] == 0
    assert m["ops_immediate"] >= 5                  # (ops_traced also counts scalar leaves)
    assert node_mod.trace_state().pending_nodes == pending
    expected = numpy.exp(a[:, 1:] * 2.0 - 1.0).sum(axis=0) / 3
    numpy.testing.assert_allclose(numpy.asarray(y), expected, rtol=1e-15)
    assert y.dtype == expected.dtype and y.shape == expected.shape


def test_a_result_over_the_limit_and_an_op_on_a_pending_value_stay_lazy():
    big = lazynum.asarray(numpy.ones(LIMIT + 1))
    lazynum.reset_metrics()
    z = big * 2.0                       # LIMIT + 1 elements: recorded
    w = z[:3] + 1.0                     # small, but reads a pending value: recorded
    assert not _computed(z) and not _computed(w)
    assert lazynum.metrics()["ops_immediate"] == 0
    numpy.testing.assert_array_equal(numpy.asarray(w), [3.0, 3.0, 3.0])


def test_the_setting_turns_it_off():
    x = lazynum.asarray(numpy.arange(4.0))
    with lazynum.config(immediate_below=0):
        lazynum.reset_metrics()
        y = x + 1
        assert not _computed(y) and lazynum.metrics()["ops_immediate"] == 0
    numpy.testing.assert_array_equal(numpy.asarray(y), [1.0, 2.0, 3.0, 4.0])


def test_promotion_and_integer_semantics_are_numpys():
    i8 = lazynum.asarray(numpy.array([100, -100, 7], dtype=numpy.int8))
    f32 = lazynum.asarray(numpy.array([0.5, 1.5, 2.5], dtype=numpy.float32))
    with pytest.warns(RuntimeWarning, match="divide by zero encountered in floor_divide"):
        quotient = i8 // 0                  # NumPy warns for an integer division by zero too
    for got, want in [(i8 + 100, numpy.array([100, -100, 7], numpy.int8) + 100),
                      (quotient, numpy.zeros(3, numpy.int8)),
                      (f32 * 3, numpy.array([0.5, 1.5, 2.5], numpy.float32) * 3),
                      (i8 + f32, numpy.array([100, -100, 7], numpy.int8)
                       + numpy.array([0.5, 1.5, 2.5], numpy.float32))]:
        assert _computed(got)
        assert got.dtype == want.dtype
        numpy.testing.assert_array_equal(numpy.asarray(got), want)


def test_writes_views_and_versions_keep_numpys_aliasing():
    base = numpy.arange(10.0)
    x = lazynum.asarray(base.copy())
    v = x[2:6]                          # a view: sees later writes to x
    snapshot = x[2:6] * 1               # a value: does not
    x[3:5] = -1.0
    v[0] += 100.0
    expected = base.copy()
    expected[3:5] = -1.0
    expected[2] += 100.0
    numpy.testing.assert_array_equal(numpy.asarray(x), expected)
    numpy.testing.assert_array_equal(numpy.asarray(v), expected[2:6])
    numpy.testing.assert_array_equal(numpy.asarray(snapshot), base[2:6])
    assert _computed(x)


def _buffer(x):
    return x._view.storage.node.buffer if x._view is not None else x._node.buffer


def test_a_write_nobody_else_can_see_the_old_value_of_is_made_in_place():
    x = lazynum.asarray(numpy.arange(12.0).reshape(3, 4))
    x[0, :] = 0.0                       # the first write makes the storage
    before = weakref.ref(_buffer(x))    # (a strong reference would be a reader)
    lazynum.reset_metrics()
    x[1:, 1:3] = -1.0
    x[2] = x[2] * 2.0 + 5.0
    x[0, 1:] = 3.0                      # (the owner re-read its value in between)
    x[0, 0] = float(x[2, 3])
    assert _buffer(x) is before()       # no copy of the storage per write
    assert lazynum.metrics()["ops_immediate"] >= 4
    x[1] += 1.0                         # (the window x[1] holds a view: a copy, same values)
    expected = numpy.arange(12.0).reshape(3, 4)
    expected[0, :] = 0.0
    expected[1:, 1:3] = -1.0
    expected[2] = expected[2] * 2.0 + 5.0
    expected[0, 1:] = 3.0
    expected[0, 0] = expected[2, 3]
    expected[1] += 1.0
    numpy.testing.assert_array_equal(numpy.asarray(x), expected)


def test_a_plain_key_store_uses_numpys_setitem_with_lazynums_conversions():
    x = lazynum.asarray(numpy.arange(6.0))
    before = weakref.ref(x._node.buffer)
    x[1] = 5.0
    x[2:4] = lazynum.asarray(numpy.array([7.0, 8.0])) * 1.0
    assert x._node.buffer is before()   # an owner never viewed: written in place
    window = x[::2]                     # a view sees later stores, as in NumPy
    x[4] = -1
    numpy.testing.assert_array_equal(numpy.asarray(x), [0.0, 5.0, 7.0, 8.0, -1.0, 5.0])
    numpy.testing.assert_array_equal(numpy.asarray(window), [0.0, 7.0, -1.0])
    with pytest.raises(IndexError):
        x[6] = 1.0
    i8 = lazynum.asarray(numpy.array([1, 2, 3], dtype=numpy.int8))
    with pytest.raises(OverflowError):
        i8[0] = 300
    i8[1] = 2.7                         # a float into an int array: int(), as NumPy
    i8[2] = numpy.int64(-5)
    numpy.testing.assert_array_equal(numpy.asarray(i8), [1, 2, -5])
    assert i8.dtype == numpy.int8


def test_an_old_value_still_read_is_copied_not_overwritten():
    base = numpy.arange(10.0)
    x = lazynum.asarray(base.copy())
    x[0] = 0.0
    with lazynum.config(immediate_below=0):
        pending = x * 2.0               # a pending reader of this version
    kept = x[2:6].copy()                # a computed snapshot
    window = x[2:6]                     # a view: NumPy's aliasing, sees the write
    before = weakref.ref(_buffer(x))
    x[3:5] = -1.0
    assert _buffer(x) is not before()
    expected = base.copy()
    expected[0] = 0.0
    numpy.testing.assert_array_equal(numpy.asarray(pending), expected * 2.0)
    numpy.testing.assert_array_equal(numpy.asarray(kept), expected[2:6])
    expected[3:5] = -1.0
    numpy.testing.assert_array_equal(numpy.asarray(window), expected[2:6])
    numpy.testing.assert_array_equal(numpy.asarray(x), expected)


def test_a_large_pending_reader_keeps_the_value_it_read():
    x = lazynum.asarray(numpy.arange(2.0 * LIMIT))
    x[0] = 1.0
    y = x * 3.0                         # over the limit: recorded, reads this version
    assert not _computed(y)
    x[1:4] = 0.0
    expected = numpy.arange(2.0 * LIMIT)
    expected[0] = 1.0
    numpy.testing.assert_array_equal(numpy.asarray(y), expected * 3.0)
    expected[1:4] = 0.0
    numpy.testing.assert_array_equal(numpy.asarray(x), expected)


def test_overlapping_shifts_and_read_only_arrays_behave_as_numpy():
    expected = numpy.arange(8.0)
    x = lazynum.asarray(expected.copy())
    x[0] = 0.0
    x[1:] = x[:-1]
    expected[1:] = expected[:-1]
    numpy.testing.assert_array_equal(numpy.asarray(x), expected)
    x.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        x[2:4] = 1.0
    numpy.testing.assert_array_equal(numpy.asarray(x), expected)


def test_an_out_of_bounds_index_raises_at_the_call_and_leaves_the_array_unchanged():
    x = lazynum.asarray(numpy.arange(5.0))
    with pytest.raises(IndexError):
        x[lazynum.asarray(numpy.array([0, 7]))] = 1.0
    numpy.testing.assert_array_equal(numpy.asarray(x), numpy.arange(5.0))
    with pytest.raises(IndexError):
        lazynum.take(x, lazynum.asarray(numpy.array([9])))


def test_a_singular_matrix_raises_linalg_error_at_the_call():
    m = lazynum.asarray(numpy.zeros((3, 3)))
    with pytest.raises(numpy.linalg.LinAlgError):
        lazynum.linalg.inv(m)


def test_floating_point_warnings_name_the_op_line_and_errstate_applies_at_the_call():
    x = lazynum.asarray(numpy.array([0.0, 2.0]))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        y = lazynum.log(x)
    (w,) = record
    assert w.category is RuntimeWarning
    assert str(w.message) == "divide by zero encountered in log"
    assert w.filename == __file__ and w.lineno == line
    assert _computed(y)
    with lazynum.errstate(divide="raise"):
        with pytest.raises(FloatingPointError, match="divide by zero"):
            lazynum.log(x)
    with lazynum.errstate(divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert numpy.asarray(lazynum.log(x))[0] == -numpy.inf


def test_a_loop_of_small_ops_keeps_no_intermediate_alive():
    x = lazynum.asarray(numpy.ones(8))
    first = x + 1.0
    ref = weakref.ref(first._n())
    for _ in range(200):
        x = x * 0.5 + 1.0
    del first
    gc.collect()
    assert ref() is None                # no intern table, no live list holds it
    assert not node_mod.trace_state().interned
    numpy.testing.assert_allclose(numpy.asarray(x), numpy.full(8, 2.0))


def test_gradients_are_unchanged():
    w = lazynum.asarray(numpy.array([0.5, -1.0, 2.0]))

    def loss(w):
        return (lazynum.tanh(w) ** 2).sum()

    g = lazynum.grad(loss)(w)
    expected = 2 * numpy.tanh([0.5, -1.0, 2.0]) * (1 - numpy.tanh([0.5, -1.0, 2.0]) ** 2)
    numpy.testing.assert_allclose(numpy.asarray(g), expected, rtol=1e-12)


def test_threads_compute_their_own_small_arrays():
    results, errors = {}, []

    def work(k):
        try:
            x = lazynum.asarray(numpy.full(6, float(k)))
            for _ in range(50):
                x = x + 1.0
            results[k] = numpy.asarray(x).copy()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k in range(4):
        numpy.testing.assert_array_equal(results[k], numpy.full(6, k + 50.0))


def test_an_augmented_assignment_through_a_window_updates_the_storage_in_place():
    base = numpy.arange(20.0).reshape(4, 5)
    a = lazynum.asarray(base.copy())
    a[0, 0] = -1.0
    before = weakref.ref(_buffer(a))
    a[1:, 1:] -= a[1:, 0][:, None] * a[0, 1:][None, :]
    window = a[2:, :2]
    window *= 2.0                       # a live window: updated in place too
    assert _buffer(a) is before()
    want = base.copy()
    want[0, 0] = -1.0
    want[1:, 1:] -= want[1:, 0][:, None] * want[0, 1:][None, :]
    want[2:, :2] *= 2.0
    numpy.testing.assert_array_equal(numpy.asarray(a), want)
    numpy.testing.assert_array_equal(numpy.asarray(window), want[2:, :2])
    kept = a[1:3, 1:3].copy()           # a snapshot: it keeps its value
    part = a[1:3, 1:3]
    part += 100.0
    numpy.testing.assert_array_equal(numpy.asarray(kept), want[1:3, 1:3])
    want[1:3, 1:3] += 100.0
    numpy.testing.assert_array_equal(numpy.asarray(a), want)
    numpy.testing.assert_array_equal(numpy.asarray(part), want[1:3, 1:3])


def test_an_augmented_assignment_errors_as_numpy_does():
    i = lazynum.asarray(numpy.arange(6, dtype=numpy.int64).reshape(2, 3))
    i[0, 0] = 7
    row = i[1]
    with pytest.raises(TypeError):      # same_kind casting: nothing written
        row += 0.5
    numpy.testing.assert_array_equal(numpy.asarray(i), [[7, 1, 2], [3, 4, 5]])
    f = lazynum.asarray(numpy.array([[1.0, 0.0], [2.0, 3.0]]))
    f[0, 0] = 1.0
    top = f[0]
    with lazynum.errstate(divide="raise"):
        with pytest.raises(FloatingPointError, match="divide by zero"):
            top /= 0.0                  # NumPy writes, then raises
    numpy.testing.assert_array_equal(numpy.asarray(f), [[numpy.inf, numpy.nan], [2.0, 3.0]])


def test_numpys_error_state_is_set_the_fast_way():
    # Without NumPy's context variable every shortcut of the tier declines (correct, slow).
    from lazynum.runtime import immediate
    assert immediate.extobj_contextvar is not None


def test_a_store_into_a_copy_leaves_the_original_as_it_was():
    u = lazynum.asarray(numpy.zeros((4, 4))) + 1.0
    new = u.copy()                      # (may share u's computed value until written)
    view = new[1:3, 1:3]
    lazynum.reset_metrics()
    new[1:-1, 1:-1] = u[:-2, 1:-1] * 3.0
    new[0] = -1.0
    assert lazynum.metrics()["syncs"] == 0
    numpy.testing.assert_array_equal(numpy.asarray(u), numpy.ones((4, 4)))
    want = numpy.ones((4, 4))
    want[1:-1, 1:-1] = 3.0
    want[0] = -1.0
    numpy.testing.assert_array_equal(numpy.asarray(new), want)
    numpy.testing.assert_array_equal(numpy.asarray(view), want[1:3, 1:3])


def test_a_library_call_on_computed_inputs_of_any_size_runs_at_once():
    m = lazynum.asarray(numpy.eye(LIMIT) * 2.0)          # LIMIT**2 elements: over the limit
    v = lazynum.asarray(numpy.ones(LIMIT))
    lazynum.reset_metrics()
    w = m @ v                             # matmul fuses with nothing: NumPy's call, now
    n = lazynum.linalg.norm(w)
    assert _computed(w) and _computed(n) and lazynum.metrics()["syncs"] == 0
    assert float(n) == numpy.linalg.norm(numpy.full(LIMIT, 2.0))
    big = m @ m                           # a result over the limit stays recorded
    assert not _computed(big)
    numpy.testing.assert_array_equal(numpy.asarray(big), numpy.eye(LIMIT) * 4.0)


def test_stores_from_windows_of_the_same_array_read_its_old_value_as_numpy():
    want = numpy.arange(30.0).reshape(5, 6)
    h = lazynum.asarray(want.copy())
    h[0, 0] = 0.0
    want[0, 0] = 0.0
    h[0, :], h[-1, :], h[:, 0], h[:, -1] = h[1, :], h[-2, :], h[:, 1], h[:, -2]
    want[0, :], want[-1, :], want[:, 0], want[:, -1] = want[1, :], want[-2, :], want[:, 1], want[:, -2]
    h[1:, 2] = h[:-1, 2]
    want[1:, 2] = want[:-1, 2]
    h[2] = h[2, ::-1]
    want[2] = want[2, ::-1]
    h[3, 1:3] = h[3, 1:3]
    numpy.testing.assert_array_equal(numpy.asarray(h), want)
