"""Statement kinds with data-dependent shapes: masks, nonzero, unique, compress and friends
(lazynum's bounded arrays), and mask variables for later statements to reuse."""
from __future__ import annotations

import numpy

from .program import Candidate
from .texts import dtype_name, threshold
from .values import BOOL, is_clean


def _produced(g, form: str, kind: str, names=1) -> Candidate:
    targets = ", ".join(g.fresh() for _ in range(names))
    return Candidate(f"{targets} = {form}", kind, bounded=True)


def mask_variable(g):
    """``m = x > t``: a named mask, so later writes and selections share one mask node."""
    x = g.pick(lambda v: dtype_name(v) != BOOL)
    if x is None:
        return None
    op = g.rng.choice([">", "<", ">=", "!=", "=="])
    return Candidate(f"{g.fresh()} = {x} {op} {threshold(g, x)}", "mask")


def select(g):
    x = g.pick(clean=False)
    if x is None:
        return None
    shape = numpy.shape(g.value(x))
    roll = g.rng.random()
    if roll < 0.5 and dtype_name(g.value(x)) != BOOL and numpy.ndim(g.value(x)) and is_clean(g.value(x)):
        mask = f"{x} {g.rng.choice(['>', '<', '!='])} {threshold(g, x)}"
    else:
        ndim = len(shape)
        lead = g.rng.randint(1, ndim) if ndim else 0
        mask = g.pick(lambda v: dtype_name(v) == BOOL and numpy.shape(v) == shape[:lead], clean=False)
        if mask is None:
            mask = g.pick(lambda v: dtype_name(v) == BOOL, clean=False) if g.chance(0.05) else None
        if mask is None:
            return None
    if x in g.foreign and mask in g.ns and numpy.size(g.value(mask)) == 0:
        # NumPy indexes with any EMPTY array-like that is not an ndarray as integers (its
        # prepare_index casts it to intp), so numpy_array[empty lazy mask] is not a mask there
        # (a "foreign" mask may be a lazy array in the lazynum run: skip those too).
        return None
    return _produced(g, f"{x}[{mask}]", "produce.mask")


def nonzero(g):
    x = g.pick(clean=True)
    if x is None:
        return None
    ndim = numpy.ndim(g.value(x))
    roll = g.rng.random()
    if roll < 0.3 and ndim >= 1:
        if ndim <= 2 and g.chance(0.5):
            return _produced(g, f"np.nonzero({x})", "produce.nonzero", names=ndim)
        return _produced(g, f"np.nonzero({x})[{g.rng.randrange(ndim)}]", "produce.nonzero")
    if roll < 0.55:
        return _produced(g, f"np.flatnonzero({x})", "produce.nonzero:flatnonzero")
    if roll < 0.75:
        return _produced(g, f"np.argwhere({x})", "produce.nonzero:argwhere")
    if roll < 0.9 and ndim == 1:
        return _produced(g, f"np.where({x} > {threshold(g, x)})[0]", "produce.nonzero:where")
    mask = g.pick(lambda v: dtype_name(v) == BOOL and numpy.shape(v) == numpy.shape(g.value(x)), clean=False)
    return _produced(g, f"np.extract({mask or f'{x} != 0'}, {x})", "produce.nonzero:extract")


def unique(g):
    x = g.pick(clean=True)
    if x is None:
        return None
    flags = [f for f in ("return_index", "return_inverse", "return_counts") if g.chance(0.4)]
    arguments = "".join(f", {f}=True" for f in flags)
    return _produced(g, f"np.unique({x}{arguments})", "produce.unique", names=1 + len(flags))


def compress(g):
    x = g.pick(lambda v: numpy.ndim(v) >= 1, clean=False)
    if x is None:
        return None
    shape = numpy.shape(g.value(x))
    axis = g.rng.randrange(len(shape))
    condition = g.pick(lambda v: dtype_name(v) == BOOL and numpy.ndim(v) == 1 and numpy.size(v) <= shape[axis],
                       clean=False)
    if condition is None:
        source = g.pick(lambda v: numpy.ndim(v) == 1 and numpy.size(v) <= shape[axis] and dtype_name(v) != BOOL)
        if source is None:
            return None
        condition = f"{source} > {threshold(g, source)}"
    axis_text = "" if len(shape) == 1 and g.chance(0.5) else f", axis={axis}"
    return _produced(g, f"np.compress({condition}, {x}{axis_text})", "produce.compress")


KINDS = {
    "mask": (mask_variable, 3),
    "produce.mask": (select, 9),
    "produce.nonzero": (nonzero, 4),
    "produce.unique": (unique, 4),
    "produce.compress": (compress, 2),
}
