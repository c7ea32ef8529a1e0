"""``pad``: NumPy's padding modes built from views, concatenation and host-computed gathers.

'constant' and 'edge' are concatenations of the input with broadcast fills or edge slices;
'wrap', 'reflect' and 'symmetric' gather through an index map that NumPy computes on the
host from the shapes alone (never from data), so results match NumPy at any pad width.
"""
from __future__ import annotations

import typing

import numpy as np

from ..array.arraytype import ndarray, wrap
from ..array.conversion import broadcast_node, cast, to_node
from ..expr import node as nodes
from ..expr.indexing import TAKE
from ..expr.movement import CONCATENATE
from .joining import _host, _slice
from .manipulation import broadcast_to

__all__ = ["pad"]


_PAD_KWARGS = {
    "empty": [], "edge": [], "wrap": [], "constant": ["constant_values"],
    "linear_ramp": ["end_values"], "maximum": ["stat_length"], "mean": ["stat_length"],
    "median": ["stat_length"], "minimum": ["stat_length"], "reflect": ["reflect_type"],
    "symmetric": ["reflect_type"],
}
from .fallbacks import numpy_function
from .indexing.basic import value_node
def _pad_pairs(pad_width, ndim):
    """``pad_width`` in any NumPy form as ``ndim`` (before, after) int pairs."""
    pad_width = _host(pad_width, "pad")
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            match width:
                case int(both):
                    seq[axis] = both, both
                case tuple((int(before), int(after))):
                    seq[axis] = before, after
                case _ as invalid:
                    typing.assert_never(invalid)
        pad_width = seq
    widths = np.asarray(pad_width)
    if widths.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    if (widths < 0).any():
        raise ValueError("index can't contain negative values")
    pairs = _as_pairs(widths.astype(np.intp), ndim)
    return [(int(b), int(e)) for b, e in pairs]


def _as_pairs(x, ndim):
    """NumPy's ``_as_pairs``: broadcast ``x`` (host or lazy) to ``ndim`` (before, after)."""
    lazy = isinstance(x, ndarray)
    if not lazy:
        x = np.array(x)
    if x.ndim < 3:
        if x.size == 1:
            x = x.reshape(-1)
            return ((x[0], x[0]),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.reshape(-1)
            return ((x[0], x[1]),) * ndim
    if lazy:
        x = broadcast_to(x, (ndim, 2))
        return [(x[i, 0], x[i, 1]) for i in range(ndim)]
    return np.broadcast_to(x, (ndim, 2)).tolist()


def _fill(value, dtype, shape):
    """A constant pad block: ``value`` assigned into ``dtype`` as NumPy's setitem would."""
    if isinstance(value, (ndarray, nodes.Node)):
        node = value._n() if isinstance(value, ndarray) else value
        return broadcast_node(cast(node, dtype), shape)
    return value_node(value, dtype, shape)


def _pad_constant(node, pairs, values):
    for axis, ((before, after), (low, high)) in enumerate(zip(pairs, values)):
        parts = []
        for width, value in ((before, low), (None, None), (after, high)):
            if width is None:
                parts.append(node)
            elif width:
                shape = node.shape[:axis] + (width,) + node.shape[axis + 1:]
                parts.append(_fill(value, node.dtype, shape))
        if len(parts) > 1:
            node = nodes.apply(CONCATENATE, tuple(parts), (axis,))
    return node


def _pad_edge(node, pairs):
    for axis, (before, after) in enumerate(pairs):
        size, parts = node.shape[axis], [node]
        if before:
            shape = node.shape[:axis] + (before,) + node.shape[axis + 1:]
            parts.insert(0, broadcast_node(_slice(node, axis, 0, 1), shape))
        if after:
            shape = node.shape[:axis] + (after,) + node.shape[axis + 1:]
            parts.append(broadcast_node(_slice(node, axis, size - 1, size), shape))
        if len(parts) > 1:
            node = nodes.apply(CONCATENATE, tuple(parts), (axis,))
    return node


def _pad_gather(node, pairs, mode, kwargs):
    """Modes whose padding is a fixed index map per axis: computed on the host by NumPy."""
    for axis, (before, after) in enumerate(pairs):
        if before or after:
            index = np.pad(np.arange(node.shape[axis], dtype=np.int64), (before, after),
                           mode=mode, **kwargs)
            index.flags.writeable = False
            node = nodes.apply(TAKE, (node, nodes.constant(index)), (axis,))
    return node


def pad(array, pad_width, mode="constant", **kwargs):
    """A new array: ``array`` padded (NumPy's ``pad``).

    Parameters
    ----------
    array : array_like
        Array to pad.
    pad_width : int, sequence or dict
        ``n``, ``(before, after)``, ``((before_1, after_1), ...)``, ``(n,)`` or a dict
        ``{axis: n or (before, after)}``, exactly as NumPy accepts.
    mode : str, optional
        One of 'constant' (default), 'edge', 'empty', 'wrap', 'reflect', 'symmetric' (lazy).
        The statistic modes, 'linear_ramp', ``reflect_type='odd'`` and callables run as a
        counted NumPy fallback (a sync).
    constant_values : scalar or array_like, optional
        Values for 'constant' mode, in any form ``pad_width`` takes.  Default 0.
    reflect_type : {'even'}, optional
        For 'reflect' and 'symmetric'.

    Raises
    ------
    ValueError
        Negative widths, an unknown mode or keyword, or extending an empty axis in a mode
        that reads the data.
    """
    node = to_node(array)
    pairs = _pad_pairs(pad_width, len(node.shape))
    if callable(mode):
        return _numpy_pad(array, pad_width, mode, kwargs)
    try:
        unsupported = set(kwargs) - set(_PAD_KWARGS[mode])
    except KeyError:
        raise ValueError(f"mode '{mode}' is not supported") from None
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    if mode == "constant":
        values = _as_pairs(kwargs.get("constant_values", 0), len(node.shape))
        return wrap(_pad_constant(node, pairs, values))
    if mode == "empty":
        zero = nodes.scalar(0, node.dtype)
        return wrap(_pad_constant(node, pairs, [(zero, zero)] * len(pairs)))
    if mode not in ("edge", "wrap", "reflect", "symmetric") or \
            kwargs.get("reflect_type", "even") != "even":
        return _numpy_pad(array, pad_width, mode, kwargs)
    if node.size == 0:
        for axis, pair in enumerate(pairs):
            if node.shape[axis] == 0 and any(pair):
                raise ValueError(f"can't extend empty axis {axis} using modes other than "
                                 "'constant' or 'empty'")
        shape = tuple(d + b + e for d, (b, e) in zip(node.shape, pairs))
        return wrap(broadcast_node(nodes.scalar(0, node.dtype), shape))
    if mode == "edge":
        return wrap(_pad_edge(node, pairs))
    return wrap(_pad_gather(node, pairs, mode, kwargs))


def _numpy_pad(array, pad_width, mode, kwargs):
    """Modes computed from the data's statistics: NumPy's pad, as a counted fallback."""
    return numpy_function(np.pad, "numpy.pad")(array, pad_width, mode, **kwargs)
