"""Advanced indexing: integer-array and boolean-mask keys, ``take``/``put`` and friends.

Reading ``a[idx]`` is a gather (``take`` along one axis, after a view has moved and
merged the indexed axes); writing ``a[idx] = v`` is a ``scatter`` into the storage at
*storage-level* flat indices (``offset + sum(i_k * stride_k)`` over the view's layout), so
every view of the same storage sees the write, exactly as in NumPy.

Index bounds: indices that live on the host (lists, NumPy arrays, ints) are checked at the
call, with NumPy's IndexError; lazy index arrays go through the ``check_index`` primitive,
which raises the same IndexError at the sync, naming the op and the line that traced it.

Boolean masks have a data-dependent result shape, so they are synced (``boolean_index`` in
the metrics) and turned into integer indices -- except ``a[mask] = v`` where ``v``
broadcasts without knowing how many elements are selected: that is a lazy ``select``.
``nonzero``, ``flatnonzero``, ``argwhere``, ``compress`` and ``extract`` sync likewise.
"""
from __future__ import annotations

import operator

import numpy as np

from ...array.extension import extensible
from ...expr import dtypes
from ...array import layout as layouts
from ...array.arraytype import ndarray, wrap, wrap_ordered
from ...array.conversion import broadcast_node, cast, to_array, to_node
from ...expr import node as nodes
from ...expr.elementwise import SELECT, UFUNC_OPS
from ...expr.graph import toposort
from ...expr.indexing import (CHECK_INDEX, PUT_ALONG_AXIS, SCATTER, TAKE,
                              TAKE_ALONG_AXIS, normalize_indices)
from ...expr.movement import IOTA, VIEW
from ...expr.shapes import broadcast_shapes, c_strides, normalize_axis, size_of
from ..fallbacks import fallback, numpy_out
from ..manipulation import ravel
from .basic import (_is_basic, base_and_layout, basic_layout, broadcast_value, convert_value,
                    view_node)


__all__ = ["take", "take_along_axis", "put", "put_along_axis", "place", "nonzero",
           "flatnonzero", "argwhere", "compress", "extract", "diag_indices",
           "diag_indices_from"]

INT64 = dtypes.INT64
_MODES = ("raise", "wrap", "clip")


# -- small node/host helpers ---------------------------------------------------------------
def _host(array) -> "nodes.Node":
    """A leaf for a host array the library just made (no defensive copy needed)."""
    array = np.asarray(array)
    array.flags.writeable = False
    return nodes.constant(array)


def _inode(x) -> "nodes.Node":
    """An int64 index (host array, Python int or node) as a node."""
    if isinstance(x, nodes.Node):
        return x
    if isinstance(x, int):
        return nodes.scalar(x, INT64)
    return _host(np.asarray(x, dtype=np.int64))


def _iop(name, x, y):
    """Integer index arithmetic: on the host when both sides are, else a graph node."""
    if not isinstance(x, nodes.Node) and not isinstance(y, nodes.Node):
        return getattr(np, name)(x, y)
    return nodes.apply(UFUNC_OPS[name], (_inode(x), _inode(y)), ())


def _shape(x) -> tuple:
    return x.shape if isinstance(x, nodes.Node) else np.shape(x)


def _reshape(x, shape):
    shape = tuple(shape)
    if _shape(x) == shape:
        return x
    if isinstance(x, nodes.Node):
        return nodes.apply(VIEW, (x,), (shape, c_strides(shape), 0))
    return np.reshape(x, shape)


def _flat(node) -> "nodes.Node":
    return _reshape(node, (node.size,))


# -- index normalization ---------------------------------------------------------------------
def _checked(idx, size: int, axis: int):
    """Normalized indices: host ones checked now, lazy ones by ``check_index`` at the sync."""
    if isinstance(idx, ndarray):
        return nodes.apply(CHECK_INDEX, (idx._n(),), (size, axis))
    return normalize_indices(idx, size, axis)


def _with_mode(idx, size: int, axis: int, mode: str, others: int = 1, outer: int = 1):
    """Indices into an axis of ``size`` under take/put's ``mode`` (raise, wrap, clip).

    ``others`` is the size of the result's other dims, ``outer`` that of the dims before
    ``axis``: NumPy checks bounds only while it loops over those.
    """
    if size == 0 and size_of(idx.shape) and others:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if (size == 0 and mode != "raise") or not outer:
        return np.zeros(idx.shape, np.int64)        # nothing is read: any index will do
    if mode == "raise":
        return _checked(idx, size, axis)
    if isinstance(idx, ndarray):
        node = cast(idx._n(), INT64)
        if mode == "wrap":
            return _iop("remainder", node, size)
        return _iop("maximum", _iop("minimum", node, size - 1), 0)
    idx = idx.astype(np.int64, copy=False)
    return np.mod(idx, size) if mode == "wrap" else np.clip(idx, 0, max(size - 1, 0))


def _index_operand(x):
    """An index argument of take/put as a lazy array or an int64-able host array."""
    if isinstance(x, ndarray):
        arr = x
    elif isinstance(x, np.ndarray):
        arr = x
    else:
        arr = np.asarray(x)
        if arr.dtype.kind == "f" or (arr.size == 0 and arr.dtype.kind not in "iub"):
            arr = np.asarray(x, dtype=np.int64)   # Python numbers convert like int()
    kind = arr.dtype.kind
    if kind == "b":
        return arr.astype(INT64) if isinstance(arr, ndarray) else arr.astype(np.int64)
    if kind not in "iu":
        raise TypeError(f"Cannot cast array data from {arr.dtype!r} to dtype('int64') "
                        "according to the rule 'safe'")
    return arr


def _check_mode(mode):
    if mode not in _MODES:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")


# -- parsing an advanced key -----------------------------------------------------------------
def _mask_value(mask):
    """Host value of a boolean mask (a lazy one is synced: data decides the result shape)."""
    if isinstance(mask, ndarray):
        return mask._value("boolean_index")
    return np.asarray(mask)


def _check_mask_shape(mask_shape, shape, dim):
    for j, m in enumerate(mask_shape):
        # NumPy lets a mask dim of extent 0 stand against any extent (nothing is selected)
        if shape[dim + j] != m and m != 0:
            raise IndexError(f"boolean index did not match indexed array along axis {dim + j}; "
                             f"size of axis is {shape[dim + j]} but size of corresponding "
                             f"boolean axis is {m}")


def _parse_item(item, shape, dim):
    """One key item at array dim ``dim``: ``(basic items, advanced index or None, dims used)``.

    The advanced index is the raw integer array or boolean mask (a boolean scalar as a 0-d
    mask); its basic items are full slices over the dims it indexes, or a new axis for a
    0-d mask (length 0 or 1, selected or not).  Nothing is synced here.
    """
    if item is None:
        return [None], None, 0
    if isinstance(item, slice):
        return [item], None, 1
    if isinstance(item, (bool, np.bool_)):
        return [None], np.asarray(item), 0
    if not isinstance(item, (ndarray, np.ndarray)):
        return [operator.index(item)], None, 1
    if item.dtype == dtypes.BOOL:
        if item.ndim == 0:
            return [None], item, 0
        _check_mask_shape(item.shape, shape, dim)
        return [slice(None)] * item.ndim, item, item.ndim
    if item.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return [slice(None)], item, 1


def _parse(a, items, positions):
    """Split an advanced key into basic items and advanced entries, without syncing.

    Returns ``(basic, entries, adjacent)``: ``basic`` applies with ``basic_layout``;
    ``entries`` are ``(view dim, index, array dim)`` for each array item; ``adjacent`` says
    whether the advanced items (integers included) sit next to each other in the original
    key (``positions``), in which case the broadcast index dims replace them in place,
    else NumPy puts them first.
    """
    basic, entries, slots = [], [], []
    dim = vdim = 0
    for item, position in zip(items, positions):
        parts, index, used = _parse_item(item, a.shape, dim)
        if index is not None:
            entries.append((vdim, index, dim))
        if index is not None or not (item is None or isinstance(item, slice)):
            slots.append(position)
        basic += parts
        dim += used
        vdim += sum(1 for part in parts if not isinstance(part, int))
    return basic, entries, slots == list(range(slots[0], slots[0] + len(slots)))


def _indices(entry, shape):
    """An entry as ``(view dim, index)`` pairs: an integer array still to be checked as
    ``(raw, axis size, axis)``; a mask synced into int64 indices, one per mask dim."""
    vdim, index, dim = entry
    if index.dtype != dtypes.BOOL:
        return [(vdim, (index, shape[dim], dim))]
    mask = _mask_value(index)
    if mask.ndim == 0:
        return [(vdim, np.zeros(int(bool(mask)), np.int64))]
    return [(vdim + j, nz.astype(np.int64, copy=False)) for j, nz in enumerate(np.nonzero(mask))]


def _index_shape(shapes) -> tuple:
    try:
        return broadcast_shapes(*shapes) if shapes else ()
    except ValueError:
        shown = " ".join(str(tuple(s)).replace(" ", "") for s in shapes)
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         f"with shapes {shown}") from None


_READ = object()        # _plan's value for a read (a[key]): no value to convert


def _plan(a, parsed, value=_READ):
    """(base node, region layout, indices, broadcast index shape, position of index dims,
    value node).

    The region is a layout over ``base`` whose dims ``[p, p + len(indices))`` are the indexed
    ones (moved to the front when the advanced items are not adjacent, as NumPy does).
    A setitem's ``value`` comes back converted to a's dtype and broadcast to the result
    (None for a read), in NumPy's order: after the key's integers, converted before the
    index arrays broadcast, broadcast before their bounds are checked.
    """
    basic, entries, adjacent = parsed
    pairs = [pair for entry in entries for pair in _indices(entry, a.shape)]
    base, layout = base_and_layout(a)
    region = basic_layout(layout, basic)
    node = None if value is _READ else convert_value(value, a.dtype)
    vdims = [vd for vd, _ in pairs]
    bshape = _index_shape([(idx[0] if isinstance(idx, tuple) else idx).shape for _, idx in pairs])
    # NumPy checks 0-d indices like integers, the others only when something is selected.
    check = size_of(bshape) > 0
    if adjacent:
        p = vdims[0]
    else:
        rest = [d for d in range(len(region[0])) if d not in vdims]
        region = layouts.transpose(region, vdims + rest)
        p = 0
    if node is not None:
        shape = region[0]
        node = _fancy_value(node, shape[:p] + bshape + shape[p + len(pairs):])
    idxs = [idx if not isinstance(idx, tuple) else _checked(*idx) if check or not idx[0].shape
            else np.zeros(idx[0].shape, np.int64) for _, idx in pairs]
    return base, region, idxs, bshape, p, node


def _shape_text(shape) -> str:
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _fancy_value(node, result):
    """A setitem value broadcast to the indexing ``result`` as NumPy's fancy assignment does:
    extra leading dims are reshaped away when the sizes agree (so an empty value of any
    leading dims fits an empty result), then the value broadcasts."""
    result = tuple(result)
    extra = len(node.shape) - len(result)
    tail = node.shape[extra:] if extra > 0 else node.shape
    if size_of(tail) == size_of(node.shape):
        try:
            return broadcast_node(view_node(node, (tail, c_strides(tail), 0)), result)
        except ValueError:
            pass
    raise ValueError(f"shape mismatch: value array of shape {_shape_text(node.shape)} could "
                     f"not be broadcast to indexing result of shape {_shape_text(result)}")


def _flat_targets(region, idxs, bshape, p):
    """Storage-level flat indices of ``region[..., idx, ...]`` and the result shape."""
    shape, strides, offset = region
    k = len(idxs)
    pre, post = shape[:p], shape[p + k:]
    result = pre + bshape + post
    target = offset
    for idx, stride in zip(idxs, strides[p:p + k]):
        target = _iop("add", target, _iop("multiply", idx, stride))
    if k:
        target = _reshape(target, (1,) * len(pre) + bshape + (1,) * len(post))
    rest = np.zeros((1,) * len(result), np.int64)
    for q, (d, s) in enumerate(zip(pre + (1,) * len(bshape) + post,
                                   strides[:p] + (0,) * len(bshape) + strides[p + k:])):
        if d > 1 and s:
            rest = rest + (np.arange(d, dtype=np.int64) * s).reshape(
                (1,) * q + (d,) + (1,) * (len(result) - q - 1))
    if rest.any():
        target = _iop("add", target, rest)
    if isinstance(target, nodes.Node):
        return broadcast_node(target, result), result
    return np.broadcast_to(np.asarray(target, np.int64), result), result


# -- a[key] and a[key] = value --------------------------------------------------------------
def advanced_getitem(a, items, positions):
    """``a[items]`` for a key with integer or boolean arrays (a gather; always a copy)."""
    base, region, idxs, bshape, p, _ = _plan(a, _parse(a, items, positions))
    shape = region[0]
    k = len(idxs)
    if k == 1:
        source, index = view_node(base, region), idxs[0]
    else:
        merged = shape[:p] + (size_of(shape[p:p + k]),) + shape[p + k:]
        layout = layouts.reshape_without_copy(region, merged)
        source = (view_node(base, layout) if layout is not None
                  else _reshape(view_node(base, region), merged))
        index = idxs[0]
        for idx, d in zip(idxs[1:], shape[p + 1:p + k]):
            index = _iop("add", _iop("multiply", index, d), idx)     # shape: bshape
    subspace = layouts.transpose(region, [d for d in range(len(shape)) if not p <= d < p + k])
    return wrap_ordered(nodes.apply(TAKE, (source, _inode(index)), (p,)),
                        layouts.gather_order(subspace, p, len(bshape)))


def _lazy_mask_setitem(a, parsed, value) -> bool:
    """``a[..., mask, ...] = v`` as a select when ``v`` broadcasts whatever the mask's count.

    Only for a key whose one array is a boolean mask, with any integers next to it (the
    index dims stay in place); False (nothing done) when the shortcut does not apply.
    """
    basic, entries, adjacent = parsed
    if len(entries) != 1 or not adjacent or entries[0][1].dtype != dtypes.BOOL:
        return False
    p, mask, _ = entries[0]
    k = max(mask.ndim, 1)             # a 0-d mask is the new axis ``basic`` has at p
    base, layout = base_and_layout(a)
    region = basic_layout(layout, basic)      # the key's integers before the value (NumPy)
    node = convert_value(value, a.dtype)
    shape = region[0]
    if mask.ndim and tuple(mask.shape) != tuple(shape[p:p + k]):
        return False                  # an empty mask dim against a longer axis: selects nothing
    squeezed = shape[:p] + (1,) + shape[p + k:]          # the selected dims as one of length 1
    vshape = node.shape
    while len(vshape) > len(squeezed) and vshape[0] == 1:
        vshape = vshape[1:]
    if len(vshape) > len(squeezed):
        return False
    padded = (1,) * (len(squeezed) - len(vshape)) + vshape
    if padded[p] != 1 or any(v not in (1, d) for v, d in zip(padded, squeezed)):
        return False
    values = broadcast_node(_reshape(node, padded[:p] + (1,) * k + padded[p + 1:]), shape)
    cond = _reshape(to_node(mask), (1,) * p + shape[p:p + k] + (1,) * (len(shape) - p - k))
    cond = broadcast_node(cond, shape)
    a._write(region, nodes.apply(SELECT, (cond, values, view_node(base, region)), ()))
    return True


def advanced_setitem(a, items, positions, value):
    """``a[items] = value`` for integer/boolean array keys (the last duplicate wins)."""
    a._check_writeable()
    parsed = _parse(a, items, positions)
    if _lazy_mask_setitem(a, parsed, value):
        return
    base, region, idxs, bshape, p, values = _plan(a, parsed, value)
    targets, result = _flat_targets(region, idxs, bshape, p)
    if size_of(result) == 0 and not isinstance(targets, nodes.Node) and not _checks(values):
        return      # nothing to write and nothing left to check
    a._replace_storage(nodes.apply(SCATTER, (base, _inode(targets), values), ()))


def _checks(node) -> bool:
    """Whether pending ``node`` holds run-time checks (``x[m] *= v`` with an empty ``m`` still
    raises NumPy's broadcast error, which the multiply left to the sync)."""
    return any(n.op.may_fail for n in toposort([node]))


def _storage_targets(layout, linear):
    """Storage-level flat indices for C-order linear indices into a view with ``layout``."""
    shape, strides, offset = layout
    if layouts.is_c_contiguous(layout):
        return _iop("add", linear, offset) if offset else linear
    target, rest = offset, linear
    for d, s in zip(reversed(shape), reversed(strides)):
        if d == 1:
            continue
        target = _iop("add", target, _iop("multiply", _iop("remainder", rest, d), s))
        rest = _iop("floor_divide", rest, d)
    return target


# -- take / put family -----------------------------------------------------------------------
@numpy_out
def take(a, indices, axis=None, out=None, mode="raise"):
    """Take elements from an array along an axis (NumPy's ``take``).

    Parameters
    ----------
    a : array_like
        Source array.
    indices : array_like of int
        Indices; lazy ones are bounds-checked at the sync (``mode='raise'``).
    axis : int, optional
        Axis to take along; by default the flattened array is used.
    out : lazynum.ndarray, optional
        Written with the result (in place).
    mode : {'raise', 'wrap', 'clip'}
        Out-of-bounds handling, as in NumPy ('clip' also clips negative indices to 0).

    Returns
    -------
    lazynum.ndarray
        ``a.shape[:axis] + indices.shape + a.shape[axis + 1:]``.
    """
    _check_mode(mode)
    a = to_array(a)
    if axis is None:
        source, axis = _flat(a._n()), 0
    else:
        axis = normalize_axis(axis, a.ndim)
        source = a._n()
    others = size_of(source.shape[:axis] + source.shape[axis + 1:])
    idx = _with_mode(_index_operand(indices), source.shape[axis], axis, mode, others,
                     size_of(source.shape[:axis]))
    if source.shape[axis] == 0 and isinstance(idx, np.ndarray) and idx.size:
        # An empty result read from an empty axis (nothing to check): no gather at all.
        shape = source.shape[:axis] + idx.shape + source.shape[axis + 1:]
        result = wrap(broadcast_node(nodes.scalar(0, source.dtype), shape))
    else:
        result = wrap(nodes.apply(TAKE, (source, _inode(idx)), (axis,)))
    if out is not None:
        out[...] = result
        return out
    return result


def _along(arr, indices, axis):
    """take/put_along_axis's operands: ``(source node, checked indices, axis, shape of the
    selection)``; ``axis=None`` works on the flattened array."""
    idx = indices if isinstance(indices, ndarray) else np.asarray(indices)
    if idx.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if idx.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        source, axis = _flat(arr._n()), 0
    else:
        axis = normalize_axis(axis, arr.ndim)
        if idx.ndim != arr.ndim:
            raise ValueError("`indices` and `arr` must have the same number of dimensions")
        source = arr._n()
    full = list(_index_shape([tuple(1 if i == axis else d for i, d in enumerate(s))
                              for s in (source.shape, idx.shape)]))
    full[axis] = idx.shape[axis]
    full = tuple(full)
    if size_of(full):
        checked = _checked(idx, source.shape[axis], axis)
    else:           # nothing is selected: NumPy checks no bounds
        checked = np.zeros(idx.shape, np.int64)
    return source, checked, axis, full


def take_along_axis(arr, indices, axis=-1):
    """Take values from ``arr`` by matching 1-d index and data slices (NumPy's
    ``take_along_axis``).

    Parameters
    ----------
    arr : array_like
        Source array.
    indices : array_like of int
        Same number of dims as ``arr``; broadcasts with it except along ``axis``.
        Negative indices count from the end; lazy ones are checked at the sync.
    axis : int or None, default -1
        The axis to select along; None works on the flattened array (1-d ``indices``).

    Returns
    -------
    lazynum.ndarray
        The gathered values (a new array).
    """
    source, checked, axis, _ = _along(to_array(arr), indices, axis)
    return wrap(nodes.apply(TAKE_ALONG_AXIS, (source, _inode(checked)), (axis,)))


def put_along_axis(arr, indices, values, axis):
    """Put ``values`` into ``arr`` at ``indices`` along ``axis``, in place (NumPy's
    ``put_along_axis``).

    Parameters
    ----------
    arr : lazynum.ndarray
        Destination; every view of its storage sees the write.
    indices : array_like of int
        As for ``take_along_axis``.
    values : array_like
        Broadcast to the selection's shape and cast (unsafely) to ``arr.dtype``.
    axis : int or None
        The axis to write along; None works on the flattened array.

    Notes
    -----
    For repeated indices the last value wins, as in NumPy.
    """
    if not isinstance(arr, ndarray):
        return _into_numpy(np.put_along_axis, arr, indices, values, axis)
    arr._check_writeable()
    flat = axis is None
    source, checked, axis, full = _along(arr, indices, axis)
    vals = broadcast_value(convert_value(values, arr.dtype), full)
    if flat:
        _scatter(arr, SCATTER, _storage_targets(arr._layout(), checked), vals)
        return
    index = broadcast_node(_inode(checked), full)
    arr._write(arr._layout(), nodes.apply(PUT_ALONG_AXIS, (source, index, vals), (axis,)))


def _scatter(a, op, targets, values):
    """Write ``values`` at storage-level flat ``targets`` of a's storage with ``op``."""
    if size_of(_shape(targets)) == 0 and not isinstance(targets, nodes.Node):
        return
    base, _ = base_and_layout(a)
    a._replace_storage(nodes.apply(op, (base, _inode(targets), values), ()))


def put(a, ind, v, mode="raise"):
    """Replace ``a.flat[ind]`` with ``v`` in place (NumPy's ``put``).

    Parameters
    ----------
    a : lazynum.ndarray
        Destination (any layout; writes reach every view of its storage).
    ind : array_like of int
        Flat (C-order) indices into ``a``.
    v : array_like
        Values, flattened and repeated or truncated to ``len(ind)``.
    mode : {'raise', 'wrap', 'clip'}
        Out-of-bounds handling, as in NumPy.
    """
    if not isinstance(a, ndarray):
        return _into_numpy(np.put, a, ind, v, mode=mode)
    _check_mode(mode)
    a._check_writeable()
    idx = _index_operand(ind)
    idx = _reshape(idx._n(), (idx.size,)) if isinstance(idx, ndarray) else idx.reshape(-1)
    count = _shape(idx)[0]
    if count == 0:
        return
    if a.size == 0:
        raise IndexError("cannot replace elements of an empty array")
    idx = wrap(idx) if isinstance(idx, nodes.Node) else idx
    _put_linear(a, _with_mode(idx, a.size, 0, mode), v)


def _put_linear(a, linear, v):
    """``put`` with checked, non-negative 1-d linear indices (``v`` cycled or truncated)."""
    count = _shape(linear)[0]
    values = convert_value(v, a.dtype)
    values = _flat(values) if values.shape != () else values
    m = values.size
    if m == 0:
        return
    if values.shape == ():
        values = broadcast_node(values, (count,))
    elif m != count:
        values = nodes.apply(TAKE, (values, _host(np.arange(count, dtype=np.int64) % m)), (0,))
    _scatter(a, SCATTER, _storage_targets(a._layout(), linear), values)


class FlatIter:
    """``a.flat``: index ``a`` as if it were flattened in C order.

    Reading gives what ``a.ravel()[key]`` gives; writing goes into ``a`` itself (also
    when ``a`` is not contiguous), with values repeated or truncated like NumPy's
    ``flatiter`` assignment.
    """
    __slots__ = ("base",)

    def __init__(self, base):
        self.base = base

    def _ravel(self):
        return ravel(self.base)

    def __len__(self):
        return self.base.size

    def __iter__(self):
        return iter(self._ravel())

    def __array__(self, dtype=None, copy=None):
        return self._ravel().__array__(dtype, copy)

    def __getitem__(self, key):
        return self._ravel()[key]

    def __setitem__(self, key, value):
        a = self.base
        a._check_writeable()
        iota = wrap(nodes.apply(IOTA, (), ((a.size,), 0)))
        linear = iota[key]
        flat = linear._n()
        if flat.shape != (flat.size,):
            flat = _reshape(flat, (flat.size,))
        if flat.size:
            _put_linear(a, flat, value)


def _into_numpy(function, target, *args, **kwargs):
    """An in-place NumPy function whose target is a NumPy array: NumPy writes it (the lazy
    arguments are synced), as a counted fallback."""
    return fallback(f"numpy.{function.__name__}", function, (target,) + args, kwargs, numpy_result=True)


def place(arr, mask, vals):
    """Change elements of ``arr`` where ``mask`` is true to ``vals`` (repeated as needed),
    in place (NumPy's ``place``)."""
    if not isinstance(arr, ndarray):
        return _into_numpy(np.place, arr, mask, vals)
    value = _mask_value(mask)
    if value.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    linear = np.flatnonzero(value)
    if linear.size and to_node(vals).size == 0:
        raise ValueError("Cannot insert from an empty array!")
    put(arr, linear, vals)


# -- data-dependent shapes (sync) ------------------------------------------------------------
@extensible('nonzero')
def nonzero(a):
    """Indices of the non-zero elements (NumPy's ``nonzero``).

    Parameters
    ----------
    a : array_like
        At least 1-d.

    Returns
    -------
    tuple of lazynum.ndarray
        One int64 array per dimension.

    Notes
    -----
    The result's length depends on the data, so ``a`` is synced (reason ``nonzero`` in
    the metrics).
    """
    a = to_array(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead.")
    return tuple(wrap(_host(ix.astype(np.int64, copy=False)))
                 for ix in np.nonzero(a._value("nonzero")))


@extensible('flatnonzero')
def flatnonzero(a):
    """Indices of the non-zero elements of the flattened array (syncs ``a``)."""
    return wrap(_host(np.flatnonzero(to_array(a)._value("nonzero")).astype(np.int64, copy=False)))


@extensible('argwhere')
def argwhere(a):
    """Indices of the non-zero elements grouped by element, shape ``(N, a.ndim)`` (syncs)."""
    return wrap(_host(np.argwhere(to_array(a)._value("nonzero")).astype(np.int64, copy=False)))


@numpy_out
@extensible('compress')
def compress(condition, a, axis=None, out=None):
    """Select slices of ``a`` along ``axis`` where ``condition`` is true (NumPy's
    ``compress``).

    Parameters
    ----------
    condition : 1-d array_like of bool
        May be shorter than the axis (the rest counts as False); a lazy one is synced
        (reason ``boolean_index``).
    a : array_like
        Source array.
    axis : int, optional
        By default the flattened array is used.
    out : lazynum.ndarray, optional
        Written with the result.
    """
    cond = _mask_value(condition) if isinstance(condition, ndarray) else np.asarray(condition)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return take(a, np.flatnonzero(cond), axis=axis, out=out)


@extensible('extract')
def extract(condition, arr):
    """The elements of ``arr`` where ``condition`` is non-zero, flattened (NumPy's
    ``extract``); a lazy condition is synced (reason ``boolean_index``)."""
    cond = _mask_value(condition) if isinstance(condition, ndarray) else np.asarray(condition)
    return take(arr, np.flatnonzero(cond))


def diag_indices(n, ndim=2):
    """Indices to access the main diagonal of an ``ndim``-dimensional array of side ``n``."""
    idx = wrap(_host(np.arange(operator.index(n), dtype=np.int64)))
    return (idx,) * ndim


def diag_indices_from(arr):
    """``diag_indices`` for ``arr`` (at least 2-d, all sides equal)."""
    arr = to_array(arr)
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


# -- ufunc.at's targets ---------------------------------------------------------------------
def at_targets(a, items, positions):
    """Storage-level flat indices and result shape of ``a[items]`` (basic or advanced):
    where ``ufunc.at`` scatters (``ufunc_at``)."""
    if not _is_basic(items):
        base, region, idxs, bshape, p, _ = _plan(a, _parse(a, items, positions))
        return _flat_targets(region, idxs, bshape, p)
    _, layout = base_and_layout(a)
    return _flat_targets(basic_layout(layout, items), [], (), 0)
