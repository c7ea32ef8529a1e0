"""Statement kinds that compute: elementwise ops, reductions and scans, joins, sorts."""
from __future__ import annotations

import numpy

from .program import Candidate
from .texts import axis_text, dtype_name, partner, scalar_literal, threshold
from .values import BOOL, FLOAT, INTEGER, is_clean

ARITHMETIC = ["+", "-", "*", "+", "*", "/", "//", "%"]
COMPARISON = ["<", "<=", ">", ">=", "==", "!="]
BITWISE = ["&", "|", "^"]
BINARY_FUNCTIONS = ["np.maximum", "np.minimum", "np.add", "np.subtract", "np.multiply",
                    "np.logical_and", "np.logical_or"]


def _operand(g, x, clean=True):
    """A second operand for ``x``: a broadcast-compatible variable or a Python scalar."""
    if g.chance(0.45):
        return scalar_literal(g, dtype_name(g.value(x)))
    if g.chance(0.08):
        y = g.pick_scalar_variable()
        if y is not None:
            return y
    return partner(g, x, clean=clean) or scalar_literal(g, dtype_name(g.value(x)))


def binary(g):
    roll = g.rng.random()
    if roll < 0.55:
        op = g.rng.choice(ARITHMETIC)
        clean = op in ("//", "%")
    elif roll < 0.8:
        op, clean = g.rng.choice(COMPARISON), True
    else:
        op, clean = g.rng.choice(BITWISE), True
    x = g.pick(clean=clean)
    if x is None:
        return None
    if op in BITWISE and g.chance(0.9):
        x = g.pick(lambda v: dtype_name(v) in INTEGER + (BOOL,))
        if x is None:
            return None
    y = _operand(g, x, clean)
    text = f"{x} {op} {y}" if g.chance(0.85) else f"{y} {op} {x}"
    return Candidate(f"{g.fresh()} = {text}", "elementwise.binary")


def binary_function(g):
    x = g.pick()
    if x is None:
        return None
    y = _operand(g, x)
    return Candidate(f"{g.fresh()} = {g.rng.choice(BINARY_FUNCTIONS)}({x}, {y})", "elementwise.function")


def power(g):
    x = g.pick(lambda v: dtype_name(v) != BOOL)
    if x is None:
        return None
    if g.chance(0.7):
        # NumPy's float64 scalars use C pow, its arrays sqrt for ** 0.5 ((-inf) ** 0.5 is inf
        # against nan); lazynum's 0-d results follow the arrays (README: scalars are 0-d arrays)
        scalar = isinstance(g.value(x), numpy.generic)
        exponent = str(g.rng.choice([0, 1, 2, 2, 3, -1, 2.0] + ([] if scalar else [0.5])))
    else:
        exponent = g.pick(lambda v: dtype_name(v) in INTEGER and numpy.all(numpy.abs(numpy.asarray(v, dtype=float)) <= 3))
        if exponent is None:
            return None
    return Candidate(f"{g.fresh()} = {x} ** {exponent}", "elementwise.power")


UNARY = {
    "-{x}": lambda v: dtype_name(v) != BOOL,
    "np.abs({x})": None,
    "~{x}": lambda v: dtype_name(v) in INTEGER + (BOOL,),
    "np.sqrt(np.abs({x}))": lambda v: dtype_name(v) not in ("int8", "uint8", BOOL),
    "np.exp({x} * 0.25)": lambda v: dtype_name(v) in FLOAT,
    "np.floor({x})": lambda v: dtype_name(v) in FLOAT,
    "np.sign({x})": lambda v: dtype_name(v) != BOOL,
    "np.isnan({x})": None,
    "np.isfinite({x})": None,
    "np.logical_not({x})": None,
    "np.square({x})": lambda v: dtype_name(v) != BOOL,
    "{x} * 1": None,
    "np.sin({x})": lambda v: dtype_name(v) in FLOAT + ("int16", "int32"),
    "np.cos({x})": lambda v: dtype_name(v) in FLOAT,
    "np.tanh({x})": lambda v: dtype_name(v) in FLOAT,
    "np.arctan({x})": lambda v: dtype_name(v) in FLOAT + ("int32",),
    "np.log1p(np.abs({x}))": lambda v: dtype_name(v) in FLOAT,
    "np.expm1({x} * 0.25)": lambda v: dtype_name(v) in FLOAT,
    "np.cbrt({x})": lambda v: dtype_name(v) in FLOAT,
    "np.trunc({x})": lambda v: dtype_name(v) in FLOAT,
    "np.ceil({x})": lambda v: dtype_name(v) in FLOAT,
    "np.rint({x})": lambda v: dtype_name(v) in FLOAT,
    "np.round({x}, 1)": lambda v: dtype_name(v) != BOOL,
    "np.nan_to_num({x})": lambda v: dtype_name(v) in FLOAT,
}
EXACT_UNARY = ("np.abs({x})", "np.isnan({x})", "-{x}", "{x} * 1", "np.isfinite({x})")


def unary(g):
    form = g.rng.choice(list(UNARY))
    accept = UNARY[form]
    x = g.pick(accept, clean=form not in EXACT_UNARY)
    if x is None:
        return None
    return Candidate(f"{g.fresh()} = {form.format(x=x)}", "elementwise.unary")


def where(g):
    x = g.pick()
    if x is None:
        return None
    y = _operand(g, x)
    if g.chance(0.5):
        condition = partner(g, x) if g.chance(0.3) else None
        condition = condition if condition is not None and dtype_name(g.value(condition)) == BOOL else None
        condition = condition or f"{x} > {threshold(g, x)}"
    else:
        condition = f"{x} != {threshold(g, x)}"
    return Candidate(f"{g.fresh()} = np.where({condition}, {x}, {y})", "elementwise.where")


def clip(g):
    x = g.pick(lambda v: dtype_name(v) != BOOL)
    if x is None:
        return None
    low_text, high_text = threshold(g, x), threshold(g, x)
    return Candidate(f"{g.fresh()} = np.clip({x}, {low_text}, {high_text})", "elementwise.clip")


REDUCTIONS = {      # name -> whether its operand must be clean (an ulp decides the result)
    "sum": False, "mean": False, "prod": False, "var": False, "std": False,
    "max": True, "min": True, "argmax": True, "argmin": True, "any": False, "all": False,
    "ptp": True,
}


def reduction(g):
    name = g.rng.choice(list(REDUCTIONS) + ["sum", "max", "mean"])
    x = g.pick(clean=REDUCTIONS[name])
    if x is None:
        return None
    ndim = numpy.ndim(g.value(x))
    single_axis = name in ("argmax", "argmin")
    axis = axis_text(g, ndim, allow_tuple=not single_axis)
    keepdims = ", keepdims=True" if g.chance(0.25) else ""
    extra = ""
    if name in ("var", "std") and g.chance(0.3):
        extra = ", ddof=1"
    if name in ("sum", "prod") and g.chance(0.15):
        extra = ", dtype=np.float64" if g.chance(0.5) else ", dtype=np.int64"
    args = f"axis={axis}{keepdims}{extra}"
    method = name != "ptp" and g.chance(0.6)      # ndarray.ptp is gone in NumPy 2
    text = f"{x}.{name}({args})" if method else f"np.{name}({x}, {args})"
    if g.chance(0.06):
        text = f"np.count_nonzero({x}, axis={axis_text(g, ndim)})"
    elif g.chance(0.06):
        text = f"np.median({x}, axis={axis_text(g, ndim)})"
    return Candidate(f"{g.fresh()} = {text}", "reduce")


def scan(g):
    x = g.pick()
    if x is None:
        return None
    ndim = numpy.ndim(g.value(x))
    func = g.rng.choice(["cumsum", "cumsum", "cumprod"])
    axis = axis_text(g, ndim, allow_tuple=False)
    form = f"np.{func}({x}, axis={axis})" if g.chance(0.6) else f"{x}.{func}(axis={axis})"
    return Candidate(f"{g.fresh()} = {form}", "reduce.scan")


def _join_partners(g, x, axis, stacking):
    shape = numpy.shape(g.value(x))

    def accept(value):
        other = numpy.shape(value)
        if stacking:
            return other == shape
        if len(other) != len(shape):
            return False
        return all(a == b for i, (a, b) in enumerate(zip(other, shape)) if i != axis % max(len(shape), 1))
    names = [x]
    for _ in range(g.rng.choice([1, 1, 2])):
        y = g.pick(accept, clean=False) if g.chance(0.93) else g.pick(clean=False)
        if y is not None:
            names.append(y)
    return names


def join(g):
    x = g.pick(lambda v: numpy.ndim(v) >= 1 or g.chance(0.1), clean=False)
    if x is None:
        return None
    ndim = numpy.ndim(g.value(x))
    stacking = g.chance(0.35)
    axis = g.rng.randint(-ndim - stacking, ndim - 1 + stacking) if ndim or stacking else 0
    names = _join_partners(g, x, axis, stacking)
    func = "np.stack" if stacking else "np.concatenate"
    axis_arg = "" if axis == 0 and g.chance(0.4) else f", axis={axis}"
    if not stacking and g.chance(0.08):
        axis_arg = ", axis=None"
    return Candidate(f"{g.fresh()} = {func}([{', '.join(names)}]{axis_arg})", "join")


def sort(g):
    x = g.pick()
    if x is None:
        return None
    ndim = numpy.ndim(g.value(x))
    axis = axis_text(g, ndim, allow_tuple=False) if ndim else "None"
    if g.chance(0.6):
        form = f"np.sort({x}, axis={axis})"
    else:
        form = f"np.argsort({x}, axis={axis}, kind='stable')"
    return Candidate(f"{g.fresh()} = {form}", "sort")


def rearrange(g):
    """Copies that move elements: flip, roll, repeat, tile, diff, searchsorted."""
    x = g.pick(lambda v: numpy.ndim(v) >= 1, clean=False)
    if x is None:
        return None
    ndim = numpy.ndim(g.value(x))
    axis = g.rng.randrange(-ndim, ndim)
    forms = [f"np.flip({x}, axis={axis})", f"np.roll({x}, {g.rng.randint(-3, 3)}, axis={axis})",
             f"np.repeat({x}, {g.rng.randint(0, 3)}, axis={axis})", f"np.tile({x}, {g.rng.randint(1, 2)})",
             f"np.flip({x})", f"np.roll({x}, {g.rng.randint(-3, 3)})"]
    if dtype_name(g.value(x)) != BOOL and is_clean(g.value(x)):
        forms.append(f"np.diff({x}, axis={axis})")
        if ndim == 1:
            forms.append(f"np.searchsorted(np.sort({x}), {threshold(g, x)})")
    return Candidate(f"{g.fresh()} = {g.rng.choice(forms)}", "rearrange")


def matmul(g):
    x = g.pick(lambda v: numpy.ndim(v) in (1, 2) and dtype_name(v) != BOOL)
    if x is None:
        return None
    inner = numpy.shape(g.value(x))[-1]
    y = g.pick(lambda v: numpy.ndim(v) in (1, 2) and numpy.shape(v)[0] == inner)
    if y is None:
        return None
    return Candidate(f"{g.fresh()} = {x} @ {y}", "matmul")


def count(g):
    """bincount of small non-negative integers (argmin results, folded integers), with weights
    and minlength now and then; histogram counts over a variable's own range."""
    x = g.pick(lambda v: numpy.ndim(v) >= 1 and dtype_name(v) != BOOL and numpy.size(v) > 0)
    if x is None:
        return None
    value = g.value(x)
    if dtype_name(value) in INTEGER and g.chance(0.5):
        labels = f"(np.abs({x}.ravel()) % 5)"
    else:
        labels = f"np.argmin({x}, axis=-1).ravel()" if numpy.ndim(value) > 1 else f"np.argsort({x}, kind='stable')"
    extra = ""
    if g.chance(0.4):
        extra += f", minlength={g.rng.choice([0, 3, 8])}"
    if g.chance(0.3):
        extra += f", weights=np.ones({labels}.shape) * 0.5"
    form = f"np.bincount({labels}{extra})"
    if dtype_name(value) in FLOAT and is_clean(value) and g.chance(0.3):
        form = f"np.histogram({x}, bins={g.rng.choice([1, 3, 5])})[0]"
    return Candidate(f"{g.fresh()} = {form}", "count")


def library(g):
    """This wave's lazy library functions: trim_zeros (a bounded result), packbits and
    unpackbits, i0, polyval, polyder/polyint of a 1-d coefficient vector."""
    x = g.pick(lambda v: numpy.ndim(v) >= 1 and numpy.size(v) > 0)
    if x is None:
        return None
    value = g.value(x)
    name = dtype_name(value)
    forms = [f"np.packbits({x} > {threshold(g, x)}, axis=-1)" if name != BOOL else f"np.packbits({x}, axis=-1)"]
    if numpy.ndim(value) == 1:
        forms += [f"np.trim_zeros({x})", f"np.trim_zeros({x}, 'b')"]
        if name in FLOAT + INTEGER and is_clean(value) and numpy.size(value) <= 6:
            forms += [f"np.polyval({x}, 0.5)", f"np.polyder({x})", f"np.polyint({x})"]
    if name == "uint8":
        forms.append(f"np.unpackbits({x}, axis=-1)")
    if name in FLOAT and is_clean(value):
        forms.append(f"np.i0({x})")
    return Candidate(f"{g.fresh()} = {g.rng.choice(forms)}", "library")


KINDS = {
    "library": (library, 2),
    "count": (count, 2),
    "elementwise.binary": (binary, 12),
    "elementwise.function": (binary_function, 3),
    "elementwise.power": (power, 2),
    "elementwise.unary": (unary, 6),
    "elementwise.where": (where, 3),
    "elementwise.clip": (clip, 1),
    "reduce": (reduction, 10),
    "reduce.scan": (scan, 3),
    "join": (join, 5),
    "sort": (sort, 3),
    "rearrange": (rearrange, 3),
    "matmul": (matmul, 1),
}
