"""A sync that fails leaves arrays as NumPy leaves them: the failing write never happens,
earlier writes stay, the array stays usable, and the error names the op and the line."""
import numpy as np
import pytest

import lazynum as lnp

from ..strategies import assert_same


def test_an_out_of_range_scatter_raises_once_and_leaves_the_array_unchanged():
    x = lnp.asarray(np.arange(5.0))
    view = x[1:]
    x[0] = 10.0                                   # before the bad write: kept
    x[lnp.asarray(np.array([1, 9]))] = -1.0       # index 9: only the sync can tell
    x[2] = 20.0                                   # after it: NumPy never gets here
    with pytest.raises(IndexError, match="out of bounds") as info:
        x.sync()
    assert any("check_index" in note and "test_failed_sync.py" in note
               for note in info.value.__notes__)
    assert_same(x, np.array([10.0, 1, 2, 3, 4]))
    assert_same(view, np.array([1.0, 2, 3, 4]))
    assert_same(x + 1, np.array([11.0, 2, 3, 4, 5]))
    x[lnp.asarray(np.array([1, 4]))] = -1.0       # the next write is right
    assert_same(x, np.array([10.0, -1, 2, 3, -1]))


def test_a_failed_write_through_a_view_rolls_back_the_shared_storage():
    base = lnp.asarray(np.arange(6).reshape(2, 3))
    row = base[1]
    row[lnp.asarray(np.array([0, 3]))] = 0
    with pytest.raises(IndexError):
        print(base)
    assert_same(base, np.arange(6).reshape(2, 3))
    assert_same(row, np.array([3, 4, 5]))


def test_a_failed_integer_power_into_out_leaves_its_destination():
    a = lnp.asarray(np.arange(5, dtype=np.int16))
    exponents = lnp.asarray(np.full(4, -2, dtype=np.int16))
    lnp.power(a[1:], exponents, out=a[1:])
    with pytest.raises(ValueError, match="negative integer powers"):
        a.sync()
    assert_same(a, np.arange(5, dtype=np.int16))
    assert_same(a * 2, np.arange(5, dtype=np.int16) * 2)


def test_other_arrays_of_the_failed_sync_keep_their_values():
    x = lnp.asarray(np.arange(4.0))
    y = lnp.asarray(np.ones(3))
    y *= 3
    x[lnp.asarray(np.array([7]))] = 0.0
    with pytest.raises(IndexError):
        lnp.sync(x, y)
    assert_same(y, np.full(3, 3.0))
    assert_same(x, np.arange(4.0))


def test_remembered_writes_do_not_outlive_the_sync_that_computes_their_array():
    """Each write remembers the value it replaced until its array is computed: a loop of
    writes then a sync must not keep the old graph alive."""
    from lazynum.runtime import writes

    def remembered():          # entries for x (other tests' live arrays may have their own)
        mine = (x, x._view.storage if x._view is not None else x)
        return sum(1 for holder, _, _ in writes._pending
                   if any(writes._target(holder) is m for m in mine))
    x = lnp.zeros(64)
    for i in range(64):
        x[i] = i
    assert remembered() == 64
    x.sync()
    assert remembered() == 0
    assert_same(x, np.arange(64.0))


def test_a_rebound_arrays_writes_do_not_keep_its_graph_alive_across_runs():
    """``f[i] = ...`` then ``f = np.where(...)``: the old storage's last value is never
    computed; remembering the writes (for undo) must not keep that graph alive: live
    graph nodes stay flat from run to run (they grew by a whole program per run)."""
    import gc

    from lazynum.expr.node import Node

    def program():
        f = lnp.asarray(np.arange(12.0).reshape(3, 4))
        for _ in range(5):
            for i in range(3):
                f[i] = f[i] * 0.5 + i
            f = lnp.where(f > 1.0, f[::-1], f)
        return np.asarray(f)

    def live_nodes():
        gc.collect()
        return sum(type(o) is Node for o in gc.get_objects())

    expected = program()
    program()
    before = live_nodes()
    for _ in range(4):
        np.testing.assert_array_equal(program(), expected)
    assert live_nodes() <= before


def test_a_check_a_write_left_unread_raises_at_the_next_sync_once():
    # NumPy raises at y[0] on an empty selection even though the element is then only
    # filled; lazily the fill replaces the value unread, so the next sync runs the check.
    x = lnp.asarray(np.array([1.0, 2.0, 3.0]))
    y = x[x > 5]
    line = __import__("inspect").currentframe().f_lineno + 1
    y[0].fill(7.0)
    z = x * 2
    with pytest.raises(IndexError, match="out of bounds") as info:
        print(z)
    assert any("lazynum op" in note and f"test_failed_sync.py:{line}" in note
               for note in info.value.__notes__)
    assert_same(z, np.array([2.0, 4.0, 6.0]))       # raised once: the next sync succeeds
    assert_same(x, np.array([1.0, 2.0, 3.0]))


def test_a_check_that_passes_costs_no_sync_and_stays_out_of_the_program():
    x = lnp.asarray(np.arange(4.0))
    y = x[x > 1]
    y[0].fill(7.0)                                  # in bounds: the check passes
    lnp.reset_metrics()
    assert_same(x * 2, np.array([0.0, 2.0, 4.0, 6.0]))
    assert lnp.metrics()["syncs"] == 1


def test_a_check_read_by_a_live_array_raises_with_it_and_only_once():
    x = lnp.asarray(np.array([1.0, 2.0, 3.0]))
    y = x[x > 5]
    e = y[0]
    w = e * 2                                       # still reads the checked element
    e.fill(7.0)
    assert_same(x + 1, np.array([2.0, 3.0, 4.0]))   # w's check waits for w
    with pytest.raises(IndexError, match="out of bounds"):
        w.sync()
    del w
    assert_same(x + 2, np.array([3.0, 4.0, 5.0]))   # not raised a second time


def _line_of_next_statement() -> int:
    return __import__("inspect").currentframe().f_back.f_lineno + 1


@pytest.mark.parametrize("statement", ["y[5]", "y[5] + 1", "x[lnp.asarray(np.array([0, 7]))]"])
def test_a_check_whose_value_is_dropped_raises_at_the_next_sync_once(statement):
    # NumPy raises at y[5] even when the statement's value is discarded; lazily nothing
    # reads the checked value any more, so the next sync runs the check (naming the line)
    x = lnp.asarray(np.array([1.0, 2.0, 3.0]))
    y = x[x > 1]
    y.sync()
    exec(statement)                                 # noqa: S102  (the value is dropped)
    with pytest.raises(IndexError, match="out of bounds") as info:
        lnp.sync(y)                                 # y itself is computed already
    assert any("lazynum op" in note and "<string>:1" in note for note in info.value.__notes__)
    assert_same(y + 1, np.array([3.0, 4.0]))        # raised once: the next sync succeeds


def test_a_dropped_check_raises_before_the_sync_that_follows_it():
    x = lnp.asarray(np.array([1.0, 2.0, 3.0]))
    y = x[x > 1]
    line = _line_of_next_statement()
    y[5]
    z = x * 2
    with pytest.raises(IndexError, match="out of bounds") as info:
        print(z)
    assert any(f"test_failed_sync.py:{line}" in note for note in info.value.__notes__)
    assert_same(z, np.array([2.0, 4.0, 6.0]))


def test_a_check_of_a_call_that_raised_before_using_it_is_not_replayed():
    # the bounded size check is recorded before NumPy's loop resolution raises TypeError;
    # NumPy raised that TypeError only, so no later sync raises the size check
    x = lnp.asarray(np.array([1.0, 2.0, 3.0]))
    y, z = x[x > 1], lnp.asarray(np.array([1j, 2j, 3j]))[x > 5]
    with pytest.raises(TypeError):
        y ^ z
    assert_same(x + 1, np.array([2.0, 3.0, 4.0]))


def test_an_augmented_write_out_of_range_on_a_bounded_array_raises_once():
    # fuzz seed 714732: y[-2] -= 4 reads y[-2] lazily (a run-time check), then the write
    # raises NumPy's IndexError at the call; the check must not raise it again later
    x = lnp.asarray(np.array([-2, 4, -4], dtype=np.int32))
    y = x[x > 3]
    with pytest.raises(IndexError, match="out of bounds"):
        y[-2] -= 4
    assert_same(y // 1, np.array([4], dtype=np.int32))
    assert_same(x + 0, np.array([-2, 4, -4], dtype=np.int32))
