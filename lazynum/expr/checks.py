"""Run-time checks: errors that only the data can reveal, raised at the sync.

``assert_all(value, ok)`` passes ``value`` through when every element of ``ok`` is true
and raises the named NumPy exception type otherwise; the runtime adds which op and which
user line traced it.  The check sits on the data path, so nothing downstream can run
with bad input.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
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


# --- kernel lowerings (lazynum.compile): run-time checks stay extern calls ------------------
from .registry import EXTERN, declare_lowering  # noqa: E402

declare_lowering(ASSERT_ALL, EXTERN)
