"""Integer value ranges known at trace time, from the ops that produced a value.

``bincount``'s output length is ``max(x) + 1``: data.  Many index arrays carry their range
in how they were made, though: ``argmin``/``argmax`` over an axis of length k give
``[0, k)``, ``searchsorted``/``digitize`` give ``[0, len(bins)]``, ``x % k`` with a positive
k gives ``[0, k)``, a bool (or its ``astype``) gives ``[0, 1]``, ``arange(n)`` gives
``[0, n)``, ``clip``/``minimum``/``maximum`` with scalars narrow a range.  A computed
input's range is read from its buffer (already on the host: no sync).  ``integer_range``
answers with what it can prove, else None; a caller never trusts more than that.

The walk follows at most ``DEPTH`` producers: ranges come from short chains, and an
unbounded recursion would overflow on long graphs.
"""
from __future__ import annotations

import numpy as np

DEPTH = 24
_PASS_THROUGH = ("positive", "view")        # a value's own range (a view reads a subset)


def integer_range(node, depth: int = DEPTH):
    """``(low, high)``, inclusive Python ints bounding every value of integer or bool
    ``node``, or None when the producers do not prove one."""
    if node.dtype.kind not in "iub":
        return None
    low, high = bounds(node, depth)
    return None if low is None or high is None else (low, high)


def bounds(node, depth: int = DEPTH) -> tuple:
    """``(low, high)`` with None for a side not proven (``x < lo`` never happens where
    ``low`` is given; a clip from above proves only ``high``)."""
    if node.dtype.kind == "b":
        return (0, 1)
    if node.dtype.kind not in "iu" or depth <= 0:
        return (None, None)
    if node.buffer is not None:
        return _buffer_range(node.buffer)
    low, high = _from_producer(node, depth - 1)
    narrow = _dtype_range(node.dtype)
    if narrow is not None:
        low = narrow[0] if low is None else max(low, narrow[0])
        high = narrow[1] if high is None else min(high, narrow[1])
    return low, high


def _buffer_range(buffer):
    values = np.asarray(buffer)
    if values.size == 0:
        return (None, None)
    return int(values.min()), int(values.max())


def _dtype_range(dtype):
    # (only narrow types: an int64 range says nothing a bincount can size an output by)
    if dtype.itemsize > 2:
        return None
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


def _scalar_value(node):
    """A 0-d leaf's or literal's integer value, else None."""
    if node.shape != () or node.dtype.kind not in "iub":
        return None
    if node.buffer is not None:
        return int(np.asarray(node.buffer)[()])
    if node.op.name == "literal":
        return int(node.attrs[0])
    return None


def _from_producer(node, depth) -> tuple:
    name, args = node.op.name, node.args
    if name in ("argmin", "argmax"):
        axis = node.attrs[0]
        source = args[0].shape
        extent = source[axis] if node.shape or len(source) == 1 else _count(source)
        return _below(extent)
    if name == "searchsorted":
        return (0, int(args[0].shape[0])) if _static(args[0].shape[0]) else (None, None)
    if name == "iota":
        return _below(_count(node.shape))
    if name in _PASS_THROUGH:
        return bounds(args[0], depth)
    if name == "cast":
        return _cast_bounds(bounds(args[0], depth), args[0].dtype, node.dtype)
    if name == "remainder":
        divisor = _scalar_value(args[1])
        return (0, divisor - 1) if divisor is not None and divisor > 0 else (None, None)
    if name in ("add", "subtract", "maximum", "minimum"):
        return _binary_bounds(name, bounds(args[0], depth), bounds(args[1], depth))
    if name == "select":
        return _select_bounds(node, depth)
    return (None, None)


def _cast_bounds(found, source, target) -> tuple:
    """A safe cast keeps every value; another keeps the bounds only when both lie in the
    target's range (else values wrap)."""
    if np.can_cast(source, target, "safe"):
        return found
    info = np.iinfo(target)
    if found[0] is not None and found[1] is not None and info.min <= found[0] and found[1] <= info.max:
        return found
    return (None, None)


def _below(extent) -> tuple:
    return (0, int(extent) - 1) if _static(extent) and int(extent) > 0 else (None, None)


def _both(f, x, y):
    return None if x is None or y is None else f(x, y)


def _binary_bounds(name, a, b) -> tuple:
    if name == "add":
        return _both(lambda p, q: p + q, a[0], b[0]), _both(lambda p, q: p + q, a[1], b[1])
    if name == "subtract":
        return _both(lambda p, q: p - q, a[0], b[1]), _both(lambda p, q: p - q, a[1], b[0])
    if name == "maximum":        # at least either low; at most the larger high
        lows = [v for v in (a[0], b[0]) if v is not None]
        return (max(lows) if lows else None), _both(max, a[1], b[1])
    highs = [v for v in (a[1], b[1]) if v is not None]
    return _both(min, a[0], b[0]), (min(highs) if highs else None)


_UPPER, _LOWER = ("greater", "greater_equal"), ("less", "less_equal")


def _select_bounds(node, depth) -> tuple:
    """``where(cond, p, q)``: p's and q's bounds joined, except the clip pattern
    ``where(q > s, s, q)`` (``where(q < s, s, q)``), which proves ``high = s`` (``low =
    s``) whatever q is: ``clip(a, lo, hi)`` is two of them."""
    cond, taken, other = node.args
    p, q = bounds(taken, depth), bounds(other, depth)
    limit = _scalar_value(cond.args[1]) if len(cond.args) == 2 else None
    if limit is not None and cond.args[0] is other and _scalar_value(taken) == limit:
        if cond.op.name in _UPPER:
            return _both(min, q[0], limit), limit
        if cond.op.name in _LOWER:
            return limit, _both(max, q[1], limit)
    return _both(min, p[0], q[0]), _both(max, p[1], q[1])


def _static(extent) -> bool:
    # (a symbolic dim is an int too, holding the size this trace saw: a range from it is
    # this trace's, and a length made from it is a static size of this trace's graph)
    return isinstance(extent, int)


def _count(shape):
    total = 1
    for d in shape:
        if not _static(d):
            return None
        total *= int(d)
    return total
