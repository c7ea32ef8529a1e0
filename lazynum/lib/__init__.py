"""``lazynum.lib``: ``numpy.lib``'s public modules.  ``stride_tricks`` is lazy (windows are
views, index math in kernels); every other module is NumPy's, its functions running as
counted fallbacks (``lazynum.lib.recfunctions``, ``lazynum.lib.scimath``, ...)."""
from __future__ import annotations

import numpy as np

from ..frontend.fallbacks import module_getattr
from . import stride_tricks  # noqa: F401

__getattr__ = module_getattr(np.lib, "numpy.lib")   # NumPy's other names, resolved once
