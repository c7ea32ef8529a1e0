"""The whole ``numpy.ndarray`` interface on ``NumpyBackedArray``, forwarded to NumPy.

``install()`` walks ``dir(numpy.ndarray)``: each method and operator becomes one running
NumPy's method on the array's data (``array.run``: a counted fallback whose results convert
back to lazynum arrays), each computed attribute (``T``, ``real``, ``flat``, ...) one that
wraps NumPy's view, and the metadata (``shape``, ``dtype``, ``strides``, ``flags``, ...)
reads NumPy's array directly: no fallback for a shape.  NumPy's own dispatch protocols send
``numpy.f(x)`` and ``numpy.ufunc(x)`` to NumPy on the data, counted the same way.
"""
from __future__ import annotations

import numpy as np

from ..frontend.fallbacks import METADATA
from .array import NumpyBackedArray, run, wrap_numpy

# numpy.ndarray's names that are not forwarded: Python's object machinery, NumPy's
# subclassing hooks, the conversions every lazynum array shares (``__array__`` copies,
# as lazynum's do; ``__array_interface__`` would let NumPy alias around it), identity
# (``base`` is None, as for lazy arrays) and the protocols defined below.
_NOT_FORWARDED = frozenset({
    "__class__", "__new__", "__init__", "__init_subclass__", "__subclasshook__",
    "__getattribute__", "__setattr__", "__delattr__", "__dir__", "__doc__", "__hash__",
    "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__", "__class_getitem__",
    "__sizeof__", "__array__", "__array_finalize__", "__array_wrap__", "__array_function__",
    "__array_ufunc__", "__array_namespace__", "__array_interface__", "__array_struct__",
    "__array_priority__", "base", "__iter__"})
# Printing and len need no computation: answered from the data, not counted (nor are
# the metadata attributes: shape, dtype, strides, flags, ...).
_UNCOUNTED_METHODS = frozenset({"__len__", "__repr__", "__str__", "__format__"})
_COMPUTED_ATTRIBUTES = frozenset({"T", "mT", "real", "imag", "flat"})


def _method_of_data(name: str):
    """``data.name(*args)``: the data's own class's method (a record array's ``__getitem__``
    returns record arrays, as NumPy's does)."""
    def call(data, *args, **kwargs):
        return getattr(data, name)(*args, **kwargs)
    call.__name__ = name
    return call


def _forwarded_method(name: str):
    call = _method_of_data(name)
    label = f"ndarray.{name}"

    def method(self, *args, **kwargs):
        return run(label, call, (self,) + args, kwargs)
    method.__name__ = name
    method.__doc__ = f"NumPy's ``ndarray.{name}`` on the array's data (a counted fallback)."
    return method


def _uncounted_method(name: str):
    def method(self, *args, **kwargs):
        return getattr(self._data, name)(*args, **kwargs)
    method.__name__ = name
    return method


def _attribute(name: str):
    def get(self):
        value = getattr(self._data, name)
        if name in _COMPUTED_ATTRIBUTES and isinstance(value, np.ndarray):
            return wrap_numpy(value, (self._data,))
        return value

    def set_(self, value):
        run(f"ndarray.{name} assignment", setattr, (self, name, value), {})
    return property(get, set_, doc=f"NumPy's ``ndarray.{name}`` of the array's data.")


def _iter(self):
    """Iteration as NumPy's: scalars along a 1-d array, sub-arrays (views) otherwise."""
    if self._data.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    if self._data.ndim == 1:
        return iter(self._data.copy())      # NumPy's scalars, of the values now
    return (self[i] for i in range(len(self._data)))


def _array_function(self, func, types, args, kwargs):
    if func in METADATA:        # numpy.shape, numpy.ndim, ...: answered from the data
        return run(f"numpy.{func.__name__}", func, args, kwargs) if func is np.min_scalar_type \
            else func(*[a._data if isinstance(a, NumpyBackedArray) else a for a in args], **kwargs)
    return run(f"numpy.{func.__name__}", func, args, kwargs)


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    name = f"numpy.{ufunc.__name__}" + ("" if method == "__call__" else f".{method}")
    return run(name, getattr(ufunc, method), inputs, kwargs)


def install() -> None:
    """Give ``NumpyBackedArray`` numpy.ndarray's interface (see the module docstring)."""
    for name in sorted(set(dir(np.ndarray)) | _UNCOUNTED_METHODS):
        if name in _NOT_FORWARDED:
            continue
        attribute = getattr(np.ndarray, name)
        if type(attribute).__name__ == "getset_descriptor":
            setattr(NumpyBackedArray, name, _attribute(name))
        elif name in _UNCOUNTED_METHODS:
            setattr(NumpyBackedArray, name, _uncounted_method(name))
        elif callable(attribute):
            setattr(NumpyBackedArray, name, _forwarded_method(name))
    NumpyBackedArray.__iter__ = _iter
    NumpyBackedArray.__array_function__ = _array_function
    NumpyBackedArray.__array_ufunc__ = _array_ufunc
