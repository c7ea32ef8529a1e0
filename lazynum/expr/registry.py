"""The primitive registry: one entry per op, holding everything that op means.

Each ``Op`` carries, side by side, its shape rule, dtype rule, NumPy reference
implementation (which is also the ``numpy`` backend's lowering), its VJP rule (added by
``lazynum.autograd``) and per-backend lowerings.  ``tests/expr/test_registry.py`` walks
``OPS`` and fails when an op lacks one of the required parts.
"""
from __future__ import annotations

import sys
from typing import Callable

KINDS = ("leaf", "elementwise", "reduce", "scan", "view", "index", "extern", "creation")


class Op:
    """A primitive operation.

    Parameters
    ----------
    name : str
        Unique name, used in graph printouts and in the structural hash.
    kind : str
        One of ``KINDS``; the scheduler treats kinds differently (fusion boundaries).
    shape_rule, dtype_rule : callable ``(args, attrs) -> shape | dtype``
        Validate inputs and return the output shape / dtype; raise NumPy's exception types.
    reference : callable ``(arrays, attrs) -> numpy.ndarray``
        The NumPy definition of the op: the oracle and the ``numpy`` backend.
    reference_inplace : callable, optional
        For ops that produce an updated copy of ``arrays[0]`` (scatters): the same update
        done in place, which a backend may use when it owns that buffer and nothing else
        reads it.
    immediate : bool, optional
        Whether the immediate tier may compute a new node at once when its arguments are
        computed and its result is small (``node.immediate_hook``).  Default: every op but
        leaves.  Ops whose value must stay a graph node say False (the bounded-dim
        machinery's run-time sizes and checks, random draws).
    """
    __slots__ = ("name", "kind", "shape_rule", "dtype_rule", "reference", "reference_inplace",
                 "vjp", "lowerings", "doc", "may_fail", "immediate")

    def __init__(self, name: str, kind: str, shape_rule: Callable, dtype_rule: Callable,
                 reference: Callable, doc: str = "", may_fail: bool = False,
                 reference_inplace: Callable | None = None, immediate: bool | None = None):
        if kind not in KINDS:
            raise ValueError(f"unknown op kind {kind!r}")
        self.name = name
        self.kind = kind
        self.shape_rule = shape_rule
        self.dtype_rule = dtype_rule
        self.reference = reference
        self.reference_inplace = reference_inplace
        self.vjp = None          # filled in beside the op by lazynum.autograd
        self.lowerings = {}      # backend name -> lowering, filled in by compiled backends
        self.doc = doc
        self.may_fail = may_fail  # True when only run time can reveal bad input (index bounds)
        self.immediate = kind != "leaf" if immediate is None else immediate

    def __repr__(self):
        return f"<op {self.name}>"

    def __reduce__(self):
        return (lookup, (self.name,))


OPS: dict[str, Op] = {}


# Signature entries name ops by their name (lazynum.expr.signature); these mark other entries.
RESERVED_NAMES = frozenset({"leaf", "outputs"})


def register(name: str, kind: str, *, shape, dtype, reference, doc: str = "",
             may_fail: bool = False, reference_inplace=None, immediate=None) -> Op:
    """Create and register a primitive; a duplicate name is a programming error."""
    if name in OPS:
        raise ValueError(f"op {name!r} registered twice")
    if name in RESERVED_NAMES:
        raise ValueError(f"op name {name!r} is reserved (graph signatures use it as a marker)")
    op = Op(sys.intern(name), kind, shape, dtype, reference, doc=doc, may_fail=may_fail,
            reference_inplace=reference_inplace, immediate=immediate)
    OPS[name] = op
    return op


def lookup(name: str) -> Op:
    return OPS[name]


# --- kernel lowerings (lazynum.compile) ------------------------------------------------------
# Each op declares, beside its registration, how a fused kernel computes it: a callable
# ``lowering(builder, node, args) -> value`` that emits kernel-IR scalar statements through
# ``builder`` (see lazynum.compile.lowering.KernelBuilder), or ``EXTERN``: compiled programs
# call the op's NumPy reference on buffers (a fusion boundary, not a sync).
EXTERN = "extern"
KERNEL = "kernel"


class Routine:
    """A lowering by a named routine that each compiled backend writes itself: an op that
    is a fusion boundary but not a NumPy call (stream compaction is a scan, which the
    fused-loop IR does not express).  A backend without the routine calls the reference."""
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return f"Routine({self.name!r})"


def declare_lowering(op: Op, lowering=EXTERN) -> Op:
    """Set ``op``'s kernel lowering (a callable, ``EXTERN`` or a ``Routine``); returns ``op``."""
    op.lowerings[KERNEL] = lowering
    return op


def scalar_lowering(scalar_op: str):
    """The lowering of an op that is one kernel-IR scalar op on its arguments."""
    def lowering(builder, node, args):
        return builder.op(scalar_op, args, node.dtype)
    lowering.scalar_op = scalar_op
    return lowering


class NoGradient:
    """``Op.vjp`` marker: no cotangent flows through this op, because ``reason``
    (``expr.derivatives`` declares the rules; autograd reads them)."""
    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason

    def __repr__(self):
        return f"NoGradient({self.reason!r})"
