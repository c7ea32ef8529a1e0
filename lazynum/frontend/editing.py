"""Removing entries along an axis: ``delete``.

With indices known at trace time (ints, slices, NumPy arrays: the common case) the kept
positions are NumPy's own answer (``numpy.delete`` of ``arange(n)``, so its index rules and
errors), and the result is a lazy ``take``.  With a lazy boolean or integer ``obj`` the kept
count is data: the result is ``compress``'s bounded array, no sync.
"""
from __future__ import annotations

import numpy as np

from ..array.arraytype import ndarray, wrap
from ..array.conversion import to_node
from ..expr.shapes import normalize_axis
from .creation import ones
from .indexing.advanced import compress, take
from .manipulation import ravel

__all__ = ["delete"]


def delete(arr, obj, axis=None):
    """``arr`` without the entries ``obj`` along ``axis`` (flattened when ``axis`` is None)."""
    arr = arr if isinstance(arr, ndarray) else wrap(to_node(arr))
    if axis is None:
        arr, axis = ravel(arr), 0
    else:
        axis = normalize_axis(axis, arr.ndim)
    n = int(arr.shape[axis])
    if isinstance(obj, ndarray):
        if obj.dtype == np.bool_:
            if obj.shape != (n,):
                raise ValueError("boolean array argument obj to delete must be one dimensional "
                                 f"and match the axis length of {n}")
            return compress(~obj, arr, axis=axis)
        if obj.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        keep = ones(n, bool)
        keep[obj] = False                      # NumPy's bounds check, at the sync
        return compress(keep, arr, axis=axis)
    kept = np.delete(np.arange(n), obj)        # NumPy's index rules and errors
    return take(arr, kept, axis=axis)
