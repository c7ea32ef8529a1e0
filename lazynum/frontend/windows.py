"""Window functions (``bartlett``, ``blackman``, ``hamming``, ``hanning``, ``kaiser``).

A window depends on its length (and ``kaiser``'s beta) alone, Python values known at trace
time, so NumPy computes it there, once, with its own formula and roundings, and the result
enters the graph as an input: a constant, never a sync.  A lazy length or beta is read
first (a counted sync, as any Python value of a lazy array).
"""
from __future__ import annotations

import operator

import numpy as np

from ..array.arraytype import ndarray
from ..array.conversion import computed_constant as _constant

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _length(M):
    return operator.index(M) if isinstance(M, ndarray) else M


def bartlett(M):
    """The Bartlett (triangular) window of ``M`` points, NumPy's values."""
    return _constant(np.bartlett(_length(M)))


def blackman(M):
    """The Blackman window of ``M`` points, NumPy's values."""
    return _constant(np.blackman(_length(M)))


def hamming(M):
    """The Hamming window of ``M`` points, NumPy's values."""
    return _constant(np.hamming(_length(M)))


def hanning(M):
    """The Hann window of ``M`` points, NumPy's values."""
    return _constant(np.hanning(_length(M)))


def kaiser(M, beta):
    """The Kaiser window of ``M`` points and shape ``beta``, NumPy's values."""
    beta = float(beta) if isinstance(beta, ndarray) else beta
    return _constant(np.kaiser(_length(M), beta))
