"""Removing and inserting entries along an axis: ``delete``, ``insert`` and ``trim_zeros``.

With indices known at trace time (ints, slices, NumPy arrays: the common case) the kept
positions are NumPy's own answer (``numpy.delete`` of ``arange(n)``, so its index rules and
errors), and the result is a lazy ``take``.  With a lazy boolean or integer ``obj`` the kept
count is data: the result is ``compress``'s bounded array, no sync.

``insert`` with a known ``obj`` works the same way: NumPy's ``insert`` of ``arange(n)`` with
negative markers for the new entries says where each old and new entry lands (NumPy's
ordering of equal indices, its index errors), and the result is one lazy ``take`` from the
array followed by the values.

``trim_zeros`` keeps the box around the nonzero entries: where it starts and stops along each
axis is data, so the result is bounded along the trimmed axes (a lazy slice, no sync).
"""
from __future__ import annotations

import numpy as np

from ..array.arraytype import ndarray, wrap
from ..array.extension import extensible
from ..array.conversion import to_node
from ..expr.shapes import normalize_axis
from .creation import asarray, ones
from .fallbacks import numpy_function
from .indexing.advanced import compress, take
from .joining import concatenate
from .manipulation import broadcast_to, moveaxis, ravel, reshape
from .mathfuncs import where
from .reductions import any as anywhere, argmax

__all__ = ["delete", "insert", "trim_zeros"]


def _along(arr, axis) -> tuple:
    """``(array, axis)`` as ``delete`` and ``insert`` take them: ``axis=None`` flattens."""
    arr = arr if isinstance(arr, ndarray) else wrap(to_node(arr))
    if axis is None:
        return ravel(arr), 0
    return arr, normalize_axis(axis, arr.ndim)


def delete(arr, obj, axis=None):
    """``arr`` without the entries ``obj`` along ``axis`` (flattened when ``axis`` is None)."""
    arr, axis = _along(arr, axis)
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


def insert(arr, obj, values, axis=None):
    """``arr`` with ``values`` inserted before the indices ``obj`` along ``axis`` (flattened
    when ``axis`` is None), as ``numpy.insert``.  ``obj`` is known at trace time (ints,
    slices, sequences, NumPy arrays); a lazy ``obj`` decides the result's length from data
    and is not supported lazily (``NotImplementedError``)."""
    if isinstance(obj, ndarray):
        raise NotImplementedError("lazynum.insert: a lazy obj decides the result's length from "
                                  "data; pass the indices as a list or NumPy array")
    arr, axis = _along(arr, axis)
    n = int(arr.shape[axis])
    values = asarray(values)
    # NumPy's own rules on positions alone: how many entries one obj inserts.
    count = len(np.insert(np.arange(n), obj, 0)) - n
    if np.ndim(obj) == 0 and not isinstance(obj, slice) or count == 1:
        # One place: values get ``arr.ndim`` dims (leading 1s); a scalar obj also moves
        # their first axis to ``axis`` (NumPy: a[:, 0:1] = v broadcasting, not a[:, [0]] = v).
        values = reshape(values, (1,) * max(arr.ndim - values.ndim, 0) + values.shape)
        if np.ndim(obj) == 0 and not isinstance(obj, slice):
            values = moveaxis(values, 0, axis)
        count = int(values.shape[axis])
    placed = np.insert(np.arange(n), obj, -1 - np.arange(count))   # markers: -1 - k
    block_shape = arr.shape[:axis] + (count,) + arr.shape[axis + 1:]
    block = broadcast_to(values.astype(arr.dtype), block_shape)
    positions = np.where(placed >= 0, placed, n - 1 - placed)
    return take(concatenate((arr, block), axis=axis), positions, axis=axis)


def trim_ends(trim: str) -> tuple:
    """``(front, back)`` from NumPy's ``trim`` letters ('f', 'b', either case)."""
    letters = trim.lower()
    if not letters or set(letters) - {"f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    return "f" in letters, "b" in letters


@extensible("trim_zeros")
def trim_zeros(filt, trim="fb", axis=None):
    """``filt`` without its leading (``'f'``) and/or trailing (``'b'``) zeros along ``axis``
    (every axis when None: the box around the nonzero entries), as ``numpy.trim_zeros``.

    A lazy result is bounded along the trimmed axis (its length is data) and, as NumPy's
    slice, a view of ``filt``: writes through either reach the other.  A Python
    sequence is trimmed by NumPy (no lazy data) and stays a sequence.  Trimming more than
    one axis (an n-d ``filt`` with ``axis=None``) runs NumPy's function, a counted fallback:
    a bounded array trims one axis lazily.
    """
    front, back = trim_ends(trim)
    if not isinstance(filt, ndarray):
        if not hasattr(filt, "__array__") and not hasattr(filt, "__array_interface__"):
            return np.trim_zeros(filt, trim, axis)
        filt = wrap(to_node(filt))
    if filt.ndim == 0:
        return filt
    axes = range(filt.ndim) if axis is None else [normalize_axis(a, filt.ndim) for a in
                                                  (axis if isinstance(axis, tuple) else (axis,))]
    if len(axes) > 1:
        return _numpy_trim_zeros(filt, trim, axis)
    nonzero = filt != 0
    result = filt
    for ax in axes:
        n = int(filt.shape[ax])
        if n == 0:
            continue
        along = anywhere(nonzero, axis=tuple(a for a in range(filt.ndim) if a != ax)) \
            if filt.ndim > 1 else nonzero
        found = anywhere(along)
        start = where(found, argmax(along), n) if front else 0
        stop = where(found, n - argmax(along[::-1]), 0) if back else n
        # the axis to the front and back as methods: bounded arrays transpose as views
        order = (ax,) + tuple(a for a in range(filt.ndim) if a != ax)
        result = result.transpose(order)[start:stop].transpose(tuple(np.argsort(order)))
    return result


_numpy_trim_zeros = numpy_function(np.trim_zeros, "numpy.trim_zeros")
