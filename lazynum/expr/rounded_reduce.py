"""float16 sums and products with ``initial=`` or ``where=``: NumPy's own reduce call.

NumPy's float16 ``add``/``multiply`` loops accumulate one inner loop in float32 (``add``
pairwise, ``multiply`` in order) and round to half when the loop ends, starting from the
value already in the output: that is the ``initial`` value, so ``sum(a, initial=3)`` rounds once,
where ``sum(a) + 3`` rounds twice.  A ``where`` mask splits the inner loop at every run of
true elements, and each run rounds.  The order is the iterator's, so only NumPy's own call
gives its bits: ``rounded_reduce`` is an extern step (a fusion boundary, not a sync) whose
reference is ``ufunc.reduce(x, axis, initial=..., where=mask)``.  The front end uses it
for float16 accumulators only; other dtypes select and reduce as before (a float sum's
order is the backend's anyway).

``rounded_reduce(x, initial[, mask])``: ``initial`` a 0-d node of ``x``'s dtype (a runtime
value, not part of the compile-cache key), ``mask`` a bool node of ``x``'s shape (absent
without ``where=``: a mask's strides, even an all-true one's, enter the order NumPy's
iterator picks); attrs ``(ufunc name, axes)`` with the strict reduction contract.
"""
from __future__ import annotations

import numpy as np

from . import derivatives as _d
from .registry import EXTERN, OPS, declare_lowering, register

UFUNCS = {"add": np.add, "multiply": np.multiply}


def _shape(args, attrs):
    x, initial, *mask = args
    _, axes = attrs
    if tuple(initial.shape) != () or any(tuple(m.shape) != tuple(x.shape) for m in mask):
        raise ValueError(f"rounded_reduce takes a 0-d initial and a mask of the input's shape, "
                         f"got {[a.shape for a in args[1:]]} for {x.shape}")
    if any(not 0 <= a < len(x.shape) for a in axes) or list(axes) != sorted(set(axes)):
        raise ValueError(f"reduction axes {axes} invalid for shape {x.shape}")
    return tuple(d for i, d in enumerate(x.shape) if i not in axes)


def _dtype(args, attrs):
    x, initial, *mask = args
    if initial.dtype != x.dtype or any(m.dtype != np.dtype(np.bool_) for m in mask):
        raise TypeError(f"rounded_reduce takes (T, T[, bool]), got {[a.dtype for a in args]}")
    return x.dtype


def _reference(arrays, attrs):
    x, initial, *mask = arrays
    name, axes = attrs
    return np.asarray(UFUNCS[name].reduce(x, axis=axes, dtype=x.dtype, initial=initial[()],
                                          where=mask[0] if mask else True))


ROUNDED_REDUCE = register(
    "rounded_reduce", "extern", shape=_shape, dtype=_dtype, reference=_reference,
    doc="numpy.<attrs[0]>.reduce(args[0], axis=attrs[1], initial=args[1], where=args[2]): "
        "NumPy's float16 rounding per inner loop.")
declare_lowering(ROUNDED_REDUCE, EXTERN)


@_d.uses_needs
def _vjp(node, g, needs=None):
    # The value is the sum (product) of the selected elements plus (times) the initial
    # value: reduce_sum's rule (reduce_prod's, over the elements with 1 where unselected),
    # zero where the mask is false; the initial value gets the sum of g (of g times the
    # product of the elements).
    x, initial, *mask = node.args
    name, axes = node.attrs
    every = tuple(range(len(g.shape)))
    keep = (lambda value: _d.masked(mask[0], value)) if mask else (lambda value: value)
    through = start = None
    if name == "add":
        if _d.wanted(needs, 0):
            through = keep(_d.expand_reduced(g, axes, x.shape))
        if _d.wanted(needs, 1):
            start = _d.reshape(_d.reduce_sum(g, every), ())
        return (through, start) + (None,) * len(mask)
    factors = _d.select(mask[0], x, _d.const(1, x)) if mask else x
    inner = _d.apply("reduce_prod", (factors,), (axes,))
    if _d.wanted(needs, 0):
        through = keep(OPS["reduce_prod"].vjp(inner, _d.mul(g, initial))[0])
    if _d.wanted(needs, 1):
        start = _d.reshape(_d.reduce_sum(_d.mul(g, inner), every), ())
    return (through, start) + (None,) * len(mask)


ROUNDED_REDUCE.vjp = _vjp
