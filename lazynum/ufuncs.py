"""NumPy's ufuncs, lazily: ``lazynum.add``, ``lazynum.sin``, ... with ``reduce``/``accumulate``/
``outer``/``at`` where NumPy users reach for them.

The call path is the per-op hot path of tracing: classify operands (weak Python scalars
vs. typed nodes), look up NumPy's loop signature (cached), cast to it, record one node.
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from .arraytype import ndarray, wrap
from .conversion import broadcast_node, cast, is_weak, strong_int_dtype, to_node, weak_scalar
from .expr import node as nodes
from .expr.elementwise import (BINARY_UFUNCS, COMPARISONS, MULTI_OUTPUT_UFUNCS, SELECT, UFUNC_OPS,
                               UNARY_UFUNCS, loop_signature)

_apply = nodes.apply


def _classify(x):
    """(value, type key): nodes keyed by dtype, Python scalars by their (weak) type."""
    if type(x) is ndarray:
        node = x._n()
        return node, node.dtype
    if is_weak(x):
        if isinstance(x, complex):
            raise TypeError("lazynum does not support complex numbers")
        return x, (bool if isinstance(x, bool) else int if isinstance(x, int) else float)
    node = to_node(x)
    return node, node.dtype


def _signature(uf, items, dtype):
    types = tuple(t for _, t in items)
    if dtype is not None:
        dt = dtypes.normalize(dtype)
        return dtypes_check(uf.resolve_dtypes(types + (dt,) * uf.nout))
    signature = loop_signature(uf, types)
    if uf.__name__ in COMPARISONS:
        # NumPy 2 compares against out-of-range Python ints exactly: treat them strongly.
        fixed = [(v, strong_int_dtype(v)) if t is int and not _fits(v, signature[i]) else (v, t)
                 for i, (v, t) in enumerate(items)]
        if fixed != list(items):
            items[:] = fixed
            signature = loop_signature(uf, tuple(t for _, t in fixed))
    return signature


def dtypes_check(signature):
    for dt in signature:
        dtypes.check(dt, "ufunc loop")
    return signature


def _fits(value, dt) -> bool:
    if dt.kind not in "iu":
        return True
    info = np.iinfo(dt)
    return info.min <= value <= info.max


def _operand_node(value, key, want, name):
    if key is int or key is float or key is bool:   # identity: np.dtype(float) == float
        return weak_scalar(value, want, name)
    if key is not want and key != want:
        return cast(value, want)
    return value


def call(uf: np.ufunc, args, out=None, where=True, dtype=None, casting="same_kind"):
    """Record ``uf(*args)``; the result array (a tuple for multi-output ufuncs)."""
    if len(args) != uf.nin:
        raise TypeError(f"{uf.__name__}() takes {uf.nin} positional arguments but {len(args)} were given")
    items = [_classify(a) for a in args]
    signature = _signature(uf, items, dtype)
    inputs = tuple(_operand_node(v, k, w, uf.__name__) for (v, k), w in zip(items, signature))
    op = UFUNC_OPS[uf.__name__]
    if uf.nout == 1:
        results = [_apply(op, inputs, ())]
    else:
        results = [_apply(op, inputs, (i,)) for i in range(uf.nout)]
    if out is not None or where is not True:
        return _store(uf, results, out, where, casting)
    return wrap(results[0]) if uf.nout == 1 else tuple(wrap(r) for r in results)


def _store(uf, results, out, where, casting):
    outs = out if isinstance(out, tuple) else (out,)
    if len(outs) != len(results):
        raise ValueError(f"{uf.__name__}: expected {len(results)} output arrays, got {len(outs)}")
    arrays = []
    for result, target in zip(results, outs):
        if target is None:
            if where is not True:
                from .creation import zeros
                target = zeros(result.shape, result.dtype)
            else:
                arrays.append(wrap(result))
                continue
        if not isinstance(target, ndarray):
            raise TypeError("return arrays must be of lazynum.ndarray type")
        if not np.can_cast(result.dtype, target.dtype, casting):
            raise TypeError(f"Cannot cast ufunc '{uf.__name__}' output from {result.dtype!r} to "
                            f"{target.dtype!r} with casting rule '{casting}'")
        shape = target.shape
        if len(result.shape) > len(shape) or _broadcast_or_none(result.shape, shape) != shape:
            raise ValueError(f"non-broadcastable output operand with shape {shape} doesn't match "
                             f"the broadcast shape {result.shape}")
        value = broadcast_node(cast(result, target.dtype), shape)
        if where is not True:
            mask = broadcast_node(to_node(where, dtypes.BOOL), shape)
            value = _apply(SELECT, (mask, value, target._n()), ())
        target._write(target._layout(), value)
        arrays.append(target)
    return arrays[0] if len(arrays) == 1 else tuple(arrays)


def _broadcast_or_none(a, b):
    from .expr.shapes import broadcast_shapes
    try:
        return broadcast_shapes(a, b)
    except ValueError:
        return None


class ufunc:
    """A lazy NumPy ufunc: calling it records a node (see ``numpy.ufunc``)."""

    def __init__(self, name: str):
        self._np = getattr(np, name)
        self.__name__ = self._np.__name__
        self.__doc__ = f"Lazy numpy.{self.__name__}; see NumPy's documentation."
        self.nin, self.nout, self.nargs = self._np.nin, self._np.nout, self._np.nargs
        self.identity = self._np.identity

    def __repr__(self):
        return f"<lazynum ufunc '{self.__name__}'>"

    def __call__(self, *args, out=None, where=True, dtype=None, casting="same_kind", **kwargs):
        if kwargs:
            raise TypeError(f"{self.__name__}() got unsupported keyword(s) {sorted(kwargs)}")
        return call(self._np, args, out=out, where=where, dtype=dtype, casting=casting)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True):
        from .reductions import ufunc_reduce
        return ufunc_reduce(self, array, axis, dtype, out, keepdims, initial, where)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        from .reductions import ufunc_accumulate
        return ufunc_accumulate(self, array, axis, dtype, out)

    def outer(self, a, b, **kwargs):
        from .manipulation import reshape
        a, b = to_node(a), to_node(b)
        left = reshape(wrap(a), a.shape + (1,) * len(b.shape))
        return self(left, wrap(b), **kwargs)

    def at(self, a, indices, b=None):
        from .advanced_indexing import ufunc_at
        return ufunc_at(self, a, indices, b)


UFUNCS = {name: ufunc(name) for name in UNARY_UFUNCS + BINARY_UFUNCS + MULTI_OUTPUT_UFUNCS}
ALIASES = {
    "abs": "absolute", "mod": "remainder", "conj": "conjugate", "bitwise_not": "invert",
    "bitwise_invert": "invert", "true_divide": "divide", "pow": "power", "acos": "arccos",
    "asin": "arcsin", "atan": "arctan", "atan2": "arctan2", "acosh": "arccosh",
    "asinh": "arcsinh", "atanh": "arctanh", "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
}
for _alias, _target in ALIASES.items():
    UFUNCS[_alias] = UFUNCS[_target]
