"""lazynum from several threads (docs/architecture.md, "Threads").

Threads that compute on their own arrays are independent: each traces into its own
tables, syncs only its own graph and gets NumPy's values.  Arrays shared between threads
may be read (synced, computed on) from any of them.  ``lazynum.config`` blocks are
per-thread.  Each worker enters the backend fixture's backend itself: a config block of
the main thread does not reach the threads it starts.
"""
import sys
import threading
import time

import numpy as np
import pytest

import lazynum as lnp
from lazynum.backends.llvm import workers
from lazynum.runtime import compile_cache

THREADS = 4
JOIN_SECONDS = 120


@pytest.fixture
def fine_switching():
    """Switch threads every 10 µs (CPython's default is 5 ms), so that traces and syncs of
    different threads interleave at a fine grain instead of a few times per test."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(old)


def run_threads(work, backend, n=THREADS, **config):
    """Run ``work(k)`` on ``n`` threads started together, each inside its own
    ``lazynum.config(backend=backend, **config)``; raise the first exception any of them
    raised (with how many did)."""
    errors = []
    barrier = threading.Barrier(n, timeout=JOIN_SECONDS)

    def body(k):
        try:
            with lnp.config(backend=backend, **config):
                barrier.wait()
                work(k)
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            errors.append(exc)
            barrier.abort()
    threads = [threading.Thread(target=body, args=(k,), name=f"lazynum-test-{k}") for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(JOIN_SECONDS)
    assert not any(t.is_alive() for t in threads), "a worker thread hung"
    if errors:
        raise AssertionError(f"{len(errors)} of {n} threads failed; the first error") from errors[0]


# --- one thread's workload ---------------------------------------------------------------------

# Sizes 1 and 0 are static in the key, 2-D and float32 inputs are other programs: the
# workload both hits the shared compile cache and misses it.
SHAPES = [(40,), (57,), (1,), (3, 9), (64,), (2,), (40,), (5, 7)]
DTYPES = [np.float64, np.float64, np.float32]


def _close(actual, expected, dtype):
    tol = 1e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(actual, expected, rtol=tol, atol=tol)


def one_iteration(rng, i):
    """Elementwise chain, bounded selection, masked count, autograd: each against NumPy."""
    shape, dtype = SHAPES[i % len(SHAPES)], DTYPES[i % len(DTYPES)]
    a = rng.standard_normal(shape).astype(dtype)
    b = rng.standard_normal(shape).astype(dtype)
    x, y = lnp.asarray(a), lnp.asarray(b)
    t = float(rng.uniform(-0.5, 0.5))

    chain = lnp.exp(x * 0.5) - y * y + 1.5
    _close(np.asarray(chain), np.exp(a * 0.5) - b * b + 1.5, dtype)
    _close(float(((x - y) ** 2).sum()), ((a - b) ** 2).sum(), dtype)
    _close(float(x[x > t].sum()), a[a > t].sum(), dtype)
    assert int((x > t).sum()) == int((a > t).sum())

    w = lnp.asarray(np.asarray(0.25, dtype))
    grad = lnp.grad(lambda w: ((x * w - y) ** 2).sum())(w)
    _close(float(grad), (2 * a * (a * dtype(0.25) - b)).sum(), dtype)


def workload(k, iterations):
    rng = np.random.default_rng(1000 + k)
    for i in range(iterations):
        one_iteration(rng, i + k)


# --- the tests ----------------------------------------------------------------------------------

def test_threads_on_their_own_arrays_match_numpy(backend, fine_switching):
    # The reported bug: a thread's sync could compute another thread's pending arrays
    # (they shared an interned literal), and that thread's own sync then failed with a
    # KeyError in the signature (its target was no longer pending).
    run_threads(lambda k: workload(k, 150), backend)


def test_threads_compile_and_sync_as_one_thread_would(backend, fine_switching):
    # Each thread's syncs see only its own graph: the programs compiled and the syncs
    # counted are exactly those of the same workloads run one after another, and the
    # counters lose no update.
    iterations = 24
    compile_cache.clear_memory()
    with lnp.config(backend=backend):
        for k in range(THREADS):
            workload(k, iterations)
    alone = lnp.metrics()
    compile_cache.clear_memory()
    lnp.reset_metrics()
    run_threads(lambda k: workload(k, iterations), backend)
    together = lnp.metrics()
    assert together["compiles"] == alone["compiles"]
    assert together["syncs"] == alone["syncs"]
    assert together["cache_hits"] == alone["cache_hits"]
    assert together["auto_flushes"] == 0


def test_arrays_shared_between_threads_may_be_read_from_all(backend, fine_switching):
    # Every round one thread makes pending arrays; all threads then sync them (the same
    # pending nodes, at once) and compute on them.
    rounds = 60
    rng = np.random.default_rng(7)
    data = [rng.standard_normal(50 + r % 3) for r in range(rounds)]
    shared = {}

    def make_shared():
        a = data[shared.get("round", -1) + 1]
        x = lnp.asarray(a) * 3.0 + 1.0
        shared.update(round=shared.get("round", -1) + 1, a=a, x=x, picked=x[x > 2.0])
    make_shared()
    barrier = threading.Barrier(THREADS, action=make_shared, timeout=JOIN_SECONDS)

    def work(k):
        try:
            for _ in range(rounds - 1):
                a, x, picked = shared["a"], shared["x"], shared["picked"]
                expected = a * 3.0 + 1.0
                np.testing.assert_allclose(float((x * (k + 1)).sum()), (expected * (k + 1)).sum())
                np.testing.assert_allclose(np.asarray(x), expected)
                np.testing.assert_allclose(float(picked.sum()), expected[expected > 2.0].sum())
                barrier.wait()
        except BaseException:
            barrier.abort()         # the other threads stop waiting for this one
            raise
    run_threads(work, backend)


def test_config_blocks_are_per_thread(backend):
    # One thread inside config(dynamic_shapes=False, flush_nodes=4) must not change how
    # another thread traces: that one keeps symbolic sizes (one program for sizes 5 and
    # 7) and never flushes automatically.
    compile_cache.clear_memory()
    entered, other_done = threading.Event(), threading.Event()
    results = {}

    def static_thread():
        with lnp.config(dynamic_shapes=False, flush_nodes=4):
            entered.set()
            assert other_done.wait(JOIN_SECONDS)
            results["static_flushes"] = lnp.metrics()["auto_flushes"]
            x = lnp.asarray(np.arange(6.0))
            for _ in range(6):
                x = x + 1.0
            results["static_value"] = np.asarray(x)

    def default_thread():
        assert entered.wait(JOIN_SECONDS)
        try:
            for n in (5, 7):
                x = lnp.asarray(np.arange(float(n)))
                for _ in range(12):          # 12 nodes: more than the other thread's limit
                    x = x * 1.5
                results[n] = float(x.sum())
            results["compiles"] = lnp.metrics()["compiles"]
        finally:
            other_done.set()

    def work(k):
        (static_thread if k == 0 else default_thread)()
    run_threads(work, backend, n=2)
    assert results["compiles"] == 1              # one program for both sizes: symbolic
    assert results["static_flushes"] == 0         # the default thread never flushed
    assert lnp.metrics()["auto_flushes"] >= 1     # the static thread's own limit applies to it
    for n in (5, 7):
        np.testing.assert_allclose(results[n], (np.arange(float(n)) * 1.5 ** 12).sum())
    np.testing.assert_array_equal(results["static_value"], np.arange(6.0) + 6.0)


def test_worker_pool_runs_concurrent_launches_to_completion(backend):
    # Kernel launches of several threads at once share the worker pool: each launch
    # returns only after its own slices are done (not another launch's).
    slices = 3
    rounds = 200

    def piece(done, t):
        if t == slices - 1:
            time.sleep(0.0005)      # the last slice finishes late
        done.append(t)

    def work(k):
        for _ in range(rounds):
            done = []
            workers.run_all([(piece, (done, t)) for t in range(slices)])
            assert sorted(done) == list(range(slices))
    run_threads(work, backend)
