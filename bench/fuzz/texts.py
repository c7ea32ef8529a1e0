"""Source-text pieces the statement kinds share: literals, indices, axes, operands."""
from __future__ import annotations

import numpy

from .values import (BOOL, FLOAT, UNSIGNED, cast_is_defined, dtype_text, python_literal,
    random_dtype, random_scalar)


def dtype_name(value) -> str:
    return numpy.asarray(value).dtype.name


def scalar_literal(g, dtype: str) -> str:
    """A Python scalar for an operand of ``dtype``: usually one it holds exactly, now and
    then one of another kind (a float for an integer array: promotion), or out of range
    (NumPy 2 raises OverflowError for weak Python ints that do not fit)."""
    roll = g.rng.random()
    if roll < 0.06 and dtype != BOOL:
        return python_literal(g.rng.choice([300, -1, 2 ** 40]) if dtype in UNSIGNED or dtype == "int8"
                              else random_scalar(g.rng, "float64"))
    if roll < 0.14:
        other = g.rng.choice(["int64", "float64", BOOL])
        return python_literal(random_scalar(g.rng, other))
    return python_literal(random_scalar(g.rng, dtype))


def threshold(g, name: str) -> str:
    """A comparison threshold near the values of ``name`` (so masks are neither all nor none)."""
    values = numpy.asarray(g.value(name))
    finite = values[numpy.isfinite(values)] if values.dtype.kind == "f" else values.ravel()
    if finite.size and g.chance(0.8):
        picked = finite.ravel()[g.rng.randrange(finite.size)]
        return python_literal(picked.item() if values.dtype.kind != "b" else int(picked))
    return python_literal(random_scalar(g.rng, "int64"))


def _index_part(g, side: int) -> str:
    roll = g.rng.random()
    if roll < 0.35:
        return ":"
    if roll < 0.55 and side > 0:
        return str(g.rng.randint(-side, side - 1))
    if roll < 0.57:
        return str(g.rng.choice([side, -side - 1]))        # out of bounds: IndexError
    ends = [""] * 3 + [str(v) for v in range(-side - 1, side + 2)]
    start, stop = g.rng.choice(ends), g.rng.choice(ends)
    step = g.rng.choice(["", "", "", "2", "-1", "-1", "-2", "3"])
    return f"{start}:{stop}" + (f":{step}" if step else "")


def basic_index(g, shape: tuple) -> str:
    """Text inside ``x[...]``: ints, slices (negative steps too), ``None`` and ``...``."""
    if not shape:
        return g.rng.choice(["...", "...", "None", "()"])
    used = g.rng.randint(1, len(shape))
    parts = [_index_part(g, side) for side in shape[:used]]
    if g.chance(0.12):
        parts.insert(g.rng.randrange(len(parts) + 1), "None")
    if g.chance(0.12):
        parts = ["..."] + parts[1:] if len(parts) > 1 else ["...", parts[0]]
    return ", ".join(parts)


def axis_text(g, ndim: int, allow_none=True, allow_tuple=True) -> str:
    """An ``axis`` argument: None, a (possibly negative) int, a tuple; rarely out of range."""
    if allow_none and (ndim == 0 or g.chance(0.3)):
        return "None"
    if ndim == 0 or g.chance(0.03):
        return str(ndim + g.rng.randint(0, 1))             # AxisError
    if allow_tuple and ndim >= 2 and g.chance(0.2):
        axes = g.rng.sample(range(ndim), g.rng.randint(1, ndim))
        return "(" + ", ".join(str(a - ndim if g.chance(0.3) else a) for a in axes) + ",)"
    axis = g.rng.randrange(ndim)
    return str(axis - ndim if g.chance(0.3) else axis)


def broadcasts_to(shape: tuple, target: tuple) -> bool:
    try:
        return numpy.broadcast_shapes(shape, target) == tuple(target)
    except ValueError:
        return False


def broadcasts_with(shape: tuple, other: tuple) -> bool:
    try:
        numpy.broadcast_shapes(shape, other)
        return True
    except ValueError:
        return False


def partner(g, name: str, clean=True, same_dtype=False):
    """Another operand for a binary op with ``name``: usually broadcast-compatible."""
    shape = numpy.shape(g.value(name))
    dtype = dtype_name(g.value(name))

    def accept(value):
        if same_dtype and dtype_name(value) != dtype:
            return False
        return broadcasts_with(numpy.shape(value), shape)
    if g.chance(0.05):
        return g.pick(clean=clean)
    return g.pick(accept, clean=clean)


def rhs_for(g, region_shape: tuple, dtype: str) -> str:
    """A right-hand side for a write into a region of ``region_shape`` and ``dtype``."""
    if g.chance(0.5):
        return scalar_literal(g, dtype)

    def accept(value):
        return (broadcasts_to(numpy.shape(value), region_shape) and cast_is_defined(value, dtype)
                and not _scalar_out_of_range(value, dtype))
    name = g.pick(accept) if g.chance(0.95) else g.pick()
    return name if name is not None else scalar_literal(g, dtype)


def _scalar_out_of_range(value, dtype: str) -> bool:
    """NumPy stores a NumPy integer scalar through Python's int (OverflowError when it does
    not fit); lazynum's 0-d array casts like an array (README: scalars are 0-d arrays)."""
    if not isinstance(value, numpy.integer) or numpy.dtype(dtype).kind not in "iu":
        return False
    info = numpy.iinfo(dtype)
    return not info.min <= int(value) <= info.max


def cast_target(g, value) -> str | None:
    """A dtype ``value`` converts to with a defined result (None if there is none to try)."""
    for _ in range(4):
        dtype = random_dtype(g.rng)
        if cast_is_defined(value, dtype):
            return dtype
    return None


__all__ = ["axis_text", "basic_index", "broadcasts_to", "broadcasts_with", "cast_target",
           "dtype_name", "dtype_text", "partner", "rhs_for", "scalar_literal", "threshold"]
