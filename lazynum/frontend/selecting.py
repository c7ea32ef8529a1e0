"""Choosing and locating elements, lazily: ``select``, ``isin``, ``unravel_index`` and
``ravel_multi_index``.

Each is NumPy's definition written as lazy operations: ``select`` is a chain of ``where``
in NumPy's order (the first true condition wins) in NumPy's result dtype; ``isin`` finds
each element in the sorted test values (a search and a compare, whatever ``kind`` NumPy
would pick: the answer is the same); the index conversions are integer arithmetic, and
their range errors (``index 7 is out of bounds``) are ValueErrors raised at the sync.
"""
from __future__ import annotations

import operator

import numpy as np

from ..array.arraytype import ndarray, wrap
from ..array.conversion import to_node
from ..array.extension import extensible
from ..expr import node as nodes
from ..expr.checks import ASSERT_ALL
from .creation import zeros
from .indexing.advanced import take
from .joining import broadcast_arrays
from .manipulation import ravel
from .mathfuncs import clip, where
from .reductions import all as all_
from .sorting import searchsorted, sort
from .ufuncs import call

__all__ = ["select", "choose", "isin", "unravel_index", "ravel_multi_index"]


def _lazy(a):
    return a if isinstance(a, ndarray) else wrap(to_node(a))


def _dtype_stand_in(x):
    """What ``x`` contributes to ``select``'s ``result_type``: a Python number as itself
    (weak, NEP 50), anything else as a 0-d array of its dtype (arrays promote by dtype)."""
    if type(x) in (int, float, complex):
        return x
    return np.empty((), x.dtype) if isinstance(x, ndarray) else np.asarray(x)


def _check(value, ok, message):
    return wrap(nodes.apply(ASSERT_ALL, (value._n(), ok._n()), ("ValueError", message)))


def select(condlist, choicelist, default=0):
    """Elements from ``choicelist`` where the first true ``condlist`` entry says
    (``numpy.select``)."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    try:
        dtype = np.result_type(*[_dtype_stand_in(c) for c in choicelist], _dtype_stand_in(default))
    except TypeError as exc:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {exc}") from None
    conds = [_lazy(c) for c in condlist]
    for i, cond in enumerate(conds):
        if cond.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    choices = [_lazy(c).astype(dtype) for c in choicelist] + [_lazy(default).astype(dtype)]
    everything = broadcast_arrays(*conds, *choices)
    conds, choices = everything[:len(conds)], everything[len(conds):]
    result = choices[-1]
    for choice, cond in zip(choices[-2::-1], conds[::-1]):
        result = where(cond, choice, result)
    return result


def choose(a, choices, out=None, mode="raise"):
    """``choices[a[i]][i]`` for every position of the broadcast arrays (``numpy.choose``)."""
    if out is not None:
        raise NotImplementedError("lazynum.choose(out=...) is not lazy; assign the result")
    a = _lazy(a)
    if a.dtype.kind not in "biu":
        raise TypeError(f"Cannot cast array data from {a.dtype!r} to dtype('int64') according "
                        "to the rule 'safe'")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{mode}')")
    dtype = np.result_type(*[_dtype_stand_in(c) for c in choices])
    n = len(choices)
    options = broadcast_arrays(a, *[_lazy(c).astype(dtype) for c in choices])
    index, options = options[0].astype(np.intp), options[1:]
    if mode == "wrap":
        index = call(np.remainder, (index, n))
    elif mode == "clip":
        index = clip(index, 0, n - 1)
    else:
        inside = all_(call(np.logical_and, (call(np.greater_equal, (index, 0)),
                                            call(np.less, (index, n)))))
        index = _check(index, inside, "invalid entry in choice array")
    result = options[-1]
    for k in range(n - 2, -1, -1):
        result = where(call(np.equal, (index, k)), options[k], result)
    return result


@extensible("isin")
def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of ``element`` is in ``test_elements`` (``numpy.isin``)."""
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    element = _lazy(element)
    tests = sort(ravel(_lazy(test_elements)))
    n = int(tests.shape[0])
    if n == 0:
        found = zeros(element.shape, np.bool_)
    else:
        position = clip(searchsorted(tests, element), 0, n - 1)
        found = call(np.equal, (take(tests, position), element))
    return call(np.logical_not, (found,)) if invert else found


def unravel_index(indices, shape, order="C"):
    """Coordinate arrays of flat ``indices`` in an array of ``shape`` (``numpy.unravel_index``)."""
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    dims = (operator.index(shape),) if np.ndim(shape) == 0 else tuple(operator.index(d) for d in shape)
    flat = _lazy(indices)
    if flat.dtype.kind not in "iu":
        raise TypeError("only int indices permitted")
    size = 1
    for d in dims:
        size *= d
    flat = flat.astype(np.intp)
    inside = all_(call(np.logical_and, (call(np.greater_equal, (flat, 0)),
                                        call(np.less, (flat, size)))))
    flat = _check(flat, inside, f"index is out of bounds for array with size {size}")
    coords = []
    for d in (reversed(dims) if order == "C" else dims):
        coords.append(call(np.remainder, (flat, d)) if d else flat)
        flat = call(np.floor_divide, (flat, d)) if d else flat
    return tuple(reversed(coords) if order == "C" else coords)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Flat indices of coordinate arrays in an array of ``dims`` (``numpy.ravel_multi_index``)."""
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    dims = tuple(operator.index(d) for d in ((dims,) if np.ndim(dims) == 0 else dims))
    coords = [_lazy(c) for c in multi_index]
    if len(coords) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    strides, step = [], 1
    for d in (reversed(dims) if order == "C" else dims):
        strides.append(step)
        step *= d
    strides = strides[::-1] if order == "C" else strides
    total, ok = None, None
    for c, d, stride, m in zip(coords, dims, strides, modes):
        if c.dtype.kind not in "iu":
            raise TypeError("only int indices permitted")
        c = c.astype(np.intp)
        if m == "wrap":
            c = call(np.remainder, (c, d))
        elif m == "clip":
            c = clip(c, 0, d - 1)
        elif m == "raise":
            inside = call(np.logical_and, (call(np.greater_equal, (c, 0)), call(np.less, (c, d))))
            ok = inside if ok is None else call(np.logical_and, (ok, inside))
        else:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{m}')")
        term = call(np.multiply, (c, stride))
        total = term if total is None else call(np.add, (total, term))
    if ok is not None:
        total = _check(total, all_(ok), "invalid entry in coordinates array")
    return total
