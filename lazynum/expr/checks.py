"""Run-time checks: errors that only the data can reveal, raised at the sync.

``assert_all(value, ok)`` passes ``value`` through when every element of ``ok`` is true
and raises the named NumPy exception type otherwise; the runtime adds which op and which
user line traced it.  The check sits on the data path, so nothing downstream can run
with bad input.
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from . import derivatives as _d
from .registry import register

EXCEPTIONS = {"ValueError": ValueError, "IndexError": IndexError}


def _assert_shape(args, attrs):
    exception, _ = attrs
    if exception not in EXCEPTIONS:
        raise ValueError(f"assert_all raises one of {sorted(EXCEPTIONS)}, not {exception!r}")
    if args[1].dtype != dtypes.BOOL:
        raise TypeError("assert_all's condition must be bool")
    return args[0].shape


def _assert_reference(arrays, attrs):
    value, ok = arrays
    exception, message = attrs
    if not np.all(ok):
        raise EXCEPTIONS[exception](message)
    return value


ASSERT_ALL = register(
    "assert_all", "index", shape=_assert_shape, dtype=lambda args, attrs: args[0].dtype,
    reference=_assert_reference, may_fail=True,
    doc="Pass value (arg 0) through if all of ok (arg 1) are true, else raise attrs[0](attrs[1]).")
ASSERT_ALL.vjp = lambda node, g: (g, None)     # VJP: the value passes through unchanged


def python_int(value, dtype) -> int:
    """NumPy scalar ``value`` as NumPy stores it into a signed integer array by a basic key
    (``a[i] = np.float64(x)``, ``a[i] += 0.5``, ``fill``): Python's ``int()`` (ValueError for
    NaN, OverflowError for infinities), then NumPy 2's range check, not a wrapping cast."""
    number = int(value)
    if not -2**63 <= number < 2**63:
        raise OverflowError("Python int too large to convert to C long")
    info = np.iinfo(dtype)
    if not info.min <= number <= info.max:
        raise OverflowError(f"Python integer {number} out of bounds for {dtype}")
    return number


def _int_value_shape(args, attrs):
    (dtype,) = attrs
    if dtype.kind != "i" or args[0].dtype.kind not in "iuf":
        raise TypeError(f"int_value casts integers or floats to a signed integer, not "
                        f"{args[0].dtype} to {dtype}")
    return args[0].shape


def _int_value_reference(arrays, attrs):
    (value,), (dtype,) = arrays, attrs
    for element in value.flat:
        python_int(element, dtype)
    return value.astype(dtype)


INT_VALUE = register(
    "int_value", "index", shape=_int_value_shape, dtype=lambda args, attrs: attrs[0],
    reference=_int_value_reference, may_fail=True,
    doc="Cast a lazy NumPy scalar to the signed integer dtype attrs[0] as its setitem does "
        "(python_int): ValueError for NaN, OverflowError for infinities and out-of-range values.")
INT_VALUE.vjp = _d.NOT_FLOAT


# --- kernel lowerings (lazynum.compile): run-time checks stay extern calls ------------------
from .registry import EXTERN, declare_lowering  # noqa: E402

declare_lowering(ASSERT_ALL, EXTERN)
declare_lowering(INT_VALUE, EXTERN)
