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


def _owned_and_unshared(node, step, arrays, last, values, outputs_ids) -> bool:
    """May ``node`` update its first argument's buffer in place?  Only when this run made
    that buffer, owns its memory, this is its last use, and no other live value (a view
    made from it earlier) can read it afterwards."""
    first = node.args[0]
    buffer = arrays[0]
    if (first.buffer is not None or first.id in outputs_ids or last.get(first.id) != step
            or buffer.base is not None or not buffer.flags.writeable or not buffer.flags.c_contiguous
            or any(arg.id == first.id for arg in node.args[1:])):
        return False
    return not any(other is not buffer and np.may_share_memory(other, buffer)
                   for other in values.values())


def run(order, outputs):
    """Evaluate ``order`` (pending nodes, dependency order); return the outputs' values."""
    values = {}
    last = _last_uses(order, outputs)
    outputs_ids = {node.id for node in outputs}
    with np.errstate(all="ignore"):
        for step, node in enumerate(order):
            arrays = [arg.buffer if arg.buffer is not None else values[arg.id] for arg in node.args]
            reference = node.op.reference
            if node.op.reference_inplace is not None and _owned_and_unshared(
                    node, step, arrays, last, values, outputs_ids):
                reference = node.op.reference_inplace
            try:
                out = reference(arrays, node.attrs)
            except (IndexError, ValueError) as exc:
                if node.op.may_fail:
                    exc.add_note(f"raised by lazynum op {node.op.name!r} traced at {node.site}")
                raise
            if type(out) is not np.ndarray:
                out = np.asarray(out)        # NumPy returns scalars for 0-d results
            if out.dtype != node.dtype or out.shape != node.shape:
                raise InternalError(f"op {node.op.name} produced {out.dtype}{out.shape}, "
                                    f"its rules said {node.dtype}{node.shape}")
            values[node.id] = out
            for arg in node.args:
                if last.get(arg.id) == step:
                    values.pop(arg.id, None)
    metrics.counters["kernels_launched"] += len(order)
    return [node.buffer if node.buffer is not None else values[node.id] for node in outputs]
