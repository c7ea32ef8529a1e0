"""``y.view(dtype)`` of a bounded array: NumPy's contiguity rule on the true-size array.

A bounded array's true-size array is a view of its padded data, so its strides are the
padded data's, not the strides NumPy's fresh result has (``BoundedArray.strides``).  They
differ where the padded data's order is not C (argwhere's is F order): NumPy's
``argwhere`` with one true row is ``(1, n)`` with a contiguous last axis, and NumPy views
it as another itemsize; the true-size view's last axis steps over the padding rows.
There the view reads and writes the true-size array's elements as one span
(``array.reinterpret.BitcastStorage``), so it still aliases the bounded array.
"""
from __future__ import annotations

import builtins

import numpy as np

from ..array import layout as layouts
from ..array.arraytype import ndarray
from ..array.reinterpret import BitcastStorage, _window
from ..expr import dtypes
from ..expr.reinterpret import bitcast_shape
from .array import BoundedArray


def view(y: BoundedArray, dtype=None, type=None):  # noqa: A002  (NumPy's keyword)
    """``y.view(dtype, type)``: the true-size array's view (one sync), with NumPy's
    contiguity decided on NumPy's strides for ``y`` (see the module docstring)."""
    true = y.materialize("view")
    if (type is not None or dtype is None
            or (isinstance(dtype, builtins.type) and issubclass(dtype, (np.ndarray, ndarray)))):
        return true.view(dtype, type)
    new = dtypes.normalize(dtype)
    layout = true._layout()
    shape, strides, _ = layout
    if (new.itemsize == y.dtype.itemsize or not shape or true.size == 0 or shape[-1] == 1
            or strides[-1] == 1 or y.strides[-1] != y.dtype.itemsize):
        return true.view(new)       # the layouts agree, or NumPy's raises too
    readonly = not true.flags.writeable
    new_shape = bitcast_shape(shape, y.dtype, new)
    return _window(BitcastStorage(true._storage(), layout, new), layouts.identity(new_shape),
                   readonly)
