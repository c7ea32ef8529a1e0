"""Where NumPy-backed arrays meet the namespace, the ufuncs and lazy arrays' methods.

The front end raises ``dtypes.UnsupportedDtype`` (a TypeError) wherever a dtype with no
lazy form reaches it: a dtype argument (``zeros(3, dtype='M8[D]')``), data that converts
to one (``asarray(['a', 'b'])``), a NumPy-backed operand (whose lazy node is asked for).
``install()`` wraps the namespace's functions, lazynum's ufunc objects and the lazy
array's methods that take a dtype or a value (``astype``, ``view``, ``__setitem__``,
``fill``) so that this error runs NumPy's function of the same name instead
(``array.run``: a counted fallback).  The lazy path pays nothing but a ``try``.
"""
from __future__ import annotations

import functools

import numpy as np

from ..array import extension
from ..array.arraytype import ndarray
from ..expr.dtypes import UnsupportedDtype
from ..frontend import ufuncs
from . import interface
from .array import NumpyBackedArray, run, wrap_numpy

_UFUNC_METHODS = ("__call__", "reduce", "accumulate", "outer", "at", "reduceat")
_LAZY_METHODS = ("astype", "view", "__setitem__", "fill")


def _namespace_form(name: str, lazy, numpy_function):
    label = f"numpy.{name}"

    @functools.wraps(lazy)
    def function(*args, **kwargs):
        try:
            return lazy(*args, **kwargs)
        except UnsupportedDtype:
            return run(label, numpy_function, args, kwargs)
    function.__wrapped__ = getattr(lazy, "__wrapped__", lazy)
    return function


def _ufunc_method(method_name: str, lazy_method):
    @functools.wraps(lazy_method)
    def method(self, *args, **kwargs):
        try:
            return lazy_method(self, *args, **kwargs)
        except UnsupportedDtype:
            suffix = "" if method_name == "__call__" else f".{method_name}"
            return run(f"numpy.{self.__name__}{suffix}", getattr(self._np, method_name),
                       args, kwargs)
    return method


def _lazy_method(name: str, lazy_method):
    def numpy_method(data, *args, **kwargs):
        return getattr(data, name)(*args, **kwargs)

    @functools.wraps(lazy_method)
    def method(self, *args, **kwargs):
        try:
            return lazy_method(self, *args, **kwargs)
        except UnsupportedDtype:
            return run(f"ndarray.{name}", numpy_method, (self,) + args, kwargs)
    return method


def _constructor(lazy_new):
    """``lazynum.ndarray(shape, dtype)`` of a dtype with no lazy form: NumPy's zeros (the
    lazy constructor's zeros, where NumPy's memory is uninitialized)."""
    def zeros(shape, dtype=float, buffer=None):
        if buffer is not None:
            raise TypeError("lazynum.ndarray(buffer=...) is not supported; use lazynum.asarray")
        return np.zeros(shape, dtype)

    def __new__(cls, *args, **kwargs):
        try:
            return lazy_new(cls, *args, **kwargs)
        except UnsupportedDtype:
            return run("numpy.ndarray", zeros, args, kwargs)
    return __new__


def _wraps_a_numpy_function(namespace, name: str) -> bool:
    ours, theirs = getattr(namespace, name, None), getattr(np, name, None)
    return (callable(ours) and callable(theirs) and ours is not theirs
            and not isinstance(ours, (type, ufuncs.ufunc)) and not isinstance(theirs, (type, np.ufunc)))


def install(namespace) -> None:
    """NumPy-backed arrays in ``namespace`` (lazynum): see the module docstring."""
    interface.install()
    extension.register_numpy_backed(NumpyBackedArray)
    extension.register_hook("numpy_backed", lambda value, backed: wrap_numpy(value, backed))
    # Extensible functions (lazynum.sum, ...) stay one function: their dispatch asks this hook.
    extension.register_hook("unsupported_dtype", lambda name, args, kwargs: run(
        f"numpy.{name}", getattr(np, name), args, kwargs))
    for name in namespace.__all__:
        if _wraps_a_numpy_function(namespace, name) and \
                not hasattr(getattr(namespace, name), "__lazynum_extensible__"):
            setattr(namespace, name, _namespace_form(name, getattr(namespace, name),
                                                     getattr(np, name)))
    for method_name in _UFUNC_METHODS:
        lazy_method = getattr(ufuncs.ufunc, method_name, None)
        if lazy_method is not None:
            setattr(ufuncs.ufunc, method_name, _ufunc_method(method_name, lazy_method))
    ndarray.__new__ = _constructor(ndarray.__new__)
    for name in _LAZY_METHODS:
        setattr(ndarray, name, _lazy_method(name, getattr(ndarray, name)))
