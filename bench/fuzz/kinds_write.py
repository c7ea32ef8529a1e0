"""Statement kinds that write in place, and fancy (integer-array) indexing, get and set."""
from __future__ import annotations

import numpy

from .program import Candidate
from .texts import (axis_text, basic_index, broadcasts_to, dtype_name, partner, rhs_for,
    scalar_literal, threshold)
from .values import BOOL, INTEGER, cast_is_defined, is_clean

AUGMENTED = ["+=", "-=", "*=", "+=", "//=", "|=", "/=", "%="]


def _target(g, accept=None):
    """A writable array variable (NumPy scalars from reductions are not: lazynum's are 0-d
    arrays, a documented deviation)."""
    return g.pick(accept, clean=False, writable=True)


def setitem(g):
    x = _target(g)
    if x is None:
        return None
    value = g.value(x)
    index = basic_index(g, value.shape)
    try:
        region = g.value(f"{x}[{index}]")
    except Exception:                 # noqa: BLE001  (an invalid index: NumPy will say)
        region = value
    rhs = rhs_for(g, numpy.shape(region), value.dtype.name)
    return Candidate(f"{x}[{index}] = {rhs}", "write.setitem")


def ellipsis(g):
    x = _target(g)
    if x is None:
        return None
    value = g.value(x)
    form = g.rng.choice(["...", ":"] if value.ndim else ["..."])
    return Candidate(f"{x}[{form}] = {rhs_for(g, value.shape, value.dtype.name)}", "write.ellipsis")


def augmented(g):
    op = g.rng.choice(AUGMENTED)
    clean = op in ("//=", "%=")
    accept = (lambda v: dtype_name(v) in INTEGER + (BOOL,)) if op == "|=" else None
    # A NumPy scalar (a reduction's result) rebinds on `s += 1` where lazynum's 0-d array
    # updates in place: the same unless something aliases it (README: known deviations).
    x = g.pick(accept, clean=clean, writable=bool(g.frozen) or g.chance(0.9))
    if x is None:
        return None
    value = g.value(x)
    if g.chance(0.35) and isinstance(value, numpy.ndarray) and value.ndim:
        index = basic_index(g, value.shape)
        try:
            region = numpy.shape(g.value(f"{x}[{index}]"))
        except Exception:             # noqa: BLE001
            region = value.shape
        target = f"{x}[{index}]"
    else:
        region, target = numpy.shape(value), x
    if g.chance(0.5):
        rhs = scalar_literal(g, dtype_name(value))
    else:
        rhs = g.pick(lambda v: broadcasts_to(numpy.shape(v), region), clean=clean) or scalar_literal(g, dtype_name(value))
    return Candidate(f"{target} {op} {rhs}", "write.augmented")


def mask_write(g):
    x = _target(g)
    if x is None:
        return None
    value = g.value(x)
    roll = g.rng.random()
    if not is_clean(value):
        # a threshold taken from NumPy's last bits could fall either side in lazynum's
        mask = f"np.isnan({x})" if g.chance(0.5) else f"{x} > 0"
    elif roll < 0.5 or value.dtype.kind == "b":
        mask = f"{x} > {threshold(g, x)}" if value.dtype.kind != "b" else x
    else:
        mask = g.pick(lambda v: dtype_name(v) == BOOL and numpy.shape(v) == value.shape, clean=False)
        mask = mask or f"{x} != {threshold(g, x)}"
    op = g.rng.choice(["=", "=", "=", "+=", "*="])
    if g.chance(0.15):
        rhs = f"{x}[{mask}] * 2"
    elif g.chance(0.2):
        rhs = g.pick(lambda v: numpy.ndim(v) == 1, clean=False) or scalar_literal(g, value.dtype.name)
    else:
        rhs = scalar_literal(g, value.dtype.name)
    return Candidate(f"{x}[{mask}] {op} {rhs}", "write.mask")


def copyto(g):
    x = _target(g)
    if x is None:
        return None
    value = g.value(x)
    source = rhs_for(g, value.shape, value.dtype.name)
    if not value.flags.writeable and source in g.ns and numpy.shares_memory(value, g.value(source)):
        return None       # NumPy skips copying an array onto itself, read-only or not
    where = ""
    if g.chance(0.35):
        mask = g.pick(lambda v: dtype_name(v) == BOOL and broadcasts_to(numpy.shape(v), value.shape), clean=False)
        where = f", where={mask or f'{x} > {threshold(g, x) if is_clean(value) else 0}'}"
    casting = ", casting='unsafe'" if g.chance(0.2) and cast_is_defined(g.value(source) if source in g.ns else 0, value.dtype.name) else ""
    return Candidate(f"np.copyto({x}, {source}{where}{casting})", "write.copyto")


def out_argument(g):
    x = _target(g)
    if x is None:
        return None
    value = g.value(x)
    roll = g.rng.random()
    if roll < 0.5:
        y = partner(g, x) or x
        func = g.rng.choice(["np.add", "np.multiply", "np.subtract", "np.maximum", "np.minimum"])
        first = x if g.chance(0.5) else (g.pick(lambda v: broadcasts_to(numpy.shape(v), value.shape)) or x)
        text = f"{func}({first}, {y}, out={x})"
    elif roll < 0.7:
        y = g.pick(lambda v: broadcasts_to(numpy.shape(v), value.shape)) or x
        func = g.rng.choice(["np.negative", "np.abs", "np.square", "np.floor"])
        text = f"{func}({y}, out={x})"
    else:
        # Only out= of the reduction's own dtype: into another dtype NumPy reduces in a mix
        # of the two (np.min(int16, out=bool) is neither min-then-cast nor cast-then-min).
        ndim = value.ndim + 1
        y = g.pick(lambda v: numpy.ndim(v) == ndim and numpy.shape(v)[1:] == value.shape
                   and dtype_name(v) == value.dtype.name, clean=False)
        if y is None:
            return None
        wide = value.dtype.name in ("int64", "uint64", "float64", "float32")
        func = g.rng.choice(["np.max", "np.min"] + (["np.sum", "np.prod"] if wide else []))
        text = f"{func}({y}, axis=0, out={x})"
    return Candidate(text, "write.out")


def fill(g):
    x = _target(g)
    return None if x is None else Candidate(f"{x}.fill({scalar_literal(g, dtype_name(g.value(x)))})", "write.fill")


def sort_in_place(g):
    x = _target(g, lambda v: v.ndim >= 1)
    if x is None:
        return None
    ndim = g.value(x).ndim
    axis = "" if g.chance(0.5) else f"axis={axis_text(g, ndim, allow_none=False, allow_tuple=False)}"
    return Candidate(f"{x}.sort({axis})", "write.sort")


def _index_list(g, side: int) -> str:
    count = g.rng.randint(0, 4) if g.chance(0.9) else 0
    if side == 0 or count == 0:
        return "[]" if side == 0 or g.chance(0.5) else "[0]"
    items = [g.rng.randint(-side, side - 1) for _ in range(count)]
    if g.chance(0.05):
        items[g.rng.randrange(count)] = g.rng.choice([side, -side - 1])       # IndexError
    return repr(items)


def _index_variable(g, side: int):
    """An integer array variable usable as an index along a dim of ``side``."""
    def accept(v):
        return (dtype_name(v) in INTEGER and numpy.ndim(v) >= 1
                and (numpy.size(v) == 0 or (numpy.max(v) < side and numpy.min(v) >= -side) or g.chance(0.05)))
    return g.pick(accept)


def _fancy_index(g, shape: tuple) -> str:
    if not shape:
        return "[0]"
    roll = g.rng.random()
    first = _index_variable(g, shape[0]) if g.chance(0.45) else None
    first = first or _index_list(g, shape[0])
    if roll < 0.55 or len(shape) == 1:
        return first
    if roll < 0.8:
        return f":, {_index_list(g, shape[1])}"
    second = _index_list(g, shape[1])
    return f"{first}, {second}"


def fancy_get(g):
    x = g.pick(lambda v: numpy.ndim(v) >= 1, clean=False)
    if x is None:
        return None
    shape = numpy.shape(g.value(x))
    if g.chance(0.2):
        axis = g.rng.randrange(len(shape))
        indices = _index_variable(g, shape[axis]) if g.chance(0.4) else None
        return Candidate(f"{g.fresh()} = np.take({x}, {indices or _index_list(g, shape[axis])}, axis={axis})",
                         "fancy.get:take")
    return Candidate(f"{g.fresh()} = {x}[{_fancy_index(g, shape)}]", "fancy.get")


def fancy_set(g):
    x = _target(g, lambda v: v.ndim >= 1)
    if x is None:
        return None
    value = g.value(x)
    index = _fancy_index(g, value.shape)
    try:
        region = numpy.shape(g.value(f"{x}[{index}]"))
    except Exception:                 # noqa: BLE001
        region = ()
    op = g.rng.choice(["=", "=", "+="])
    return Candidate(f"{x}[{index}] {op} {rhs_for(g, region, value.dtype.name)}", "fancy.set")


def scalar_write(g):
    x = _target(g, lambda v: v.ndim >= 1 and v.size > 0)
    if x is None:
        return None
    shape = g.value(x).shape
    index = ", ".join(str(g.rng.randint(-side, side - 1)) for side in shape)
    op = g.rng.choice(["=", "+=", "-="])
    return Candidate(f"{x}[{index}] {op} {scalar_literal(g, dtype_name(g.value(x)))}", "write.scalar")


SCATTER_UFUNCS = ["add", "add", "subtract", "multiply", "maximum", "minimum", "fmax", "fmin"]


def scatter_at(g):
    """``np.<ufunc>.at(x, idx, v)`` with repeated and negative indices along axis 0."""
    # NumPy's at writes through read-only arrays (a broadcast_to view and its base change);
    # lazynum refuses, as NumPy's own setitem does (README: known deviations)
    x = _target(g, lambda v: numpy.ndim(v) >= 1 and numpy.shape(v)[0] > 0 and dtype_name(v) != BOOL
                and v.flags.writeable)
    if x is None:
        return None
    value = g.value(x)
    n = value.shape[0]
    idx = [g.rng.randrange(-n, n) for _ in range(g.rng.randint(1, 6))]
    ufunc = g.rng.choice(SCATTER_UFUNCS)
    rhs = scalar_literal(g, value.dtype.name) if g.chance(0.6) else \
        rhs_for(g, (len(idx),) + value.shape[1:], value.dtype.name)
    return Candidate(f"np.{ufunc}.at({x}, np.array({idx}), {rhs})", "write.at")


KINDS = {
    "write.at": (scatter_at, 2),
    "write.setitem": (setitem, 7),
    "write.ellipsis": (ellipsis, 2),
    "write.augmented": (augmented, 8),
    "write.mask": (mask_write, 6),
    "write.copyto": (copyto, 3),
    "write.out": (out_argument, 3),
    "write.fill": (fill, 1),
    "write.sort": (sort_in_place, 2),
    "write.scalar": (scalar_write, 2),
    "fancy.get": (fancy_get, 6),
    "fancy.set": (fancy_set, 4),
}
