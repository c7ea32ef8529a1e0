"""Strided layouts: how a view maps its indices onto its storage (NumPy's memory model).

A layout is ``(shape, strides, offset)`` in elements relative to the C-order flattening of
the storage's current value.  These functions decide exactly what NumPy decides (when a
reshape can be a view, which views are contiguous) so lazynum's aliasing matches NumPy's.
"""
from __future__ import annotations

import functools

from ..expr.shapes import c_strides, size_of


def identity(shape) -> tuple:
    shape = tuple(shape)
    return (shape, c_strides(shape), 0)


def dense(shape, order) -> tuple:
    """The layout of a new array of ``shape`` whose memory follows axis ``order`` (slowest
    first; None for C order)."""
    if order is None:
        return identity(shape)
    inverse = sorted(range(len(order)), key=order.__getitem__)
    return transpose(identity(tuple(shape[axis] for axis in order)), inverse)


def is_c_contiguous(layout) -> bool:
    # Plain-int arithmetic: only the values are compared (a SymInt product would build an
    # expression per dim on every traced view and write).
    shape, strides, _ = layout
    if 0 in shape:
        return True
    expected = 1
    for d, s in zip(reversed(shape), reversed(strides)):
        if d != 1 and s != expected:
            return False
        expected *= int(d)
    return True


def is_f_contiguous(layout) -> bool:
    """Fortran-contiguous (size-1 axes' strides ignored, as NumPy's relaxed flags)."""
    shape, strides, offset = layout
    return is_c_contiguous((shape[::-1], strides[::-1], offset))


def order_code(order, none: str = "K") -> str:
    """NumPy's order argument as 'C', 'F', 'A' or 'K' (case-insensitive; ``None`` is
    ``none``: 'K' for copies and casts, 'C' for ``ndarray.copy`` and creation)."""
    if order is None:
        return none
    if isinstance(order, str) and len(order) == 1 and order.upper() in "CFAK":
        return order.upper()
    raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


def fortran_order(ndim: int):
    """The axis permutation of Fortran order (None where it is C order too)."""
    return tuple(range(ndim))[::-1] if ndim > 1 else None


def new_array_order(layout, order: str):
    """The memory order (axis permutation, slowest first; None for C) of a new array made
    from one with ``layout`` under ``order`` (NumPy's ``PyArray_NewLikeArray``: copies,
    ``astype``, the ``*_like`` functions).  'A' is Fortran order for a Fortran- but not
    C-contiguous source; 'K' keeps contiguous sources' order and otherwise sorts the axes by
    decreasing absolute stride (a stable sort, so ties and broadcast axes keep C order)."""
    shape, strides, _ = layout
    ndim = len(shape)
    if order == "C" or ndim <= 1:
        return None
    if order == "F":
        return fortran_order(ndim)
    if is_c_contiguous(layout):
        return None
    if is_f_contiguous(layout):
        return fortran_order(ndim)
    if order == "A":
        return None
    perm = tuple(sorted(range(ndim), key=lambda axis: -abs(strides[axis])))
    return None if perm == tuple(range(ndim)) else perm


def is_identity(layout, storage_shape) -> bool:
    shape, strides, offset = layout
    return offset == 0 and tuple(shape) == tuple(storage_shape) and is_c_contiguous(layout)


def has_overlap(layout) -> bool:
    """True when two indices may share one element (a broadcast, stride 0, view)."""
    shape, strides, _ = layout
    return any(s == 0 and d > 1 for d, s in zip(shape, strides))


def memory_order(layouts_of_operands, shape):
    """NumPy's 'K' order for an elementwise result: the axis permutation (slowest-varying
    first) that its memory follows, or None for C order.

    NumPy's iterator sorts the axes by stride with an insertion sort that starts from C
    order (``npyiter_find_best_axis_ordering``): an axis moves before another only when
    every operand with non-zero strides on both says its stride there is smaller; an
    operand that disagrees keeps C order, and an operand broadcast (stride 0) along either
    axis has no say.
    """
    # A pure function of the operands' shapes and strides (values: a symbolic size votes
    # as the number it is), asked again for every op of a loop over the same views.
    key = (tuple([(layout[0], layout[1]) for layout in layouts_of_operands]), shape)
    order = _orders.get(key, _MISSING)
    if order is _MISSING:
        if len(_orders) > 4096:
            _orders.clear()
        order = _orders[key] = _memory_order(layouts_of_operands, shape)
    return order


_orders: dict = {}      # memo of memory_order (a race at worst computes an entry twice)
_MISSING = object()


def _memory_order(layouts_of_operands, shape):
    ndim = len(shape)
    operand_strides = [_iterator_strides(layout, shape) for layout in layouts_of_operands]
    if all(_c_ordered(strides) for strides in operand_strides):
        return None         # no operand votes to move an axis (slices of C arrays: the rule)
    fastest_first = list(range(ndim))[::-1]
    for i0 in range(1, ndim):
        axis0, position = fastest_first[i0], i0
        for i1 in range(i0 - 1, -1, -1):
            smaller = _stride_verdict(operand_strides, axis0, fastest_first[i1])
            if smaller is None:          # nobody compares these two axes: look further
                continue
            if not smaller:
                break
            position = i1
        fastest_first.insert(position, fastest_first.pop(i0))
    order = tuple(fastest_first[::-1])
    return None if order == tuple(range(ndim)) else order


def _c_ordered(strides) -> bool:
    """Whether an operand's non-zero strides never grow from one axis to the next: then it
    says "larger" for every slower axis, and the sort below moves nothing for it."""
    previous = None
    for s in strides:
        if s:
            s = abs(s)
            if previous is not None and s > previous:
                return False
            previous = s
    return True


def votes_c_order(layout) -> bool:
    """Whether an operand with ``layout`` leaves ``memory_order`` at C order whatever the
    other operands say: its non-zero strides along axes longer than 1 never grow from one
    axis to the next (``_c_ordered`` of its iterator strides, without building them)."""
    previous = None
    for d, s in zip(layout[0], layout[1]):
        if s and d != 1:
            s = abs(s)
            if previous is not None and s > previous:
                return False
            previous = s
    return True


def _iterator_strides(layout, shape):
    """An operand's strides along the result's axes as NumPy's iterator sees them: 0 along
    broadcast, missing and length-1 axes."""
    op_shape, strides, _ = layout
    pad = len(shape) - len(op_shape)
    return [0] * pad + [s if d != 1 else 0 for d, s in zip(op_shape, strides)]


def _stride_verdict(operand_strides, axis0, axis1):
    """True when every operand with non-zero strides on both axes has a smaller stride
    along ``axis0``; False when one of them does not; None when none has both."""
    verdict = None
    for strides in operand_strides:
        s0, s1 = strides[axis0], strides[axis1]
        if s0 and s1:
            if abs(s1) <= abs(s0):
                verdict = False
            elif verdict is None:
                verdict = True
    return verdict


def reduction_order(layouts_of_operands, shape, axes, keepdims=False):
    """The memory order of a reduction's result over ``axes`` of ``shape`` (without
    keepdims the reduced axes are dropped from the order and the kept ones renumbered).
    NumPy's reduction iterator allocates its result in its axis order ('K' over the
    operands: the input and a ``where`` mask)."""
    if len(shape) - len(axes) < 2:
        return None
    return _reduction_order(tuple(layouts_of_operands), tuple(shape), tuple(axes), keepdims)


# The order memos return axis numbers only (never sizes, which may be symbolic), so a key
# equal by value gives the same answer.
@functools.lru_cache(maxsize=4096)
def _reduction_order(layouts_of_operands, shape, axes, keepdims):
    perm = memory_order(layouts_of_operands, shape)
    if perm is None or keepdims:      # kept reduced axes have length 1: anywhere will do
        return perm
    kept = [axis for axis in perm if axis not in axes]
    number = {axis: i for i, axis in enumerate(sorted(kept))}
    order = tuple(number[axis] for axis in kept)
    return None if order == tuple(range(len(order))) else order


@functools.lru_cache(maxsize=4096)
def gather_order(subspace, position: int, index_ndim: int):
    """The memory order of an advanced-indexing result (NumPy's ``mapiter``): the broadcast
    index dims, found at result dims ``[position, position + index_ndim)``, vary slowest (in
    C order), then the dims not indexed (``subspace``, their layout in the source) in the
    source's 'K' order (a stable sort by decreasing absolute stride)."""
    ndim = len(subspace[0])
    inner = new_array_order(subspace, "K") or range(ndim)
    order = tuple(range(position, position + index_ndim)) + tuple(
        axis if axis < position else axis + index_ndim for axis in inner)
    return None if order == tuple(range(len(order))) else order


def join_order(layouts_of_inputs):
    """The memory order of ``concatenate``'s result (NumPy's
    ``PyArray_CreateMultiSortedStridePerm``): an insertion sort from C order by decreasing
    absolute stride, where an axis moves before another only when no input with both
    lengths not 1 says its stride there is smaller or equal (a stride 0 along a length
    above 1 counts, unlike the elementwise iterator's rule)."""
    return _join_order(tuple(layouts_of_inputs))


@functools.lru_cache(maxsize=4096)
def _join_order(layouts_of_inputs):
    ndim = len(layouts_of_inputs[0][0])
    order = list(range(ndim))
    for i0 in range(1, ndim):
        axis0, position = order[i0], i0
        for i1 in range(i0 - 1, -1, -1):
            larger = _join_verdict(layouts_of_inputs, axis0, order[i1])
            if larger is None:
                continue
            if not larger:
                break
            position = i1
        order.insert(position, order.pop(i0))
    return None if order == list(range(ndim)) else tuple(order)


def _join_verdict(layouts_of_inputs, axis0, axis1):
    """True when every input with lengths not 1 on both axes has a larger absolute stride
    along ``axis0``; False when one does not; None when none has both."""
    verdict = None
    for shape, strides, _ in layouts_of_inputs:
        if shape[axis0] != 1 and shape[axis1] != 1:
            if abs(strides[axis0]) <= abs(strides[axis1]):
                verdict = False
            elif verdict is None:
                verdict = True
    return verdict


def transpose(layout, axes) -> tuple:
    shape, strides, offset = layout
    return (tuple(shape[a] for a in axes), tuple(strides[a] for a in axes), offset)


def reshape_without_copy(layout, new_shape):
    """Strides for viewing ``layout`` as ``new_shape`` without a copy, or None.

    NumPy's rule (``_attempt_nocopy_reshape``): size-1 dims are dropped, then groups of old
    dims that are contiguous among themselves map onto groups of new dims.
    """
    shape, strides, offset = layout
    new_shape = tuple(new_shape)
    if size_of(shape) == 0 or size_of(new_shape) == 0:
        return (new_shape, c_strides(new_shape), offset) if size_of(shape) == size_of(new_shape) else None
    old = [(d, s) for d, s in zip(shape, strides) if d != 1]
    old_dims = [d for d, _ in old]
    old_strides = [s for _, s in old]
    new_strides = [0] * len(new_shape)
    oi = ni = 0
    while oi < len(old_dims) and ni < len(new_shape):
        op, np_ = old_dims[oi], new_shape[ni]
        oj, nj = oi + 1, ni + 1
        while op != np_:
            if np_ < op:
                np_ *= new_shape[nj]
                nj += 1
            else:
                op *= old_dims[oj]
                oj += 1
        for k in range(oi, oj - 1):
            if old_strides[k] != old_dims[k + 1] * old_strides[k + 1]:
                return None
        new_strides[nj - 1] = old_strides[oj - 1]
        for k in range(nj - 1, ni, -1):
            new_strides[k - 1] = new_strides[k] * new_shape[k]
        oi, ni = oj, nj
    # Trailing size-1 dims of the new shape get a stride like NumPy's (any value is valid).
    last = old_strides[-1] if old_strides else 1
    for k in range(ni, len(new_shape)):
        new_strides[k] = last
    return (new_shape, tuple(new_strides), offset)
