"""The modified Bessel function of the first kind, order 0: ``i0``, elementwise and lazy.

NumPy's documented algorithm (Clenshaw's Chebyshev series, as in Cephes and Abramowitz and
Stegun): ``exp(x) * chbevl(x / 2 - 2, A)`` for ``|x| <= 8`` and ``exp(x) * chbevl(32 / x - 2,
B) / sqrt(x)`` above, with NumPy's own coefficient tables and the same operation order, so
the same roundings.  Both branches are maps, so ``i0`` fuses into one kernel; each branch
reads a harmless stand-in where the other is taken (no overflow or division by zero that
NumPy, which evaluates each branch on its own values only, would not see).
"""
from __future__ import annotations

import numpy as np
from numpy.lib._function_base_impl import _i0A, _i0B    # NumPy's coefficient tables

from ..array.arraytype import ndarray, wrap
from ..array.conversion import to_node
from .mathfuncs import where
from .ufuncs import call

__all__ = ["i0"]


def _chebyshev(x, coefficients):
    """Clenshaw's recurrence for the Chebyshev series ``coefficients`` at ``x``."""
    b0, b1, b2 = coefficients[0], 0.0, 0.0
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = call(np.add, (call(np.subtract, (call(np.multiply, (x, b1)), b2)), c))
    return call(np.multiply, (0.5, call(np.subtract, (b0, b2))))


def i0(x):
    """The modified Bessel function of the first kind, order 0 (``numpy.i0``), elementwise.

    Integer and boolean input computes in float64; float dtypes keep theirs.  Complex input
    is NumPy's TypeError.
    """
    x = x if isinstance(x, ndarray) else wrap(to_node(x))
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    x = call(np.absolute, (x,))
    small = call(np.less_equal, (x, 8.0))
    near = where(small, x, 0.0).astype(x.dtype)
    far = where(small, 16.0, x).astype(x.dtype)
    inner = call(np.multiply, (call(np.exp, (near,)), _chebyshev(
        call(np.subtract, (call(np.true_divide, (near, 2.0)), 2)), _i0A)))
    outer = call(np.true_divide, (call(np.multiply, (call(np.exp, (far,)), _chebyshev(
        call(np.subtract, (call(np.true_divide, (32.0, far)), 2.0)), _i0B))), call(np.sqrt, (far,))))
    return where(small, inner, outer)
