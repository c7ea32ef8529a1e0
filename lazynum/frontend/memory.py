"""Memory overlap of lazynum arrays: ``shares_memory`` and ``may_share_memory``, lazily.

A lazynum array owns its value or is a window onto a shared ``Storage`` (see
``arraytype``).  Two lazynum arrays share memory iff they are windows on the same storage
whose element sets intersect (an owner shares memory only with itself and its views).
NumPy only ever sees private copies of lazynum arrays, so a lazynum array never shares
memory with a NumPy array.  The answer comes from the layouts alone: no sync.
"""
from __future__ import annotations

import pickle

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


# -- the ndarray's memory surface (methods and attributes, installed by ``methods``) --------
def strides(self) -> tuple:
    """``ndarray.strides``: byte steps of this array's layout over its storage (a view's
    own, a new array's the C order or the memory order NumPy gives that result)."""
    return tuple(int(s) * self.dtype.itemsize for s in self._layout()[1])


def view(self, dtype=None, type=None):  # noqa: A002  (NumPy's keyword)
    """``ndarray.view()``: a new array object over the same storage.  A reinterpretation
    as another dtype or array type is not lazy yet and says so."""
    if dtype is not None or type is not None:
        raise NotImplementedError("lazynum: ndarray.view(dtype) and view(type) are not lazy yet "
                                  "(np.asarray(x).view(...) reinterprets a synced copy)")
    return self._window(self._layout(), readonly=not self.flags.writeable)


def tobytes(self, order="C") -> bytes:
    """``ndarray.tobytes``: the data's bytes (a sync)."""
    return np.asarray(self).tobytes(order)


def tofile(self, fid, sep="", format="%s") -> None:  # noqa: A002
    """``ndarray.tofile``: write the data to a file (a sync)."""
    np.asarray(self).tofile(fid, sep=sep, format=format)


def dumps(self) -> bytes:
    """``ndarray.dumps``: a pickle of the array (a sync)."""

    return pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL)


def dump(self, file) -> None:
    """``ndarray.dump``: pickle the array into ``file`` (a path or a binary file; a sync)."""

    if isinstance(file, (str, bytes)) or hasattr(file, "__fspath__"):
        with open(file, "wb") as handle:
            pickle.dump(self, handle, protocol=pickle.HIGHEST_PROTOCOL)
        return
    pickle.dump(self, file, protocol=pickle.HIGHEST_PROTOCOL)


def setflags(self, write=None, align=None, uic=None) -> None:
    """``ndarray.setflags``: only ``write`` means anything for a lazynum array."""
    if uic:
        raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
    if write is not None:
        self.flags.writeable = bool(write)
