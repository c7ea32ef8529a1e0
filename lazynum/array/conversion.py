"""Turning user values into graph nodes: arrays, NumPy arrays, scalars, nested lists.

Python ``bool``/``int``/``float``/``complex`` stay *weak* until an op decides their dtype (NEP 50);
everything else converts with NumPy's rules and must land on a supported dtype.  NumPy
input is snapshotted: a lazy result must not change when the caller later mutates the
array it passed in.
"""
from __future__ import annotations

import sys
import warnings

import numpy as np

from ..expr import dtypes
from ..expr.symbolic import as_index
from . import extension
from .arraytype import ndarray, wrap
from ..expr import node as nodes
from ..expr.elementwise import CAST
from ..expr.movement import CONCATENATE, VIEW
from ..expr.shapes import broadcast_shapes, broadcast_strides, c_strides

WEAK_TYPES = (bool, int, float, complex)


def is_weak(x) -> bool:
    """True for Python scalars (weak under NEP 50); NumPy scalars are strong."""
    return type(x) in WEAK_TYPES or (isinstance(x, WEAK_TYPES) and not isinstance(x, np.generic))


def _contains_lazy(x) -> bool:
    stack = [x]
    while stack:
        item = stack.pop()
        if isinstance(item, ndarray):
            return True
        if isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


def numpy_constant(value, dtype=None) -> "nodes.Node":
    """A leaf node holding a private copy of ``value`` converted by NumPy."""
    array = np.array(value, dtype=dtype, copy=True)
    if array.dtype.kind == "O":
        raise dtypes.UnsupportedDtype(f"cannot convert {type(value).__name__} to a lazynum array "
                        "(NumPy would make an object array)")
    dtypes.check(array.dtype, "array data")
    array.flags.writeable = False
    return nodes.constant(array)


def computed_constant(values: np.ndarray) -> ndarray:
    """A lazy array owning ``values``, a fresh NumPy result nobody else holds (a random
    draw, a window): a leaf without the copy ``numpy_constant`` makes of user data."""
    values.flags.writeable = False
    return wrap(nodes.constant(values))


def to_node(x, dtype=None) -> "nodes.Node":
    """Strong conversion: the node for ``x`` (optionally cast to ``dtype``).

    ``x`` may be a lazynum array, an array type above this layer that names its lazynum
    array (``__lazynum_array__``: a bounded array's true-size view), anything NumPy
    converts, or already a node (internal callers pass those through).
    """
    if isinstance(x, ndarray):
        node = x._n()
    elif isinstance(x, nodes.Node):
        node = x
    elif hasattr(type(x), "__lazynum_array__"):
        node = x.__lazynum_array__()._n()
    elif hasattr(type(x), "__dask_graph__"):   # a Dask array: a distributed input
        node = extension.hook("from_dask")(x)  # (lazynum.distributed registers it)
    elif _contains_lazy(x) and isinstance(x, (list, tuple)):
        node = _stacked(x)
    else:
        return numpy_constant(x, dtype)
    if dtype is not None and node.dtype != dtype:
        node = cast(node, dtypes.normalize(dtype))
    return node


def _stacked(items) -> "nodes.Node":
    """A sequence holding lazy arrays, as NumPy builds an array from it: items of one shape
    along a new first axis, promoted to one dtype (Python scalars count as strong here)."""
    parts = [to_node(item) for item in items]
    shape = parts[0].shape
    if any(p.shape != shape for p in parts):
        raise ValueError("setting an array element with a sequence. The requested array has an "
                         "inhomogeneous shape after 1 dimensions.")
    target = dtypes.result_type(*[p.dtype for p in parts])
    rows = tuple(reshape_node(cast(p, target), (1,) + tuple(shape)) for p in parts)
    return rows[0] if len(rows) == 1 else nodes.apply(CONCATENATE, rows, (0,))


def to_array(x, dtype=None) -> ndarray:
    """``x`` as a lazynum array (no copy of an existing lazynum array of that dtype)."""
    if isinstance(x, ndarray) and (dtype is None or x.dtype == dtype):
        return x
    if hasattr(type(x), "__lazynum_array__"):
        return to_array(x.__lazynum_array__(), dtype)
    return wrap(to_node(x, dtype))


def cast(node, dtype) -> "nodes.Node":
    """``node`` converted to ``dtype`` (unsafe casting); from complex to a real dtype with
    NumPy's ComplexWarning, which NumPy's cast loop gives at every such conversion (not to
    bool: either part counts)."""
    if node.dtype == dtype:
        return node
    if node.dtype.kind == "c" and dtype.kind not in "cb":
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=_user_level())
    return nodes.apply(CAST, (node,), (dtype,))


def _user_level() -> int:
    """The ``stacklevel`` that names the first frame outside lazynum."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_globals.get("__name__", "").startswith("lazynum."):
        frame, level = frame.f_back, level + 1
    return level


def reshape_node(node, shape) -> "nodes.Node":
    """``node``'s value (a C-order array) seen with ``shape`` of the same size (a view node;
    internal temporaries never need a window's aliasing)."""
    shape = tuple(as_index(d) for d in shape)
    if node.shape == shape:
        return node
    return nodes.apply(VIEW, (node,), (shape, c_strides(shape), 0))


def broadcast_node(node, shape) -> "nodes.Node":
    """``node`` broadcast to ``shape`` (a stride-0 view; ValueError when impossible)."""
    shape = tuple(shape)
    if node.shape == shape:
        return node
    if broadcast_shapes(node.shape, shape) != shape:
        raise ValueError(f"could not broadcast input array from shape {node.shape} into shape {shape}")
    return nodes.apply(VIEW, (node,), (shape, broadcast_strides(node.shape, shape), 0))


def weak_scalar(value, dtype, op_name=""):
    """Node for Python scalar ``value`` in ``dtype``, with NumPy 2's overflow error."""
    if dtype.kind in "iu" and type(value) is not bool and isinstance(value, int):
        info = np.iinfo(dtype)
        if not info.min <= value <= info.max:
            raise OverflowError(f"Python integer {value} out of bounds for {dtype}")
    return nodes.scalar(value, dtype)
