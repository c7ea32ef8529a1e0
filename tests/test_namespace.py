"""The public namespace is NumPy's: ``dir(lazynum)`` is NumPy's public names plus lazynum's
documented API, never the modules lazynum is built from."""
import warnings

import numpy as np

import lazynum as lnp

# lazynum's own documented API (README: Quick example, Gradients, bounded dims, Configuration)
OWN_API = {"BoundedArray", "LazySize", "SyncError", "bound_shape", "config", "get_dim_size", "grad",
           "graph_dot", "graph_hash", "graph_text", "jvp", "mark_dynamic", "mark_static", "metrics",
           "metrics_report", "reset_metrics", "set_dim_size", "sync", "value_and_grad", "vjp",
           "from_dask", "from_npy", "from_zarr", "to_dask"}
INTERNALS = {"advanced_indexing", "arraytype", "autograd", "backends", "bounded", "compile",
             "conversion", "creation", "expr", "fallbacks", "fastpath", "indexing", "joining",
             "layout", "manipulation", "mathfuncs", "memory", "methods", "padding", "protocols",
             "reductions", "runtime", "settings", "shape_marks", "sorting", "sync_api",
             "telemetry", "ufuncs", "annotations"}


def test_dir_is_numpys_public_names_and_lazynums_own_api():
    numpy_public = {n for n in dir(np) if not n.startswith("_")}
    assert set(dir(lnp)) == numpy_public | OWN_API | {"__version__"}
    assert not INTERNALS & set(dir(lnp))


def test_every_name_in_dir_resolves():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        missing = [name for name in dir(lnp) if not hasattr(lnp, name)]
    assert missing == []
