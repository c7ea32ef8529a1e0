"""Gather/scatter primitives and the run-time index check.

Index bounds depend on data, so they are checked when the graph runs: ``check_index``
normalizes negative indices and raises NumPy's IndexError at the sync, naming the op and
the user line that traced it.  ``take``/``scatter`` then trust their (normalized) indices.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .registry import register
from .shapes import broadcast_shapes


def _int_dtype(node, what):
    if node.dtype.kind not in "iu":
        raise IndexError(f"{what}: arrays used as indices must be of integer type, got {node.dtype}")


def _check_index_shape(args, attrs):
    _int_dtype(args[0], "check_index")
    return args[0].shape


def normalize_indices(idx: np.ndarray, size: int, axis: int) -> np.ndarray:
    """Integer indices for an axis of ``size`` as a new non-negative int64 array; NumPy's
    IndexError for any out of bounds.  uint64 is compared before the cast to int64, which
    would wrap its largest values.  (The front end applies it to host indices at the call;
    ``check_index`` applies it to lazy ones at the sync.)"""
    out = idx.astype(np.int64)
    bad = (idx >= size) if idx.dtype == np.uint64 else (out < -size) | (out >= size)
    if bad.any():
        raise IndexError(f"index {idx[bad].flat[0]} is out of bounds for axis {axis} with size {size}")
    np.add(out, size, out=out, where=out < 0)
    return out


def _check_index_reference(arrays, attrs):
    return normalize_indices(arrays[0], *attrs)


CHECK_INDEX = register(
    "check_index", "index", shape=_check_index_shape, dtype=lambda args, attrs: dtypes.INT64,
    reference=_check_index_reference, may_fail=True,
    doc="Normalize integer indices into [0, size) for axis; IndexError at run time if out of bounds.")


def _take_shape(args, attrs):
    x, idx = args
    (axis,) = attrs
    if idx.dtype != dtypes.INT64:
        raise TypeError("take primitive needs normalized int64 indices (check_index)")
    return x.shape[:axis] + idx.shape + x.shape[axis + 1:]


TAKE = register("take", "index", shape=_take_shape, dtype=lambda args, attrs: args[0].dtype,
                reference=lambda arrays, attrs: np.take(arrays[0], arrays[1], axis=attrs[0]),
                doc="Gather along attrs[0] with normalized int64 indices.")


def _along_shape(args, attrs):
    x, idx = args[0], args[1]
    (axis,) = attrs
    if idx.dtype != dtypes.INT64 or len(idx.shape) != len(x.shape):
        raise TypeError("take_along_axis primitive needs normalized int64 indices of equal rank")
    outer_x = x.shape[:axis] + (1,) + x.shape[axis + 1:]
    outer_i = idx.shape[:axis] + (1,) + idx.shape[axis + 1:]
    outer = broadcast_shapes(outer_x, outer_i)
    return outer[:axis] + (idx.shape[axis],) + outer[axis + 1:]


TAKE_ALONG_AXIS = register(
    "take_along_axis", "index", shape=_along_shape, dtype=lambda args, attrs: args[0].dtype,
    reference=lambda arrays, attrs: np.take_along_axis(arrays[0], arrays[1], axis=attrs[0]),
    doc="numpy.take_along_axis with normalized int64 indices.")


def _scatter_shape(args, attrs):
    base, idx, values = args
    if idx.dtype != dtypes.INT64 or values.shape != idx.shape or values.dtype != base.dtype:
        raise TypeError("scatter needs int64 flat indices and values of the index shape and base dtype")
    return base.shape


def _scatter_inplace(arrays, attrs):
    base, idx, values = arrays
    base.reshape(-1)[idx] = values
    return base


def _scatter_add_inplace(arrays, attrs):
    base, idx, values = arrays
    np.add.at(base.reshape(-1), idx, values)
    return base


def _on_a_copy(inplace):
    return lambda arrays, attrs: inplace([np.array(arrays[0], copy=True, order="C"), *arrays[1:]], attrs)


SCATTER = register("scatter", "index", shape=_scatter_shape, dtype=lambda args, attrs: args[0].dtype,
                   reference=_on_a_copy(_scatter_inplace), reference_inplace=_scatter_inplace,
                   doc="Copy of base with base.flat[idx] = values (the last duplicate wins).")
SCATTER_ADD = register("scatter_add", "index", shape=_scatter_shape,
                       dtype=lambda args, attrs: args[0].dtype,
                       reference=_on_a_copy(_scatter_add_inplace), reference_inplace=_scatter_add_inplace,
                       doc="Copy of base with values added at flat idx (duplicates accumulate).")


def _put_along_shape(args, attrs):
    base, idx, values = args
    if values.shape != idx.shape or values.dtype != base.dtype:
        raise TypeError("put_along_axis primitive needs values of the index shape and base dtype")
    _along_shape((base, idx), attrs)
    return base.shape


def _put_along_reference(arrays, attrs):
    base, idx, values = arrays
    out = np.array(base, copy=True, order="C")
    np.put_along_axis(out, idx, values, axis=attrs[0])
    return out


PUT_ALONG_AXIS = register(
    "put_along_axis", "index", shape=_put_along_shape, dtype=lambda args, attrs: args[0].dtype,
    reference=_put_along_reference, doc="numpy.put_along_axis on a copy of base.")
