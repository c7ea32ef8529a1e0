"""Sorting and searching: ``sort``, ``argsort``, ``ndarray.sort``, ``lexsort``,
``searchsorted`` and ``unique`` (with the array-API ``unique_*`` functions).

``sort``/``argsort``/``searchsorted`` are extern primitives (a fusion boundary, not a
sync).  The algorithm NumPy would use travels as an attr, so results, including the order
of ties in ``argsort``, are NumPy's exactly; NaNs sort last, as in NumPy.  ``unique`` has a
data-dependent output shape: until bounded dims land it syncs its input (reason
``"unique"``, counted in the metrics), asks NumPy, and returns lazy arrays.
"""
from __future__ import annotations

import numpy as np

from ..array.extension import extensible
from ..expr import dtypes
from ..array import layout as layouts
from ..array.arraytype import layout_of, ndarray, wrap, wrap_ordered, wrap_scalar
from ..array.conversion import cast, numpy_constant, to_array, to_node
from ..expr import node as nodes
from ..expr.extern import ARGSORT, SEARCHSORTED, SORT
from ..expr.indexing import CHECK_INDEX, TAKE, TAKE_ALONG_AXIS
from ..expr.shapes import normalize_axis
from .manipulation import ravel

__all__ = ["sort", "argsort", "lexsort", "searchsorted", "unique", "unique_values",
           "unique_counts", "unique_inverse", "unique_all", "sort_complex"]

_apply = nodes.apply
# NumPy reads a sort kind by its first letter; "mergesort" and "stable" are one algorithm.
_KINDS = {"q": "quicksort", "h": "heapsort", "m": "stable", "s": "stable"}


def _kind(kind, stable) -> str:
    """The algorithm NumPy would run for ``kind``/``stable`` (its errors included)."""
    if stable is not None:
        if kind is not None:
            raise ValueError("`kind` and keyword parameters can't be provided at the same time. "
                             "Use only one of them.")
        return "stable" if stable else "quicksort"
    if kind is None:
        return "quicksort"
    if not isinstance(kind, str):
        raise TypeError(f"sort kind must be str, not {type(kind).__name__}")
    name = _KINDS.get(kind[:1].lower())
    if name is None:
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")
    return name


def _check_order(order):
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")


def _prepare(a, axis):
    """(node, non-negative axis); ``axis=None`` sorts the flattened array."""
    a = to_array(a)
    if axis is None:
        return ravel(a)._n(), 0
    return a._n(), normalize_axis(axis, a.ndim)


@extensible('sort')
def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    """Return a sorted copy of an array (``numpy.sort``).

    Parameters
    ----------
    a : array_like
        Array to sort.
    axis : int or None, optional
        Axis to sort along (default -1); ``None`` sorts the flattened array.
    kind : {'quicksort', 'mergesort', 'heapsort', 'stable'}, optional
        Sorting algorithm (NumPy's default when None).
    order : None
        Only for structured arrays, which lazynum does not have.
    stable : bool, optional
        ``True`` asks for a stable sort (exclusive with ``kind``).

    Returns
    -------
    lazynum.ndarray
        Sorted copy of the same dtype and shape; NaNs last.

    Raises
    ------
    numpy.exceptions.AxisError
        ``axis`` out of range (including any int axis of a 0-d array).
    ValueError
        Unknown ``kind``, or ``kind`` and ``stable`` both given.
    """
    name = _kind(kind, stable)
    _check_order(order)
    a = to_array(a)
    node, ax = _prepare(a, axis)
    # NumPy sorts a copy made in order 'K', so the result keeps a's memory order.
    memory = None if axis is None else layout_of(a)
    return wrap_ordered(_apply(SORT, (node,), (ax, name)),
                        memory and layouts.new_array_order(memory, "K"))


@extensible('argsort')
def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    """Indices that would sort an array (``numpy.argsort``).

    Parameters
    ----------
    a : array_like
        Array to sort.
    axis : int or None, optional
        Axis to sort along (default -1); ``None`` uses the flattened array.
    kind : {'quicksort', 'mergesort', 'heapsort', 'stable'}, optional
        Sorting algorithm; the order of ties is NumPy's for the same algorithm.
    order : None
        Only for structured arrays.
    stable : bool, optional
        ``True`` asks for a stable sort (ties keep their original order).

    Returns
    -------
    lazynum.ndarray
        ``int64`` indices with the shape of ``a`` (flattened for ``axis=None``; a 0-d ``a``
        gives shape ``(1,)``, as in NumPy).
    """
    name = _kind(kind, stable)
    _check_order(order)
    a = to_array(a)
    if a.ndim == 0 and axis is not None:     # NumPy argsorts a 0-d array as a 1-d one
        normalize_axis(axis, 1)
        axis = None
    node, ax = _prepare(a, axis)
    return wrap(_apply(ARGSORT, (node,), (ax, name)))


def method_sort(self, axis=-1, kind=None, order=None, *, stable=None):
    """``ndarray.sort``: sort in place, so every view of the same data sees the result.

    Parameters
    ----------
    axis : int, optional
        Axis to sort along (default -1); ``None`` is a TypeError, as in NumPy.
    kind, order, stable
        As in ``lazynum.sort``.

    Raises
    ------
    ValueError
        If the array is read-only.
    """
    name = _kind(kind, stable)
    _check_order(order)
    if axis is None:
        raise TypeError("'NoneType' object cannot be interpreted as an integer")
    ax = normalize_axis(axis, self.ndim)
    self._write(self._layout(), _apply(SORT, (self._n(),), (ax, name)))


def lexsort(keys, axis=-1):
    """Indirect stable sort on several keys (``numpy.lexsort``); the last key is primary.

    Parameters
    ----------
    keys : sequence of array_like, or array
        Keys of one common shape; an array's rows (first axis) are the keys.
    axis : int, optional
        Axis to sort along (default -1).

    Returns
    -------
    lazynum.ndarray
        ``int64`` indices that sort by ``keys[-1]``, then ``keys[-2]``, ...; remaining ties
        keep their original order.

    Raises
    ------
    TypeError
        No keys.
    ValueError
        Keys of different shapes.
    """
    if isinstance(keys, (ndarray, np.ndarray)):
        if keys.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        keys = to_array(keys)
        items = [keys[i] for i in range(keys.shape[0])]
    else:
        items = [to_array(k) for k in keys]
    if not items:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = items[0].shape
    if any(k.shape != shape for k in items):
        raise ValueError("all keys need to be the same shape")
    if not shape:
        normalize_axis(axis, 1)           # NumPy lets 0-d keys take axis -1 or 0
        return wrap(nodes.scalar(0, dtypes.INT64))
    ax = normalize_axis(axis, len(shape))
    order = _apply(ARGSORT, (items[0]._n(),), (ax, "stable"))
    for key in items[1:]:          # least significant first: each pass keeps earlier order
        values = _apply(TAKE_ALONG_AXIS, (key._n(), order), (ax,))
        order = _apply(TAKE_ALONG_AXIS, (order, _apply(ARGSORT, (values,), (ax, "stable"))), (ax,))
    return wrap(order)


def searchsorted(a, v, side="left", sorter=None):
    """Insertion points that keep a sorted 1-d array sorted (``numpy.searchsorted``).

    Parameters
    ----------
    a : array_like
        1-d array, sorted ascending (NaNs last) unless ``sorter`` is given.
    v : array_like
        Values to insert; any shape.
    side : {'left', 'right'}, optional
        Which of equal positions to return.
    sorter : array_like of int, optional
        Indices that sort ``a`` (e.g. from ``argsort``).

    Returns
    -------
    lazynum.ndarray
        ``int64`` indices with the shape of ``v``.

    Raises
    ------
    ValueError
        ``a`` not 1-d, a bad ``side``, or ``sorter`` of the wrong size.
    TypeError
        Non-integer or non-1-d ``sorter``.

    Notes
    -----
    Values are compared in the common dtype of ``a`` and ``v`` (NumPy's rule; Python
    scalars count as NumPy arrays here).  An out-of-range ``sorter`` index is only
    detected when the graph runs, as an IndexError (NumPy raises ValueError).
    """
    if not isinstance(side, str):
        raise TypeError(f"search side must be str, not {type(side).__name__}")
    if side not in ("left", "right"):
        raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")
    a_node = a._n() if type(a) is ndarray else to_node(a)
    v_node = v._n() if type(v) is ndarray else to_node(v)
    if len(a_node.shape) != 1:
        raise ValueError("object too deep for desired array" if a_node.shape else
                         "object of too small depth for desired array")
    if sorter is not None:
        s = to_node(sorter)
        if len(s.shape) != 1:
            raise TypeError("could not parse sorter argument")
        if s.dtype.kind not in "iu":
            raise TypeError("sorter must only contain integers")
        if s.size != a_node.size:
            raise ValueError("sorter.size must equal a.size")
        # NumPy rejects negative sorter entries: no wrap-around here.
        index = _apply(CHECK_INDEX, (s,), (a_node.size, 0, False))
        a_node = _apply(TAKE, (a_node, index), (0,))
    dt = dtypes.result_type(a_node.dtype, v_node.dtype)
    node = _apply(SEARCHSORTED, (cast(a_node, dt), cast(v_node, dt)), (side,))
    return wrap(node) if node.shape else wrap_scalar(node)   # a 0-d v: NumPy's scalar


def _numpy_input(ar) -> np.ndarray:
    """The NumPy value of ``ar``; a lazy pending array syncs (reason ``"unique"``)."""
    return to_array(ar)._value("unique")


def _lazy(result):
    if isinstance(result, np.ndarray):     # unique(axis=) moves axes back: keep its order
        return wrap_ordered(numpy_constant(result),
                            layouts.new_array_order(layout_of(result), "K"))
    if isinstance(result, tuple):
        return type(result)(*[_lazy(r) for r in result]) if hasattr(result, "_fields") \
            else tuple(_lazy(r) for r in result)
    return result


@extensible('unique')
def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):   # noqa: A002 - NumPy's keyword
    """Sorted unique elements of an array (``numpy.unique``).

    The output size depends on the data, so this syncs ``ar`` (one sync, reason
    ``"unique"``) and computes with NumPy; the results are lazy arrays.

    Parameters
    ----------
    ar : array_like
        Input; flattened unless ``axis`` is given.
    return_index, return_inverse, return_counts : bool, optional
        Also return the first indices, the reconstruction indices, and the counts.
    axis : int, optional
        Find unique sub-arrays along this axis.
    equal_nan : bool, optional
        Collapse NaNs into one (default True).
    sorted : bool, optional
        NumPy >= 2.3's ``sorted`` flag.

    Returns
    -------
    lazynum.ndarray or tuple of lazynum.ndarray
        As NumPy returns them (``int64`` indices and counts).
    """
    kwargs = {} if sorted is True else {"sorted": sorted}
    return _lazy(np.unique(_numpy_input(ar), return_index=return_index,
                           return_inverse=return_inverse, return_counts=return_counts,
                           axis=axis, equal_nan=equal_nan, **kwargs))


def unique_values(x):
    """Unique values of ``x`` (``numpy.unique_values``; syncs ``x`` like ``unique``)."""
    return _lazy(np.unique_values(_numpy_input(x)))


def unique_counts(x):
    """``(values, counts)`` namedtuple (``numpy.unique_counts``; syncs like ``unique``)."""
    return _lazy(np.unique_counts(_numpy_input(x)))


def unique_inverse(x):
    """``(values, inverse_indices)`` namedtuple (``numpy.unique_inverse``; syncs)."""
    return _lazy(np.unique_inverse(_numpy_input(x)))


def unique_all(x):
    """``(values, indices, inverse_indices, counts)`` namedtuple (``numpy.unique_all``; syncs)."""
    return _lazy(np.unique_all(_numpy_input(x)))


def sort_complex(a):
    """``a`` sorted along its last axis by real part, then imaginary part, as a complex array
    (``numpy.sort_complex``: int8/int16/uint8/uint16 become complex64, the rest complex128)."""
    b = sort(a)
    if b.dtype.kind == "c":
        return b
    return b.astype(np.complex64 if b.dtype.char in "bhBH" else np.complex128)
