"""Graph nodes: immutable, hash-consed records of one primitive application.

A node is created through ``apply`` which runs the op's shape and dtype rules (so bad
input fails at the call that caused it) and interns the node by its structural key
``(op, attrs, arg ids)``: building the same expression twice returns the same node, which
gives common-subexpression elimination for free.  A node becomes *realized* when a sync
computes it: it then holds a ``buffer`` and drops its arguments, so computed graphs are
freed and later graphs see a leaf.
"""
from __future__ import annotations

import math
import threading

import numpy as np

from ..control import settings as config, telemetry as metrics
from .registry import NoGradient, Op, register
from .symbolic import symbolize

_next_id = metrics.node_ids.__next__     # itertools.count: one C call, atomic under the GIL
_prod = math.prod
_new_node = object.__new__


class TraceState:
    """One thread's tracing state.  Each thread traces into its own: threads computing on
    their own arrays never share a pending node (not even an interned literal), so one
    thread's sync never computes, nor changes the cache key of, another thread's graph.

    Attributes
    ----------
    interned : dict
        Structural key -> node for this thread's pending nodes.  Cleared at each of its
        syncs: realized nodes are leaves afterwards, and clearing bounds the table.
    pending_nodes, pending_bytes : int
        Running totals since this thread's last sync, read by the automatic flush.
    live : list
        Weakrefs to arrays this thread created with a pending value (the runtime's co-live
        registry: a sync also computes those that share its graph).
    orphans : list
        Pending run-time checks whose value a write replaced unread (``orphan_checks``):
        the next sync runs them.
    checks, read_checks : list, set
        Every run-time check this thread recorded and no sync has computed yet, and the
        ids of those a recorded node reads (``runtime.unread_checks``: a check whose
        readers were all dropped, ``y[5]`` as a statement, runs at the next sync).
    flush_nodes_limit, flush_bytes_limit : int
    immediate_below : int
        The immediate tier's size limit (0: off): see ``immediate_hook``.
    record_sites : bool
        This thread's settings (``lazynum.config`` blocks are per-thread), cached here
        because they are read on every op.
    """
    __slots__ = ("interned", "pending_nodes", "pending_bytes", "live", "orphans", "checks", "read_checks",
                 "flush_nodes_limit", "flush_bytes_limit", "record_sites", "immediate_below")

    def __init__(self):
        self.interned = {}
        self.pending_nodes = 0
        self.pending_bytes = 0
        self.live = []
        self.orphans = []
        self.checks = []
        self.read_checks = set()
        self.use_settings(config.get())

    def use_settings(self, settings) -> None:
        self.flush_nodes_limit = settings.flush_nodes
        self.flush_bytes_limit = settings.flush_bytes
        self.record_sites = bool(settings.logs & {"graph", "kernels", "fusion"})
        self.immediate_below = settings.immediate_below


class _PerThread(threading.local):
    def __init__(self):
        self.state = TraceState()
        metrics.mark_trace_start()        # this thread's trace time starts at its first op


# ``thread.state``: the calling thread's TraceState (one attribute read of a thread-local,
# then slot reads: the cheapest per-thread access on the per-op path).
thread = _PerThread()


def trace_state() -> TraceState:
    """The calling thread's ``TraceState``."""
    return thread.state


def __getattr__(name):
    # ``node.pending_nodes`` / ``node.pending_bytes``: the calling thread's counters.
    if name in ("pending_nodes", "pending_bytes"):
        return getattr(thread.state, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Node:
    """One value in the expression DAG (see module docstring)."""
    __slots__ = ("op", "args", "attrs", "shape", "dtype", "buffer", "id", "site", "__weakref__")

    def __init__(self, op: Op, args: tuple, attrs: tuple, shape: tuple, dtype: np.dtype,
                 buffer=None, site=None):  # noqa: PLR0913
        self.op = op
        self.args = args
        self.attrs = attrs
        self.shape = shape
        self.dtype = dtype
        self.buffer = buffer
        self.id = _next_id()
        self.site = site

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def realize(self, buffer: np.ndarray) -> None:
        """Attach the computed value and drop the arguments (the subgraph can be freed)."""
        self.buffer = buffer
        self.args = ()

    def __repr__(self):
        state = "realized" if self.buffer is not None else "pending"
        return f"<node %{self.id} {self.op.name} {self.dtype}{list(self.shape)} {state}>"


def apply(op: Op, args: tuple, attrs: tuple = ()) -> Node:
    """Record ``op(*args, attrs)``: run its rules, intern it, return the node."""
    if len(args) == 2:       # the common cases skip building a list (tracing hot path)
        key = (op, attrs, args[0].id, args[1].id)
    elif len(args) == 1:
        key = (op, attrs, args[0].id)
    else:
        key = (op, attrs, *[a.id for a in args])
    state = thread.state
    node = state.interned.get(key)
    if node is not None:
        return node
    return _record(state, key, op, args, attrs, op.shape_rule(args, attrs),
                   op.dtype_rule(args, attrs))


def apply_checked(op: Op, args: tuple, shape: tuple, dtype: np.dtype) -> Node:
    """``apply`` for a caller that has already applied the op's rules (no attrs).

    Only for the operator fast path, whose loop-signature cache is the dtype rule's own
    table and whose shapes are equal or 0-d; everything else goes through ``apply``.
    """
    key = (op, (), args[0].id, args[1].id) if len(args) == 2 else (op, (), *[a.id for a in args])
    state = thread.state
    node = state.interned.get(key)
    if node is not None:
        return node
    return _record(state, key, op, args, (), shape, dtype)


def _record(state, key, op, args, attrs, shape, dtype) -> Node:  # noqa: PLR0913
    # Node.__init__, inlined: one Python frame less on the per-op tracing path.
    node = _new_node(Node)
    node.op, node.args, node.attrs, node.shape, node.dtype = op, args, attrs, shape, dtype
    node.buffer = None
    node.id = _next_id()
    if op.may_fail:
        node.site = metrics.user_frame()
        check = op.kind == "index"          # a run-time check (check_index, assert_all, ...)
    else:
        node.site = metrics.user_frame() if state.record_sites else None
        check = False
    limit = state.immediate_below
    if limit and op.immediate and numel(shape) <= limit and _small_and_computed(op, args, limit):
        # Computed now (or raises as NumPy's call would), and not interned: the table
        # lives until the next sync, and would keep every buffer of a sync-free loop.
        immediate_hook(node)
        return node
    state.interned[key] = node
    if check:
        state.checks.append(node)
    state.pending_nodes += 1
    if state.pending_nodes == LARGE_GRAPH_NODES:
        large_graph_hook()
    state.pending_bytes += numel(shape) * dtype.itemsize
    if (state.pending_nodes >= state.flush_nodes_limit
            or state.pending_bytes >= state.flush_bytes_limit):
        flush_hook(node)
    return node


# Memo tables shared by all threads: a value depends only on its key, so a race at worst
# computes one twice (dict reads and writes are atomic under the GIL).
numel_of: dict = {}


def numel(shape) -> int:
    """Element count as a plain int (SymInt products would build expressions: hot path)."""
    n = numel_of.get(shape)
    if n is None:
        if len(numel_of) > 4096:
            numel_of.clear()
        n = numel_of[shape] = _prod(map(int, shape))
    return n


def _small_and_computed(op, args, limit) -> bool:
    # Small inputs too, not only a small result: a row reduction of a large array is work
    # that fuses with its producer and consumers (a softmax is one kernel), not overhead.
    # A library call (matmul, LAPACK, FFT, sort) fuses with nothing: the same NumPy call at
    # the sync, so any computed inputs will do (a matrix-vector product in a loop).
    if op.kind == "extern":
        return all(arg.buffer is not None for arg in args)
    for arg in args:
        if arg.buffer is None or numel(arg.shape) > limit:
            return False
    return True


# Set by lazynum.runtime.immediate (expr must not import it): the immediate tier.  A new
# node whose op allows it (``Op.immediate``), whose arguments are all computed and small and
# whose result is small is computed at once by its NumPy reference and realized, so a loop over
# small arrays never builds a graph nor syncs (the interpreter tier would make the same
# NumPy call at the sync, after paying for the graph, its signature and the sync).
def immediate_hook(node) -> None:
    """Replaced by ``runtime.immediate.compute``."""


# Set by lazynum.runtime (expr must not import it): the automatic flush.
def flush_hook(node) -> None:
    """Replaced by the runtime's automatic flush."""


# Set by lazynum.runtime.collector: called once when a thread's pending graph reaches
# LARGE_GRAPH_NODES (it defers the garbage collector's full collections until the sync).
LARGE_GRAPH_NODES = 1 << 62


def large_graph_hook() -> None:
    """Replaced by ``runtime.collector``."""


def _leaf_shape(args, attrs):
    raise TypeError("leaves are created with lazynum.expr.node.constant, not apply()")


BUFFER = register("buffer", "leaf", shape=_leaf_shape, dtype=_leaf_shape,
                  reference=lambda arrays, attrs: None,
                  doc="A concrete input array (or a computed, realized value).")
SCALAR = register("scalar", "leaf", shape=_leaf_shape, dtype=_leaf_shape,
                  reference=lambda arrays, attrs: None,
                  doc="A Python scalar hoisted to a runtime parameter (not part of the key).")

# VJP (lazynum.autograd): leaves hold data; a gradient stops at the inputs it differentiates.
BUFFER.vjp = SCALAR.vjp = NoGradient("a leaf: data, not an operation")


def constant(array: np.ndarray, shape: tuple | None = None) -> Node:
    """A realized leaf holding ``array`` (the caller guarantees nobody mutates it).

    Its dims become the trace's size symbols (``symbolic.symbolize``), unless ``shape``
    gives them (``mark_static``/``mark_dynamic``).
    """
    return Node(BUFFER, (), (), symbolize(array.shape) if shape is None else shape,
                array.dtype, buffer=array)


_scalar_arrays: dict = {}


def scalar(value, dtype: np.dtype) -> Node:
    """A 0-d leaf for a Python scalar converted to ``dtype``: a runtime parameter.

    Every use gets its own leaf, never one shared by value: whether two scalars are
    equal must not change the graph's structure, or a new scalar value would change the
    cache key and recompile.  The 0-d arrays themselves are read-only and shared.
    """
    # (complex values are never shared: 1-0j == 1+0j, and a signed zero part must survive)
    shareable = value == value and (value or type(value) is not float) and type(value) is not complex
    array = _scalar_arrays.get((dtype, value)) if shareable else None
    if array is None:
        array = np.array(value, dtype=dtype)
        if shareable:
            array.flags.writeable = False
            if len(_scalar_arrays) > 4096:
                _scalar_arrays.clear()
            _scalar_arrays[(dtype, value)] = array
    node = _new_node(Node)
    node.op, node.args, node.attrs, node.shape, node.dtype = SCALAR, (), (), (), dtype
    node.buffer, node.id, node.site = array, _next_id(), None
    return node


def orphan_checks(old: Node, new: Node) -> None:
    """A write replaced pending ``old`` by ``new``.  A run-time check on ``old``'s data path
    (``old`` itself or an argument: ``y[0]`` of an empty selection is ``take(data,
    check_index(0))``) that ``new`` does not read would never run, yet NumPy raised at the
    call that made ``old`` (``y[0].fill(v)``): the next sync runs it."""
    if old.buffer is not None or old in new.args:
        return
    for candidate in (old, *old.args):
        if candidate.op.may_fail and candidate.op.kind == "index" and candidate.buffer is None:
            thread.state.orphans.append(candidate)


def take_orphaned_checks() -> list:
    """This thread's orphaned checks still pending, forgotten here (each runs once)."""
    state = thread.state
    if not state.orphans:
        return []
    orphans, state.orphans = [n for n in state.orphans if n.buffer is None], []
    return orphans


def clear_interned() -> None:
    """Drop this thread's intern table (realized nodes are leaves now; pending ones keep
    their graph)."""
    thread.state.interned.clear()


def forget_pending(computed: int) -> None:
    """``computed`` pending nodes were just computed: this thread's flush counter forgets them.

    Only what was computed is subtracted, so a loop whose graph keeps growing still reaches
    the flush limit even when unrelated syncs happen in between.
    """
    state = thread.state
    pending = state.pending_nodes
    share = computed / pending if pending else 1.0
    state.pending_bytes = max(0, int(state.pending_bytes * (1.0 - min(share, 1.0))))
    state.pending_nodes = max(0, pending - computed)


def reset_pending() -> None:
    """Everything this thread had live was computed (an automatic flush): count afresh."""
    state = thread.state
    state.pending_nodes = 0
    state.pending_bytes = 0


def use_settings(settings) -> None:
    """Cache ``settings`` (the calling thread's active ones) for this thread's tracing."""
    thread.state.use_settings(settings)
