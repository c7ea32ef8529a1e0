"""Multidimensional histograms, lazily: ``histogramdd`` and ``histogram2d`` on NumPy's steps
(``numpy/lib/_histograms_impl.py``, ``_twodim_base_impl.py``), so counts and edges are
NumPy's.

Each axis's bin is ``searchsorted(edges, values, 'right')`` (values equal to the last edge
move into the last bin; values outside fall in the outlier bins 0 and ``len(edges)``); the
per-axis bins raveled into one index (``ravel_multi_index`` over the bin counts plus the
two outlier bins) feed one scatter-add into an array of static size, whose core (outliers
sliced off) is the histogram.  Equal-width edges come from the data's range as ``histogram``
computes it (``binning._outer_edges``: NumPy's errors for a non-finite range at the sync).
"""
from __future__ import annotations

import builtins
import operator

import numpy as np

from ..array.arraytype import ndarray, wrap
from ..array.conversion import to_node
from .binning import _lazy, _outer_edges
from .creation import linspace, zeros
from .indexing.ufunc_at import ufunc_at
from .joining import diff, stack
from .manipulation import reshape
from .reductions import sum as asum
from .sorting import searchsorted
from .ufuncs import call

__all__ = ["histogramdd", "histogram2d"]


def _columns(sample):
    """The sample as a list of D lazy 1-d columns of N values: an (N, D) array, or a
    sequence of D arrays (NumPy: ``atleast_2d(sample).T`` when it has no 2-d shape)."""
    if isinstance(sample, (list, tuple)):
        lazy = any(isinstance(s, ndarray) for s in sample)
        sample = stack([_lazy(s) for s in sample]) if lazy else _lazy(np.asarray(sample))
        if sample.ndim <= 2:
            sample = reshape(sample, (1, -1) if sample.ndim < 2 else sample.shape).T
    sample = _lazy(sample)
    if sample.ndim < 2:
        sample = reshape(sample, (-1, 1))
    if sample.ndim != 2:
        raise ValueError(f"too many values to unpack (expected 2, got {sample.ndim})")
    return [sample[:, i] for i in builtins.range(int(sample.shape[1]))]


def _axis_edges(i, column, bins, range_):
    """Axis ``i``'s edges (lazy), NumPy's checks and messages."""
    if np.ndim(bins) == 0:
        if bins < 1:
            raise ValueError(f"`bins[{i}]` must be positive, when an integer")
        first, last, _ = _outer_edges(column, range_)
        try:
            count = operator.index(bins)
        except TypeError as e:
            raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
        return linspace(first, last, count + 1)
    if np.ndim(bins) == 1:
        edges = np.asarray(bins)
        if np.any(edges[:-1] > edges[1:]):
            raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
        return _lazy(edges)
    raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """The multidimensional histogram of ``sample`` (``numpy.histogramdd``): float64 counts
    (or weight sums) of shape ``(len(e) - 1 for e in edges)`` and the list of edges."""
    columns = _columns(sample)
    dims = len(columns)
    try:
        if len(bins) != dims:
            raise ValueError("The dimension of bins must be equal to the dimension of the "
                             "sample x.")
    except TypeError:
        bins = dims * [bins]
    if weights is not None:
        weights = _lazy(weights).astype(np.float64)
    if range is None:
        range = (None,) * dims
    elif len(range) != dims:
        raise ValueError("range argument must have one entry per dimension")
    edges = [_axis_edges(i, columns[i], bins[i], range[i]) for i in builtins.range(dims)]
    counts = tuple(int(e.shape[0]) + 1 for e in edges)         # with both outlier bins
    flat = None
    for column, e, size in zip(columns, edges, counts):
        index = searchsorted(e, column, side="right")
        index = call(np.subtract, (index, call(np.equal, (column, e[-1])).astype(index.dtype)))
        flat = index if flat is None else call(np.add, (call(np.multiply, (flat, size)), index))
    total = int(np.prod(counts))
    n = int(columns[0].shape[0]) if columns else 0
    if weights is None:
        hist = zeros(total, np.intp)
        values = zeros(n, np.intp) + 1
    else:
        hist = zeros(total, np.float64)
        values = weights
    if flat is not None:
        ufunc_at(np.add, hist, flat, values)
    hist = reshape(hist, counts).astype(np.float64)[(slice(1, -1),) * dims]
    if density:
        s = asum(hist)
        for i, e in enumerate(edges):
            shape = [1] * dims
            shape[i] = counts[i] - 2
            hist = call(np.true_divide, (hist, reshape(diff(e), tuple(shape))))
        hist = call(np.true_divide, (hist, s))
    return hist, edges



def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """The two-dimensional histogram of ``(x, y)`` (``numpy.histogram2d``): the counts and
    both axes' edges."""
    x, y = _lazy(x), _lazy(y)
    try:
        count = len(bins)
    except TypeError:
        count = 1
    if count != 1 and count != 2:
        edges = _lazy(bins) if not isinstance(bins, ndarray) else bins
        bins = [edges, edges]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
