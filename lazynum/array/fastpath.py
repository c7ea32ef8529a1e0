"""The tracing hot path: record an elementwise op with no promotion or broadcast work.

Operators (``a + b``) and ufunc calls (``lazynum.sin(a)``) come here first.  When every
operand already has the dtype of NumPy's loop (a lazynum array of the same shape, a 0-d
one, or a Python scalar that fits) the node is recorded directly; anything else returns
None and takes the general path in ``lazynum.ufuncs.call``, which owns NumPy's semantics.
"""
from __future__ import annotations

import numpy as np

from .arraytype import ndarray, result_order, scalar_result, wrap, wrap_ordered, wrap_scalar
from ..expr import node as nodes
from ..expr.elementwise import loop_signature
from ..runtime.immediate import now as immediate_now

apply_checked = nodes.apply_checked
_scalar = nodes.scalar
_INT_BOUNDS = {np.dtype(t): (np.iinfo(t).min, np.iinfo(t).max)
               for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)}
_FLOAT_EXACT_INT = 2 ** 53


class LoopCache(dict):
    """Operand types -> output dtype when ``ufunc``'s NumPy loop needs no casts (else None).

    Types are dtypes, or ``float``/``int`` for weak Python scalars; one table per ufunc.
    """

    def __init__(self, ufunc):
        super().__init__()
        self.ufunc = ufunc

    def __missing__(self, key):
        try:
            signature = loop_signature(self.ufunc, key)
        except TypeError:
            self[key] = None
            return None
        nin = len(key)
        want = tuple(k if isinstance(k, np.dtype) else signature[i] for i, k in enumerate(key))
        ok = signature[:nin] == want and len(set(signature[:nin])) == 1
        self[key] = out = signature[nin] if ok else None
        return out


def _scalar_operand(no_cast, dtype, value):
    """(scalar leaf, output dtype) for a weak Python scalar needing no cast, else None."""
    kind = type(value)
    if kind is float:
        out = no_cast[dtype, float]
        return None if out is None else (_scalar(value, dtype), out)
    if kind is int:
        bounds = _INT_BOUNDS.get(dtype)
        fits = (bounds[0] <= value <= bounds[1]) if bounds is not None else (
            dtype.kind == "f" and -_FLOAT_EXACT_INT <= value <= _FLOAT_EXACT_INT)
        if fits:
            out = no_cast[dtype, int]
            return None if out is None else (_scalar(value, dtype), out)
    return None


def binary(op, no_cast, a, b, reflected=False):
    """``op(a, b)`` (``op(b, a)`` if ``reflected``) for lazynum ``a``, or None."""
    node = a._node if a._view is None else a._n()
    kind = type(b)
    if kind is ndarray or kind is scalar_result:
        other = b._node if b._view is None else b._n()
        if other.shape != node.shape and other.shape:
            return None
        out = no_cast[node.dtype, other.dtype]
        if out is None:
            return None
        args = (other, node) if reflected else (node, other)
        result = None
        if node.buffer is not None and other.buffer is not None:
            result = immediate_now(op, args, node.shape, out)
        if result is None:
            result = apply_checked(op, args, node.shape, out)
        if not node.shape:
            return wrap_scalar(result)      # NumPy's 0-d result is a scalar
        if a._view is None and b._view is None:
            return wrap(result)
        return wrap_ordered(result, result_order((a, b), node.shape))
    fast = _scalar_operand(no_cast, node.dtype, b)
    if fast is None:
        return None
    args = (fast[0], node) if reflected else (node, fast[0])
    result = immediate_now(op, args, node.shape, fast[1]) if node.buffer is not None else None
    if result is None:
        result = apply_checked(op, args, node.shape, fast[1])
    if not node.shape:
        return wrap_scalar(result)
    if a._view is None:
        return wrap(result)
    return wrap_ordered(result, result_order((a,), node.shape))


def unary(op, no_cast, a):
    """``op(a)`` for lazynum ``a`` whose dtype is the loop's, or None."""
    node = a._node if a._view is None else a._n()
    out = no_cast[(node.dtype,)]
    if out is None:
        return None
    result = immediate_now(op, (node,), node.shape, out) if node.buffer is not None else None
    if result is None:
        result = apply_checked(op, (node,), node.shape, out)
    if not node.shape:
        return wrap_scalar(result)
    if a._view is None:
        return wrap(result)
    return wrap_ordered(result, result_order((a,), node.shape))
