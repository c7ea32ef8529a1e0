"""``lazynum.lib``: ``numpy.lib``'s public modules.  ``stride_tricks`` is lazy (windows are
views, index math in kernels); every other module is NumPy's, its functions running as
counted fallbacks (``lazynum.lib.recfunctions``, ``lazynum.lib.scimath``, ...)."""
from __future__ import annotations

import numpy as np

from ..frontend.fallbacks import resolve
from . import stride_tricks  # noqa: F401

_resolved: dict = {}


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    if name not in _resolved:
        _resolved[name] = resolve(np.lib, name, "numpy.lib")
    return _resolved[name]
