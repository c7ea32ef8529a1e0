"""A persistent pool of kernel worker threads.

A kernel launch splits its first outer loop into one contiguous slice per thread; the
calling thread runs the first slice itself, so a launch on N threads wakes N-1 workers.
ctypes releases the GIL for the duration of each foreign call, so slices run in parallel.
Extern calls (NumPy/BLAS) run on the calling thread between launches while every worker
sleeps: BLAS's own threads never compete with ours.
"""
from __future__ import annotations

import queue
import threading

from ... import settings

# Below this many inner iterations a launch runs on the calling thread: waking workers
# costs tens of microseconds.
MIN_PARALLEL_WORK = 1 << 16


class _Pool:
    def __init__(self, n: int):
        self.size = n
        self.inboxes = [queue.SimpleQueue() for _ in range(n)]
        self.done = queue.SimpleQueue()
        for inbox in self.inboxes:
            threading.Thread(target=self._work, args=(inbox,), daemon=True,
                             name="lazynum-kernel-worker").start()

    def _work(self, inbox):
        while True:
            fn, args = inbox.get()
            try:
                fn(*args)
                self.done.put(None)
            except BaseException as exc:  # noqa: BLE001 - handed to the launching thread
                self.done.put(exc)


_pool = [None]
_pool_lock = threading.Lock()


def _workers(n: int) -> _Pool:
    with _pool_lock:
        pool = _pool[0]
        if pool is None or pool.size < n:
            pool = _pool[0] = _Pool(n)
        return pool


def launch(fn, buffers, sizes, strides, extent: int, work: int) -> None:
    """Run ``fn(buffers, sizes, strides, start, stop)`` over ``[0, extent)``, split
    across ``LAZYNUM_THREADS`` threads when the work is large enough."""
    threads = min(settings.effective_threads(), extent)
    if threads <= 1 or work < MIN_PARALLEL_WORK:
        fn(buffers, sizes, strides, 0, extent)
        return
    bounds = [extent * t // threads for t in range(threads + 1)]
    run_all([(fn, (buffers, sizes, strides, bounds[t], bounds[t + 1])) for t in range(threads)])


def run_all(calls) -> None:
    """Run every ``(fn, args)`` at once: the first on this thread, the rest on workers;
    the first error raised by any of them is raised here, after all have finished."""
    pool = _workers(len(calls) - 1) if len(calls) > 1 else None
    for t, call in enumerate(calls[1:]):
        pool.inboxes[t].put(call)
    error = None
    try:
        fn, args = calls[0]
        fn(*args)
    finally:
        for _ in calls[1:]:
            result = pool.done.get()
            error = error or result
    if error is not None:
        raise error
