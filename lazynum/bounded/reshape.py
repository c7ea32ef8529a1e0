"""``reshape``/``ravel`` of a bounded array without a sync, where the padding stays padding.

A C-order reshape of the padded data is a reshape of the true array exactly when the
valid elements keep their block structure:

- the bounded dim survives as one dim with the same bound, the products of the dims
  before and after it unchanged (``y.reshape(-1, 1)``, ``y.reshape(1, -1)``,
  ``y.reshape(y.shape[0], 2, 3)``): its run-time size carries over;
- the bounded dim is the first one and merges with the regular dims right after it
  (``y.ravel()`` of ``(<=N, 3)``): the valid rows are a prefix of the padded data, so the
  merged dim's size is the size times the merged extent.

The bounded position must be written as ``-1`` or as the array's own lazy size
(``y.shape[0]``), never an int (NumPy would compare it with the run-time size).  Any
other reshape runs on the true-size array (one counted sync).
"""
from __future__ import annotations

import math
import operator

from ..array.layout import is_c_contiguous
from .array import BoundedArray, LazySize


def _shape_argument(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return tuple(shape)


def reshape(y: BoundedArray, *shape, order="C"):
    """``y.reshape(*shape)`` (see the module docstring)."""
    shape = _shape_argument(shape)
    bounded = [k for k, s in enumerate(y._sizes) if s is not None]
    result = None
    if order == "C" and len(bounded) == 1:
        result = _kept(y, bounded[0], shape)
        if result is None and bounded[0] == 0:
            result = _merged_first(y, shape)
    if result is None:
        return y.materialize("bounded").reshape(shape, order=order)
    return result


def _resolve(y, k, shape):
    """(entries with the bounded slot as None, the slot's position) or None."""
    out, slot = [], None
    for j, d in enumerate(shape):
        if isinstance(d, LazySize):
            if d.value is not y._sizes[k] or slot is not None:
                return None
            slot = j
            out.append(None)
            continue
        d = operator.index(d)
        if d == -1:
            if slot is not None:
                return None
            slot = j
            out.append(None)
        elif d < 0:
            return None
        else:
            out.append(d)
    return (out, slot) if slot is not None else None


def _kept(y, k, shape):
    resolved = _resolve(y, k, shape)
    if resolved is None:
        return None
    out, j = resolved
    bounds = [int(d) for d in y._data.shape]
    if (math.prod(out[:j]) != math.prod(bounds[:k])
            or math.prod(out[j + 1:]) != math.prod(bounds[k + 1:])):
        return None
    out[j] = bounds[k]
    sizes = [None] * len(out)
    sizes[j] = y._sizes[k]
    return BoundedArray(y._data.reshape(tuple(out)), tuple(sizes))


def _merged_first(y, shape):
    resolved = _resolve(y, 0, shape)
    if resolved is None or resolved[1] != 0:
        return None
    out, _ = resolved
    bounds = [int(d) for d in y._data.shape]
    rest = out[1:]
    for m in range(1, len(bounds) + 1):          # bounds[1:m] merge into the first dim
        if bounds[m:] == rest:
            merged = math.prod(bounds[1:m])
            size = y._sizes[0] * merged if merged != 1 else y._sizes[0]
            new = (math.prod(bounds[:m]),) + tuple(rest)
            return BoundedArray(y._data.reshape(new), (size,) + (None,) * len(rest))
    return None


def ravel(y: BoundedArray, order="C"):
    """``y.ravel()``: a 1-d bounded array when the bounded dim is the first (else a sync)."""
    if order not in ("C", "copy") or y.ndim == 0:
        return y.materialize("bounded").ravel(order if order != "copy" else "C")
    result = reshape(y, -1)
    if order != "copy" and isinstance(result, BoundedArray) and not is_c_contiguous(y._data._layout()):
        # NumPy's ravel copies what is not C-contiguous; padded data that is not may hold a
        # true array that is (NumPy's flags ignore a dim of one row: a lone nonzero column,
        # argwhere's one row), so the row count decides (one sync of the size)
        if int(y.shape[0]) <= 1 and _numpy_c_contiguous(y):
            return y.materialize("ravel").reshape(-1)
        order = "copy"
    if order == "copy":
        return (BoundedArray(result._data.copy(), result._sizes) if isinstance(result, BoundedArray)
                else result.copy())
    return result


def _numpy_c_contiguous(y: BoundedArray) -> bool:
    """NumPy's C-contiguity flag of ``y``'s true array (its ``strides``: NumPy's)."""
    shape = tuple(int(d) for d in y.shape)
    steps = tuple(s // y.dtype.itemsize for s in y.strides)
    return is_c_contiguous((shape, steps, 0))
