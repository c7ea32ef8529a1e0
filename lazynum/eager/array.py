"""``NumpyBackedArray``: a lazynum array of a dtype with no lazy form, computed by NumPy.

``datetime64``, ``timedelta64``, structured and record dtypes, ``str_``, ``bytes_``,
``StringDType``, ``object`` and ``longdouble``/``clongdouble`` arrays are lazynum arrays
(``isinstance(x, lazynum.ndarray)``) holding a NumPy array.  Every method, operator and
function on one runs NumPy at once on that array and its operands (lazy operands sync):
a counted fallback, named with the dtype that made it one.  Results convert back:

- a new array of a dtype lazynum computes with is an ordinary lazy leaf
  (``x.astype(float)``, ``(d2 - d1).astype('int64')``, ``x == 'a'``);
- a view NumPy gives of the data with such a dtype (``x['b']`` of a float field) is a
  lazy window whose writes reach the data (``views.lazy_view``);
- anything else of an exotic dtype is a NumPy-backed array again; a view stays NumPy's
  view of the same data, so writes alias exactly as in NumPy.

Shape, dtype and the other metadata are read from the NumPy array (no fallback).
"""
from __future__ import annotations

import numpy as np

from ..array.arraytype import ndarray, wrap, wrap_scalar
from ..array.conversion import computed_constant, numpy_constant
from ..expr import dtypes
from ..frontend.fallbacks import fallback
from .views import eager_operation_ran, lazy_view


class NumpyBackedArray(ndarray):
    """A lazynum array holding NumPy's array of a dtype lazynum has no lazy form of (see
    the module docstring); ``numpy.asarray(x)`` is a copy, as for every lazynum array."""
    __slots__ = ("_data",)

    def __lazynum_numpy__(self) -> np.ndarray:
        return self._data

    # The lazy data model does not apply: a front-end path reaching for it raises
    # UnsupportedDtype, which the namespace answers by running NumPy (``dispatch``).
    def _n(self):
        raise dtypes.UnsupportedDtype(f"dtype {self._data.dtype} has no lazy form")

    _node = property(_n)
    _view = property(_n)

    def _value(self, reason: str) -> np.ndarray:
        return self._data

    def sync(self) -> "NumpyBackedArray":
        """Nothing to compute: NumPy-backed arrays are always computed."""
        return self

    def __reduce__(self):
        return (from_numpy, (self._data.copy(),))

    def __getattr__(self, name):
        """Attributes NumPy's array has beyond ``numpy.ndarray``'s: a record array's fields."""
        if name.startswith("_"):
            raise AttributeError(name)
        return run(f"attribute {name!r}", getattr, (self, name), {})

    def __setattr__(self, name, value):
        if name != "_data" and isinstance(self._data, np.recarray) \
                and name in (self._data.dtype.names or ()):
            run(f"attribute {name!r} assignment", setattr, (self, name, value), {})
            return
        object.__setattr__(self, name, value)


def from_numpy(data: np.ndarray) -> NumpyBackedArray:
    """A NumPy-backed lazynum array holding ``data`` itself (callers pass fresh arrays)."""
    array = object.__new__(NumpyBackedArray)
    array._data = data
    return array


def _root(array: np.ndarray) -> np.ndarray:
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def _numpy_inputs(value, found: list) -> None:
    """The NumPy arrays the caller passed (nested in lists, tuples and dicts)."""
    if isinstance(value, np.ndarray):
        found.append(_root(value))
    elif isinstance(value, (list, tuple)):
        for item in value:
            _numpy_inputs(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _numpy_inputs(item, found)


def wrap_numpy(value: np.ndarray, backed_data=(), caller_arrays=()):
    """NumPy's array result as a lazynum array (see the module docstring).

    ``backed_data``: the NumPy-backed operands' arrays (a result viewing one is a view);
    ``caller_arrays``: the caller's own NumPy arrays (a result viewing one is copied, as
    lazynum snapshots NumPy input).
    """
    root = _root(value)
    if any(root is _root(data) for data in backed_data):
        return lazy_view(value) if value.dtype in dtypes.SUPPORTED else from_numpy(value)
    if any(root is other for other in caller_arrays):
        value = value.copy()
    if value.dtype in dtypes.SUPPORTED:
        return computed_constant(value) if value.flags.owndata else wrap(numpy_constant(value))
    return from_numpy(value)


def _wrap_results(value, backed_data, caller_arrays):
    if isinstance(value, ndarray):          # the lazy or NumPy-backed array NumPy wrote into
        return value
    if isinstance(value, np.ndarray):
        return wrap_numpy(value, backed_data, caller_arrays)
    if isinstance(value, np.generic) and value.dtype in dtypes.SUPPORTED:
        return wrap_scalar(numpy_constant(value))
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_wrap_results(v, backed_data, caller_arrays) for v in value)
    if isinstance(value, list) and any(isinstance(v, np.ndarray) for v in value):
        return [_wrap_results(v, backed_data, caller_arrays) for v in value]
    return value


def _backed_data(value, found: list) -> None:
    if type(value) is NumpyBackedArray:
        found.append(value._data)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _backed_data(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _backed_data(item, found)


def _dtype_reason(args, kwargs) -> str:
    found: list = []
    _backed_data((args, kwargs), found)
    kinds = sorted({str(data.dtype) for data in found})
    return f" on NumPy-backed {', '.join(kinds)}" if kinds else " (a dtype with no lazy form)"


def run(name: str, function, args, kwargs):
    """``function(*args, **kwargs)`` run by NumPy on the NumPy-backed operands' arrays and
    the lazy operands' synced values: a counted fallback named ``name`` and the dtype that
    made it one; results wrapped by ``wrap_numpy``."""
    backed: list = []
    caller: list = []
    _backed_data((args, kwargs), backed)
    _numpy_inputs((args, kwargs), caller)
    try:
        result = fallback(name + _dtype_reason(args, kwargs), function, args, kwargs,
                          numpy_result=True)
    finally:
        eager_operation_ran()
    return _wrap_results(result, backed, caller)
