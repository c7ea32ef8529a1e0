"""Elementwise primitives: one per NumPy ufunc, plus ``cast`` and ``select``.

Strict contract (the front end does the NumPy conveniences): inputs already carry the
dtypes of the ufunc loop NumPy would pick (``loop_signature``), and shapes broadcast.
Each primitive's reference is the ufunc itself, so the oracle is NumPy by construction.
"""
from __future__ import annotations

import functools

import numpy as np

from . import dtypes
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


# --- VJP rules (lazynum.autograd), one per ufunc: g is the output's cotangent, x/a/b the
# inputs, y the output.  Rules are primitive nodes, so they differentiate again.
# maximum/minimum/fmax/fmin: the cotangent goes to the operand NumPy returns, the first one
# on ties (NumPy's loop: ``a >= b or isnan(a) ? a : b``), exactly zero to the other.
from . import derivatives as _d  # noqa: E402
from .derivatives import add as _add, call as _call, const as _const, mul as _mul  # noqa: E402


def _recip(x):
    return _call("reciprocal", x)


def _one_minus_square(x):
    return _d.sub(_const(1, x), _call("square", x))


def _power_base(g, a, b, y):
    # b * a**(b-1), an exact zero where b == 0 (not 0 * inf at a == 0)
    slope = _mul(b, _call("power", a, _d.sub(b, _const(1, b))))
    return _d.select(_call("equal", b, _const(0, b)), _const(0, g), _mul(g, slope))


def _power_exponent(g, a, b, y):
    # y * log(a), an exact zero where a == 0 (log(0) = -inf would make 0 * -inf)
    slope = _mul(y, _call("log", a))
    return _d.select(_call("equal", a, _const(0, a)), _const(0, g), _mul(g, slope))


def _remainder_divisor(truncate):
    # a - round(a / b) * b: d/db = -round(a / b), the rounding being floor or trunc
    def rule(g, a, b, y):
        quotient = _call("floor_divide", a, b) if truncate is None else _call(truncate, _d.div(a, b))
        return _d.neg(_mul(g, quotient))
    return rule


def _wins(compare, nan_side):
    # mask of where NumPy's min/max loop returns its first operand
    def mask(a, b):
        nan = _call("isnan", a if nan_side == 0 else b)
        return _call("logical_or", _call(compare, a, b), nan)
    return mask


def _arctan2(sign, operand):
    def rule(g, a, b, y):
        other = b if operand == 0 else a
        term = _d.div(_mul(g, other), _add(_call("square", a), _call("square", b)))
        return term if sign > 0 else _d.neg(term)
    return rule


def _log_add_exp(exp_name, operand):
    def rule(g, a, b, y):
        return _mul(g, _call(exp_name, _d.sub(a if operand == 0 else b, y)))
    return rule


# Complex values follow JAX's convention (docs/autograd.md): a cotangent pairs with a
# tangent as Re(g * t), so a holomorphic op's rule is ``g * f'(z)``, unconjugated: the
# real rules above hold for complex z as written.  The non-holomorphic ops get their own.
def _conjugate_vjp(node, g):
    # conj is its own transpose: Re(g * conj(t)) = Re(conj(g) * t)
    return (_call("conjugate", g) if _d.is_complex(g) else g,)


def _absolute_vjp(node, g):
    # |z|: d|z| = Re(conj(z) dz) / |z|, so z's cotangent is g * conj(z) / |z|; zero at
    # z == 0 (JAX's choice there), dividing by 1 instead of 0 so no 0/0 is computed
    x = node.args[0]
    if not _d.is_complex(x):
        return (_mul(g, _call("sign", x)),)
    safe = _d.select(_call("equal", node, _const(0, node)), _const(1, node), node)
    direction = _d.div(_call("conjugate", x), _d.cast(safe, x.dtype))
    return (_mul(_d.cast(g, x.dtype), direction),)


def _arccosh_slope(x, y):
    # 1/sqrt(x^2 - 1) for real x >= 1; for complex z the principal branch's derivative
    # is 1/(sqrt(z - 1) sqrt(z + 1)), which differs in sign where Re z < 0
    one = _const(1, x)
    if _d.is_complex(x):
        return _recip(_mul(_call("sqrt", _d.sub(x, one)), _call("sqrt", _add(x, one))))
    return _recip(_call("sqrt", _d.sub(_call("square", x), one)))


def _frexp_vjp(node, g):
    if node.attrs[0] == 1:
        return (None,)
    exponent = _d.apply("frexp", node.args, (1,))
    return (_call("ldexp", g, _call("negative", exponent)),)


_remainder = _d.binary(lambda g, a, b, y: g, _remainder_divisor(None))
UFUNC_VJPS = {
    "negative": _d.keeps_zeros(lambda node, g: (_d.neg(g),)), "positive": _d.identity_rule,
    "conjugate": _d.keeps_zeros(_conjugate_vjp),
    "absolute": _absolute_vjp,
    "fabs": _d.unary(lambda x, y: _call("sign", x)),
    "exp": _d.unary(lambda x, y: y),
    "exp2": _d.unary(lambda x, y: _d.scale(y, _d.LN2)),
    "expm1": _d.unary(lambda x, y: _add(y, _const(1, y))),
    "log": _d.unary(lambda x, y: _recip(x)),
    "log2": _d.unary(lambda x, y: _recip(_d.scale(x, _d.LN2))),
    "log10": _d.unary(lambda x, y: _recip(_d.scale(x, _d.LN10))),
    "log1p": _d.unary(lambda x, y: _recip(_add(x, _const(1, x)))),
    "sqrt": _d.unary(lambda x, y: _recip(_d.scale(y, 2.0))),
    "cbrt": _d.unary(lambda x, y: _recip(_d.scale(_call("square", y), 3.0))),
    "square": _d.unary(lambda x, y: _d.scale(x, 2.0)),
    "reciprocal": _d.unary(lambda x, y: _d.neg(_call("square", y))),
    "sin": _d.unary(lambda x, y: _call("cos", x)),
    "cos": _d.unary(lambda x, y: _d.neg(_call("sin", x))),
    "tan": _d.unary(lambda x, y: _add(_const(1, y), _call("square", y))),
    "arcsin": _d.unary(lambda x, y: _recip(_call("sqrt", _one_minus_square(x)))),
    "arccos": _d.unary(lambda x, y: _d.neg(_recip(_call("sqrt", _one_minus_square(x))))),
    "arctan": _d.unary(lambda x, y: _recip(_add(_const(1, x), _call("square", x)))),
    "sinh": _d.unary(lambda x, y: _call("cosh", x)),
    "cosh": _d.unary(lambda x, y: _call("sinh", x)),
    "tanh": _d.unary(lambda x, y: _one_minus_square(y)),
    "arcsinh": _d.unary(lambda x, y: _recip(_call("sqrt", _add(_call("square", x), _const(1, x))))),
    "arccosh": _d.unary(_arccosh_slope),
    "arctanh": _d.unary(lambda x, y: _recip(_one_minus_square(x))),
    "deg2rad": _d.keeps_zeros(lambda node, g: (_d.scale(g, np.pi / 180.0),)),
    "radians": _d.keeps_zeros(lambda node, g: (_d.scale(g, np.pi / 180.0),)),
    "rad2deg": _d.keeps_zeros(lambda node, g: (_d.scale(g, 180.0 / np.pi),)),
    "degrees": _d.keeps_zeros(lambda node, g: (_d.scale(g, 180.0 / np.pi),)),
    "add": _d.keeps_zeros(_d.binary(lambda g, a, b, y: g, lambda g, a, b, y: g)),
    "subtract": _d.keeps_zeros(_d.binary(lambda g, a, b, y: g, lambda g, a, b, y: _d.neg(g))),
    "multiply": _d.binary(lambda g, a, b, y: _mul(g, b), lambda g, a, b, y: _mul(g, a)),
    "divide": _d.binary(lambda g, a, b, y: _d.div(g, b),
                        lambda g, a, b, y: _d.neg(_d.div(_mul(g, y), b))),
    "remainder": _remainder,
    "fmod": _d.binary(lambda g, a, b, y: g, _remainder_divisor("trunc")),
    "power": _d.binary(_power_base, _power_exponent),
    "float_power": _d.binary(_power_base, _power_exponent),
    "maximum": _d.first_wins(_wins("greater_equal", 0)),
    "minimum": _d.first_wins(_wins("less_equal", 0)),
    "fmax": _d.first_wins(_wins("greater_equal", 1)),
    "fmin": _d.first_wins(_wins("less_equal", 1)),
    "arctan2": _d.binary(_arctan2(+1, 0), _arctan2(-1, 1)),
    "hypot": _d.binary(lambda g, a, b, y: _mul(g, _d.div(a, y)), lambda g, a, b, y: _mul(g, _d.div(b, y))),
    "copysign": _d.binary(lambda g, a, b, y: _mul(g, _mul(_call("copysign", _const(1, a), a),
                                                          _call("copysign", _const(1, y), y))), None),
    "logaddexp": _d.binary(_log_add_exp("exp", 0), _log_add_exp("exp", 1)),
    "logaddexp2": _d.binary(_log_add_exp("exp2", 0), _log_add_exp("exp2", 1)),
    "heaviside": _d.binary(None, lambda g, a, b, y: _d.masked(_call("equal", a, _const(0, a)), g)),
    "ldexp": _d.binary(lambda g, a, b, y: _call("ldexp", g, b), None),
    "modf": lambda node, g: (g,) if node.attrs[0] == 0 else (None,),
    "frexp": _frexp_vjp,
    "divmod": _d.uses_needs(lambda node, g, needs=None: _remainder(node, g, needs=needs)
                            if node.attrs[0] == 1 else (None, None)),
}
for _name in ("sign", "floor", "ceil", "trunc", "rint", "spacing", "floor_divide", "nextafter"):
    UFUNC_VJPS[_name] = _d.PIECEWISE_CONSTANT
for _name, _op in UFUNC_OPS.items():
    _op.vjp = UFUNC_VJPS.get(_name, _d.NOT_FLOAT)   # the rest: bool/integer outputs only


def _cast_reference(array, dtype):
    # complex -> real: the real part's cast, the same values without a second ComplexWarning
    # (the front end warned at the call, as NumPy does)
    if array.dtype.kind == "c" and dtype.kind not in "cb":      # (to bool: either part)
        array = array.real
    return array.astype(dtype)


def _cast_dtype(args, attrs):
    return dtypes.check(attrs[0], "astype")


CAST = register(
    "cast", "elementwise", shape=_elementwise_shape, dtype=_cast_dtype,
    reference=lambda arrays, attrs: _cast_reference(arrays[0], attrs[0]),
    doc="Convert to attrs[0] with NumPy's unsafe-cast semantics (astype).")


def _cast_vjp(node, g):
    # float/complex -> float/complex: the cotangent converts back (complex -> real keeps
    # the real part: JAX's transpose of a real -> complex cast); from an integer/bool
    # input nothing flows
    x = node.args[0]
    return (_d.cast(g, x.dtype) if _d.is_inexact(x) else None,)


CAST.vjp = _d.keeps_zeros(_cast_vjp)


def _select_dtype(args, attrs):
    cond, x, y = args
    if cond.dtype != dtypes.BOOL or x.dtype != y.dtype:
        raise TypeError(f"select needs (bool, T, T), got ({cond.dtype}, {x.dtype}, {y.dtype})")
    return x.dtype


SELECT = register(
    "select", "elementwise", shape=_elementwise_shape, dtype=_select_dtype,
    reference=lambda arrays, attrs: np.where(*arrays),
    doc="where(cond, x, y): x where cond is true, else y.")


@_d.uses_needs
def _select_vjp(node, g, needs=None):
    # Each branch gets g where it was taken and an exact zero elsewhere: a NaN or inf in
    # the untaken branch never reaches the gradient (no 0 * inf).
    cond, x, y = node.args
    return (None, _d.masked_to_shape(cond, g, x.shape) if _d.wanted(needs, 1) else None,
            _d.masked_to_shape(cond, g, y.shape, False) if _d.wanted(needs, 2) else None)


SELECT.vjp = _select_vjp


# --- kernel lowerings (lazynum.compile): the scalar op each primitive becomes in a kernel ----
# Most ufuncs are one kernel-IR scalar op of the same name (the backend's scalar-op table
# says for which dtypes it emits code; others run as extern calls).  The rest decompose here.
from .registry import EXTERN, declare_lowering, scalar_lowering  # noqa: E402

_EXTERN_UFUNCS = ("spacing", "ldexp", "gcd", "lcm", "bitwise_count", "modf", "frexp")


def _identity(builder, node, args):
    return args[0]


def _conjugate(builder, node, args):
    # a complex value is a pair of part statements in a kernel (compile/wide_dtypes.py)
    if not isinstance(args[0], tuple):
        return args[0]
    re, im = args[0]
    return re, builder.op("negative", (im,), builder.dtype_of(im))


def _square(builder, node, args):
    return builder.op("multiply", (args[0], args[0]), node.dtype)


def _scale_by(numerator, denominator):
    # NumPy's npy_deg2rad(f): x * (pi / 180) with the constant computed in x's precision.
    def lowering(builder, node, args):
        kind = node.dtype.type
        factor = kind(numerator) / kind(denominator)
        return builder.op("multiply", (args[0], builder.const(factor, node.dtype)), node.dtype)
    return lowering


def _divmod(builder, node, args):
    return builder.op(("floor_divide", "remainder")[node.attrs[0]], args, node.dtype)


def _power(builder, node, args):
    # NumPy's float power loop has fast cases (x**0.5 is sqrt: (-0.0)**0.5 is -0.0) when
    # the exponent's stride is 0: one value broadcast over the whole loop, i.e. a 0-d
    # exponent or a size-1 one NumPy broadcasts (an exponent of the output's own shape
    # (1,) has a real stride, and so has (3, 1) against (3, 4): plain pow).
    exponent = node.args[1].shape
    uniform = exponent == () or (all(d == 1 for d in exponent) and exponent != node.shape)
    return builder.op("power_uniform" if uniform and node.dtype.kind == "f" else "power",
                      args, node.dtype)


_DECOMPOSED = {
    "positive": _identity, "conjugate": _conjugate, "square": _square,
    "deg2rad": _scale_by(np.pi, 180.0), "radians": _scale_by(np.pi, 180.0),
    "rad2deg": _scale_by(180.0, np.pi), "degrees": _scale_by(180.0, np.pi),
    "divmod": _divmod, "power": _power,
}
for _name, _op in UFUNC_OPS.items():
    if _name in _EXTERN_UFUNCS:
        declare_lowering(_op, EXTERN)
    else:
        declare_lowering(_op, _DECOMPOSED.get(_name) or scalar_lowering(_name))
declare_lowering(CAST, lambda builder, node, args: builder.op("cast", args, node.dtype))
declare_lowering(SELECT, scalar_lowering("select"))
