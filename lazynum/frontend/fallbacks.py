"""NumPy functions lazynum has no lazy version of: computed by NumPy, visibly.

``import lazynum as np`` must run ordinary NumPy code, including the long tail of functions
(``np.percentile``, ``np.linalg.inv``, ``np.random.rand``, ...).  Those resolve here to
wrappers that sync their lazy arguments, call NumPy, count the fallback in the metrics
(with the user's line), log it (``LAZYNUM_LOGS=fallback``) and return lazynum arrays.
"""
from __future__ import annotations

import functools
import types

import numpy as np

from .protocols import METADATA, fallback

# Names NumPy exports that must not be wrapped: types, constants and modules are returned
# as they are (a dtype class or np.errstate works unchanged on either side).


def numpy_function(function, qualified_name: str):
    """A wrapper running NumPy's ``function`` as a counted fallback."""
    @functools.wraps(function)
    def run_with_numpy(*args, **kwargs):
        return fallback(qualified_name, function, args, kwargs)
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


def resolve(module, name: str, prefix: str):
    """``module.name`` as lazynum exposes it (AttributeError if NumPy has no such name).

    Callers cache the result (so ``lazynum.random is lazynum.random``).  NumPy functions
    that only read metadata (``numpy.shape``, ...) are exposed as they are: on lazynum arrays
    they dispatch to ``protocols.METADATA`` (no sync, no fallback).
    """
    value = getattr(module, name)    # AttributeError for names NumPy lacks, as NumPy's own
    if isinstance(value, types.ModuleType):
        return NumpySubmodule(value) if value.__name__.startswith("numpy.") else value
    if any(value is function for function in METADATA):
        return value
    if callable(value) and not isinstance(value, type) and not isinstance(value, np.ufunc):
        return numpy_function(value, f"{prefix}.{name}")
    return value
