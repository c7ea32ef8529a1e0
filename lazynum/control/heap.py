"""The C heap's policy for array buffers (glibc): keep freed memory for the next array.

NumPy allocates every array with ``malloc``.  glibc serves blocks above its mmap threshold
(128 KiB at first, raised as mmap'd blocks are freed) with fresh pages from the kernel, and
returns free memory at the heap's top to the kernel once more than twice that sits there.
A program that allocates and frees arrays of a few hundred KiB in a loop (each interpreted
op makes one) can then page-fault on every allocation, and whether a run does depends on
what else happens to sit at the heap's top: Gaussian elimination at 300x300 took ~5,000
minor faults (~10 ms) per run, an n-body step at 200 bodies ~27,000.  The ``keep`` policy
fixes both thresholds, so blocks under ``MMAP_THRESHOLD`` come from the heap and up to
``TRIM_THRESHOLD`` of freed memory stays in the process for reuse (the cost: that much
memory is not returned to the system).  It is process-wide and applied once, at import;
``LAZYNUM_HEAP=system`` leaves the C library's defaults alone.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import platform

MMAP_THRESHOLD = 4 << 20          # bytes: larger blocks are still mmap'd (and unmapped on free)
TRIM_THRESHOLD = 64 << 20         # bytes of free heap kept before any is returned
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3       # glibc's mallopt parameter numbers

applied = {"policy": None}        # what ``apply`` did: "keep", or None (defaults untouched)


def apply(policy: str) -> bool:
    """Set the heap's thresholds for ``policy`` ("keep" or "system"); True when changed.

    Only glibc has these knobs; elsewhere, and when the C library cannot be loaded, the
    policy is a no-op (never an error: it is a speed setting)."""
    if policy != "keep" or applied["policy"] == "keep" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    # The trim threshold first: setting either one ends glibc's dynamic adjustment of both.
    if mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) != 1 or mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) != 1:
        return False
    applied["policy"] = "keep"
    return True
