"""NumPy's functions that write into an array: ``copyto``, ``putmask``, ``fill_diagonal``.

Each is a lazy write into the destination's storage (so its views see it), with NumPy's
casting rules checked at the call: a value NumPy would refuse raises NumPy's exception
there, before anything is written.  A NumPy destination (``numpy.copyto(numpy_array,
lazy)``) is NumPy's to write: its lazy arguments are synced and NumPy's function runs.
"""
from __future__ import annotations

import numpy as np

from ..array import extension
from ..array.arraytype import ndarray
from .fallbacks import fallback
from .joining import resize
from .mathfuncs import where as select_where

__all__ = ["copyto", "putmask", "fill_diagonal"]


def _converted(value, dtype, casting):
    """``value`` cast to ``dtype`` as NumPy's ``copyto`` casts it (its errors, its rules)."""
    if isinstance(value, ndarray):
        if not np.can_cast(value.dtype, dtype, casting):
            raise TypeError(f"Cannot cast array data from {value.dtype!r} to {dtype!r} "
                            f"according to the rule {casting!r}")
        return value.astype(dtype, copy=False)
    converted = np.empty(np.shape(value), dtype)
    np.copyto(converted, value, casting=casting)       # NumPy's checks of a known value
    return converted


def _same_window(a, b) -> bool:
    """Whether ``a`` and ``b`` are one window of one storage (NumPy compares data pointers,
    strides and dtypes: ``copyto(broadcast_to(v, v.shape), v)`` is a no-op)."""
    return (isinstance(b, ndarray) and a._view is not None and b._view is not None
            and a._view.storage is b._view.storage and a._view.layout == b._view.layout
            and a.dtype == b.dtype)


def copyto(dst, src, casting="same_kind", where=True):
    """Copy ``src`` into ``dst`` (broadcast, cast by ``casting``) where ``where`` is true."""
    if not isinstance(dst, ndarray) or extension.any_extension((src, where)):
        # NumPy's destination, or a bounded source (NumPy compares its true-size window)
        return fallback("numpy.copyto", np.copyto, (dst, src), {"casting": casting, "where": where})
    if _same_window(dst, src):
        return None             # NumPy returns before its read-only check: nothing changes
    dst._check_writeable()      # then refuses a read-only destination before any casting
    value = _converted(src, dst.dtype, casting)
    np.broadcast_shapes(np.shape(value), dst.shape)      # NumPy's ValueError for shapes
    if where is True:
        dst[...] = value
        return None
    if isinstance(where, ndarray):
        if not np.can_cast(where.dtype, np.bool_, "safe"):
            raise TypeError(f"Cannot cast array data from {where.dtype!r} to dtype('bool') "
                            "according to the rule 'safe'")
    else:
        where = _converted(where, np.dtype(np.bool_), "safe")
    np.broadcast_shapes(np.shape(where), dst.shape)
    dst[...] = select_where(where, value, dst)
    return None


def putmask(a, mask, values):
    """Set ``a``'s elements where ``mask`` is true to ``values`` repeated over ``a``'s flat
    positions (NumPy's ``putmask``: value ``i`` goes to flat position ``i % len(values)``)."""
    if not isinstance(a, ndarray):
        if isinstance(a, np.ndarray):
            return fallback("numpy.putmask", np.putmask, (a, mask, values), {})
        raise TypeError("putmask: first argument must be an array")
    if np.size(mask) != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    if np.size(values) == 0:
        return None
    if not isinstance(values, ndarray):
        values = np.asarray(values).astype(a.dtype)      # NumPy casts the values unsafely
    full = resize(values.astype(a.dtype, copy=False), a.shape)
    mask = (mask if isinstance(mask, ndarray) else np.asarray(mask)).astype(bool).reshape(a.shape)
    a[...] = select_where(mask, full, a)
    return None


def _diagonal_positions(shape, wrap):
    """The index arrays of the positions NumPy's ``fill_diagonal`` writes (flat stepping)."""
    if len(shape) < 2:
        raise ValueError("array must be at least 2-d")
    if len(shape) == 2:
        step = shape[1] + 1
        end = None if wrap else shape[1] * shape[1]
    else:
        if any(d != shape[0] for d in shape):
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(np.cumprod(shape[:-1]).sum())
        end = None
    size = int(np.prod(shape))
    flat = np.arange(size)[:end:step]
    return np.unravel_index(flat, shape)


def fill_diagonal(a, val, wrap=False):
    """Fill the main diagonal of ``a`` in place (NumPy's ``fill_diagonal``: ``val`` repeats
    along the diagonal; ``wrap`` continues a tall matrix's diagonal every ``cols + 1`` rows)."""
    if not isinstance(a, ndarray):
        return fallback("numpy.fill_diagonal", np.fill_diagonal, (a, val), {"wrap": wrap})
    positions = _diagonal_positions(tuple(int(d) for d in a.shape), wrap)
    count = len(positions[0])
    if np.ndim(val) == 0 and not isinstance(val, ndarray):
        a[positions] = val
        return None
    if np.size(val) == 0 or count == 0:
        return None
    values = val if isinstance(val, ndarray) else np.asarray(val)
    a[positions] = resize(values.astype(a.dtype), count)
    return None
