"""Out of core: an input three times one worker's memory_limit, generated block by block in the
workers (never whole anywhere), reduced by a program on a LocalCluster of its own; the results
are exact and every worker's peak resident memory stays under its limit, with no restart."""
import os

import dask.array as da
import numpy
import pytest

import lazynum

LIMIT = 384 << 20                        # bytes per worker (an idle worker holds ~190 MB)
COLS = 1024
ROWS = 3 * LIMIT // (8 * COLS)           # float64: 1.1 GiB in all, 3 x one worker's limit


@pytest.fixture(autouse=True)
def backend():
    """This test is about memory, not about backends (it replaces the conftest's fixture
    that runs every test on both): the compiled backend runs the block programs (the NumPy
    reference backend, a temporary per op, would take a minute here)."""
    with lazynum.config(backend="llvm"):
        yield "llvm"


@pytest.fixture(scope="module")
def small_workers():
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=None, silence_logs=40, memory_limit=LIMIT) as cluster:
        with Client(cluster, set_as_default=False) as client:
            yield client


def _peak_resident_bytes():
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10      # Linux: KiB


def _heat_sum(np, u):
    lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
    return (u[1:-1, 1:-1] + 0.25 * lap).sum()


def test_an_input_three_times_a_workers_memory_reduces_under_its_limit(small_workers):
    # element (r, c) = r * COLS + c, made by each task for its 8 MiB block
    u = da.arange(ROWS * COLS, chunks=1 << 20, dtype=numpy.float64).reshape(ROWS, COLS)
    assert u.nbytes == 3 * LIMIT and u.numblocks == (144, 1)
    pids = small_workers.run(os.getpid)
    x = lazynum.from_dask(u)
    with lazynum.config(dask_scheduler=small_workers.scheduler.address):
        y = x / 1024 - 3
        results = ((y * y).sum(), _heat_sum(lazynum, x), x[x > 1e8].mean(), (x > 1e8).sum())
        lazynum.sync(*results)
    n = ROWS * COLS
    squares = n * (n - 1) * (2 * n - 1) // 6                    # sum of i**2 over i < n
    want_squares = squares / 1024 ** 2 - 6 * (n * (n - 1) // 2) / 1024 + 9 * n
    interior = sum(r * COLS for r in range(1, ROWS - 1)) * (COLS - 2) \
        + (ROWS - 2) * sum(range(1, COLS - 1))     # a linear field: the heat step keeps it
    first = int(1e8) + 1
    numpy.testing.assert_allclose([float(r) for r in results],
                                  [want_squares, interior, (first + n - 1) / 2, n - first],
                                  rtol=1e-12)
    assert small_workers.run(os.getpid) == pids                   # nobody was restarted
    peaks = small_workers.run(_peak_resident_bytes)
    print("peak resident MiB per worker:", [p >> 20 for p in peaks.values()])
    assert all(peak < LIMIT for peak in peaks.values()), peaks
