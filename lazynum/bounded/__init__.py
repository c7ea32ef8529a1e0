"""Bounded dynamic dims: data-dependent shapes with no host sync and no recompile.

``x[mask]``, ``nonzero``, ``flatnonzero``, ``argwhere``, ``where(cond)``, ``compress`` and
``extract`` on lazy inputs return ``BoundedArray``s: padded data plus a lazy run-time
size per bounded dim.  Reductions, scans, sorts, ufuncs and operators on them stay lazy;
everything else runs on the true-size array after one counted sync (reason ``bounded``).
See ``docs/bounded-dims.md``.
"""
from .array import BoundedArray, LazySize
from .producers import bound_shape, get_dim_size, set_dim_size

__all__ = ["BoundedArray", "LazySize", "bound_shape", "get_dim_size", "set_dim_size"]
