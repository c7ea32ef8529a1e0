"""A real Dask cluster for the distributed tests: 2 worker processes on the loopback interface,
started once per session, plus Dask's local schedulers (threads, synchronous)."""
import dask
import pytest

import lazynum


@pytest.fixture(scope="session")
def cluster():
    from distributed import LocalCluster
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=None, silence_logs=40) as cluster:
        yield cluster


@pytest.fixture(scope="session")
def client(cluster):
    from distributed import Client
    with Client(cluster, set_as_default=False) as client:
        yield client


@pytest.fixture(params=["synchronous", "threads", "cluster"])
def scheduler(request):
    """Where a test's syncs run: Dask's synchronous or threaded local scheduler, or the
    LocalCluster (named through lazynum's own setting, LAZYNUM_DASK_SCHEDULER's)."""
    if request.param == "cluster":
        address = request.getfixturevalue("client").scheduler.address
        with lazynum.config(dask_scheduler=address):
            yield request.param
    else:
        with dask.config.set(scheduler=request.param):
            yield request.param
