"""The immediate tier: small operations on computed arrays run at once, as NumPy calls.

A lazy op costs its trace (a node), then at the sync a share of the graph's signature, of
the cache lookup and of the run; on a 10^3-element array all of that is overhead next to
NumPy's own call (about a microsecond).  Loops over small arrays (an ODE state of 64
numbers, a 40x40 Jacobi grid with a convergence test each step) paid it on every op and
on every sync.  So when a new node's arguments are all computed, its op allows it
(``Op.immediate``) and its inputs and result have at most ``LAZYNUM_IMMEDIATE_BELOW``
elements each (a reduction of a large array is work that fuses, not overhead),
``node.immediate_hook`` computes it now, by the op's NumPy reference (the call the
interpreter tier would make at the sync), and realizes it: the node is a leaf from birth.
Nothing else changes: its consumers see a computed argument (and may run immediately too),
a sync that needs it finds nothing to do, large arrays and anything reading a pending
value stay lazy and fuse as before.

Errors surface where NumPy raises them, at the call (an index out of bounds, a singular
matrix, ``errstate(divide='raise')``); nothing was written yet, so arrays stay as they
were.  Floating-point errors are collected as the interpreter tier collects them (NumPy's
own words, in ``errstate(all='log')``) and acted on by ``fp_errors.report`` as the state in
effect now says, naming the user's line.
"""
from __future__ import annotations

import sys
import threading

import numpy as np

from ..backends.reference import InternalError, concrete_attrs
from ..control import telemetry as metrics
from ..expr import fp_state, node as node_mod
from ..expr.movement import strided_window
from . import fp_errors

_count = metrics.immediate_ids.__next__

try:        # NumPy's error state is a context variable holding an "extobj" (NumPy >= 2)
    from numpy._core._ufunc_config import _extobj_contextvar
    from numpy._core.umath import _make_extobj
except ImportError:       # pragma: no cover - another NumPy: the public (slower) way
    _extobj_contextvar = None


class _Logging(threading.local):
    """This thread's collector and the NumPy error state that logs into it, made from the
    state it was derived from (``numpy.errstate(all='log', call=lines)`` costs 1.2 us a
    call; setting the context variable to a state made once costs a tenth of that)."""

    def __init__(self):
        self.lines = fp_state.LogLines()
        self.base = self.state = None

    def enter(self):
        current = _extobj_contextvar.get()
        if current is not self.base:     # the user changed it (errstate, setbufsize)
            self.derive(current)
        return _extobj_contextvar.set(self.state)

    def derive(self, current) -> None:
        self.base, self.state = current, _make_extobj(call=self.lines, all="log")


_logging = _Logging()


def _run(op, arrays, attrs, lines):
    if _extobj_contextvar is None:
        with np.errstate(all="log", call=lines):
            return op.reference(arrays, attrs)
    token = _logging.enter()
    try:
        return op.reference(arrays, attrs)
    finally:
        _extobj_contextvar.reset(token)


def compute(node) -> None:
    """Compute ``node`` (its arguments are computed) with NumPy and realize it."""
    attrs = node.attrs
    _evaluate(node, [arg.buffer for arg in node.args], concrete_attrs(attrs) if attrs else attrs)


_new_node = object.__new__
_next_id = metrics.node_ids.__next__
_numel_of = node_mod.numel_of
Node = node_mod.Node


def is_on() -> bool:
    """Whether the calling thread's immediate tier is on."""
    return bool(node_mod.thread.state.immediate_below)


def size_limit() -> int:
    """The calling thread's immediate-tier size limit in elements (0: the tier is off)."""
    return node_mod.thread.state.immediate_below


def call_numpy(function, args, kwargs):
    """``function(*args, **kwargs)`` (a NumPy function on NumPy values) now, or None when it
    met a floating-point error: the caller then takes the general path, which reports it
    as the tier reports errors (the op, the user's line, the error state in effect)."""
    if _extobj_contextvar is None:
        return None
    logging = _logging
    lines = logging.lines
    if lines.lines:
        lines.lines.clear()
    current = _extobj_contextvar.get()
    if current is not logging.base:
        logging.derive(current)
    token = _extobj_contextvar.set(logging.state)
    try:
        out = function(*args, **kwargs)
    finally:
        _extobj_contextvar.reset(token)
    if lines.lines:
        lines.lines.clear()
        return None
    _count()
    return out


def now(op, args, shape, dtype, attrs=(), largest=None):
    """The computed node ``op(*args, attrs)``, or None when the tier does not take it: the
    front end's shortcut past ``apply`` for an op whose arguments are computed, with
    ``shape`` and ``dtype`` from its rules and plain ``attrs``.  ``largest``: the shape of
    its largest argument (a reduction's input), when larger than ``shape`` (an elementwise
    op's arguments have ``shape`` or no dims).  The node is the one ``apply`` would have
    made and realized; ``compute``'s steps, inlined (this is most of a small loop's per-op
    cost)."""
    state = node_mod.thread.state
    limit = state.immediate_below
    if not limit or not op.immediate or _extobj_contextvar is None:
        return None
    bound = shape if largest is None else largest
    size = _numel_of.get(bound)
    if (size if size is not None else node_mod.numel(bound)) > limit:
        return None
    logging = _logging
    lines = logging.lines
    if lines.lines:
        lines.lines.clear()
    current = _extobj_contextvar.get()
    if current is not logging.base:   # the user changed NumPy's state: derive ours anew
        logging.derive(current)
    token = _extobj_contextvar.set(logging.state)
    try:
        out = op.reference([arg.buffer for arg in args], attrs)
    except (IndexError, ValueError, OverflowError) as exc:
        exc.add_note(f"raised by lazynum op {op.name!r} at {metrics.user_frame()}")
        raise
    finally:
        _extobj_contextvar.reset(token)
    if type(out) is not np.ndarray:
        out = np.asarray(out)         # NumPy returns scalars for 0-d results
    if out.dtype != dtype or out.ndim != len(shape):
        raise InternalError(f"op {op.name} produced {out.dtype}{out.shape}, "
                            f"its rules said {dtype}{tuple(map(int, shape))}")
    node = _new_node(Node)
    node.op, node.args, node.attrs, node.shape, node.dtype = op, (), attrs, shape, dtype
    node.buffer = out
    node.id = _next_id()
    node.site = metrics.user_frame() if (state.record_sites or op.may_fail) else None
    if lines.lines:
        fp_errors.report([node], [(0, lines.take())], fp_state.current(), metrics.user_frame())
    _count()
    return node


def _evaluate(node, arrays, attrs) -> None:
    op = node.op
    lines = _logging.lines
    lines.lines.clear()
    try:
        out = _run(op, arrays, attrs, lines)
    except (IndexError, ValueError, OverflowError) as exc:
        exc.add_note(f"raised by lazynum op {op.name!r} at {metrics.user_frame()}")
        raise
    if type(out) is not np.ndarray:
        out = np.asarray(out)         # NumPy returns scalars for 0-d results
    if out.dtype != node.dtype or out.shape != node.shape:
        raise InternalError(f"op {op.name} produced {out.dtype}{out.shape}, "
                            f"its rules said {node.dtype}{tuple(map(int, node.shape))}")
    if lines.lines:
        fp_errors.report([node], [(0, lines.take())], fp_state.current(), metrics.user_frame())
    node.buffer = out
    node.args = ()
    _count()


node_mod.immediate_hook = compute


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
    that node or its buffer; True when it did.  (``storage`` is a plain ``Storage``, not
    one derived from another; ``array`` is the window written through.)

    A write is functional: it makes a new version of the storage, and every reader of the
    old version keeps it.  When the old version has no reader left (no pending node, no
    window or result sharing its memory: their references show in the reference counts),
    copying it into the new one is pure overhead (a 9x64x64 lattice-Boltzmann field copied
    for each of its 17 slice writes per step).  A new node over the same buffer becomes the
    storage's next version (``_publish``), so nothing keyed on the old node's identity
    outlives its value.  Only with the immediate tier on: with it off a
    write stays a recorded ``view_scatter``, as the tests count them.
    """
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


def store_in_place(array, storage, key, value) -> bool:
    """``array[key] = value`` by NumPy's own setitem on the buffer of ``array``'s computed
    value, when ``array`` is all of its storage and nobody else can see the old value (see
    ``write_in_place``); True when it did.  ``key`` is a plain basic key (ints, slices of
    ints, None) and ``value`` a NumPy array of the array's dtype: the conversions lazynum's
    setitem makes are done.  ``storage`` is ``array``'s plain ``Storage``, or None for an
    owner never viewed.  The new value is a new node over the same buffer."""
    if not node_mod.thread.state.immediate_below:
        return False
    if storage is None:
        old = array._node
        holders = 1                                   # array._node
    else:
        old = storage.node
        holders = 1 + _views_reading(old, array, storage)
    buffer = old.buffer
    if (buffer is None or old.args or buffer.base is not None or not buffer.flags.c_contiguous
            or sys.getrefcount(old) != holders + 2 or sys.getrefcount(buffer) != _OWN_REFERENCES):
        return False
    writeable = buffer.flags.writeable
    buffer.flags.writeable = True
    try:
        buffer[key] = value
    finally:
        buffer.flags.writeable = writeable
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
    _count()


def update_in_place(op, ufunc, target, storage, other) -> bool:
    """``target op= other`` by NumPy's own in-place ufunc call into the memory of ``target``,
    a computed window of the plain ``storage``, when nothing but ``target`` can see the old
    value (see ``write_in_place``: here the window's own view of the buffer is accounted
    for); True when it did.  ``other`` is a NumPy value (a lazynum operand's, computed).
    ``op`` is the ufunc's lazynum op, the new version's node's: NumPy's floating-point
    errors are reported at the user's line as the tier reports them, after the write, as
    NumPy's in-place operators raise them after writing."""
    if not node_mod.thread.state.immediate_below or _extobj_contextvar is None:
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
    lines = _logging.lines
    if lines.lines:
        lines.lines.clear()
    current = _extobj_contextvar.get()
    if current is not _logging.base:
        _logging.derive(current)
    writeable = buffer.flags.writeable
    buffer.flags.writeable = True
    token = _extobj_contextvar.set(_logging.state)
    try:
        out = np.ndarray(view.shape, view.dtype, buffer, _offset(view, buffer), view.strides)
        ufunc(out, other, out=out)
    finally:
        _extobj_contextvar.reset(token)
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
