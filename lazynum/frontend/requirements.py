"""Arrays that meet requirements: ``asfortranarray``, ``require``, ``isfortran`` and
``asarray_chkfinite``.

Layout requirements are decided from the array's layout (the same rules NumPy's flags
follow), so a copy happens exactly where NumPy copies, and nothing is computed.  A
finiteness requirement depends on the data: ``asarray_chkfinite`` records a check that
raises NumPy's ``ValueError`` at the sync.
"""
from __future__ import annotations

import numpy as np

from ..array import layout as layouts
from ..array.arraytype import ndarray, wrap_ordered
from ..expr import node as nodes
from ..expr.checks import ASSERT_ALL
from .creation import asarray
from .reductions import all as all_of
from .ufuncs import UFUNCS

__all__ = ["asfortranarray", "require", "isfortran", "asarray_chkfinite"]

# NumPy's requirement letters and their aliases (``numpy.require``).
_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                 "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W",
                 "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def asfortranarray(a, dtype=None, *, like=None):
    """``a`` laid out in Fortran order (at least 1-d); ``a`` itself when it already is."""
    out = asarray(a, dtype, order="F")
    return out if out.ndim else out.reshape(1)


def isfortran(a) -> bool:
    """Whether ``a`` is Fortran-contiguous and not C-contiguous (``numpy.isfortran``)."""
    if not isinstance(a, ndarray):
        return np.isfortran(a)
    layout = a._layout()
    return layouts.is_f_contiguous(layout) and not layouts.is_c_contiguous(layout)


def _holds(array, requirement: str) -> bool:
    if requirement == "C":
        return array.flags.c_contiguous
    if requirement == "F":
        return array.flags.f_contiguous
    if requirement == "W":
        return array.flags.writeable
    if requirement == "O":
        return array.flags.owndata
    return True                      # "A": lazynum's buffers are always aligned


def require(a, dtype=None, requirements=None, *, like=None):
    """``a`` as an array of ``dtype`` meeting ``requirements`` (``numpy.require``): a copy
    only where a requirement does not hold already."""
    if not requirements:
        return asarray(a, dtype)
    try:                             # (a string is its letters, as in NumPy)
        wanted = {_REQUIREMENTS[r.upper()] for r in requirements}
    except KeyError as exc:
        raise KeyError(exc.args[0]) from None
    wanted.discard("E")              # lazynum arrays are base-class arrays already
    if {"C", "F"} <= wanted:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in wanted else "F" if "F" in wanted else "A"
    wanted -= {"C", "F"}
    out = asarray(a, dtype, order=order)
    if any(not _holds(out, r) for r in wanted):
        return out.copy(order=order)
    return out


def asarray_chkfinite(a, dtype=None, order=None):
    """``asarray`` that refuses infinities and NaNs (``numpy.asarray_chkfinite``).

    The values are data, so the check runs with the program: its ``ValueError`` is raised
    at the sync that computes the result.
    """
    out = asarray(a, dtype, order=order)
    if out.dtype.kind not in "fc":
        return out
    finite = all_of(UFUNCS["isfinite"](out))
    node = nodes.apply(ASSERT_ALL, (out._n(), finite._n()),
                       ("ValueError", "array must not contain infs or NaNs"))
    return wrap_ordered(node, layouts.new_array_order(out._layout(), "K"))
