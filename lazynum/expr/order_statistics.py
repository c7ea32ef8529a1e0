"""Order statistics as extern primitives: ``partition``/``argpartition`` and the quantile
family (``percentile``, ``quantile`` and their NaN-ignoring forms, ``nanmedian``).

NumPy defines these results by its own algorithms (``partition``'s order around the kth
element is introselect's; a quantile's interpolation is NumPy's formula for each
``method``), so the reference *is* NumPy's call on the same data: the program runs it at
the sync, with no host round trip before it.  Shapes follow from the attrs alone.
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from . import derivatives as _d
from .registry import EXTERN, declare_lowering, register
from .shapes import normalize_axis


def _partition_shape(args, attrs):
    kth, axis, _ = attrs
    shape = tuple(args[0].shape)
    if not 0 <= axis < len(shape):
        raise ValueError(f"partition axis {axis} invalid for shape {shape}")
    for k in kth:
        if not -shape[axis] <= k < shape[axis]:
            raise ValueError(f"kth(={k}) out of bounds ({shape[axis]})")
    return shape


PARTITION = register(
    "partition", "extern", shape=_partition_shape, dtype=lambda args, attrs: args[0].dtype,
    reference=lambda arrays, attrs: np.partition(arrays[0], attrs[0], axis=attrs[1], kind=attrs[2]),
    doc="numpy.partition along attrs[1] around the kth elements attrs[0] (kind attrs[2]).")
ARGPARTITION = register(
    "argpartition", "extern", shape=_partition_shape, dtype=lambda args, attrs: dtypes.INT64,
    reference=lambda arrays, attrs: np.argpartition(arrays[0], attrs[0], axis=attrs[1],
                                                    kind=attrs[2]).astype(np.int64, copy=False),
    doc="numpy.argpartition along attrs[1] around the kth elements attrs[0] (kind attrs[2]).")
for _op in (PARTITION, ARGPARTITION):
    declare_lowering(_op, EXTERN)


def _partition_vjp(node, g):
    # through the permutation argpartition gives (the same introselect, so the same order)
    x = node.args[0]
    perm = _d.apply("argpartition", (x,), node.attrs)
    return (_d.apply("put_along_axis", (_d.zeros(x.shape, g.dtype), perm, g), (node.attrs[1],)),)


PARTITION.vjp = _partition_vjp
ARGPARTITION.vjp = _d.NOT_FLOAT


def quantile_shape(shape, q_shape, axes, keepdims) -> tuple:
    """NumPy's result shape: q's shape, then the input's shape without (or with 1 for)
    the reduced axes (``axes`` None: every axis)."""
    reduced = tuple(range(len(shape))) if axes is None else axes
    if keepdims:
        kept = tuple(1 if a in reduced else d for a, d in enumerate(shape))
    else:
        kept = tuple(d for a, d in enumerate(shape) if a not in reduced)
    return tuple(q_shape) + kept


def _quantile_attrs(attrs):
    function, q, q_kind, axes, method, keepdims, out_dtype = attrs
    if q_kind == "weak":        # a Python number: NumPy computes in the data's precision
        q = q[0]
    else:
        q_dtype, q_shape = q_kind
        q = np.asarray(q, dtype=q_dtype).reshape(q_shape)
    return function, q, axes, method, keepdims, out_dtype


def _quantile_shape(args, attrs):
    function, q, axes, method, keepdims, _ = _quantile_attrs(attrs)
    shape = tuple(args[0].shape)
    if axes is not None:
        for a in axes:
            normalize_axis(a, len(shape))
    return quantile_shape(shape, np.shape(q), axes, keepdims)


def _quantile_reference(arrays, attrs):
    function, q, axes, method, keepdims, out_dtype = _quantile_attrs(attrs)
    if function == "nanmedian":         # (its own mean of the middle pair, not a lerp)
        result = np.nanmedian(arrays[0], axis=axes, keepdims=keepdims)
    else:
        result = getattr(np, function)(arrays[0], q, axis=axes, method=method, keepdims=keepdims)
    return np.asarray(result, dtype=out_dtype)


QUANTILE = register(
    "quantile", "extern", shape=_quantile_shape, dtype=lambda args, attrs: attrs[-1],
    reference=_quantile_reference,
    doc="numpy.quantile/percentile/nanquantile/nanpercentile/nanmedian (attrs[0]) at q (attrs[1], "
        "a Python number when attrs[2] is 'weak', else of (dtype, shape) attrs[2]) over axes "
        "attrs[3] with method attrs[4], keepdims attrs[5]; "
        "result dtype attrs[6] (NumPy's for the input dtype, q and method).")
declare_lowering(QUANTILE, EXTERN)
QUANTILE.vjp = _d.not_written("numpy.quantile and percentile")
