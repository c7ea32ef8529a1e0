"""The CPU's sticky IEEE exception flags, read around compiled kernels.

A kernel raises the flags its instructions raise (libmvec's functions raise them too:
``exp`` of 1000 sets overflow, ``log`` of 0 divide-by-zero), and they stay set until
cleared, so one read after a run covers every kernel the calling thread ran; a slice on a
worker thread is read on that thread (``Flagged``).  The flags are per thread and NumPy
clears them before its own ufunc loops, so they are read before each extern call.

``take()`` returns NumPy's status bits (divide 1, over 2, under 4, invalid 8) and clears
the flags; ``SUPPORTED`` is False on a CPU whose ``<fenv.h>`` values are not known here
(then kernels report nothing and only NumPy's own calls warn).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import platform

# <fenv.h>'s FE_* values per architecture, as NumPy's bits: divide, over, under, invalid.
_FE = {
    "x86_64": ((0x04, 1), (0x08, 2), (0x10, 4), (0x01, 8)),
    "AMD64": ((0x04, 1), (0x08, 2), (0x10, 4), (0x01, 8)),
    "aarch64": ((0x02, 1), (0x04, 2), (0x08, 4), (0x01, 8)),
    "arm64": ((0x02, 1), (0x04, 2), (0x08, 4), (0x01, 8)),
}.get(platform.machine())


def _libm():
    try:
        return ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    except OSError:
        return None


_lib = _libm() if _FE else None
SUPPORTED = _lib is not None and hasattr(_lib, "fetestexcept")
_MASK = sum(fe for fe, _ in _FE) if _FE else 0
# NumPy's bits for every combination of flags (the lookup is cheaper than a loop).
_TO_NUMPY = {v: sum(bit for fe, bit in (_FE or ()) if v & fe) for v in range(_MASK + 1)}
if SUPPORTED:
    _test, _clear = _lib.fetestexcept, _lib.feclearexcept
    _test.argtypes = _clear.argtypes = (ctypes.c_int,)


def clear() -> None:
    _clear(_MASK)


def take() -> int:
    """NumPy's status bits for the flags raised on this thread since the last clear."""
    raised = _test(_MASK)
    if raised:
        _clear(_MASK)
        return _TO_NUMPY[raised]
    return 0


class Flagged:
    """A kernel function whose calls note the flags they raise (for worker threads):
    each call starts clean and appends what it raised to ``found``."""
    __slots__ = ("fn", "found")

    def __init__(self, fn, found: list):
        self.fn, self.found = fn, found

    def __call__(self, *args):
        _clear(_MASK)
        self.fn(*args)
        self.found.append(take())
