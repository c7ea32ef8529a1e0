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

import collections
import sys
import threading

import numpy as np

MAX_TRACKED = 256           # raw buffers watched for reuse (oldest dropped beyond this)
MIN_POOLED_BYTES = 1 << 16  # small buffers are cheap: NumPy's own allocator caches them
_lock = threading.Lock()
# Raw uint8 arrays, possibly still referenced elsewhere: all of them, oldest first, and by
# size (a request scans only buffers of its size: a loop whose sizes shrink every step,
# Gauss elimination's, must not scan the whole pool at every allocation).
_tracked: collections.OrderedDict = collections.OrderedDict()     # id -> raw
_by_size: dict = {}                                               # nbytes -> {id: raw}
_asked: collections.OrderedDict = collections.OrderedDict()       # recent sizes asked for
stats = {"reused": 0, "allocated": 0}


def pooled(shape, dtype) -> bool:
    """Whether ``empty`` takes arrays of this size from the pool (smaller ones come from
    NumPy's allocator, which caches them)."""
    count = 1
    for d in shape:
        count *= d
    return count * np.dtype(dtype).itemsize >= MIN_POOLED_BYTES


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
        if not _asked_before(nbytes):
            # A size seen for the first time in a while (a loop whose sizes shrink every
            # step) takes fresh memory from malloc, which reuses its freed blocks; a
            # tracked buffer would be kept from that reuse and never serve another request.
            return np.empty(shape, dtype)
        raw = np.empty(nbytes, np.uint8)
        with _lock:
            stats["allocated"] += 1
            _tracked[id(raw)] = raw
            _by_size.setdefault(nbytes, {})[id(raw)] = raw
            if len(_tracked) > MAX_TRACKED:
                _, oldest = _tracked.popitem(last=False)
                same = _by_size[oldest.nbytes]
                del same[id(oldest)]
                if not same:
                    del _by_size[oldest.nbytes]
    return raw.view(dtype).reshape(shape)


def _asked_before(nbytes) -> bool:
    """Whether ``nbytes`` was asked for among the last ``MAX_TRACKED`` new sizes (and note it)."""
    with _lock:
        seen = nbytes in _asked
        _asked[nbytes] = True
        _asked.move_to_end(nbytes)
        if len(_asked) > MAX_TRACKED:
            _asked.popitem(last=False)
        return seen


def _take(nbytes):
    # getrefcount sees: the two tables, the loop variable, and its own argument.
    with _lock:
        same = _by_size.get(nbytes)
        if not same:
            return None
        for key in same:            # (not .items(): its cached pair holds a reference)
            raw = same[key]
            if sys.getrefcount(raw) <= 4:
                _tracked.move_to_end(key)       # most recently used last
                stats["reused"] += 1
                return raw
    return None


def clear() -> None:
    """Forget every pooled buffer (memory returns to the system as users drop theirs)."""
    with _lock:
        _tracked.clear()
        _by_size.clear()
        _asked.clear()
