"""Syncs of distributed arrays: what comes back, what stays distributed, what is refused, and
that nothing else in the process (co-live arrays, automatic flushes) gathers them unasked."""
import os
import signal
import threading

import dask
import dask.array as da
import numpy
import pytest

import lazynum
from lazynum.distributed import GatherLimitError

A = numpy.random.default_rng(5).standard_normal((11, 8))


@pytest.fixture
def x():
    with dask.config.set(scheduler="synchronous"):
        yield lazynum.asarray(da.from_array(A, chunks=(4, 3)))


def test_asarray_of_a_dask_array_is_lazy_and_shaped_like_it(x):
    assert isinstance(x, lazynum.ndarray) and x.shape == (11, 8) and x.dtype == numpy.float64
    y = (x * 2).sum(axis=1)
    assert y.shape == (11,) and lazynum.metrics()["distributed_syncs"] == 0
    assert "dask_source" in lazynum.graph_text(y)
    with pytest.raises(TypeError):
        lazynum.from_dask(A)
    with pytest.raises(TypeError, match="Delayed"):
        lazynum.asarray(dask.delayed(sum)([1, 2]))
    with pytest.raises(ValueError, match="unknown chunk sizes"):
        lazynum.from_dask(da.from_array(A)[da.from_array(A[:, 0]) > 0])


def test_a_small_result_comes_back_as_a_lazynum_array_and_is_counted(x):
    y = (x - 1).mean(axis=0)
    y.sync()
    assert isinstance(y, lazynum.ndarray)
    numpy.testing.assert_allclose(numpy.asarray(y + 1), (A - 1).mean(axis=0) + 1)
    metrics = lazynum.metrics()
    assert metrics["distributed_syncs"] == 1 and metrics["dask_bytes_gathered"] == 8 * 8
    assert metrics["dask_tasks"] > 9


def test_a_large_result_is_refused_and_to_dask_keeps_it_distributed(x):
    y = x * 2 + 1
    with lazynum.config(dask_gather_bytes=100):
        with pytest.raises(GatherLimitError, match="to_dask"):
            numpy.asarray(y)
        out = y.to_dask()
        assert isinstance(out, da.Array) and out.chunks == ((4, 4, 3), (3, 3, 2))
        assert lazynum.metrics()["distributed_syncs"] == 0
        numpy.testing.assert_allclose(out.compute(), A * 2 + 1)
        numpy.testing.assert_allclose(float(y.sum()), (A * 2 + 1).sum())   # a reduction: small


def test_to_dask_of_a_local_array_is_its_value_in_one_chunk():
    out = lazynum.to_dask(lazynum.asarray(A) + 1)
    assert isinstance(out, da.Array) and out.numblocks == (1, 1)
    numpy.testing.assert_array_equal(out.compute(scheduler="synchronous"), A + 1)


def test_ops_without_a_dask_form_raise_naming_the_op_never_a_wrong_result(x):
    cases = {"'argsort'": lambda: lazynum.argsort(x, axis=0),
             "'compact'": lambda: x[x > 0],
             "'view'": lambda: lazynum.diagonal(x),
             "'take'": lambda: x[[0, 3, 1]]}
    for name, program in cases.items():
        with pytest.raises(NotImplementedError, match=name) as error:
            numpy.asarray(program())
        assert "to_dask" in str(error.value) and "test_execute.py" in str(error.value)


def test_an_implicit_sync_obeys_lazynum_sync_raise(x):
    with lazynum.config(sync="raise"):
        with pytest.raises(lazynum.SyncError):
            float(x.sum())
        total = x.sum()
        total.sync()                                     # explicit: allowed
    assert float(total) == pytest.approx(A.sum())


def test_a_local_sync_never_computes_a_co_live_distributed_array(x):
    w = lazynum.asarray(A[0]) * 2                        # local, pending
    y = x + w                                            # shares w's graph, distributed
    assert float(w.sum()) == pytest.approx(2 * A[0].sum())
    assert lazynum.metrics()["distributed_syncs"] == 0
    numpy.testing.assert_allclose(numpy.asarray(y), A + 2 * A[0])


def test_an_automatic_flush_leaves_distributed_arrays_pending(x):
    local = lazynum.asarray(A) * 1.0
    with lazynum.config(flush_nodes=5):
        y = x
        for _ in range(8):
            y = y * 1.5 + local
    assert lazynum.metrics()["auto_flushes"] > 0
    assert lazynum.metrics()["distributed_syncs"] == 0
    expected = A
    for _ in range(8):
        expected = expected * 1.5 + A
    numpy.testing.assert_allclose(numpy.asarray(y), expected)


def test_from_npy_reads_blocks_of_a_file(tmp_path):
    path = tmp_path / "a.npy"
    numpy.save(path, A)
    x = lazynum.from_npy(path, chunks=(5, 8))
    assert x.shape == A.shape and x.to_dask().chunks == ((5, 5, 1), (8,))
    with dask.config.set(scheduler="threads"):
        assert float((x * x).sum()) == pytest.approx((A * A).sum())


def test_the_current_distributed_client_runs_the_sync(cluster):
    from distributed import Client
    with Client(cluster) as client:                  # the user's client: Dask's default
        x = lazynum.from_dask(da.from_array(A, chunks=(4, 3)))
        assert float(((x - 1) ** 2).sum()) == pytest.approx(((A - 1) ** 2).sum())
        assert sum(client.run(lambda: __import__("lazynum").metrics()["syncs"]).values()) > 0


def _slow_blocks(block):
    import time
    time.sleep(0.2)
    return block


def test_a_worker_killed_mid_computation_is_recomputed(cluster, client):
    data = numpy.arange(64.0 * 16).reshape(64, 16)
    source = da.from_array(data, chunks=(4, 16)).map_blocks(_slow_blocks)   # 16 blocks
    x = lazynum.from_dask(source)
    pids = list(client.run(os.getpid).values())
    killer = threading.Timer(0.5, os.kill, (pids[0], signal.SIGKILL))
    with lazynum.config(dask_scheduler=client.scheduler.address):
        killer.start()
        try:
            total = float((lazynum.sqrt(x) * 2).sum())
        finally:
            killer.cancel()
    assert total == pytest.approx((numpy.sqrt(data) * 2).sum())
    client.wait_for_workers(2, timeout=30)
