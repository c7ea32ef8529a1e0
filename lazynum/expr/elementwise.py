"""Elementwise primitives: one per NumPy ufunc, plus ``cast`` and ``select``.

Strict contract (the front end does the NumPy conveniences): inputs already carry the
dtypes of the ufunc loop NumPy would pick (``loop_signature``), and shapes broadcast.
Each primitive's reference is the ufunc itself, so the oracle is NumPy by construction.
"""
from __future__ import annotations

import functools

import numpy as np

from .. import dtypes
from .registry import register
from .shapes import broadcast_shapes

UNARY_UFUNCS = (
    "negative", "positive", "absolute", "fabs", "sign", "invert", "logical_not",
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt", "square",
    "reciprocal", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
    "arcsinh", "arccosh", "arctanh", "deg2rad", "rad2deg", "degrees", "radians",
    "floor", "ceil", "trunc", "rint", "isnan", "isinf", "isfinite", "signbit", "spacing",
    "conjugate", "bitwise_count",
)
BINARY_UFUNCS = (
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod",
    "power", "float_power", "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot",
    "copysign", "nextafter", "logaddexp", "logaddexp2", "heaviside", "ldexp", "gcd", "lcm",
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
    "left_shift", "right_shift",
)
MULTI_OUTPUT_UFUNCS = ("modf", "frexp", "divmod")   # attrs = (output index,)
COMPARISONS = frozenset(("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"))


@functools.lru_cache(maxsize=4096)
def loop_signature(ufunc: np.ufunc, operand_types: tuple) -> tuple:
    """Dtypes of the loop NumPy runs for ``operand_types`` (dtypes, or ``int``/``float``/
    ``bool`` for weak Python scalars): ``(in_0, ..., out_0, ...)``.

    Raises NumPy's ``UFuncTypeError`` (a TypeError) when no loop exists.
    """
    signature = ufunc.resolve_dtypes(operand_types + (None,) * ufunc.nout)
    for dt in signature:
        dtypes.check(dt, f"ufunc {ufunc.__name__}")
    return signature


def _elementwise_shape(args, attrs):
    if len(args) == 1:
        return args[0].shape
    if len(args) == 2:
        return broadcast_shapes(args[0].shape, args[1].shape)
    return broadcast_shapes(*[a.shape for a in args])


def _make_dtype_rule(ufunc):
    checked = {}   # (input dtypes, attrs) -> output dtype, validated once

    def dtype_rule(args, attrs):
        in_types = tuple([a.dtype for a in args])
        out = checked.get((in_types, attrs))
        if out is None:
            signature = loop_signature(ufunc, in_types)
            if signature[:ufunc.nin] != in_types:
                raise TypeError(f"{ufunc.__name__}: inputs {in_types} are not a loop signature; "
                                f"cast to {signature[:ufunc.nin]} first")
            out = checked[(in_types, attrs)] = signature[ufunc.nin + (attrs[0] if attrs else 0)]
        return out
    return dtype_rule


def _make_reference(ufunc):
    if ufunc.nout == 1:
        return lambda arrays, attrs: ufunc(*arrays)
    return lambda arrays, attrs: ufunc(*arrays)[attrs[0]]


UFUNC_OPS = {}
for _name in UNARY_UFUNCS + BINARY_UFUNCS + MULTI_OUTPUT_UFUNCS:
    _ufunc = getattr(np, _name)
    UFUNC_OPS[_name] = register(
        _name, "elementwise", shape=_elementwise_shape, dtype=_make_dtype_rule(_ufunc),
        reference=_make_reference(_ufunc), doc=f"numpy.{_name}, elementwise")


def _cast_dtype(args, attrs):
    return dtypes.check(attrs[0], "astype")


CAST = register(
    "cast", "elementwise", shape=_elementwise_shape, dtype=_cast_dtype,
    reference=lambda arrays, attrs: arrays[0].astype(attrs[0]),
    doc="Convert to attrs[0] with NumPy's unsafe-cast semantics (astype).")


def _select_dtype(args, attrs):
    cond, x, y = args
    if cond.dtype != dtypes.BOOL or x.dtype != y.dtype:
        raise TypeError(f"select needs (bool, T, T), got ({cond.dtype}, {x.dtype}, {y.dtype})")
    return x.dtype


SELECT = register(
    "select", "elementwise", shape=_elementwise_shape, dtype=_select_dtype,
    reference=lambda arrays, attrs: np.where(*arrays),
    doc="where(cond, x, y): x where cond is true, else y.")
