"""Reusable memory for kernel outputs and intermediates, across syncs and replays.

A fresh large buffer costs more than the kernel that fills it (first-touch page faults),
so every array a program allocates is a typed view of a raw byte buffer owned here.
After a program drops its own reference, a raw buffer is reusable exactly when nothing
else refers to it: NumPy views (the user's results, views of them, extern results that
alias an input) all keep a reference to the base, so a reference count equal to the
pool's own proves it free.  Large raw buffers are allocated by NumPy, which already asks
for transparent huge pages (``madvise``) on big allocations.

Threads: the free test and the hand-out happen under ``_lock``, and a buffer handed out is
referenced by its taker from then on, so another thread's test never finds it free.
"""
from __future__ import annotations

import sys
import threading

import numpy as np

MAX_TRACKED = 256           # raw buffers watched for reuse (oldest dropped beyond this)
MIN_POOLED_BYTES = 1 << 16  # small buffers are cheap: NumPy's own allocator caches them
_lock = threading.Lock()
_tracked: list = []          # raw uint8 arrays, possibly still referenced elsewhere
stats = {"reused": 0, "allocated": 0}


def empty(shape, dtype) -> np.ndarray:
    """An uninitialized C-contiguous array, reusing a free pooled buffer of the same size."""
    dtype = np.dtype(dtype)
    count = 1
    for d in shape:
        count *= d
    nbytes = count * dtype.itemsize
    if nbytes < MIN_POOLED_BYTES:
        return np.empty(shape, dtype)
    raw = _take(nbytes)
    if raw is None:
        raw = np.empty(nbytes, np.uint8)
        with _lock:
            stats["allocated"] += 1
            _tracked.append(raw)
            if len(_tracked) > MAX_TRACKED:
                del _tracked[0]
    return raw.view(dtype).reshape(shape)


def _take(nbytes):
    # getrefcount sees: the _tracked list, the local variable, and its own argument.
    # (No enumerate(): its cached result tuple would hold one more reference.)
    with _lock:
        for i in range(len(_tracked)):
            raw = _tracked[i]
            if raw.nbytes == nbytes and sys.getrefcount(raw) <= 3:
                del _tracked[i]             # (list.remove would compare arrays by value)
                _tracked.append(raw)        # most recently used last
                stats["reused"] += 1
                return raw
    return None


def clear() -> None:
    """Forget every pooled buffer (memory returns to the system as users drop theirs)."""
    with _lock:
        _tracked.clear()
