"""lazynum on Dask against dask.array with NumPy chunks: the same NumPy-style code, one run.

    python -m bench.distributed                     # 2 x 512 MiB inputs, 5 runs (a few minutes)
    python -m bench.distributed --rows 2048 --runs 3 --only sumsq softmax

Inputs are ``.npy`` files on disk (``--dir``, default a temporary directory), read block by
block through memory maps (``lazynum.distributed.npy``) by both libraries.  Each workload is a
function ``program(np, a, b)`` run with ``np = dask.array`` on the Dask arrays and with
``np = lazynum`` on ``lazynum.from_dask`` of the same arrays; array results stay distributed
(``dask.persist``), small ones are computed.  Schedulers: Dask's local threads and a
``LocalCluster`` of 2 single-threaded worker processes.  A third column runs lazynum in one
process on the files loaded into memory (threads rows); on the cluster rows the last column
is instead the peak resident memory of the busiest worker during one more (warm) run of
each library, sampled every 2 ms by a thread in each worker, persisted results included.
Each cell is the median of ``--runs`` timed runs after untimed warm-ups (compiles happen
there); results are checked against each other.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import numpy


def fused(np, a, b):
    return 2 * a + 3 * b * b - a / (b + 1)


def sumsq(np, a, b):
    return ((a - b) ** 2).sum()


def softmax(np, a, b):
    e = np.exp(a - a.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def masked(np, a, b):
    y = a[a > 0.5]
    return y.sum(), y.mean(), y.var()


def stats(np, a, b):
    return a.sum(), a.max(), a.min()


def stencil(np, a, b):
    return 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])


WORKLOADS = {"fused": ("fused elementwise: 2a + 3b^2 - a/(b+1)", fused),
             "sumsq": ("((a - b)**2).sum()", sumsq),
             "softmax": ("row softmax", softmax),
             "masked": ("masked stats: y = a[a > .5]; sum, mean, var", masked),
             "stats": ("a.sum(), a.max(), a.min() together", stats),
             "stencil": ("heat stencil (4 shifted slices)", stencil)}


def _inputs(directory, rows, cols):
    rng = numpy.random.default_rng(0)
    paths = []
    for name in ("a", "b"):
        path = os.path.join(directory, f"{name}_{rows}x{cols}.npy")
        if not os.path.exists(path):
            out = numpy.lib.format.open_memmap(path, "w+", numpy.float64, (rows, cols))
            for start in range(0, rows, 1024):
                out[start:start + 1024] = rng.standard_normal((min(1024, rows - start), cols))
            out.flush()
            del out
        paths.append(path)
    return paths


def _run_dask(program, a, b):
    import dask
    result = program(dask.array, a, b)
    if isinstance(result, tuple):
        return dask.compute(*result)
    if result.ndim == 0:
        return float(result.compute())
    return _persisted(result)


def _run_lazy(program, a, b):
    import lazynum
    result = program(lazynum, lazynum.from_dask(a), lazynum.from_dask(b))
    if isinstance(result, tuple):
        lazynum.sync(*result)
        return tuple(float(r) for r in result)
    if result.ndim == 0:
        return float(result)
    return _persisted(result.to_dask())


def _run_local(program, a, b):
    import lazynum
    result = program(lazynum, a, b)
    if isinstance(result, tuple):
        lazynum.sync(*result)
        return tuple(float(r) for r in result)
    result.sync()
    return result


def _persisted(array):
    import dask
    (array,) = dask.persist(array)
    try:
        from distributed import wait
        wait(array)
    except (ImportError, ValueError):
        pass
    return array


def _checksum(result) -> float:
    if isinstance(result, (tuple, float)):
        return numpy.asarray(result, dtype=float)
    import dask.array as da
    import lazynum
    if isinstance(result, lazynum.ndarray):
        return numpy.asarray([float(result.sum()), float((result * result).sum())])
    return numpy.asarray(da.compute(result.sum(), (result * result).sum()))


def _time(run, runs, warmups=3):
    """Median of ``runs`` after ``warmups`` untimed runs (lazynum's first runs of a new
    program are its interpreter tier while its kernels compile in the background)."""
    first = run()
    check = _checksum(first)
    _release(first)
    for _ in range(warmups - 1):
        _release(run())
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - start)
        _release(out)
    return statistics.median(times), check


def _release(result):
    """Wait until the cluster has forgotten a run's persisted blocks (each run reads inputs
    of a fresh name, so no run finds an earlier run's keys in memory)."""
    del result
    try:
        from distributed import default_client
        client = default_client()
    except (ImportError, ValueError):
        return
    deadline = time.perf_counter() + 5
    while time.perf_counter() < deadline and client.run_on_scheduler(_task_count):
        time.sleep(0.01)


def _task_count(dask_scheduler=None):
    return len(dask_scheduler.tasks)


def _fresh(paths, chunks):
    """The input files as Dask arrays with names never used before (see ``_release``)."""
    import uuid
    import dask.array as da
    from lazynum.distributed.npy import NpyFile
    arrays = []
    for path in paths:
        data = NpyFile(path)
        arrays.append(da.from_array(data, chunks=chunks, name=f"npy-{uuid.uuid4().hex}",
                                    asarray=False, fancy=False,
                                    meta=numpy.empty((0,) * data.ndim, data.dtype)))
    return arrays


def _row(name, scheduler, program, inputs, runs, local, client=None):
    dask_s, dask_check = _time(lambda: _run_dask(program, *_fresh(*inputs)), runs)
    lazy_s, lazy_check = _time(lambda: _run_lazy(program, *_fresh(*inputs)), runs)
    ok = numpy.allclose(dask_check, lazy_check, rtol=1e-9)
    cells = [f"{name:<46}", f"{scheduler:<13}", f"{dask_s * 1e3:9.0f} ms", f"{lazy_s * 1e3:9.0f} ms",
             f"{dask_s / lazy_s:6.2f}x" + ("" if ok else " WRONG")]
    if local is not None:
        local_s, _ = _time(lambda: _run_local(program, *local), runs)
        cells.append(f"{local_s * 1e3:9.0f} ms  {lazy_s / local_s:5.2f}x")
    if client is not None:
        dask_peak = _peak_memory(client, lambda: _run_dask(program, *_fresh(*inputs)))
        lazy_peak = _peak_memory(client, lambda: _run_lazy(program, *_fresh(*inputs)))
        cells.append(f"{dask_peak >> 20:6d} MiB {lazy_peak >> 20:6d} MiB")
    print("  ".join(cells), flush=True)


# --- peak worker memory: a thread in each worker samples its resident size every 2 ms -------
# (the state lives on the Worker object: run as __main__, these functions travel by value)
def _start_sampling(dask_worker=None):
    import threading
    import psutil
    process = psutil.Process()
    state = {"peak": process.memory_info().rss, "running": True}

    def sample():
        while state["running"]:
            state["peak"] = max(state["peak"], process.memory_info().rss)
            time.sleep(0.002)
    state["thread"] = threading.Thread(target=sample, daemon=True)
    state["thread"].start()
    dask_worker.lazynum_bench_memory = state


def _stop_sampling(dask_worker=None) -> int:
    state = dask_worker.lazynum_bench_memory
    state["running"] = False
    state["thread"].join()
    return state["peak"]


def _peak_memory(client, run) -> int:
    """The largest resident size of any worker during one run of ``run`` (warm: after the
    timed runs), its result included (array results stay persisted in the workers)."""
    client.run(_start_sampling)
    try:
        _release(run())
    finally:
        peaks = client.run(_stop_sampling)
    return max(peaks.values())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=8192)
    parser.add_argument("--cols", type=int, default=8192)
    parser.add_argument("--chunk-rows", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--only", nargs="*", default=list(WORKLOADS))
    parser.add_argument("--schedulers", nargs="*", default=["threads", "cluster"])
    args = parser.parse_args(argv)
    directory = args.dir or os.path.join(tempfile.gettempdir(), "lazynum-bench-distributed")
    os.makedirs(directory, exist_ok=True)
    paths = _inputs(directory, args.rows, args.cols)
    import dask
    import lazynum
    arrays = (paths, (args.chunk_rows, args.cols))
    local = [lazynum.asarray(numpy.load(p)) for p in paths]
    size = f"2 x {args.rows}x{args.cols} f64 ({2 * args.rows * args.cols * 8 >> 20} MiB), " \
           f"{args.chunk_rows}-row chunks"
    print(f"inputs: {size}, median of {args.runs}; ratio = dask.array / lazynum "
          f"(>1: lazynum faster); last column: lazynum in one process, and lazynum-on-Dask / it")
    print(f"{'workload':<46}  {'scheduler':<13}  {'dask.array':>12}  {'lazynum':>12}  "
          f"{'ratio':>7}  lazynum, 1 process / cluster: peak worker RSS, dask.array lazynum")
    for scheduler in args.schedulers:
        if scheduler == "cluster":
            _cluster_rows(args, arrays)
            continue
        with dask.config.set(scheduler=scheduler):
            for key in args.only:
                title, program = WORKLOADS[key]
                _row(title, scheduler, program, arrays, args.runs, local)


def _cluster_rows(args, arrays):
    from distributed import Client, LocalCluster
    os.environ["LAZYNUM_THREADS"] = "1"         # one core per single-threaded worker
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0", memory_limit="6GiB") as cluster, \
            Client(cluster) as client:
        for key in args.only:
            title, program = WORKLOADS[key]
            _row(title, "cluster 2x1", program, arrays, args.runs, None, client)


if __name__ == "__main__":
    main()
