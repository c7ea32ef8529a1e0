"""lazynum: NumPy, lazily.

``import lazynum as np`` runs ordinary NumPy code while recording an expression graph;
values are computed at sync points (``.sync()``, ``.item()``, printing, ``numpy.asarray``,
...) by the configured backend (``LAZYNUM_BACKEND``).  See the README for the full picture.
"""
from __future__ import annotations

import math as _math

import numpy as _np

from .expr import dtypes as _dtypes
from .array.arraytype import ndarray
from .control.settings import config
from .control import heap as _heap, settings as _settings
from .control.telemetry import metrics, metrics_report, reset_metrics
from .runtime import SyncError

_heap.apply(_settings.get().heap)
from .expr.dtypes import (bool_, byte, can_cast, cdouble, complex64, complex128, complexfloating,
    csingle, double, dtype, finfo, float16, float32, float64, float_, floating, half, generic, iinfo, inexact, int8, int16, int32, int64, int_, intc, integer, intp,
    issubdtype, longlong, number, promote_types, short, signedinteger, single, ubyte, uint8,
    uint16, uint32, uint64, uintc, uintp, ulonglong, unsignedinteger, ushort)
from .frontend.creation import *          # noqa: F401,F403
from .frontend.manipulation import *      # noqa: F401,F403
from .frontend.joining import *           # noqa: F401,F403
from .frontend.padding import *           # noqa: F401,F403
from .frontend.indexing.basic import *          # noqa: F401,F403
from .frontend.indexing.advanced import *  # noqa: F401,F403
from .frontend.reductions import *        # noqa: F401,F403
from .frontend.mathfuncs import *         # noqa: F401,F403
from .frontend.linalg import *            # noqa: F401,F403
from .frontend.sorting import *           # noqa: F401,F403
from .frontend.binning import *           # noqa: F401,F403
from .frontend.counting import *          # noqa: F401,F403
from .frontend.statistics import *        # noqa: F401,F403
from .frontend.selecting import *         # noqa: F401,F403
from .frontend.series import *            # noqa: F401,F403
from .frontend.memory import *            # noqa: F401,F403
from .frontend.setops import *            # noqa: F401,F403
from .frontend.assigning import *         # noqa: F401,F403
from .frontend.windows import *           # noqa: F401,F403
from .frontend.index_grids import *       # noqa: F401,F403
from .frontend.editing import *           # noqa: F401,F403
from .frontend.array_api import *         # noqa: F401,F403
from .frontend.blocking import *          # noqa: F401,F403
from .frontend.requirements import *      # noqa: F401,F403
from .frontend.floating_point import *   # noqa: F401,F403
from .frontend.contraction_order import *  # noqa: F401,F403
from .frontend.polynomials import *       # noqa: F401,F403
from .frontend.bits import *              # noqa: F401,F403
from .frontend.bessel import *            # noqa: F401,F403
from .frontend.binning_nd import *        # noqa: F401,F403
from .frontend.ufuncs import UFUNCS as _UFUNCS, ufunc
from .frontend import methods as _methods, protocols as _protocols  # noqa: F401  (install methods)
from .frontend.sync_api import sync, graph_text, graph_dot, graph_hash
from .frontend.shape_marks import mark_static, mark_dynamic
from .autograd import grad, value_and_grad, vjp, jvp  # noqa: F401

bool = _np.bool_  # noqa: A001  (NumPy 2 exports np.bool)
result_type = _dtypes.result_type
newaxis = None
pi, e, inf, nan, euler_gamma = _math.pi, _math.e, _math.inf, _math.nan, _np.euler_gamma
globals().update(_UFUNCS)
exceptions = _np.exceptions
AxisError = _np.exceptions.AxisError

from .frontend import (creation as _c, manipulation as _m, joining as _j, padding as _p,
    reductions as _r, mathfuncs as _f, linalg as _l, sorting as _s, memory as _mem, binning as _b,
    statistics as _st, selecting as _sel, series as _ser, setops as _set, assigning as _asg,
    windows as _win, index_grids as _grid, editing as _edit, array_api as _api,
    blocking as _blk, requirements as _req, contraction_order as _order,
    polynomials as _poly, bits as _bits, bessel as _bessel,
    binning_nd as _bin_nd)
from .frontend.indexing import basic as _i, advanced as _a  # noqa: E402
from .frontend.fallbacks import resolve as _resolve  # noqa: E402
from .frontend import linalg  # noqa: E402  (lazynum.linalg: its functions, NumPy's others as fallbacks)
from .frontend import fft  # noqa: E402  (lazynum.fft: numpy.fft's transforms as extern steps)
from . import lib  # noqa: E402  (lazynum.lib: stride_tricks lazily, NumPy's other modules)
from . import random  # noqa: E402  (lazynum.random: lazy draws with NumPy's streams)

from .bounded import BoundedArray, LazySize, bound_shape, get_dim_size, set_dim_size  # noqa: E402
from .bounded.dispatch import install as _install_bounded  # noqa: E402
import sys as _sys  # noqa: E402

_install_bounded(_sys.modules[__name__])
from .distributed import from_dask, from_npy, from_zarr, to_dask, install as _install_distributed  # noqa: E402
_install_distributed()      # Dask arrays convert to distributed inputs (Dask is imported on use)
_protocols.use_namespace(_sys.modules[__name__])

from .control.version import __version__  # noqa: E402
__all__ = sorted(set(
    [n for mod in (_c, _m, _j, _p, _i, _a, _r, _f, _l, _s, _mem, _b, _st, _sel, _ser, _set, _asg,
                   _win, _grid, _edit, _api, _blk, _req, _order, _poly, _bits,
                   _bessel, _bin_nd)
     for n in getattr(mod, "__all__", [])]
    + list(_UFUNCS) + ["ndarray", "sync", "config", "metrics", "metrics_report", "reset_metrics",
                       "newaxis", "pi", "e", "inf", "nan", "dtype", "finfo", "iinfo", "result_type",
                       "can_cast", "promote_types", "issubdtype", "SyncError", "BoundedArray",
                       "bound_shape", "get_dim_size", "set_dim_size", "mark_static",
                       "mark_dynamic", "from_dask", "from_npy", "from_zarr", "to_dask"]))



from .eager.dispatch import install as _install_eager  # noqa: E402
_install_eager(_sys.modules[__name__])      # dtypes with no lazy form: NumPy-backed arrays
from .frontend.immediate_forms import install as _install_immediate_forms  # noqa: E402
_install_immediate_forms(_sys.modules[__name__])    # small computed arrays: NumPy's call, now

# lazynum's own API beside NumPy's names (README, docs/): what ``dir(lazynum)`` adds to NumPy's.
_OWN_API = ("BoundedArray", "LazySize", "SyncError", "bound_shape", "config", "from_dask",
            "from_npy", "from_zarr", "get_dim_size", "grad", "graph_dot", "graph_hash",
            "graph_text", "jvp",
            "mark_dynamic", "mark_static", "metrics", "metrics_report", "reset_metrics",
            "set_dim_size", "sync", "to_dask", "value_and_grad", "vjp")


def __dir__():
    """NumPy's public names (each resolves: lazily, or as a counted fallback) and lazynum's
    own API; never the modules lazynum is built from."""
    return sorted({n for n in dir(_np) if not n.startswith("_")} | set(_OWN_API) | {"__version__"})


def __getattr__(name):
    """NumPy names lazynum has no lazy version of resolve to counted NumPy fallbacks
    (resolved once: the result is cached in the module's globals)."""
    if name.startswith("__"):
        raise AttributeError(f"module 'lazynum' has no attribute {name!r}")
    try:
        value = _resolve(_np, name, "numpy")
    except AttributeError:
        raise AttributeError(f"module 'lazynum' has no attribute {name!r}") from None
    globals()[name] = value
    return value
