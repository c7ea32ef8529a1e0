"""``x.view(dtype)``: a writable window reading another array's bytes as another dtype.

NumPy's view of a dtype is the same memory read differently.  A lazynum storage holds
typed elements, so the view is a window over a ``BitcastStorage``: a storage whose value is
the ``bitcast`` (``expr.reinterpret``) of a part of the base's storage, its *span*, and
whose writes are bitcast back into that span (``view_scatter``).  Versions are the base
storage's, so the view sees later writes to the base and the base sees the view's, nothing
computes, and windows of the view (``v[1:]``, ``v.T``) and views of views are ordinary.

The span: with equal itemsizes, the whole storage (same shape) and the window keeps the
array's own layout, so strides and flags are NumPy's.  With different itemsizes, NumPy
resizes the last axis, which must be contiguous; the span is then the flat range of
storage elements the array touches, and the window keeps the other axes' byte strides
(in units of the new itemsize), so ``strides``, ``flags`` and later reshape-as-view
decisions are NumPy's.  When a byte stride is not a multiple of the new itemsize (int8
rows of odd length read as int16) no typed window can express it: the span is the array
itself and the view is C-contiguous (NumPy's strides differ there; documented).
"""
from __future__ import annotations

import numpy as np

from ..expr import node as nodes
from ..expr.movement import VIEW_SCATTER
from ..expr.reinterpret import ZERO_D_MESSAGE, bitcast_node, bitcast_shape
from ..runtime import register_live
from . import layout as layouts
from .arraytype import (DerivedStorage, Storage, ViewState, ndarray, scalar_result, view_node, wrap,
    wrap_scalar)

CONTIGUOUS_MESSAGE = "To change to a dtype of a different size, the last axis must be contiguous"


class BitcastStorage(DerivedStorage):
    """The storage ``whole`` read through layout ``span`` (None: all of it) as ``dtype``."""
    __slots__ = ("span", "dtype")

    def __init__(self, whole: Storage, span, dtype: np.dtype):
        super().__init__(whole)
        self.span, self.dtype = span, dtype

    def read(self, whole_node):
        return bitcast_node(whole_node if self.span is None else view_node(whole_node, self.span),
                            self.dtype)

    def back(self, value, whole) -> None:
        back = bitcast_node(self._raw_scatter(value, whole) or value, whole.dtype)
        if self.span is None or layouts.is_identity(self.span, whole.shape):
            self.whole.node = back
        elif _covers(self.span, whole):        # the whole storage, flat: a reshape back
            self.whole.node = view_node(back, layouts.identity(whole.shape))
        else:
            self.whole.node = nodes.apply(VIEW_SCATTER, (whole, back), self.span)

    def _raw_scatter(self, value, whole):
        """A write into a bool view, done on the bytes: compiled kernels store bools as
        0/1, which would rewrite the other bytes of the span (a float's bits) as 0/1."""
        if (self.dtype != np.bool_ or value.op is not VIEW_SCATTER or value.buffer is not None
                or value.args[0] is not self._value or whole is not self._read):
            return None
        read = whole if self.span is None else view_node(whole, self.span)
        raw = bitcast_node(read, np.uint8)
        return nodes.apply(VIEW_SCATTER, (raw, bitcast_node(value.args[1], np.uint8)),
                           value.attrs)


def _covers(span, whole) -> bool:
    shape, strides, offset = span
    return len(shape) == 1 and strides[0] == 1 and offset == 0 and shape[0] == whole.size


def _window(storage: Storage, layout, readonly: bool) -> ndarray:
    array = object.__new__(ndarray)
    array._view = ViewState(storage, layout, readonly)
    array._node = None
    if array._n().buffer is None:
        register_live(array)
    return array


def _flat_span(layout, old: np.dtype, new: np.dtype):
    """(span, window layout over the span read as ``new``), or None when an axis's byte
    stride is not a multiple of ``new``'s itemsize.  ``layout``'s last axis is contiguous."""
    shape, strides, offset = layout
    low = high = offset
    for d, s in zip(shape, strides):
        if d > 1:
            if s > 0:
                high = high + (d - 1) * s
            else:
                low = low + (d - 1) * s
    ratio_num, ratio_den = old.itemsize, new.itemsize
    outer = []
    for d, s in zip(shape[:-1], strides[:-1]):
        if d > 1 and (s * ratio_num) % ratio_den:
            return None
        outer.append(s * ratio_num // ratio_den)
    if ((offset - low) * ratio_num) % ratio_den:
        return None
    new_shape = bitcast_shape(shape, old, new)
    window = (new_shape, tuple(outer) + (1,), (offset - low) * ratio_num // ratio_den)
    return ((high - low + 1,), (1,), low), window


def reinterpret(array: ndarray, dtype: np.dtype) -> ndarray:
    """``array.view(dtype)`` for a lazy ``dtype`` (NumPy's rules and errors; no sync)."""
    old = array.dtype
    if isinstance(array, scalar_result):        # a NumPy scalar's view is a new scalar
        node = array._n()
        bitcast_shape(node.shape, old, dtype)   # NumPy's error for another itemsize
        return wrap_scalar(bitcast_node(node, dtype))
    layout = array._layout()
    readonly = array._view is not None and array._view.readonly
    if old.itemsize == dtype.itemsize:
        return _window(BitcastStorage(array._storage(), None, dtype), layout, readonly)
    shape, strides, _ = layout
    if not shape:
        raise ValueError(ZERO_D_MESSAGE)
    size = array.size
    if shape[-1] != 1 and size != 0 and strides[-1] != 1:
        raise ValueError(CONTIGUOUS_MESSAGE)
    new_shape = bitcast_shape(shape, old, dtype)
    if size == 0:                               # no bytes: nothing to alias
        result = wrap(nodes.constant(np.empty(new_shape, dtype), new_shape))
        result.flags.writeable = not readonly
        return result
    spans = _flat_span(layout, old, dtype)
    if spans is None:       # no typed window has NumPy's strides: read the array itself
        spans = (layout, layouts.identity(new_shape))
    span, window = spans
    return _window(BitcastStorage(array._storage(), span, dtype), window, readonly)
