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


# --- discrete convolution (NumPy's own loops: its order of products and sums) ---------------
MODES = ("valid", "same", "full")


def _convolution_shape(args, attrs):
    (mode,) = attrs
    a, v = args
    if len(a.shape) != 1 or len(v.shape) != 1:
        raise ValueError("object too deep for desired array")
    n, m = a.shape[0], v.shape[0]
    if n == 0:
        raise ValueError("a cannot be empty")
    if m == 0:
        raise ValueError("v cannot be empty")
    if mode not in MODES:
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    longest, shortest = (n, m) if n >= m else (m, n)
    return ({"full": (n + m - 1,), "same": (longest,)}.get(mode) or (longest - shortest + 1,))


def _same_operand_dtype(args, attrs):
    if args[0].dtype != args[1].dtype:
        raise TypeError("convolution primitives take equal dtypes (the front end promotes)")
    return args[0].dtype


CONVOLVE = register("convolve", "extern", shape=_convolution_shape, dtype=_same_operand_dtype,
                    reference=lambda arrays, attrs: np.convolve(*arrays, mode=attrs[0]),
                    doc="numpy.convolve of two 1-d arrays with mode attrs[0].")
CORRELATE = register("correlate", "extern", shape=_convolution_shape, dtype=_same_operand_dtype,
                     reference=lambda arrays, attrs: np.correlate(*arrays, mode=attrs[0]),
                     doc="numpy.correlate of two 1-d arrays with mode attrs[0].")
for _op in (CONVOLVE, CORRELATE):
    declare_lowering(_op, EXTERN)


def _convolution_cotangents(a, v, g, mode):
    """(a_bar, v_bar) of ``convolve(a, v, mode)``: in full mode a_bar = correlate(g, v,
    'valid') and v_bar = correlate(g, a, 'valid'); the other modes are slices of the full
    result, so their cotangent is first placed into a zero full-length one."""
    n, m = a.shape[0], v.shape[0]
    full = n + m - 1
    start = {"full": 0, "same": (min(n, m) - 1) // 2, "valid": min(n, m) - 1}[mode]
    if g.shape[0] != full:
        g = _d.apply("view_scatter", (_d.zeros((full,), g.dtype), g), ((g.shape[0],), (1,), start))
    return _d.apply("correlate", (g, v), ("valid",)), _d.apply("correlate", (g, a), ("valid",))


CONVOLVE.vjp = lambda node, g: _convolution_cotangents(*node.args, g, node.attrs[0])


def _correlate_vjp(node, g):
    # correlate(a, v) == convolve(a, v[::-1]): through the flip
    a, v = node.args
    g_a, g_flipped = _convolution_cotangents(a, _d.flip(v, 0), g, node.attrs[0])
    return g_a, _d.flip(g_flipped, 0)


CORRELATE.vjp = _correlate_vjp
