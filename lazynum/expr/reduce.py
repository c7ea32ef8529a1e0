"""Reductions over a set of axes, arg-reductions and scans (cumulative ops).

Strict contract: ``attrs[0]`` is a sorted tuple of distinct non-negative axes; the output
drops them (the front end re-inserts size-1 dims for ``keepdims``) and keeps the input
dtype (the front end casts to the accumulator dtype NumPy would use first).
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from .combines import PROPAGATE, lookup as lookup_combine
from .registry import register
from .shapes import size_of


def _reduced_shape(args, attrs):
    axes = attrs[0]
    shape = args[0].shape
    if any(not 0 <= a < len(shape) for a in axes) or list(axes) != sorted(set(axes)):
        raise ValueError(f"reduction axes {axes} invalid for shape {shape}")
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _no_identity_shape(name):
    ufunc = getattr(np, name)

    def rule(args, attrs):
        shape = args[0].shape
        if size_of(shape) == 0:
            # An empty input allocates nothing, so NumPy itself decides whether this
            # reduction has no identity (its ValueError, its message).
            ufunc.reduce(np.empty(shape, args[0].dtype), axis=attrs[0])
        return _reduced_shape(args, attrs)
    return rule


def _same_dtype(args, attrs):
    return args[0].dtype


def _bool_only(args, attrs):
    if args[0].dtype != dtypes.BOOL:
        raise TypeError(f"logical reductions take bool input, got {args[0].dtype}")
    return dtypes.BOOL


# The ufuncs' own reduce methods, not np.max/np.sum (whose Python wrappers cost a
# microsecond a call: the immediate tier runs these per op).
def _reference(ufunc):
    return lambda arrays, attrs: np.asarray(ufunc.reduce(arrays[0], axis=attrs[0]))


def _same_dtype_reference(ufunc):
    # np.add.reduce widens narrow ints; the primitive keeps its input dtype (wrapping).
    return lambda arrays, attrs: np.asarray(ufunc.reduce(arrays[0], axis=attrs[0],
                                                         dtype=arrays[0].dtype))


REDUCE_SUM = register("reduce_sum", "reduce", shape=_reduced_shape, dtype=_same_dtype,
                      reference=_same_dtype_reference(np.add), doc="Sum over attrs[0] (pairwise for floats).")
REDUCE_PROD = register("reduce_prod", "reduce", shape=_reduced_shape, dtype=_same_dtype,
                       reference=_same_dtype_reference(np.multiply), doc="Product over attrs[0].")
REDUCE_MAX = register("reduce_max", "reduce", shape=_no_identity_shape("maximum"), dtype=_same_dtype,
                      reference=_reference(np.maximum), doc="Maximum over attrs[0]; NaN propagates.")
REDUCE_MIN = register("reduce_min", "reduce", shape=_no_identity_shape("minimum"), dtype=_same_dtype,
                      reference=_reference(np.minimum), doc="Minimum over attrs[0]; NaN propagates.")
REDUCE_FMAX = register("reduce_fmax", "reduce", shape=_no_identity_shape("fmax"), dtype=_same_dtype,
                       reference=_reference(np.fmax), doc="Maximum ignoring NaN (NaN if all NaN).")
REDUCE_FMIN = register("reduce_fmin", "reduce", shape=_no_identity_shape("fmin"), dtype=_same_dtype,
                       reference=_reference(np.fmin), doc="Minimum ignoring NaN (NaN if all NaN).")
REDUCE_ANY = register("reduce_any", "reduce", shape=_reduced_shape, dtype=_bool_only,
                      reference=_reference(np.logical_or), doc="Logical or over attrs[0].")
REDUCE_ALL = register("reduce_all", "reduce", shape=_reduced_shape, dtype=_bool_only,
                      reference=_reference(np.logical_and), doc="Logical and over attrs[0].")


# --- VJP rules (lazynum.autograd) of the reductions ---------------------------------------
# max/min: the cotangent is shared equally by the elements equal to the result (ties split
# evenly, as JAX and PyTorch's amax do); where NaN propagates, the NaN elements are the
# result.  prod: exact where the slice holds zeros (no division by zero).
from . import derivatives as _d  # noqa: E402


def _sum_vjp(node, g):
    return (_d.expand_reduced(g, node.attrs[0], node.args[0].shape),)


def _prod_vjp(node, g):
    x, axes = node.args[0], node.attrs[0]
    zero, one = _d.const(0, x), _d.const(1, x)
    is_zero = _d.call("equal", x, zero)
    nonzero = _d.select(is_zero, one, x)
    others = _d.expand_reduced(_d.apply("reduce_prod", (nonzero,), (axes,)), axes, x.shape)
    zeros = _d.expand_reduced(_d.reduce_sum(_d.cast(is_zero, x.dtype), axes), axes, x.shape)
    # product of the other elements: others / x without zeros, others at the only zero,
    # an exact zero when another element is zero
    at_nonzero = _d.select(_d.call("equal", zeros, zero), _d.div(others, nonzero), zero)
    at_zero = _d.select(_d.call("equal", zeros, one), others, zero)
    return (_d.mul(_d.expand_reduced(g, axes, x.shape), _d.select(is_zero, at_zero, at_nonzero)),)


def _extremum_vjp(combine):
    nan_propagates = lookup_combine(combine).nan == PROPAGATE

    def rule(node, g):
        x, axes = node.args[0], node.attrs[0]
        hit = _d.call("equal", x, _d.expand_reduced(node, axes, x.shape))
        if nan_propagates:
            hit = _d.call("logical_or", hit, _d.call("isnan", x))
        count = _d.reduce_sum(_d.cast(hit, x.dtype), axes)
        share = _d.expand_reduced(_d.div(g, count), axes, x.shape)
        return (_d.Masked(_d.masked(hit, share), hit),)
    return rule


REDUCE_SUM.vjp = _sum_vjp
REDUCE_PROD.vjp = _prod_vjp
REDUCE_MAX.vjp, REDUCE_MIN.vjp = _extremum_vjp("maximum"), _extremum_vjp("minimum")
REDUCE_FMAX.vjp, REDUCE_FMIN.vjp = _extremum_vjp("fmax"), _extremum_vjp("fmin")
REDUCE_ANY.vjp = REDUCE_ALL.vjp = _d.NOT_FLOAT


def _arg_shape(name):
    def rule(args, attrs):
        (axis,) = attrs
        shape = args[0].shape
        if not 0 <= axis < len(shape):
            raise ValueError(f"{name} axis {axis} invalid for shape {shape}")
        if shape[axis] == 0:
            raise ValueError(f"attempt to get {name} of an empty sequence")
        return shape[:axis] + shape[axis + 1:]
    return rule


ARGMAX = register("argmax", "reduce", shape=_arg_shape("argmax"), dtype=lambda a, t: dtypes.INT64,
                  reference=lambda arrays, attrs: np.asarray(np.argmax(arrays[0], axis=attrs[0])),
                  doc="Index of the first maximum along the single axis attrs[0] (NaN wins).")
ARGMIN = register("argmin", "reduce", shape=_arg_shape("argmin"), dtype=lambda a, t: dtypes.INT64,
                  reference=lambda arrays, attrs: np.asarray(np.argmin(arrays[0], axis=attrs[0])),
                  doc="Index of the first minimum along the single axis attrs[0] (NaN wins).")
ARGMAX.vjp = ARGMIN.vjp = _d.NOT_FLOAT      # int64 indices


def _scan_shape(args, attrs):
    if not 0 <= attrs[0] < len(args[0].shape):
        raise ValueError(f"scan axis {attrs[0]} invalid for shape {args[0].shape}")
    return args[0].shape


CUMSUM = register("cumsum", "scan", shape=_scan_shape, dtype=_same_dtype,
                  reference=lambda arrays, attrs: np.cumsum(arrays[0], axis=attrs[0], dtype=arrays[0].dtype),
                  doc="Inclusive prefix sum along attrs[0].")
CUMPROD = register("cumprod", "scan", shape=_scan_shape, dtype=_same_dtype,
                   reference=lambda arrays, attrs: np.cumprod(arrays[0], axis=attrs[0], dtype=arrays[0].dtype),
                   doc="Inclusive prefix product along attrs[0].")


# --- VJP rules (lazynum.autograd) of the scans --------------------------------------------
def _reverse_cumsum(v, axis):
    return _d.flip(_d.apply("cumsum", (_d.flip(v, axis),), (axis,)), axis)


def _cumsum_vjp(node, g):
    return (_reverse_cumsum(g, node.attrs[0]),)


def _cumprod_vjp(node, g):
    # d y_j / d x_i = y_j / x_i for j >= i, except at zeros: before the first zero of a
    # line that formula holds; at the first zero, the products with that zero replaced by
    # one; after it every product holds a zero.  Exact, with no division by zero.
    x, axis = node.args[0], node.attrs[0]
    zero, one = _d.const(0, x), _d.const(1, x)
    is_zero = _d.call("equal", x, zero)
    zeros_so_far = _d.apply("cumsum", (_d.cast(is_zero, x.dtype),), (axis,))
    first_zero = _d.call("logical_and", is_zero, _d.call("equal", zeros_so_far, one))
    plain = _d.div(_reverse_cumsum(_d.mul(g, node), axis), _d.select(is_zero, one, x))
    skipped = _d.apply("cumprod", (_d.select(first_zero, one, x),), (axis,))
    at_first_zero = _reverse_cumsum(_d.mul(g, skipped), axis)
    return (_d.select(_d.call("equal", zeros_so_far, zero), plain,
                      _d.select(first_zero, at_first_zero, zero)),)


CUMSUM.vjp = _cumsum_vjp
CUMPROD.vjp = _cumprod_vjp

# Running extremes (``numpy.maximum.accumulate``, ...): NumPy's own loop, NaN rules included.
RUNNING_EXTREMES = {}
for _ufunc, _name in ((np.maximum, "cummax"), (np.minimum, "cummin"), (np.fmax, "cumfmax"),
                      (np.fmin, "cumfmin")):
    RUNNING_EXTREMES[_ufunc.__name__] = register(
        _name, "scan", shape=_scan_shape, dtype=_same_dtype,
        reference=lambda arrays, attrs, _ufunc=_ufunc: _ufunc.accumulate(arrays[0], axis=attrs[0]),
        doc=f"numpy.{_ufunc.__name__}.accumulate along attrs[0] (a running extreme).")
    RUNNING_EXTREMES[_ufunc.__name__].vjp = _d.not_written(f"numpy.{_ufunc.__name__}.accumulate")


# --- kernel lowerings (lazynum.compile) ------------------------------------------------------
# A reduction lowers to its combine (a kernel-IR reduction over its axes); the scheduler
# fuses its pointwise producers into the loop.  Arg-reductions carry the position along
# their axis with the best value.  Scans are extern calls.  What a combine means (identity,
# scalar op, NaN rule) is declared in ``expr.combines``: naming one not declared there is a
# KeyError here, at import.
from .registry import EXTERN, declare_lowering  # noqa: E402


def _reduction(combine):
    if lookup_combine(combine).arg:
        raise ValueError(f"{combine!r} is an arg-reduction: use _arg_reduction")

    def lowering(builder, node, args):
        return builder.reduce(combine, args[0], node.dtype)
    lowering.combine = combine
    return lowering


for _op, _combine in ((REDUCE_SUM, "add"), (REDUCE_PROD, "multiply"), (REDUCE_MAX, "maximum"),
                      (REDUCE_MIN, "minimum"), (REDUCE_FMAX, "fmax"), (REDUCE_FMIN, "fmin"),
                      (REDUCE_ANY, "logical_or"), (REDUCE_ALL, "logical_and")):
    declare_lowering(_op, _reduction(_combine))


def _arg_reduction(combine):
    if not lookup_combine(combine).arg:
        raise ValueError(f"{combine!r} is not an arg-reduction: use _reduction")

    def lowering(builder, node, args):
        return builder.reduce_arg(combine, args[0], node.args[0].dtype, node.attrs[0])
    lowering.combine = combine
    return lowering


declare_lowering(ARGMAX, _arg_reduction("argmax"))
declare_lowering(ARGMIN, _arg_reduction("argmin"))
for _op in (CUMSUM, CUMPROD, *RUNNING_EXTREMES.values()):
    declare_lowering(_op, EXTERN)
