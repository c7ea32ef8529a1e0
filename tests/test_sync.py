"""Sync points: one entry point, reasons and sites, policies, co-live arrays, flushes."""
import gc
import os
import warnings
import weakref

import numpy as np
import pytest

import lazynum as lnp

HERE = os.path.basename(__file__)


def test_a_50_op_chain_then_item_is_exactly_one_sync():
    x = lnp.asarray(np.arange(1.0, 9.0))
    y = x
    for i in range(25):
        y = y * 1.01
        y = y + x
    assert lnp.metrics()["syncs"] == 0
    assert lnp.metrics()["nodes_computed"] == 0
    value = y[3].item()
    expected = np.arange(1.0, 9.0)
    ref = expected
    for i in range(25):
        ref = ref * 1.01 + expected
    assert value == pytest.approx(ref[3])
    assert lnp.metrics()["syncs"] == 1
    y[3].item()   # already computed: no new sync
    assert lnp.metrics()["syncs"] == 1


@pytest.mark.parametrize("reason, trigger", [
    ("item", lambda a: a[0].item()),
    ("tolist", lambda a: a.tolist()),
    ("__array__", lambda a: np.asarray(a)),
    ("print", lambda a: repr(a)),
    ("print", lambda a: str(a)),
    ("bool", lambda a: bool(a[0] > 0)),
    ("int", lambda a: int(a[0])),
    ("float", lambda a: float(a[0])),
    ("iter", lambda a: list(iter(a))),
    ("explicit", lambda a: a.sync()),
    ("explicit", lambda a: lnp.sync(a)),
])
def test_every_sync_records_its_reason_and_the_user_line(reason, trigger):
    a = lnp.asarray(np.arange(3.0)) + 1.0
    trigger(a)
    report = lnp.metrics_report()
    assert lnp.metrics()["syncs"] == 1
    sites = report.split("syncs (reason, first user frame):")[1].split("fallbacks to NumPy")[0]
    line = next(line for line in sites.splitlines() if line.split()[1:2] == [reason])
    assert HERE in line


def test_index_is_a_sync_and_matches_numpy():
    a = lnp.asarray(np.arange(5)) * 2
    assert [10, 20, 30][a[1] // 2] == 20
    assert lnp.metrics()["syncs"] == 1


def test_co_live_arrays_sharing_the_graph_compute_in_the_same_run():
    x = lnp.asarray(np.arange(4.0))
    shared = lnp.exp(x) * 3.0
    a = shared + 1.0
    b = shared - 1.0
    unrelated = lnp.asarray(np.ones(2)) * 5.0
    a.sync()
    assert lnp.metrics()["syncs"] == 1
    assert b._n().buffer is not None, "b shares exp(x)*3 and is live: computed with a"
    assert unrelated._n().buffer is None, "unrelated graphs stay pending"
    computed = lnp.metrics()["nodes_computed"]
    np.testing.assert_allclose(np.asarray(b), np.exp(np.arange(4.0)) * 3.0 - 1.0)
    assert lnp.metrics()["nodes_computed"] == computed, "nothing is computed twice"


def test_a_failing_co_live_array_does_not_break_this_sync():
    from lazynum.array.arraytype import wrap
    from lazynum.expr import indexing as prims, node as nodes
    x = lnp.asarray(np.arange(4.0))
    shared = x * 2.0
    good = shared + 1.0
    out_of_bounds = (shared.astype(np.int64) + 10)._n()
    bad = wrap(nodes.apply(prims.CHECK_INDEX, (out_of_bounds,), (4, 0)))   # live, fails at run time
    np.testing.assert_allclose(np.asarray(good), np.arange(4.0) * 2.0 + 1.0)
    with pytest.raises(IndexError, match="check_index"):
        bad.sync()


def test_memory_stays_flat_over_a_long_loop_with_periodic_syncs():
    x = lnp.asarray(np.zeros(16))
    first = weakref.ref(x._n())
    refs = []
    for step in range(10_000):
        x = x + 1.0
        if step == 50:
            refs.append(weakref.ref(x._n()))
        if step % 100 == 99:
            x.sync()
    gc.collect()
    assert first() is None and refs[0]() is None, "computed graphs are freed"
    np.testing.assert_array_equal(np.asarray(x), np.full(16, 10_000.0))
    assert lnp.metrics()["syncs"] == 100


def test_sync_raise_mode_makes_implicit_syncs_fatal_but_allows_explicit_ones():
    a = lnp.asarray(np.arange(3.0)) * 2.0
    with lnp.config(sync="raise"):
        with pytest.raises(lnp.SyncError, match="item"):
            a[0].item()
        a.sync()
        assert a[0].item() == 0.0   # already computed: not a sync
    b = lnp.asarray(np.arange(3.0)) + 1
    with lnp.config(sync="warn"):
        with pytest.warns(RuntimeWarning, match="print"):
            repr(b)


def test_automatic_flush_bounds_the_pending_graph():
    x = lnp.asarray(np.ones(4))
    with lnp.config(flush_nodes=100):
        for _ in range(250):
            x = x * 1.0 + 0.0
    assert lnp.metrics()["auto_flushes"] >= 4
    np.testing.assert_array_equal(np.asarray(x), np.ones(4))
    assert "auto_flush" in lnp.metrics_report()


def test_numpy_function_without_a_lazy_version_falls_back_and_is_counted():
    a = lnp.asarray(np.arange(10.0)) * 2.0
    # piecewise calls Python functions per piece: NumPy's own, a counted fallback (census)
    result = np.piecewise(a, [a > 5], [lambda v: v * 3, lambda v: -v])
    b = np.arange(10.0) * 2.0
    expected = np.piecewise(b, [b > 5], [lambda v: v * 3, lambda v: -v])
    np.testing.assert_allclose(np.asarray(result), expected)
    assert lnp.metrics()["fallbacks"] == 1
    assert "numpy." in lnp.metrics_report()


def test_logs_print_the_graph_and_the_sync(capsys):
    a = lnp.asarray(np.arange(3.0))
    with lnp.config(logs="graph,sync"):
        (lnp.sin(a) + 1.0).sync()
    err = capsys.readouterr().err
    assert "[lazynum:graph]" in err and "sin(" in err
    assert "[lazynum:sync]" in err and HERE in err


def test_explicit_sync_returns_the_array_and_values_match():
    a = lnp.asarray(np.arange(6.0)).reshape(2, 3)
    assert a.sync() is a
    b, c = lnp.sync(a + 1, a * 2)
    np.testing.assert_array_equal(np.asarray(b), np.arange(6.0).reshape(2, 3) + 1)
    np.testing.assert_array_equal(np.asarray(c), np.arange(6.0).reshape(2, 3) * 2)


def test_numpy_input_is_snapshotted():
    data = np.arange(3.0)
    lazy = lnp.asarray(data) + 0.0
    data[0] = 100.0
    assert np.asarray(lazy)[0] == 0.0


def test_exported_arrays_are_copies():
    lazy = lnp.asarray(np.arange(3.0)) * 1.0
    out = np.asarray(lazy)
    out[0] = 42.0
    assert np.asarray(lazy)[0] == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError):
            np.array(lazy, copy=False)


def test_automatic_flush_still_fires_when_unrelated_syncs_happen():
    acc = lnp.asarray(np.zeros(4))
    small = lnp.asarray(np.ones(2))
    with lnp.config(flush_nodes=200):
        for step in range(600):
            acc = acc + 1.0
            if step % 10 == 0:
                (small * float(step)).sum().item()
    assert lnp.metrics()["auto_flushes"] >= 2
    np.testing.assert_array_equal(np.asarray(acc), np.full(4, 600.0))


def test_a_failing_live_array_does_not_poison_later_ops_after_a_flush():
    x = lnp.asarray(np.arange(3.0))
    bad = x[lnp.asarray(np.array([7]))]          # fails only when computed
    y = lnp.asarray(np.zeros(2))
    with lnp.config(flush_nodes=10):
        for _ in range(50):
            y = y + 1.0                            # triggers flushes; must never raise
    np.testing.assert_array_equal(np.asarray(y), np.full(2, 50.0))
    with pytest.raises(IndexError):
        bad.sync()


def test_views_of_a_synced_value_do_not_recompute_its_producer():
    a = lnp.asarray(np.arange(12.0))
    y = lnp.exp(a * 2.0).reshape(3, 4)
    y.sum().item()
    computed = lnp.metrics()["nodes_computed"]
    for i in range(3):
        y[i].sum().item()
    assert lnp.metrics()["nodes_computed"] - computed == 3, "one reduction per row, no exp/multiply"


def test_in_place_updates_of_an_owner_stay_co_live():
    a = lnp.asarray(np.arange(4.0))
    for _ in range(3):
        a += 1.0
    (a * 2.0).sum().item()
    computed = lnp.metrics()["nodes_computed"]
    a.sum().item()
    assert lnp.metrics()["nodes_computed"] - computed == 1, "a was computed with the first sync"


def test_views_of_computed_data_are_leaves_not_pending_nodes():
    z = lnp.zeros((300, 300))
    z.sync()
    with lnp.config(flush_nodes=50):
        rows = [z[i] for i in range(200)]
    assert lnp.metrics()["auto_flushes"] == 0 and lnp.metrics()["syncs"] == 1
    assert all(r._pending_node() is None for r in rows)
    np.testing.assert_array_equal(np.asarray(rows[7]), np.zeros(300))


def test_threads_tracing_and_syncing_concurrently_get_numpy_results():
    import threading
    results, errors = {}, []

    def work(k):
        try:
            x = lnp.asarray(np.arange(50.0) + k)
            for _ in range(200):
                x = x * 1.0 + 1.0
                if _ % 50 == 0:
                    x.sum().item()
            results[k] = np.asarray(x)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k in range(4):
        np.testing.assert_array_equal(results[k], np.arange(50.0) + k + 200.0)
