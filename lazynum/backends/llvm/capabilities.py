"""What the LLVM backend can compile: asked by the scheduler (everything else is extern).

A node is supported when every kernel-IR scalar op its declared lowering emits has code
for those dtypes in ``scalar_ops``; the check runs the lowering once on a probe builder
and is cached per (op, attrs, dtypes).  When it has none, ``why_not`` says why (the
scheduler logs it under ``LAZYNUM_LOGS=fusion``): the ops every backend leaves to NumPy
on purpose are declared in ``compile.capability_probe.EXTERN_SCALAR_OPS`` with their
reason.  A reduction is supported when its combine (``expr.combines``) folds with a scalar
op that has code for its dtype.
"""
from __future__ import annotations

from ...compile import wide_dtypes
from ...compile.capability_probe import ProbingSupports, extern_reason_for
from . import compaction, jit, scalar_ops

extern_reason = extern_reason_for("llvm")


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
