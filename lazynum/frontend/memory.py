"""Memory overlap of lazynum arrays: ``shares_memory`` and ``may_share_memory``, lazily.

A lazynum array owns its value or is a window onto a shared ``Storage`` (see
``arraytype``).  Two lazynum arrays share memory iff they are windows on the same storage
whose element sets intersect (an owner shares memory only with itself and its views).
NumPy only ever sees private copies of lazynum arrays, so a lazynum array never shares
memory with a NumPy array.  The answer comes from the layouts alone: no sync.
"""
from __future__ import annotations

import numpy as np

from ..array.arraytype import ndarray
from ..expr.movement import view_extent

__all__ = ["shares_memory", "may_share_memory"]


def _layouts(a, b):
    """The layouts of ``a`` and ``b`` over one storage, or None if they never overlap."""
    if a is b:
        return a._layout(), a._layout()
    view_a, view_b = a._view, b._view
    if view_a is None or view_b is None or view_a.storage is not view_b.storage:
        return None
    return view_a.layout, view_b.layout


def _overlap(a, b, max_work, exact_default):
    """NumPy's answer for two arrays of which at least one is lazy.

    Disjoint element extents never share.  Bounds only (``may_share_memory``'s default):
    intersecting extents may share.  Otherwise NumPy's own solver (``max_work`` and
    ``TooHardError`` as in NumPy) runs on stand-in one-byte-per-element arrays with the same
    layouts over a scratch buffer that is never read.
    """
    if not (isinstance(a, ndarray) and isinstance(b, ndarray)):
        return False
    layouts = _layouts(a, b)
    if layouts is None:
        return False
    extents = [view_extent(*layout) for layout in layouts]
    if extents[0] is None or extents[1] is None:
        return False
    (low_a, high_a), (low_b, high_b) = extents
    if high_a < low_b or high_b < low_a:
        return False
    if not exact_default and (max_work is None or max_work == 0):   # bounds only
        return True
    low = min(low_a, low_b)
    scratch = np.empty(max(high_a, high_b) - low + 1, np.uint8)
    stand_ins = [np.lib.stride_tricks.as_strided(scratch[offset - low:], shape, strides)
                 for shape, strides, offset in layouts]
    solve = np.shares_memory if exact_default else np.may_share_memory
    return bool(solve(*stand_ins, max_work=max_work))


def shares_memory(a, b, /, max_work=-1):
    """Whether ``a`` and ``b`` share memory (``numpy.shares_memory``; exact by default).

    For lazynum arrays this is decided from their layouts, without computing anything.
    """
    if isinstance(a, ndarray) or isinstance(b, ndarray):
        return _overlap(a, b, max_work, True)
    return np.shares_memory(a, b, max_work=max_work)


def may_share_memory(a, b, /, max_work=0):
    """Whether ``a`` and ``b`` might share memory (``numpy.may_share_memory``; by default
    only the bounds are compared).  No sync for lazynum arrays."""
    if isinstance(a, ndarray) or isinstance(b, ndarray):
        return _overlap(a, b, max_work, False)
    return np.may_share_memory(a, b, max_work=max_work)
