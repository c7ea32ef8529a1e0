"""``unique`` without a sync: sort, mark the first of each run, compact.

The values are the compacted first elements of the sorted array (NaNs collapse into one,
NumPy's ``equal_nan=True``); ``return_index`` compacts the stable sort's permutation;
``return_counts`` differences the compacted run starts; ``return_inverse`` scatters the
run numbers back through the permutation.  Padding (of a bounded input) sorts last and is
never a run start.
"""
from __future__ import annotations

import operator

import numpy as np

from ..frontend import creation, joining, mathfuncs, reductions, sorting, ufuncs
from ..expr import dtypes
from ..array.conversion import to_array
from ..expr.combines import highest
from .array import BoundedArray
from .producers import _compact, _static as static_prefix


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, size=None, fill_value=None):
    """Lazy ``numpy.unique`` for ``axis=None`` (bounded results).

    ``size``/``fill_value`` (JAX's keywords) give static-shape results instead: the first
    ``size`` unique values, the rest ``fill_value`` (default: the smallest unique value).
    """
    if isinstance(ar, BoundedArray) and ar.ndim != 1:
        ar = ar.materialize()
    values, valid, n = _flat_input(ar)
    order, ordered = _sorted(values, return_index, return_inverse, valid is not None)
    # padding is the largest value, after the true elements in the input: sorted, it is last
    live = creation.arange(n) < ar._sizes[0] if valid is not None else None
    first = _run_starts(ordered, equal_nan)
    if live is not None:
        first = first & live
    uniques, count = _compact(ordered, first)
    out = [BoundedArray(uniques, (count,))]
    if return_index:
        out.append(BoundedArray(_compact(order, first)[0], (count,)))
    if return_inverse:
        run = reductions.cumsum(first.astype(dtypes.INT64)) - 1
        inverse = creation.zeros(n, dtype=np.int64)
        inverse[order] = run
        # a bounded input's inverse is bounded like it (its padding maps past the runs)
        out.append(BoundedArray(inverse, ar._sizes) if isinstance(ar, BoundedArray)
                   else inverse.reshape(ar.shape))
    if return_counts:
        out.append(BoundedArray(_counts(first, count, valid, n), (count,)))
    if size is not None:
        out = [_static(o, size, fill_value, uniques) if isinstance(o, BoundedArray) else o for o in out]
    return out[0] if len(out) == 1 else tuple(out)


def _sorted(values, return_index, return_inverse, padded):
    """(permutation or None, sorted values), sorted as NumPy's unique sorts: the first of
    each run of equal values is its result (-0.0 or 0.0, which NaN), so the algorithm is
    NumPy's.  A stable argsort with ``return_index`` (the first occurrences), a quicksort
    argsort with ``return_inverse``, else a plain sort (which writes NaNs as NumPy's sort
    does).  A padded (bounded) input's permutation is stable: its padding NaNs stay after
    the true ones, so the inverse keeps each true NaN's run (NumPy's quicksort of the
    true-size data has no equal on padded data anyway)."""
    if not (return_index or return_inverse):
        return None, sorting.sort(values)
    stable = return_index or padded
    order = sorting.argsort(values, kind="stable" if stable else "quicksort")
    return order, values.take(order)


def _flat_input(ar):
    if isinstance(ar, BoundedArray):
        valid = ar.valid_mask()
        # padding sorts last: NaN (complex: NaN in both parts, after every NaN NumPy sorts)
        last = {"f": np.nan, "c": complex(np.nan, np.nan)}.get(ar.dtype.kind, None)
        last = highest(ar.dtype) if last is None else last
        values = mathfuncs.where(valid, ar._data, np.array(last, dtype=ar.dtype))
        return values, valid, int(ar._data.shape[0])
    values = to_array(ar).reshape(-1)
    return values, None, values.shape[0]


def _run_starts(ordered, equal_nan):
    n = ordered.shape[0]
    if not n:
        return creation.zeros(0, dtype=bool)
    differs = ordered[1:] != ordered[:-1]
    if equal_nan and ordered.dtype.kind in "fc":     # (a complex value with a NaN part is NaN)
        differs = differs & ~(ufuncs.UFUNCS['isnan'](ordered[1:]) & ufuncs.UFUNCS['isnan'](ordered[:-1]))
    return joining.concatenate([creation.ones(1, dtype=bool), differs])


def _counts(first, count, valid, n):
    starts, _ = _compact(creation.arange(n), first)
    total = n if valid is None else valid.astype(dtypes.INT64).sum()
    if not n:
        return starts
    following = joining.concatenate([starts[1:], creation.zeros(1, dtype=np.int64)])
    following = mathfuncs.where(creation.arange(n) == count - 1, total, following)
    return following - starts


def _static(result: BoundedArray, size, fill_value, uniques):
    """The first ``size`` entries, then ``fill_value`` (default: the smallest unique value)."""
    if fill_value is None:
        fill_value = uniques[0] if int(uniques.shape[0]) else 0
    return static_prefix(result, operator.index(size), fill_value)
