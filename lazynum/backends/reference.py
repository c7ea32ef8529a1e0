"""The reference backend: runs the DAG op by op with NumPy (``LAZYNUM_BACKEND=numpy``).

It is the oracle the compiled backends are tested against and the debugging backend.
Each op's reference implementation lives with the op in ``lazynum.expr``; this module
only walks the order, frees intermediates after their last use and checks that every
result has the shape and dtype its rules promised.
"""
from __future__ import annotations

import numpy as np

from .. import telemetry as metrics


class InternalError(AssertionError):
    """A primitive's reference disagreed with its own shape/dtype rule (a lazynum bug)."""


def _last_uses(order, keep):
    last = {}
    for step, node in enumerate(order):
        for arg in node.args:
            last[arg.id] = step
    for node in keep:
        last[node.id] = len(order)
    return last


def run(order, outputs):
    """Evaluate ``order`` (pending nodes, dependency order); return the outputs' values."""
    values = {}
    last = _last_uses(order, outputs)
    with np.errstate(all="ignore"):
        for step, node in enumerate(order):
            arrays = [arg.buffer if arg.buffer is not None else values[arg.id] for arg in node.args]
            try:
                out = node.op.reference(arrays, node.attrs)
            except (IndexError, ValueError) as exc:
                if node.op.may_fail:
                    exc.add_note(f"raised by lazynum op {node.op.name!r} traced at {node.site}")
                raise
            out = np.asarray(out)
            if out.dtype != node.dtype or out.shape != node.shape:
                raise InternalError(f"op {node.op.name} produced {out.dtype}{out.shape}, "
                                    f"its rules said {node.dtype}{node.shape}")
            values[node.id] = out
            metrics.counters["kernels_launched"] += 1
            for arg in node.args:
                if last.get(arg.id) == step and arg.id in values:
                    del values[arg.id]
    return [node.buffer if node.buffer is not None else values[node.id] for node in outputs]
