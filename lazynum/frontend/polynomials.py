"""NumPy's polynomial functions on coefficient arrays (highest power first), lazily:
``polyadd``, ``polysub``, ``polymul``, ``polyder``, ``polyint``, ``polydiv`` and ``polyfit``,
each NumPy's own steps (``numpy/lib/_polynomial_impl.py``) so the dtypes and roundings are
NumPy's: sums zero-pad the shorter operand in front, a product is ``convolve`` (without
the leading zeros ``poly1d`` drops: a bounded array), a fit is ``lstsq`` on the scaled
Vandermonde matrix.

``polydiv``'s remainder drops its leading coefficients while they are close to zero, a
length only the data decides: it is a bounded array (no sync).  ``numpy.poly1d`` is NumPy's
class holding concrete coefficients: given one, with no lazy argument, NumPy's function
runs on those constants and returns its ``poly1d``; a ``poly1d`` mixed with a lazy array
runs NumPy's function as a counted fallback (its result must be a concrete ``poly1d``).
``polyfit``'s ``RankWarning`` for a rank-deficient fit is not emitted (the rank is data).
"""
from __future__ import annotations

import numpy as np

from ..array.arraytype import ndarray, wrap
from ..array.conversion import to_node
from .creation import zeros
from .fallbacks import numpy_function
from .joining import concatenate
from .lapack import inv, lstsq_padded
from .linalg import dot, outer
from .manipulation import atleast_1d
from .reductions import cumprod, sum as asum
from .series import vander
from .statistics import convolve
from .ufuncs import call

__all__ = ["polyadd", "polysub", "polymul", "polyder", "polyint", "polydiv", "polyfit"]


def _lazy(a):
    return a if isinstance(a, ndarray) else wrap(to_node(a))


def _with_poly1d(name, args):
    """NumPy's ``name`` when a ``poly1d`` is among ``args`` (its result is a ``poly1d``):
    run directly on constants, as a counted fallback when a lazy array is mixed in."""
    if not any(isinstance(a, np.poly1d) for a in args):
        return None
    if any(isinstance(a, ndarray) for a in args):
        return _FALLBACKS[name](*args)
    return getattr(np, name)(*args)


def _padded_pair(a1, a2):
    """Both coefficient arrays at one length: the shorter zero-padded in front (in its own
    dtype, as NumPy pads)."""
    a1, a2 = atleast_1d(_lazy(a1)), atleast_1d(_lazy(a2))
    extra = int(a2.shape[0]) - int(a1.shape[0])
    if extra > 0:
        a1 = concatenate((zeros(extra, a1.dtype), a1))
    elif extra < 0:
        a2 = concatenate((zeros(-extra, a2.dtype), a2))
    return a1, a2


def polyadd(a1, a2):
    """The sum of two polynomials (``numpy.polyadd``)."""
    special = _with_poly1d("polyadd", (a1, a2))
    return special if special is not None else call(np.add, _padded_pair(a1, a2))


def polysub(a1, a2):
    """The difference of two polynomials (``numpy.polysub``)."""
    special = _with_poly1d("polysub", (a1, a2))
    return special if special is not None else call(np.subtract, _padded_pair(a1, a2))


def _leading_zeros(a):
    """How many leading coefficients ``poly1d`` drops from ``a`` (all but one of all-zeros)."""
    zero = call(np.equal, (a, 0)).astype(np.intp)
    return call(np.minimum, (asum(cumprod(zero)), len(a) - 1))


def polymul(a1, a2):
    """The product of two polynomials (``numpy.polymul``), a bounded array.

    NumPy multiplies ``poly1d``s, which drop leading zero coefficients first: the product
    is the convolution of the full arrays without its first ``z1 + z2`` entries (the
    products with those zeros), so its length is data.
    """
    special = _with_poly1d("polymul", (a1, a2))
    if special is not None:
        return special
    a1, a2 = atleast_1d(_lazy(a1)), atleast_1d(_lazy(a2))
    full = convolve(a1, a2)
    return full[call(np.add, (_leading_zeros(a1), _leading_zeros(a2))):]


def _ordered(m, what, instead) -> int:
    m = int(m)
    if m < 0:
        raise ValueError(f"Order of {what} must be positive (see {instead})")
    return m


def polyder(p, m=1):
    """The ``m``-th derivative of a polynomial (``numpy.polyder``)."""
    m = _ordered(m, "derivative", "polyint")
    special = _with_poly1d("polyder", (p, m))
    if special is not None:
        return special
    p = _lazy(p)
    len(p)                      # (a 0-d p is NumPy's TypeError, whatever m)
    for _ in range(m):
        n = len(p) - 1
        p = call(np.multiply, (p[:-1], np.arange(n, 0, -1)))
    return p


def polyint(p, m=1, k=None):
    """The ``m``-th antiderivative of a polynomial, integration constants ``k``
    (``numpy.polyint``)."""
    m = _ordered(m, "integral", "polyder")
    k = np.zeros(m, float) if k is None else k
    k = atleast_1d(k) if isinstance(k, ndarray) else np.atleast_1d(k)
    if len(k) == 1 and m > 1:
        k = k[0] * np.ones(m, float)
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    special = _with_poly1d("polyint", (p, m, k))
    if special is not None:
        return special
    p = _lazy(p)
    for i in range(m):
        quotient = call(np.true_divide, (p, np.arange(len(p), 0, -1)))
        p = concatenate((quotient, k[i:i + 1]))
    return p


def polydiv(u, v):
    """Quotient and remainder of polynomial division (``numpy.polydiv``).

    The remainder is a bounded array: NumPy drops its leading coefficients while they are
    within 1e-8 of zero (keeping at least one), which only the data decides.
    """
    special = _with_poly1d("polydiv", (u, v))
    if special is not None:
        return special
    u = call(np.add, (atleast_1d(_lazy(u)), 0.0))
    v = call(np.add, (atleast_1d(_lazy(v)), 0.0))
    common = np.result_type(u.dtype, v.dtype)
    m, n = len(u) - 1, len(v) - 1
    scale = call(np.true_divide, (1.0, v[0]))
    q = zeros((max(m - n + 1, 1),), common)
    r = u.astype(common)            # (a copy: the writes below stay in it)
    for k in range(m - n + 1):
        d = call(np.multiply, (scale, r[k]))
        q[k] = d
        r[k:k + n + 1] = call(np.subtract, (r[k:k + n + 1], call(np.multiply, (d, v))))
    close = call(np.less_equal, (call(np.absolute, (r,)), 1e-8))   # NumPy's allclose(r[0], 0)
    leading = asum(cumprod(close.astype(np.intp)))      # how many lead with near-zeros
    return q, r[call(np.minimum, (leading, len(r) - 1)):]


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial fit of degree ``deg`` (``numpy.polyfit``).

    Returns the coefficients (highest power first); with ``full`` also the residuals, the
    rank, the singular values and ``rcond``; with ``cov`` also the covariance matrix.
    """
    order = int(deg) + 1
    x = call(np.add, (_lazy(x), 0.0))
    y = call(np.add, (_lazy(y), 0.0))
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = len(x) * np.finfo(x.dtype).eps
    lhs, rhs = vander(x, order), y
    if w is not None:
        w = call(np.add, (_lazy(w), 0.0))
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = call(np.multiply, (lhs, w[:, None]))
        rhs = call(np.multiply, (rhs, w[:, None] if rhs.ndim == 2 else w))
    scale = call(np.sqrt, (asum(call(np.multiply, (lhs, lhs)), axis=0),))
    lhs = call(np.true_divide, (lhs, scale))
    c, resids, padded, rank, s = lstsq_padded(lhs, rhs, rcond)
    c = call(np.true_divide, (c.T, scale)).T
    if full:
        return c, resids, rank, s, rcond
    if not cov:
        return c
    base = call(np.true_divide, (inv(dot(lhs.T, lhs)), outer(scale, scale)))
    if cov == "unscaled":
        factor = 1
    else:
        if len(x) <= order:
            raise ValueError("the number of data points must exceed order to scale the "
                             "covariance matrix")
        factor = call(np.true_divide, (padded, len(x) - order))
    if y.ndim == 1:
        return c, call(np.multiply, (base, factor))
    return c, call(np.multiply, (base[:, :, None], factor))


_FALLBACKS = {name: numpy_function(getattr(np, name), f"numpy.{name}")
              for name in ("polyadd", "polysub", "polymul", "polyder", "polyint", "polydiv")}
