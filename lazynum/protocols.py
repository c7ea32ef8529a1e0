"""NumPy's dispatch protocols: ``__array_ufunc__`` and ``__array_function__``.

A NumPy function called on lazynum arrays stays lazy when lazynum implements a function of
the same name; otherwise the arguments are synced, NumPy computes, the fallback is counted
in the metrics (with the user line) and logged, and array results come back as lazynum
arrays.
"""
from __future__ import annotations

import numpy as np

from . import telemetry as metrics
from .arraytype import ndarray, wrap
from .conversion import numpy_constant

_handled: dict = {}


def _build_table(namespace) -> None:
    for name in namespace.__all__:
        ours, theirs = getattr(namespace, name), getattr(np, name, None)
        if callable(theirs) and callable(ours) and not isinstance(theirs, type):
            _handled[theirs] = ours
    _handled[np.linalg.norm] = namespace.linalg.norm


def _to_numpy(value):
    if isinstance(value, ndarray):
        return np.array(value._value("fallback"))
    if isinstance(value, (list, tuple)):
        return type(value)(_to_numpy(v) for v in value)
    if isinstance(value, dict):
        return {k: _to_numpy(v) for k, v in value.items()}
    return value


def _from_numpy(value):
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        try:
            return wrap(numpy_constant(value))
        except TypeError:
            return value
    if isinstance(value, tuple):
        return tuple(_from_numpy(v) for v in value)
    if isinstance(value, list):
        return [_from_numpy(v) for v in value]
    return value


def fallback(name: str, function, args, kwargs, numpy_result=False):
    """Run ``function`` eagerly on synced NumPy copies; count and log the fallback.

    ``numpy_result`` returns NumPy's result as is (it wrote into a NumPy ``out=`` array,
    which the caller must get back, as NumPy would return it).
    """
    metrics.record_fallback(name, metrics.user_frame())
    result = function(*_to_numpy(args), **_to_numpy(kwargs))
    return result if numpy_result else _from_numpy(result)


def array_function(self, func, types, args, kwargs):
    if not _handled:
        import lazynum
        _build_table(lazynum)
    ours = _handled.get(func)
    if ours is not None:
        return ours(*args, **kwargs)
    return fallback(f"numpy.{func.__name__}", func, args, kwargs)


# NumPy's generalized ufuncs that lazynum implements as functions (not elementwise ops).
_GUFUNCS = ("matmul", "vecdot", "matvec", "vecmat")


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    from . import linalg
    from .ufuncs import UFUNCS
    if method == "__call__" and ufunc.__name__ in _GUFUNCS and ufunc is getattr(np, ufunc.__name__):
        return getattr(linalg, ufunc.__name__)(*inputs, **kwargs)
    ours = UFUNCS.get(ufunc.__name__)
    if ours is not None and ours._np is ufunc:
        out = kwargs.get("out")
        if isinstance(out, tuple) and len(out) == 1:
            kwargs["out"] = out[0]
        if any(isinstance(o, np.ndarray) for o in (out if isinstance(out, tuple) else (out,))):
            return fallback(f"numpy.{ufunc.__name__}.{method} into a NumPy out=", getattr(ufunc, method),
                            inputs, kwargs, numpy_result=True)
        try:
            return getattr(ours, method)(*inputs, **kwargs)
        except NotImplementedError:
            pass
    if method == "at":
        return _fallback_at(ufunc, *inputs)
    return fallback(f"numpy.{ufunc.__name__}.{method}", getattr(ufunc, method), inputs, kwargs)


def _fallback_at(ufunc, target, *args):
    """``ufunc.at`` mutates its first argument: run NumPy on a synced copy, write it back."""
    if not isinstance(target, ndarray):
        return fallback(f"numpy.{ufunc.__name__}.at", ufunc.at, (target,) + args, {}, numpy_result=True)
    value = np.array(target._value("fallback"))
    fallback(f"numpy.{ufunc.__name__}.at", ufunc.at, (value,) + args, {}, numpy_result=True)
    target[...] = value


ndarray.__array_function__ = array_function
ndarray.__array_ufunc__ = array_ufunc
