"""The primitive of bounded dims: ``compact``, the stream compaction behind masks.

``compact(values, keep)`` moves the rows of ``values`` (shape ``(n, ...)``) where ``keep``
(bool, shape ``(n,)``) is true to the front, in order, and fills the rest with zeros: the
padded storage of a bounded dim of bound ``n``.  Its run-time size is a separate node,
``sum(keep)``.  A scan (prefix sum of ``keep``) and a scatter are the kernel form; the
NumPy reference is the definition.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..expr.registry import register


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
    reference=_compact_reference,
    doc="Rows of values (arg 0) where keep (arg 1) is true, moved to the front in order; "
        "the rest zero (the padded storage of a bounded dim).")
