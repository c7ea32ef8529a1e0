"""A ``view`` node's layout, read back as the NumPy-level operation it stands for.

lazynum records every view (slice, transpose, broadcast, reshape, inserted axis) as one
``(shape, strides, offset)`` over the C-order flattening of its base.  Dask has no strided
windows, only the operations themselves, so a view is classified:

- ``("expand", None)``: a reshape that only inserts or drops axes of length 1
  (``keepdims`` results, ``x[:, None]``): index math inside a blockwise program;
- ``("ravel", None)``: the C-order flattening of the whole base (boolean selections
  flatten their data and mask this way);
- ``("reshape", shape)``: any other C-order reshape of the whole base;
- ``("strided", Strided)``: basic indexing (a slice with any step or an integer per base
  axis), then a transpose, then inserted and broadcast axes;
- ``None``: anything else (a diagonal, an overlapping window), which has no Dask form.

A decomposition is accepted only when it reproduces the layout's offset and every
stride exactly, so it reads the same elements the view reads.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import source


class Strided(NamedTuple):
    """``base[index].transpose(order)``, then ``shape``'s size-1 and broadcast axes."""
    index: tuple          # per base axis: a slice or an int
    order: tuple          # axes of base[index], in the view's order
    expand: tuple         # per view axis: "base" (next of order), "new" (1) or "bcast"
    shape: tuple          # the view's shape


def c_strides(shape) -> tuple:
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(int(d), 1)
    return tuple(reversed(strides))


def classify(base_shape, layout):
    """The view ``layout`` over a C-ordered ``base_shape`` (see module docstring)."""
    shape, strides, offset = (tuple(int(d) for d in layout[0]), tuple(int(s) for s in layout[1]),
                              int(layout[2]))
    base_shape = tuple(int(d) for d in base_shape)
    if _is_reshape(base_shape, shape, strides, offset):
        if [d for d in shape if d != 1] == [d for d in base_shape if d != 1]:
            return ("expand", None)
        if len(shape) == 1:
            return ("ravel", None)
        return ("reshape", shape)
    strided = _decompose(base_shape, shape, strides, offset)
    return None if strided is None else ("strided", strided)


def _is_reshape(base_shape, shape, strides, offset) -> bool:
    size = 1
    for d in base_shape:
        size *= d
    view_size = 1
    for d in shape:
        view_size *= d
    if offset or size != view_size:
        return False
    return all(s == c for d, s, c in zip(shape, strides, c_strides(shape)) if d != 1)


def _decompose(base_shape, shape, strides, offset):
    if 0 in base_shape or 0 in shape:
        return None
    base_strides = c_strides(base_shape)
    starts, rest = [], offset
    for c in base_strides:
        starts.append(rest // c)
        rest -= starts[-1] * c
    used: dict = {}                 # base axis -> (view axis, step)
    expand = []
    for k, (d, s) in enumerate(zip(shape, strides)):
        if d == 1:
            expand.append("new")
        elif s == 0:
            expand.append("bcast")
        else:
            axis = _base_axis(base_shape, base_strides, starts, used, d, s)
            if axis is None:
                return None
            used[axis] = (k, s // base_strides[axis])
            expand.append("base")
    index = tuple(_index(starts[j], *used[j][1:], shape[used[j][0]]) if j in used else starts[j]
                  for j in range(len(base_shape)))
    kept = sorted(used)                               # base[index] keeps these, in base order
    by_view = sorted(used, key=lambda j: used[j][0])  # ... and the view wants this order
    order = tuple(kept.index(j) for j in by_view)
    return Strided(index, order, tuple(expand), shape)


def _base_axis(base_shape, base_strides, starts, used, d, s):
    """The base axis a view axis of length ``d`` and stride ``s`` walks along, or None."""
    for j, c in enumerate(base_strides):
        if j in used or base_shape[j] < 2 or s % c:
            continue
        step = s // c
        end = starts[j] + step * (d - 1)
        if 0 <= end < base_shape[j]:
            return j
    return None


def _index(start: int, step: int, length: int) -> slice:
    stop = start + step * length
    return slice(start, None if stop < 0 else stop, step)


def apply_strided(array, strided: Strided):
    """``strided`` applied to a Dask (or NumPy) array."""
    out = array[strided.index]
    if strided.order != tuple(range(len(strided.order))):
        out = out.transpose(strided.order)
    if "new" in strided.expand or "bcast" in strided.expand:
        out = out[tuple(slice(None) if e == "base" else None for e in strided.expand)]
    if "bcast" in strided.expand:
        if source.is_dask_array(out):
            import dask.array as da
            return da.broadcast_to(out, strided.shape)
        return np.broadcast_to(out, strided.shape)
    return out
