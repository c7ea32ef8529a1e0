"""``block``: an array assembled from nested lists of blocks, by concatenation.

The innermost lists join along the last axis, the next ones along the one before, and so
on; every block first gets leading size-1 axes up to the result's rank (the larger of the
blocks' ranks and the nesting depth).  The nesting is checked first, with NumPy's messages
(a tuple, an empty list, mismatched depths), then the joins record ``concatenate`` nodes:
nothing is computed.
"""
from __future__ import annotations

from ..array.arraytype import ndarray
from ..array.conversion import to_array
from .creation import array as new_array
from .joining import concatenate
from .manipulation import reshape

__all__ = ["block"]


def _where(path) -> str:
    return "arrays" + "".join(f"[{i}]" for i in path)


def _nesting(arrays) -> tuple:
    """``(depth, largest block rank)`` of a block structure, validated as NumPy does:
    depth-first, the first fault raised."""
    depth, rank = None, 0
    stack = [(arrays, ())]
    while stack:
        item, path = stack.pop()
        if type(item) is tuple:
            raise TypeError(f"{_where(path)} is a tuple. Only lists can be used to arrange "
                            "blocks, and np.block does not allow implicit conversion from "
                            "tuple to ndarray.")
        if type(item) is list:
            if not item:
                raise ValueError(f"List at {_where(path)} cannot be empty")
            stack.extend((item[k], path + (k,)) for k in reversed(range(len(item))))
            continue
        if depth is None:
            depth = len(path)
        elif len(path) != depth:
            raise ValueError(f"List depths are mismatched. First element was at depth {depth}, "
                             f"but there is an element at depth {len(path)} ({_where(path)})")
        rank = max(rank, item.ndim if isinstance(item, ndarray) else to_array(item).ndim)
    return depth, rank


def _assemble(item, depth: int, rank: int, level: int):
    if level == depth:
        block = to_array(item)
        return reshape(block, (1,) * (rank - block.ndim) + block.shape)
    parts = [_assemble(part, depth, rank, level + 1) for part in item]
    return concatenate(parts, axis=level - depth)     # innermost lists: the last axis


def block(arrays):
    """Assemble an array from nested lists of blocks (``numpy.block``), lazily.

    Parameters
    ----------
    arrays : nested list of array_like or scalars
        Blocks at the innermost level; lists nest to the same depth everywhere.

    Returns
    -------
    ndarray
        A new array (also for a single block), of the blocks' common dtype.
    """
    depth, rank = _nesting(arrays)
    if depth == 0:
        return new_array(arrays)            # NumPy returns a copy of a lone block
    return _assemble(arrays, depth, max(rank, depth), 0)
