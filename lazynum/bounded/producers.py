"""Operations whose result size depends on the data, made lazy as bounded arrays.

``x[mask]``, ``nonzero``, ``flatnonzero``, ``argwhere``, ``where(cond)``, ``compress``
and ``extract`` compact with the ``compact`` primitive: the bound is the number of
candidates, the run-time size is the number kept.  None of them syncs, and none of them
puts the data into the cache key: a new mask, threshold or density replays the program.
``set_dim_size``/``get_dim_size``/``bound_shape`` are XLA's Get/SetDimensionSize.
"""
from __future__ import annotations

import operator

import numpy as np

from ..frontend import creation, joining, manipulation
from ..expr import dtypes
from ..array.arraytype import ndarray, wrap
from ..array.conversion import to_array
from ..expr import node as nodes
from ..expr.shapes import normalize_axis, size_of
from .array import BoundedArray
from .compute import checked
from ..expr.compaction import COMPACT
from ..frontend import mathfuncs, reductions


def _compact(rows: ndarray, keep: ndarray):
    """(padded rows where ``keep``, the lazy count kept)."""
    data = wrap(nodes.apply(COMPACT, (rows._n(), keep._n())))
    return data, keep.astype(dtypes.INT64).sum()


def mask_select(x: ndarray, mask: ndarray) -> BoundedArray:
    """``x[mask]`` for a lazy bool ``mask`` over the leading dims of ``x``."""
    k = mask.ndim
    if k > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but {k} "
                         f"were indexed")
    for j in range(k):
        # NumPy lets a mask dim of extent 0 stand against any extent (nothing is selected)
        if x.shape[j] != mask.shape[j] and mask.shape[j] != 0:
            raise IndexError(f"boolean index did not match indexed array along axis {j}; size "
                             f"of axis is {x.shape[j]} but size of corresponding boolean axis is "
                             f"{mask.shape[j]}")
    if tuple(mask.shape) != tuple(x.shape[:k]):
        return creation.zeros((0,) + tuple(x.shape[k:]), dtype=x.dtype)
    n = size_of(x.shape[:k])
    rows, keep = x.reshape((n,) + tuple(x.shape[k:])), mask.reshape(n)
    data, size = _compact(rows, keep)
    return BoundedArray(data, (size,) + (None,) * (x.ndim - k), (rows, keep))


def _flat_indices(a):
    a = to_array(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead.")
    flat = (a != 0).reshape(-1) if a.dtype != dtypes.BOOL else a.reshape(-1)
    positions = creation.arange(a.size)
    data, size = _compact(positions, flat)
    return a, BoundedArray(data, (size,), (positions, flat)), size


def nonzero(a, *, size=None, fill_value=0) -> tuple:
    """Indices of the non-zero elements, one bounded int64 array per dim (no sync).

    ``size`` (JAX's keyword) gives static-shape results instead: the first ``size``
    indices, the rest ``fill_value``.
    """
    a, flat, count = _flat_indices(a)
    coords, stride = [], 1
    for d in reversed(a.shape):
        coords.append((flat // stride) % d if d != 1 else flat * 0)
        stride = stride * d
    result = tuple(reversed(coords))
    if len(result) > 1:
        # NumPy's are the columns of one (n, ndim) buffer: strided views, whose ravel copies
        table = joining.stack([c._data for c in result], axis=1)
        result = tuple(BoundedArray(table[:, j], (count,)) for j in range(len(result)))
    if size is None:
        return result
    return tuple(_static(r, operator.index(size), fill_value) for r in result)


def _static(result: BoundedArray, size: int, fill_value):
    """The first ``size`` entries of a 1-d bounded array, then ``fill_value`` (static)."""
    data = result._data
    bound = int(data.shape[0])
    if bound < size:
        data = joining.concatenate([data, creation.zeros(size - bound, dtype=data.dtype)])
    keep = creation.arange(size) < result._sizes[0]
    return mathfuncs.where(keep, data[:size], to_array(fill_value).astype(data.dtype))


def flatnonzero(a) -> BoundedArray:
    """Indices of the non-zero elements of the flattened ``a`` (bounded, no sync)."""
    return _flat_indices(to_array(a).reshape(-1))[1]


def argwhere(a) -> BoundedArray:
    """``(N, a.ndim)`` indices of the non-zero elements (bounded along axis 0, no sync)."""
    a = to_array(a)
    if a.ndim == 0:
        a = a.reshape(1)
        _, _, size = _flat_indices(a)
        return BoundedArray(creation.zeros((1, 0), dtype=np.int64), (size, None))
    coords = nonzero(a)
    # NumPy's argwhere is transpose(nonzero): F-ordered, so its ravel/reshape copy
    data = joining.stack([c._data for c in coords], axis=0).T
    return BoundedArray(data, (coords[0]._sizes[0], None))


def compress(condition, a, axis=None) -> BoundedArray:
    """``compress`` with a lazy 1-d condition: bounded along ``axis`` (no sync)."""
    cond = to_array(condition).astype(bool)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    a = to_array(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = normalize_axis(operator.index(axis), a.ndim)
    n = a.shape[axis]
    if cond.shape[0] > n:
        raise IndexError(f"index {n} is out of bounds for axis {axis} with size {n}")
    if cond.shape[0] < n:                      # NumPy: the missing entries count as False
        cond = joining.concatenate([cond, creation.zeros(n - cond.shape[0], dtype=bool)])
    rows = manipulation.moveaxis(a, axis, 0) if axis else a
    data, size = _compact(rows, cond)
    sizes = [None] * a.ndim
    sizes[axis] = size
    if axis == 0:
        return BoundedArray(data, tuple(sizes), (rows, cond))
    return BoundedArray(manipulation.moveaxis(data, 0, axis), tuple(sizes))


def extract(condition, arr) -> BoundedArray:
    """The elements of ``arr`` where ``condition`` is non-zero, flattened (no sync)."""
    cond, values = to_array(condition).reshape(-1), to_array(arr).reshape(-1)
    if cond.shape[0] != values.shape[0]:
        raise ValueError("extract: condition and arr must have the same size")
    return compress(cond != 0, values, axis=0)


# --- XLA's Get/SetDimensionSize --------------------------------------------------------------

def get_dim_size(x, axis: int) -> ndarray:
    """The run-time size of ``x``'s dim ``axis`` as a lazy 0-d int64 array (no sync)."""
    axis = normalize_axis(operator.index(axis), x.ndim)
    if isinstance(x, BoundedArray) and x._sizes[axis] is not None:
        return x._sizes[axis]
    return creation.asarray(np.int64(int(to_array(x).shape[axis])))


def set_dim_size(x, axis: int, size) -> BoundedArray:
    """``x`` with dim ``axis`` given run-time size ``size`` (lazy or an int); the bound is
    unchanged.  A size above the bound or negative raises ValueError at the sync."""
    data = x._data if isinstance(x, BoundedArray) else to_array(x)
    sizes = list(x._sizes) if isinstance(x, BoundedArray) else [None] * data.ndim
    axis = normalize_axis(operator.index(axis), data.ndim)
    bound = int(data.shape[axis])
    size = to_array(size)
    if size.ndim != 0 or size.dtype.kind not in "iu":
        raise TypeError("set_dim_size: size must be an integer scalar")
    size = size.astype(dtypes.INT64)
    sizes[axis] = checked(size, (size >= 0) & (size <= bound), "ValueError",
                          f"set_dim_size: size outside [0, {bound}] (the bound of dim {axis})")
    return BoundedArray(data, tuple(sizes))


def bound_shape(x) -> tuple:
    """The static (or symbolic) upper bounds of ``x``'s dims: its padded storage shape."""
    if isinstance(x, BoundedArray):
        return x.bound_shape
    return tuple(to_array(x).shape)


def mask_assign(x: ndarray, mask: ndarray, value: BoundedArray) -> None:
    """``x[mask] = value`` for a bounded ``value`` (``x[mask] += v`` reads, updates and
    writes back a bounded array): expand the value's rows to the mask's positions (the
    inverse of ``compact``) and select, so nothing syncs.  The counts must match at run
    time (NumPy's ValueError otherwise)."""
    k = mask.ndim
    n = size_of(x.shape[:k])
    rest = tuple(x.shape[k:])
    if (value.ndim != 1 + len(rest) or value._sizes[0] is None
            or any(s is not None for s in value._sizes[1:]) or tuple(value._data.shape[1:]) != rest):
        x[mask] = value.materialize()
        return
    flat = mask.reshape(n)
    pair = value._uncompacted
    if pair is not None and pair[1]._n() is flat._n():
        # x[m] = f(x[m]): the value's rows are already where the mask puts them.
        keep = flat.reshape((n,) + (1,) * len(rest))
        updated = mathfuncs.where(keep, pair[0].astype(x.dtype), x.reshape((n,) + rest))
        x[...] = updated.reshape(x.shape)
        return
    count = flat.astype(dtypes.INT64).sum()
    bound = int(value._data.shape[0])
    position = reductions.cumsum(flat.astype(dtypes.INT64)) - 1
    position = mathfuncs.clip(position, 0, max(bound - 1, 0))
    given = value._sizes[0]
    position = mathfuncs.where(given == 1, 0, position)      # one value fills every position
    rows = value._data.take(position, axis=0) if bound else creation.zeros((n,) + rest, x.dtype)
    ok = (given == count) | (given == 1)
    if not bound:       # no row is read: the empty data's own run-time checks ride on ``ok``
        ok = ok & reductions.all(value._data)       # (True: ``all`` of nothing)
    # setitem's unsafe cast before the select, so ``where`` never promotes (uint64 into
    # int8 through float64 would lose the low bits NumPy keeps); the count check rides on
    # the data (an assert, not ``+ 0``, which would turn -0.0 into 0.0)
    rows = checked(rows.astype(x.dtype), ok, "ValueError",
                   "NumPy boolean array indexing assignment cannot assign the bounded array's "
                   "values to a different number of positions where the mask is true")
    keep = flat.reshape((n,) + (1,) * len(rest))
    updated = mathfuncs.where(keep, rows, x.reshape((n,) + rest))
    x[...] = updated.reshape(x.shape)
