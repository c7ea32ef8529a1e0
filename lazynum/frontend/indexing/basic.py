"""Indexing: ``a[key]`` and ``a[key] = value``.

Basic indices (ints, slices with any step, ``None``, ``...``) are strided layouts: reading
gives a view, writing is a ``view_scatter`` into the storage (NumPy's aliasing).  A key made
only of integers (NumPy would return a scalar) gives an owner copy, so later writes to the
base do not show through it.  Integer/boolean array keys go to ``advanced_indexing``.
"""
from __future__ import annotations

import operator

import numpy as np

from ...expr import dtypes
from ...array.arraytype import ndarray, scalar_result, view_node
from ...array.conversion import (_contains_lazy, broadcast_node, cast, is_weak, numpy_constant,
                                 to_array, to_node, weak_scalar)
from ...expr import node as nodes
from ...expr.checks import INT_VALUE, python_int
from ...expr.shapes import c_strides, slice_extent
from ...expr.symbolic import as_index

__all__: list = []

_INDEX_ERROR = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                "integer or boolean arrays are valid indices")


def _is_array_index(item) -> bool:
    return isinstance(item, (ndarray, np.ndarray, bool, np.bool_))


def _index_ndim(item) -> int:
    """How many array dims an index item consumes."""
    if item is None or item is Ellipsis or isinstance(item, (bool, np.bool_)):
        return 0
    if isinstance(item, (ndarray, np.ndarray)) and item.dtype == dtypes.BOOL:
        return item.ndim
    return 1


def _sequence_index(item):
    """A list/tuple inside a key is an array index (NumPy >= 1.23)."""
    stack = [item]
    while stack:
        x = stack.pop()
        if isinstance(x, ndarray):
            return to_array(item)
        if isinstance(x, (list, tuple)):
            stack.extend(x)
    array = np.asarray(item)
    if array.size == 0 and array.dtype.kind == "f":
        array = array.astype(np.intp)        # ``a[[]]`` selects nothing
    return array


def key_items(key, ndim: int) -> tuple:
    """``(items, positions)``: ``key`` as a list of items with ``...`` expanded into full
    slices (and full slices appended for the dims the key leaves out), and for each item
    its position in the original key.

    Lists/tuples inside the key become NumPy (or lazynum) arrays.  The positions keep what
    the expansion loses: the slices an ellipsis expands into share its position, and an
    ellipsis that expands into no dims still leaves a gap, so advanced indices on both
    sides of it are not adjacent (NumPy then moves the index dims to the front).
    """
    items = list(key) if isinstance(key, tuple) else [key]
    for k, item in enumerate(items):
        if isinstance(item, (list, tuple)):
            items[k] = _sequence_index(item)
        elif not (item is None or item is Ellipsis or isinstance(item, slice)
                  or _is_array_index(item)):
            try:
                operator.index(item)
            except TypeError:
                raise IndexError(_INDEX_ERROR) from None
    ellipses = [k for k, item in enumerate(items) if item is Ellipsis]
    if len(ellipses) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(_index_ndim(item) for item in items)
    if consumed > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, "
                         f"but {consumed} were indexed")
    fill = ndim - consumed
    if not ellipses:
        items += [slice(None)] * fill
        return items, range(len(items))
    e = ellipses[0]
    positions = list(range(len(items)))
    items[e:e + 1] = [slice(None)] * fill
    positions[e:e + 1] = [e] * fill
    return items, positions


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
        if type(item) is slice and item.step is None:
            start, length = _unit_slice(item.start, item.stop, size)
            if length and start:
                offset += start * stride
            new_shape.append(length)
            new_strides.append(stride)
        elif isinstance(item, slice):
            start, step, length = slice_extent(item, size)
            if length and start:
                offset += start * stride
            new_shape.append(length)
            new_strides.append(stride if step == 1 else stride * step)
        else:
            i = operator.index(item)
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for axis {dim} with size {size}")
            offset += (i + size if i < 0 else i) * stride
        dim += 1
    return (tuple(new_shape), tuple(new_strides), offset)


def write_box(items, shape):
    """A write's region as a box of the array's own storage (``expr.movement.box``):
    ``(starts, lengths, dims)`` for basic ``items`` with unit steps, else None.  Called
    after ``basic_layout`` checked the items; ``shape`` None (not a whole storage): None."""
    if shape is None:
        return None
    starts, lengths, dims, dim = [], [], [], 0
    for item in items:
        if item is None:
            dims.append(-1)
            continue
        size = shape[dim]
        if type(item) is slice:
            if item.step is not None and not (type(item.step) is int and item.step == 1):
                return None
            start, length = _unit_slice(item.start, item.stop, size)
            dims.append(dim)
        else:
            start = operator.index(item)
            start, length = (start + size if start < 0 else start), 1
        starts.append(start)
        lengths.append(length)
        dim += 1
    return tuple(starts), tuple(lengths), tuple(dims)


def _unit_slice(start, stop, size) -> tuple:
    """``(start, length)`` of ``start:stop`` on an axis of ``size``: ``slice_extent`` for
    the common step-1 slice, inline (the hot path of slice-heavy loops).  Sizes stay exact:
    a negative bound becomes an expression over a symbolic ``size``."""
    if start is None:
        start = 0
    else:
        if type(start) is not int:
            start = as_index(start)
        if start < 0:
            start = start + size
            if start < 0:
                start = 0
        elif start > size:
            start = size
    if stop is None:
        stop = size
    else:
        if type(stop) is not int:
            stop = as_index(stop)
        if stop < 0:
            stop = stop + size
            if stop < 0:
                stop = 0
        elif stop > size:
            stop = size
    return start, (stop - start if start < stop else 0)


def base_and_layout(a):
    """(node, layout): the latest storage node (or an owner's own node) and a's layout over it."""
    view = a._view
    if view is None:
        return a._node, a._layout()
    return view.storage.node, view.layout


def _is_basic(items) -> bool:
    return not any(_is_array_index(item) for item in items)


def _is_scalar_key(key, items, ndim) -> bool:
    """NumPy returns a scalar (a copy) when every dim is indexed by an integer."""
    if len(items) != ndim or any(item is None or isinstance(item, slice) for item in items):
        return False
    return not (key is Ellipsis or (isinstance(key, tuple) and any(k is Ellipsis for k in key)))


def _plain_items(key, ndim):
    """Items for the common keys (ints and slices only, at most ndim of them) without the
    general parse, or None.  (Python ints only: NumPy integers take the general path.)"""
    kind = type(key)
    if kind is int or kind is slice and not isinstance(key.start, ndarray) and not isinstance(key.stop, ndarray):
        items, consumed = [key], 1
    elif kind is tuple and all(type(k) is slice or type(k) is int or k is None for k in key):
        items = list(key)
        consumed = len(items) - items.count(None)      # ``None`` adds an axis, eats none
    else:
        return None
    if consumed > ndim:
        return None
    return items + [slice(None)] * (ndim - consumed)


def convert_value(value, dtype):
    """``value`` as a node of ``dtype`` with setitem's (unsafe) casting, not broadcast.

    A Python float stored into an integer array goes through ``int()`` as in NumPy
    (ValueError for NaN, OverflowError for infinities and out-of-range values).
    """
    if is_weak(value):
        if isinstance(value, float) and dtype.kind in "iu":
            value = int(value)
        return weak_scalar(value, dtype)
    if isinstance(value, (list, tuple)) and not _contains_lazy(value):
        # NumPy stores each Python scalar of a sequence as it stores one alone (a[:1] = [300]
        # into uint8 is an OverflowError, [-3.5] int(-3.5) then the same check): let NumPy
        # convert it into an array of the target dtype, with its own errors.
        converted = np.empty(np.shape(value), dtype=dtype)
        converted[...] = value
        return numpy_constant(converted)
    return cast(to_node(value), dtype)


def _basic_value(value, dtype):
    """``convert_value`` for a basic key.  NumPy stores a NumPy scalar into a signed integer
    array there as Python's ``int()`` would (``a[i] = np.float64(nan)`` raises ValueError;
    ``a[i] /= 0`` stores ``a[i] / 0``, a lazy inf: OverflowError, at the sync).  Fancy keys,
    unsigned targets and 0-d arrays cast instead."""
    if dtype.kind != "i":
        return convert_value(value, dtype)
    if isinstance(value, (np.integer, np.floating)):
        return weak_scalar(python_int(value, dtype), dtype)
    if type(value) is scalar_result:
        node = value._n()
        if node.dtype.kind == "f" or (node.dtype.kind in "iu"
                                      and not np.can_cast(node.dtype, dtype, "safe")):
            return nodes.apply(INT_VALUE, (node,), (dtype,))
    return convert_value(value, dtype)


def broadcast_value(node, shape):
    """``node`` broadcast to ``shape``; extra leading size-1 dims are dropped as NumPy does."""
    shape = tuple(shape)
    extra = len(node.shape) - len(shape)
    if extra > 0 and all(d == 1 for d in node.shape[:extra]):
        rest = node.shape[extra:]
        node = view_node(node, (rest, c_strides(rest), 0))
    return broadcast_node(node, shape)


def value_node(value, dtype, shape):
    """``value`` as a node of ``dtype`` broadcast to ``shape`` (setitem's conversion)."""
    return broadcast_value(convert_value(value, dtype), shape)
