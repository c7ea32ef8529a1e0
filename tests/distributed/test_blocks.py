"""What runs in a task: a block's program compiles once per worker and graph signature, and is
replayed for every block (edge blocks of other sizes included) and every later sync."""
import dask
import dask.array as da
import numpy
import pytest

import lazynum
from lazynum.distributed import blocks
from lazynum.runtime import compile_cache

A = numpy.random.default_rng(3).standard_normal((11, 8))


def _fresh_worker_state():
    import lazynum
    from lazynum.runtime import compile_cache
    compile_cache.clear_memory()
    lazynum.reset_metrics()


def _worker_metrics():
    import lazynum
    metrics = lazynum.metrics()
    return {"compiles": metrics["compiles"], "syncs": metrics["syncs"]}


@pytest.fixture
def llvm():
    with lazynum.config(backend="llvm"):
        yield


def test_each_worker_compiles_a_program_once_for_every_block_and_later_syncs(client, llvm):
    client.run(_fresh_worker_state)
    x = lazynum.from_dask(da.from_array(A, chunks=(4, 3)))    # 9 blocks: 4x3, 4x2, 3x3, 3x2
    with lazynum.config(dask_scheduler=client.scheduler.address):
        for scale in (2.0, 3.0, 0.5):                         # new scalars: runtime parameters
            y = lazynum.exp(x * scale) - x / 3
            numpy.testing.assert_allclose(numpy.asarray(y), numpy.exp(A * scale) - A / 3)
    per_worker = client.run(_worker_metrics)
    assert sum(m["syncs"] for m in per_worker.values()) == 3 * 9     # one sync per block
    assert all(m["compiles"] == (1 if m["syncs"] else 0) for m in per_worker.values())


def test_edge_blocks_of_other_sizes_replay_the_same_program(llvm):
    compile_cache.clear_memory()
    lazynum.reset_metrics()
    x = lazynum.from_dask(da.from_array(A, chunks=(4, 3)))
    with dask.config.set(scheduler="synchronous"):
        numpy.testing.assert_allclose(numpy.asarray((x * x + 1).sum(axis=0)),
                                      (A * A + 1).sum(axis=0))
    metrics = lazynum.metrics()
    assert metrics["syncs"] == 1 + 9 and metrics["compiles"] == 1
    assert metrics["distributed_syncs"] == 1


def test_a_square_block_and_a_ragged_one_key_alike(llvm):
    compile_cache.clear_memory()
    lazynum.reset_metrics()
    square = numpy.arange(36.0).reshape(6, 6)
    x = lazynum.from_dask(da.from_array(square, chunks=(3, 3)))       # every block 3x3
    y = lazynum.from_dask(da.from_array(A, chunks=(4, 3)))            # 4x3 ... 3x2
    with dask.config.set(scheduler="synchronous"):
        numpy.asarray(x * 2 - 1)
        numpy.asarray(y * 2 - 1)
    assert lazynum.metrics()["compiles"] == 1


def test_a_program_is_plain_data_and_runs_on_numpy_blocks():
    program = blocks.Program(inputs=(("i0", "i1"), (None, "i1")),
                             steps=(("scalar", 2.0, "<f8"),
                                    ("op", "multiply", (), (-1, 0)),
                                    ("op", "add", (), (1, -2)),
                                    ("op", "reduce_sum", ((1,),), (2,)),
                                    ("reshape", ("i0", None), 3)),
                             output=4, backend="llvm")
    import pickle
    assert pickle.loads(pickle.dumps(program)) == program
    left, right = numpy.ones((3, 4)), numpy.arange(4.0)[None]
    out = blocks.run_block(left, right, program=program)
    numpy.testing.assert_array_equal(out, (2 * left + right).sum(axis=1, keepdims=True))


def test_combines_fold_partials_as_numpy_reduces():
    parts = numpy.array([[1.0, numpy.nan], [3.0, 2.0]])
    assert numpy.isnan(blocks.combiner("reduce_max")(parts, axis=(0, 1), keepdims=False))
    assert blocks.combiner("reduce_fmax")(parts, axis=(0, 1), keepdims=False) == 3.0
    halves = numpy.full(4, 0.1, numpy.float32)
    total = blocks.combiner("reduce_sum")(halves, axis=(0,), keepdims=False)
    assert total.dtype == numpy.float32 and total == numpy.float32(0.4)
    assert not blocks.can_combine("argmax")
