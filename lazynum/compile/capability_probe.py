"""A backend's capability object, built from the one question a renderer can answer:
does it have code for scalar op ``op`` on these dtypes?

The scheduler asks a backend whether it compiles a node (``node``/``why_not``), a
reduction (``reduction``) and whether it has a routine (``routine``).  For a node, the
answer comes from running the node's declared lowering once on a probe builder that
records the first scalar op the backend has no code for; it is cached per (op, dtypes).
``ProbingSupports(has_code, why_no_code, routine)`` is that object for any backend.
"""
from __future__ import annotations

import numpy as np

from . import wide_dtypes
from .kernel_ir import check_scalar_op
from ..expr.combines import lookup as lookup_combine
from ..expr.registry import KERNEL


# Scalar op -> (dtype kinds, why NumPy's loop runs instead of kernel code): the ops every
# backend leaves to NumPy on purpose (tests/compile/test_combines.py keeps it complete).
EXTERN_SCALAR_OPS = {
    "power": ("iu", "integer power: NumPy raises ValueError for a negative exponent, which a "
                    "kernel cannot"),
    "reciprocal": ("iu", "integer reciprocal: rare, and NumPy's loop (1 / x truncated, the "
                         "minimum value with a warning for 0) is not written for kernels"),
}


def extern_reason_for(backend: str):
    """``why_no_code(op, arg_dtypes, out)`` for ``backend``: the declared reason of an op left
    to NumPy on purpose, else that ``backend`` has no code for it (a gap to declare)."""
    def extern_reason(op: str, arg_dtypes, out) -> str:
        kinds, reason = EXTERN_SCALAR_OPS.get(op, ("", ""))
        if reason and {np.dtype(d).kind for d in arg_dtypes} <= set(kinds):
            return reason
        dtypes = ", ".join(str(d) for d in arg_dtypes)
        return f"no {backend} code for scalar op {op!r} on ({dtypes}) -> {np.dtype(out)}"
    return extern_reason


class ScalarProbe:
    """A stand-in ``KernelBuilder`` that records the first scalar op (with its dtypes) that
    the lowering emits and ``has_code`` refuses (``why_no_code`` says why).  Complex and
    float16 values expand into real statements as in a kernel (``wide_dtypes``)."""

    def __init__(self, arg_dtypes, has_code, why_no_code):
        self.dtypes = {}
        self.args = [self._argument(i, np.dtype(d)) for i, d in enumerate(arg_dtypes)]
        self.has_code, self.why_no_code = has_code, why_no_code
        self.missing = None

    def _argument(self, i, dtype):
        part = wide_dtypes.part_dtype(dtype)
        if part is None:
            self.dtypes[f"a{i}"] = dtype
            return f"a{i}"
        self.dtypes.update({f"a{i}r": part, f"a{i}i": part})
        return (f"a{i}r", f"a{i}i")

    def op(self, name, args, dtype):
        return wide_dtypes.emit(self, name, tuple(args), np.dtype(dtype))

    def scalar(self, name, args, dtype):
        check_scalar_op(name)       # an op the IR lacks is a lowering bug: raise, never extern
        dtype = np.dtype(dtype)
        arg_dtypes = [self.dtypes[a] for a in args]
        if name == "select":
            arg_dtypes = arg_dtypes[1:]
        if self.missing is None and not self.has_code(name, arg_dtypes, dtype):
            self.missing = self.why_no_code(name, arg_dtypes, dtype)
        return self._new(dtype)

    def const(self, value, dtype):
        return wide_dtypes.const(self, value, np.dtype(dtype))

    def scalar_const(self, value, dtype):
        return self._new(np.dtype(dtype))

    def dtype_of(self, name):
        return self.dtypes[name]

    def loop_index(self, axis):
        return self._new(np.dtype(np.int64))

    def region_mask(self, node):
        return self._new(np.dtype(bool))

    def _new(self, dtype):
        name = f"p{len(self.dtypes)}"
        self.dtypes[name] = dtype
        return name


class ProbingSupports:
    """The scheduler's capability object for a backend whose renderer answers
    ``has_code(op, arg_dtypes, out)``; ``why_no_code`` gives the reason logged for an
    extern node, ``routine(name, dtype)`` whether the backend has its own routine."""

    def __init__(self, has_code, why_no_code, routine=None):
        self.has_code, self.why_no_code = has_code, why_no_code
        self._routine = routine
        self._cache: dict = {}      # key -> None (compiled) or why it is extern

    def node(self, node) -> bool:
        return self.why_not(node) is None

    def why_not(self, node) -> str | None:
        """Why ``node`` runs as an extern NumPy call; None when this backend compiles it."""
        key = (node.op.name, node.dtype, tuple(a.dtype for a in node.args))
        if node.op.name in ("divmod", "iota"):
            key += (repr(node.attrs),)
        if key not in self._cache:
            probe = ScalarProbe([a.dtype for a in node.args], self.has_code, self.why_no_code)
            try:
                node.op.lowerings[KERNEL](probe, node, probe.args)
                why = probe.missing
            except (NotImplementedError, KeyError, AttributeError, TypeError) as exc:
                why = f"its lowering has no kernel code here ({type(exc).__name__}: {exc})"
            self._cache[key] = why
        return self._cache[key]

    def reduction(self, combine: str, dtype) -> bool:
        """Whether combine ``combine`` (``expr.combines``; else ``KeyError``) compiles on
        ``dtype`` (arg-reductions: their int64 result's dtype)."""
        c = lookup_combine(combine)
        dt = np.dtype(dtype)
        if dt.kind not in "biuf":
            return False
        return self.has_code(c.scalar_op, [dt, dt], np.dtype(bool) if c.arg else dt)

    def routine(self, name: str, dtype) -> bool:
        """Whether this backend has its own routine ``name`` for results of ``dtype``."""
        return bool(self._routine and self._routine(name, dtype))
