"""The canonical signature of one sync's graph: the compile cache's key.

One pass over the cut (its pending nodes in dependency order) emits, per node, its op,
attrs, dtype, shape and argument positions, and per input leaf its dtype, shape and
layout.  Sizes are written canonically: a plain int is static; a ``SymInt`` is its
expression with symbols renamed by first appearance (``$s0``, ``$s1``, ...).  Input data
and hoisted scalar values are not in it.  Two traces with equal signatures are the same
program up to the symbol values, which ``binders`` say where to read in a new trace: each
symbol is bound at the first dim that *is* that symbol (a leaf's or a node's shape).

Why this is safe without PyTorch-style guards: every run re-traces, so a branch the front
end or the user took on a concrete size left its mark in the new trace's graph; and every
SymInt's value equals its expression at the trace's symbol values.  So a program compiled
for one trace, evaluated at another trace's bound symbols, reproduces that trace's sizes
exactly whenever the signatures are equal.

Threads: a ``Signature`` is built and read by one sync, and this module keeps no state, so
signatures are computed in any number of threads at once.  ``signature`` requires every
output to be pending and in ``order`` (the sync picks its targets under its lock: a node
that another thread computed meanwhile is a leaf, not an output).
"""
from __future__ import annotations

import hashlib
import sys

import numpy as np

from .symbolic import Symbol, SymInt

SYM = "$s"      # marks a canonical symbol in attrs/shapes (no attr is a tuple starting with it)
DTYPE = "$d"    # marks a dtype in attrs, by name (same rule)

# Ops and dtypes enter the key as interned names, not objects: the disk cache stores the key's
# repr, and a dtype's repr is Python code (~5 us): 50,000 nodes took 240 ms to print, 45 ms as
# names.  Interned strings also keep their hash, so the memory cache's lookup stays cheap.
_DTYPE_NAMES: dict = {}


def dtype_name(dtype) -> str:
    """The key's name for ``dtype``: its NumPy name, or its ``str`` when not native-order
    (names alone do not tell byte orders apart)."""
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = sys.intern(dtype.name if dtype.isnative else dtype.str)
    return name


class Signature:
    """The result of ``signature(order, outputs)`` (see module docstring).

    Attributes
    ----------
    key : tuple
        ``entries`` as a tuple: the cache key of this graph (compared exactly, so a hash
        collision can never replay a wrong program; ``digest()`` names it on disk).
    entries : list of tuple
        One readable tuple per leaf and per node, in walk order (miss explanations diff them).
    leaves : list of Node
        Input leaves (realized values, constants, hoisted scalars) in canonical order.
    refs : list of tuple
        Per node of the walk, where its arguments come from: ``j`` for node j, ``-1 - i``
        for leaf i (what a program's steps hold; the interpreter tier reads it).
    sized_attrs : set of int
        Positions of the nodes whose attrs hold a ``SymInt`` (the interpreter tier makes
        those plain ints; the others it passes as they are).
    binders : list of (kind, position, dim)
        Where symbol ``k`` is read in a trace: ``("l", i, d)`` leaf i's dim d, or
        ``("s", j, d)`` step j's dim d.
    symbols : list
        The cut's atoms in canonical order: input-size ``Symbol``s, and size expressions
        of earlier traces that this cut reads from a dim (a realized value's size).
    cacheable : bool
        False when an attr could not be canonicalized (then the graph is compiled each time).
    """
    __slots__ = ("key", "entries", "leaves", "binders", "symbols", "cacheable", "canonical",
                 "refs", "sized_attrs", "_index", "_shapes", "_by_value", "_saw_size")

    def __init__(self):
        self.entries, self.leaves, self.binders, self.symbols = [], [], [], []
        self.refs = []             # per node of the walk: its arguments' positions
        self.sized_attrs = set()   # positions of nodes whose attrs hold a SymInt
        self._saw_size = False
        self.cacheable = True
        self.canonical = {}        # id(SymInt) -> its canonical form (int or tuple)
        self._index = {}           # Symbol -> canonical number
        self._shapes = {}          # id(shape tuple) -> canonical shape
        self._by_value = {}        # size -> canonical symbol number (duck sizing)
        self.key = ()

    # --- sizes --------------------------------------------------------------------------
    def dim(self, d, where=None):
        """Canonical form of size ``d``; ``where=(kind, pos, dim)`` may bind a new symbol."""
        if type(d) is not SymInt:
            return int(d)
        form = self.canonical.get(id(d))
        if form is None:
            form = self.canonical[id(d)] = self._form(d, where)
        return form

    def _form(self, d: SymInt, where):
        form = self._resolve(d.expr)
        if form is not None:
            return form
        if where is None:
            return int(d)              # not readable from this trace: a static number
        # A dim no earlier dim explains (an input's symbol, or a realized value's size
        # computed by an earlier trace) becomes an atom of this cut, read from this dim.
        # Duck sizing happens here, per cut: an atom equal in value to an earlier one is
        # the same canonical symbol.  (Per cut, not per creation: weights made before a
        # loop and the batches made inside it must key alike in every iteration.)
        # Only input symbols are duck-sized: a size computed by an earlier trace (n - 2)
        # is equal to another only by coincidence of this trace's values.
        expr = d.expr
        duck = type(expr) is Symbol and not expr.ranged
        number = self._by_value.get(int(d)) if duck else None
        if number is None:
            number = len(self.symbols)
            self.symbols.append(expr)
            self.binders.append(where)
            if duck:
                self._by_value[int(d)] = number
        self._index[expr] = number
        return self._resolve(expr)

    def _resolve(self, expr):
        """The canonical form of ``expr`` over this cut's atoms, or None if one is unbound."""
        number = self._index.get(expr)
        if number is not None:
            if type(expr) is Symbol and expr.ranged:
                return (SYM, number, expr.lo, expr.hi)
            return (SYM, number)
        if type(expr) is tuple:
            a = self._resolve(expr[1])
            b = None if a is None else self._resolve(expr[2])
            return None if b is None else (expr[0], a, b)
        return None if type(expr) is Symbol else expr

    def shape(self, shape, kind: str, position: int) -> tuple:
        form = self._shapes.get(id(shape))
        if form is None:
            form = tuple([d if type(d) is int else self.dim(d, (kind, position, k))
                          for k, d in enumerate(shape)])
            # Shape tuples are shared between nodes (an elementwise result reuses its
            # operand's), and every dim is bound at its first sighting: memoizing by object
            # is exact within one walk, where every node (so every tuple) stays alive.
            self._shapes[id(shape)] = form
        return form

    # --- attrs --------------------------------------------------------------------------
    def attrs(self, attrs):
        if not attrs:
            return attrs
        return tuple([self._attr(a) for a in attrs])

    def _attr(self, a):
        kind = type(a)
        if kind is int or kind is str or a is None:
            return a
        if kind is SymInt:
            self._saw_size = True
            return self.dim(a)
        if kind is tuple:
            return tuple([self._attr(x) for x in a])
        # Tagged: the key is compared with ==, where 1 == 1.0 == True, and nan != nan.
        if kind is float or kind is bool or isinstance(a, np.generic):
            return (kind.__name__, repr(a))
        if isinstance(a, np.dtype):
            return (DTYPE, dtype_name(a))
        if kind is slice:
            return ("slice", self._attr(a.start), self._attr(a.stop), self._attr(a.step))
        self.cacheable = False      # e.g. an array in attrs: no exact, cheap key for it
        return ("?", id(a))

    def digest(self) -> str:
        """A stable hex digest of the key (the disk cache's name, ``lazynum.graph_hash``)."""
        return hashlib.blake2b(repr(self.key).encode(), digest_size=16).hexdigest()


def signature(order, outputs) -> Signature:
    """The canonical signature of the pending ``order`` computing ``outputs``.

    This runs at every sync, so the loop is written for speed: shape forms are memoized
    per tuple object and a leaf is handled out of line only at its first use.
    """
    sig = Signature()
    position = {}
    entries = sig.entries
    shapes_seen = sig._shapes
    shape_of, attrs_of = sig.shape, sig.attrs
    with_attrs = []

    def leaf(arg):
        i = len(sig.leaves)
        sig.leaves.append(arg)
        position[arg.id] = -1 - i
        shape = arg.shape
        if not shape:                          # a hoisted scalar: the common leaf
            entries.append(("leaf", dtype_name(arg.dtype), (), "C"))
        else:
            layout = "C" if arg.buffer.flags.c_contiguous else "S"
            entries.append(("leaf", dtype_name(arg.dtype), shape_of(shape, "l", i), layout))
        return -1 - i

    known = position.get
    all_refs = sig.refs
    for j, node in enumerate(order):
        args = node.args
        if len(args) == 2:                     # unrolled for the common arities (hot loop)
            first, second = args
            a = known(first.id)
            if a is None:
                a = leaf(first)
            b = known(second.id)
            refs = (a, leaf(second) if b is None else b)
        elif len(args) == 1:
            a = known(args[0].id)
            refs = (leaf(args[0]) if a is None else a,)
        else:
            refs = tuple([position[a.id] if a.id in position else leaf(a) for a in args])
        all_refs.append(refs)
        if node.attrs:
            with_attrs.append((len(entries), j, node.attrs))
        shape = node.shape
        form = shapes_seen.get(id(shape))
        entries.append((node.op.name, (), dtype_name(node.dtype),
                        shape_of(shape, "s", j) if form is None else form, refs))
        position[node.id] = j
    # Attrs only read sizes, so they are written after every dim had its chance to bind a
    # symbol (a check_index's bound is the size of an input that only a later node reads).
    sized = sig.sized_attrs
    for at, j, attrs in with_attrs:
        op, _, dtype, shape, refs = entries[at]
        sig._saw_size = False
        entries[at] = (op, attrs_of(attrs), dtype, shape, refs)
        if sig._saw_size:
            sized.add(j)
    entries.append(("outputs", tuple([position[o.id] for o in outputs])))
    sig.key = tuple(entries)
    return sig


def bind(sig: Signature, order) -> tuple:
    """The symbol values of this trace, read where ``sig.binders`` say."""
    leaves = sig.leaves
    return tuple([int((leaves if kind == "l" else order)[pos].shape[dim])
                  for kind, pos, dim in sig.binders])
