"""Statement kinds that make variables: creation, views, casts, explicit and implicit syncs.

Each kind is ``fn(g) -> Candidate | None`` (``g`` the generator); ``KINDS`` maps its name to
``(fn, weight)``.
"""
from __future__ import annotations

import math

import numpy

from .program import Candidate
from .texts import basic_index, cast_target, dtype_name, dtype_text, scalar_literal
from .values import random_dtype, random_shape


def create(g):
    v, dtype = g.fresh(), random_dtype(g.rng)
    shape = random_shape(g.rng) if g.chance(0.5) else g.base_shape
    roll = g.rng.random()
    if roll < 0.25:
        size = math.prod(shape)
        text = f"{v} = np.arange({size}, dtype={dtype_text(dtype)})"
        if dtype in ("bool",):
            text = f"{v} = (np.arange({size}) % 2 == 0)"
        text += f".reshape({shape!r})" if len(shape) != 1 else ""
    elif roll < 0.45:
        func = g.rng.choice(["zeros", "ones"])
        text = f"{v} = np.{func}({shape!r}, dtype={dtype_text(dtype)})"
    elif roll < 0.6:
        text = f"{v} = np.full({shape!r}, {scalar_literal(g, dtype)}, dtype={dtype_text(dtype)})"
    else:
        x = g.pick(clean=False)
        if x is None:
            return None
        form = g.rng.choice([f"{x}.copy()", f"np.array({x})", f"np.zeros_like({x})",
                             f"np.ones_like({x}, dtype={dtype_text(dtype)})",
                             f"np.full_like({x}, {scalar_literal(g, dtype_name(g.value(x)))})",
                             f"np.copy({x})"])
        text = f"{v} = {form}"
    return Candidate(text, "create")


def alias(g):
    x = g.pick(clean=False)
    return None if x is None else Candidate(f"{g.fresh()} = {x}", "alias")


def delete(g):
    x = g.pick(clean=False, bounded_bias=0.0)
    return None if x is None or len(g.variables()) < 3 else Candidate(f"del {x}", "delete")


def view_slice(g):
    x = g.pick(clean=False)
    if x is None:
        return None
    return Candidate(f"{g.fresh()} = {x}[{basic_index(g, numpy.shape(g.value(x)))}]", "view.slice")


def view_transpose(g):
    x = g.pick(clean=False)
    if x is None:
        return None
    ndim = numpy.ndim(g.value(x))
    forms = [f"{x}.T"]
    if ndim >= 2:
        perm = list(range(ndim))
        g.rng.shuffle(perm)
        i, j = g.rng.sample(range(-ndim, ndim), 2)
        forms += [f"{x}.transpose({tuple(perm)!r})", f"np.transpose({x})",
                  f"np.swapaxes({x}, {i}, {j})", f"np.moveaxis({x}, {i}, {j})"]
    return Candidate(f"{g.fresh()} = {g.rng.choice(forms)}", "view.transpose")


def _reshape_target(g, shape: tuple) -> tuple:
    size = math.prod(shape)
    if g.chance(0.04):
        return (size + 1,)                                   # ValueError
    factors = [d for d in range(1, size + 1) if size % d == 0] or [1]
    first = g.rng.choice(factors) if size else g.rng.choice([0, 1, 2])
    rest = size // first if first else 0
    target = [first] if g.chance(0.3) or rest == 1 else [first, rest]
    if size == 0 and len(target) == 2:
        target[1] = g.rng.choice([0, 3])
        target[0] = 0
    if len(target) == 1:
        target = [size]
    if g.chance(0.25) and 0 not in target:
        target[g.rng.randrange(len(target))] = -1
    if g.chance(0.15):
        target.insert(g.rng.randrange(len(target) + 1), 1)
    return tuple(target)


def view_reshape(g):
    x = g.pick(clean=False)
    if x is None:
        return None
    shape = numpy.shape(g.value(x))
    roll = g.rng.random()
    if roll < 0.45:
        form = f"{x}.reshape({_reshape_target(g, shape)!r})"
    elif roll < 0.65:
        form = f"{x}.ravel()" if g.chance(0.7) else f"np.ravel({x})"
    elif roll < 0.75:
        form = f"{x}.flatten()"
    elif roll < 0.87:
        ones = [i for i, side in enumerate(shape) if side == 1]
        form = f"np.squeeze({x})" if not ones or g.chance(0.5) else f"np.squeeze({x}, axis={g.rng.choice(ones)})"
    else:
        axis = g.rng.randint(-len(shape) - 1, len(shape))
        form = f"np.expand_dims({x}, {axis})"
    return Candidate(f"{g.fresh()} = {form}", "view.reshape")


def view_broadcast(g):
    x = g.pick(clean=False)
    if x is None:
        return None
    shape = numpy.shape(g.value(x))
    target = tuple(g.rng.choice([2, 3]) if side == 1 and g.chance(0.6) else side for side in shape)
    if g.chance(0.3):
        target = (g.rng.choice([1, 2]),) + target
    return Candidate(f"{g.fresh()} = np.broadcast_to({x}, {target!r})", "view.broadcast")


REINTERPRETED = ["int8", "uint8", "int16", "uint16", "int32", "float32", "int64", "uint64", "float64"]


def view_dtype(g):
    """``x.view(dtype)``: the same bytes read as another (non-bool) dtype; a different
    itemsize changes the last axis (NumPy's ValueError when it is not contiguous)."""
    # clean values only: a last-ulp difference a libm allows (exp) shows in every reinterpreted bit
    x = g.pick(lambda v: isinstance(v, numpy.ndarray) and dtype_name(v) != "bool", clean=True,
               writable=g.chance(0.5))
    if x is None:
        return None
    dtype = g.rng.choice(REINTERPRETED)
    return Candidate(f"{g.fresh()} = {x}.view(np.{dtype})", "view.dtype")


def cast(g):
    x = g.pick(clean=False)
    if x is None:
        return None
    dtype = cast_target(g, g.value(x))
    if dtype is None:
        return None
    form = g.rng.choice([f"{x}.astype({dtype_text(dtype)})", f"{x}.astype({dtype_text(dtype)})",
                         f"np.asarray({x}, dtype={dtype_text(dtype)})",
                         f"{x}.astype({dtype_text(dtype)}, copy=False)"])
    return Candidate(f"{g.fresh()} = {form}", "cast")


def sync_explicit(g):
    x = g.pick(clean=False, lazy=True)
    if x is None:
        return None
    if g.chance(0.5):
        return Candidate("pass", "sync.explicit:method", lazy_text=f"{x}.sync()")
    y = g.pick(clean=False, lazy=True) or x
    return Candidate("pass", "sync.explicit:function", lazy_text=f"np.sync({x}, {y})")


def sync_implicit(g):
    x = g.pick(clean=False)
    if x is None:
        return None
    value, v = g.value(x), g.fresh()
    roll = g.rng.random()
    if roll < 0.25:
        return Candidate(f"_ = numpy.asarray({x})", "sync.implicit:asarray")
    if roll < 0.4:
        return Candidate(f"{v} = numpy.array({x})", "sync.implicit:numpy_copy")
    if roll < 0.6:
        return Candidate(f"{v} = {x}.item()", "sync.implicit:item")
    if roll < 0.75:
        reduction = g.rng.choice(["sum", "max", "min"]) if numpy.size(value) else "sum"
        return Candidate(f"{v} = float({x}.{reduction}())", "sync.implicit:float")
    if roll < 0.85:
        return Candidate(f"{v} = int({x}.sum())", "sync.implicit:int")
    if roll < 0.93:
        return Candidate(f"{v} = bool({x}.any())", "sync.implicit:bool")
    return Candidate(f"{v} = float({x})", "sync.implicit:float")


KINDS = {
    "create": (create, 5),
    "alias": (alias, 2),
    "delete": (delete, 1),
    "view.slice": (view_slice, 10),
    "view.transpose": (view_transpose, 4),
    "view.reshape": (view_reshape, 6),
    "view.broadcast": (view_broadcast, 1),
    "view.dtype": (view_dtype, 2),
    "cast": (cast, 6),
    "sync.explicit": (sync_explicit, 3),
    "sync.implicit": (sync_implicit, 4),
}
