"""In-place writes of the immediate tier: a write into a computed array is made in its memory
when nothing else can read the value it replaces.

A lazynum write is functional: it makes a new version of the array's storage, and every
reader of the old version (a pending node, a snapshot, a result sharing its memory) keeps
it.  On the immediate tier the storage and the written value are computed, and usually the
old version has no reader left: copying it into the new one is then pure overhead (a 9x64x64
lattice-Boltzmann field copied for each of its 17 slice writes per step, a 300x300 LU
matrix per column).  Python's reference counts say exactly who can still read it: the
storage's node and buffer may be held only by the storage, the window written through and
the owner the storage was made for (views: they see the write, as NumPy's do).  Then the
write is NumPy's own, into the buffer, and a new node over the same buffer becomes the
storage's next version, so nothing keyed on the old node's identity outlives its value.
Otherwise the write is the usual new version.  Only with the tier on: with it off a write
stays a recorded ``view_scatter``, as the tests count them.
"""
from __future__ import annotations

import sys

import numpy as np

from ..control import telemetry as metrics
from ..expr import fp_state, node as node_mod
from ..expr.movement import strided_window
from . import fp_errors
from .immediate import count, extobj_contextvar, fp_logging

_new_node = object.__new__
_next_id = metrics.node_ids.__next__
Node = node_mod.Node


# References to a storage's node and to its buffer that ``write_in_place`` itself accounts
# for: the holder's attribute, the local name, and ``sys.getrefcount``'s argument.
_OWN_REFERENCES = 3


def _views_reading(node, array, storage) -> int:
    """How many of the arrays known to view ``storage`` (the one written through and the
    owner it was made for) hold its ``node``: they see the write, as NumPy's views do."""
    owner = storage.owner() if storage.owner is not None else None
    count = array._node is node
    if owner is not None and owner is not array and owner._view is not None \
            and owner._view.storage is storage:
        count += owner._node is node
    return count


def write_in_place(array, storage, region, value) -> bool:
    """Write computed ``value`` (``region``'s shape, the storage's dtype) into the buffer of
    ``storage``'s computed node, in place, when nothing but the storage and its views can see
    that node or its buffer (see the module docstring); True when it did.  ``storage`` is a
    plain ``Storage``, not one derived from another; ``array`` is the window written
    through."""
    if not node_mod.thread.state.immediate_below:
        return False
    old = storage.node
    buffer = old.buffer
    if (buffer is None or value.buffer is None or old.args or buffer.base is not None
            or value.dtype != old.dtype or not buffer.flags.c_contiguous):
        return False
    if sys.getrefcount(old) != _OWN_REFERENCES + _views_reading(old, array, storage):
        return False
    if sys.getrefcount(buffer) != _OWN_REFERENCES:
        return False
    writeable = buffer.flags.writeable
    buffer.flags.writeable = True
    try:
        target = strided_window(buffer.reshape(-1), *region, writeable=True)
        target[...] = value.buffer
    finally:
        buffer.flags.writeable = writeable
    del target
    _publish(array, storage, old, buffer)
    return True


def store_in_place(array, storage, key, value, copy=False) -> bool:
    """``array[key] = value`` by NumPy's own setitem, now, on ``array``'s computed value:
    into its buffer when ``array`` is all of its storage and nobody else can see the old
    value (see ``write_in_place``), else into a copy of it (the write's new version, made
    as NumPy would make it, without recording the write); True when it did.  ``key`` is a
    plain or integer-array key and ``value`` a NumPy array of the array's dtype: the
    conversions lazynum's setitem makes are done.  ``storage`` is ``array``'s plain
    ``Storage``, or None for an owner never viewed; ``copy``: into a copy in any case (the
    value reads the old version's memory).  The new value is a new node."""
    if not node_mod.thread.state.immediate_below:
        return False
    if storage is None:
        old = array._node
        holders = 1                                   # array._node
    else:
        old = storage.node
        holders = 1 + _views_reading(old, array, storage)
    buffer = old.buffer
    if buffer is None or old.args:
        return False
    if (not copy and buffer.base is None and buffer.flags.c_contiguous
            and sys.getrefcount(old) == holders + 2 and sys.getrefcount(buffer) == _OWN_REFERENCES):
        writeable = buffer.flags.writeable
        buffer.flags.writeable = True
        try:
            buffer[key] = value
        finally:
            buffer.flags.writeable = writeable
    else:           # the old value has readers (a copy sharing it, a view, a pending node)
        buffer = buffer.copy()
        buffer[key] = value
        buffer.flags.writeable = False
    _publish(array, storage, old, buffer)
    return True


def _publish(array, storage, old, buffer) -> None:
    """Make a new node over ``buffer`` (written in place) the next version of ``storage``
    (of ``array``'s own value when None).  The arrays that held ``old`` (all of the storage)
    hold the new one: left holding ``old``, each would keep a second reference to the
    buffer, and the next write could not be made in place."""
    new = node_mod.constant(buffer, old.shape)
    if storage is None:
        array._node = new
    else:
        storage.node = new
        storage.version += 1
        owner = storage.owner() if storage.owner is not None else None
        for holder in (array, owner):
            if holder is not None and holder._node is old:
                holder._node = new
                holder._view.version = storage.version
    count()


def update_in_place(op, ufunc, target, storage, other) -> bool:
    """``target op= other`` by NumPy's own in-place ufunc call into the memory of ``target``,
    a computed window of the plain ``storage``, when nothing but ``target`` can see the old
    value (see ``write_in_place``: here the window's own view of the buffer is accounted
    for); True when it did.  ``other`` is a NumPy value (a lazynum operand's, computed).
    ``op`` is the ufunc's lazynum op, the new version's node's: NumPy's floating-point
    errors are reported at the user's line as the tier reports them, after the write, as
    NumPy's in-place operators raise them after writing."""
    if not node_mod.thread.state.immediate_below or extobj_contextvar is None:
        return False
    old = storage.node
    buffer = old.buffer
    held = target._node
    if (buffer is None or held is None or held.buffer is None or old.args
            or buffer.base is not None or not buffer.flags.c_contiguous
            or held.buffer.base is not buffer or not held.buffer.size):
        return False
    # held: target._node, this name, the argument; its view: the attribute, the argument
    if sys.getrefcount(held) != 3 or sys.getrefcount(held.buffer) != 2:
        return False
    if sys.getrefcount(old) != _OWN_REFERENCES + _views_reading(old, target, storage):
        return False
    if sys.getrefcount(buffer) != _OWN_REFERENCES + 1:       # + the window's view
        return False
    view = held.buffer
    lines = fp_logging.lines
    writeable = buffer.flags.writeable
    buffer.flags.writeable = True
    token = fp_logging.enter()
    try:
        out = np.ndarray(view.shape, view.dtype, buffer, _offset(view, buffer), view.strides)
        ufunc(out, other, out=out)
    finally:
        extobj_contextvar.reset(token)
        buffer.flags.writeable = writeable
    _publish(target, storage, old, buffer)
    node = _new_node(Node)
    node.op, node.args, node.attrs, node.shape, node.dtype = op, (), (), held.shape, held.dtype
    node.buffer, node.id, node.site = view, _next_id(), None
    target._node = node                   # the window's new value: the same elements
    target._view.version = storage.version
    if lines.lines:
        fp_errors.report([node], [(0, lines.take())], fp_state.current(), metrics.user_frame())
    return True


def _offset(view, buffer) -> int:
    """Byte offset of ``view``'s first element in ``buffer`` (a view of it)."""
    return view.__array_interface__["data"][0] - buffer.__array_interface__["data"][0]
