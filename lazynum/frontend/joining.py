"""Joining, splitting and tiling: NumPy's functions that copy or split arrays (``pad`` is in
``lazynum.padding``).

Everything here is composed from three primitives: ``concatenate`` (the one copy that joins
arrays), ``view`` (reshapes, slices and broadcasts of a node's value: index math, never a
copy) and ``take`` (a gather whose int64 index is computed on the host from shapes and
host arguments, e.g. per-element ``repeat`` counts or ``pad(mode='reflect')``).  Nothing
computes on lazy data: shapes are static, so every error NumPy raises for bad shapes or
axes is raised at the call, with NumPy's exception type.

Split pieces, ``rot90``, ``unstack`` and ``broadcast_arrays`` return windows (views) onto
the input's storage exactly where NumPy returns views; everything else returns a new array.
"""
from __future__ import annotations

import operator
import warnings

import numpy as np

from ..array.extension import extensible
from ..expr import dtypes
from ..array import layout as layouts
from ..expr.symbolic import as_index
from ..array.arraytype import layout_of, ndarray, wrap, wrap_ordered
from ..array.conversion import broadcast_node, cast, reshape_node, to_array, to_node
from ..expr import node as nodes
from ..expr.indexing import TAKE
from ..expr.movement import CONCATENATE, ROLL, VIEW
from ..expr.shapes import c_strides, normalize_axis
from . import creation
from .fallbacks import numpy_out
from .manipulation import broadcast_to, flip, transpose
from .ufuncs import call

__all__ = ["concatenate", "concat", "stack", "hstack", "vstack", "dstack", "column_stack",
           "split", "array_split", "hsplit", "vsplit", "dsplit", "unstack", "tile", "repeat",
           "roll", "broadcast_arrays", "broadcast_shapes", "diff", "append", "resize",
           "rot90", "row_stack"]

_NoValue = getattr(np, "_NoValue", object())   # NumPy's "argument not given" marker


# -- node helpers (internal temporaries never become windows) -----------------------------
def _slice(node, axis, start, stop):
    """``node[..., start:stop, ...]`` along ``axis`` with ``0 <= start <= stop <= size``."""
    shape = list(node.shape)
    if start == 0 and stop == shape[axis]:
        return node
    strides = c_strides(node.shape)
    offset = start * strides[axis] if stop > start else 0
    shape[axis] = stop - start
    return nodes.apply(VIEW, (node,), (tuple(shape), strides, as_index(offset)))


def _expand(node, axis):
    """Insert a size-1 axis at (non-negative) ``axis``."""
    return reshape_node(node, node.shape[:axis] + (1,) + node.shape[axis:])


def _atleast(node, ndim):
    """NumPy's ``atleast_{1,2,3}d`` placement of new axes, on a node."""
    if len(node.shape) >= ndim:
        return node
    if ndim == 3 and len(node.shape) == 2:
        return reshape_node(node, node.shape + (1,))
    if ndim == 3 and len(node.shape) == 1:
        return reshape_node(node, (1, node.shape[0], 1))
    return reshape_node(node, (1,) * (ndim - len(node.shape)) + node.shape)


def _memory(items, parts):
    """Each input's layout as NumPy's ``concatenate`` sees it, on the shape of its part
    (``items[i]`` after ``atleast_*d``/``expand_dims``: views that only insert length-1
    axes keep the other strides).  Other values (lists) are new C-ordered arrays."""
    return [_on_shape(layout_of(item), part.shape) for item, part in zip(items, parts)]


def _on_shape(layout, shape):
    """``layout`` with length-1 axes inserted or dropped to give ``shape`` (C order when
    that changes more than length-1 axes: a flattened input, 1-d anyway)."""
    if layout is None:
        return layouts.identity(shape)
    kept = [s for d, s in zip(layout[0], layout[1]) if d != 1]
    if [d for d in layout[0] if d != 1] != [d for d in shape if d != 1]:
        return layouts.identity(shape)
    strides = iter(kept)
    return (shape, tuple(next(strides) if d != 1 else 0 for d in shape), 0)


_STACK_MESSAGE = 'arrays to stack must be passed as a "sequence" type such as list or tuple.'


def _sequence(arrays, message):
    """The items of a sequence argument (rows of an array); TypeError for non-sequences."""
    if isinstance(arrays, ndarray):
        if arrays.ndim == 0:
            raise TypeError(message)
        return [arrays[i] for i in range(arrays.shape[0])]
    if not hasattr(arrays, "__getitem__") or not hasattr(arrays, "__len__"):
        raise TypeError(message)
    return list(arrays)


def _host(value, reason):
    """Host (NumPy) data for an argument that decides a shape; a lazy one syncs."""
    return value._value(reason) if isinstance(value, ndarray) else value


# -- concatenate and the stacks ---------------------------------------------------------------
def _check_join(parts, axis):
    """NumPy's checks for joining ``parts`` (nodes) along ``axis``; the normalized axis."""
    if not parts:
        raise ValueError("need at least one array to concatenate")
    first = parts[0].shape
    if not first:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = normalize_axis(axis, len(first))
    for i, part in enumerate(parts[1:], 1):
        if len(part.shape) != len(first):
            raise ValueError("all the input arrays must have same number of dimensions, but the "
                             f"array at index 0 has {len(first)} dimension(s) and the array at "
                             f"index {i} has {len(part.shape)} dimension(s)")
        for d, (x, y) in enumerate(zip(first, part.shape)):
            if d != axis and x != y:
                raise ValueError("all the input array dimensions except for the concatenation "
                                 f"axis must match exactly, but along dimension {d}, the array "
                                 f"at index 0 has size {x} and the array at index {i} has size {y}")
    return axis


def _join(parts, axis, out=None, dtype=None, casting="same_kind", memory=None):
    """Concatenate nodes ``parts`` along ``axis`` with NumPy's promotion, casting and ``out``;
    the result's memory follows the parts' layouts ``memory`` (C order when None)."""
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, "
                        "but both were provided.")
    axis = _check_join(parts, axis)
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("out must be a lazynum.ndarray")
        target = out.dtype
    elif dtype is not None:
        target = dtypes.normalize(dtype)
    else:
        target = dtypes.result_type(*[p.dtype for p in parts])
    for p in parts:
        if not np.can_cast(p.dtype, target, casting):
            raise TypeError(f"Cannot cast array data from {p.dtype!r} to {target!r} according "
                            f"to the rule '{casting}'")
    shape = list(parts[0].shape)
    shape[axis] = sum(p.shape[axis] for p in parts)
    kept = [cast(p, target) for p in parts if p.shape[axis]] or [cast(parts[0], target)]
    result = kept[0] if len(kept) == 1 else nodes.apply(CONCATENATE, tuple(kept), (axis,))
    if out is None:
        order = layouts.join_order(memory) if memory and len(shape) > 1 else None
        return wrap_ordered(result, order)
    if out.shape != tuple(shape):
        raise ValueError(f"Output array is the wrong shape: {out.shape}, expected {tuple(shape)}")
    out._write(out._layout(), result)
    return out


@numpy_out
@extensible('concatenate')
def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Join a sequence of arrays along an existing axis.

    Parameters
    ----------
    arrays : sequence of array_like
        Arrays with equal shapes except along ``axis``.  Python scalars are 0-d arrays
        (an error, as in NumPy).
    axis : int or None, optional
        The axis to join along; None flattens every input first.  Default 0.
    out : lazynum.ndarray, optional
        Destination of the result's shape; the inputs are cast to its dtype.
    dtype : dtype, optional
        Result dtype (exclusive with ``out``).
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        Casting allowed from each input to the result dtype.

    Returns
    -------
    ndarray
        A new array (never a view); dtype is ``result_type`` of the inputs by default.

    Raises
    ------
    ValueError
        No arrays, 0-d arrays, or mismatched dimensions.
    numpy.exceptions.AxisError
        ``axis`` out of range.
    """
    items = _sequence(arrays, "The first input argument needs to be a sequence")
    parts = [to_node(a) for a in items]
    if axis is None:
        parts = [reshape_node(p, (p.size,)) for p in parts]
        axis = 0
    return _join(parts, axis, out, dtype, casting, _memory(items, parts))


concat = concatenate


@numpy_out
@extensible('stack')
def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Join arrays of one shape along a new axis (ValueError if the shapes differ).

    Parameters
    ----------
    arrays : sequence of array_like
        Arrays of identical shape.
    axis : int, optional
        Position of the new axis in the result (negative counts from the end).
    out, dtype, casting
        As in `concatenate`.

    Returns
    -------
    ndarray
        A new array with one more dimension than the inputs.
    """
    items = _sequence(arrays, _STACK_MESSAGE)
    parts = [to_node(a) for a in items]
    if not parts:
        raise ValueError("need at least one array to stack")
    if any(p.shape != parts[0].shape for p in parts):
        raise ValueError("all input arrays must have the same shape")
    axis = normalize_axis(axis, len(parts[0].shape) + 1)
    parts = [_expand(p, axis) for p in parts]
    return _join(parts, axis, out, dtype, casting, _memory(items, parts))


def _stack_parts(tup, ndim):
    """(parts, their layouts): the inputs after ``atleast_{ndim}d``."""
    items = _sequence(tup, _STACK_MESSAGE)
    parts = [_atleast(to_node(a), ndim) for a in items]
    return parts, _memory(items, parts)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """A new array: ``tup`` joined along axis 1 (axis 0 for 1-d inputs).

    Parameters
    ----------
    tup : sequence of array_like
        Arrays (0-d ones become 1-d).
    dtype, casting
        As in `concatenate`.
    """
    parts, memory = _stack_parts(tup, 1)
    axis = 0 if parts and len(parts[0].shape) == 1 else 1
    return _join(parts, axis, dtype=dtype, casting=casting, memory=memory)


def vstack(tup, *, dtype=None, casting="same_kind"):
    """A new array: ``tup`` joined row-wise (1-d arrays of length N become rows (1, N)).

    Parameters
    ----------
    tup : sequence of array_like
        Arrays with equal shapes (after ``atleast_2d``) except along the first axis.
    dtype, casting
        As in `concatenate`.
    """
    parts, memory = _stack_parts(tup, 2)
    return _join(parts, 0, dtype=dtype, casting=casting, memory=memory)


def dstack(tup):
    """A new array: ``tup`` joined along the third axis (after ``atleast_3d``).

    Parameters
    ----------
    tup : sequence of array_like
        Arrays with equal shapes except along the third axis.
    """
    parts, memory = _stack_parts(tup, 3)
    return _join(parts, 2, memory=memory)


def column_stack(tup):
    """A new array: 1-d arrays as columns of a 2-d array (2-d ones joined as they are).

    Parameters
    ----------
    tup : sequence of array_like
        1-d or 2-d arrays with the same first dimension (0-d ones become (1, 1)).
    """
    parts = []
    items = _sequence(tup, _STACK_MESSAGE)
    for a in items:
        node = to_node(a)
        if len(node.shape) < 2:
            node = reshape_node(node, (node.size, 1))
        parts.append(node)
    return _join(parts, 1, memory=_memory(items, parts))


def append(arr, values, axis=None):
    """A new array: ``concatenate((arr, values), axis)``, both flattened if ``axis`` is None.

    Parameters
    ----------
    arr : array_like
        The array to extend.
    values : array_like
        Appended values; with ``axis=None`` both are flattened first.
    axis : int, optional
        The axis to append along; the shapes must then match except along it.
    """
    a, v = to_node(arr), to_node(values)
    if axis is None:
        a, v = reshape_node(a, (a.size,)), reshape_node(v, (v.size,))
        axis = 0
    return _join([a, v], axis, memory=_memory((arr, values), (a, v)))


# -- splitting: views -------------------------------------------------------------------------
def array_split(ary, indices_or_sections, axis=0):
    """Split an array into sub-arrays (views), allowing unequal sections.

    Parameters
    ----------
    ary : array_like
        Array to split.
    indices_or_sections : int or sequence of ints
        Number of sections (the first ``N % sections`` get one extra element) or the split
        points along ``axis`` (slice semantics: out-of-range and decreasing points give
        empty pieces).
    axis : int, optional
        The axis to split along.  Default 0.

    Returns
    -------
    list of ndarray
        Views onto ``ary``: writes through a piece reach ``ary``.  A bad ``axis`` raises
        IndexError, as NumPy's (which indexes ``ary.shape[axis]``).
    """
    a = to_array(ary)
    total = a.shape[axis]
    axis = normalize_axis(axis, a.ndim)
    points = _host(indices_or_sections, "split")
    try:
        sections = len(points) + 1
        bounds = [0] + list(points) + [total]
    except TypeError:
        sections = int(points)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extras = divmod(total, sections)
        sizes = [0] + extras * [each + 1] + (sections - extras) * [each]
        bounds = np.cumsum(sizes).tolist()
    lead = (slice(None),) * axis
    return [a[lead + (slice(bounds[i], bounds[i + 1]),)] for i in range(sections)]


def split(ary, indices_or_sections, axis=0):
    """Split an array into equal sub-arrays or at the given indices: a list of views.

    Parameters
    ----------
    ary : array_like
        Array to split.
    indices_or_sections : int or sequence of ints
        An int N must divide ``ary.shape[axis]``; a sequence gives the split points.
    axis : int, optional
        The axis to split along.  Default 0.

    Raises
    ------
    ValueError
        The division is not equal.
    """
    points = _host(indices_or_sections, "split")
    try:
        len(points)
    except TypeError:
        if to_array(ary).shape[axis] % points:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, points, axis)


def _split_at(name, min_ndim, axis_of):
    def splitter(ary, indices_or_sections):
        a = to_array(ary)
        if a.ndim < min_ndim:
            raise ValueError(f"{name} only works on arrays of {min_ndim} or more dimensions")
        return split(a, indices_or_sections, axis_of(a.ndim))
    splitter.__name__ = splitter.__qualname__ = name
    return splitter


hsplit = _split_at("hsplit", 1, lambda ndim: 1 if ndim > 1 else 0)
hsplit.__doc__ = """`split` along axis 1 (axis 0 for 1-d arrays): a list of views onto ``ary``.

    Parameters
    ----------
    ary : array_like
        Array of at least one dimension.
    indices_or_sections : int or sequence of ints
        As in `split`.
    """
vsplit = _split_at("vsplit", 2, lambda ndim: 0)
vsplit.__doc__ = hsplit.__doc__.replace("axis 1 (axis 0 for 1-d arrays)", "axis 0").replace(
    "one dimension", "two dimensions")
dsplit = _split_at("dsplit", 3, lambda ndim: 2)
dsplit.__doc__ = hsplit.__doc__.replace("axis 1 (axis 0 for 1-d arrays)", "axis 2").replace(
    "one dimension", "three dimensions")


def unstack(x, /, *, axis=0):
    """A tuple of ``x.shape[axis]`` views onto ``x``, each without ``axis``.

    Parameters
    ----------
    x : array_like
        Array of at least one dimension.
    axis : int, optional
        The axis to unstack along.  Default 0.
    """
    a = to_array(x)
    if a.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    axis = normalize_axis(axis, a.ndim, "source")
    lead = (slice(None),) * axis
    return tuple(a[lead + (i,)] for i in range(a.shape[axis]))


def rot90(m, k=1, axes=(0, 1)):
    """A view of ``m`` rotated by 90 degrees ``k`` times in the plane of ``axes``.

    Parameters
    ----------
    m : array_like
        Array of two or more dimensions.
    k : int, optional
        Number of counter-clockwise rotations (from ``axes[0]`` towards ``axes[1]``).
    axes : (int, int), optional
        The plane of rotation; the axes must differ.
    """
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = to_array(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if any(ax >= m.ndim or ax < -m.ndim for ax in axes):
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k = operator.index(k) % 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    order = list(range(m.ndim))
    order[axes[0]], order[axes[1]] = order[axes[1]], order[axes[0]]
    if k == 1:
        return transpose(flip(m, axes[1]), order)
    return flip(transpose(m, order), axes[1])


# -- repetition -------------------------------------------------------------------------------
def tile(A, reps):
    """A new array of shape ``A.shape * reps``: ``A`` repeated ``reps`` times per axis.

    Parameters
    ----------
    A : array_like
        The input; it gains leading size-1 axes when ``reps`` is longer than ``A.ndim``.
    reps : int or sequence of ints
        Repetitions per axis (leading 1s are assumed when shorter than ``A.ndim``).
    """
    try:
        tup = tuple(reps)
    except TypeError:
        tup = (reps,)
    if all(t == 1 for t in tup):      # NumPy: array(A, copy=True, ndmin=d), a copy in 'K' order
        return creation.array(A, copy=True, ndmin=len(tup))
    node = to_node(A)
    tup = tuple(operator.index(t) for t in tup)
    node = _atleast_lead(node, len(tup))
    tup = (1,) * (len(node.shape) - len(tup)) + tup
    shape_out = tuple(s * t for s, t in zip(node.shape, tup))
    if any(d < 0 for d in shape_out) or (node.size and any(t < 0 for t in tup)):
        raise ValueError("negative dimensions are not allowed")
    if node.size == 0:
        return wrap(reshape_node(node, shape_out))
    interleaved = reshape_node(node, tuple(x for s in node.shape for x in (1, s)))
    big = broadcast_node(interleaved, tuple(x for s, t in zip(node.shape, tup) for x in (t, s)))
    return wrap(reshape_node(big, shape_out))


def _atleast_lead(node, ndim):
    """``node`` with leading size-1 axes up to ``ndim`` (NumPy's ``ndmin``)."""
    missing = ndim - len(node.shape)
    return reshape_node(node, (1,) * missing + node.shape) if missing > 0 else node


def _repeat_counts(repeats):
    """``repeats`` as a host int64 array of at most one dimension (NumPy's conversion)."""
    repeats = _host(repeats, "repeat")
    if isinstance(repeats, np.ndarray):
        if repeats.ndim > 1:
            raise ValueError("object too deep for desired array")
        if not np.can_cast(repeats.dtype, np.intp, "safe"):
            raise TypeError(f"Cannot cast array data from {repeats.dtype!r} to "
                            f"{np.dtype(np.intp)!r} according to the rule 'safe'")
        return repeats.astype(np.intp)
    if isinstance(repeats, (list, tuple)):
        counts = np.array(repeats, dtype=np.intp)
        if counts.ndim > 1:
            raise ValueError("setting an array element with a sequence. The requested array "
                             "would exceed the maximum number of dimension of 1.")
        return counts
    return np.array(int(repeats), dtype=np.intp)


def repeat(a, repeats, axis=None):
    """A new array of ``a``'s dtype with each element repeated (along ``axis``).

    Parameters
    ----------
    a : array_like
        Input array.
    repeats : int or array_like of ints
        Repetitions of each element, broadcast to ``a.shape[axis]``.  Host data decides the
        output shape without a sync; a lazy ``repeats`` array is synced.
    axis : int, optional
        The axis to repeat along; by default the flattened array.
    """
    node = to_node(a)
    if axis is None or not node.shape:
        node = reshape_node(node, (node.size,))
        axis = 0 if axis is None else axis
    axis = normalize_axis(axis, len(node.shape))
    counts = _repeat_counts(repeats)
    n = node.shape[axis]
    if counts.size == 1:
        r = int(counts.reshape(-1)[0])
        if r < 0:
            if n:
                raise ValueError("repeats may not contain negative values.")
            r = 0           # NumPy: an empty axis repeated any number of times stays empty
        if r == 1:
            return wrap(node)
        shape = node.shape
        wide = broadcast_node(_expand(node, axis + 1), shape[:axis + 1] + (r,) + shape[axis + 1:])
        return wrap(reshape_node(wide, shape[:axis] + (n * r,) + shape[axis + 1:]))
    if counts.shape[0] != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) "
                         f"({counts.shape[0]},)")
    if (counts < 0).any():
        raise ValueError("repeats may not contain negative values.")
    index = np.repeat(np.arange(n, dtype=np.int64), counts)
    index.flags.writeable = False
    return wrap(nodes.apply(TAKE, (node, nodes.constant(index)), (axis,)))


def resize(a, new_shape):
    """A new array of ``new_shape`` filled with ``a``'s flat data, cycled (zeros if empty).

    Parameters
    ----------
    a : array_like
        Array to resize (read in C order).
    new_shape : int or tuple of ints
        Shape of the result.
    """
    if isinstance(new_shape, (int, np.integer)):
        new_shape = (new_shape,)
    node = to_node(a)
    node = reshape_node(node, (node.size,))
    new_size = 1
    for d in new_shape:
        new_size *= d
        if d < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    shape = tuple(as_index(d) for d in new_shape)
    if node.size == 0 or new_size == 0:
        return wrap(broadcast_node(nodes.scalar(0, node.dtype), shape))
    copies = -(-new_size // node.size)
    cycled = reshape_node(broadcast_node(reshape_node(node, (1, node.size)), (copies, node.size)),
                      (copies * node.size,))
    return wrap(reshape_node(_slice(cycled, 0, 0, new_size), shape))


def roll(a, shift, axis=None):
    """A new array: elements rolled along ``axis`` (those falling off one end come back).

    Parameters
    ----------
    a : array_like
        Input array.
    shift : int or tuple of ints
        Places to shift; broadcast against ``axis`` (shifts for one axis add up).
    axis : int or tuple of ints, optional
        Axes to roll; by default the flattened array is rolled and reshaped back.
    """
    node = to_node(a)
    shift = _host(shift, "roll")
    if axis is None:
        flat = _roll(reshape_node(node, (node.size,)), shift, (0,))
        return wrap(reshape_node(flat, node.shape))
    if not isinstance(axis, (tuple, list)):
        axis = (axis,)
    ndim = len(node.shape)
    return wrap(_roll(node, shift, tuple(normalize_axis(ax, ndim) for ax in axis)))


def _roll(node, shift, axes):
    if type(shift) is int and len(axes) == 1:       # the common case, without np.broadcast
        shifts = {axes[0]: shift}
    else:
        pairs = np.broadcast(shift, axes)
        if pairs.ndim > 1:
            raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
        shifts = dict.fromkeys(range(len(node.shape)), 0)
        for sh, ax in pairs:
            shifts[int(ax)] += int(sh)
    for ax, offset in shifts.items():
        offset %= node.shape[ax] or 1
        if offset:
            node = nodes.apply(ROLL, (node,), (ax, offset))
    return node


# -- broadcasting and differences ---------------------------------------------------------------
def broadcast_shapes(*args):
    """The tuple shape that arrays of shapes ``args`` broadcast to (NumPy's rules, errors).

    Parameters
    ----------
    *args : tuples of ints, or ints
        The shapes.
    """
    return np.broadcast_shapes(*args)


def broadcast_arrays(*args, subok=False):
    """Broadcast arrays against each other.

    Parameters
    ----------
    *args : array_like
        The arrays.

    Returns
    -------
    tuple of ndarray
        Inputs that already have the common shape are returned as they are; the others are
        read-only broadcast views (NumPy returns writeable ones that warn on write).
    """
    arrays = [to_array(a) for a in args]
    if not arrays:
        return ()
    shape = np.broadcast_shapes(*[a.shape for a in arrays])
    return tuple(a if a.shape == shape else broadcast_to(a, shape) for a in arrays)


def diff(a, n=1, axis=-1, prepend=_NoValue, append=_NoValue):
    """The n-th discrete difference along ``axis``.

    Parameters
    ----------
    a : array_like
        Input of at least one dimension.
    n : int, optional
        Times to difference; 0 returns ``a`` itself.
    axis : int, optional
        The axis (default the last).
    prepend, append : array_like, optional
        Values joined to ``a`` along ``axis`` first (0-d values are broadcast).

    Returns
    -------
    ndarray
        ``n`` shorter along ``axis``; booleans use ``not_equal``, others ``subtract``
        (with its dtype rules).
    """
    if n == 0:
        return a
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    node = to_node(a)
    if not node.shape:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = normalize_axis(axis, len(node.shape))
    parts, memory = [node], [_on_shape(layout_of(a), node.shape)]
    for extra, at in ((prepend, 0), (append, 1)):
        if extra is not _NoValue:
            value = to_node(extra)
            layout = _on_shape(layout_of(extra), value.shape)
            if not value.shape:     # NumPy broadcasts it: stride 0 everywhere
                shape = node.shape[:axis] + (1,) + node.shape[axis + 1:]
                value, layout = broadcast_node(value, shape), (shape, (0,) * len(shape), 0)
            parts.insert(len(parts) * at, value)
            memory.insert(len(memory) * at, layout)
    result = _join(parts, axis, memory=memory) if len(parts) > 1 else to_array(a)
    op = np.not_equal if result.dtype == dtypes.BOOL else np.subtract
    for _ in range(n):
        # Slices of the array itself (views), so the result follows its memory order.
        size = result.shape[axis]
        before = (slice(None),) * axis
        result = call(op, (result[before + (slice(min(1, size), size),)],
                           result[before + (slice(0, max(size - 1, 0)),)]))
    return result


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """``vstack`` under NumPy's deprecated name (with NumPy's DeprecationWarning)."""
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                  DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)
