"""lazynum: NumPy, lazily.

``import lazynum as np`` runs ordinary NumPy code while recording an expression graph;
values are computed at sync points (``.sync()``, ``.item()``, printing, ``numpy.asarray``,
...) by the configured backend (``LAZYNUM_BACKEND``).  See the README for the full picture.
"""
from __future__ import annotations

import math as _math

import numpy as _np

from . import dtypes as _dtypes
from .arraytype import ndarray
from .settings import config
from .telemetry import metrics, metrics_report, reset_metrics
from .runtime import SyncError
from .dtypes import (bool_, byte, can_cast, double, dtype, finfo, float32, float64, float_,
                     floating, generic, iinfo, inexact, int8, int16, int32, int64, int_, intc,
                     integer, intp, issubdtype, longlong, number, promote_types, short,
                     signedinteger, single, ubyte, uint8, uint16, uint32, uint64, uintc, uintp,
                     ulonglong, unsignedinteger, ushort)
from .creation import *          # noqa: F401,F403
from .manipulation import *      # noqa: F401,F403
from .joining import *           # noqa: F401,F403
from .padding import *           # noqa: F401,F403
from .indexing import *          # noqa: F401,F403
from .advanced_indexing import *  # noqa: F401,F403
from .reductions import *        # noqa: F401,F403
from .mathfuncs import *         # noqa: F401,F403
from .linalg import *            # noqa: F401,F403
from .sorting import *           # noqa: F401,F403
from .memory import *            # noqa: F401,F403
from .ufuncs import UFUNCS as _UFUNCS, ufunc
from . import methods as _methods, protocols as _protocols  # noqa: F401  (install methods)
from .sync_api import sync, graph_text, graph_dot, graph_hash
from .shape_marks import mark_static, mark_dynamic
from .autograd import grad, value_and_grad, vjp, jvp  # noqa: F401

bool = _np.bool_  # noqa: A001  (NumPy 2 exports np.bool)
result_type = _dtypes.result_type
newaxis = None
pi, e, inf, nan, euler_gamma = _math.pi, _math.e, _math.inf, _math.nan, _np.euler_gamma
globals().update(_UFUNCS)
exceptions = _np.exceptions
AxisError = _np.exceptions.AxisError

from . import creation as _c, manipulation as _m, joining as _j, padding as _p, indexing as _i, \
    advanced_indexing as _a, reductions as _r, mathfuncs as _f, linalg as _l, sorting as _s, \
    memory as _mem  # noqa: E402

from .bounded import BoundedArray, LazySize, bound_shape, get_dim_size, set_dim_size  # noqa: E402
from .bounded.dispatch import install as _install_bounded  # noqa: E402
import sys as _sys  # noqa: E402

_install_bounded(_sys.modules[__name__])

__version__ = "0.1.0"
__all__ = sorted(set(
    [n for mod in (_c, _m, _j, _p, _i, _a, _r, _f, _l, _s, _mem)
     for n in getattr(mod, "__all__", [])]
    + list(_UFUNCS) + ["ndarray", "sync", "config", "metrics", "metrics_report", "reset_metrics",
                       "newaxis", "pi", "e", "inf", "nan", "dtype", "finfo", "iinfo", "result_type",
                       "can_cast", "promote_types", "issubdtype", "SyncError", "BoundedArray",
                       "bound_shape", "get_dim_size", "set_dim_size", "mark_static",
                       "mark_dynamic"]))
_protocols.install_numpy_outs(_sys.modules[__name__])   # after __all__ and the bounded forms


# lazynum's own API beside NumPy's names (README, docs/): what ``dir(lazynum)`` adds to NumPy's.
_OWN_API = ("BoundedArray", "LazySize", "SyncError", "bound_shape", "config", "get_dim_size", "grad",
            "graph_dot", "graph_hash", "graph_text", "jvp", "mark_dynamic", "mark_static", "metrics",
            "metrics_report", "reset_metrics", "set_dim_size", "sync", "value_and_grad", "vjp")


def __dir__():
    """NumPy's public names (each resolves: lazily, or as a counted fallback) and lazynum's
    own API; never the modules lazynum is built from."""
    return sorted({n for n in dir(_np) if not n.startswith("_")} | set(_OWN_API) | {"__version__"})


def __getattr__(name):
    """NumPy names lazynum has no lazy version of resolve to counted NumPy fallbacks
    (resolved once: the result is cached in the module's globals)."""
    if name.startswith("__"):
        raise AttributeError(f"module 'lazynum' has no attribute {name!r}")
    from .fallbacks import resolve
    try:
        value = resolve(_np, name, "numpy")
    except AttributeError:
        raise AttributeError(f"module 'lazynum' has no attribute {name!r}") from None
    globals()[name] = value
    return value
