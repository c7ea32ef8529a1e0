"""Building blocks for VJP rules: small graph constructors written with primitive nodes.

Every op declares its VJP rule beside its registration (``OP.vjp = rule``).  A rule is
``rule(node, cotangent) -> tuple`` with one entry per argument of ``node``: the cotangent
that argument receives (a node of exactly the argument's shape and dtype), or ``None``
when no gradient flows to it (an integer index, a mask, a zero derivative).  Rules use
only primitive nodes, so the backward graph is ordinary lazy graph: it compiles together
with the forward pass, and it can be differentiated again (``grad(grad(f))``).

Ops through which no gradient flows declare ``OP.vjp = NoGradient(reason)``: either their
output is not floating point (comparisons, integer ops, ``argmax``: no cotangent ever
reaches them) or their derivative is zero almost everywhere (``floor``, ``sign``): the
gradient is then an exact zero, as in JAX.

Ops are looked up by name in the registry when a rule runs, so this module imports no op
module (they import it, beside their rules).
"""
from __future__ import annotations

import math

import numpy as np

from . import node as nodes
from .registry import OPS, NoGradient
from .shapes import broadcast_strides, c_strides, size_of

INT64 = np.dtype(np.int64)


NOT_FLOAT = NoGradient("its output is not floating point (bool or integer): nothing to differentiate")
PIECEWISE_CONSTANT = NoGradient("piecewise constant: the derivative is zero almost everywhere "
                                "(an exact zero gradient, as in JAX)")


class Masked:
    """A rule's cotangent that is exactly zero wherever ``mask`` (a bool node that
    broadcasts to the cotangent's shape) is false: what ``where``, ``clip``, ``maximum``
    and ``max`` give the branch or element they did not take.

    The reverse walk carries the mask upstream through elementwise ops and re-applies it
    to their cotangents, so ``0 * inf`` in an untaken branch (``where(x > 0, log(x), 0)``
    at ``x == 0``) stays an exact zero instead of becoming NaN.  ``mask`` may be a
    function that builds the mask: it is only called if the walk needs it (an unused
    node would linger in the pending graph's count).
    """
    __slots__ = ("value", "mask")

    def __init__(self, value, mask):
        self.value = value
        self.mask = mask


def not_written(what: str, instead: str = ""):
    """A VJP rule that refuses: a cotangent reaching this op raises NotImplementedError,
    never a silent zero (``NoGradient`` is for ops whose gradient *is* zero)."""
    def rule(node, g):
        raise NotImplementedError(f"lazynum.grad: the derivative of {what} is not written "
                                  f"yet{instead}")
    return rule


def uses_needs(rule):
    """Mark a rule of a multi-argument op that takes ``needs`` (one bool per argument:
    does a gradient have to reach it?) and builds nothing for the others, so no dead
    nodes (a matmul with the data matrix, say) are traced."""
    rule.takes_needs = True
    return rule


def wanted(needs, index: int) -> bool:
    return needs is None or needs[index]


def keeps_zeros(rule):
    """Mark a rule whose cotangents are +-g or a finite multiple of g: a zero cotangent
    stays zero, so the reverse walk needs no mask re-applied after it."""
    rule.keeps_zeros = True
    return rule


def is_inexact(node) -> bool:
    """True for a float or complex value: the values that carry cotangents."""
    return node.dtype.kind in "fc"


def is_complex(node) -> bool:
    return node.dtype.kind == "c"


# --- node constructors -----------------------------------------------------------------------
def apply(name: str, args: tuple, attrs: tuple = ()):
    return nodes.apply(OPS[name], tuple(args), attrs)


def call(name: str, *args):
    """The ufunc primitive ``name`` on ``args`` (equal dtypes; shapes broadcast)."""
    return nodes.apply(OPS[name], args, ())


def const(value, like):
    """A 0-d runtime scalar of ``like``'s dtype (a leaf, so its value is not in the cache key)."""
    return nodes.scalar(value, like.dtype if hasattr(like, "dtype") else like)


def add(a, b):
    return call("add", a, b)


def sub(a, b):
    return call("subtract", a, b)


def mul(a, b):
    return call("multiply", a, b)


def div(a, b):
    return call("divide", a, b)


def neg(a):
    return call("negative", a)


def scale(a, factor: float):
    return mul(a, const(factor, a))


def select(cond, a, b):
    """``where(cond, a, b)``: the untaken side contributes nothing, not ``0 * value``."""
    return nodes.apply(OPS["select"], (cond, a, b), ())


def masked(cond, g):
    """``g`` where ``cond``, an exact zero elsewhere (NaN-safe: never ``g * 0``)."""
    return select(cond, g, const(0, g))


def masked_to_shape(cond, g, shape, taken=True):
    """``g`` where ``cond`` is ``taken`` (exact zeros elsewhere) summed to ``shape``; a
    ``Masked`` cotangent when no sum was needed (the mask then still fits the shape)."""
    zero = const(0, g)
    value = select(cond, g, zero) if taken else select(cond, zero, g)
    if tuple(g.shape) != tuple(shape):
        return sum_to_shape(value, shape)
    return Masked(value, cond if taken else lambda: call("logical_not", cond))


def cast(node, dtype):
    dtype = np.dtype(dtype)
    return node if node.dtype == dtype else nodes.apply(OPS["cast"], (node,), (dtype,))


def reshape(node, shape):
    """``node``'s value in C order seen with ``shape`` (same size): a view node."""
    shape = tuple(shape)
    if tuple(node.shape) == shape:
        return node
    return nodes.apply(OPS["view"], (node,), (shape, c_strides(shape), 0))


def broadcast_to(node, shape):
    """``node`` broadcast to ``shape`` as a stride-0 view (NumPy's rules; shapes must fit)."""
    shape = tuple(shape)
    if tuple(node.shape) == shape:
        return node
    return nodes.apply(OPS["view"], (node,), (shape, broadcast_strides(node.shape, shape), 0))


def full(shape, value, dtype):
    return broadcast_to(nodes.scalar(value, np.dtype(dtype)), shape)


def zeros(shape, dtype):
    return full(shape, 0, dtype)


def transpose(node, perm):
    """``node`` with its axes permuted (a view)."""
    perm = tuple(perm)
    if perm == tuple(range(len(perm))):
        return node
    strides = c_strides(node.shape)
    return nodes.apply(OPS["view"], (node,), (tuple(node.shape[p] for p in perm),
                                              tuple(strides[p] for p in perm), 0))


def swap_last(node):
    """Transpose of the last two axes."""
    n = len(node.shape)
    return transpose(node, tuple(range(n - 2)) + (n - 1, n - 2))


def flip(node, axis: int):
    """``node`` reversed along ``axis`` (a negative-stride view)."""
    shape = tuple(node.shape)
    if shape[axis] <= 1:
        return node
    strides = list(c_strides(shape))
    offset = (shape[axis] - 1) * strides[axis]
    strides[axis] = -strides[axis]
    return nodes.apply(OPS["view"], (node,), (shape, tuple(strides), offset))


def reduce_sum(node, axes):
    axes = tuple(sorted(axes))
    return nodes.apply(OPS["reduce_sum"], (node,), (axes,)) if axes else node


def kept_shape(shape, axes) -> tuple:
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def expand_reduced(g, axes, shape):
    """A reduction's cotangent ``g`` broadcast back over the reduced ``axes`` of ``shape``."""
    return broadcast_to(reshape(g, kept_shape(shape, axes)), shape)


def sum_to_shape(g, shape):
    """Sum a broadcast result's cotangent back to an operand's ``shape``."""
    shape = tuple(shape)
    if tuple(g.shape) == shape:
        return g
    lead = len(g.shape) - len(shape)
    axes = list(range(lead))
    axes += [lead + i for i, d in enumerate(shape) if d == 1 and g.shape[lead + i] != 1]
    return reshape(reduce_sum(g, axes), shape)


def iota(shape, axis: int):
    return nodes.apply(OPS["iota"], (), (tuple(shape), axis))


def flat_index(shape, terms):
    """int64 node of ``shape``: the sum of ``index * multiplier`` over ``terms``.

    A term is ``(axis, multiplier)`` (the position along that axis of ``shape``) or
    ``(index_node, multiplier)`` with an int64 node broadcastable to ``shape``.
    """
    total = None
    for index, multiplier in terms:
        if isinstance(index, int):
            if shape[index] == 1 or multiplier == 0:
                continue
            index = iota(shape, index)
        else:
            index = broadcast_to(index, shape)
        part = index if multiplier == 1 else mul(index, nodes.scalar(multiplier, INT64))
        total = part if total is None else add(total, part)
    return zeros(shape, INT64) if total is None else total


# --- elementwise rule makers -----------------------------------------------------------------
def unary(derivative):
    """Rule for ``y = f(x)``: ``g * derivative(x, y)``."""
    def rule(node, g):
        return (mul(g, derivative(node.args[0], node)),)
    return rule


def binary(left, right):
    """Rule for ``y = f(a, b)``: ``left(g, a, b, y)`` / ``right(...)`` summed to each
    operand's shape (either maker may be None: no gradient to that operand).

    With a ``mask`` (the reverse walk passes one when g is exactly zero where it is
    false), each result is masked *before* it is summed to a broadcast operand's shape,
    so a derivative that is infinite where g is zero never turns the sum into NaN.
    """
    def rule(node, g, mask=None, needs=None):
        a, b = node.args
        out = []
        for index, (maker, operand) in enumerate(((left, a), (right, b))):
            if maker is None or not is_inexact(operand) or not wanted(needs, index):
                out.append(None)
                continue
            value = maker(g, a, b, node)
            if mask is None:
                out.append(sum_to_shape(value, operand.shape))
                continue
            if not getattr(rule, "keeps_zeros", False):
                value = masked(mask, value)
            if tuple(value.shape) == tuple(operand.shape):
                out.append(Masked(value, mask))
            else:
                out.append(sum_to_shape(value, operand.shape))
        return tuple(out)
    rule.takes_mask = rule.takes_needs = True
    return rule


def first_wins(wins):
    """Rule for a binary op returning one of its operands: ``wins(a, b)`` is the bool
    mask where the result is ``a`` (NumPy's choice, ties included); the cotangent goes to
    exactly that operand, the other gets an exact zero."""
    @uses_needs
    def rule(node, g, needs=None):
        a, b = node.args
        mask = wins(a, b)
        return (masked_to_shape(mask, g, a.shape) if wanted(needs, 0) else None,
                masked_to_shape(mask, g, b.shape, taken=False) if wanted(needs, 1) else None)
    return rule


@keeps_zeros
def identity_rule(node, g):
    return (g,)


LN2, LN10 = math.log(2.0), math.log(10.0)


# --- layout helpers for views ----------------------------------------------------------------
def broadcast_axes(shape, strides) -> tuple:
    """Axes a strided view repeats (stride 0 over more than one element)."""
    return tuple(i for i, (d, s) in enumerate(zip(shape, strides)) if s == 0 and d > 1)


def is_one_to_one(shape, strides) -> bool:
    """True when no two indices of the view reach the same element (no overlap)."""
    dims = sorted((abs(s), d) for d, s in zip(shape, strides) if d > 1)
    reach = 0                       # highest flat distance the smaller strides span
    for stride, d in dims:
        if stride <= reach:
            return False
        reach += (d - 1) * stride
    return True


def permutation_of(shape, strides, base_shape):
    """The axis order that makes a full, offset-0 view a C-order reshape of its base, or None."""
    if size_of(shape) != size_of(base_shape) or any(s < 0 for s in strides):
        return None
    order = sorted(range(len(shape)), key=lambda i: -strides[i])
    permuted = tuple(shape[i] for i in order)
    wanted = c_strides(permuted)
    if any(permuted[k] != 1 and strides[i] != wanted[k] for k, i in enumerate(order)):
        return None
    return tuple(order)


def view_cotangent(base, g, attrs):
    """Cotangent of ``base`` for ``view(base, attrs)`` whose cotangent is ``g``."""
    shape, strides, offset = attrs
    repeated = broadcast_axes(shape, strides)
    if repeated:                    # a broadcast: sum the copies first
        shape = kept_shape(shape, repeated)
        g = reshape(reduce_sum(g, repeated), shape)
        strides = tuple(0 if i in repeated else s for i, s in enumerate(strides))
    if offset == 0:
        order = permutation_of(shape, strides, base.shape)
        if order is not None:       # reshape or transpose: no scatter at all
            return reshape(transpose(g, order), base.shape)
    if is_one_to_one(shape, strides):
        return apply("view_scatter", (zeros(base.shape, g.dtype), g), (tuple(shape), tuple(strides), offset))
    terms = [(i, s) for i, s in enumerate(strides)]
    index = add(flat_index(tuple(shape), terms), nodes.scalar(offset, INT64)) if offset else \
        flat_index(tuple(shape), terms)
    return apply("scatter_add", (zeros(base.shape, g.dtype), index, g))


def view_mask(base, mask, attrs):
    """Where ``view(base, attrs)``'s cotangent is known zero (``mask`` false), mapped onto
    ``base``: a view only moves values, so the base's cotangent is zero where no true
    element lands (elements the view does not read included).  None for a view that reads
    an element twice without a broadcast (then the mask stops here)."""
    shape, strides, offset = attrs
    mask = broadcast_to(mask, shape)
    repeated = broadcast_axes(shape, strides)
    if repeated:
        shape = kept_shape(shape, repeated)
        mask = reshape(apply("reduce_any", (mask,), (repeated,)), shape)
        strides = tuple(0 if i in repeated else s for i, s in enumerate(strides))
    if offset == 0:
        order = permutation_of(shape, strides, base.shape)
        if order is not None:
            return reshape(transpose(mask, order), base.shape)
    if is_one_to_one(shape, strides):
        return apply("view_scatter", (full(base.shape, False, np.bool_), mask),
                     (tuple(shape), tuple(strides), offset))
    return None


def take_flat(g, index):
    """``g.flat[index]`` (shape of ``index``)."""
    return apply("take", (reshape(g, (size_of(g.shape),)), index), (0,))



def written_positions(put, base_shape, index_shape):
    """Which value each element of a write's destination ends up holding.

    ``put(base, values)`` performs the write (a scatter) with the given values; here the
    values are their own positions (0, 1, ... over ``index_shape``), written into a base
    of -1.  Where an index repeats, the last write wins (NumPy's fancy assignment), so a
    value's gradient is the destination's cotangent only where it is the winner.
    Returns ``(positions, winners)``.
    """
    positions = reshape(iota((size_of(index_shape),), 0), index_shape)
    return positions, put(full(base_shape, -1, INT64), positions)


def fit_to(node, shape):
    """``node`` (same rank as ``shape``) summed over dims where ``shape`` has 1 and
    broadcast over dims where ``node`` has 1."""
    shape = tuple(shape)
    summed = [i for i, (n, s) in enumerate(zip(node.shape, shape)) if s == 1 and n != 1]
    if summed:
        node = reshape(reduce_sum(node, summed), kept_shape(node.shape, summed))
    return broadcast_to(node, shape)


# --- einsum ----------------------------------------------------------------------------------
def _explicit_ellipsis(subscripts: str, shapes) -> tuple:
    """``(terms, rhs)`` of explicit ``lhs->rhs`` subscripts with ``...`` spelled out in
    letters the subscripts do not use (right-aligned, as broadcasting aligns)."""
    lhs, _, rhs = subscripts.partition("->")
    terms = lhs.split(",")
    spare = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in subscripts]
    width = 0
    for term, shape in zip(terms, shapes):
        if "..." in term:
            width = max(width, len(shape) - len(term.replace("...", "")))
    letters = "".join(spare[:width])
    out = []
    for term, shape in zip(terms, shapes):
        if "..." in term:
            count = len(shape) - len(term.replace("...", ""))
            term = term.replace("...", letters[width - count:])
        out.append(term)
    return out, rhs.replace("...", letters)


def einsum_cotangent(subscripts: str, operands, g, index: int):
    """Cotangent of operand ``index`` of ``einsum(subscripts, *operands)`` (explicit
    subscripts), given the output's cotangent ``g``.

    It is the einsum of g with the other operands onto the operand's letters.  Letters
    that einsum cannot output are handled around it: a letter only this operand has is
    summed in the forward pass, so its cotangent is broadcast along it; a repeated letter
    (a diagonal) puts the result on that diagonal of zeros; size-1 broadcasting sums back.
    """
    terms, rhs = _explicit_ellipsis(subscripts, [op.shape for op in operands])
    term, x = terms[index], operands[index]
    others = [(t, op) for k, (t, op) in enumerate(zip(terms, operands)) if k != index]
    unique = "".join(dict.fromkeys(term))
    seen_elsewhere = set(rhs).union(*[set(t) for t, _ in others])
    produced = "".join(c for c in unique if c in seen_elsewhere)
    spec = ",".join([rhs] + [t for t, _ in others]) + "->" + produced
    result = apply("einsum", (g,) + tuple(op for _, op in others), (spec,))
    sizes = {c: d for c, d in zip(term, x.shape)}
    unique_shape = tuple(sizes[c] for c in unique)
    with_orphans = reshape(result, tuple(result.shape[produced.index(c)] if c in produced else 1
                                         for c in unique))
    fitted = fit_to(with_orphans, unique_shape)
    if len(unique) == len(term):
        return fitted
    strides = c_strides(x.shape)
    diagonal = tuple(sum(s for c2, s in zip(term, strides) if c2 == c) for c in unique)
    return apply("view_scatter", (zeros(x.shape, g.dtype), fitted), (unique_shape, diagonal, 0))
