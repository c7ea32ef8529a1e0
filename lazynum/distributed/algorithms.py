"""Extern ops that run as Dask's own distributed algorithms (or Dask's own moves of blocks).

``HANDLERS[name](node, arrays)`` gives the Dask array of extern node ``node`` whose operands
are the Dask arrays ``arrays``, or raises ``Unsupported`` saying why it cannot:

- ``matmul`` (``dot``, ``tensordot``), ``einsum``, ``concatenate``, ``cumsum``/``cumprod``:
  Dask's algorithms.
- ``sort`` along an axis: Dask rechunks the axis to one chunk (each block then holds whole
  lines; a 1-D array is gathered into one task) and each block is sorted by NumPy with the
  same ``kind`` (so ties and NaNs order as NumPy's sort of the whole line).
- ``compact`` (a boolean selection's rows moved to the front, as ``unique`` makes after a
  sort): only where the rows are in one chunk already (after a sort), a NumPy call there;
  over rows split across blocks, its size is data-dependent and Dask would need unknown
  chunks, so it is refused.
- ``top_k``: a 1-D sort read only at one end (``numpy.sort(x)[-k:]``, ``[:k]``,
  ``[::-1][:k]``) is ``dask.array.topk``: per-block partitions, one small merge; the full
  sort is never made (``partition`` recognizes the view).
"""
from __future__ import annotations

import numpy as np

from ..expr.registry import lookup


class Unsupported(Exception):
    """This op's operands have no Dask form for it; the message says why."""


def _matmul(node, arrays):
    import dask.array as da
    return da.matmul(*arrays)


def _einsum(node, arrays):
    import dask.array as da
    return da.einsum(node.attrs[0], *arrays)


def _concatenate(node, arrays):
    import dask.array as da
    return da.concatenate(arrays, axis=node.attrs[0])


def _cumulative(name):
    def run(node, arrays):
        import dask.array as da
        return getattr(da, name)(arrays[0], axis=node.attrs[0])
    return run


def _sort(node, arrays):
    (array,) = arrays
    axis, kind = node.attrs[0], node.attrs[1]
    if len(array.chunks[axis]) > 1:
        array = array.rechunk({axis: -1})
    return array.map_blocks(np.sort, axis=axis, kind=kind, dtype=array.dtype)


def _compact_rows(values, keep):
    return lookup("compact").reference([values, keep], ())


def _compact(node, arrays):
    import dask.array as da
    values, keep = arrays
    if len(values.chunks[0]) > 1:
        raise Unsupported(" (a selection's rows split across blocks: its size is data-"
                          "dependent; reduce it instead, x[x > t].sum(), or sort first)")
    index = tuple(f"i{d}" for d in range(values.ndim))
    return da.blockwise(_compact_rows, index, values, index, keep.rechunk(-1), index[:1],
                        dtype=values.dtype, concatenate=True)


def top_k(array, index: slice):
    """``numpy.sort(array)[index]`` for a 1-D Dask array and a slice that keeps one end of
    the sorted order (see ``end_slice``), by ``dask.array.topk``."""
    import dask.array as da
    n = array.shape[0]
    start, stop, step = index.indices(n)
    if step == 1 and start == 0:
        return da.topk(array, -stop)                       # the smallest, ascending
    if step == 1:
        return da.topk(array, n - start)[::-1]             # the largest, ascending
    return da.topk(array, len(range(start, stop, step)))  # the largest, descending


def end_slice(n: int, index) -> bool:
    """Whether ``index`` (a view's slice of a length-``n`` sorted array) keeps a strict
    prefix or suffix of it in order, or its largest values in reverse."""
    if not isinstance(index, slice):
        return False
    start, stop, step = index.indices(n)
    length = len(range(start, stop, step))
    if not 0 < length < n:
        return False
    return (step == 1 and (start == 0 or stop == n)) or (step == -1 and start == n - 1)


HANDLERS = {"matmul": _matmul, "einsum": _einsum, "concatenate": _concatenate,
            "cumsum": _cumulative("cumsum"), "cumprod": _cumulative("cumprod"),
            "sort": _sort, "compact": _compact}
