"""``numpy.lib.stride_tricks``, lazily: ``sliding_window_view`` and ``as_strided`` are
views of the array's storage (a ``view`` node: index math in the kernels that read them,
never a copy).

``as_strided`` is checked: a view reaching outside its array's memory is NumPy's
ValueError here, where NumPy itself would read past the buffer.  Byte strides that are not
multiples of the itemsize cannot be expressed over a typed storage and raise ValueError.
"""
from __future__ import annotations

import numpy as np


from ..array.arraytype import ndarray, wrap
from ..array.conversion import to_node
from ..expr.shapes import normalize_axis

__all__ = ["as_strided", "sliding_window_view"]


def _lazy(x):
    return x if isinstance(x, ndarray) else wrap(to_node(x))


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """A view of ``x``'s memory with ``shape`` and byte ``strides`` (``numpy.lib.stride_tricks.as_strided``).

    Raises
    ------
    ValueError
        The view would reach outside ``x``'s memory, or a stride is not a multiple of
        the itemsize.
    """
    x = _lazy(x)
    base_shape, base_strides, offset = x._layout()
    item = x.dtype.itemsize
    shape = tuple(x.shape) if shape is None else tuple(int(d) for d in np.atleast_1d(shape))
    if strides is None:
        if len(shape) != len(base_shape):
            raise ValueError("as_strided: strides are needed when the shape changes rank")
        elements = tuple(base_strides)
    else:
        strides = tuple(int(s) for s in np.atleast_1d(strides))
        if len(strides) != len(shape):
            raise ValueError("mismatch in length of strides and shape")
        if any(s % item for s in strides):
            raise ValueError(f"as_strided: byte strides {strides} are not multiples of the "
                             f"itemsize {item}")
        elements = tuple(s // item for s in strides)
    if any(d < 0 for d in shape):
        raise ValueError("negative dimensions are not allowed")
    return _window(x, (shape, elements, offset), readonly=not writeable)


def _window(x, layout, readonly):
    try:
        return x._window(layout, readonly=readonly)
    except ValueError as exc:
        raise ValueError(f"as_strided: the view reaches outside the array's memory ({exc}); "
                         "NumPy would read past its buffer") from None


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of ``window_shape`` over ``x`` as one view
    (``numpy.lib.stride_tricks.sliding_window_view``)."""
    window_shape = tuple(window_shape) if np.iterable(window_shape) else (window_shape,)
    x = _lazy(x)
    if any(int(w) < 0 for w in window_shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window_shape) != len(axis):
            raise ValueError(f"Since axis is `None`, must provide window_shape for all "
                             f"dimensions of `x`; got {len(window_shape)} window_shape "
                             f"elements and `x.ndim` is {x.ndim}.")
    else:
        axis = tuple(normalize_axis(a, x.ndim) for a in (axis if np.iterable(axis) else (axis,)))
        if len(window_shape) != len(axis):
            raise ValueError(f"Must provide matching length window_shape and axis; got "
                             f"{len(window_shape)} window_shape elements and {len(axis)} "
                             "axes elements.")
    shape, strides, offset = x._layout()
    trimmed = list(shape)
    for ax, dim in zip(axis, window_shape):
        if trimmed[ax] < dim:
            raise ValueError("window shape cannot be larger than input array shape")
        trimmed[ax] -= dim - 1
    layout = (tuple(trimmed) + tuple(window_shape),
              tuple(strides) + tuple(strides[ax] for ax in axis), offset)
    return _window(x, layout, readonly=not writeable)
