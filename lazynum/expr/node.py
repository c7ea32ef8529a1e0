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

import numpy as np

from .. import telemetry as metrics
from .registry import Op, register

_next_id = metrics.node_ids.__next__
_prod = math.prod

# Structural key -> node for pending nodes.  Cleared at every sync: realized nodes are
# leaves afterwards, and clearing bounds the table by the pending graph size.
_interned: dict = {}

# Running totals since the last sync, read by the automatic flush.
pending = {"nodes": 0, "bytes": 0}


class Node:
    """One value in the expression DAG (see module docstring)."""
    __slots__ = ("op", "args", "attrs", "shape", "dtype", "buffer", "id", "site", "__weakref__")

    def __init__(self, op: Op, args: tuple, attrs: tuple, shape: tuple, dtype: np.dtype,
                 buffer=None, site=None):
        self.op = op
        self.args = args
        self.attrs = attrs
        self.shape = shape
        self.dtype = dtype
        self.buffer = buffer
        self.id = _next_id()
        self.site = site

    @property
    def realized(self) -> bool:
        return self.buffer is not None

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
    node = _interned.get(key)
    if node is not None:
        return node
    shape = op.shape_rule(args, attrs)
    dtype = op.dtype_rule(args, attrs)
    node = Node(op, args, attrs, shape, dtype,
                site=metrics.user_frame() if (op.may_fail or _want_sites[0]) else None)
    _interned[key] = node
    pending["nodes"] += 1
    pending["bytes"] += _prod(shape) * dtype.itemsize
    if pending["nodes"] >= flush_limits[0] or pending["bytes"] >= flush_limits[1]:
        flush_hook[0](node)
    return node


_want_sites = [False]   # set by lazynum.runtime when graph/kernels logs are enabled
# The runtime installs the automatic flush here (expr must not import the runtime) and
# refreshes the limits from the configuration at every sync.
flush_hook = [lambda node: None]
flush_limits = [50_000, 2 << 30]


def _leaf_shape(args, attrs):
    raise TypeError("leaves are created with lazynum.expr.node.constant, not apply()")


BUFFER = register("buffer", "leaf", shape=_leaf_shape, dtype=_leaf_shape,
                  reference=lambda arrays, attrs: None,
                  doc="A concrete input array (or a computed, realized value).")
SCALAR = register("scalar", "leaf", shape=_leaf_shape, dtype=_leaf_shape,
                  reference=lambda arrays, attrs: None,
                  doc="A Python scalar hoisted to a runtime parameter (not part of the key).")


def constant(array: np.ndarray) -> Node:
    """A realized leaf holding ``array`` (the caller guarantees nobody mutates it)."""
    return Node(BUFFER, (), (), array.shape, array.dtype, buffer=array)


def scalar(value, dtype: np.dtype) -> Node:
    """A 0-d leaf for a Python scalar converted to ``dtype`` (a runtime parameter)."""
    return Node(SCALAR, (), (), (), dtype, buffer=np.asarray(value, dtype=dtype))


def clear_interned() -> None:
    _interned.clear()
    pending["nodes"] = 0
    pending["bytes"] = 0
