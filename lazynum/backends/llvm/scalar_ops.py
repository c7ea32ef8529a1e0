"""LLVM IR for the kernel IR's scalar ops, with NumPy's semantics per dtype.

Values live in registers as ``i1`` (bool), ``iN`` (ints; signedness comes from the NumPy
dtype) and ``float``/``double``.  Where C/LLVM leave a case undefined NumPy defines it, and
so do we: integer division by zero gives 0, ``INT_MIN // -1`` wraps, shifts by the bit
width or more give 0 (or -1 for negative signed values shifted right), and float -> int
casts of NaN/out-of-range values give x86's "integer indefinite" (the minimum value), as
NumPy's C casts do on this platform.  Transcendentals go through ``vector_math``: one
implementation per function and dtype, so an element's value does not depend on where the
vectorizer, the threads or a reduction's parts put it.  ``power`` with an exponent that is
one value for the whole loop has NumPy's fast cases (``power_uniform``).
``supports`` says which (op, dtypes) have code; the scheduler makes the rest extern calls.
"""
from __future__ import annotations

import struct

import numpy as np

from . import vector_math

# Exact IEEE operations: LLVM intrinsics (one correctly rounded answer wherever they run).
FLOAT_INTRINSICS = {
    "sqrt": "sqrt", "floor": "floor", "ceil": "ceil", "trunc": "trunc", "rint": "roundeven",
    "fabs": "fabs", "absolute": "fabs",
}
# Transcendentals: NumPy name -> C name, through ``vector_math``.
LIBM_UNARY = {
    "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "log10": "log10", "sin": "sin",
    "cos": "cos", "tan": "tan", "expm1": "expm1", "log1p": "log1p", "cbrt": "cbrt",
    "arcsin": "asin", "arccos": "acos", "arctan": "atan", "sinh": "sinh", "cosh": "cosh",
    "tanh": "tanh", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
}
LIBM_BINARY = {"arctan2": "atan2", "hypot": "hypot", "power": "pow", "float_power": "pow"}
BINARY_INTRINSICS = {"copysign": "copysign", "maximum": "maximum", "minimum": "minimum",
                     "fmax": "maxnum", "fmin": "minnum"}
INT_ARITH = {"add": "add", "subtract": "sub", "multiply": "mul", "bitwise_and": "and",
             "bitwise_or": "or", "bitwise_xor": "xor"}
FLOAT_ARITH = {"add": "fadd", "subtract": "fsub", "multiply": "fmul", "divide": "fdiv"}
COMPARE = {"equal": ("eq", "oeq"), "not_equal": ("ne", "une"), "less": ("lt", "olt"),
           "less_equal": ("le", "ole"), "greater": ("gt", "ogt"), "greater_equal": ("ge", "oge")}
LOGICAL = {"logical_and": "and", "logical_or": "or", "logical_xor": "xor"}


def ltype(dt: np.dtype) -> str:
    """The register type of a dtype."""
    if dt.kind == "b":
        return "i1"
    if dt.kind in "iu":
        return f"i{dt.itemsize * 8}"
    if dt.kind == "c":      # a complex buffer is an array of its parts (compile.wide_dtypes)
        return ltype(np.dtype(f"f{dt.itemsize // 2}"))
    return {2: "half", 4: "float"}.get(dt.itemsize, "double")


def mtype(dt: np.dtype) -> str:
    """The in-memory type of a dtype (bool is a byte)."""
    return "i8" if dt.kind == "b" else ltype(dt)


def literal(value, dt: np.dtype) -> str:
    """An LLVM constant of ``dt`` holding ``value``."""
    if dt.kind == "b":
        return "true" if value else "false"
    if dt.kind in "iu":
        bits = dt.itemsize * 8
        v = int(value) & ((1 << bits) - 1)
        return str(v - (1 << bits) if v >= 1 << (bits - 1) else v)
    v = float(np.asarray(value).astype(dt))
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", v))[0]


def _suffix(dt) -> str:
    return {2: "f16", 4: "f32"}.get(dt.itemsize, "f64")


def supports(op: str, arg_dtypes, out) -> bool:
    """Whether ``emit`` has code for ``op`` on these dtypes."""
    kinds = {d.kind for d in arg_dtypes}
    if op in ("cast", "select", "const", "index"):
        return True
    if op in FLOAT_INTRINSICS or op in LIBM_UNARY or op in LIBM_BINARY:
        return kinds <= {"f"} or (op in ("floor", "ceil", "trunc", "rint", "absolute", "fabs")
                                  and kinds <= {"f", "i", "u", "b"} and op != "fabs")
    if op in ("power_uniform", "copysign", "reciprocal", "divide", "heaviside", "signbit", "fma",
              "logaddexp", "logaddexp2", "nextafter"):
        return kinds <= {"f"}
    if op in ("floor_divide", "remainder", "fmod"):
        return kinds <= {"i", "u", "f"}
    if op in ("left_shift", "right_shift"):
        return kinds <= {"i", "u"}
    if op in ("maximum", "minimum", "fmax", "fmin"):
        return True
    if op in ("invert", "bitwise_and", "bitwise_or", "bitwise_xor"):
        return kinds <= {"i", "u", "b"}
    return op in _HANDLERS or op in INT_ARITH or op in FLOAT_ARITH or op in COMPARE or op in LOGICAL


class Emitter:
    """Collects IR lines for one function and hands out fresh SSA names."""

    def __init__(self):
        self.lines: list = []
        self.declarations: set = set()
        self.math: set = set()        # what ``vector_math.definitions`` must define
        self.math_calls = 0           # calls emitted so far (loops around them interleave once)
        self.counter = 0

    def tmp(self) -> str:
        self.counter += 1
        return f"%t{self.counter}"

    def label(self, stem: str) -> str:
        self.counter += 1
        return f"{stem}{self.counter}"

    def line(self, text: str) -> None:
        self.lines.append("  " + text)

    def assign(self, text: str) -> str:
        name = self.tmp()
        self.line(f"{name} = {text}")
        return name

    def call(self, ret: str, fn: str, args, attrs: str = "") -> str:
        """Call ``fn`` (declaring it once, ``memory(none)``) on typed ``args``."""
        types = ", ".join(t for t, _ in args)
        self.declarations.add(f"declare {ret} @{fn}({types}) #0")
        return self.assign(f"call {attrs}{ret} @{fn}({', '.join(f'{t} {v}' for t, v in args)})")

    def intrinsic(self, name: str, dt, args) -> str:
        t = ltype(dt)
        return self.call(t, f"llvm.{name}.{_suffix(dt) if dt.kind == 'f' else t}", [(t, a) for a in args])


F64 = np.dtype(np.float64)


# --- the ops ---------------------------------------------------------------------------------

def emit(e: Emitter, op: str, args, arg_dtypes, out) -> str:
    """Emit ``op`` on SSA values ``args`` (of ``arg_dtypes``) producing dtype ``out``."""
    dt = arg_dtypes[0] if arg_dtypes else out
    if op in _HANDLERS:
        return _HANDLERS[op](e, args, arg_dtypes, out)
    if op in COMPARE:
        if len(set(arg_dtypes)) > 1 and all(d.kind in "iu" for d in arg_dtypes):
            return _mixed_compare(e, op, args, arg_dtypes)
        return _compare(e, op, args, dt)
    if op in LOGICAL:
        a, b = (_truth(e, v, d) for v, d in zip(args, arg_dtypes))
        return e.assign(f"{LOGICAL[op]} i1 {a}, {b}")
    if dt.kind == "f":
        if op in FLOAT_ARITH:
            return e.assign(f"{FLOAT_ARITH[op]} {ltype(dt)} {args[0]}, {args[1]}")
        if op in FLOAT_INTRINSICS:
            return e.intrinsic(FLOAT_INTRINSICS[op], dt, args)
        if op in ("maximum", "minimum"):
            return numpy_extreme(e, op, args, dt)
        if op in BINARY_INTRINSICS:
            return e.intrinsic(BINARY_INTRINSICS[op], dt, args)
        if op == "nextafter":       # exact: scalar libm is the one implementation
            t = ltype(dt)
            return e.call(t, "nextafter" + ("f" if dt.itemsize == 4 else ""), [(t, a) for a in args])
        return vector_math.call(e, LIBM_UNARY.get(op) or LIBM_BINARY[op], dt, args)
    if dt.kind == "b":
        return _bool_op(e, op, args, out)
    return _int_op(e, op, args, dt)


def _power_uniform(e, args, arg_dtypes, out) -> str:
    """NumPy's float ``power`` loop when the exponent is one value for the whole loop (its
    stride is 0): exponents -1, 0, 0.5, 1 and 2 are ``1/a``, ``1``, ``sqrt(a)``, ``a`` and
    ``a*a`` (so ``(-0.0) ** 0.5`` is -0.0 and ``(-inf) ** 0.5`` NaN, not ``pow``'s 0.0
    and inf), any other is ``pow`` (``vector_math``)."""
    return vector_math.call(e, vector_math.POWER_UNIFORM, arg_dtypes[0], args)


def _truth(e, value, dt) -> str:
    if dt.kind == "b":
        return value
    if dt.kind == "f":
        return e.assign(f"fcmp une {ltype(dt)} {value}, 0.0")
    return e.assign(f"icmp ne {ltype(dt)} {value}, 0")


def _compare(e, op, args, dt) -> str:
    if dt.kind == "f":
        return e.assign(f"fcmp {COMPARE[op][1]} {ltype(dt)} {args[0]}, {args[1]}")
    pred = COMPARE[op][0]
    if pred not in ("eq", "ne"):
        pred = ("s" if dt.kind == "i" else "u") + pred
    return e.assign(f"icmp {pred} {ltype(dt)} {args[0]}, {args[1]}")


def _mixed_compare(e, op, args, arg_dtypes) -> str:
    """NumPy's exact comparison of a signed with an unsigned int (int64 vs uint64): both
    widened one bit past the wider type, then compared signed."""
    bits = max(d.itemsize for d in arg_dtypes) * 8 + 1
    wide = [e.assign(f"{'sext' if d.kind == 'i' else 'zext'} {ltype(d)} {a} to i{bits}")
            for a, d in zip(args, arg_dtypes)]
    pred = COMPARE[op][0]
    if pred not in ("eq", "ne"):
        pred = "s" + pred
    return e.assign(f"icmp {pred} i{bits} {wide[0]}, {wide[1]}")


def _bool_op(e, op, args, out) -> str:
    table = {"add": "or", "multiply": "and", "maximum": "or", "minimum": "and", "fmax": "or",
             "fmin": "and", "bitwise_and": "and", "bitwise_or": "or", "bitwise_xor": "xor"}
    if op in table:
        return e.assign(f"{table[op]} i1 {args[0]}, {args[1]}")
    if op in ("floor", "ceil", "trunc", "rint", "absolute"):
        return args[0]
    raise NotImplementedError(f"bool {op}")


def _int_op(e, op, args, dt) -> str:
    t = ltype(dt)
    signed = dt.kind == "i"
    if op in INT_ARITH:
        return e.assign(f"{INT_ARITH[op]} {t} {args[0]}, {args[1]}")
    if op in ("maximum", "minimum", "fmax", "fmin"):
        which = "max" if op in ("maximum", "fmax") else "min"
        return e.intrinsic(("s" if signed else "u") + which, dt, args)
    if op in ("floor", "ceil", "trunc", "rint"):
        return args[0]
    if op == "absolute":
        if not signed:
            return args[0]
        return e.call(t, f"llvm.abs.{t}", [(t, args[0]), ("i1", "false")])
    if op in ("floor_divide", "remainder", "fmod"):
        return _int_division(e, op, args, dt)
    if op in ("left_shift", "right_shift"):
        return _shift(e, op, args, dt)
    raise NotImplementedError(f"int {op}")


def _int_division(e, op, args, dt) -> str:
    """NumPy's integer //, % and fmod: 0 for a zero divisor, wrap for MIN // -1."""
    t, (a, b) = ltype(dt), args
    zero = e.assign(f"icmp eq {t} {b}, 0")
    if dt.kind == "u":
        safe = e.assign(f"select i1 {zero}, {t} 1, {t} {b}")
        q = e.assign(f"{'udiv' if op == 'floor_divide' else 'urem'} {t} {a}, {safe}")
        return e.assign(f"select i1 {zero}, {t} 0, {t} {q}")
    minus1 = e.assign(f"icmp eq {t} {b}, -1")
    bad = e.assign(f"or i1 {zero}, {minus1}")
    safe = e.assign(f"select i1 {bad}, {t} 1, {t} {b}")
    q = e.assign(f"sdiv {t} {a}, {safe}")
    r = e.assign(f"srem {t} {a}, {safe}")
    # floor semantics: adjust when the remainder's sign differs from the divisor's
    r_nz = e.assign(f"icmp ne {t} {r}, 0")
    signs = e.assign(f"xor {t} {r}, {b}")
    differ = e.assign(f"icmp slt {t} {signs}, 0")
    adjust = e.assign(f"and i1 {r_nz}, {differ}")
    if op == "floor_divide":
        q1 = e.assign(f"sub {t} {q}, 1")
        fq = e.assign(f"select i1 {adjust}, {t} {q1}, {t} {q}")
        neg = e.assign(f"sub {t} 0, {a}")
        fq = e.assign(f"select i1 {minus1}, {t} {neg}, {t} {fq}")
        return e.assign(f"select i1 {zero}, {t} 0, {t} {fq}")
    if op == "remainder":
        r1 = e.assign(f"add {t} {r}, {b}")
        r = e.assign(f"select i1 {adjust}, {t} {r1}, {t} {r}")
    return e.assign(f"select i1 {bad}, {t} 0, {t} {r}")


def _shift(e, op, args, dt) -> str:
    t, (a, b) = ltype(dt), args
    bits = dt.itemsize * 8
    in_range = e.assign(f"icmp ult {t} {b}, {bits}")
    safe = e.assign(f"select i1 {in_range}, {t} {b}, {t} 0")
    if op == "left_shift":
        v = e.assign(f"shl {t} {a}, {safe}")
        return e.assign(f"select i1 {in_range}, {t} {v}, {t} 0")
    if dt.kind == "u":
        v = e.assign(f"lshr {t} {a}, {safe}")
        return e.assign(f"select i1 {in_range}, {t} {v}, {t} 0")
    v = e.assign(f"ashr {t} {a}, {safe}")
    fill = e.assign(f"ashr {t} {a}, {bits - 1}")
    return e.assign(f"select i1 {in_range}, {t} {v}, {t} {fill}")


def _float_divmod(e, op, args, dt) -> str:
    """NumPy's float //, % (npy_divmod) and fmod."""
    t, (a, b) = ltype(dt), args
    mod = e.assign(f"frem {t} {a}, {b}")
    if op == "fmod":
        return mod
    zero_b = e.assign(f"fcmp oeq {t} {b}, 0.0")
    mod_nz = e.assign(f"fcmp une {t} {mod}, 0.0")
    b_neg = e.assign(f"fcmp olt {t} {b}, 0.0")
    mod_neg = e.assign(f"fcmp olt {t} {mod}, 0.0")
    differ = e.assign(f"xor i1 {b_neg}, {mod_neg}")
    adjust = e.assign(f"and i1 {mod_nz}, {differ}")
    if op == "remainder":
        fixed = e.assign(f"fadd {t} {mod}, {b}")
        signed_zero = e.intrinsic("copysign", dt, ["0.0", b])
        r = e.assign(f"select i1 {adjust}, {t} {fixed}, {t} {mod}")
        return e.assign(f"select i1 {mod_nz}, {t} {r}, {t} {signed_zero}")
    diff = e.assign(f"fsub {t} {a}, {mod}")
    div = e.assign(f"fdiv {t} {diff}, {b}")
    div1 = e.assign(f"fsub {t} {div}, 1.0")
    div = e.assign(f"select i1 {adjust}, {t} {div1}, {t} {div}")
    fl = e.intrinsic("floor", dt, [div])
    frac = e.assign(f"fsub {t} {div}, {fl}")
    up = e.assign(f"fcmp ogt {t} {frac}, 0.5")
    fl1 = e.assign(f"fadd {t} {fl}, 1.0")
    fl = e.assign(f"select i1 {up}, {t} {fl1}, {t} {fl}")
    quotient = e.assign(f"fdiv {t} {a}, {b}")
    div_zero = e.assign(f"fcmp oeq {t} {div}, 0.0")
    signed_zero = e.intrinsic("copysign", dt, ["0.0", quotient])
    fl = e.assign(f"select i1 {div_zero}, {t} {signed_zero}, {t} {fl}")
    return e.assign(f"select i1 {zero_b}, {t} {quotient}, {t} {fl}")


def _divmod_family(op):
    def handler(e, args, arg_dtypes, out):
        dt = arg_dtypes[0]
        if dt.kind == "f":
            return _float_divmod(e, op, args, dt)
        return _int_division(e, op, args, dt)
    return handler


def _negative(e, args, arg_dtypes, out):
    dt = arg_dtypes[0]
    if dt.kind == "f":
        return e.assign(f"fneg {ltype(dt)} {args[0]}")
    return e.assign(f"sub {ltype(dt)} 0, {args[0]}")


def _invert(e, args, arg_dtypes, out):
    t = ltype(arg_dtypes[0])
    return e.assign(f"xor {t} {args[0]}, {'true' if t == 'i1' else -1}")


def _logical_not(e, args, arg_dtypes, out):
    return e.assign(f"xor i1 {_truth(e, args[0], arg_dtypes[0])}, true")


def _reciprocal(e, args, arg_dtypes, out):
    return e.assign(f"fdiv {ltype(out)} {literal(1.0, out)}, {args[0]}")


def _sign(e, args, arg_dtypes, out):
    dt = arg_dtypes[0]
    t, x = ltype(dt), args[0]
    if dt.kind == "b":
        return x
    if dt.kind == "f":
        pos = e.assign(f"fcmp ogt {t} {x}, 0.0")
        neg = e.assign(f"fcmp olt {t} {x}, 0.0")
        p = e.assign(f"uitofp i1 {pos} to {t}")
        n = e.assign(f"uitofp i1 {neg} to {t}")
        s = e.assign(f"fsub {t} {p}, {n}")
        nan = e.assign(f"fcmp uno {t} {x}, 0.0")
        return e.assign(f"select i1 {nan}, {t} {x}, {t} {s}")
    pos = e.assign(f"icmp {'sgt' if dt.kind == 'i' else 'ugt'} {t} {x}, 0")
    p = e.assign(f"zext i1 {pos} to {t}")
    if dt.kind == "u":
        return p
    neg = e.assign(f"icmp slt {t} {x}, 0")
    n = e.assign(f"zext i1 {neg} to {t}")
    return e.assign(f"sub {t} {p}, {n}")


def _classify(kind):
    def handler(e, args, arg_dtypes, out):
        dt = arg_dtypes[0]
        if dt.kind != "f":
            return "true" if kind == "isfinite" else "false"
        t, x = ltype(dt), args[0]
        if kind == "isnan":
            return e.assign(f"fcmp uno {t} {x}, 0.0")
        a = e.intrinsic("fabs", dt, [x])
        inf = literal(np.inf, dt)
        return e.assign(f"fcmp {'oeq' if kind == 'isinf' else 'olt'} {t} {a}, {inf}")
    return handler


def _signbit(e, args, arg_dtypes, out):
    dt = arg_dtypes[0]
    bits = e.assign(f"bitcast {ltype(dt)} {args[0]} to i{dt.itemsize * 8}")
    return e.assign(f"icmp slt i{dt.itemsize * 8} {bits}, 0")


def _heaviside(e, args, arg_dtypes, out):
    dt = arg_dtypes[0]
    t, (x, h) = ltype(dt), args
    neg = e.assign(f"fcmp olt {t} {x}, 0.0")
    zero = e.assign(f"fcmp oeq {t} {x}, 0.0")
    v = e.assign(f"select i1 {zero}, {t} {h}, {t} 1.0")
    v = e.assign(f"select i1 {neg}, {t} 0.0, {t} {v}")
    nan = e.assign(f"fcmp uno {t} {x}, 0.0")
    return e.assign(f"select i1 {nan}, {t} {x}, {t} {v}")


def _fma(e, args, arg_dtypes, out):
    return e.intrinsic("fma", out, args)


def _select(e, args, arg_dtypes, out):
    return e.assign(f"select i1 {args[0]}, {ltype(out)} {args[1]}, {ltype(out)} {args[2]}")


def _logaddexp(base2):
    """NumPy's logaddexp(2): max + log1p(exp(-|x - y|)), exact when x == y (infinities)."""
    def handler(e, args, arg_dtypes, out):
        dt = arg_dtypes[0]
        t, (x, y) = ltype(dt), args
        diff = e.assign(f"fsub {t} {x}, {y}")
        ad = e.intrinsic("fabs", dt, [diff])
        nad = e.assign(f"fneg {t} {ad}")
        ex = vector_math.call(e, "exp2" if base2 else "exp", dt, [nad])
        lp = vector_math.call(e, "log1p", dt, [ex])
        if base2:
            lp = e.assign(f"fmul {t} {lp}, {literal(1 / np.log(2), dt)}")
            same = e.assign(f"fadd {t} {x}, 1.0")
        else:
            same = e.assign(f"fadd {t} {x}, {literal(np.log(2), dt)}")
        m = e.intrinsic("maximum", dt, [x, y])
        v = e.assign(f"fadd {t} {m}, {lp}")
        eq = e.assign(f"fcmp oeq {t} {x}, {y}")
        return e.assign(f"select i1 {eq}, {t} {same}, {t} {v}")
    return handler


def numpy_extreme(e: Emitter, op: str, args, dt) -> str:
    """NumPy's elementwise float maximum/minimum: ``a`` if it wins strictly or is NaN, else
    ``b`` (so a NaN in either propagates, and a tie of signed zeros gives ``b``, where
    LLVM's ``maximum``/``minimum`` order -0.0 below +0.0).  Reductions keep the intrinsic
    (``codegen._combine``: its vectorized form; a reduction's tie order is NumPy's loop's)."""
    t, (a, b) = ltype(dt), args
    wins = e.assign(f"fcmp {'ogt' if op == 'maximum' else 'olt'} {t} {a}, {b}")
    nan = e.assign(f"fcmp uno {t} {a}, {a}")
    take = e.assign(f"or i1 {wins}, {nan}")
    return e.assign(f"select i1 {take}, {t} {a}, {t} {b}")


def cast(e: Emitter, value: str, src: np.dtype, dst: np.dtype) -> str:
    """``astype`` with NumPy's unsafe-cast semantics (see the module docstring)."""
    if src == dst:
        return value
    ts, td = ltype(src), ltype(dst)
    if dst.kind == "b":
        return _truth(e, value, src)
    if src.kind == "b":
        return e.assign(f"{'uitofp' if dst.kind == 'f' else 'zext'} i1 {value} to {td}")
    if src.kind in "iu" and dst.kind in "iu":
        if src.itemsize == dst.itemsize:
            return value
        if src.itemsize > dst.itemsize:
            return e.assign(f"trunc {ts} {value} to {td}")
        return e.assign(f"{'sext' if src.kind == 'i' else 'zext'} {ts} {value} to {td}")
    if dst.kind == "f":
        if src.itemsize == 8 and dst.itemsize == 2 and src.kind == "f":
            return _double_to_half(e, value)
        if src.kind == "f":
            return e.assign(f"{'fpext' if dst.itemsize > src.itemsize else 'fptrunc'} {ts} {value} to {td}")
        return e.assign(f"{'sitofp' if src.kind == 'i' else 'uitofp'} {ts} {value} to {td}")
    return _float_to_int(e, value, src, dst)


def _double_to_half(e, value) -> str:
    """double -> half rounded once (NumPy's ``npy_double_to_half``) without LLVM's libcall
    (``__truncdfhf2``, absent from the JIT): round to float32 *to odd* (truncate, then
    set the last bit when inexact), then to half: float32 carries 13 more bits than half,
    so the second rounding sees the first's sticky bit and rounds as one would."""
    f = e.assign(f"fptrunc double {value} to float")
    back = e.assign(f"fpext float {f} to double")
    settled = e.assign(f"fcmp ueq double {back}, {value}")         # exact, or NaN
    away = e.assign(f"fcmp ogt double {e.intrinsic('fabs', F64, [back])}, "
                    f"{e.intrinsic('fabs', F64, [value])}")
    bits = e.assign(f"bitcast float {f} to i32")
    toward_zero = e.assign(f"select i1 {away}, i32 {e.assign(f'sub i32 {bits}, 1')}, i32 {bits}")
    odd = e.assign(f"select i1 {settled}, i32 {bits}, i32 {e.assign(f'or i32 {toward_zero}, 1')}")
    return e.assign(f"fptrunc float {e.assign(f'bitcast i32 {odd} to float')} to half")


def _x86_truncate(e, value, src, bits) -> str:
    """cvttsd2si: truncation toward zero, the minimum value for NaN and out of range."""
    ts = ltype(src)
    sat = e.assign(f"call i{bits} @llvm.fptosi.sat.i{bits}.{_suffix(src)}({ts} {value})")
    e.declarations.add(f"declare i{bits} @llvm.fptosi.sat.i{bits}.{_suffix(src)}({ts}) #0")
    low = e.assign(f"fcmp oge {ts} {value}, {literal(-2.0 ** (bits - 1), src)}")
    high = e.assign(f"fcmp olt {ts} {value}, {literal(2.0 ** (bits - 1), src)}")
    ok = e.assign(f"and i1 {low}, {high}")
    return e.assign(f"select i1 {ok}, i{bits} {sat}, i{bits} {-(1 << (bits - 1))}")


def _float_to_int(e, value, src, dst) -> str:
    td = ltype(dst)
    if dst == np.dtype(np.uint64):
        ts = ltype(src)
        big = e.assign(f"fcmp oge {ts} {value}, {literal(2.0 ** 63, src)}")
        shifted = e.assign(f"fsub {ts} {value}, {literal(2.0 ** 63, src)}")
        low = _x86_truncate(e, value, src, 64)
        high = _x86_truncate(e, shifted, src, 64)
        high = e.assign(f"xor i64 {high}, {-(1 << 63)}")
        return e.assign(f"select i1 {big}, i64 {high}, i64 {low}")
    bits = 64 if dst.itemsize == 8 or dst == np.dtype(np.uint32) else 32
    wide = _x86_truncate(e, value, src, bits)
    return wide if bits == dst.itemsize * 8 else e.assign(f"trunc i{bits} {wide} to {td}")


_HANDLERS = {
    "negative": _negative, "invert": _invert, "logical_not": _logical_not,
    "reciprocal": _reciprocal, "sign": _sign, "isnan": _classify("isnan"),
    "isinf": _classify("isinf"), "isfinite": _classify("isfinite"), "signbit": _signbit,
    "heaviside": _heaviside, "select": _select, "fma": _fma, "power_uniform": _power_uniform,
    "logaddexp": _logaddexp(False), "logaddexp2": _logaddexp(True),
    "floor_divide": _divmod_family("floor_divide"), "remainder": _divmod_family("remainder"),
    "fmod": _divmod_family("fmod"),
}
