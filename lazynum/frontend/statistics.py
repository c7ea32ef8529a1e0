"""Order statistics, covariances and convolutions, lazily: ``percentile``, ``quantile``,
their ``nan`` forms, ``nanmedian``, ``partition``, ``argpartition``, ``cov``, ``corrcoef``,
``convolve`` and ``correlate``.

Quantiles, partitions and convolutions are extern primitives whose reference is NumPy's own call
(``expr.order_statistics``), so their values are NumPy's for every ``method``; their result
dtype is the one NumPy gives for the input dtype, ``q`` and ``method`` (asked of NumPy on
one element).  ``cov`` and ``corrcoef`` follow NumPy's arithmetic step by step (mean,
centre, one matrix product, scale by ``1 / fact``).  Arguments that decide shapes from data
or write in place (``out=``, ``overwrite_input``, weights, a lazy ``q``) run NumPy's
function as a counted fallback.
"""
from __future__ import annotations

import operator

import numpy as np

from ..array.arraytype import ndarray, wrap
from ..array.conversion import to_node
from ..expr import node as nodes
from ..expr.order_statistics import ARGPARTITION, CONVOLVE, CORRELATE, PARTITION, QUANTILE
from ..expr.shapes import normalize_axis
from .fallbacks import numpy_function
from .joining import concatenate
from .linalg import matmul
from .manipulation import ravel, squeeze, transpose
from .mathfuncs import clip
from .reductions import mean
from .ufuncs import call

__all__ = ["percentile", "quantile", "nanpercentile", "nanquantile", "nanmedian", "partition",
           "argpartition", "cov", "corrcoef", "convolve", "correlate"]

_NO_VALUE = np._NoValue


def _lazy(a):
    return a if isinstance(a, ndarray) else wrap(to_node(a))


def _axes(axis, ndim):
    if axis is None:
        return None
    axes = (axis,) if np.ndim(axis) == 0 else tuple(axis)
    axes = tuple(normalize_axis(operator.index(a), ndim) for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    return axes


def _quantile(function, a, q, axis, method, keepdims, fallback, **unsupported):
    if any(v is not None and v is not False and v is not _NO_VALUE for v in unsupported.values()) \
            or isinstance(q, ndarray):
        return fallback(a, q, axis=axis, method=method, keepdims=keepdims,
                        **{k: v for k, v in unsupported.items() if v is not None})
    a = _lazy(a)
    # NumPy's own checks of q and method, and its result dtype (a Python float q is weak),
    # on one element
    dtype = np.asarray(getattr(np, function)(np.ones(1, a.dtype), q, method=method)).dtype
    weak = isinstance(q, (int, float)) and not isinstance(q, (bool, np.generic))
    q_array = np.asarray(q)
    q_kind = "weak" if weak else (q_array.dtype.str, q_array.shape)
    axes = _axes(axis, a.ndim)
    attrs = (function, tuple(v.item() for v in q_array.ravel()), q_kind, axes, method,
             bool(keepdims), dtype)
    return wrap(nodes.apply(QUANTILE, (a._n(),), attrs))


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None, interpolation=None):
    """The ``q``-th percentiles (``numpy.percentile``)."""
    return _quantile("percentile", a, q, axis, method, keepdims, _numpy["percentile"], out=out,
                     overwrite_input=overwrite_input, weights=weights, interpolation=interpolation)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None, interpolation=None):
    """The ``q``-th quantiles (``numpy.quantile``)."""
    return _quantile("quantile", a, q, axis, method, keepdims, _numpy["quantile"], out=out,
                     overwrite_input=overwrite_input, weights=weights, interpolation=interpolation)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=_NO_VALUE, *, weights=None, interpolation=None):
    """Percentiles ignoring NaNs (``numpy.nanpercentile``)."""
    return _quantile("nanpercentile", a, q, axis, method, keepdims is True,
                     _numpy["nanpercentile"], out=out, overwrite_input=overwrite_input,
                     weights=weights, interpolation=interpolation)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=_NO_VALUE, *, weights=None, interpolation=None):
    """Quantiles ignoring NaNs (``numpy.nanquantile``)."""
    return _quantile("nanquantile", a, q, axis, method, keepdims is True,
                     _numpy["nanquantile"], out=out, overwrite_input=overwrite_input,
                     weights=weights, interpolation=interpolation)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=_NO_VALUE):
    """The median ignoring NaNs (``numpy.nanmedian``)."""
    if out is not None or overwrite_input:
        return _numpy["nanmedian"](a, axis, out, overwrite_input, keepdims)
    a = _lazy(a)
    dtype = np.asarray(np.nanmedian(np.ones(1, a.dtype))).dtype
    attrs = ("nanmedian", (0.5,), "weak", _axes(axis, a.ndim), "linear", keepdims is True, dtype)
    return wrap(nodes.apply(QUANTILE, (a._n(),), attrs))


def _partition(op, a, kth, axis, kind, order):
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    a = _lazy(a)
    if axis is None:
        a, axis = ravel(a), 0
    axis = normalize_axis(operator.index(axis), a.ndim)
    kth = tuple(operator.index(k) for k in np.atleast_1d(np.asarray(kth)))
    return wrap(nodes.apply(op, (a._n(),), (kth, axis, kind)))


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """NumPy's partial sort: the kth elements in their sorted places (``numpy.partition``)."""
    return _partition(PARTITION, a, kth, axis, kind, order)


def partition_in_place(a, kth, axis=-1, kind="introselect", order=None):
    """``ndarray.partition``: ``a`` partitioned in place (a write of its own storage)."""
    a._check_writeable()
    a._write(a._layout(), _partition(PARTITION, a, kth, axis, kind, order)._n())


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Indices that partition ``a`` (``numpy.argpartition``)."""
    return _partition(ARGPARTITION, a, kth, axis, kind, order)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """The covariance matrix (``numpy.cov``; weights run NumPy's as a counted fallback)."""
    if fweights is not None or aweights is not None:
        return _numpy["cov"](m, y, rowvar, bias, ddof, fweights, aweights, dtype=dtype)
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = _lazy(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = _lazy(y)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = np.result_type(m.dtype, np.float64) if y is None else np.result_type(
            m.dtype, y.dtype, np.float64)
    x = _at_least_2d(m.astype(dtype))
    if not rowvar and m.ndim != 1:
        x = transpose(x)
    if x.shape[0] == 0:
        return wrap(to_node(np.array([]).reshape(0, 0)))
    if y is not None:
        y = _at_least_2d(y.astype(dtype))
        if not rowvar and y.shape[0] != 1:
            y = transpose(y)
        x = concatenate((x, y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    fact = x.shape[1] - ddof
    if fact <= 0:           # (NumPy warns "Degrees of freedom <= 0 for slice")
        fact = 0.0
    centred = call(np.subtract, (x, mean(x, axis=1)[:, None]))
    # NumPy's dot(X, X.T.conj()): the conjugate only matters (and is only taken) for complex
    c = matmul(centred, transpose(call(np.conjugate, (centred,)) if centred.dtype.kind == "c"
                                  else centred))
    with np.errstate(divide="ignore"):
        scale = np.true_divide(1, fact)
    return squeeze(call(np.multiply, (c, scale)))


def _at_least_2d(a):
    """NumPy's ``array(a, ndmin=2)``: leading axes of length 1."""
    return a if a.ndim >= 2 else a.reshape((1,) * (2 - a.ndim) + tuple(a.shape))


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients (``numpy.corrcoef``)."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return call(np.divide, (c, c))
    d = c.diagonal()
    stddev = call(np.sqrt, (d,))
    c = call(np.divide, (c, stddev[:, None]))
    c = call(np.divide, (c, stddev[None, :]))
    return clip(c, -1, 1)


_numpy = {name: numpy_function(getattr(np, name), f"numpy.{name}")
          for name in ("percentile", "quantile", "nanpercentile", "nanquantile", "nanmedian", "cov")}


def _convolution(op, a, v, mode):
    a, v = _lazy(a), _lazy(v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    dtype = np.result_type(a.dtype, v.dtype)
    return wrap(nodes.apply(op, (a.astype(dtype)._n(), v.astype(dtype)._n()), (mode,)))


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-d arrays (``numpy.convolve``)."""
    return _convolution(CONVOLVE, a, v, mode)


def correlate(a, v, mode="valid"):
    """Cross-correlation of two 1-d arrays (``numpy.correlate``)."""
    return _convolution(CORRELATE, a, v, mode)
