"""Data movement primitives: strided views, writes into views, concatenation, iota.

Every NumPy view (slices with any step, transposes, broadcasts, reshapes of contiguous
data, diagonals, flips) is one ``view`` node: ``(shape, strides, offset)`` in elements over
the C-order flattening of its base, exactly NumPy's own memory model.  Kernels treat it as
index math (``offset + sum(i_k * stride_k)``), never as a copy.  A write through a view is
``view_scatter``: a new version of the base with the view's region replaced.
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from .registry import register
from .shapes import normalize_axis
from .node import numel as _numel, apply as _apply_node


def view_extent(shape, strides, offset) -> tuple:
    """Lowest and highest flat element index a strided view touches (None if empty), as
    plain ints: they are only compared (symbolic arithmetic here would cost a SymInt
    expression per dim on every traced view)."""
    low = high = int(offset)
    for d, s in zip(shape, strides):
        d, s = int(d), int(s)
        if d == 0:
            return None
        if s > 0:
            high += (d - 1) * s
        else:
            low += (d - 1) * s
    return low, high


def _view_shape(args, attrs):
    shape, strides, offset = attrs
    if len(shape) != len(strides) or any(d < 0 for d in shape):
        raise ValueError(f"bad view shape {shape} / strides {strides}")
    extent = view_extent(shape, strides, offset)
    if extent is not None and (extent[0] < 0 or extent[1] >= _numel(args[0].shape)):
        raise ValueError(f"view {attrs} reaches outside its base of size {args[0].size}")
    return tuple(shape)



def strided_window(flat: np.ndarray, shape, strides, offset, writeable=False):
    """The strided window over C-contiguous ``flat``.  NumPy's ndarray constructor checks
    that the window stays inside the buffer (negative strides included) and is ~10x cheaper
    than ``as_strided``."""
    shape = [int(d) for d in shape]         # plain ints: SymInt arithmetic builds expressions
    if 0 in shape:
        return np.empty(shape, flat.dtype)
    item = flat.itemsize
    out = np.ndarray(shape, flat.dtype, flat, int(offset) * item, [int(s) * item for s in strides])
    if not writeable:
        out.flags.writeable = False
    return out


def _view_reference(arrays, attrs):
    base = arrays[0]
    if base.flags.c_contiguous:
        return strided_window(base.reshape(-1), *attrs)
    # A non-contiguous base (often a stride-0 broadcast of one scalar): gather just the
    # view's elements instead of copying the whole base to make it contiguous.
    shape, strides, offset = attrs
    if not base.size:
        return np.empty(shape, base.dtype)
    flat = np.full(shape, offset, dtype=np.int64)
    for axis, (d, s) in enumerate(zip(shape, strides)):
        flat += (np.arange(d, dtype=np.int64) * s).reshape((d,) + (1,) * (len(shape) - axis - 1))
    return base[_unravel(flat, base.shape)]


def _unravel(flat: np.ndarray, shape) -> tuple:
    """C-order coordinates of the flat indices ``flat`` in ``shape``.  Not
    ``np.unravel_index``: NumPy 2.4's gives wrong coordinates past its 8192-element iterator
    buffer for index arrays with a trailing length-1 axis (numpy/numpy#31980), which a
    view of shape (n, 1) over a strided base is."""
    coords = []
    for d in reversed(shape[1:]):
        flat, coord = np.divmod(flat, d)
        coords.append(coord)
    coords.append(flat)
    return tuple(reversed(coords))


VIEW = register("view", "view", shape=_view_shape, dtype=lambda args, attrs: args[0].dtype,
                reference=_view_reference,
                doc="Strided view (shape, strides, offset) over the flattened base; index math.")


# VJP (lazynum.autograd): the base's cotangent is g put back where the view read it: a
# reshape/transpose back, a view_scatter into zeros, or a scatter_add where the view reads
# an element more than once (broadcasts are summed first).  See derivatives.view_cotangent.
from . import derivatives as _d  # noqa: E402

VIEW.vjp = lambda node, g: (_d.view_cotangent(node.args[0], g, node.attrs),)
# where g is known zero (a where/clip upstream), the base's cotangent is too (NaN safety)
VIEW.vjp.carry_mask = lambda node, mask, index: _d.view_mask(node.args[0], mask, node.attrs)


def region(attrs) -> tuple:
    """A ``view_scatter``'s region ``(shape, strides, offset)`` (its attrs may add a box)."""
    return attrs if len(attrs) == 3 else attrs[:3]


def box(attrs):
    """A ``view_scatter``'s region as a box of its base, or None: ``(starts, lengths, dims)``
    where base dim ``d`` is written over ``[starts[d], starts[d] + lengths[d])`` and value dim
    ``k`` lies along base dim ``dims[k]`` (-1: an axis the key inserted).  The front end adds
    it when it knows the box exactly (a basic key with unit steps on an array's own storage:
    ``frontend.indexing.basic.write_box``); a kernel then computes the write as
    ``where(inside the box, value, base)`` in one pass (``_view_scatter_lowering``)."""
    return attrs[3] if len(attrs) == 4 else None


def _view_scatter_shape(args, attrs):
    base, value = args
    region_shape = _view_shape((base,), region(attrs))
    if value.shape != region_shape:
        raise ValueError(f"view_scatter value shape {value.shape} != region {region_shape}")
    written = box(attrs)
    if written is not None and not (len(written[0]) == len(written[1]) == len(base.shape)
                                    and len(written[2]) == len(region_shape)):
        raise ValueError(f"view_scatter box {written} does not match base {base.shape} "
                         f"and region {region_shape}")
    return base.shape


def _view_scatter_dtype(args, attrs):
    if args[0].dtype != args[1].dtype:
        raise TypeError(f"view_scatter needs equal dtypes, got {args[0].dtype}, {args[1].dtype}")
    return args[0].dtype


def _view_scatter_inplace(arrays, attrs):
    base, value = arrays
    window = strided_window(base.reshape(-1), *region(attrs), writeable=True)
    if window.size:
        window[...] = value
    return base


def _view_scatter_reference(arrays, attrs):
    return _view_scatter_inplace([np.array(arrays[0], copy=True, order="C"), arrays[1]], attrs)


VIEW_SCATTER = register(
    "view_scatter", "view", shape=_view_scatter_shape, dtype=_view_scatter_dtype,
    reference=_view_scatter_reference, reference_inplace=_view_scatter_inplace,
    doc="A new version of base whose strided region (shape, strides, offset) holds value; "
        "attrs[3], when present, is the region as a box of base (``movement.box``).")



@_d.uses_needs
def _view_scatter_vjp(node, g, needs=None):
    # the base keeps g outside the region (the region was overwritten); value gets g's region
    value = node.args[1]
    return (_d.apply("view_scatter", (g, _d.zeros(value.shape, g.dtype)), node.attrs)
            if _d.wanted(needs, 0) else None,
            _d.apply("view", (g,), region(node.attrs)) if _d.wanted(needs, 1) else None)


VIEW_SCATTER.vjp = _view_scatter_vjp


def _concat_shape(args, attrs):
    (axis,) = attrs
    first = args[0].shape
    if not 0 <= axis < len(first):
        raise ValueError(f"concatenate axis {axis} invalid for rank {len(first)}")
    total, rank = 0, len(first)
    for a in args:
        shape = a.shape
        if shape is not first and (len(shape) != rank or shape[:axis] != first[:axis]
                                   or shape[axis + 1:] != first[axis + 1:]):
            raise ValueError("all the input array dimensions except for the concatenation axis "
                             f"must match exactly, got shapes {[x.shape for x in args]}")
        total += shape[axis]
    return first[:axis] + (total,) + first[axis + 1:]


def _concat_dtype(args, attrs):
    if any(a.dtype != args[0].dtype for a in args):
        raise TypeError("concatenate primitive needs equal dtypes (the front end promotes)")
    return args[0].dtype


CONCATENATE = register("concatenate", "view", shape=_concat_shape, dtype=_concat_dtype,
                       reference=lambda arrays, attrs: np.concatenate(arrays, axis=attrs[0]),
                       doc="Join equal-dtype arrays along attrs[0].")



@_d.uses_needs
def _concatenate_vjp(node, g, needs=None):
    # each input's cotangent is its slab of g along the axis (a view)
    (axis,) = node.attrs
    strides, start, out = _d.c_strides(g.shape), 0, []
    for index, arg in enumerate(node.args):
        slab = (tuple(arg.shape), strides, start * strides[axis])
        out.append(_d.apply("view", (g,), slab) if _d.wanted(needs, index) else None)
        start = start + arg.shape[axis]
    return tuple(out)


CONCATENATE.vjp = _concatenate_vjp


def _roll_shape(args, attrs):
    axis, shift = attrs
    shape = args[0].shape
    if not 0 <= axis < len(shape):
        raise ValueError(f"roll axis {axis} invalid for rank {len(shape)}")
    if not 0 < shift < shape[axis]:
        raise ValueError(f"roll shift {shift} not in (0, {shape[axis]}): the front end "
                         "normalizes it (a zero shift is no node)")
    return shape


def _roll_reference(arrays, attrs):
    # Two slices and one concatenate: what np.roll does, without its argument handling.
    x = arrays[0]
    axis, shift = attrs
    cut = int(x.shape[axis]) - int(shift)
    lead = (slice(None),) * axis
    return np.concatenate((x[lead + (slice(cut, None),)], x[lead + (slice(None, cut),)]),
                          axis=axis)


ROLL = register("roll", "view", shape=_roll_shape, dtype=lambda args, attrs: args[0].dtype,
                reference=_roll_reference,
                doc="Elements shifted by attrs[1] (0 < shift < size) along axis attrs[0], "
                    "wrapping around: out[i] = x[(i - shift) mod size].  In a kernel it is "
                    "index math on its argument, as a view is.")
# the cotangent rolls back: by size - shift, the other way round
ROLL.vjp = lambda node, g: (_d.apply("roll", (g,), (node.attrs[0],
                                                   node.shape[node.attrs[0]] - node.attrs[1])),)


def _iota_shape(args, attrs):
    shape, axis = attrs
    normalize_axis(axis, len(shape))
    return tuple(shape)


def _iota_reference(arrays, attrs):
    shape, axis = attrs
    line = np.arange(shape[axis], dtype=np.int64)
    line = line.reshape((-1,) + (1,) * (len(shape) - axis - 1))
    return np.broadcast_to(line, shape)


IOTA = register("iota", "creation", shape=_iota_shape, dtype=lambda args, attrs: dtypes.INT64,
                reference=_iota_reference,
                doc="int64 array of `shape` whose value is the index along `axis`.")
IOTA.vjp = _d.NOT_FLOAT


def _literal_value(attrs):
    text, dtype = attrs
    if dtype.kind == "c":
        real, imag = text.split(",")
        return np.array(complex(float(real), float(imag)), dtype=dtype)
    return np.array(float(text) if dtype.kind == "f" else int(text), dtype=dtype)


LITERAL = register("literal", "creation", shape=lambda args, attrs: (),
                   dtype=lambda args, attrs: attrs[1],
                   reference=lambda arrays, attrs: _literal_value(attrs),
                   doc="A 0-d constant that lazynum itself introduces (a reduction's identity, "
                       "a padding fill): its value is part of the key, so equal ones are one "
                       "node.  User scalars are never literals (they are runtime parameters).")
LITERAL.vjp = _d.NoGradient("a constant")


def literal(value, dtype):
    """The interned 0-d ``dtype`` constant ``value`` (see ``LITERAL``).

    The key holds the value's text (``repr`` of the converted value), so 0.0 and -0.0 stay
    distinct while equal values share one node (CSE across reductions' fills).
    """
    dtype = np.dtype(dtype)
    converted = np.array(value).astype(dtype).item()
    if dtype.kind == "c":       # both parts, signed zeros kept
        text = f"{float(converted.real)!r},{float(converted.imag)!r}"
    else:
        text = repr(float(converted)) if dtype.kind == "f" else str(int(converted))
    return _apply_node(LITERAL, (), (text, dtype))


# --- kernel lowerings (lazynum.compile) ------------------------------------------------------
# A view is index math (the scheduler composes it into its consumers' addresses, never a
# copy); so is a roll (a modular index); iota is the loop index itself; a write into a box
# is a select on the output index.  Other writes into views and concatenation are extern calls.
from .registry import EXTERN, declare_lowering  # noqa: E402


def _view_lowering(builder, node, args):
    return builder.view(node)


def _roll_lowering(builder, node, args):
    return args[0]          # the argument's value, read where ``arg_index`` points


# A lowering's ``arg_index`` says where the kernel reads each argument for output index
# ``at`` (by default, ``at`` broadcast to the argument's rank).
_roll_lowering.arg_index = lambda builder, node, at: [builder.rolled_index(node, at)]


def _view_scatter_lowering(builder, node, args):
    """``where(inside the box, value, base)``: the value is read where ``region_index`` maps
    the output index into it (clamped into the box, so every load is in bounds)."""
    base, value = args
    return builder.op("select", (builder.region_mask(node), value, base), node.dtype)


_view_scatter_lowering.arg_index = lambda builder, node, at: [at, builder.region_index(node, at)]
_view_scatter_lowering.remapped_args = (1,)      # (the base is read at the output's point)
# A region that is not a box of its base (a write through a transpose, a reshape, a step)
# runs as NumPy's strided assignment.
_view_scatter_lowering.refuses = lambda node: (
    None if box(node.attrs) is not None else
    "a write into a region that is not a unit-step box of its array's own storage")


def _iota_lowering(builder, node, args):
    return builder.loop_index(node.attrs[1])


def _literal_lowering(builder, node, args):
    return builder.const(_literal_value(node.attrs).item(), node.dtype)


declare_lowering(VIEW, _view_lowering)
declare_lowering(IOTA, _iota_lowering)
declare_lowering(ROLL, _roll_lowering)
declare_lowering(LITERAL, _literal_lowering)
declare_lowering(VIEW_SCATTER, _view_scatter_lowering)
declare_lowering(CONCATENATE, EXTERN)
