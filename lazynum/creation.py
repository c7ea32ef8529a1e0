"""Array creation: ``array``/``asarray``, filled arrays, ranges, and copies/casts.

Filled arrays are a broadcast view of one scalar leaf: ``zeros((4096, 4096))`` allocates
nothing until a kernel needs it (and a fused kernel never does).
"""
from __future__ import annotations

import operator

import numpy as np

from . import dtypes
from .arraytype import ndarray, wrap
from .conversion import broadcast_node, cast, numpy_constant, to_node
from .expr import node as nodes


__all__ = ["array", "asarray", "asanyarray", "ascontiguousarray", "full", "zeros", "ones", "empty", "zeros_like", "ones_like", "empty_like", "full_like", "astype", "copy"]

def _shape_tuple(shape) -> tuple:
    if isinstance(shape, ndarray):
        shape = shape.tolist()
    try:
        dims = (operator.index(shape),)
    except TypeError:
        dims = tuple(operator.index(d) for d in shape)
    if any(d < 0 for d in dims):
        raise ValueError("negative dimensions are not allowed")
    return dims


def _default(dtype, fallback=dtypes.FLOAT64):
    return fallback if dtype is None else dtypes.normalize(dtype)


def array(obj, dtype=None, *, copy=True, order="K", ndmin=0, like=None):
    """Create a lazy array from array-like ``obj`` (NumPy's ``array``)."""
    if isinstance(obj, ndarray):
        out = obj.astype(dtype) if dtype is not None else (obj.copy() if copy else obj)
    else:
        out = wrap(to_node(obj, None if dtype is None else dtypes.normalize(dtype)))
    if ndmin > out.ndim:
        from .manipulation import reshape
        out = reshape(out, (1,) * (ndmin - out.ndim) + out.shape)
    return out


def asarray(obj, dtype=None, order=None, *, copy=None, like=None):
    """Convert ``obj`` to a lazy array without copying an existing one (NumPy's ``asarray``).

    NumPy input is copied once: the lazy value must not change if the caller later
    mutates the NumPy array it passed in.
    """
    if isinstance(obj, ndarray):
        if dtype is None or obj.dtype == dtypes.normalize(dtype):
            return obj.copy() if copy else obj
        return obj.astype(dtype)
    return wrap(to_node(obj, None if dtype is None else dtypes.normalize(dtype)))


asanyarray = asarray
ascontiguousarray = asarray


def full(shape, fill_value, dtype=None, order="C", *, like=None):
    """Array of ``shape`` filled with ``fill_value`` (a lazy broadcast of one scalar)."""
    shape = _shape_tuple(shape)
    if isinstance(fill_value, ndarray):
        node = fill_value._n()
        if dtype is not None:
            node = cast(node, dtypes.normalize(dtype))
    else:
        node = numpy_constant(fill_value, None if dtype is None else dtypes.normalize(dtype))
    return wrap(broadcast_node(node, shape))


def zeros(shape, dtype=float, order="C", *, like=None):
    """Array of zeros (NumPy's ``zeros``)."""
    return wrap(broadcast_node(nodes.scalar(0, _default(dtype)), _shape_tuple(shape)))


def ones(shape, dtype=None, order="C", *, like=None):
    """Array of ones (NumPy's ``ones``)."""
    return wrap(broadcast_node(nodes.scalar(1, _default(dtype)), _shape_tuple(shape)))


def empty(shape, dtype=float, order="C", *, like=None):
    """Like NumPy's ``empty``; lazynum's uninitialized memory is zeros."""
    return zeros(shape, dtype)


def _like(maker):
    def like_function(prototype, dtype=None, order="K", subok=True, shape=None, **kwargs):
        proto = asarray(prototype)
        return maker(proto.shape if shape is None else shape,
                     dtype=proto.dtype if dtype is None else dtype, **kwargs)
    like_function.__name__ = maker.__name__ + "_like"
    like_function.__doc__ = f"``{maker.__name__}`` with the shape and dtype of ``prototype``."
    return like_function


zeros_like = _like(zeros)
ones_like = _like(ones)
empty_like = _like(empty)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None):
    """``full`` with the shape and dtype of ``a``."""
    proto = asarray(a)
    return full(proto.shape if shape is None else shape, fill_value,
                dtype=proto.dtype if dtype is None else dtype)


def astype(x, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """``x`` converted to ``dtype`` (NumPy's unsafe casting by default)."""
    x = asarray(x)
    dt = dtypes.normalize(dtype)
    if not np.can_cast(x.dtype, dt, casting):
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to {dt!r} according to the rule '{casting}'")
    if dt == x.dtype:
        return x.copy() if copy else x
    return wrap(cast(x._n(), dt))


def copy(a, order="K", subok=False):
    """A new array with the same value; later writes to either do not affect the other."""
    return wrap(asarray(a)._n())


def fill(a, value):
    """Set every element of ``a`` to ``value`` in place (``ndarray.fill``)."""
    a[...] = value
