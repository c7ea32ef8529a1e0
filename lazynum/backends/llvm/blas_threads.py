"""Single-threaded BLAS calls while a program runs its own threads over BLAS blocks.

NumPy's bundled OpenBLAS exports ``openblas_set_num_threads_local``; in its pthreads build
the setting is the process's, not the calling thread's (measured: another thread sees
it).  ``single()`` sets it to 1 for the duration of a block-parallel group
(``row_blocked``), so no small BLAS call wakes and waits for BLAS's own threads; nested or
concurrent users share one saved value (the last to leave restores it).  Other threads'
BLAS calls meanwhile run single-threaded too.  Where no such library is loaded (another
BLAS, another OS) ``set_local`` is None and callers keep to one thread of their own.
"""
from __future__ import annotations

import contextlib
import ctypes
import threading

import numpy  # noqa: F401  (loads NumPy's BLAS before the search below)


def _find_set_local():
    try:
        with open("/proc/self/maps") as maps:
            paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower()})
    except OSError:
        return None
    for path in paths:
        try:
            fn = ctypes.CDLL(path).openblas_set_num_threads_local
        except (OSError, AttributeError):
            continue
        fn.argtypes, fn.restype = (ctypes.c_int,), ctypes.c_int
        return fn
    return None


set_local = _find_set_local()
_lock = threading.Lock()
_users = [0, 0]             # groups inside single(), the thread count to restore


@contextlib.contextmanager
def single():
    """Inside the block, BLAS calls run on their calling thread alone."""
    with _lock:
        if _users[0] == 0:
            _users[1] = set_local(1)
        _users[0] += 1
    try:
        yield
    finally:
        with _lock:
            _users[0] -= 1
            if _users[0] == 0:
                set_local(_users[1])
