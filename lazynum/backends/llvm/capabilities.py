"""What the LLVM backend can compile: asked by the scheduler (everything else is extern).

A node is supported when every kernel-IR scalar op its declared lowering emits has code
for those dtypes in ``scalar_ops``; the check runs the lowering once on a probe builder
and is cached per (op, attrs, dtypes).  When it has none, ``why_not`` says why (the
scheduler logs it under ``LAZYNUM_LOGS=fusion``): the ops this backend leaves to NumPy on
purpose are declared in ``EXTERN_SCALAR_OPS`` with their reason.  A reduction is supported
when its combine (``expr.combines``) folds with a scalar op that has code for its dtype.
"""
from __future__ import annotations

import numpy as np

from ...compile import wide_dtypes
from ...compile.capability_probe import ProbingSupports
from . import compaction, jit, scalar_ops

# Scalar op -> (dtype kinds, why NumPy's loop runs instead of kernel code).  Every NumPy loop
# of a kernel-IR scalar op has code in ``scalar_ops`` or is declared here
# (tests/compile/test_combines.py).
EXTERN_SCALAR_OPS = {
    "power": ("iu", "integer power: NumPy raises ValueError for a negative exponent, which a "
                    "kernel cannot"),
    "reciprocal": ("iu", "integer reciprocal: rare, and NumPy's loop (1 / x truncated, the "
                         "minimum value with a warning for 0) is not written for kernels"),
}


def extern_reason(op: str, arg_dtypes, out) -> str:
    """Why ``op`` on these dtypes is an extern NumPy call here: its declared reason, or (a
    gap ``EXTERN_SCALAR_OPS`` should declare) that there is no code."""
    kinds, reason = EXTERN_SCALAR_OPS.get(op, ("", ""))
    if reason and {np.dtype(d).kind for d in arg_dtypes} <= set(kinds):
        return reason
    dtypes = ", ".join(str(d) for d in arg_dtypes)
    return f"no llvm code for scalar op {op!r} on ({dtypes}) -> {np.dtype(out)}"


class Supports(ProbingSupports):
    """The scheduler's capability object for this backend (``compile.capability_probe``):
    scalar ops with code in ``scalar_ops``, stream compaction as its own routine, and the
    wide dtypes this CPU renders."""

    def __init__(self):
        super().__init__(scalar_ops.supports, extern_reason,
                         lambda name, dtype: name == "compact" and compaction.supports(dtype))

    @property
    def renders_wide_dtypes(self) -> frozenset:
        """The complex/float16 dtypes whose kernel code (``compile.wide_dtypes``) this
        backend renders: complex ones always (buffers by part); float16 where the CPU
        converts half in hardware (F16C: else LLVM calls ``__extendhfsf2``, which the JIT
        lacks)."""
        return wide_dtypes.COMPLEX | (frozenset({wide_dtypes.FLOAT16}) if jit.host_has("f16c")
                                      else frozenset())


SUPPORTS = Supports()
