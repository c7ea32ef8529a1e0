"""Complex and float16 nodes in kernels: which ones a fused kernel computes, and how.

Kernels compute on real scalars, and so do the backends' renderers.  This module is where
the compile layer turns the two dtypes that are not one real register into real ones:

- **complex64/complex128** values are pairs ``(re, im)`` of float32/float64 statements:
  ``KernelBuilder.load``/``store`` address the two parts of an element, and each complex
  scalar op expands into real ones with NumPy's algorithm (``compile.complex_scalar``);
  ``real``/``imag``/``make_complex`` pick and pair parts (their lowerings,
  ``expr/complex_parts.py``); a complex sum is two part sums.
- **float16** is stored as half and computed as NumPy computes it: each op widens its
  float16 operands to float32 (exact), computes in float32 and rounds the result to half
  (NumPy's float16 loops do exactly this per op, so a fused chain rounds after every op,
  never once at the end).  Casts from float64 round to half directly (NumPy's
  ``npy_double_to_half``: no double rounding through float32).

Every other node of these dtypes is an extern step: its NumPy reference runs inside the
compiled program (a fusion boundary, not a sync, not a fallback), with the reason given
by ``extern_reason`` (``LAZYNUM_LOGS=fusion``, ``Schedule.externs``).
"""
from __future__ import annotations

import numpy as np

from . import complex_scalar

COMPLEX = frozenset(complex_scalar.PART)
FLOAT16 = np.dtype(np.float16)
FLOAT32 = np.dtype(np.float32)
BOOL = np.dtype(np.bool_)

# Structural ops (index math, constants, choice) that carry a wide value unchanged.
_CARRIERS = frozenset({"view", "view_scatter", "roll", "literal", "cast", "select", "positive"})
# Complex ops with kernel code: complex_scalar.OPS, the parts' primitives, and these.
COMPLEX_FUSED = frozenset(complex_scalar.OPS) | _CARRIERS | {
    "conjugate", "square", "real", "imag", "make_complex", "reduce_sum"}
# float16 ufuncs NumPy computes as float32 rounded to half per op (the rest are extern:
# nextafter/spacing step in half's own ulps; deg2rad and kin scale by float32 constants;
# NumPy's float16 power is its own SIMD routine, where nan ** 0 is nan).  Transcendentals
# round float32 values of this backend's math library: a few inputs in 65536 land one
# half ulp from NumPy's (its SIMD library's float32 values differ in the last bits).
FLOAT16_FUSED = _CARRIERS | {
    "add", "subtract", "multiply", "divide", "negative", "absolute", "fabs", "square",
    "reciprocal", "sign", "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10",
    "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
    "arcsinh", "arccosh", "arctanh", "floor", "ceil", "trunc", "rint", "maximum", "minimum",
    "fmax", "fmin", "copysign", "hypot", "arctan2", "logaddexp", "logaddexp2", "heaviside",
    "floor_divide", "remainder", "fmod", "divmod",
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "isnan", "isinf",
    "isfinite", "signbit", "logical_and", "logical_or", "logical_xor", "logical_not",
    # extremes pick an element, in any order (a tie of signed zeros follows the float32
    # reductions' rule); sums and products stay extern (their rounding order is NumPy's)
    "reduce_max", "reduce_min", "reduce_fmax", "reduce_fmin",
}


def _wide(dtype) -> bool:
    return dtype in COMPLEX or dtype == FLOAT16


WIDE = COMPLEX | {FLOAT16}


def extern_reason(node, renders=WIDE) -> str | None:
    """Why ``node`` must run as an extern NumPy call because of its dtypes; None when its
    dtypes are no obstacle to a kernel.  ``renders``: the wide dtypes whose code from this
    module (half loads, stores and casts; complex buffers addressed by part) the backend's
    renderer takes: its capability object's ``renders_wide_dtypes`` (none if it has none)."""
    dtypes = {node.dtype, *(a.dtype for a in node.args)}
    wide = sorted(str(d) for d in dtypes if _wide(d))
    if not wide:
        return None
    if not dtypes & WIDE <= renders:
        return f"{node.op.name} on {', '.join(wide)}: this backend renders no kernel code for these dtypes"
    name = node.op.name
    if dtypes & COMPLEX and name not in COMPLEX_FUSED:
        return (f"{name} on {', '.join(wide)}: no complex kernel code (NumPy's loop runs; "
                "fused: + - * /, reciprocal, sign, abs, exp, exp2, log, log2, log10, sqrt, sin, cos, "
                "tan, sinh, cosh, tanh, conj, "
                "real/imag, comparisons, maximum/minimum/fmax/fmin, isnan/isinf/isfinite, "
                "logical ops, casts, where, sums)")
    if FLOAT16 in dtypes and name not in FLOAT16_FUSED:
        if node.op.kind == "reduce":
            return (f"{name} on float16: NumPy rounds to half after each inner loop (one "
                    "float32 pairwise sum along a contiguous axis, every element along "
                    "others, so (8192*3, 2) halves of 0.1 sum to 256 over axis 0); the "
                    "kernel does not reproduce that order")
        return f"{name} on float16: not computed as float32 rounded per op in NumPy's loop"
    return None


def part_dtype(dtype):
    """The dtype of a complex dtype's parts (None for other dtypes)."""
    return complex_scalar.PART.get(np.dtype(dtype))


def const(b, value, dtype):
    """A constant statement; a complex one is a pair."""
    part = part_dtype(dtype)
    if part is None:
        return b.scalar_const(value, dtype)
    value = complex(value)
    return (b.scalar_const(value.real, part), b.scalar_const(value.imag, part))


def emit(b, name: str, args: tuple, dtype) -> str | tuple:
    """Scalar op ``name`` on statements ``args`` (complex values as pairs) giving ``dtype``,
    as real scalar statements (``b.scalar``)."""
    pairs = [a for a in args if isinstance(a, tuple)]
    if pairs or dtype in COMPLEX:
        return _complex(b, name, args, dtype)
    arg_dtypes = [b.dtype_of(a) for a in args]
    if dtype == FLOAT16 or FLOAT16 in arg_dtypes:
        return _float16(b, name, args, arg_dtypes, dtype)
    return b.scalar(name, args, dtype)


def _complex(b, name, args, dtype):
    if name == "cast":
        return _cast_complex(b, args[0], dtype)
    if name == "select":
        cond, x, y = args
        return tuple(b.scalar("select", (cond, x[k], y[k]), part_dtype(dtype)) for k in (0, 1))
    part = part_dtype(dtype) or part_dtype(_complex_dtype_of(b, args))
    return complex_scalar.emit(b, name, args, part)


def _complex_dtype_of(b, args):
    for a in args:
        if isinstance(a, tuple):
            return {np.dtype(np.float32): np.dtype(np.complex64),
                    np.dtype(np.float64): np.dtype(np.complex128)}[b.dtype_of(a[0])]
    raise TypeError("a complex op without a complex operand")


def _cast_complex(b, value, dtype):
    """NumPy's casts to and from complex (complex -> real keeps the real part; the front
    end warned as NumPy does)."""
    if isinstance(value, tuple):
        src = b.dtype_of(value[0])
        if dtype in COMPLEX:
            return tuple(emit(b, "cast", (v,), part_dtype(dtype)) for v in value)
        if dtype == BOOL:
            return complex_scalar.truth(b, value, src)
        return emit(b, "cast", (value[0],), dtype)
    part = part_dtype(dtype)
    return (emit(b, "cast", (value,), part), b.scalar_const(0.0, part))


# NumPy's float16 extremes keep the first operand on ties (-0.0 vs 0.0) and where the
# named operand is NaN; its float32 loops, which the kernel's ops follow, return the second.
_HALF_EXTREMES = {"maximum": ("greater_equal", 0), "minimum": ("less_equal", 0),
                  "fmax": ("greater_equal", 1), "fmin": ("less_equal", 1)}


def _float16(b, name, args, arg_dtypes, dtype):
    if name == "select":
        return b.scalar(name, args, dtype)
    if name == "cast":
        return _cast_float16(b, args[0], arg_dtypes[0], dtype)
    if name in _HALF_EXTREMES and dtype == FLOAT16:
        return _half_extreme(b, name, args)
    wide = tuple(b.scalar("cast", (a,), FLOAT32) if d == FLOAT16 else a
                 for a, d in zip(args, arg_dtypes))
    if dtype != FLOAT16:
        return b.scalar(name, wide, dtype)
    return b.scalar("cast", (b.scalar(name, wide, FLOAT32),), FLOAT16)


def _half_extreme(b, name, args):
    order, nan_side = _HALF_EXTREMES[name]
    wide = [b.scalar("cast", (a,), FLOAT32) for a in args]
    keep = b.scalar("logical_or", (b.scalar(order, wide, BOOL),
                                   b.scalar("isnan", (wide[nan_side],), BOOL)), BOOL)
    return b.scalar("select", (keep, args[0], args[1]), FLOAT16)


def _cast_float16(b, value, src, dst):
    if src == dst:
        return value
    if src == FLOAT16:          # exact widening; integers and bools from float32
        if dst.kind == "f":
            return b.scalar("cast", (value,), dst)
        return b.scalar("cast", (b.scalar("cast", (value,), FLOAT32),), dst)
    if src.kind == "f":         # one rounding, from float32 or float64
        return b.scalar("cast", (value,), FLOAT16)
    # Integers: exact in float32 below 2**24; above it float16 overflows either way.
    return b.scalar("cast", (b.scalar("cast", (value,), FLOAT32),), FLOAT16)
