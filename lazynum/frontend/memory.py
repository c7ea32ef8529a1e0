"""Memory overlap of lazynum arrays: ``shares_memory`` and ``may_share_memory``, lazily.

A lazynum array owns its value or is a window onto a shared ``Storage`` (see
``arraytype``).  Two lazynum arrays share memory iff they are windows on the same storage
whose element sets intersect (an owner shares memory only with itself and its views).
NumPy only ever sees private copies of lazynum arrays, so a lazynum array never shares
memory with a NumPy array.  The answer comes from the layouts alone: no sync.
"""
from __future__ import annotations

import builtins
import math
import operator
import pickle
import sys
import types
import weakref

import numpy as np

from ..array import layout as layouts
from ..array.arraytype import ndarray, scalar_result, wrap
from ..array.conversion import to_array
from ..array.reinterpret import reinterpret
from ..expr import dtypes
from ..expr import node as nodes
from ..expr.extern import BYTESWAP
from ..expr.movement import view_extent
from . import fallbacks, joining, manipulation

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
    """``ndarray.view()``: a new array object over the same memory.

    Parameters
    ----------
    dtype : data-type or ndarray subclass, optional
        Read the bytes as this dtype: a lazy, writable view (``array.reinterpret``) with
        NumPy's rules (an other itemsize resizes the last axis, which must be contiguous;
        a 0-d array keeps its itemsize).  A dtype with no lazy form is NumPy's view of a
        synced copy (``lazynum.eager``: a counted fallback that no longer aliases).
    type : ndarray subclass, optional
        ``numpy.ndarray`` or a lazynum array type: a lazynum array.  Another subclass
        (``numpy.matrix``, ``numpy.recarray``) is NumPy's view of a synced copy (a counted
        fallback: writes to it do not reach this array).
    """
    if type is None and isinstance(dtype, builtins.type) and issubclass(dtype, (np.ndarray, ndarray)):
        dtype, type = None, dtype           # NumPy's view(ndarray_subclass)
    if type is not None and not (isinstance(type, builtins.type)
                                 and issubclass(type, (np.ndarray, ndarray))):
        raise ValueError("Type must be a sub-type of ndarray type")
    if type is not None and type is not np.ndarray and not issubclass(type, ndarray):
        args = (self,) if dtype is None else (self, dtype)
        return fallbacks.fallback(f"ndarray.view(type={type.__name__})", _numpy_view(type),
                                  args, {}, numpy_result=True)
    if dtype is not None:
        dtype = dtypes.normalize(dtype)
        if dtype != self.dtype:
            return reinterpret(self, dtype)
    return self._window(self._layout(), readonly=not self.flags.writeable)


def _numpy_view(subclass):
    def numpy_view(data, dtype=None):
        return data.view(subclass) if dtype is None else data.view(dtype, subclass)
    return numpy_view


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


# -- handing the data to C code: private, read-only copies kept alive by the array ----------
# lazynum's computed buffers are immutable and shared between arrays, so what C code sees
# is a copy; a consumer that keeps only a pointer (``x.ctypes.data``) must find it alive,
# so each array keeps its latest exported copy until it dies.
_exported: dict = {}     # id(array) -> its latest exported copy


def _export(self, reason: str) -> np.ndarray:
    copy = np.array(self._value(reason), copy=True)
    copy.flags.writeable = False
    key = id(self)
    if key not in _exported:
        weakref.finalize(self, _exported.pop, key, None)
    _exported[key] = copy
    return copy


def ctypes_view(self):
    """``ndarray.ctypes`` of a read-only copy of the computed value (a sync): its pointer
    stays valid while this array lives."""
    return _export(self, "ctypes").ctypes


def data(self) -> memoryview:
    """``ndarray.data``: a read-only memoryview of the computed value (a sync)."""
    return memoryview(_export(self, "data"))


# -- NumPy's other in-memory methods -----------------------------------------------------------
def byteswap(self, inplace=False):
    """``ndarray.byteswap``: every element's bytes reversed, lazily (``inplace``: stored
    into this array, through every view of it, and returned)."""
    swapped = wrap(nodes.apply(BYTESWAP, (self._n(),)))
    if not inplace:
        return swapped
    self[...] = swapped
    return self


_RESIZE_REFERENCED = ("cannot resize an array that references or is referenced\nby another "
                      "object in this way.\nUse the np.resize function to get a new resized "
                      "copy or\n set refcheck=False to disable this check")


def resize(self, *new_shape, refcheck=True):
    """``ndarray.resize``: change this array's shape and size in place; the C-order data
    is kept, truncated or padded with zeros.  As in NumPy, a view cannot be resized, nor an
    array other views look at (``refcheck``)."""
    if len(new_shape) == 1 and (new_shape[0] is None or isinstance(new_shape[0], (tuple, list))):
        new_shape = () if new_shape[0] is None else tuple(new_shape[0])
    if not new_shape:
        return None
    shape = tuple(int(d.__index__()) for d in new_shape)
    if any(d < 0 for d in shape):
        raise ValueError("negative dimensions not allowed")
    view = self._view
    if view is not None:
        if not layouts.is_identity(view.layout, view.storage.node.shape):
            raise ValueError("cannot resize this array: it does not own its data")
        # The storage is held by this array's view state and by every other window on it.
        if refcheck and sys.getrefcount(view.storage) > 2:
            raise ValueError(_RESIZE_REFERENCED)
    self._check_writeable()
    flat = manipulation.ravel(self)
    size, old = math.prod(shape), flat.shape[0]
    if size <= old:
        flat = flat[:size]
    else:
        flat = joining.concatenate((flat, np.zeros(size - old, dtype=self.dtype)))
    value = manipulation.reshape(flat, shape)._n()
    current = self._n()
    self._view = None           # no other window remains: this array owns its new value
    self._node = current
    self._replace_storage(value)
    return None


def delitem(self, key):
    """``del x[key]``: NumPy's error (arrays have a fixed size)."""
    raise ValueError("cannot delete array elements")


def array_wrap(self, array, context=None, return_scalar=False):
    """``ndarray.__array_wrap__``: ``array`` as a lazynum array (a scalar when asked)."""
    result = to_array(array)
    return result[()] if return_scalar and result.ndim == 0 else result


def array_finalize(self, obj) -> None:
    """``ndarray.__array_finalize__``: nothing to carry over (no subclass state)."""
    return None


def getfield(self, dtype, offset=0):
    """``ndarray.getfield``: the ``dtype`` value at byte ``offset`` of every element, as a view
    (NumPy's): writes through it change those bytes of this array, and it sees later writes.

    Built from lazy views of memory: each element's bytes as a trailing axis
    (``x[..., None].view(uint8)``), the field's bytes, read as ``dtype``.  A NumPy scalar's
    field is a scalar.
    """
    dtype = np.dtype(dtype)
    offset = operator.index(offset)
    if offset < 0:
        raise ValueError("offset is negative")
    if dtype.itemsize > self.dtype.itemsize:
        raise ValueError("new type is larger than original type")
    if offset + dtype.itemsize > self.dtype.itemsize:
        raise ValueError("new type plus offset is larger than original type")
    item_bytes = self[..., None].view(np.uint8)
    field = item_bytes[..., offset:offset + dtype.itemsize].view(dtype)[..., 0]
    return field[()] if isinstance(self, scalar_result) else field


def setfield(self, val, dtype, offset=0):
    """``ndarray.setfield``: write ``val`` into the ``dtype`` field at byte ``offset`` of every
    element (``getfield``'s view, assigned)."""
    getfield(self, dtype, offset)[...] = val


# Not defined, on purpose: ``__array_interface__``, ``__array_struct__`` and the buffer
# protocol (``__buffer__``).  NumPy's conversion reads them *before* ``__array__``, so
# ``numpy.asarray(x)`` would become a read-only alias of an export instead of the writable
# copy NumPy users get (and ``copy=False`` would stop raising).
ndarray.ctypes = property(ctypes_view)
ndarray.data = property(data)
ndarray.byteswap = byteswap
ndarray.resize = resize
ndarray.__delitem__ = delitem
ndarray.__array_wrap__ = array_wrap
ndarray.__array_finalize__ = array_finalize
ndarray.getfield = getfield
ndarray.setfield = setfield
ndarray.__class_getitem__ = classmethod(types.GenericAlias)
