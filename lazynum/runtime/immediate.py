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

import threading

import numpy as np

from ..backends.reference import InternalError, concrete_attrs
from ..control import telemetry as metrics
from ..expr import fp_state, node as node_mod
from . import fp_errors

count = metrics.immediate_ids.__next__

try:        # NumPy's error state is a context variable holding an "extobj" (NumPy >= 2)
    from numpy._core._ufunc_config import _extobj_contextvar as extobj_contextvar
    from numpy._core.umath import _make_extobj
except ImportError:       # pragma: no cover - another NumPy: the public (slower) way
    extobj_contextvar = None


class _Logging(threading.local):
    """This thread's collector and the NumPy error state that logs into it, made from the
    state it was derived from (``numpy.errstate(all='log', call=lines)`` costs 1.2 us a
    call; setting the context variable to a state made once costs a tenth of that)."""

    def __init__(self):
        self.lines = fp_state.LogLines()
        self.base = self.state = None

    def enter(self):
        """Log NumPy's floating-point errors into ``self.lines`` (emptied) from now: the
        token that ``extobj_contextvar.reset`` takes to end it."""
        lines = self.lines.lines
        if lines:
            lines.clear()
        current = extobj_contextvar.get()
        if current is not self.base:     # the user changed it (errstate, setbufsize)
            self.derive(current)
        return extobj_contextvar.set(self.state)

    def derive(self, current) -> None:
        self.base, self.state = current, _make_extobj(call=self.lines, all="log")


fp_logging = _Logging()


def _run(op, arrays, attrs, lines):
    if extobj_contextvar is None:
        with np.errstate(all="log", call=lines):
            return op.reference(arrays, attrs)
    token = fp_logging.enter()
    try:
        return op.reference(arrays, attrs)
    finally:
        extobj_contextvar.reset(token)


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
    if extobj_contextvar is None:
        return None
    lines = fp_logging.lines
    token = fp_logging.enter()
    try:
        out = function(*args, **kwargs)
    finally:
        extobj_contextvar.reset(token)
    if lines.lines:
        lines.lines.clear()
        return None
    count()
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
    if not limit or not op.immediate or extobj_contextvar is None:
        return None
    bound = shape if largest is None else largest
    size = _numel_of.get(bound)
    if (size if size is not None else node_mod.numel(bound)) > limit:
        return None
    lines = fp_logging.lines
    token = fp_logging.enter()
    try:
        out = op.reference([arg.buffer for arg in args], attrs)
    except (IndexError, ValueError, OverflowError) as exc:
        exc.add_note(f"raised by lazynum op {op.name!r} at {metrics.user_frame()}")
        raise
    finally:
        extobj_contextvar.reset(token)
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
    count()
    return node


def _evaluate(node, arrays, attrs) -> None:
    op = node.op
    lines = fp_logging.lines
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
    count()


node_mod.immediate_hook = compute
