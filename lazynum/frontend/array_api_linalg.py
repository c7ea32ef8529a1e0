"""``numpy.linalg``'s Array API functions over the lazy front end: ``cross``, ``diagonal``,
``matrix_transpose`` and ``trace`` (the last two axes are the matrix; NumPy's argument
checks and its steps, so its values and dtypes).  ``vector_norm`` and ``matrix_norm`` are in
``linalg``, beside ``norm``."""
from __future__ import annotations

import numpy as np

from ..array.arraytype import ndarray, wrap
from ..array.conversion import to_node
from .manipulation import diagonal as _diagonal, swapaxes
from .reductions import trace as _trace
from .series import cross as _cross

__all__ = ["cross", "diagonal", "matrix_transpose", "trace"]


def _lazy(x):
    return x if isinstance(x, ndarray) else wrap(to_node(x))


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-vectors along ``axis`` (``numpy.linalg.cross``)."""
    x1, x2 = _lazy(x1), _lazy(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they "
                         f"are {x1.shape[axis]} and {x2.shape[axis]} dimensional instead.")
    return _cross(x1, x2, axis=axis)


def diagonal(x, /, *, offset=0):
    """The diagonals of the matrices in the last two axes (``numpy.linalg.diagonal``)."""
    return _diagonal(_lazy(x), offset=offset, axis1=-2, axis2=-1)


def matrix_transpose(x, /):
    """The matrices in the last two axes transposed (``numpy.linalg.matrix_transpose``)."""
    x = _lazy(x)
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return swapaxes(x, -1, -2)


def trace(x, /, *, offset=0, dtype=None):
    """The traces of the matrices in the last two axes (``numpy.linalg.trace``)."""
    return _trace(_lazy(x), offset=offset, axis1=-2, axis2=-1, dtype=dtype)
