"""What the LLVM backend can compile: asked by the scheduler (everything else is extern).

A node is supported when every kernel-IR scalar op its declared lowering emits has code
for those dtypes in ``scalar_ops``; the check runs the lowering once on a probe builder
and is cached per (op, attrs, dtypes).
"""
from __future__ import annotations

import numpy as np

from ...expr.registry import KERNEL
from . import scalar_ops


class _Probe:
    """A stand-in ``KernelBuilder`` that records the scalar ops a lowering emits."""

    def __init__(self, arg_dtypes):
        self.dtypes = {f"a{i}": np.dtype(d) for i, d in enumerate(arg_dtypes)}
        self.ok = True

    def op(self, name, args, dtype):
        dtype = np.dtype(dtype)
        arg_dtypes = [self.dtypes[a] for a in args]
        if name == "select":
            arg_dtypes = arg_dtypes[1:]
        if not scalar_ops.supports(name, arg_dtypes, dtype):
            self.ok = False
        return self._new(dtype)

    def const(self, value, dtype):
        return self._new(np.dtype(dtype))

    def loop_index(self, axis):
        return self._new(np.dtype(np.int64))

    def _new(self, dtype):
        name = f"p{len(self.dtypes)}"
        self.dtypes[name] = dtype
        return name


class Supports:
    """The scheduler's capability object for this backend."""

    def __init__(self):
        self._cache: dict = {}

    def node(self, node) -> bool:
        key = (node.op.name, node.dtype, tuple(a.dtype for a in node.args))
        if node.op.name in ("divmod", "iota"):
            key += (repr(node.attrs),)
        hit = self._cache.get(key)
        if hit is None:
            probe = _Probe([a.dtype for a in node.args])
            try:
                node.op.lowerings[KERNEL](probe, node, [f"a{i}" for i in range(len(node.args))])
                hit = probe.ok
            except (NotImplementedError, KeyError, AttributeError, TypeError):
                hit = False
            self._cache[key] = hit
        return hit

    def reduction(self, combine: str, dtype) -> bool:
        return np.dtype(dtype).kind in "biuf"


SUPPORTS = Supports()
