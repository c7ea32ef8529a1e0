"""Shape arithmetic shared by the shape rules and the front end (NumPy's rules and errors)."""
from __future__ import annotations

import operator

from numpy.exceptions import AxisError

from .symbolic import as_index


def broadcast_shapes(*shapes) -> tuple:
    """NumPy broadcasting of ``shapes``; ValueError with NumPy's wording on a mismatch."""
    first = shapes[0]
    if len(shapes) == 2:         # tracing hot path: equal shapes or a 0-d operand
        second = shapes[1]
        if first == second or not second:
            return first
        if not first:
            return second
    elif all(s == first for s in shapes):
        return first
    ndim = max(len(s) for s in shapes)
    out = [1] * ndim
    for s in shapes:
        offset = ndim - len(s)
        for i, d in enumerate(s):
            cur = out[offset + i]
            if d != cur:
                if cur == 1:
                    out[offset + i] = d
                elif d != 1:
                    shown = " ".join(str(tuple(x)).replace(",)", ")").replace(" ", "") for x in shapes)
                    raise ValueError("operands could not be broadcast together with shapes " + shown)
    return tuple(out)


def normalize_axis(axis, ndim: int, argname: str | None = None) -> int:
    """A single axis in ``[-ndim, ndim)`` as a non-negative int (AxisError otherwise)."""
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer") from None
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim, argname)
    return axis % ndim if ndim else 0


def normalize_axes(axis, ndim: int, argname: str | None = None, allow_duplicate=False) -> tuple:
    """``axis`` (None, int or sequence) as a sorted tuple of non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(a, ndim, argname) for a in axis)
        if not allow_duplicate and len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        return tuple(sorted(axes))
    return (normalize_axis(axis, ndim, argname),)


def size_of(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def c_strides(shape) -> tuple:
    """Element strides of a C-contiguous array of ``shape``."""
    if type(shape) is tuple:
        # Memo by the tuple object (a node's shape is asked for again at every view of it;
        # symbolic strides cost a SymInt product per dim).  Not by value: equal sizes may be
        # different expressions.  The entry holds the tuple, so its id is not reused.
        hit = _c_strides_of.get(id(shape))
        if hit is not None and hit[0] is shape:
            return hit[1]
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(d, 1)
    out = tuple(reversed(strides))
    if type(shape) is tuple:
        if len(_c_strides_of) > 4096:
            _c_strides_of.clear()
        _c_strides_of[id(shape)] = (shape, out)
    return out


_c_strides_of: dict = {}     # id(shape tuple) -> (the tuple, its C strides)


def slice_extent(item: slice, size) -> tuple:
    """``(start, step, length)`` of ``item`` applied to an axis of ``size``.

    ``slice.indices`` with exact size arithmetic: when ``size`` is a ``SymInt`` the start
    and length stay expressions over it (``x[1:-1]`` has length ``n - 2``), so one program
    serves every size.  The clamping branches compare concrete values, as Python does.
    """
    step = 1 if item.step is None else as_index(item.step)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    lower, upper = (0, size) if step > 0 else (-1, size - 1)

    def bound(value, default):
        if value is None:
            return default
        value = as_index(value)
        if value < 0:
            value = value + size
            return lower if value < lower else value
        return upper if value > upper else value

    start = bound(item.start, lower if step > 0 else upper)
    stop = bound(item.stop, upper if step > 0 else lower)
    return start, step, range_length(start, stop, step)


def range_length(start, stop, step) -> int:
    """``len(range(start, stop, step))`` with exact (possibly symbolic) arithmetic."""
    if step == 1:               # the common slice: one subtraction, not three operations
        return stop - start if start < stop else 0
    if step > 0:
        return (stop - start + (step - 1)) // step if start < stop else 0
    return (start - stop + (-step - 1)) // -step if stop < start else 0


def broadcast_strides(shape: tuple, target: tuple) -> tuple:
    """Element strides viewing a C-contiguous ``shape`` as ``target`` (NumPy broadcasting:
    size-1 and missing leading dims get stride 0).  The caller checks the shapes fit."""
    lead = len(target) - len(shape)
    strides, step = [0] * len(target), 1
    for i in range(len(shape) - 1, -1, -1):
        if shape[i] != 1:
            strides[lead + i] = step
        step *= shape[i]
    return tuple(strides)
