"""``bincount``, lazily: a scatter-add of ones (or of the weights) into a zero array.

NumPy's result has ``max(max(x) + 1, minlength)`` elements: a length that depends on the
data.  How lazynum gets it, cheapest first (``expr.value_ranges`` proves ranges at trace
time):

1. ``x`` is a computed array: its range is read from its buffer (on the host: no sync).
2. The producers bound ``x`` by ``[low, high]`` with ``high < minlength`` (``bincount(
   labels, minlength=k)`` with labels from ``argmin`` over k centers): the length is
   ``minlength``, a plain lazy array.
3. A bound with ``high >= minlength`` (``bincount(digitize(x, bins))``): a bounded array
   (``docs/bounded-dims.md``) padded to ``high + 1``, its run-time size
   ``max(max(x) + 1, minlength)`` a lazy scalar.  No sync.
4. No bound (``bincount(user_ints * 2)``): no finite bound exists to pad to, and a
   bounded array would need one, which only the data's maximum gives: one counted sync
   (reason ``bincount_length``) of ``x``'s minimum and maximum, computed together in one
   small program.  A negative value then raises NumPy's ValueError at the call, as NumPy does.

When the range does not exclude negative values (cases 2 and 3), the check runs in the
program (``assert_all``): NumPy's ValueError at the sync, naming this call's line.  The
scatter-add itself runs in a compiled kernel (``docs/architecture.md``, scatter kernels).
"""
from __future__ import annotations

import operator

import numpy as np

from ..array.arraytype import ndarray, wrap
from ..array.conversion import cast, to_array
from ..array import extension
from ..expr import dtypes
from ..expr import node as nodes
from ..expr.checks import ASSERT_ALL
from ..expr.indexing import SCATTER_ADD
from ..expr.value_ranges import integer_range
from ..runtime import sync_nodes
from .creation import ones, zeros
from .reductions import max as amax, min as amin
from .ufuncs import call

__all__ = ["bincount"]

NEGATIVE = "'list' argument must have no negative elements"


def bincount(x, /, weights=None, minlength=0):
    """Count the occurrences of each non-negative integer in ``x`` (``numpy.bincount``).

    Parameters
    ----------
    x : array_like, 1-d, non-negative ints
        Values that cast safely to int64 (bools and every integer type but uint64 values
        of 2**63 and above, which NumPy also reads as negative).
    weights : array_like, optional
        Same length as ``x``; each count adds its weight instead of 1 (in float64).
    minlength : int, optional
        A minimum number of bins for the output.

    Returns
    -------
    lazynum.ndarray
        int64 counts, or float64 sums with ``weights``, of length
        ``max(max(x) + 1, minlength)`` (a bounded array when only a bound of that length
        is known at trace time; see the module docstring).

    Raises
    ------
    TypeError
        ``x`` (or ``weights``) does not cast safely to int64 (float64), or ``minlength``
        is None or not an integer.
    ValueError
        ``x`` is not 1-d, ``minlength`` is negative, the weights' length differs, or
        ``x`` holds a negative value (at the sync when only the data can tell).
    """
    x = to_array(x)
    _check_depth(x)
    if not (np.can_cast(x.dtype, np.int64, "safe") or x.dtype == np.uint64):
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to dtype('int64') "
                        "according to the rule 'safe'")
    minlength = _minlength(minlength)
    if x.shape[0] == 0:                 # NumPy returns before it looks at the weights
        return zeros(minlength, np.int64)
    values = _weights(weights, x) if weights is not None else None
    index = cast(x._n(), dtypes.INT64)
    exact = x._n().buffer is not None
    found = integer_range(x._n())
    if found is not None and found[1] >= 2**63:     # uint64 values NumPy reads as negative
        found = (-1, found[1]) if exact else None
    if found is None:
        found, exact = _synced_range(index), True
    low, high = found
    if low < 0:
        if exact:
            raise ValueError(NEGATIVE)
        index = _nonnegative(index)
    length = max(high + 1, minlength)
    counts = _scatter(index, values, length, x.shape)
    if exact or high < minlength:
        return counts
    size = call(np.maximum, (call(np.add, (amax(wrap(index)), 1)), minlength))
    return extension.hook("bounded")(counts, (size,))


def _check_depth(a) -> None:
    if a.ndim > 1:
        raise ValueError("object too deep for desired array")
    if a.ndim < 1:
        raise ValueError("object of too small depth for desired array")


def _minlength(minlength) -> int:
    if minlength is None:
        raise TypeError("use 0 instead of None for minlength")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    return minlength


def _weights(weights, x) -> ndarray:
    w = to_array(weights)
    _check_depth(w)
    if w.shape[0] != x.shape[0]:
        raise ValueError("The weights and list don't have the same length.")
    if not np.can_cast(w.dtype, np.float64, "safe"):
        raise TypeError(f"Cannot cast array data from {w.dtype!r} to dtype('float64') "
                        "according to the rule 'safe'")
    return w.astype(np.float64)


def _synced_range(index) -> tuple:
    """``(min, max)`` of the int64 ``index`` by one counted sync: both reductions in one
    program."""
    low, high = amin(wrap(index)), amax(wrap(index))
    sync_nodes([low._n(), high._n()], "bincount_length")
    return int(low._n().buffer), int(high._n().buffer)


def _nonnegative(index):
    ok = call(np.greater_equal, (wrap(index), 0)).all()
    return nodes.apply(ASSERT_ALL, (index, ok._n()), ("ValueError", NEGATIVE))


def _scatter(index, values, length, shape) -> ndarray:
    """``zeros(length)`` with 1 (or the value) added at each index: one scatter-add."""
    if values is None:
        base, added = zeros(length, np.int64), ones(shape, np.int64)
    else:
        base, added = zeros(length, np.float64), values
    return wrap(nodes.apply(SCATTER_ADD, (base._n(), index, added._n()), ()))
