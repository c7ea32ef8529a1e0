"""A persistent pool of kernel worker threads.

A kernel launch splits its first outer loop into one contiguous slice per thread; the
calling thread runs the first slice itself, so a launch on N threads wakes N-1 workers.
ctypes releases the GIL for the duration of each foreign call, so slices run in parallel.
Extern calls (NumPy/BLAS) run on the calling thread between launches while every worker
sleeps: BLAS's own threads never compete with ours.

Launches from several threads at once are safe: each launch hands its slices to the
workers with its own completion queue, so it returns exactly when its own slices are done
(a worker runs the slices it is given one after another, whoever launched them).  The
pool only grows (under ``_pool_lock``); a launch reads its inboxes by index, which a
concurrent growth never moves.
"""
from __future__ import annotations

import queue
import threading

from ...control import settings

# Below this many inner iterations a launch runs on the calling thread: handing a slice to a
# worker and waiting for it costs about 100 us here (measured: 10^5-element kernels ran
# 1.4-2x slower on two threads, transcendental ones included; a 100-step stencil over 10^5
# elements took 21 ms on two threads, 12 ms on one).
MIN_PARALLEL_WORK = 1 << 18


class _Pool:
    def __init__(self):
        self.inboxes = []

    def grow(self, n: int) -> None:
        """At least ``n`` workers (call under ``_pool_lock``)."""
        while len(self.inboxes) < n:
            inbox = queue.SimpleQueue()
            threading.Thread(target=_work, args=(inbox,), daemon=True,
                             name="lazynum-kernel-worker").start()
            self.inboxes.append(inbox)


def _work(inbox):
    while True:
        fn, args, done = inbox.get()
        try:
            fn(*args)
            done.put(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the launching thread
            done.put(exc)


_pool = _Pool()
_pool_lock = threading.Lock()


def _workers(n: int) -> list:
    """The inboxes of at least ``n`` workers."""
    inboxes = _pool.inboxes
    if len(inboxes) < n:
        with _pool_lock:
            _pool.grow(n)
    return inboxes


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
    inboxes = _workers(len(calls) - 1) if len(calls) > 1 else None
    done = queue.SimpleQueue()          # this launch's own: see the module docstring
    for t, (fn, args) in enumerate(calls[1:]):
        inboxes[t].put((fn, args, done))
    error = None
    try:
        fn, args = calls[0]
        fn(*args)
    finally:
        for _ in calls[1:]:
            result = done.get()
            error = error or result
    if error is not None:
        raise error
