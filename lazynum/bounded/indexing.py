"""Indexing with and of bounded arrays, without a sync.

- ``y[mask]`` with a bounded bool mask (a mask of a mask), ``y[i]`` and ``y[a:b]`` on a
  bounded dim, ``y[:, j]`` on the regular dims;
- gathers ``x[idx]`` / ``x[nonzero(m)]`` with bounded integer index arrays;
- slices of a regular array with lazy bounds, ``x[:n]`` / ``x[a:b]`` (0-d int arrays).
Anything else indexes the true-size array (one counted sync).
"""
from __future__ import annotations

import operator

import numpy as np

from ..frontend import creation, mathfuncs, ufuncs
from ..expr import dtypes
from ..array.arraytype import ndarray, wrap_scalar
from ..array.conversion import to_array
from .array import BoundedArray, materialized
from .compute import checked, source_rows
from .producers import _compact
from .window import dynamic_window


def getitem(y: BoundedArray, key):
    """``y[key]`` (see module docstring)."""
    if isinstance(key, BoundedArray) and key.dtype == dtypes.BOOL and key.ndim == 1:
        return _mask_of_mask(y, key)
    if isinstance(key, int) and not isinstance(key, bool) and y._sizes[0] is not None:
        return _element(y, key)
    if isinstance(key, slice):
        result = _slice(y, key)
        if result is not None:
            return result
    if type(key) is tuple:
        result = _basic_key(y, key)
        if result is not None:
            return result
    return y.materialize()[materialized(key)]


def _mask_of_mask(y, mask):
    if int(mask._data.shape[0]) != int(y._data.shape[0]):
        return y.materialize()[mask.materialize()]
    keep = mask._data & (creation.arange(mask._data.shape[0]) < mask._sizes[0])
    data, count = _compact(y._data, keep)
    source = source_rows((y, mask))
    if source is not None and all(s is None for s in y._sizes[1:]):
        # Both are rows of one selection: the result is the source's rows under both
        # masks (its count needs no compaction either).
        (rows, inner), outer = source[0], source[1]
        both = outer & inner
        return BoundedArray(data, (both.astype(dtypes.INT64).sum(),) + y._sizes[1:], (rows, both))
    if mask._sizes[0] is not y._sizes[0]:
        extent = y._sizes[0] if y._sizes[0] is not None else int(y._data.shape[0])
        # NumPy indexes with an empty boolean array as with an empty integer one: a mask of
        # run-time size 0 selects nothing from an array of any extent.
        count = checked(count, (mask._sizes[0] == extent) | (mask._sizes[0] == 0), "IndexError",
                        "boolean index did not match indexed array along axis 0 (run-time sizes)")
    return BoundedArray(data, (count,) + y._sizes[1:])


def _element(y, index):
    if y.ndim > 1:
        return y.materialize()[index]      # NumPy's row is a view: writes reach y
    size = y._sizes[0]
    position = size + index if index < 0 else to_array(index)
    position = checked(position, (position >= 0) & (position < size), "IndexError",
                       f"index {index} is out of bounds for axis 0 (bounded; checked at run time)")
    # NumPy returns a scalar: read, ``y[i] op= v`` computes and stores back (setitem casting)
    return wrap_scalar(y._data.take(position, axis=0)._n())


def _plain_slice(key):
    return (key.step in (None, 1) and (key.start is None or isinstance(key.start, int) and key.start >= 0)
            and (key.stop is None or isinstance(key.stop, int) and key.stop >= 0))


def _slice(y, key):
    """``y[a:b]`` with step 1: a static view for non-negative int bounds; a dynamic window
    (``window.py``) for lazy bounds, or negative ones on a bounded dim (they count from the
    run-time size); None for other keys (a step, non-integer bounds)."""
    bounds = (key.start, key.stop)
    if key.step not in (None, 1) or not all(_index_like(v) for v in bounds):
        return None
    if not any(isinstance(v, ndarray) for v in bounds):
        if y._sizes[0] is None:
            return _basic_key(y, (key,))
        if _plain_slice(key):
            return _prefix_slice(y, key)
    return window_slice(y._data, y._sizes, key)


def _index_like(value) -> bool:
    if isinstance(value, ndarray):
        return value.ndim == 0 and value.dtype.kind in "iu"
    return value is None or isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _prefix_slice(y, key):
    bound = int(y._data.shape[0])
    start = key.start or 0
    stop = bound if key.stop is None else min(key.stop, bound)
    if start >= stop:
        return BoundedArray(y._data[0:0], (to_array(0).astype(dtypes.INT64),) + y._sizes[1:])
    size = mathfuncs.clip(ufuncs.UFUNCS['minimum'](y._sizes[0], stop) - start, 0, stop - start)
    return BoundedArray(y._data[start:stop], (size,) + y._sizes[1:])


def whole_bounded_dims(y, key) -> bool:
    """Whether a tuple ``key`` of ints, slices and None indexes ``y`` basically with every
    bounded dim sliced whole (``y[:, j]``): then it indexes the padded data alike."""
    if not all(k is None or type(k) in (int, slice) for k in key):
        return False
    items = [k for k in key if k is not None]
    if len(items) > y.ndim:
        return False
    return all(s is None or item == slice(None) for item, s in zip(items, y._sizes))


def _basic_key(y, key):
    """``y[key]`` for ints, slices and None where every bounded dim gets a full slice:
    plain indexing of the padded data (a view), each kept dim keeping its size.  None
    otherwise."""
    if not whole_bounded_dims(y, key):
        return None
    sizes, dim = [], 0
    for item in key:
        if item is None:
            sizes.append(None)
            continue
        if type(item) is slice:
            sizes.append(y._sizes[dim])
        dim += 1
    sizes.extend(y._sizes[dim:])
    return BoundedArray(y._data[key], tuple(sizes))


# --- gathers with bounded index arrays --------------------------------------------------------

def gather(x: ndarray, key) -> BoundedArray | None:
    """``x[idx]`` or ``x[(i0, i1, ...)]`` with 1-d bounded int index arrays (sharing their
    size, as ``nonzero`` returns them); None when the key is not of that form."""
    parts = key if type(key) is tuple else (key,)
    if not parts or len(parts) > x.ndim or not all(
            isinstance(p, BoundedArray) and p.ndim == 1 and p.dtype.kind in "iu" for p in parts):
        return None
    size = parts[0]._sizes[0]
    bound = int(parts[0]._data.shape[0])
    if size is None or any(p._sizes[0] is not size or int(p._data.shape[0]) != bound for p in parts):
        return None
    valid = creation.arange(bound) < size
    flat, ok = None, None
    for axis, part in enumerate(parts):
        n = x.shape[axis]
        index = part._data.astype(dtypes.INT64)
        index = mathfuncs.where(index < 0, index + n, index)
        in_range = (index >= 0) & (index < n) | ~valid          # padding is never checked
        ok = in_range if ok is None else ok & in_range
        index = mathfuncs.where(valid, mathfuncs.clip(index, 0, max(int(n) - 1, 0)), 0)
        flat = index if flat is None else flat * n + index
    rows = x.reshape((-1,) + tuple(x.shape[len(parts):])) if len(parts) > 1 else x
    if int(rows.shape[0]) == 0:
        data = creation.zeros((bound,) + tuple(rows.shape[1:]), dtype=x.dtype)
    else:
        data = rows.take(flat, axis=0)
    size = checked(size, ok.all(), "IndexError", "index out of bounds in a gather with a bounded "
                                                  "index array (checked at run time)")
    return BoundedArray(data, (size,) + (None,) * (data.ndim - 1))


# --- lazy slice bounds -------------------------------------------------------------------------

def _slice_bound(value, default, extent):
    """A slice bound as a lazy int64 in ``[0, extent]`` (NumPy's negative-from-the-end and
    clipping rules); ``extent``: an int or a lazy 0-d int64 (a run-time size)."""
    if value is None:
        return to_array(default).astype(dtypes.INT64)
    value = to_array(value if isinstance(value, ndarray) else operator.index(value))
    value = value.astype(dtypes.INT64)
    return mathfuncs.clip(mathfuncs.where(value < 0, value + extent, value), 0, extent)


def _is_zero(value) -> bool:
    return value is None or not isinstance(value, ndarray) and operator.index(value) == 0


def window_slice(data: ndarray, sizes: tuple, key: slice, axis: int = 0) -> BoundedArray:
    """``key`` (step 1, bounds lazy or ints) applied along ``axis`` of padded ``data`` whose
    run-time ``sizes`` are given: a view (``window.dynamic_window``) bounded along ``axis``."""
    extent = sizes[axis] if sizes[axis] is not None else int(data.shape[axis])
    start = None if _is_zero(key.start) else _slice_bound(key.start, 0, extent)
    stop = _slice_bound(key.stop, extent, extent)
    size = stop if start is None else ufuncs.UFUNCS['maximum'](stop - start, 0)
    new_sizes = sizes[:axis] + (size,) + sizes[axis + 1:]
    return BoundedArray(dynamic_window(data, axis, start, size), new_sizes)


def lazy_slice(x: ndarray, key) -> BoundedArray | None:
    """``x[a:b]`` on axis 0 where ``a``/``b`` are lazy 0-d int arrays: a view of ``x``
    bounded along axis 0 (NumPy's basic slice); None otherwise."""
    if not isinstance(key, slice) or key.step not in (None, 1) or not x.ndim:
        return None
    lazy = [v for v in (key.start, key.stop) if isinstance(v, ndarray)]
    if not lazy or any(v.ndim or v.dtype.kind not in "iu" for v in lazy):
        return None
    return window_slice(x, (None,) * x.ndim, key)
