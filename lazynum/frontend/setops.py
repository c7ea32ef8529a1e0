"""Set operations on 1-d arrays: ``union1d``, ``intersect1d``, ``setdiff1d``, ``setxor1d``.

Their result sizes depend on the data, so they are built from ``unique`` and boolean
selection, whose results are bounded arrays (padded data plus a run-time size): no sync
until a value is read.  The values and their order are NumPy's (sorted unique values; with
``assume_unique=True``, NumPy's own steps on the raveled inputs, duplicates included).
``intersect1d(..., return_indices=True)`` runs NumPy's function (a counted fallback).
"""
from __future__ import annotations

import numpy as np

from .fallbacks import numpy_function
from .joining import concatenate
from .manipulation import ravel
from .selecting import isin
from .sorting import sort, unique

__all__ = ["union1d", "intersect1d", "setdiff1d", "setxor1d"]

_intersect_with_indices = numpy_function(np.intersect1d, "numpy.intersect1d")


def union1d(ar1, ar2):
    """The sorted unique values in either array (NumPy's ``union1d``), a bounded array."""
    return unique(concatenate((ar1, ar2), axis=None))


def _counted(ar1, ar2):
    """(values, counts) of the unique values of both arrays, each counted once per array."""
    return unique(concatenate((unique(ar1), unique(ar2))), return_counts=True)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values in both arrays (NumPy's ``intersect1d``), a bounded array."""
    if return_indices:
        return _intersect_with_indices(ar1, ar2, assume_unique, return_indices)
    if not assume_unique:
        values, counts = _counted(ar1, ar2)
        return values[counts == 2]
    aux = sort(concatenate((ravel(ar1), ravel(ar2))))    # NumPy's steps: duplicates pair up
    return aux[:-1][aux[1:] == aux[:-1]]


def setdiff1d(ar1, ar2, assume_unique=False):
    """The values of ``ar1`` not in ``ar2`` (sorted and unique unless ``assume_unique``)."""
    ar1 = ravel(ar1) if assume_unique else unique(ar1)
    return ar1[isin(ar1, ar2, invert=True)]


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of the arrays (NumPy's ``setxor1d``)."""
    if not assume_unique:
        values, counts = _counted(ar1, ar2)
        return values[counts == 1]
    values, counts = unique(concatenate((ravel(ar1), ravel(ar2))), return_counts=True)
    return values[counts == 1]
