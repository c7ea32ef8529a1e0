"""Index arrays of triangles and grids: ``tril_indices``, ``triu_indices`` (and ``_from``),
``mask_indices``, ``ix_``.

The triangle indices depend on sizes alone (Python ints at trace time): NumPy computes them
there and they enter the graph as inputs, never a sync.  ``mask_indices`` applies the mask
function to a lazy array of ones, so its indices are ``nonzero``'s bounded arrays; ``ix_``
reshapes lazy index arrays lazily (a boolean one becomes its ``nonzero``).
"""
from __future__ import annotations

import numpy as np

from ..array.arraytype import ndarray
from ..array.conversion import computed_constant
from .creation import ones
from .indexing.advanced import nonzero

__all__ = ["tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from",
           "mask_indices", "ix_"]


def _constants(arrays) -> tuple:
    return tuple(computed_constant(np.array(values)) for values in arrays)   # private copies


def tril_indices(n, k=0, m=None):
    """Row and column indices of the lower triangle of an ``(n, m)`` array (NumPy's order)."""
    return _constants(np.tril_indices(n, k, m))


def triu_indices(n, k=0, m=None):
    """Row and column indices of the upper triangle of an ``(n, m)`` array (NumPy's order)."""
    return _constants(np.triu_indices(n, k, m))


def _square_sides(arr):
    if np.ndim(arr) != 2:
        raise ValueError("input array must be 2-d")
    return int(np.shape(arr)[-2]), int(np.shape(arr)[-1])


def tril_indices_from(arr, k=0):
    """``tril_indices`` for ``arr``'s shape (no value of ``arr`` is read)."""
    rows, cols = _square_sides(arr)
    return tril_indices(rows, k=k, m=cols)


def triu_indices_from(arr, k=0):
    """``triu_indices`` for ``arr``'s shape (no value of ``arr`` is read)."""
    rows, cols = _square_sides(arr)
    return triu_indices(rows, k=k, m=cols)


def mask_indices(n, mask_func, k=0):
    """Indices where ``mask_func(ones((n, n)), k)`` is nonzero (bounded arrays)."""
    return nonzero(mask_func(ones((n, n), int), k) != 0)


def ix_(*args):
    """Open-mesh index arrays from 1-d sequences (NumPy's ``ix_``), lazily."""
    out = []
    for k, new in enumerate(args):
        if not isinstance(new, ndarray):
            new = np.asarray(new)
            if new.size == 0:
                new = new.astype(np.intp)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == np.bool_:
            new, = nonzero(new)
        if not isinstance(new, ndarray) and isinstance(new, np.ndarray):
            new = _constants([new])[0]
        out.append(new.reshape((1,) * k + (-1,) + (1,) * (len(args) - k - 1)))
    return tuple(out)
