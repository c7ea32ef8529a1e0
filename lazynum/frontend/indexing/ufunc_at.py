"""``ufunc.at``: unbuffered in-place ``a[indices] = ufunc(a[indices], b)`` as scatters.

Unbuffered means every repeated index applies, in index order (``a[idx] += b`` is
buffered: the last write wins).  ``add``/``subtract`` are a ``scatter_add``; ``multiply``,
``minimum``, ``maximum``, ``fmin``, ``fmax``, ``bitwise_and/or/xor`` and (on bool arrays)
``logical_and/or`` are a ``scatter_reduce`` whose combine is the ufunc
(``expr.indexing.SCATTER_COMBINES``, meanings in ``expr.combines``).  Compiled, either is
a scatter target of a kernel (private copies per part, combined in order); interpreted,
NumPy's own ``<ufunc>.at``.

NumPy computes each contribution in the ufunc's loop dtype and casts the result back to
``a.dtype`` unsafely (``maximum.at`` of an int32 array and ``1.5`` is allowed).  The scatter
folds values already cast to ``a.dtype``, which is the same result exactly when the loop is
``a.dtype``'s own, when integer arithmetic wraps (sums, products and bit operations
commute with truncation to fewer bits), or when an extreme of floats is rounded (rounding
is monotone).  Other loops raise NotImplementedError: the ufunc's ``at`` then runs NumPy's
own on a synced copy, a counted fallback.
"""
from __future__ import annotations

import numpy as np

from ...array.arraytype import ndarray
from ...array.conversion import broadcast_node, cast, is_weak, to_node
from ...expr import dtypes
from ...expr import node as nodes
from ...expr.elementwise import SELECT, UFUNC_OPS, loop_signature
from ...expr.movement import literal
from ...expr.indexing import SCATTER_ADD, SCATTER_COMBINES, SCATTER_REDUCE
from ...expr.shapes import size_of
from .advanced import _inode, at_targets
from .basic import base_and_layout, broadcast_value, key_items

__all__: list = []

# Ufuncs for which a value cast to a narrower dtype before combining gives NumPy's result
# (see the module docstring): by the kinds of a.dtype and the loop's dtype.
_WRAPPING = ("add", "subtract", "multiply", "bitwise_and", "bitwise_or", "bitwise_xor")
_EXTREMES = ("minimum", "maximum", "fmin", "fmax")
# Unary ufuncs whose repeated application is known without repeating it: involutions
# (applied k times: f when k is odd) and idempotent ones (f when k >= 1), on the loops
# where a.dtype is in and out (integer negation wraps: -(-x) == x for the lowest value too).
_INVOLUTIONS = ("negative", "invert", "logical_not", "conjugate", "positive")
_IDEMPOTENT = ("absolute", "floor", "ceil", "trunc", "rint", "sign")


def _exact_after_cast(name: str, a_dtype, loop_dtype) -> bool:
    """Whether casting b to ``loop_dtype`` and then to ``a_dtype`` before combining in
    ``a_dtype`` equals NumPy's combining in ``loop_dtype`` and casting each result back."""
    if loop_dtype == a_dtype:
        return True
    if name in _WRAPPING:
        return a_dtype.kind in "iu" and loop_dtype.kind in "iu"
    return name in _EXTREMES and a_dtype.kind == "f" and loop_dtype.kind == "f"


def _values(name, a, b):
    """``b`` as a node of ``a.dtype`` that the scatter folds in; NotImplementedError where
    that would not give NumPy's result.  ``at`` converts a Python scalar ``b`` to an array
    first (it is strong there, unlike in a ufunc call): ``add.at`` of a uint8 array and 300
    wraps to 44, ``minimum.at`` of a uint16 array and -1 computes in int64."""
    b_node = to_node(np.asarray(b) if is_weak(b) else b)
    signature = loop_signature(getattr(np, name), (a.dtype, b_node.dtype))
    loop = signature[-1]
    if signature[0] != signature[1] or signature[1] != loop or not _exact_after_cast(name, a.dtype, loop):
        raise NotImplementedError(f"lazynum: {name}.at with loop {signature} on a {a.dtype} "
                                  "array is not lazy")
    return cast(cast(b_node, loop), a.dtype)


def ufunc_at(uf, a, indices, b=None):
    """``uf.at(a, indices, b)``: unbuffered in-place ``a[indices] = uf(a[indices], b)``
    where repeated indices all apply, in index order (NumPy's ``ufunc.at``).

    Lazy for add, subtract and ``SCATTER_COMBINES`` (see the module docstring for which
    loops); other ufuncs and loops raise NotImplementedError, and the ufunc object's
    ``at`` then runs NumPy's as a counted fallback.
    """
    name = uf.__name__
    if not isinstance(a, ndarray):
        raise TypeError(f"{name}.at needs a lazynum array to write into, not {type(a).__name__}")
    if uf.nin == 1 and name in _INVOLUTIONS + _IDEMPOTENT:
        return _unary_at(name, a, indices, b)
    if name not in ("add", "subtract") + SCATTER_COMBINES:
        raise NotImplementedError(
            f"lazynum: {name}.at is not lazy; without repeated indices write "
            f"a[idx] = lazynum.{name}(a[idx]{', b' if uf.nin == 2 else ''}) instead")
    if b is None:
        raise TypeError(f"second operand needed for ufunc {name}")
    values = _values(name, a, b)
    a._check_writeable()
    targets, result = at_targets(a, *key_items(indices, a.ndim))
    values = broadcast_value(values, result)
    if size_of(result) == 0 and not isinstance(targets, nodes.Node):
        return
    base, _ = base_and_layout(a)
    if name in ("add", "subtract"):
        if name == "subtract":
            values = nodes.apply(UFUNC_OPS["negative"], (values,), ())
        node = nodes.apply(SCATTER_ADD, (base, _inode(targets), values), ())
    else:
        node = nodes.apply(SCATTER_REDUCE, (base, _inode(targets), values), (name,))
    a._replace_storage(node)


def _unary_at(name, a, indices, b):
    """``f.at(a, indices)`` for an involution or an idempotent ``f``: how often each
    element is hit (a scatter-add of ones) decides between ``f(a)`` and ``a``."""
    if b is not None:
        raise TypeError("second operand provided when ufunc is unary")
    if loop_signature(getattr(np, name), (a.dtype,)) != (a.dtype, a.dtype):
        raise NotImplementedError(f"lazynum: {name}.at on a {a.dtype} array is not lazy")
    a._check_writeable()
    targets, result = at_targets(a, *key_items(indices, a.ndim))
    if size_of(result) == 0 and not isinstance(targets, nodes.Node):
        return
    base, _ = base_and_layout(a)
    int64 = dtypes.INT64
    hits = nodes.apply(SCATTER_ADD, (broadcast_node(literal(0, int64), base.shape),
                                     _inode(targets), broadcast_node(literal(1, int64), result)), ())
    if name in _INVOLUTIONS:
        hits = nodes.apply(UFUNC_OPS["bitwise_and"], (hits, literal(1, int64)), ())
    applied = nodes.apply(UFUNC_OPS["not_equal"], (hits, literal(0, int64)), ())
    changed = nodes.apply(UFUNC_OPS[name], (base,), ())
    a._replace_storage(nodes.apply(SELECT, (applied, changed, base), ()))
