"""What the CUDA renderer compiles: the scheduler's capability object for plans it renders.

Scalar ops: ``scalar_code.supports`` (every case the llvm backend compiles, so one plan
serves both).  The ops left to NumPy on purpose are the llvm backend's, for the same
reasons: integer ``power`` (NumPy raises for a negative exponent, a kernel cannot) and
integer ``reciprocal``.  No routines yet: stream compaction (``compact``) runs as NumPy's
reference inside the program until the device compaction of issue 17 item 3 exists.
"""
from __future__ import annotations

import numpy as np

from ...compile.capability_probe import ProbingSupports
from . import scalar_code

EXTERN_SCALAR_OPS = {
    "power": ("iu", "integer power: NumPy raises ValueError for a negative exponent, which a "
                    "kernel cannot"),
    "reciprocal": ("iu", "integer reciprocal: NumPy's loop (1 / x truncated, the minimum "
                         "value with a warning for 0) is not written for kernels"),
}


def extern_reason(op: str, arg_dtypes, out) -> str:
    """Why ``op`` on these dtypes is an extern NumPy call in a CUDA plan."""
    kinds, reason = EXTERN_SCALAR_OPS.get(op, ("", ""))
    if reason and {np.dtype(d).kind for d in arg_dtypes} <= set(kinds):
        return reason
    dtypes = ", ".join(str(d) for d in arg_dtypes)
    return f"no CUDA code for scalar op {op!r} on ({dtypes}) -> {np.dtype(out)}"


SUPPORTS = ProbingSupports(scalar_code.supports, extern_reason)
