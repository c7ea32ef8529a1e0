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
from ...compile.capability_probe import ScalarProbe
from ...expr.combines import lookup as lookup_combine
from ...expr.registry import KERNEL
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


class Supports:
    """The scheduler's capability object for this backend."""

    @property
    def renders_wide_dtypes(self) -> frozenset:
        """The complex/float16 dtypes whose kernel code (``compile.wide_dtypes``) this
        backend renders: complex ones always (buffers by part); float16 where the CPU
        converts half in hardware (F16C: else LLVM calls ``__extendhfsf2``, which the JIT
        lacks)."""
        return wide_dtypes.COMPLEX | (frozenset({wide_dtypes.FLOAT16}) if jit.host_has("f16c")
                                      else frozenset())

    def __init__(self):
        self._cache: dict = {}      # key -> None (compiled) or why it is extern

    def node(self, node) -> bool:
        return self.why_not(node) is None

    def why_not(self, node) -> str | None:
        """Why ``node`` (elementwise or creation) runs as an extern NumPy call; None when
        this backend compiles it."""
        key = (node.op.name, node.dtype, tuple(a.dtype for a in node.args))
        if node.op.name in ("divmod", "iota"):
            key += (repr(node.attrs),)
        if key not in self._cache:
            probe = ScalarProbe([a.dtype for a in node.args], scalar_ops.supports, extern_reason)
            try:
                node.op.lowerings[KERNEL](probe, node, probe.args)
                why = probe.missing
            except (NotImplementedError, KeyError, AttributeError, TypeError) as exc:
                why = f"its lowering has no kernel code here ({type(exc).__name__}: {exc})"
            self._cache[key] = why
        return self._cache[key]

    def reduction(self, combine: str, dtype) -> bool:
        """Whether combine ``combine`` (an ``expr.combines`` name, else ``KeyError``) compiles
        on ``dtype`` (arg-reductions: their int64 result's dtype)."""
        c = lookup_combine(combine)
        dt = np.dtype(dtype)
        if dt.kind not in "biuf":
            return False
        return scalar_ops.supports(c.scalar_op, [dt, dt], np.dtype(bool) if c.arg else dt)

    def routine(self, name: str, dtype) -> bool:
        """Whether this backend has its own routine ``name`` for results of ``dtype`` (else the
        node's NumPy reference runs): stream compaction for the item sizes it compiles."""
        return name == "compact" and compaction.supports(dtype)


SUPPORTS = Supports()
