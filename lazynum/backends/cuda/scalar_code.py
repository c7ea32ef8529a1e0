"""CUDA C expressions for the kernel IR's scalar ops, with NumPy's semantics per dtype.

Each op becomes one C expression over earlier statements' names.  Float arithmetic and
comparisons are C's operators (IEEE, as NumPy's loops; ``--fmad=false`` keeps ``a*b+c``
two roundings, see ``nvrtc.OPTIONS``); everything where C or CUDA differ from NumPy
(integer wrap, division by zero, floor division, NaN-propagating extremes, float -> int
casts, shifts) calls a function of ``prelude.cuh``.  Transcendentals are CUDA's math
library (libdevice): within its documented ulp bounds of NumPy's, not bit-equal.

``supports(op, arg_dtypes, out)`` says which (op, dtypes) have code here; it covers every
case the llvm backend compiles, so one plan serves both backends.
"""
from __future__ import annotations

import math

import numpy as np

C_TYPES = {
    "b1": "bool", "i1": "lz_i8", "i2": "lz_i16", "i4": "lz_i32", "i8": "lz_i64",
    "u1": "lz_u8", "u2": "lz_u16", "u4": "lz_u32", "u8": "lz_u64", "f4": "float", "f8": "double",
}
# NumPy name -> CUDA math function (double; float32 adds the ``f`` suffix)
MATH_UNARY = {
    "sqrt": "sqrt", "cbrt": "cbrt", "exp": "exp", "exp2": "exp2", "expm1": "expm1",
    "log": "log", "log2": "log2", "log10": "log10", "log1p": "log1p", "sin": "sin",
    "cos": "cos", "tan": "tan", "arcsin": "asin", "arccos": "acos", "arctan": "atan",
    "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "arcsinh": "asinh", "arccosh": "acosh",
    "arctanh": "atanh", "floor": "floor", "ceil": "ceil", "trunc": "trunc", "rint": "rint",
    "fabs": "fabs", "absolute": "fabs",
}
MATH_BINARY = {"arctan2": "atan2", "hypot": "hypot", "power": "pow", "float_power": "pow",
               "copysign": "copysign", "nextafter": "nextafter", "fmax": "fmax",
               "fmin": "fmin"}
PRELUDE_BINARY = {"floor_divide": "lz_floor_divide", "remainder": "lz_remainder",
                  "fmod": "lz_fmod", "maximum": "lz_maximum", "minimum": "lz_minimum",
                  "heaviside": "lz_heaviside", "power_uniform": "lz_power_uniform",
                  "logaddexp": "lz_logaddexp", "logaddexp2": "lz_logaddexp2",
                  "left_shift": "lz_left_shift", "right_shift": "lz_right_shift"}
COMPARE = {"equal": "==", "not_equal": "!=", "less": "<", "less_equal": "<=",
           "greater": ">", "greater_equal": ">="}
INT_ARITH = {"add": "lz_add", "subtract": "lz_sub", "multiply": "lz_mul"}
FLOAT_ARITH = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/"}
BITWISE = {"bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^"}
BOOL_ARITH = {"add": "||", "multiply": "&&", "maximum": "||", "minimum": "&&", "fmax": "||",
              "fmin": "&&", "bitwise_and": "&&", "bitwise_or": "||", "bitwise_xor": "!="}
LOGICAL = {"logical_and": "&&", "logical_or": "||", "logical_xor": "!="}
IDENTITY_ON_INTS = ("floor", "ceil", "trunc", "rint")


def ctype(dt) -> str:
    """The C type of a NumPy dtype's values in registers (bool is C's bool)."""
    dt = np.dtype(dt)
    return C_TYPES[f"{dt.kind}{dt.itemsize}"]


def memory_ctype(dt) -> str:
    """The C type of a buffer's elements (bool is a byte, read as ``!= 0``)."""
    dt = np.dtype(dt)
    return "lz_u8" if dt.kind == "b" else ctype(dt)


def literal(value, dt) -> str:
    """A C constant of dtype ``dt`` holding ``value`` (exact; NaN and inf by bit pattern)."""
    dt = np.dtype(dt)
    if dt.kind == "b":
        return "true" if value else "false"
    if dt.kind in "iu":
        bits = dt.itemsize * 8
        v = int(value) & ((1 << bits) - 1)
        if dt.kind == "i" and v >= 1 << (bits - 1):
            v -= 1 << bits
        if dt.kind == "i" and v == -(1 << 63):
            return "((lz_i64)0x8000000000000000ULL)"
        suffix = "ULL" if dt.kind == "u" else "LL"
        return f"(({ctype(dt)}){v}{suffix})"
    f = float(np.asarray(value).astype(dt))
    tag = "F32" if dt.itemsize == 4 else "F64"
    if math.isnan(f):
        return f"LZ_NAN_{tag}"
    if math.isinf(f):
        return f"LZ_INF_{tag}" if f > 0 else f"(-LZ_INF_{tag})"
    if dt.itemsize == 4:
        text = repr(float(np.float32(f)))
        if float(np.float32(text)) != f:
            text = f.hex()
        return f"{text}f"
    return repr(f) if float(repr(f)) == f else f.hex()


def supports(op: str, arg_dtypes, out) -> bool:
    """Whether ``expression`` has code for ``op`` on these dtypes."""
    kinds = {np.dtype(d).kind for d in arg_dtypes}
    if not kinds <= set("biuf") or np.dtype(out).kind not in "biuf":
        return False
    if op in ("cast", "select", "const", "index"):
        return True
    if op in ("floor", "ceil", "trunc", "rint", "absolute"):
        return True
    if op in MATH_UNARY or op in ("arctan2", "hypot", "power", "float_power", "copysign",
                                  "nextafter", "reciprocal", "divide", "heaviside", "signbit",
                                  "logaddexp", "logaddexp2", "power_uniform"):
        return kinds <= {"f"}
    if op in ("floor_divide", "remainder", "fmod"):
        return kinds <= {"i", "u", "f"}
    if op in ("left_shift", "right_shift"):
        return kinds <= {"i", "u"}
    if op in BITWISE or op == "invert":
        return kinds <= {"i", "u", "b"}
    return op in ("maximum", "minimum", "fmax", "fmin", "negative", "sign", "isnan", "isinf",
                  "isfinite", "logical_not") or op in INT_ARITH or op in COMPARE or op in LOGICAL


def math_name(name: str, dt) -> str:
    """CUDA's math function ``name`` for ``dt`` (``expf`` for float32)."""
    return name + "f" if np.dtype(dt).itemsize == 4 else name


def truth(value: str, dt) -> str:
    """A C bool: ``value`` is nonzero (NaN is true, as NumPy's)."""
    return value if np.dtype(dt).kind == "b" else f"({value} != 0)"


def expression(op: str, args, arg_dtypes, out) -> str:
    """The C expression computing ``op`` on ``args`` (C expressions of ``arg_dtypes``)."""
    dt = np.dtype(arg_dtypes[0]) if arg_dtypes else np.dtype(out)
    out = np.dtype(out)
    if op == "select":
        return f"({args[0]} ? {args[1]} : {args[2]})"
    if op == "cast":
        return cast(args[0], dt, out)
    if op in COMPARE:
        return _compare(op, args, arg_dtypes)
    if op in LOGICAL:
        a, b = (truth(v, d) for v, d in zip(args, arg_dtypes))
        return f"({a} {LOGICAL[op]} {b})"
    if op == "logical_not":
        return f"!{truth(args[0], dt)}"
    if dt.kind == "b":
        return _bool_op(op, args)
    if dt.kind == "f":
        return _float_op(op, args, dt)
    return _int_op(op, args, dt)


def _compare(op, args, arg_dtypes) -> str:
    kinds = {np.dtype(d).kind for d in arg_dtypes}
    if kinds == {"i", "u"}:         # int64 vs uint64: exact, not C's conversion to unsigned
        return f"(lz_cmp({args[0]}, {args[1]}) {COMPARE[op]} 0)"
    return f"({args[0]} {COMPARE[op]} {args[1]})"


def _bool_op(op, args) -> str:
    if op in BOOL_ARITH:
        return f"({args[0]} {BOOL_ARITH[op]} {args[1]})"
    if op == "invert":
        return f"!{args[0]}"
    if op in IDENTITY_ON_INTS or op in ("absolute", "sign"):
        return args[0]
    if op in ("isnan", "isinf"):
        return "false"
    if op == "isfinite":
        return "true"
    raise NotImplementedError(f"bool {op}")


def _float_op(op, args, dt) -> str:
    t = ctype(dt)
    if op in FLOAT_ARITH:
        return f"({args[0]} {FLOAT_ARITH[op]} {args[1]})"
    if op == "negative":
        return f"(-{args[0]})"
    if op == "reciprocal":
        return f"({literal(1.0, dt)} / {args[0]})"
    if op in PRELUDE_BINARY:
        return f"{PRELUDE_BINARY[op]}({args[0]}, {args[1]})"
    if op in MATH_UNARY:
        return f"{math_name(MATH_UNARY[op], dt)}({args[0]})"
    if op in MATH_BINARY:
        return f"{math_name(MATH_BINARY[op], dt)}({args[0]}, {args[1]})"
    if op == "sign":
        return f"lz_sign({args[0]})"
    if op in ("isnan", "isinf", "isfinite"):
        return f"{op}({args[0]})"
    if op == "signbit":
        return f"(signbit({args[0]}) != 0)"
    raise NotImplementedError(f"{t} {op}")


def _int_op(op, args, dt) -> str:
    t = ctype(dt)
    if op in INT_ARITH:
        return f"{INT_ARITH[op]}({args[0]}, {args[1]})"
    if op in BITWISE:
        return f"({t})({args[0]} {BITWISE[op]} {args[1]})"
    if op == "invert":
        return f"({t})~{args[0]}"
    if op == "negative":
        return f"lz_neg({args[0]})"
    if op == "absolute":
        return f"lz_iabs({args[0]})"
    if op in IDENTITY_ON_INTS:
        return args[0]
    if op in ("maximum", "fmax"):
        return f"lz_imax({args[0]}, {args[1]})"
    if op in ("minimum", "fmin"):
        return f"lz_imin({args[0]}, {args[1]})"
    if op in ("floor_divide", "remainder", "fmod", "left_shift", "right_shift"):
        return f"{PRELUDE_BINARY[op]}({args[0]}, {args[1]})"
    if op == "sign":
        return f"lz_sign({args[0]})"
    if op in ("isnan", "isinf"):
        return "false"
    if op == "isfinite":
        return "true"
    raise NotImplementedError(f"{t} {op}")


def cast(value: str, src, dst) -> str:
    """``astype`` with NumPy's unsafe-cast semantics (float -> int: see prelude.cuh)."""
    src, dst = np.dtype(src), np.dtype(dst)
    if src == dst:
        return value
    if dst.kind == "b":
        return truth(value, src)
    if src.kind == "f" and dst.kind in "iu":
        if dst == np.dtype(np.uint64):
            return f"lz_to_u64({value})"
        wide = "lz_to_i64" if dst.itemsize == 8 or dst == np.dtype(np.uint32) else "lz_to_i32"
        return f"({ctype(dst)}){wide}({value})"
    return f"({ctype(dst)}){value}"
