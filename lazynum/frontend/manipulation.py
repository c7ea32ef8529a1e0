"""Shape manipulation that NumPy does with views: reshape, transposes, squeeze, expand,
broadcast, diagonal, flip.

Each function computes the new strided layout exactly as NumPy would and returns a
window onto the same storage, so writes through the result reach the original (and the
other way round).  When NumPy would copy (reshape of non-contiguous data), so do we.
"""
from __future__ import annotations

import operator

import numpy as np

from ..array.extension import extensible
from ..array import layout as layouts
from ..expr.symbolic import as_index
from ..array.arraytype import ndarray, wrap, wrap_scalar
from ..array.conversion import to_array, to_node
from ..expr.shapes import broadcast_shapes, normalize_axes, normalize_axis, size_of


__all__ = ["reshape", "transpose", "permute_dims", "swapaxes", "matrix_transpose", "moveaxis", "ravel", "squeeze", "expand_dims", "broadcast_to", "diagonal", "flip", "fliplr", "flipud", "atleast_1d", "atleast_2d", "atleast_3d", "rollaxis"]

def _infer_shape(size: int, shape) -> tuple:
    if isinstance(shape, ndarray):
        shape = shape.tolist()
    try:
        shape = (as_index(shape),)
    except TypeError:
        shape = tuple(as_index(d) for d in shape)
    unknown = [i for i, d in enumerate(shape) if d == -1]
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension")
    if any(d < -1 for d in shape):
        raise ValueError("negative dimensions not allowed")
    known = size_of(d for d in shape if d != -1)
    if unknown:
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape "
                             f"{_shape_text(shape)}")
        shape = shape[:unknown[0]] + (size // known,) + shape[unknown[0] + 1:]
    elif known != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {_shape_text(shape)}")
    return shape


def _shape_text(shape):
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _index_order(a, order) -> str:
    """'C' or 'F': NumPy's index order for ``order`` in reshape/ravel ('A' follows memory)."""
    if order in ("C", None):
        return "C"
    if order == "F":
        return "F"
    if order == "A":
        layout = a._layout()
        reversed_layout = transpose_layout(layout)
        return "F" if layouts.is_c_contiguous(reversed_layout) and not layouts.is_c_contiguous(layout) else "C"
    raise ValueError(f"order must be one of 'C', 'F', 'A' (got {order!r})")


def transpose_layout(layout):
    return layouts.transpose(layout, tuple(range(len(layout[0])))[::-1])


@extensible('reshape')
def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    """Gives a new shape to an array; a view when NumPy's would be one.

    ``order='F'`` reads and writes in Fortran index order (``a.T.reshape(shape[::-1]).T``),
    ``'A'`` in Fortran order when ``a`` is Fortran- but not C-contiguous.
    """
    a = to_array(a)
    if _index_order(a, order) == "F":
        target = _infer_shape(a.size, newshape if shape is None else shape)
        return transpose(reshape(transpose(a), target[::-1], copy=copy))
    shape = _infer_shape(a.size, newshape if shape is None else shape)
    if copy:
        a = wrap(a._n())
    target = layouts.reshape_without_copy(a._layout(), shape)
    if target is None:
        if copy is False:
            raise ValueError("Unable to avoid creating a copy while reshaping.")
        a = wrap(a._n())          # NumPy copies here: the result no longer aliases a
        target = layouts.reshape_without_copy(a._layout(), shape)
    return a._window(target)


def method_reshape(self, *shape, order="C", copy=None):
    """``ndarray.reshape(*shape)``: accepts ``reshape(2, 3)`` and ``reshape((2, 3))``."""
    if not shape:
        raise TypeError("reshape() takes exactly 1 argument (0 given)")
    if len(shape) == 1:
        shape = shape[0]
    return reshape(self, shape, order=order, copy=copy)


def transpose(a, axes=None):
    """Permute the axes (reverse them by default); a view."""
    a = to_array(a)
    ndim = a.ndim
    if axes is None:
        axes = tuple(range(ndim))[::-1]
    else:
        axes = tuple(axes)
        if len(axes) != ndim:
            raise ValueError("axes don't match array")
        axes = tuple(normalize_axis(ax, ndim) for ax in axes)
        if len(set(axes)) != ndim:
            raise ValueError("repeated axis in transpose")
    return a._window(layouts.transpose(a._layout(), axes))


permute_dims = transpose


def method_transpose(self, *axes):
    """``ndarray.transpose(*axes)``: accepts ``transpose(1, 0)`` and ``transpose((1, 0))``."""
    if not axes or (len(axes) == 1 and axes[0] is None):
        return transpose(self)
    if len(axes) == 1 and not isinstance(axes[0], int):
        axes = axes[0]
    return transpose(self, axes)


def swapaxes(a, axis1, axis2):
    """Interchange two axes; a view."""
    a = to_array(a)
    i, j = normalize_axis(axis1, a.ndim), normalize_axis(axis2, a.ndim)
    axes = list(range(a.ndim))
    axes[i], axes[j] = axes[j], axes[i]
    return a._window(layouts.transpose(a._layout(), axes))


def matrix_transpose(x):
    """Swap the last two axes (``ndarray.mT``)."""
    x = to_array(x)
    if x.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return swapaxes(x, -1, -2)


def _axis_list(axis, ndim, argname) -> list:
    try:
        axes = [operator.index(axis)]
    except TypeError:
        axes = list(axis)
    return [normalize_axis(ax, ndim, argname) for ax in axes]


def moveaxis(a, source, destination):
    """Move axes to new positions; a view."""
    a = to_array(a)
    source = _axis_list(source, a.ndim, "source")
    destination = _axis_list(destination, a.ndim, "destination")
    if len(source) != len(destination):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    if len(set(source)) != len(source) or len(set(destination)) != len(destination):
        raise ValueError("repeated axis in `source` or `destination` argument")
    order = [n for n in range(a.ndim) if n not in source]
    for dest, src_axis in sorted(zip(destination, source)):
        order.insert(dest, src_axis)
    return a._window(layouts.transpose(a._layout(), order))


@extensible('ravel')
def ravel(a, order="C"):
    """Flattened array; a view when the data is contiguous in ``order``, else a copy (as
    NumPy).  ``order='K'`` reads in memory order (axes by decreasing stride)."""
    a = to_array(a)
    if order == "K":
        strides = a._layout()[1]
        a = transpose(a, sorted(range(a.ndim), key=lambda ax: -abs(strides[ax])))
        order = "C"
    if _index_order(a, order) == "F":
        a = transpose(a)
    if not layouts.is_c_contiguous(a._layout()):
        return flatten(a)
    return reshape(a, -1)


def flatten(a, order="C"):
    """A flattened copy (``ndarray.flatten``)."""
    a = to_array(a)
    if order == "K":
        return wrap(ravel(a, "K")._n())
    if _index_order(a, order) == "F":
        a = transpose(a)
    return reshape(wrap(a._n()), -1)


def squeeze(a, axis=None):
    """Remove size-1 axes; a view."""
    a = to_array(a)
    shape, strides, offset = a._layout()
    if axis is None:
        drop = {i for i, d in enumerate(shape) if d == 1}
    elif not shape and not isinstance(axis, (tuple, list)) and operator.index(axis) in (0, -1):
        drop = set()    # NumPy lets a 0-d array "squeeze" axis 0 / -1
    else:
        drop = set(normalize_axes(axis, a.ndim))
        if any(shape[i] != 1 for i in drop):
            raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    keep = [i for i in range(len(shape)) if i not in drop]
    return a._window((tuple(shape[i] for i in keep), tuple(strides[i] for i in keep), offset))


def expand_dims(a, axis):
    """Insert size-1 axes at ``axis`` (int or tuple); a view."""
    a = to_array(a)
    try:
        axes = (operator.index(axis),)
    except TypeError:
        axes = tuple(axis)
    ndim = a.ndim + len(axes)
    positions = normalize_axes(axes, ndim)
    shape, strides, offset = a._layout()
    it = iter(zip(shape, strides))
    new = [(1, 0) if i in positions else next(it) for i in range(ndim)]
    return a._window((tuple(d for d, _ in new), tuple(s for _, s in new), offset))


def broadcast_to(array, shape, subok=False):
    """A read-only broadcast view of ``array`` with ``shape``."""
    a = to_array(array)
    shape = (as_index(shape),) if not isinstance(shape, (tuple, list)) else tuple(shape)
    if any(d < 0 for d in shape):
        raise ValueError("all elements of broadcast shape must be non-negative")
    if len(shape) < a.ndim or broadcast_shapes(a.shape, shape) != shape:
        raise ValueError(f"operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {a.shape} and requested shape {shape}")
    old_shape, old_strides, offset = a._layout()
    lead = len(shape) - len(old_shape)
    strides = [0] * lead + [0 if d == 1 and n != 1 else s
                            for d, s, n in zip(old_shape, old_strides, shape[lead:])]
    return a._window((shape, tuple(strides), offset), readonly=True)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal of two axes as the last axis; a read-only view, as in NumPy."""
    a = to_array(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    i, j = normalize_axis(axis1, a.ndim), normalize_axis(axis2, a.ndim)
    if i == j:
        raise ValueError("axis1 and axis2 cannot be the same")
    shape, strides, start = a._layout()
    if offset >= 0:
        length = max(0, min(shape[i], shape[j] - offset))
        start += offset * strides[j] if length else 0
    else:
        length = max(0, min(shape[i] + offset, shape[j]))
        start += -offset * strides[i] if length else 0
    rest = [k for k in range(a.ndim) if k not in (i, j)]
    new_shape = tuple(shape[k] for k in rest) + (length,)
    new_strides = tuple(strides[k] for k in rest) + (strides[i] + strides[j],)
    return a._window((new_shape, new_strides, start), readonly=True)


def flip(m, axis=None):
    """Reverse the order of elements along ``axis``; a view with negative strides.  A 0-d
    input gives a copy: NumPy indexes it with ``m[()]``, which is a scalar."""
    m = to_array(m)
    axes = normalize_axes(axis, m.ndim)
    if m.ndim == 0:
        return wrap_scalar(m._n())
    shape, strides, offset = m._layout()
    strides = list(strides)
    for ax in axes:
        if shape[ax] > 0:
            offset += (shape[ax] - 1) * strides[ax]
        strides[ax] = -strides[ax]
    return m._window((shape, tuple(strides), offset))


def fliplr(m):
    """Reverse the columns (axis 1); a view."""
    m = to_array(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return flip(m, 1)


def flipud(m):
    """Reverse the rows (axis 0); a view."""
    m = to_array(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return flip(m, 0)


def atleast_nd(arys, ndim):
    out = []
    for ary in arys:
        a = to_array(ary)
        if a.ndim < ndim:
            if ndim == 3 and a.ndim == 2:
                a = expand_dims(a, 2)
            elif ndim == 3 and a.ndim == 1:
                a = reshape(a, (1, a.shape[0], 1))
            else:
                a = reshape(a, (1,) * (ndim - a.ndim) + a.shape)
        out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys):
    """Views with at least one dimension."""
    return atleast_nd(arys, 1)


def atleast_2d(*arys):
    """Views with at least two dimensions (new axes in front)."""
    return atleast_nd(arys, 2)


def atleast_3d(*arys):
    """Views with at least three dimensions (NumPy's placement of new axes)."""
    return atleast_nd(arys, 3)


def rollaxis(a, axis, start=0):
    """Roll ``axis`` backwards until it lies before position ``start`` (``numpy.rollaxis``;
    a view)."""
    a = a if isinstance(a, ndarray) else wrap(to_node(a))
    n = a.ndim
    axis = normalize_axis(axis, n)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise np.exceptions.AxisError(f"'start' arg requires {-n} <= start < {n + 1}")
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return transpose(a, axes)
