"""NumPy's dispatch protocols: ``__array_ufunc__`` and ``__array_function__``.

A NumPy function called on lazynum arrays stays lazy when lazynum implements a function of
the same name; otherwise the arguments are synced (one sync for all of them), NumPy
computes on private copies, the fallback is counted in the metrics (with the user line) and
logged, and array results come back as lazynum arrays.  NumPy functions that write into an
argument (``copyto``, ``putmask``, ``ufunc.at``, ``out=``, ``random.shuffle``, ...) have
their writes stored back into the lazy argument, as a new storage version (views see it).
(``fallbacks``: the fallback itself and the functions answered from metadata.)
"""
from __future__ import annotations

import numpy as np

from ..array.arraytype import ndarray
from . import linalg
from .fallbacks import METADATA, fallback, ufunc_fallback
from .ufuncs import UFUNCS

_handled: dict = {}
_namespace: list = []       # the lazynum namespace (use_namespace: its __init__ hands it down)


def use_namespace(namespace) -> None:
    """NumPy functions called on lazynum arrays dispatch to ``namespace``'s functions of the
    same name (the table is built on the first call, when the namespace is complete)."""
    _namespace[:] = [namespace]


def namespace():
    """The lazynum namespace (the module ``import lazynum`` gives)."""
    return _namespace[0]


def _build_table(namespace) -> None:
    table = {}
    for name in namespace.__all__:
        ours, theirs = getattr(namespace, name), getattr(np, name, None)
        # ``ours is theirs``: lazynum re-exports NumPy's own function (can_cast): mapping it
        # to itself would dispatch forever.
        if callable(theirs) and callable(ours) and not isinstance(theirs, type) \
                and ours is not theirs:
            table[theirs] = ours
    table[np.linalg.norm] = namespace.linalg.norm
    table.update((getattr(np.fft, name), getattr(namespace.fft, name)) for name in namespace.fft.__all__)
    table.update(METADATA)
    # One update (atomic under the GIL): another thread sees the table empty or complete,
    # never half built (a missing entry would send its call to the NumPy fallback).
    _handled.update(table)


def array_function(self, func, types, args, kwargs):
    if not _handled:
        _build_table(_namespace[0])
    ours = _handled.get(func)
    if ours is not None:
        return ours(*args, **kwargs)
    return fallback(f"numpy.{func.__name__}", func, args, kwargs)


# NumPy's generalized ufuncs that lazynum implements as functions (not elementwise ops).
_GUFUNCS = ("matmul", "vecdot", "matvec", "vecmat")


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    if method == "__call__" and ufunc.__name__ in _GUFUNCS and ufunc is getattr(np, ufunc.__name__):
        return getattr(linalg, ufunc.__name__)(*inputs, **kwargs)
    ours = UFUNCS.get(ufunc.__name__)
    if ours is not None and ours._np is ufunc:
        out = kwargs.get("out")
        if isinstance(out, tuple) and len(out) == 1:
            kwargs["out"] = out[0]
        if any(isinstance(o, np.ndarray) for o in (out if isinstance(out, tuple) else (out,))):
            return ufunc_fallback(ufunc, method, inputs, kwargs, numpy_result=True)
        try:
            return getattr(ours, method)(*inputs, **kwargs)
        except NotImplementedError:     # lazynum's ufunc methods fall back themselves
            pass
    return ufunc_fallback(ufunc, method, inputs, kwargs)


ndarray.__array_function__ = array_function
ndarray.__array_ufunc__ = array_ufunc
