"""Gather/scatter primitives and the run-time index check.

Index bounds depend on data, so they are checked when the graph runs: ``check_index``
normalizes negative indices and raises NumPy's IndexError at the sync, naming the op and
the user line that traced it.  ``take``/``scatter`` then trust their (normalized) indices.
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from . import derivatives as _d
from .registry import register
from .shapes import broadcast_shapes, c_strides


def _int_dtype(node, what):
    if node.dtype.kind not in "iu":
        raise IndexError(f"{what}: arrays used as indices must be of integer type, got {node.dtype}")


def _check_index_shape(args, attrs):
    _int_dtype(args[0], "check_index")
    return args[0].shape


def normalize_indices(idx: np.ndarray, size: int, axis: int, negative: bool = True) -> np.ndarray:
    """Integer indices for an axis of ``size`` as a new non-negative int64 array; NumPy's
    IndexError for any out of bounds.  NumPy casts index arrays to intp first, so uint64
    values of 2**63 and above wrap to negative indices (2**64 - 1 is -1), as here.  (The
    front end applies it to host indices at the call; ``check_index`` applies it to lazy
    ones at the sync.)  ``negative=False`` refuses negative indices (searchsorted's
    sorter)."""
    out = idx.astype(np.int64)
    bad = (out < (-size if negative else 0)) | (out >= size)
    if bad.any():
        raise IndexError(f"index {out[bad].flat[0]} is out of bounds for axis {axis} with size {size}")
    np.add(out, size, out=out, where=out < 0)
    return out


def _check_index_reference(arrays, attrs):
    return normalize_indices(arrays[0], *attrs)


CHECK_INDEX = register(
    "check_index", "index", shape=_check_index_shape, dtype=lambda args, attrs: dtypes.INT64,
    reference=_check_index_reference, may_fail=True,
    doc="Normalize integer indices into [0, size) for axis; IndexError at run time if out of "
        "bounds (attrs: size, axis, and optionally False to refuse negative indices).")
CHECK_INDEX.vjp = _d.NOT_FLOAT


def _take_shape(args, attrs):
    x, idx = args
    (axis,) = attrs
    if idx.dtype != dtypes.INT64:
        raise TypeError("take primitive needs normalized int64 indices (check_index)")
    return x.shape[:axis] + idx.shape + x.shape[axis + 1:]


TAKE = register("take", "index", shape=_take_shape, dtype=lambda args, attrs: args[0].dtype,
                reference=lambda arrays, attrs: np.take(arrays[0], arrays[1], axis=attrs[0]),
                doc="Gather along attrs[0] with normalized int64 indices.")



def _take_vjp(node, g):
    # scatter-add g back to the flat positions each output element was read from
    x, idx = node.args
    (axis,) = node.attrs
    x_strides, shape, k = c_strides(x.shape), tuple(g.shape), len(idx.shape)
    spread = (0,) * axis + c_strides(idx.shape) + (0,) * (len(shape) - axis - k)
    terms = [(i, x_strides[i]) for i in range(axis)]
    terms.append((_d.apply("view", (idx,), (shape, spread, 0)), x_strides[axis]))
    terms += [(axis + k + j, x_strides[axis + 1 + j]) for j in range(len(x.shape) - axis - 1)]
    flat = _d.flat_index(shape, terms)
    return (_d.apply("scatter_add", (_d.zeros(x.shape, g.dtype), flat, g)), None)


TAKE.vjp = _take_vjp


def _along_shape(args, attrs):
    x, idx = args[0], args[1]
    (axis,) = attrs
    if idx.dtype != dtypes.INT64 or len(idx.shape) != len(x.shape):
        raise TypeError("take_along_axis primitive needs normalized int64 indices of equal rank")
    outer_x = x.shape[:axis] + (1,) + x.shape[axis + 1:]
    outer_i = idx.shape[:axis] + (1,) + idx.shape[axis + 1:]
    outer = broadcast_shapes(outer_x, outer_i)
    return outer[:axis] + (idx.shape[axis],) + outer[axis + 1:]


TAKE_ALONG_AXIS = register(
    "take_along_axis", "index", shape=_along_shape, dtype=lambda args, attrs: args[0].dtype,
    reference=lambda arrays, attrs: np.take_along_axis(arrays[0], arrays[1], axis=attrs[0]),
    doc="numpy.take_along_axis with normalized int64 indices.")



def _take_along_vjp(node, g):
    x, idx = node.args
    (axis,) = node.attrs
    x_strides, shape = c_strides(x.shape), tuple(g.shape)
    terms = [(k, 0 if x.shape[k] == 1 else x_strides[k]) for k in range(len(shape)) if k != axis]
    terms.append((idx, x_strides[axis]))
    flat = _d.flat_index(shape, terms)
    return (_d.apply("scatter_add", (_d.zeros(x.shape, g.dtype), flat, g)), None)


TAKE_ALONG_AXIS.vjp = _take_along_vjp


def _scatter_shape(args, attrs):
    base, idx, values = args
    if idx.dtype != dtypes.INT64 or values.shape != idx.shape or values.dtype != base.dtype:
        raise TypeError("scatter needs int64 flat indices and values of the index shape and base dtype")
    return base.shape


def _scatter_inplace(arrays, attrs):
    base, idx, values = arrays
    base.reshape(-1)[idx] = values
    return base


def _scatter_add_inplace(arrays, attrs):
    base, idx, values = arrays
    np.add.at(base.reshape(-1), idx, values)
    return base


def _on_a_copy(inplace):
    return lambda arrays, attrs: inplace([np.array(arrays[0], copy=True, order="C"), *arrays[1:]], attrs)


SCATTER = register("scatter", "index", shape=_scatter_shape, dtype=lambda args, attrs: args[0].dtype,
                   reference=_on_a_copy(_scatter_inplace), reference_inplace=_scatter_inplace,
                   doc="Copy of base with base.flat[idx] = values (the last duplicate wins).")
SCATTER_ADD = register("scatter_add", "index", shape=_scatter_shape,
                       dtype=lambda args, attrs: args[0].dtype,
                       reference=_on_a_copy(_scatter_add_inplace), reference_inplace=_scatter_add_inplace,
                       doc="Copy of base with values added at flat idx (duplicates accumulate).")



@_d.uses_needs
def _scatter_vjp(node, g, needs=None):
    # overwritten positions get no gradient in base; of repeated indices only the last
    # write (the value that survives) gets the gradient
    base, idx, values = node.args
    to_base = _d.apply("scatter", (g, idx, _d.zeros(values.shape, g.dtype))) if _d.wanted(needs, 0) else None
    if not _d.wanted(needs, 2):
        return (to_base, None, None)
    positions, winners = _d.written_positions(lambda b, v: _d.apply("scatter", (b, idx, v)),
                                              base.shape, idx.shape)
    won = _d.call("equal", _d.take_flat(winners, idx), positions)
    return (to_base, None, _d.masked(won, _d.take_flat(g, idx)))


# ufunc.at's combines other than add (``frontend.indexing.ufunc_at``): NumPy's ufunc names,
# each a combine of ``expr.combines`` (identity, scalar op, NaN rule).  Unbuffered as
# NumPy's ``at``: every repeated index applies, in index order.
SCATTER_COMBINES = ("multiply", "minimum", "maximum", "fmin", "fmax", "bitwise_and",
                    "bitwise_or", "bitwise_xor", "logical_and", "logical_or")


def _scatter_reduce_shape(args, attrs):
    (combine,) = attrs
    if combine not in SCATTER_COMBINES:
        raise ValueError(f"scatter_reduce: no combine {combine!r} (known: {', '.join(SCATTER_COMBINES)})")
    if combine.startswith("logical") and args[0].dtype != dtypes.BOOL:
        raise TypeError(f"scatter_reduce: {combine} combines bool values, not {args[0].dtype}")
    return _scatter_shape(args, attrs)


def _scatter_reduce_inplace(arrays, attrs):
    base, idx, values = arrays
    getattr(np, attrs[0]).at(base.reshape(-1), idx, values)
    return base


SCATTER_REDUCE = register(
    "scatter_reduce", "index", shape=_scatter_reduce_shape, dtype=lambda args, attrs: args[0].dtype,
    reference=_on_a_copy(_scatter_reduce_inplace), reference_inplace=_scatter_reduce_inplace,
    doc="Copy of base with base.flat[idx] = combine(base.flat[idx], values) for each index in "
        "order (NumPy's <combine>.at: duplicates all apply); attrs: (combine,), a name of "
        "SCATTER_COMBINES.")
# Bitwise and logical scatters are integer/bool valued: no cotangent reaches them.  For
# multiply and the extremes the rule is not written: a product's gradient through repeated
# indices needs the other factors (zeros included), and the extremes need a tie convention.
SCATTER_REDUCE.vjp = _d.not_written(
    "scatter_reduce (multiply/minimum/maximum/fmin/fmax.at)",
    "; without repeated indices write a[idx] = lazynum.<ufunc>(a[idx], b) instead")

SCATTER.vjp = _scatter_vjp
SCATTER_ADD.vjp = _d.uses_needs(lambda node, g, needs=None: (
    g, None, _d.take_flat(g, node.args[1]) if _d.wanted(needs, 2) else None))


def _put_along_shape(args, attrs):
    base, idx, values = args
    if values.shape != idx.shape or values.dtype != base.dtype:
        raise TypeError("put_along_axis primitive needs values of the index shape and base dtype")
    _along_shape((base, idx), attrs)
    return base.shape


def _put_along_reference(arrays, attrs):
    base, idx, values = arrays
    out = np.array(base, copy=True, order="C")
    np.put_along_axis(out, idx, values, axis=attrs[0])
    return out


PUT_ALONG_AXIS = register(
    "put_along_axis", "index", shape=_put_along_shape, dtype=lambda args, attrs: args[0].dtype,
    reference=_put_along_reference, doc="numpy.put_along_axis on a copy of base.")



@_d.uses_needs
def _put_along_vjp(node, g, needs=None):
    base, idx, values = node.args

    def put(target, new):
        return _d.apply("put_along_axis", (target, idx, new), node.attrs)
    to_base = put(g, _d.zeros(values.shape, g.dtype)) if _d.wanted(needs, 0) else None
    if not _d.wanted(needs, 2):
        return (to_base, None, None)
    positions, winners = _d.written_positions(put, base.shape, idx.shape)
    won = _d.call("equal", _d.apply("take_along_axis", (winners, idx), node.attrs), positions)
    gathered = _d.apply("take_along_axis", (g, idx), node.attrs)
    return (to_base, None, _d.sum_to_shape(_d.masked(won, gathered), values.shape))


PUT_ALONG_AXIS.vjp = _put_along_vjp


# --- kernel lowerings (lazynum.compile): extern calls for now (gathers/scatters) -----------
from .registry import EXTERN, declare_lowering  # noqa: E402

for _op in (CHECK_INDEX, TAKE, TAKE_ALONG_AXIS, SCATTER, PUT_ALONG_AXIS):
    declare_lowering(_op, EXTERN)


class ScatterLowering:
    """A scatter-combine's kernel form: the compile layer gives it a scatter target
    (``compile.kernel_ir.ScatterTarget``: private copies per part, combined in order) and
    computes its indices and values in the kernel's loop (``compile.lowering._scatter``);
    ``combine`` names what it folds with (``expr.combines``), or is None where the node's
    first attr names it (``scatter_reduce``): ask ``combine_of(node)``.  It is never called
    as a pointwise lowering."""
    __slots__ = ("combine",)

    def __init__(self, combine: str | None):
        self.combine = combine

    def combine_of(self, node) -> str:
        """The combine that ``node`` (a node of this lowering's op) folds with."""
        return self.combine if self.combine is not None else node.attrs[0]

    def __call__(self, builder, node, args):
        raise TypeError(f"{node.op.name} is lowered as a scatter target, not pointwise")

    def __repr__(self):
        return f"ScatterLowering({self.combine!r})"


declare_lowering(SCATTER_ADD, ScatterLowering("add"))
declare_lowering(SCATTER_REDUCE, ScatterLowering(None))
