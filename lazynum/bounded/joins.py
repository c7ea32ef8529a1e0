"""Joining bounded arrays, and factories sized by a bounded dim.

``concatenate`` along a bounded dim: bound = sum of bounds, size = sum of sizes (the true
elements are compacted to the front).  ``stack``: sizes must agree (checked at run time).
``zeros(y.shape)``, ``ones``, ``full``, ``empty`` and ``arange(y.shape[0])``: a bounded
result sharing the size, so no sync.
"""
from __future__ import annotations

import operator

import numpy as np

from ..array import layout as layouts
from ..frontend import creation, joining, manipulation
from ..array.conversion import to_array
from ..expr.shapes import normalize_axis
from .array import BoundedArray, bounded_form, LazySize, materialized
from .compute import align, checked
from .producers import _compact


def concatenate(arrays, axis=0, **kwargs):
    """``concatenate`` where some arrays are bounded (along ``axis`` only)."""
    arrays = list(arrays)
    if kwargs.get("out") is not None or axis is None:
        return joining.concatenate(materialized(arrays), axis=axis, **kwargs)
    ndims = {a.ndim if isinstance(a, BoundedArray) else np.ndim(a) for a in arrays}
    if len(ndims) > 1 or 0 in ndims:       # NumPy's error, from the padded shapes (no sync)
        return joining.concatenate([a._data if isinstance(a, BoundedArray) else a for a in arrays],
                                   axis=axis, **kwargs)
    ndim = ndims.pop()
    axis = normalize_axis(operator.index(axis), ndim)
    if not any(isinstance(a, BoundedArray) and any(s is not None for s in a._sizes) for a in arrays):
        return joining.concatenate([a._data if isinstance(a, BoundedArray) else a for a in arrays],
                                   axis=axis, **kwargs)
    parts, masks, total = [], [], None
    for a in arrays:
        if isinstance(a, BoundedArray):
            if a.ndim != ndim or any(s is not None for k, s in enumerate(a._sizes) if k != axis):
                return joining.concatenate(materialized(arrays), axis=axis, **kwargs)
            data, size = a._data, a._sizes[axis]
            mask = creation.arange(data.shape[axis]) < size if size is not None else None
        else:
            data = to_array(a)
            size, mask = None, None
        n = data.shape[axis]
        parts.append(data)
        masks.append(mask if mask is not None else creation.ones(n, dtype=bool))
        count = size if size is not None else n
        total = count if total is None else total + count
    data = joining.concatenate(parts, axis=axis, **kwargs)
    keep = joining.concatenate(masks)
    rows = manipulation.moveaxis(data, axis, 0) if axis else data
    packed, _ = _compact(rows, keep)
    sizes = [None] * ndim
    sizes[axis] = total
    result = manipulation.moveaxis(packed, 0, axis) if axis else packed
    order = layouts.new_array_order(data._layout(), "K")
    if order is not None:
        # NumPy's concatenate keeps its inputs' memory order (argwhere's is F order), so a
        # C-order reshape of the result copies rather than views: compaction wrote C order.
        result = result.transpose(order).copy().transpose(tuple(np.argsort(order)))
    return BoundedArray(result, tuple(sizes))


def stack(arrays, axis=0, **kwargs):
    """``stack`` of bounded arrays: equal run-time sizes (checked), a new regular axis."""
    arrays = list(arrays)
    if kwargs.get("out") is not None:
        return joining.stack(materialized(arrays), axis=axis, **kwargs)
    physical, sizes = align(arrays)
    shapes = {tuple(p.shape) for p in physical}
    if len(shapes) != 1:
        return joining.stack(materialized(arrays), axis=axis, **kwargs)
    physical[0] = _equal_shapes_checked(physical[0], arrays)
    data = joining.stack(physical, axis=axis, **kwargs)
    axis = normalize_axis(operator.index(axis), data.ndim)
    sizes = tuple(sizes[:axis]) + (None,) + tuple(sizes[axis:])
    return BoundedArray(data, sizes) if any(s is not None for s in sizes) else data


def _equal_shapes_checked(value, arrays):
    """``value`` carrying a run-time check that every array has the same true shape (stack
    does not broadcast, unlike ``align``)."""
    ndim = {a.ndim if isinstance(a, BoundedArray) else np.ndim(a) for a in arrays}
    if len(ndim) != 1:
        raise ValueError("all input arrays must have the same shape")
    ok = None
    for k in range(ndim.pop()):
        dims = [a._sizes[k] if isinstance(a, BoundedArray) and a._sizes[k] is not None
                else np.shape(a)[k] if not isinstance(a, BoundedArray) else a._data.shape[k]
                for a in arrays]
        for d in dims[1:]:
            if d is not dims[0] and not (isinstance(d, int) and isinstance(dims[0], int) and d == dims[0]):
                same = dims[0] == d
                ok = same if ok is None else ok & same
    if ok is None:
        return value
    return checked(value, ok, "ValueError", "all input arrays must have the same shape "
                                            "(run-time sizes of bounded dims differ)")


def factory(maker):
    """``maker(shape, ...)`` accepting LazySize dims: a bounded result (no sync)."""
    def function(shape, *args, **kwargs):
        dims = shape if isinstance(shape, (tuple, list)) else (shape,)
        if not any(isinstance(d, LazySize) for d in dims):
            return maker(shape, *args, **kwargs)
        if any(isinstance(d, LazySize) and d.bound is None for d in dims):
            return maker(tuple(int(d) for d in dims), *args, **kwargs)    # no bound: a sync
        bounds = tuple(d.bound if isinstance(d, LazySize) else d for d in dims)
        sizes = tuple(d.value if isinstance(d, LazySize) else None for d in dims)
        return BoundedArray(maker(bounds, *args, **kwargs), sizes)
    return bounded_form(function, maker)


def arange(original):
    def function(*args, **kwargs):
        if len(args) == 1 and not kwargs.keys() - {"dtype"} and isinstance(args[0], LazySize) \
                and args[0].bound is not None:
            n = args[0]
            return BoundedArray(creation.arange(int(n.bound), **kwargs), (n.value,))
        return original(*(int(a) if isinstance(a, LazySize) else a for a in args), **kwargs)
    return bounded_form(function, original)
