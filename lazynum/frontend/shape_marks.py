"""The dynamic-shape policy users control: ``mark_static`` and ``mark_dynamic``.

By default every input dim of size >= 2 is symbolic (one compiled program serves every
size), sizes 0 and 1 are always static (they change broadcasting), and input dims of
equal size within one trace share a symbol.  These functions change that for one dim of
one input array; they never compute anything.
"""
from __future__ import annotations

import builtins
import operator

from ..array.arraytype import ndarray
from ..expr import node as nodes
from ..expr.shapes import normalize_axis
from ..expr.symbolic import fresh

__all__ = ["mark_static", "mark_dynamic"]


def _input_leaf(x, name: str):
    if not isinstance(x, ndarray):
        raise TypeError(f"{name}() expects a lazynum.ndarray, got {type(x).__name__}")
    node = x._n()
    if x._view is not None or node.buffer is None:
        raise ValueError(f"{name}() applies to input arrays (from lazynum.asarray/array, or a "
                         f"synced result); this array is a pending result or a view of one")
    return node


def _remake(x, node, axis: int, dim) -> None:
    shape = node.shape[:axis] + (dim,) + node.shape[axis + 1:]
    x._node = nodes.constant(node.buffer, shape)


def mark_static(x, axis: int) -> None:
    """Specialize the compiled program on ``x.shape[axis]``.

    A different size at this dim then compiles a new program (logged under
    ``LAZYNUM_LOGS=recompiles``), and code may be specialized on the value.

    Parameters
    ----------
    x : lazynum.ndarray
        An input array (made by ``lazynum.asarray``/``array``, or a synced result).
    axis : int
        The dim to make static (negative counts from the end).

    Raises
    ------
    ValueError
        If ``x`` is a pending result or a view (mark the input it came from).
    numpy.exceptions.AxisError
        If ``axis`` is out of range.
    """
    node = _input_leaf(x, "mark_static")
    axis = normalize_axis(operator.index(axis), len(node.shape))
    _remake(x, node, axis, int(node.shape[axis]))


def mark_dynamic(x, axis: int, *, min: int | None = None, max: int | None = None) -> None:  # noqa: A002
    """Give ``x.shape[axis]`` its own symbol, optionally with a declared range.

    Unlike default (duck) sizing, the dim does not share a symbol with other inputs of
    the same size.  The range is part of the cache key: programs compiled for different
    declared ranges are different programs.  Sizes 0 and 1 stay static whatever the
    range says (they change broadcasting): such a dim is left static.

    Parameters
    ----------
    x : lazynum.ndarray
        An input array (made by ``lazynum.asarray``/``array``, or a synced result).
    axis : int
        The dim (negative counts from the end).
    min, max : int, optional
        Inclusive bounds on the sizes this dim will take.

    Raises
    ------
    ValueError
        If the current size is outside ``[min, max]`` (a clear error at this call,
        never a silent recompile), if ``min > max``, or if ``x`` is not an input array.
    """
    node = _input_leaf(x, "mark_dynamic")
    axis = normalize_axis(operator.index(axis), len(node.shape))
    size = int(node.shape[axis])
    lo = 2 if min is None else operator.index(min)
    hi = None if max is None else operator.index(max)
    if hi is not None and lo > hi:
        raise ValueError(f"mark_dynamic: min={lo} is larger than max={hi}")
    if size < lo or (hi is not None and size > hi):
        raise ValueError(f"mark_dynamic: dim {axis} has size {size}, outside the declared "
                         f"range [{lo}, {'inf' if hi is None else hi}]")
    if size < 2:
        _remake(x, node, axis, size)
        return
    _remake(x, node, axis, fresh(size, builtins.max(lo, 2), hi))
