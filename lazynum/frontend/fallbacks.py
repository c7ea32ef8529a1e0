"""NumPy functions lazynum has no lazy version of: computed by NumPy, visibly.

``fallback`` is the one path for them, from the namespace (``resolve``) and from NumPy's
dispatch protocols (``protocols``) alike; ``METADATA`` holds the NumPy functions that only
read shapes and dtypes (``can_cast``, ``shape``, ``ndim``, ...): on lazynum arrays they
answer from the metadata, without a sync or a fallback.

``import lazynum as np`` must run ordinary NumPy code, including the long tail of functions
(``np.percentile``, ``np.linalg.inv``, ``np.random.rand``, ...).  Those resolve here to
wrappers that sync their lazy arguments, call NumPy, count the fallback in the metrics
(with the user's line), log it (``LAZYNUM_LOGS=fallback``) and return lazynum arrays.
"""
from __future__ import annotations

import functools
import types

import numpy as np

from ..control import telemetry as metrics
from ..array import extension
from ..array.arraytype import ndarray, wrap
from ..array.conversion import numpy_constant
from ..expr import dtypes
from ..runtime import sync_nodes

# Names NumPy exports that must not be wrapped: types, constants and modules are returned
# as they are (a dtype class or np.errstate works unchanged on either side).


def numpy_function(function, qualified_name: str):
    """A wrapper running NumPy's ``function`` as a counted fallback."""
    @functools.wraps(function)
    def run_with_numpy(*args, **kwargs):
        return fallback(qualified_name, function, args, kwargs)
    run_with_numpy.__lazynum_fallback__ = qualified_name      # the census reads this
    run_with_numpy.__doc__ = (f"NumPy's ``{qualified_name}`` (no lazy version: syncs its array "
                              f"arguments and counts a fallback).\n\n" + (function.__doc__ or ""))
    return run_with_numpy


class NumpySubmodule(types.ModuleType):
    """``lazynum.random``, ``lazynum.fft``, ...: NumPy's submodule, functions as fallbacks."""

    def __init__(self, module):
        super().__init__(f"lazynum.{module.__name__.split('.', 1)[1]}", module.__doc__)
        self._numpy_module = module

    def __getattr__(self, name):
        """Resolve NumPy's ``name`` once; later lookups find it in the module's ``__dict__``."""
        value = resolve(self._numpy_module, name, self.__name__.replace("lazynum", "numpy", 1))
        self.__dict__[name] = value
        return value

    def __dir__(self):
        return dir(self._numpy_module)


def module_getattr(numpy_module, prefix: str):
    """A module ``__getattr__`` for a lazynum package standing for ``numpy_module``: names it
    does not define resolve as ``resolve`` gives them, once (``lazynum.lib``, ``lazynum.random``)."""
    resolved: dict = {}

    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name not in resolved:
            resolved[name] = resolve(numpy_module, name, prefix)
        return resolved[name]
    return __getattr__


def resolve(module, name: str, prefix: str):
    """``module.name`` as lazynum exposes it (AttributeError if NumPy has no such name).

    Callers cache the result (so ``lazynum.random is lazynum.random``).  NumPy functions
    that only read metadata (``numpy.shape``, ...) are exposed as they are: on lazynum arrays
    they dispatch to ``METADATA`` (no sync, no fallback).
    """
    value = getattr(module, name)    # AttributeError for names NumPy lacks, as NumPy's own
    if isinstance(value, types.ModuleType):
        return NumpySubmodule(value) if value.__name__.startswith("numpy.") else value
    if any(value is function for function in METADATA):
        return value
    if callable(value) and not isinstance(value, type) and not isinstance(value, np.ufunc):
        return numpy_function(value, f"{prefix}.{name}")
    return value


# -- functions that need only shapes and dtypes -----------------------------------------------
def _can_cast(from_, to, casting="safe"):
    if isinstance(to, ndarray):
        raise TypeError("Cannot construct a dtype from an array")     # as for NumPy's arrays
    return np.can_cast(from_.dtype if isinstance(from_, ndarray) else from_, to, casting)


def _min_scalar_type(a):
    if a.ndim == 0:             # value-based for a scalar: NumPy needs the value
        return fallback("numpy.min_scalar_type", np.min_scalar_type, (a,), {})
    return a.dtype              # an array's own dtype, as NumPy gives it


# NumPy function -> implementation answering from metadata (NumPy's own Python code where it
# only reads ``.shape``/``.ndim``/``.dtype``).  lazynum exposes these NumPy functions as they are.
METADATA = {
    np.can_cast: _can_cast,
    np.min_scalar_type: _min_scalar_type,
    np.shape: np.shape._implementation,
    np.ndim: np.ndim._implementation,
    np.size: np.size._implementation,
    np.common_type: np.common_type._implementation,
}


# -- fallbacks --------------------------------------------------------------------------------
def _collect(value, found: dict) -> None:
    """The lazy arrays in ``value`` (nested lists, tuples and dicts), by id (NumPy-backed
    ones too: they need no sync)."""
    if isinstance(value, ndarray):
        found.setdefault(id(value), value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _collect(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _collect(item, found)


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.itemsize in (1, 2, 4, 8):      # bitwise: -0.0 vs 0.0 and NaN payloads count
        unsigned = np.dtype(f"u{a.dtype.itemsize}")
        return bool(np.array_equal(a.view(unsigned), b.view(unsigned)))
    return a.tobytes() == b.tobytes()


def _window_copy(array, node, windows: dict, readonly: bool) -> np.ndarray:
    """A NumPy copy of ``array``; arrays that are the same window of one storage (``v`` and
    ``broadcast_to(v, v.shape)``) get views of one buffer, since NumPy compares data
    pointers (``copyto(view, base)`` of one window is a no-op, even into a read-only view)."""
    key = None
    if array._view is not None:
        key = (id(array._view.storage), array._view.layout, array.dtype)
    base = windows.get(key)
    copy = np.array(node.buffer) if base is None else base.view()
    if key is not None and base is None:
        windows[key] = copy
    if readonly:                # a read-only view of the buffer: later windows may write it
        copy = copy.view()
        copy.flags.writeable = False
    return copy


class _Copies:
    """Private NumPy copies of the lazy arguments of one fallback call.

    Every lazy argument is synced in one ``sync_nodes`` call; an argument passed twice gets
    one copy (so NumPy sees the aliasing it would see); read-only lazy views get read-only
    copies (so NumPy raises its own "read-only" error where it would write into one).
    """

    def __init__(self, *values):
        found: dict = {}
        for value in values:
            _collect(value, found)
        self.copy_of: dict = {}         # id(lazy) -> copy
        self.lazy_of: dict = {}         # id(copy) -> lazy
        self.numpy_backed = []          # NumPy-backed arguments: NumPy gets their own array
        for array in [a for a in found.values() if extension.is_numpy_backed(a)]:
            del found[id(array)]
            data = array.__lazynum_numpy__()
            self.numpy_backed.append(data)
            self.copy_of[id(array)], self.lazy_of[id(data)] = data, array
        arrays = list(found.values())
        nodes = [array._n() for array in arrays]
        sync_nodes(nodes, "fallback")
        self.entries = []               # (lazy array, synced value, NumPy copy)
        windows: dict = {}              # (storage, layout, dtype) -> the copy it got
        for array, node in zip(arrays, nodes):
            readonly = array._view is not None and array._view.readonly
            copy = _window_copy(array, node, windows, readonly)
            if not readonly:
                self.entries.append((array, node.buffer, copy))
            self.copy_of[id(array)] = copy
            self.lazy_of[id(copy)] = array

    def to_numpy(self, value):
        if isinstance(value, ndarray):
            return self.copy_of[id(value)]
        if isinstance(value, (list, tuple)):
            return type(value)(self.to_numpy(v) for v in value)
        if isinstance(value, dict):
            return {k: self.to_numpy(v) for k, v in value.items()}
        return value

    def write_back(self) -> None:
        """Store what NumPy wrote into a copy back into its lazy array (a lazy write)."""
        for array, synced, copy in self.entries:
            if copy.shape == synced.shape and copy.dtype == synced.dtype \
                    and not _same_bits(copy, synced):
                array[...] = copy

    def from_numpy(self, value, wrap_new=True):
        """NumPy's result for the caller: a copy NumPy returned (``out=``) is its lazy array;
        other numeric arrays become new lazy arrays (unless ``wrap_new`` is false)."""
        if isinstance(value, np.ndarray):
            lazy = self.lazy_of.get(id(value))
            if lazy is not None and self.copy_of[id(lazy)] is value:
                return lazy
            return _wrap_result(value, self.numpy_backed) if wrap_new else value
        if isinstance(value, tuple):
            items = [self.from_numpy(v, wrap_new) for v in value]
            # NumPy's named results (EigResult, SlogdetResult, ...) keep their type and names
            return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
        if isinstance(value, list):
            return [self.from_numpy(v, wrap_new) for v in value]
        return value


def _wrap_result(value, numpy_backed):
    """A new lazy leaf for NumPy's result; of a dtype with no lazy form, a NumPy-backed
    array (``lazynum.eager``: a view of a NumPy-backed argument stays a view of it)."""
    if value.dtype in dtypes.SUPPORTED:
        return wrap(numpy_constant(value))
    if extension.NUMPY_BACKED:
        return extension.hook("numpy_backed")(value, numpy_backed)
    return value


def fallback(name: str, function, args, kwargs, numpy_result=False):
    """Run ``function`` eagerly on synced NumPy copies; count and log the fallback.

    What NumPy writes into a lazy argument is written back to it (even when NumPy raises
    after writing, as NumPy's own array would keep the partial write).  ``numpy_result``
    returns NumPy's new arrays as they are (it wrote into a NumPy ``out=`` array, which the
    caller must get back, as NumPy would return it); a lazy ``out=`` is returned itself.
    """
    metrics.record_fallback(name, metrics.user_frame())
    # Bounded arguments as their true-size views, so they alias the other windows of their
    # storage in the copies (not a second fallback from NumPy's dispatch, on a fresh copy).
    if extension.TYPES:
        materialized = extension.hook("materialized")
        args, kwargs = materialized(args), {k: materialized(v) for k, v in kwargs.items()}
    copies = _Copies(args, kwargs)
    np_args, np_kwargs = copies.to_numpy(args), copies.to_numpy(kwargs)
    try:
        result = function(*np_args, **np_kwargs)
    finally:
        copies.write_back()
    return copies.from_numpy(result, wrap_new=not numpy_result)


def numpy_out(function):
    """Decorator: ``function`` (a front-end function with ``out=`` that NumPy also has) hands
    a NumPy ``out=`` array to NumPy's function of the same name: NumPy writes into it and
    returns it (a counted fallback, as a ufunc's NumPy ``out=`` is), where the lazy version
    could only refuse it."""
    numpy_function = getattr(np, function.__name__)

    @functools.wraps(function)
    def with_numpy_out(*args, **kwargs):
        if isinstance(kwargs.get("out"), np.ndarray):
            return fallback(f"numpy.{function.__name__} into a NumPy out=", numpy_function,
                            args, kwargs, numpy_result=True)
        return function(*args, **kwargs)
    return with_numpy_out


def ufunc_fallback(ufunc: np.ufunc, method: str, inputs, kwargs, numpy_result=False):
    """NumPy's ``ufunc.method`` as a counted fallback (``at`` and ``out=`` write back).

    The one path for ufunc methods lazynum has no lazy version of, from NumPy's
    ``__array_ufunc__`` and from lazynum's own ufunc objects alike.
    """
    suffix = " into a NumPy out=" if numpy_result else ""
    return fallback(f"numpy.{ufunc.__name__}.{method}{suffix}", getattr(ufunc, method), inputs,
                    kwargs, numpy_result=numpy_result)
