"""The primitive of bounded dims: ``compact``, the stream compaction behind masks.

``compact(values, keep)`` moves the rows of ``values`` (shape ``(n, ...)``) where ``keep``
(bool, shape ``(n,)``) is true to the front, in order, and fills the rest with zeros: the
padded storage of a bounded dim of bound ``n``.  Its run-time size is a separate node,
``sum(keep)``.  A scan (prefix sum of ``keep``) and a scatter are the kernel form; the
NumPy reference is the definition.
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from .registry import Routine, declare_lowering, register


def _compact_shape(args, attrs):
    values, keep = args
    if keep.dtype != dtypes.BOOL or len(keep.shape) != 1:
        raise TypeError("compact: keep must be a 1-d bool array")
    if not values.shape or values.shape[0] != keep.shape[0]:
        raise ValueError(f"compact: {values.shape} rows do not match keep's {keep.shape}")
    return values.shape


def _compact_reference(arrays, attrs):
    values, keep = arrays
    out = np.zeros_like(values)
    kept = values[keep]
    out[:len(kept)] = kept
    return out


COMPACT = register(
    "compact", "index", shape=_compact_shape, dtype=lambda args, attrs: args[0].dtype,
    reference=_compact_reference, immediate=False,     # a bounded dim's data stays a graph
    doc="Rows of values (arg 0) where keep (arg 1) is true, moved to the front in order; "
        "the rest zero (the padded storage of a bounded dim).")
# Not a fused loop (the kernel IR has no scan): a routine each compiled backend provides
# (llvm: backends/llvm/compaction.py, a chunked two-pass scan); its reference elsewhere.
declare_lowering(COMPACT, Routine("compact"))


# --- reverse mode (lazynum.autograd) -----------------------------------------------------------
from . import derivatives as _d  # noqa: E402


def _compact_vjp(node, g):
    """Each kept row receives the cotangent of the slot it moved to (its running count
    minus one); dropped rows receive an exact zero.  The mask gets no gradient."""
    values, keep = node.args
    running = _d.apply("cumsum", (_d.cast(keep, _d.INT64),), (0,))
    slot = _d.call("maximum", _d.sub(running, _d.const(1, running)), _d.const(0, running))
    rows = _d.apply("take", (g, slot), (0,))
    kept = _d.broadcast_to(_d.reshape(keep, keep.shape + (1,) * (len(values.shape) - 1)),
                           values.shape)
    return (_d.masked(kept, rows), None)


COMPACT.vjp = _compact_vjp
