"""Strided layouts: how a view maps its indices onto its storage (NumPy's memory model).

A layout is ``(shape, strides, offset)`` in elements relative to the C-order flattening of
the storage's current value.  These functions decide exactly what NumPy decides (when a
reshape can be a view, which views are contiguous) so lazynum's aliasing matches NumPy's.
"""
from __future__ import annotations

from .expr.shapes import c_strides, size_of


def identity(shape) -> tuple:
    shape = tuple(shape)
    return (shape, c_strides(shape), 0)


def is_c_contiguous(layout) -> bool:
    shape, strides, _ = layout
    if size_of(shape) == 0:
        return True
    expected = 1
    for d, s in zip(reversed(shape), reversed(strides)):
        if d != 1 and s != expected:
            return False
        expected *= d
    return True


def is_identity(layout, storage_shape) -> bool:
    shape, strides, offset = layout
    return offset == 0 and tuple(shape) == tuple(storage_shape) and is_c_contiguous(layout)


def has_overlap(layout) -> bool:
    """True when two indices may share one element (a broadcast, stride 0, view)."""
    shape, strides, _ = layout
    return any(s == 0 and d > 1 for d, s in zip(shape, strides))


def memory_order(layouts_of_operands, shape):
    """NumPy's 'K' order for an elementwise result: the axis permutation (slowest-varying
    first) that its memory follows, or None for C order.

    Operands of the full result shape without broadcast (stride-0) dims vote with the order
    of their strides; if they disagree, or none votes, the result is C-ordered, as NumPy's.
    """
    orders = set()
    for op_shape, strides, _ in layouts_of_operands:
        if tuple(op_shape) != tuple(shape) or any(s == 0 and d > 1 for d, s in zip(op_shape, strides)):
            continue
        axes = [a for a in range(len(shape)) if shape[a] > 1]
        slowest_first = tuple(sorted(axes, key=lambda a: -abs(strides[a])))
        orders.add(slowest_first)
    if len(orders) != 1:
        return None
    (order,) = orders
    if list(order) == sorted(order):
        return None
    ones = [a for a in range(len(shape)) if shape[a] <= 1]
    return tuple(order) + tuple(ones) if not ones else _with_unit_axes(order, ones, len(shape))


def _with_unit_axes(order, ones, ndim):
    # Size-1 axes carry no data: keep them in their C position relative to the others.
    perm, it = [], iter(order)
    for a in range(ndim):
        perm.append(a if a in ones else next(it))
    return tuple(perm)


def transpose(layout, axes) -> tuple:
    shape, strides, offset = layout
    return (tuple(shape[a] for a in axes), tuple(strides[a] for a in axes), offset)


def reshape_without_copy(layout, new_shape):
    """Strides for viewing ``layout`` as ``new_shape`` without a copy, or None.

    NumPy's rule (``_attempt_nocopy_reshape``): size-1 dims are dropped, then groups of old
    dims that are contiguous among themselves map onto groups of new dims.
    """
    shape, strides, offset = layout
    new_shape = tuple(new_shape)
    if size_of(shape) == 0 or size_of(new_shape) == 0:
        return (new_shape, c_strides(new_shape), offset) if size_of(shape) == size_of(new_shape) else None
    old = [(d, s) for d, s in zip(shape, strides) if d != 1]
    old_dims = [d for d, _ in old]
    old_strides = [s for _, s in old]
    new_strides = [0] * len(new_shape)
    oi = ni = 0
    while oi < len(old_dims) and ni < len(new_shape):
        op, np_ = old_dims[oi], new_shape[ni]
        oj, nj = oi + 1, ni + 1
        while op != np_:
            if np_ < op:
                np_ *= new_shape[nj]
                nj += 1
            else:
                op *= old_dims[oj]
                oj += 1
        for k in range(oi, oj - 1):
            if old_strides[k] != old_dims[k + 1] * old_strides[k + 1]:
                return None
        new_strides[nj - 1] = old_strides[oj - 1]
        for k in range(nj - 1, ni, -1):
            new_strides[k - 1] = new_strides[k] * new_shape[k]
        oi, ni = oj, nj
    # Trailing size-1 dims of the new shape get a stride like NumPy's (any value is valid).
    last = old_strides[-1] if old_strides else 1
    for k in range(ni, len(new_shape)):
        new_strides[k] = last
    return (new_shape, tuple(new_strides), offset)
