"""Reductions over a set of axes, arg-reductions and scans (cumulative ops).

Strict contract: ``attrs[0]`` is a sorted tuple of distinct non-negative axes; the output
drops them (the front end re-inserts size-1 dims for ``keepdims``) and keeps the input
dtype (the front end casts to the accumulator dtype NumPy would use first).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
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


def _reference(fn):
    return lambda arrays, attrs: np.asarray(fn(arrays[0], axis=attrs[0]))


def _same_dtype_reference(fn):
    # np.sum/np.prod widen narrow ints; the primitive keeps its input dtype (wrapping).
    return lambda arrays, attrs: np.asarray(fn(arrays[0], axis=attrs[0], dtype=arrays[0].dtype))


REDUCE_SUM = register("reduce_sum", "reduce", shape=_reduced_shape, dtype=_same_dtype,
                      reference=_same_dtype_reference(np.sum), doc="Sum over attrs[0] (pairwise for floats).")
REDUCE_PROD = register("reduce_prod", "reduce", shape=_reduced_shape, dtype=_same_dtype,
                       reference=_same_dtype_reference(np.prod), doc="Product over attrs[0].")
REDUCE_MAX = register("reduce_max", "reduce", shape=_no_identity_shape("maximum"), dtype=_same_dtype,
                      reference=_reference(np.max), doc="Maximum over attrs[0]; NaN propagates.")
REDUCE_MIN = register("reduce_min", "reduce", shape=_no_identity_shape("minimum"), dtype=_same_dtype,
                      reference=_reference(np.min), doc="Minimum over attrs[0]; NaN propagates.")
REDUCE_FMAX = register("reduce_fmax", "reduce", shape=_no_identity_shape("fmax"), dtype=_same_dtype,
                       reference=_reference(np.fmax.reduce), doc="Maximum ignoring NaN (NaN if all NaN).")
REDUCE_FMIN = register("reduce_fmin", "reduce", shape=_no_identity_shape("fmin"), dtype=_same_dtype,
                       reference=_reference(np.fmin.reduce), doc="Minimum ignoring NaN (NaN if all NaN).")
REDUCE_ANY = register("reduce_any", "reduce", shape=_reduced_shape, dtype=_bool_only,
                      reference=_reference(np.any), doc="Logical or over attrs[0].")
REDUCE_ALL = register("reduce_all", "reduce", shape=_reduced_shape, dtype=_bool_only,
                      reference=_reference(np.all), doc="Logical and over attrs[0].")


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
