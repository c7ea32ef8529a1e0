"""What a backend compiles: one sync's graph with every size marked static or run-time.

A ``Cut`` is built on a cache miss from the trace and its ``Signature``.  Backends read
nodes (ops, attrs, dtypes) from it, and ask ``cut.size(d)`` for every int they use: a
plain int is static and may be baked into code; a ``SizeSlot(k)`` is ``sizes[k]`` at run
time.  ``sizes`` is the symbol values followed by derived sizes, computed at each replay by
the shape function that ``cut.finish()`` compiles (``shape_functions``).  A compiled
program must not keep nodes: it is replayed for later traces and stored on disk.
"""
from __future__ import annotations

from typing import NamedTuple

from ..expr.node import Node
from ..expr.signature import SYM, Signature, bind
from ..expr.symbolic import SymInt
from . import shape_functions


class SizeSlot(NamedTuple):
    """A size known at run time: ``sizes[index]``."""
    index: int


class AttrTemplate:
    """A node's attrs with run-time sizes as ``SizeSlot``s; ``instantiate(sizes)`` fills them."""
    __slots__ = ("template", "dynamic")

    def __init__(self, template, dynamic: bool):
        self.template = template
        self.dynamic = dynamic

    def instantiate(self, sizes):
        return fill(self.template, sizes) if self.dynamic else self.template


def fill(template, sizes):
    """``template`` (nested tuples) with each ``SizeSlot`` replaced by its value."""
    if type(template) is SizeSlot:
        return sizes[template.index]
    if type(template) is tuple:
        return tuple([fill(t, sizes) for t in template])
    return template


def has_slot(template) -> bool:
    if type(template) is SizeSlot:
        return True
    return type(template) is tuple and any(has_slot(t) for t in template)


class Cut:
    """The graph of one sync, prepared for a backend's ``compile`` (see module docstring).

    Attributes
    ----------
    order : list of Node
        Pending nodes in dependency order ("steps").
    leaves : list of Node
        Inputs; at run time ``inputs[i]`` is leaf i's array (0-d for hoisted scalars).
    leaf_contiguous : list of bool
        Whether leaf i is C-contiguous in every trace this program serves (it is in the key).
    outputs : list of Node
        Nodes whose values ``Program.run`` returns, in order.
    """

    def __init__(self, order, outputs, sig: Signature):
        self.order = order
        self.outputs = outputs
        self.leaves = sig.leaves
        self.leaf_contiguous = [bool(leaf.buffer.flags.c_contiguous) for leaf in sig.leaves]
        self._sig = sig
        self._refs = {leaf.id: ("leaf", i) for i, leaf in enumerate(sig.leaves)}
        self._refs.update((node.id, ("step", j)) for j, node in enumerate(order))
        self._derived: dict = {}        # canonical expression -> (slot, value in this trace)
        self._function = None

    def detached(self) -> "Cut":
        """This cut over copies of its nodes, for planning on another thread: a sync
        realizes its nodes (drops their arguments) once it has run, and later traces may
        realize more; the copies keep this trace's graph as it was.  (Leaves are realized
        already and never change; shapes, attrs and sizes are shared, immutable.)"""
        copies = {}
        for node in self.order:
            copy = Node.__new__(Node)
            copy.op, copy.attrs, copy.shape, copy.dtype = node.op, node.attrs, node.shape, node.dtype
            copy.id, copy.site, copy.buffer = node.id, node.site, None
            copy.args = tuple([copies.get(a.id, a) for a in node.args])
            copies[node.id] = copy
        cut = Cut.__new__(Cut)
        cut.order = [copies[n.id] for n in self.order]
        cut.outputs = [copies.get(n.id, n) for n in self.outputs]
        cut.leaves, cut.leaf_contiguous, cut._sig = self.leaves, self.leaf_contiguous, self._sig
        cut._refs, cut._derived, cut._function = self._refs, dict(self._derived), None
        return cut

    @property
    def n_symbols(self) -> int:
        return len(self._sig.symbols)

    def ref(self, node) -> tuple:
        """``("leaf", i)`` or ``("step", j)``: where an argument's value comes from."""
        return self._refs[node.id]

    def size(self, d):
        """A static ``int``, or the ``SizeSlot`` holding ``d`` at run time."""
        if type(d) is not SymInt:
            return int(d)
        form = self._sig.dim(d)
        if type(form) is int:
            return form
        if form[0] == SYM:
            return SizeSlot(form[1])
        slot = self._derived.get(form)
        if slot is None:
            slot = self._derived[form] = (SizeSlot(self.n_symbols + len(self._derived)), int(d))
        return slot[0]

    def trace_value(self, size) -> int:
        """The value in this trace of a size ``cut.size`` gave (a static int or a slot): for
        cost estimates only, since the program serves every trace with this signature."""
        if type(size) is not SizeSlot:
            return int(size)
        if size.index < self.n_symbols:
            return int(self._symbol_values()[size.index])
        return next(value for slot, value in self._derived.values() if slot == size)

    def shape(self, shape) -> tuple:
        """``shape`` with each dim as ``cut.size`` gives it."""
        return tuple([self.size(d) for d in shape])

    def attrs(self, node) -> AttrTemplate:
        template = self._template(node.attrs)
        return AttrTemplate(template, has_slot(template))

    def _template(self, value):
        if type(value) is SymInt:
            return self.size(value)
        if type(value) is tuple:
            return tuple([self._template(v) for v in value])
        return value

    def finish(self) -> "shape_functions.ShapeFunction":
        """Compile the shape function for every derived size the backend asked for.

        Checked once against this trace's own values: a wrong simplification or printing
        of an expression fails here, at compile time, not as a wrong size at a replay.
        """
        exprs = [form for form, _ in sorted(self._derived.items(), key=lambda kv: kv[1][0].index)]
        function = shape_functions.build(self.n_symbols, exprs)
        symbols = [int(s) for s in self._symbol_values()]
        expected = tuple(symbols) + tuple(value for _, value in
                                          sorted(self._derived.values(), key=lambda sv: sv[0].index))
        got = function(symbols)
        if tuple(got) != expected:
            raise AssertionError(f"shape function {function.source!r} gave {got}, expected {expected}")
        return function

    def _symbol_values(self):
        return bind(self._sig, self.order)
