"""Immediate forms: a namespace function or method called on small computed arrays is NumPy's
own call on their values, run now.

The immediate tier (``runtime/immediate.py``) computes one primitive at a time, after the
front end has worked out NumPy's rules for the call in Python: a ``concatenate`` of two
64-element rows spent 24 us doing that for NumPy's 1 us of work, ``clip`` 37 us, a fancy
index 27 us.  When every array argument of a call is a computed lazynum array small enough
for the tier (and there is no ``out=``), NumPy's function on their values gives exactly the
result lazynum's rules would describe, so it is called directly and its result wrapped.

Only functions whose result is always a new array are here (never a view: aliasing stays the
front end's business), with results of a dtype lazynum holds.  A call that reports a
floating-point error, a result over the size limit, or anything unusual goes the general
way instead (which computes it again and reports the error as the tier does); NumPy's own
exceptions (a bad axis, shapes that do not match) are raised at the call, as NumPy raises
them.  With the tier off (``LAZYNUM_IMMEDIATE_BELOW=0``, as the tests run) nothing here runs.
"""
from __future__ import annotations

import functools

import numpy as np

from ..array import extension
from ..array.arraytype import ndarray, scalar_result, wrap, wrap_ordered, wrap_scalar
from ..expr import dtypes
from ..expr import node as nodes
from ..runtime.immediate import call_numpy, size_limit

_LAZY = (ndarray, scalar_result)
NOT_TAKEN = object()

# Namespace functions whose NumPy result is always a new array (or a Python/NumPy scalar).
FUNCTIONS = (
    "concatenate", "stack", "vstack", "hstack", "dstack", "column_stack", "where", "clip",
    "round", "around", "mean", "std", "var", "average", "median", "cumsum", "cumprod", "diff",
    "outer", "dot", "inner", "vdot", "cross", "kron", "tile", "repeat", "pad", "sort",
    "argsort", "argmin", "argmax", "take", "searchsorted", "isclose", "allclose",
    "array_equal", "interp", "convolve", "polyval", "trace", "nan_to_num", "zeros_like",
    "ones_like", "full_like", "ptp", "percentile", "quantile", "count_nonzero", "histogram",
    "digitize", "trapezoid",
)
# (Not here: views (flip, einsum's), ``empty_like`` (lazynum's empty memory is zeros),
# data-dependent shapes (one-argument ``where``, ``bincount``: bounded arrays in lazynum),
# the nan* statistics (their all-NaN warnings would name NumPy's line, not the user's).)
# ``numpy.linalg`` functions likewise.
LINALG_FUNCTIONS = ("norm", "solve", "inv", "det", "slogdet", "eigh", "eigvalsh", "cholesky",
                    "lstsq", "pinv", "matrix_power", "qr", "svd")
# ndarray methods likewise (``astype`` copies unless told not to).
METHODS = ("mean", "std", "var", "round", "clip", "cumsum", "cumprod", "dot", "argmin",
           "argmax", "trace", "repeat", "take", "astype")


def _value(x, limit):
    """A lazynum argument's NumPy value, ``x`` itself for anything else, or NOT_TAKEN."""
    kind = type(x)
    if kind is ndarray or kind is scalar_result:
        node = x._n()
        buffer = node.buffer
        if buffer is None or buffer.size > limit or not buffer.size:
            return NOT_TAKEN          # (empty inputs: NumPy's warnings, edge cases)
        return buffer
    if kind is list or kind is tuple:
        values = [_value(item, limit) for item in x]
        if any(v is NOT_TAKEN for v in values):
            return NOT_TAKEN
        return values if kind is list else tuple(values)
    if kind is np.ndarray:
        return x if 0 < x.size <= limit else NOT_TAKEN
    if kind in (int, float, bool, complex, str, type(None)) \
            or isinstance(x, (np.generic, np.dtype, type, slice)) or x is Ellipsis:
        return x
    return NOT_TAKEN          # bounded arrays, NumPy-backed arrays, callables, objects


def _wrapped(out, limit):
    """``out`` (NumPy's result) as lazynum's, or NOT_TAKEN."""
    if isinstance(out, np.generic):
        if out.dtype not in dtypes.SUPPORTED:
            return NOT_TAKEN
        return wrap_scalar(nodes.constant(np.asarray(out)))
    if type(out) is not np.ndarray:
        if type(out) in (bool, int, float, complex):
            return out                           # allclose, array_equal: Python values
        if type(out) is tuple and out:
            parts = [_wrapped(part, limit) for part in out]
            return NOT_TAKEN if any(p is NOT_TAKEN for p in parts) else tuple(parts)
        return NOT_TAKEN
    if out.dtype not in dtypes.SUPPORTED or out.size > limit or out.base is not None:
        return NOT_TAKEN
    out.flags.writeable = False
    node = nodes.constant(out)
    if out.ndim < 2 or out.flags.c_contiguous:
        return wrap(node)
    # NumPy's result follows its inputs' memory order ('K'): keep it (flags, reshape views)
    order = tuple(sorted(range(out.ndim), key=lambda axis: -abs(out.strides[axis])))
    return wrap_ordered(node, order)


def run_now(label, function, args, kwargs):
    """``function(*args, **kwargs)`` on the values of computed lazynum arguments, wrapped, or
    NOT_TAKEN when the immediate tier does not take the call."""
    limit = size_limit()
    if not limit or "out" in kwargs or kwargs.get("copy", True) is False:
        return NOT_TAKEN
    values = _value(args, limit)
    if values is NOT_TAKEN:
        return NOT_TAKEN
    named = {}
    for key, x in kwargs.items():
        named[key] = v = _value(x, limit)
        if v is NOT_TAKEN:
            return NOT_TAKEN
    out = call_numpy(function, values, named)
    if out is None or _is_an_input(out, values):
        return NOT_TAKEN                     # a floating-point error, or an input returned
    return _wrapped(out, limit)


def _is_an_input(out, values) -> bool:
    for v in values:
        if v is out or (type(v) in (list, tuple) and _is_an_input(out, v)):
            return True
    return False


def immediate_form(label, lazy_function, numpy_function):
    """``lazy_function`` preceded by its immediate form (see the module docstring)."""
    @functools.wraps(lazy_function)
    def function(*args, **kwargs):
        out = run_now(label, numpy_function, args, kwargs)
        return lazy_function(*args, **kwargs) if out is NOT_TAKEN else out
    for attribute in ("__lazynum_extensible__",):
        if hasattr(lazy_function, attribute):
            setattr(function, attribute, getattr(lazy_function, attribute))
    return function


def _method_form(name, lazy_method):
    numpy_method = getattr(np.ndarray, name)

    @functools.wraps(lazy_method)
    def method(self, *args, **kwargs):
        if name == "astype" and (kwargs.get("copy", True) is False or len(args) > 4):
            return lazy_method(self, *args, **kwargs)      # may be the array itself
        out = run_now(f"ndarray.{name}", numpy_method, (self,) + args, kwargs)
        return lazy_method(self, *args, **kwargs) if out is NOT_TAKEN else out
    return method


def install(namespace) -> None:
    """Put the immediate forms in front of ``namespace``'s functions and ndarray's methods."""
    extensible = set(extension.extensible_names())
    for name in FUNCTIONS:
        lazy_function = getattr(namespace, name, None)
        if not (callable(lazy_function) and hasattr(np, name)):
            continue
        numpy_function = getattr(np, name)
        if name in extensible:      # one function in the namespace: a form in its dispatch
            extension.wrap_form(name, lambda current, name=name, numpy_function=numpy_function:
                                immediate_form(f"numpy.{name}", current, numpy_function))
        else:
            setattr(namespace, name, immediate_form(f"numpy.{name}", lazy_function, numpy_function))
    linalg = namespace.linalg
    for name in LINALG_FUNCTIONS:
        lazy_function = getattr(linalg, name, None)
        if callable(lazy_function):
            setattr(linalg, name, immediate_form(f"numpy.linalg.{name}", lazy_function,
                                                 getattr(np.linalg, name)))
    for name in METHODS:
        if hasattr(ndarray, name) and hasattr(np.ndarray, name):
            setattr(ndarray, name, _method_form(name, getattr(ndarray, name)))
