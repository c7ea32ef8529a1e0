"""Contraction orders, computed from static shapes alone: ``einsum_path`` and the matrix
chain order ``multi_dot`` multiplies in.

Shapes are known at trace time, so these are trace-time constants: ``einsum_path`` is
NumPy's own answer for stand-in arrays of the operands' shapes and dtypes (no data is read,
nothing syncs), and ``chain_order`` is the classic dynamic program over the chain's
dimensions that NumPy's ``multi_dot`` documents (cost = scalar multiplications).
"""
from __future__ import annotations

import numpy as np

from ..array.arraytype import ndarray

__all__ = ["einsum_path"]


def _stand_in(operand):
    """A lazy operand as a NumPy array of its shape and dtype with no data (zero strides)."""
    if isinstance(operand, ndarray):
        return np.broadcast_to(np.zeros((), operand.dtype), tuple(operand.shape))
    return operand


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """NumPy's contraction order for ``einsum`` with these operands (``numpy.einsum_path``).

    Only the operands' shapes decide the path, so lazy operands are never read: the result
    is NumPy's ``(path, description)`` for stand-ins of the same shapes and dtypes.
    """
    return np.einsum_path(*[_stand_in(op) for op in operands], optimize=optimize,
                          einsum_call=einsum_call)


def chain_order(dims: list):
    """The cheapest parenthesization of a chain of matrices ``dims[i] x dims[i + 1]``:
    a nested tuple of matrix positions (``((0, 1), 2)`` multiplies 0 and 1 first).

    Three matrices compare the two orders' costs (the right one on ties); longer chains
    use the dynamic program over sub-chains, keeping the first best split.
    """
    n = len(dims) - 1
    if n == 3:
        a0, a1b0, b1c0, c1 = dims
        left_first = a0 * b1c0 * (a1b0 + c1) < a1b0 * c1 * (a0 + b1c0)
        return ((0, 1), 2) if left_first else (0, (1, 2))
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k

    def nest(i, j):
        if i == j:
            return i
        return (nest(i, split[i][j]), nest(split[i][j] + 1, j))
    return nest(0, n - 1)
