"""``trim_zeros`` of a bounded array: NumPy's slice of its input, without a sync.

Where the nonzero entries start and stop along the axis is data, read from the padded
data under the valid mask (padding is never a nonzero entry); the result is a dynamic
window over the input's data (``window.py``), so it is a view as NumPy's result is.
"""
from __future__ import annotations

from ..expr.shapes import normalize_axis
from ..frontend import mathfuncs, reductions
from ..frontend.editing import trim_ends
from .array import BoundedArray
from .indexing import window_slice


def trim_zeros(filt: BoundedArray, trim="fb", axis=None, *, plain=None):
    """``numpy.trim_zeros`` of a bounded ``filt`` along one axis (the only axis of a 1-d
    array, or ``axis``); trimming several axes runs ``plain`` on the true-size array."""
    front, back = trim_ends(trim)
    axes = range(filt.ndim) if axis is None else [normalize_axis(a, filt.ndim) for a in
                                                  (axis if isinstance(axis, tuple) else (axis,))]
    if len(axes) != 1:
        return plain(filt.materialize(), trim, axis)
    (ax,) = axes
    bound = int(filt._data.shape[ax])
    if bound == 0:
        return filt
    nonzero = (filt._data != 0) & filt.valid_mask()
    others = tuple(a for a in range(filt.ndim) if a != ax)
    along = reductions.any(nonzero, axis=others) if others else nonzero
    found = reductions.any(along)
    extent = filt._sizes[ax] if filt._sizes[ax] is not None else bound
    start = mathfuncs.where(found, reductions.argmax(along), extent) if front else None
    stop = mathfuncs.where(found, bound - reductions.argmax(along[::-1]), 0) if back else None
    return window_slice(filt._data, filt._sizes, slice(start, stop), ax)
