"""``a[key]`` and ``a[key] = value`` for lazynum arrays: the entry points ``ndarray``'s
``__getitem__``/``__setitem__`` are (``frontend.methods`` installs them).

Basic keys (integers, slices, ellipsis, newaxis) are views of the storage (``basic``);
boolean masks give bounded selections (through ``array.extension``: no sync); integer
and boolean index arrays are gathers and scatters (``advanced``).
"""
from __future__ import annotations

import numpy as np

from ...array import extension
from ...array import layout as layouts
from ...array.arraytype import Storage, ndarray, scalar_result, view_node, wrap, wrap_scalar
from ...array.conversion import weak_scalar
from ...expr import dtypes
from ...expr.node import constant, numel
from ...runtime.immediate import is_on as immediate_on, size_limit
from ...runtime.in_place import store_in_place
from .advanced import advanced_getitem, advanced_setitem
from .basic import (_basic_value, _is_basic, _is_scalar_key, _plain_items, base_and_layout,
                    basic_layout, broadcast_value, key_items, write_box)


def _without_bounded(key):
    """A key whose bounded index arrays are made true-size (they index like any array)."""
    if extension.is_extension(key) or (type(key) is tuple and extension.any_extension(key)):
        return extension.hook("materialized")(key)
    return key


_FULL = slice(None)


def _unit_slices_layout(layout, key):
    """``layout`` windowed by ``key``, a slice or a tuple of step-less slices of Python ints
    and ``None`` (new axes) indexing at most ndim dims (``a[1:-1, 2:]``, ``v[None, :]``: the
    hot keys of stencil loops), or None: ``basic_layout`` without the general key parse."""
    items = key if type(key) is tuple else (key,)
    dims = 0
    for item in items:
        if item is None:
            continue
        if type(item) is not slice or item.step is not None or not (
                (item.start is None or type(item.start) is int)
                and (item.stop is None or type(item.stop) is int)):
            return None
        dims += 1
    missing = len(layout[0]) - dims
    if missing < 0:
        return None
    return basic_layout(layout, [*items, *(_FULL,) * missing] if missing else items)


def getitem(self, key):
    """``a[key]``: a view for basic indices, a gather for integer/boolean arrays."""
    kind = type(key)
    if kind is tuple or kind is slice:
        buffer = self._n().buffer
        if buffer is not None:
            layout = _unit_slices_layout(self._layout(), key) if buffer.ndim else None
            if layout is not None:      # computed: NumPy's own slicing gives the value
                return self._window(layout, value=buffer[key])
    ndim = self.ndim
    items = _plain_items(key, ndim)
    if items is not None:
        if all(type(k) is int for k in items):      # NumPy returns a scalar: a copy
            buffer = self._n().buffer
            if buffer is not None:      # computed (a realized value never changes): read now
                return wrap_scalar(constant(np.asarray(buffer[tuple(items)])))
            base, layout = base_and_layout(self)
            return wrap_scalar(view_node(base, basic_layout(layout, items)))
        layout = basic_layout(self._layout(), items)
        buffer = self._node.buffer          # (_n() above made it current)
        if buffer is not None and _is_plain_key(key):
            # computed: NumPy's own slicing gives the window's value (a view of the same
            # elements view_node would pick out of the storage)
            return self._window(layout, value=buffer[key])
        return self._window(layout)
    gathered = _gather_now(self, key)
    if gathered is not None:
        return gathered
    if type(key) is ndarray and key.dtype == dtypes.BOOL and key.ndim:
        selected = _select_now(self, key)
        if selected is not None:
            return selected
        return extension.hook("mask_select")(self, key)     # x[mask]: bounded, no sync
    if type(key) is not int:            # bounded indices, lazy slice bounds
        bounded = (extension.hook("gather")(self, key) if not isinstance(key, slice) else
                   extension.hook("lazy_slice")(self, key))
        if bounded is not None:
            return bounded
    key = _without_bounded(key)
    items, positions = key_items(key, ndim)
    if _is_basic(items):
        if _is_scalar_key(key, items, self.ndim):
            base, layout = base_and_layout(self)
            return wrap_scalar(view_node(base, basic_layout(layout, items)))
        return self._window(basic_layout(self._layout(), items))
    return advanced_getitem(self, items, positions)


def _is_full_mask(key, ndim) -> bool:
    """A single boolean array with the array's dimensions: NumPy's boolean-assignment path,
    which takes only 0-d and 1-d values."""
    return (type(key) in (ndarray, np.ndarray) and key.dtype == dtypes.BOOL and ndim >= 1
            and key.ndim == ndim)


def _own_storage_shape(a):
    """The shape of ``a``'s storage when ``a`` is all of it in C order (a box write of a key
    on ``a`` is then a box of the storage), else None."""
    view = a._view
    if view is None:
        return a._node.shape
    shape = view.storage.node.shape
    return shape if layouts.is_identity(view.layout, shape) else None


def _is_same_window(value, target, region) -> bool:
    """Whether ``value`` is a window reading exactly ``region`` of ``target``'s storage."""
    view = value._view if type(value) is ndarray else None
    return (view is not None and target._view is not None
            and view.storage is target._view.storage and view.layout == region)


def _is_plain_key(key) -> bool:
    """Ints, slices of Python ints and None only (NumPy's setitem means what lazynum's does)."""
    for item in (key if type(key) is tuple else (key,)):
        kind = type(item)
        if kind is slice:
            if not (type(item.start) in _BOUNDS and type(item.stop) in _BOUNDS
                    and type(item.step) in _BOUNDS):
                return False
        elif kind is not int and item is not None:
            return False
    return True


_BOUNDS = (int, type(None))


def _fancy_key(key, limit):
    """``key`` with its lazynum index arrays replaced by their NumPy values, when it is an
    integer-array key (with ints, plain slices, None, ``...``) whose index arrays are computed
    and at most ``limit`` elements; else None (a boolean mask selects a bounded array)."""
    items = key if type(key) is tuple else (key,)
    values, fancy = [], False
    for item in items:
        kind = type(item)
        if kind is ndarray:
            item = item._n().buffer
            if item is None:
                return None
            kind = np.ndarray
        if kind is np.ndarray:
            if item.dtype.kind not in "iu" or item.size > limit:
                return None
            fancy = True
        elif not (kind is int or item is None or item is Ellipsis
                  or kind is slice and _is_plain_key(item)):
            return None
        values.append(item)
    if not fancy:
        return None
    return tuple(values) if type(key) is tuple else values[0]


def _gather_now(self, key):
    """``a[key]`` for an integer-array key on a computed ``a``, by NumPy now (the immediate
    tier: a new array, as NumPy's fancy indexing makes), or None."""
    limit = size_limit()
    if not limit:
        return None
    buffer = self._n().buffer
    if buffer is None:
        return None
    fancy = _fancy_key(key, limit)
    if fancy is None:
        return None
    out = buffer[fancy]
    if type(out) is not np.ndarray:
        return wrap_scalar(constant(np.asarray(out)))       # NumPy returns a scalar
    if out.size > limit or out.base is not None or not out.flags.c_contiguous:
        return None                 # (a transposed result: the general path keeps its order)
    out.flags.writeable = False
    return wrap(constant(out))


def _select_now(self, mask):
    """``a[mask]`` by NumPy now when ``a`` and the boolean ``mask`` are computed and small
    (the immediate tier): its size is known, so the result is an ordinary array of that
    size, not a bounded one (nothing to wait for: no sync, no bound)."""
    limit = size_limit()
    if not limit:
        return None
    buffer, selector = self._n().buffer, mask._n().buffer
    if buffer is None or selector is None or buffer.size > limit or selector.size > limit:
        return None
    out = buffer[selector]
    out.flags.writeable = False
    return wrap(constant(out))


def _computed_value(value, dtype):
    """``value`` as a NumPy array of ``dtype`` when it is a Python number or a computed lazynum
    array of that dtype (setitem's conversion, as ``_basic_value`` makes it), else None."""
    kind = type(value)
    if kind is float or kind is int:
        if dtype.kind == "f" or (kind is int and dtype.kind in "iu"):
            return weak_scalar(value, dtype).buffer
        return None
    if kind is ndarray or kind is scalar_result:
        node = value._n()
        if node.buffer is not None and node.dtype == dtype:
            return node.buffer
    return None


def _store_now(self, key, value) -> bool:
    """The immediate tier's ``a[key] = value`` for a plain or integer-array key on an array
    that is all of its storage (``runtime.in_place.store_in_place``): NumPy's setitem, in
    place or into a copy; True when it was done."""
    view = self._view
    if view is None:
        storage = None
        dtype = self._node.dtype
    else:
        storage = view.storage
        if type(storage) is not Storage or not layouts.is_identity(view.layout, storage.node.shape):
            return False
        dtype = storage.node.dtype
    if not _is_plain_key(key):
        key = _fancy_key(key, size_limit())
        if key is None:
            return False
    # A window of the same storage as the value (h[0, :] = h[1, :]) reads the old version:
    # the write goes into a copy (x[i] = x[i], ending x[i] += v, goes the general way).
    same = (type(value) is ndarray and value._view is not None and view is not None
            and value._view.storage is view.storage)
    if same:
        items = _plain_items(key, len(self._node.shape)) if _is_plain_key(key) else None
        if items is None:
            return False
        if value._view.layout == basic_layout(view.layout, items):
            return True                 # x[i] = x[i]: nothing moves
    try:
        converted = _computed_value(value, dtype)
    except (OverflowError, ValueError, TypeError):
        return False        # the general path raises it, after NumPy's index checks
    return converted is not None and store_in_place(self, storage, key, converted, copy=same)


def setitem(self, key, value):
    """``a[key] = value``: writes through to every view of the same storage."""
    self._check_writeable()       # NumPy's first check: before the key and the value
    if immediate_on() and _store_now(self, key, value):
        return
    if _is_full_mask(key, self.ndim):
        ndim = value.ndim if hasattr(value, "ndim") else np.ndim(value)    # no sync of a lazy value
        if ndim > 1:
            raise TypeError("NumPy boolean array indexing assignment requires a 0 or "
                            f"1-dimensional input, input has {ndim} dimensions")
    if extension.is_extension(value):
        if type(key) is ndarray and key.dtype == dtypes.BOOL and key.ndim:
            return extension.hook("mask_assign")(self, key, value)
        value = value.__lazynum_array__()
    key = _without_bounded(key)
    items, positions = key_items(key, self.ndim)
    if _is_basic(items):
        region = basic_layout(self._layout(), items)
        if _is_same_window(value, self, region):
            return          # ``x[i] = x[i]`` (the store ending ``x[i] += v``): nothing moves
        converted = _basic_value(value, self.dtype)
        # NumPy refuses a sequence into one element: complex() of it raises TypeError for a
        # complex array; a bool array takes a one-element sequence's truth value.
        if converted.shape and _is_scalar_key(key, items, self.ndim):
            if self.dtype.kind == "c":
                raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
            if self.dtype.kind != "b" or numel(converted.shape) != 1:
                raise ValueError("setting an array element with a sequence.")
        box = write_box(items, _own_storage_shape(self))
        self._write(region, broadcast_value(converted, region[0]), box)
        return
    advanced_setitem(self, items, positions, value)
