"""Where bounded arrays meet the rest of lazynum: methods, operators, namespace functions.

``install()`` (run once by ``lazynum.bounded``) gives ``BoundedArray`` its operators and
lazy methods, and wraps the namespace functions that have a bounded form (``sum``,
``nonzero``, ...) so ``lazynum.sum(y)`` stays lazy.  Every other function reaching a
bounded array gets it materialized (one counted sync): ``array_function``.
"""
from __future__ import annotations

import inspect

import numpy as np

from ..frontend import reductions
from ..array.arraytype import ndarray, wrap
from ..frontend.indexing.basic import convert_value
from . import (compute, dtype_view, indexing as bounded_indexing, joins, producers,
    reshape as bounded_reshape, trimming, unique as bounded_unique)
from ..array import extension
from ..control import telemetry
from ..runtime import unread_checks
from .array import BoundedArray, bounded_form, materialized

_BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
           "floordiv": "floor_divide", "mod": "remainder", "pow": "power", "and": "bitwise_and",
           "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "left_shift", "rshift": "right_shift",
           "matmul": None}
_COMPARE = {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal",
            "eq": "equal", "ne": "not_equal"}
from ..frontend import mathfuncs, ufuncs
_UNARY = {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}


def _operator(name, reflected=False):
    uf = getattr(np, name)

    def method(self, other):
        if not isinstance(other, (BoundedArray, ndarray, np.ndarray, np.generic, bool, int, float,
                                  complex)):
            return NotImplemented
        if reflected:
            return compute.ufunc(uf, (other, self), {})
        return compute.ufunc(*_operator_ufunc(uf, self, other), {})
    return method


def _operator_ufunc(uf, self, other):
    """The ufunc and inputs NumPy's operator calls: ``**`` with an exact Python 2, -1 or 0.5
    is a unary ufunc (``ufuncs.power_shortcut``: ``z ** -1`` is ``reciprocal``, which
    differs from ``power`` at infinities; ``bool ** 2`` is ``square``, int8)."""
    unary = ufuncs.power_shortcut(self, other) if uf is np.power else None
    return (uf, (self, other)) if unary is None else (unary, (self,))


def _inplace(name):
    uf = getattr(np, name)

    def method(self, other):
        ufunc, inputs = _operator_ufunc(uf, self, other)
        produced = compute.numpy_result_dtype(ufunc, inputs, {})   # NumPy: casting, then shapes
        if not np.can_cast(produced, self.dtype, "same_kind"):
            raise TypeError(f"Cannot cast ufunc '{ufunc.__name__}' output from {produced!r} to "
                            f"{self.dtype!r} with casting rule 'same_kind'")
        result = compute.ufunc(ufunc, inputs, {})
        self._store(compute.conformed(result, self, name))
        return self
    return method


def _matmul(a, b):
    return compute.matmul(a, b)


def _setitem(self, key, value):
    """``y[key] = value``, written into ``y``'s data: lazily for a bounded bool mask of the
    same bound or a basic key that slices every bounded dim whole, with a scalar value;
    any other key writes through the true-size view (one sync)."""
    self._data._check_writeable()
    scalar = not isinstance(value, BoundedArray) and np.ndim(value) == 0
    if (scalar and isinstance(key, BoundedArray) and key.dtype == bool and key.ndim == 1
            and self.ndim >= 1 and key.bound_shape[0] == self.bound_shape[0]):
        keep = key._data.reshape((-1,) + (1,) * (self.ndim - 1))
        value = wrap(convert_value(value, self.dtype))      # setitem's casting and errors
        self._store(mathfuncs.where(keep, value, self._data))
        return
    basic = () if key is Ellipsis else key if type(key) is tuple else (key,)
    if scalar and bounded_indexing.whole_bounded_dims(self, basic):
        self._data[basic] = value
        return
    try:
        self.materialize()[materialized(key)] = materialized(value)
    except Exception:
        # y[i] op= v read y[i] lazily (a run-time check); this error is the statement's
        # one (NumPy raises once), so that check never runs as a dropped one
        unread_checks.forget_recorded_at(telemetry.user_frame())
        raise


def _fill(self, value):
    """``y.fill(value)``: every element (the padding too: it never reaches a result)."""
    self._data.fill(value)


def _bound_call(fn, args, kwargs):
    """Arguments of ``fn(*args, **kwargs)`` by parameter name (methods mirror functions)."""
    return inspect.signature(fn).bind(*args, **kwargs).arguments


def _reduction(name):
    fn = getattr(reductions, name)

    def method(self, *args, **kwargs):
        params = _bound_call(fn, (self,) + args, kwargs)
        params.pop("a")
        axis, keepdims = params.pop("axis", None), params.pop("keepdims", False)
        return compute.reduce(name, self, axis=axis, keepdims=keepdims, **params)
    return method


def _arg(name):
    def method(self, axis=None, out=None, *, keepdims=False):
        if out is not None:
            return getattr(reductions, name)(self.materialize(), axis=axis, out=out, keepdims=keepdims)
        return compute.arg_extreme(name, self, axis=axis, keepdims=keepdims)
    return method


def _scan(name):
    def method(self, axis=None, dtype=None, out=None):
        if out is not None:
            return getattr(reductions, name)(self.materialize(), axis=axis, dtype=dtype, out=out)
        return compute.scan(name, self, axis=axis, dtype=dtype)
    return method


def _sorter(name):
    def method(self, axis=-1, kind=None, order=None, *, stable=None):
        return compute.sort(name, self, axis=axis, kind=kind, order=order, stable=stable)
    return method


def _sort_in_place(self, axis=-1, kind=None, order=None, *, stable=None):
    """``y.sort()``: sorts ``y`` itself (NumPy's method), returns None."""
    self._store(compute.sort("sort", self, axis=axis, kind=kind, order=order, stable=stable)._data)


def _shape_preserving(fn_name):
    """A function that maps the padded data elementwise (scalar extra arguments only)."""
    def method(self, *args, **kwargs):
        fn = getattr(_NAMESPACE[0], fn_name)
        fn = getattr(fn, "__wrapped__", fn)
        if any(isinstance(a, (BoundedArray, ndarray, np.ndarray, list, tuple)) for a in
               list(args) + list(kwargs.values())):
            return fn(self.materialize(), *materialized(args), **kwargs)
        result = fn(self._data, *args, **kwargs)
        if not isinstance(result, ndarray) or tuple(result.shape) != tuple(self._data.shape):
            return fn(self.materialize(), *args, **kwargs)
        return BoundedArray(result, self._sizes)
    method.__name__ = fn_name
    return method


def _transpose(self, *axes):
    axes = axes[0] if len(axes) == 1 and isinstance(axes[0], (tuple, list)) else axes
    order = tuple(range(self.ndim))[::-1] if not axes or axes == (None,) else tuple(axes)
    order = tuple(a % self.ndim for a in order)
    return BoundedArray(self._data.transpose(order), tuple(self._sizes[a] for a in order))


# Namespace functions (not ufuncs: those dispatch in lazynum.ufuncs) that map elementwise.
ELEMENTWISE_FUNCTIONS = ("clip", "round", "around", "nan_to_num", "fix", "real", "imag")

METHODS = {
    **{name: _shape_preserving(name) for name in ("clip", "round", "conj", "conjugate")},
    "transpose": _transpose,
    "T": property(lambda self: _transpose(self)),
    "copy": lambda self, order="C": BoundedArray(self._data.copy(), self._sizes),
    "reshape": bounded_reshape.reshape,
    "ravel": bounded_reshape.ravel,
    "flatten": lambda self, order="C": bounded_reshape.ravel(self, "copy" if order == "C" else order),
    **{name: _reduction(name) for name in compute.REDUCTIONS},
    "argmax": _arg("argmax"), "argmin": _arg("argmin"),
    "cumsum": _scan("cumsum"), "cumprod": _scan("cumprod"),
    "sort": _sort_in_place, "argsort": _sorter("argsort"), "fill": _fill,
    "astype": lambda self, dtype, **kw: compute.astype(self, dtype, **kw),
    "nonzero": lambda self: producers.nonzero(self.materialize()),
    "view": dtype_view.view,
}


def _first_is_bounded(original, bounded):
    def function(*args, **kwargs):
        out = kwargs.get("out")
        if isinstance(out, BoundedArray):    # written through its true-size view (a sync)
            function(*args, **{**kwargs, "out": out.materialize()})
            return out
        if args and isinstance(args[0], BoundedArray):
            return bounded(*args, **kwargs)
        return original(*args, **kwargs)
    return bounded_form(function, original)


def _producer(original, bounded):
    """A namespace producer: lazy inputs give bounded results; host inputs keep NumPy's."""
    def function(*args, **kwargs):
        if args and isinstance(args[0], BoundedArray):
            args = (args[0].materialize(),) + args[1:]
        if args and isinstance(args[0], ndarray):
            return bounded(*args, **kwargs)
        return original(*args, **kwargs)
    return bounded_form(function, original)


def _where(original):
    def where(condition, *xy):
        if not xy and isinstance(condition, (ndarray, BoundedArray)):
            return producers.nonzero(materialized(condition))
        if len(xy) == 2 and any(isinstance(v, BoundedArray) for v in (condition,) + xy):
            return compute.where(condition, *xy)
        return original(condition, *xy)
    return bounded_form(where, original)


def array_ufunc(uf, method, inputs, kwargs):
    if uf is np.matmul and method == "__call__" and not kwargs:
        return compute.matmul(*inputs)
    if method == "__call__":
        return compute.ufunc(uf, inputs, kwargs)
    return getattr(ufuncs.UFUNCS[uf.__name__], method)(*materialized(inputs), **kwargs)


def array_function(func, args, kwargs):
    name = func.__name__
    target = getattr(_NAMESPACE[0], name, None)
    if getattr(target, "__lazynum_extensible__", None) or getattr(target, "_bounded_form", False):
        return target(*args, **kwargs)
    args, kwargs = materialized(args), {k: materialized(v) for k, v in kwargs.items()}
    return (target or func)(*args, **kwargs)


def install(namespace) -> None:
    """Operators and methods on BoundedArray; bounded forms into ``namespace`` (lazynum)."""
    for op, name in _BINARY.items():
        if name is None:
            continue
        setattr(BoundedArray, f"__{op}__", _operator(name))
        setattr(BoundedArray, f"__r{op}__", _operator(name, reflected=True))
        setattr(BoundedArray, f"__i{op}__", _inplace(name))
    BoundedArray.__matmul__ = _matmul
    BoundedArray.__rmatmul__ = lambda self, other: _matmul(other, self)
    BoundedArray.__getitem__ = lambda self, key: bounded_indexing.getitem(self, key)
    BoundedArray.__setitem__ = _setitem
    for op, name in _COMPARE.items():
        setattr(BoundedArray, f"__{op}__", _operator(name))
    BoundedArray.__hash__ = None
    BoundedArray.__array_function__ = lambda self, func, types, args, kwargs: array_function(
        func, args, kwargs)
    BoundedArray.__array_ufunc__ = lambda self, ufunc, method, *inputs, **kwargs: array_ufunc(
        ufunc, method, inputs, kwargs)
    for op, name in _UNARY.items():
        uf = getattr(np, name)
        setattr(BoundedArray, f"__{op}__", lambda self, uf=uf: compute.ufunc(uf, (self,), {}))
    for name, method in METHODS.items():
        setattr(BoundedArray, name, method)
    _register_forms()
    _NAMESPACE.append(namespace)


def _register_forms() -> None:
    """BoundedArray as an array extension: its forms of the extensible namespace functions
    and the hooks the front end calls (``array.extension``)."""
    extension.register_type(BoundedArray)
    for name, function in (("mask_select", producers.mask_select), ("mask_assign", producers.mask_assign),
                           ("gather", bounded_indexing.gather), ("lazy_slice", bounded_indexing.lazy_slice),
                           ("materialized", materialized), ("ufunc", compute.ufunc),
                           ("bounded", BoundedArray)):
        extension.register_hook(name, function)
    form = extension.register_form
    form("reshape", lambda original: _first_is_bounded(original, _reshape_function))
    form("ravel", lambda original: _first_is_bounded(original, bounded_reshape.ravel))
    for name in compute.REDUCTIONS + ("cumsum", "cumprod", "argmax", "argmin", "sort", "argsort"):
        if name in extension.extensible_names():       # amax/amin are max/min
            form(name, lambda original, name=name: _first_is_bounded(original, _namespace_form(name)))
    for name in ELEMENTWISE_FUNCTIONS:
        if name in extension.extensible_names():       # round is around
            form(name, lambda original, name=name: _first_is_bounded(original, _shape_preserving(name)))
    for name in ("nonzero", "flatnonzero", "argwhere", "extract"):
        form(name, lambda original, name=name: _producer(original, getattr(producers, name)))
    form("compress", _compress)
    form("where", _where)
    for name in ("concatenate", "stack"):
        form(name, lambda original, name=name: _any_bounded_sequence(original, getattr(joins, name)))
    for name in ("matmul", "dot"):
        form(name, lambda original: _any_bounded_pair(original, compute.matmul))
    for name in ("zeros", "ones", "empty", "full"):
        form(name, joins.factory)
    form("arange", joins.arange)
    form("unique", _unique)
    form("trim_zeros", lambda original: _first_is_bounded(
        original, lambda filt, trim="fb", axis=None: trimming.trim_zeros(filt, trim, axis, plain=original)))
    form("isin", _isin)


def _isin(original):
    """``isin`` of a bounded ``element`` maps its padded data (the padding's answers never
    reach a result); bounded ``test_elements`` are materialized (their padding must not match)."""
    def function(element, test_elements, *args, **kwargs):
        if isinstance(test_elements, BoundedArray):
            test_elements = test_elements.materialize()
        if isinstance(element, BoundedArray):
            return BoundedArray(original(element._data, test_elements, *args, **kwargs),
                                element._sizes)
        return original(element, test_elements, *args, **kwargs)
    return bounded_form(function, original)


_NAMESPACE: list = []       # the lazynum namespace install() was given (array_function reads it)


def _any_bounded_sequence(original, bounded):
    def function(arrays, *args, **kwargs):
        arrays = list(arrays) if isinstance(arrays, (list, tuple)) else arrays
        if isinstance(arrays, list) and any(isinstance(a, BoundedArray) for a in arrays):
            return bounded(arrays, *args, **kwargs)
        return original(arrays, *args, **kwargs)
    return bounded_form(function, original)


def _any_bounded_pair(original, bounded):
    def function(a, b, *args, **kwargs):
        if (isinstance(a, BoundedArray) or isinstance(b, BoundedArray)) and not args and not kwargs:
            return bounded(a, b)
        return original(materialized(a), materialized(b), *args, **kwargs)
    return bounded_form(function, original)


def _unique(original):
    def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
               *, equal_nan=True, sorted=True, size=None, fill_value=None):  # noqa: A002
        lazy = isinstance(ar, (ndarray, BoundedArray))
        if lazy and axis is None and sorted:
            return bounded_unique.unique(ar, return_index, return_inverse, return_counts,
                                         equal_nan=equal_nan, size=size, fill_value=fill_value)
        if size is not None:
            raise NotImplementedError("unique(size=) needs a lazy input and axis=None")
        return original(materialized(ar), return_index, return_inverse, return_counts, axis,
                        equal_nan=equal_nan, sorted=sorted)
    return bounded_form(unique, original)

def _compress(original):
    def compress(condition, a, axis=None, out=None):
        condition, a = materialized(condition), materialized(a)
        if out is None and isinstance(condition, ndarray):
            return producers.compress(condition, a, axis=axis)
        return original(condition, a, axis=axis, out=out)
    return bounded_form(compress, original)


def _reshape_function(a, shape=None, order="C", *, newshape=None, copy=None):
    result = bounded_reshape.reshape(a, shape if newshape is None else newshape, order=order)
    return result if not copy else result.copy()


def _namespace_form(name):
    method = _sorter("sort") if name == "sort" else METHODS[name]   # np.sort returns a copy
    return lambda a, *args, **kwargs: method(a, *args, **kwargs)

