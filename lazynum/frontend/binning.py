"""Binning and interpolation, lazily: ``digitize``, ``histogram``, ``histogram_bin_edges``
and ``interp``, on NumPy's algorithms (``numpy/lib/_histograms_impl.py``,
``_function_base_impl.py``, ``compiled_base.c``) so results match NumPy's bits.

Counts are scatter-adds into an output of static size (the number of bins), so nothing
syncs: values outside the range (and NaNs) add zero instead of being dropped, and a bin
index is refined against the edges exactly as NumPy refines it.  Checks only the data can
answer ("autodetected range is not finite", "too many bins") raise NumPy's ValueError at
the sync.  What needs data to decide its *structure* syncs or falls back: bins given as a
lazy array are read once (their order decides ``digitize``'s direction and the edges'
check), string bin estimators (``bins='auto'``) and ``interp(period=...)`` run NumPy's.
"""
from __future__ import annotations

import operator

import numpy as np
from numpy._core.multiarray import _monotonicity
from numpy.lib._histograms_impl import _unsigned_subtract

from ..array.arraytype import ndarray, wrap
from ..array.conversion import to_node
from ..expr import dtypes
from ..expr import node as nodes
from ..expr.checks import ASSERT_ALL
from ..expr.complex_parts import complex_node
from .creation import linspace, zeros
from .fallbacks import numpy_function
from .indexing.advanced import take
from .indexing.ufunc_at import ufunc_at
from .joining import concatenate, diff
from .manipulation import ravel
from .mathfuncs import clip, where
from .reductions import cumsum, max as amax, min as amin, sum as asum
from .sorting import argsort, searchsorted, sort
from .ufuncs import call

__all__ = ["digitize", "histogram", "histogram_bin_edges", "interp"]

BLOCK = 65536           # NumPy sums weighted histograms in blocks of this many values


def _lazy(x):
    return x if isinstance(x, ndarray) else wrap(to_node(x))


def _host(bins) -> np.ndarray:
    """Bins as NumPy data: their values decide the algorithm (a lazy array is read: a sync)."""
    return np.asarray(bins)


def _check(value, ok, message):
    """``value``, raising ValueError(message) at the sync unless every ``ok`` is true."""
    return wrap(nodes.apply(ASSERT_ALL, (value._n(), ok._n()), ("ValueError", message)))


def digitize(x, bins, right=False):
    """Indices of the bins each value of ``x`` falls in (``numpy.digitize``)."""
    x = _lazy(x)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    edges = _host(bins)
    mono = _monotonicity(edges)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if mono == -1:
        return call(np.subtract, (len(edges), searchsorted(edges[::-1], x, side=side)))
    return searchsorted(edges, x, side=side)


def _outer_edges(a, range_):
    """NumPy's ``_get_outer_edges``: host numbers for a given range, else lazy 0-d arrays."""
    if range_ is not None:
        first, last = range_
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
        if first == last:
            first, last = first - 0.5, last + 0.5
        return first, last, dtypes.result_type(first, last, a)
    if a.size == 0:
        return 0, 1, dtypes.result_type(0, 1, a)
    first, last = amin(a), amax(a)
    finite = call(np.logical_and, (call(np.isfinite, (first,)), call(np.isfinite, (last,))))
    first = _check(first, finite, "autodetected range of the data is not finite")
    same = call(np.equal, (first, last))
    wide = dtypes.result_type(a.dtype, 0.5)         # first - 0.5: NumPy's scalar promotion
    first = where(same, call(np.subtract, (first, 0.5)), first.astype(wide))
    last = where(same, call(np.add, (last, 0.5)), last.astype(wide))
    return first, last, a.dtype


def _edges(a, bins, range_):
    """(edges, (first, last, count) for equal bins or None): NumPy's ``_get_bin_edges``."""
    if np.ndim(bins) == 0:
        try:
            count = operator.index(bins)
        except TypeError:
            raise TypeError("`bins` must be an integer, a string, or an array") from None
        if count < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last, bin_type = _outer_edges(a, range_)
        if bin_type.kind in "biu":
            bin_type = np.result_type(bin_type, float)
        edges = linspace(first, last, count + 1, endpoint=True, dtype=bin_type)
        increasing = call(np.less, (edges[:-1], edges[1:])).all()
        edges = _check(edges, increasing, f"Too many bins for data range. Cannot create "
                                          f"{count} finite-sized bins.")
        return edges, (first, last, count)
    if np.ndim(bins) != 1:
        raise ValueError("`bins` must be 1d, when an array")
    edges = _host(bins)
    if np.any(edges[:-1] > edges[1:]):
        raise ValueError("`bins` must increase monotonically, when an array")
    return _lazy(edges), None


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The bin edges ``histogram`` would use (``numpy.histogram_bin_edges``)."""
    if isinstance(bins, str):
        return _numpy_bin_edges(a, bins, range, weights)
    return _edges(ravel(_lazy(a)), bins, range)[0]


def histogram(a, bins=10, range=None, density=None, weights=None):
    """Counts (or weights' sums) per bin and the bin edges (``numpy.histogram``)."""
    if isinstance(bins, str):
        return _numpy_histogram(a, bins, range, density, weights)
    a = _lazy(a)
    if weights is not None:
        weights = _lazy(weights)
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
        weights = ravel(weights)
    a = ravel(a)
    edges, equal = _edges(a, bins, range)
    counts = (_equal_bin_counts(a, weights, edges, *equal) if equal is not None
              else _sorted_counts(a, weights, edges))
    if density:
        widths = diff(edges).astype(np.float64)
        return call(np.divide, (call(np.divide, (counts, widths)), asum(counts))), edges
    return counts, edges


def _count_type(weights):
    return np.dtype(np.intp) if weights is None else weights.dtype


def _equal_bin_counts(a, weights, edges, first, last, count):
    """NumPy's equal-width path: a bin index from the scaled value, refined against the
    edges, then a count (or weighted sum) per index."""
    keep = call(np.logical_and, (call(np.greater_equal, (a, first)), call(np.less_equal, (a, last))))
    t = a.astype(edges.dtype)
    if isinstance(first, ndarray):
        scale = call(np.subtract, (last, first))
    else:       # host edges: NumPy's own scalar arithmetic (an unsigned difference of ints)
        scale = _unsigned_subtract(last, first)
    f = call(np.multiply, (call(np.divide, (call(np.subtract, (t, first)), scale)), count))
    index = clip(f.astype(np.intp), 0, count - 1)     # (clips only values NumPy drops)
    index = call(np.subtract, (index, call(np.less, (t, take(edges, index))).astype(np.intp)))
    up = call(np.logical_and, (call(np.greater_equal, (t, take(edges, call(np.add, (index, 1))))),
                               call(np.not_equal, (index, count - 1))))
    index = clip(call(np.add, (index, up.astype(np.intp))), 0, count - 1)
    return _scatter_counts(index, keep, weights, count)


def _scatter_counts(index, keep, weights, count):
    """``bincount(index, weights, minlength=count)`` over the kept values, in NumPy's
    blocks: weights accumulate in float64 per block and each block's sums are cast to the
    weights' dtype and added (what NumPy's ``n += bincount(...).astype(ntype)`` does)."""
    kind = _count_type(weights)
    if weights is None:
        counts = zeros(count, np.intp)
        ufunc_at(np.add, counts, index, keep.astype(np.intp))
        return counts
    total = None
    size = int(index.shape[0])
    for start in (range(0, size, BLOCK) if size else [0]):
        stop = min(start + BLOCK, size)
        part = zeros(count, np.float64)
        w = where(keep[start:stop], weights[start:stop], 0).astype(np.float64)
        ufunc_at(np.add, part, index[start:stop], w)
        part = part.astype(kind)
        total = part if total is None else call(np.add, (total, part))
    return total


def _sorted_counts(a, weights, edges):
    """NumPy's path for explicit edges: cumulative counts by searching the edges in the
    sorted values (in blocks), then their differences."""
    size = int(a.shape[0])
    cumulative = None
    for start in (range(0, size, BLOCK) if size else [0]):
        block = a[start:start + BLOCK]
        if weights is None:
            part = _search_inclusive(sort(block), edges)
        else:
            order = argsort(block)
            summed = concatenate((zeros(1, _count_type(weights)),
                                  cumsum(take(weights[start:start + BLOCK], order))))
            part = take(summed, _search_inclusive(take(block, order), edges))
        part = part.astype(_count_type(weights))       # (NumPy's cum_n += ... casts back)
        cumulative = part if cumulative is None else call(np.add, (cumulative, part))
    return diff(cumulative)


def _search_inclusive(sorted_values, edges):
    return concatenate((searchsorted(sorted_values, edges[:-1], "left"),
                        searchsorted(sorted_values, edges[-1:], "right")))


def interp(x, xp, fp, left=None, right=None, period=None):
    """One-dimensional piecewise-linear interpolation (``numpy.interp``), in float64.

    ``xp`` must increase (NumPy's results are meaningless otherwise).  A NaN in ``x`` gives
    NaN (NumPy gives NaN too, except where it happens to land between two equal ``fp``
    values, which depends on the previous element of ``x``)."""
    if period is not None:
        return _numpy_interp(x, xp, fp, left, right, period)
    fp = _lazy(fp)
    if fp.dtype.kind == "c":    # NumPy's complex interp: the same steps on each part
        parts = [interp(x, xp, part, None if edge is None else getattr(complex(edge), name),
                        None if edge2 is None else getattr(complex(edge2), name))
                 for part, name, edge, edge2 in ((fp.real, "real", left, right),
                                                 (fp.imag, "imag", left, right))]
        return wrap(complex_node(parts[0]._n(), parts[1]._n()))
    x, xp, fp = (_lazy(v).astype(np.float64) for v in (x, xp, fp))
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    n = int(xp.shape[0])
    if n == 0:
        raise ValueError("array of sample points is empty")
    low = fp[0] if left is None else float(left)
    high = fp[-1] if right is None else float(right)
    below, above = call(np.less, (x, xp[0])), call(np.greater, (x, xp[-1]))
    if n == 1:          # NumPy's own branch: a NaN x takes fp[0]
        return where(below, low, where(above, high, fp[0]))
    j = clip(call(np.subtract, (searchsorted(xp, x, "right"), 1)), 0, n - 2)
    x0, x1, y0, y1 = take(xp, j), take(xp, call(np.add, (j, 1))), take(fp, j), take(fp, call(np.add, (j, 1)))
    slope = call(np.divide, (call(np.subtract, (y1, y0)), call(np.subtract, (x1, x0))))
    value = call(np.add, (call(np.multiply, (slope, call(np.subtract, (x, x0)))), y0))
    again = call(np.add, (call(np.multiply, (slope, call(np.subtract, (x, x1)))), y1))
    flat = call(np.logical_and, (call(np.isnan, (again,)), call(np.equal, (y0, y1))))
    value = where(call(np.isnan, (value,)), where(flat, y0, again), value)
    value = where(call(np.equal, (x0, x)), y0, value)
    value = where(call(np.greater_equal, (x, xp[-1])), fp[-1], value)
    value = where(call(np.isnan, (x,)), np.nan, value)
    return where(below, low, where(above, high, value))


_numpy_histogram = numpy_function(np.histogram, "numpy.histogram")
_numpy_bin_edges = numpy_function(np.histogram_bin_edges, "numpy.histogram_bin_edges")
_numpy_interp = numpy_function(np.interp, "numpy.interp")
