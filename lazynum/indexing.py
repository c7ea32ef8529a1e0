"""Indexing: ``a[key]`` and ``a[key] = value``.

Basic indices (ints, slices with any step, ``None``, ``...``) are strided layouts: reading
gives a view, writing is a ``view_scatter`` into the storage (NumPy's aliasing).  Integer
array indices gather (``take``) and scatter; their bounds are data, so they are checked
when the graph runs (IndexError at the sync, naming the op and the line).
"""
from __future__ import annotations

import operator

import numpy as np

from . import dtypes
from .arraytype import ndarray, wrap
from .conversion import broadcast_node, cast, is_weak, to_node, weak_scalar

_INDEX_ERROR = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                "integer or boolean arrays are valid indices")


def _is_array_index(item) -> bool:
    return isinstance(item, (ndarray, np.ndarray, list)) or (
        isinstance(item, (bool, np.bool_)))


def _index_ndim(item) -> int:
    """How many array dims an index item consumes."""
    if item is None or item is Ellipsis:
        return 0
    if isinstance(item, (ndarray, np.ndarray)) and item.dtype == dtypes.BOOL:
        return item.ndim
    if isinstance(item, (bool, np.bool_)):
        return 0
    if isinstance(item, list):
        arr = np.asarray(item)
        return arr.ndim if arr.dtype == bool else 1
    return 1


def normalize_key(key, ndim: int) -> list:
    """``key`` as a list of items with ``...`` expanded into full slices."""
    items = list(key) if isinstance(key, tuple) else [key]
    for item in items:
        if not (item is None or item is Ellipsis or isinstance(item, slice) or _is_array_index(item)):
            try:
                operator.index(item)
            except TypeError:
                raise IndexError(_INDEX_ERROR) from None
    if sum(item is Ellipsis for item in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(_index_ndim(item) for item in items)
    if consumed > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, "
                         f"but {consumed} were indexed")
    if Ellipsis in [i for i in items if not _is_array_index(i)]:
        at = next(k for k, i in enumerate(items) if i is Ellipsis)
        items[at:at + 1] = [slice(None)] * (ndim - consumed)
    else:
        items += [slice(None)] * (ndim - consumed)
    return items


def basic_layout(layout, items) -> tuple:
    """Apply basic index items (ints, slices, None) to a strided layout."""
    shape, strides, offset = layout
    new_shape, new_strides, dim = [], [], 0
    for item in items:
        if item is None:
            new_shape.append(1)
            new_strides.append(0)
            continue
        size, stride = shape[dim], strides[dim]
        if isinstance(item, slice):
            start, stop, step = item.indices(size)
            length = len(range(start, stop, step))
            if length:
                offset += start * stride
            new_shape.append(length)
            new_strides.append(stride * step)
        else:
            i = operator.index(item)
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for axis {dim} with size {size}")
            offset += (i % size) * stride
        dim += 1
    return (tuple(new_shape), tuple(new_strides), offset)


def _is_basic(items) -> bool:
    return not any(_is_array_index(item) for item in items)


def getitem(self, key):
    """``a[key]``: a view for basic indices, a gather for integer/boolean arrays."""
    items = normalize_key(key, self.ndim)
    if _is_basic(items):
        return self._window(basic_layout(self._layout(), items))
    from .advanced_indexing import advanced_getitem
    return advanced_getitem(self, items)


def value_node(value, dtype, shape):
    """``value`` as a node of ``dtype`` broadcast to ``shape`` (setitem's conversion)."""
    if is_weak(value) and not isinstance(value, complex):
        node = weak_scalar(value, dtype) if isinstance(value, int) and not isinstance(value, bool) \
            else to_node(np.asarray(value).astype(dtype))
    else:
        node = cast(to_node(value), dtype)
    return broadcast_node(node, shape)


def setitem(self, key, value):
    """``a[key] = value``: writes through to every view of the same storage."""
    items = normalize_key(key, self.ndim)
    if _is_basic(items):
        region = basic_layout(self._layout(), items)
        self._write(region, value_node(value, self.dtype, region[0]))
        return
    from .advanced_indexing import advanced_setitem
    advanced_setitem(self, items, value)
