"""Bounded arrays as operands: ufuncs, reductions, scans and sorts on the padded data.

Each operation runs the ordinary lazy front end on the *physical* (padded) arrays, so
NumPy's dtype and broadcasting rules come from one place, and adds what bounded dims
need: run-time size checks where NumPy would compare sizes, masks where padding could
reach a result.
"""
from __future__ import annotations

import numpy as np

from ..frontend import creation, manipulation, mathfuncs, reductions, sorting
from ..control import telemetry
from ..array import layout as layouts
from ..array.arraytype import ndarray, scalar_result, wrap_ordered, wrap_scalar
from ..array.conversion import to_array
from ..expr import fp_state, node as nodes
from ..expr.checks import ASSERT_ALL
from ..expr.combines import highest, identity
from ..expr.shapes import normalize_axes, normalize_axis
from .array import BoundedArray, materialized, valid_mask
from ..frontend import linalg, ufuncs


def checked(value: ndarray, ok: ndarray, exception: str, message: str) -> ndarray:
    """``value``, passed through an ``assert_all(ok)`` raised at the sync (in ``value``'s
    memory order: elementwise results over it follow that order, as NumPy's would)."""
    node = nodes.apply(ASSERT_ALL, (value._n(), ok.astype(bool)._n()), (exception, message))
    if isinstance(value, scalar_result):    # a full reduction stays NumPy's scalar kind
        return wrap_scalar(node)
    return wrap_ordered(node, layouts.new_array_order(value._layout(), "K"))


def _aligned(x, ndim):
    """(physical array or scalar, sizes) of an operand, right-aligned to ``ndim`` dims."""
    if isinstance(x, BoundedArray):
        lead = ndim - x.ndim
        return x._data, (None,) * lead + x._sizes
    if isinstance(x, (ndarray, np.ndarray, list, tuple)):
        return to_array(x), (None,) * ndim
    return x, (None,) * ndim


def _crop(array, axis, extent):
    if not isinstance(array, ndarray) or array.ndim <= axis or array.shape[axis] in (1, extent):
        return array
    key = [slice(None)] * array.ndim
    key[axis] = slice(0, extent)
    return array[tuple(key)]


def align(operands):
    """Physical operands made to line up per dim, and the result's sizes (checked).

    NumPy's broadcast rule, with run-time sizes: per result dim, operands that share one
    size node line up as they are (the common case: one mask); otherwise every bounded
    operand is *stretched* (a gather that repeats element 0 when its run-time size is 1)
    to the result's extent: a regular extent > 1 if an operand has one (the result dim is
    then regular), else the largest bound with the broadcast size.  Sizes that neither
    agree nor are 1 raise NumPy's broadcast ValueError at the sync.
    """
    ndim = max(np.ndim(x) if not isinstance(x, BoundedArray) else x.ndim for x in operands)
    parts = [_aligned(x, ndim) for x in operands]
    arrays = [p[0] for p in parts]
    sizes = []
    for k in range(ndim):
        # arrays[j], not parts[j]: an earlier dim may have stretched or cropped it already
        members = [(j, arrays[j], s[k]) for j, (_, s) in enumerate(parts)
                   if isinstance(arrays[j], ndarray) and arrays[j].ndim >= ndim - k]
        bounded = [(j, a, s) for j, a, s in members if s is not None]
        if not bounded:
            sizes.append(None)
            continue
        axes = {j: k - ndim + a.ndim for j, a, _ in members}
        regular = {int(a.shape[axes[j]]) for j, a, s in members if s is None} - {1}
        if len(regular) > 1:
            raise ValueError("operands could not be broadcast together: regular extents "
                             f"{sorted(regular)} differ (dim {k})")
        first = bounded[0][2]
        if not regular and all(s is first for _, _, s in bounded):
            target = min(int(a.shape[axes[j]]) for j, a, _ in bounded)
            for j, a, _ in bounded:
                arrays[j] = _crop(a, axes[j], target)
            sizes.append(first)
            continue
        if regular:                         # the result dim is regular
            extent, size = regular.pop(), None
        else:
            extent = max(int(a.shape[axes[j]]) for j, a, _ in bounded)
            size = _broadcast_size([s for _, _, s in bounded]) if extent else None
        want = extent if size is None else size
        for j, a, s in bounded:
            ok = (s == want) | (s == 1)
            stretched = _stretch(a, axes[j], s, extent)
            arrays[j] = checked(stretched, ok, "ValueError",
                                f"operands could not be broadcast together: a bounded dim's "
                                f"run-time size differs from another operand's (dim {k})")
        sizes.append(size)
    return arrays, tuple(sizes)


def _broadcast_size(sizes):
    """The broadcast of run-time sizes: the one that is not 1 (checked by the caller)."""
    size = sizes[0]
    for other in sizes[1:]:
        if other is not size:
            size = mathfuncs.where(size == 1, other, size)
    return size


def _stretch(array, axis, size, extent):
    """``array`` along ``axis`` as ``extent`` elements: its own where they exist (positions
    past its bound repeat the last, never read unless the sizes check fails), or element 0
    repeated when its run-time ``size`` is 1 (NumPy's broadcast of a size-1 dim)."""
    order = layouts.new_array_order(array._layout(), "K")
    if order is not None:
        # Gather in the array's own memory order, so the result keeps the layout NumPy's
        # operand has (argwhere's is F order: NumPy's elementwise results follow it, and
        # a C-order reshape of them is then a copy, not a view).
        moved = _stretch(array.transpose(order), order.index(axis), size, extent)
        return moved.transpose(tuple(np.argsort(order)))
    bound = int(array.shape[axis])
    if bound == 0:
        return _crop(creation.zeros(tuple(extent if d == axis else n for d, n in enumerate(array.shape)),
                                    dtype=array.dtype), axis, extent)
    positions = creation.arange(extent)
    if bound < extent:
        positions = mathfuncs.clip(positions, 0, bound - 1)
    positions = mathfuncs.where(size == 1, 0, positions)
    return array.take(positions, axis=axis)


def ufunc(uf, inputs, kwargs):
    """``uf(*inputs)`` where some inputs (or ``out``) are bounded."""
    out = kwargs.get("out")
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if (isinstance(out, (ndarray, BoundedArray)) and uf.nout == 1 and kwargs.get("where", True) is True
            and kwargs.get("casting", "same_kind") == "same_kind"):
        return _into(uf, inputs, out, kwargs.get("dtype"))
    if out is not None or kwargs.get("where", True) is not True:
        kwargs = {**kwargs, "out": materialized(kwargs["out"])} if out is not None else kwargs
        return ufuncs.UFUNCS[uf.__name__](*materialized(inputs), **kwargs)
    try:
        arrays, sizes = align(inputs)
    except ValueError:
        numpy_result_dtype(uf, inputs, kwargs)   # NumPy's type error comes before its shape error
        raise
    with fp_state.suspended():
        # The padding (and a selection's unselected rows) hold values NumPy never computes
        # on: their floating-point errors are not the user's (docs/floating-point.md).
        return _padded_ufunc(uf, inputs, arrays, sizes, kwargs)


def _padded_ufunc(uf, inputs, arrays, sizes, kwargs):
    fn = ufuncs.UFUNCS[uf.__name__]
    dtype = _integer_power_dtype(uf, arrays, kwargs)
    integer_power = dtype is not None
    if integer_power and any(s is not None for s in sizes):
        # never computed with the padding's exponents: a computed operand runs the op at
        # once (the immediate tier), and NumPy's negative-power error would fire there
        shape = np.broadcast_shapes(*(tuple(int(d) for d in np.shape(a)) for a in arrays))
        inside = valid_mask(shape, sizes)
        result = fn(arrays[0], _safe_exponent(arrays[1], inside, dtype), **kwargs)
    else:
        result = fn(*arrays, **kwargs)
    source = source_rows(inputs)
    if source is not None:
        operands, keep = source
        if integer_power:          # the rows the mask drops must not raise either
            rows = keep.reshape((-1,) + (1,) * (result.ndim - 1))
            operands = [operands[0], _safe_exponent(operands[1], rows, result.dtype)]
        shadow = fn(*operands, **kwargs)
        if isinstance(result, tuple):
            return tuple(_wrap(r, sizes, (s, keep)) for r, s in zip(result, shadow))
        return _wrap(result, sizes, (shadow, keep))
    if isinstance(result, tuple):
        return tuple(_wrap(r, sizes) for r in result)
    return _wrap(result, sizes)


def numpy_result_dtype(uf, arrays, kwargs):
    """The dtype of ``uf(*arrays)`` (single output) by NumPy's own resolution, on empty
    stand-ins (Python scalars stay weak), computing nothing."""
    probes = [a if isinstance(a, (bool, int, float, complex, np.generic)) else
              np.empty(0, a.dtype if hasattr(a, "dtype") else np.asarray(a).dtype) for a in arrays]
    result = uf(*probes, **{k: v for k, v in kwargs.items() if k in ("dtype", "casting")})
    return result[0].dtype if isinstance(result, tuple) else result.dtype


def _integer_power_dtype(uf, arrays, kwargs):
    """The integer result dtype of ``power(*arrays)``, or None for another ufunc or kind."""
    if uf is not np.power:
        return None
    dtype = numpy_result_dtype(uf, arrays, kwargs)
    return dtype if dtype.kind in "iu" else None


def _safe_exponent(exponent, inside, dtype):
    """An integer power's exponent with 1 outside ``inside``: NumPy raises on a negative
    integer exponent in any element it computes, and the padding (or a row the mask drops)
    must never raise (an empty selection ** -1 is an empty array)."""
    return mathfuncs.where(inside, exponent, 1).astype(dtype)


def _into(uf, inputs, out, dtype):
    """``uf(*inputs, out=out)``: the bounded result written into ``out`` (no sync)."""
    (out._data if isinstance(out, BoundedArray) else out)._check_writeable()   # NumPy's order
    kwargs = {} if dtype is None else {"dtype": dtype}
    produced = numpy_result_dtype(uf, inputs, kwargs)     # NumPy's order: casting, then shapes
    if not np.can_cast(produced, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc '{uf.__name__}' output from {produced!r} to "
                        f"{out.dtype!r} with casting rule 'same_kind'")
    result = ufunc(uf, inputs, kwargs)
    value = conformed(result, out, uf.__name__)
    if isinstance(out, BoundedArray):
        out._store(value)
    else:
        out[tuple(slice(0, int(e)) for e in value.shape)] = value
    return out


def conformed(result, target, name: str) -> ndarray:
    """``result``'s physical values as a value for ``target`` (an in-place op's or an
    ``out=``'s destination): ``target``'s dtype and dims; a run-time size must equal the
    target's or be 1 (then it is broadcast), checked at the sync (NumPy's
    "non-broadcastable output operand" otherwise)."""
    r_sizes = result._sizes if isinstance(result, BoundedArray) else (None,) * np.ndim(result)
    value = (result._data if isinstance(result, BoundedArray) else result).astype(target.dtype)
    t_sizes = target._sizes if isinstance(target, BoundedArray) else (None,) * target.ndim
    t_data = target._data if isinstance(target, BoundedArray) else target
    message = (f"non-broadcastable output operand of {name}: its shape and the broadcast "
               f"shape differ")
    lead = t_data.ndim - value.ndim
    if lead < 0:
        raise ValueError(message)
    ok = None
    for j in range(value.ndim):
        r_size, r_extent = r_sizes[j], int(value.shape[j])
        t_size, t_extent = t_sizes[j + lead], int(t_data.shape[j + lead])
        want = t_size if t_size is not None else t_extent
        if r_size is None:
            if t_size is None and r_extent not in (1, t_extent):
                raise ValueError(message)
            if t_size is not None and r_extent != 1:
                ok = _and(ok, want == r_extent)
            value = _crop(value, j, min(r_extent, t_extent))
        elif r_size is t_size:
            value = _crop(value, j, min(r_extent, t_extent))
        else:
            ok = _and(ok, (r_size == want) | (r_size == 1))
            value = _stretch(value, j, r_size, t_extent)
    if ok is not None:
        value = checked(value, ok, "ValueError", message)
    return manipulation.broadcast_to(value, _region(value, t_data))


def _and(ok, more):
    return more if ok is None else ok & more


def _region(value, t_data):
    """The shape ``value`` fills in ``t_data``: its own extents where it has the dim (a
    bounded dim's physical extent may be below the target's bound), the target's where it
    broadcasts."""
    lead = t_data.ndim - value.ndim
    return tuple(t_data.shape[k] if k < lead or value.shape[k - lead] == 1 else value.shape[k - lead]
                 for k in range(t_data.ndim))


def source_rows(operands):
    """``(operands before compaction, keep)`` when an elementwise op over ``operands`` can
    run on the uncompacted rows: every bounded operand is compacted by the same ``keep``
    (``BoundedArray._uncompacted``) and no other operand varies along that axis (it would line up
    with the compacted rows, not the source's).  None otherwise."""
    ndim = max(np.ndim(x) if not isinstance(x, BoundedArray) else x.ndim for x in operands)
    keep, out = None, []
    for x in operands:
        if isinstance(x, BoundedArray):
            pair = x._uncompacted
            if pair is None or x.ndim != ndim:
                return None
            source, k = pair
            if keep is not None and k._n() is not keep._n():
                return None
            keep = k
            out.append(source)
        else:
            if ndim and np.ndim(x) == ndim and np.shape(x)[0] != 1:
                return None
            out.append(x)
    return None if keep is None else (out, keep)


def _wrap(result, sizes, rows=None):
    if not isinstance(result, ndarray) or all(s is None for s in sizes):
        return result
    lead = result.ndim - len(sizes)
    if rows is not None and (lead or not isinstance(rows[0], ndarray)
                             or tuple(rows[0].shape) != tuple(result.shape)):
        rows = None
    return BoundedArray(result, (None,) * lead + tuple(sizes), rows)


# --- reductions -------------------------------------------------------------------------------

MASKED = ("sum", "prod", "mean", "var", "std", "any", "all")
_EXTREMES = {"max": "maximum", "min": "minimum", "amax": "maximum", "amin": "minimum"}
REDUCTIONS = MASKED + tuple(_EXTREMES)


def _remaining(y, axes, keepdims):
    return tuple(None if k in axes else s for k, s in enumerate(y._sizes)
                 if keepdims or k not in axes)


def reduce(name, y, axis=None, keepdims=False, **kwargs):
    """``lazynum.<name>(y, axis, keepdims, **kwargs)`` with the padding masked out."""
    if kwargs.get("out") is not None or kwargs.get("where", True) is not True \
            or kwargs.get("initial") is not None and name in _EXTREMES:
        return getattr(reductions, name)(y.materialize(), axis=axis, keepdims=keepdims, **kwargs)
    kwargs.pop("where", None)
    axes = tuple(range(y.ndim)) if axis is None else normalize_axes(axis, y.ndim)
    reduced_bounded = [k for k in axes if y._sizes[k] is not None]
    fn = getattr(reductions, name)
    if not reduced_bounded:
        result = fn(y._data, axis=axis, keepdims=keepdims, **kwargs)
        pair = y._uncompacted
        rows = None if pair is None else (fn(pair[0], axis=axis, keepdims=keepdims, **kwargs), pair[1])
        return _wrap(result, _remaining(y, axes, keepdims), rows)
    data, mask = y._data, None
    pair = y._uncompacted
    if pair is not None:
        # Order-free over the selected rows: reduce the source under the selecting mask,
        # so the compaction is never computed for this result.
        source, keep = pair
        data = source
        mask = manipulation.broadcast_to(keep.reshape((-1,) + (1,) * (y.ndim - 1)), source.shape)
        telemetry.log("fusion", f"{name} of a masked selection: reduced over its source under "
                                "the mask, no compaction")
    if mask is None:
        mask = manipulation.broadcast_to(y.valid_mask(reduced_bounded), y._data.shape)
    if name in _EXTREMES:
        result = _extreme(name, y, data, mask, axis, axes, keepdims, kwargs)
    else:
        result = fn(data, axis=axis, keepdims=keepdims, where=mask, **kwargs)
    return _wrap(result, _remaining(y, axes, keepdims))


def _count(y, axes):
    count = None
    for k in axes:
        size = y._sizes[k] if y._sizes[k] is not None else int(y._data.shape[k])
        count = size if count is None else count * size
    return count


def _extreme(name, y, data, mask, axis, axes, keepdims, kwargs):
    fill = identity(_EXTREMES[name], y.dtype)        # the padding never wins
    result = getattr(reductions, name)(data, axis=axis, keepdims=keepdims, where=mask,
                                       initial=fill, **kwargs)
    ufunc_name = _EXTREMES[name]
    return checked(result, _count(y, axes) > 0, "ValueError",
                   f"zero-size array to reduction operation {ufunc_name} which has no identity")


def arg_extreme(name, y, axis=None, keepdims=False):
    """``argmax``/``argmin`` on the true elements (padding filled so it never wins)."""
    if y.ndim > 1 and axis is None:
        return getattr(reductions, name)(y.materialize(), keepdims=keepdims)
    ax = 0 if axis is None else normalize_axis(axis, y.ndim)
    fill = identity(name, y.dtype)
    data = y._data
    if y._sizes[ax] is not None:
        data = mathfuncs.where(y.valid_mask((ax,)), data, np.array(fill, dtype=y.dtype))
    result = getattr(reductions, name)(data, axis=axis, keepdims=keepdims)
    if y._sizes[ax] is not None:          # a regular axis was checked by the front end
        result = checked(result, _count(y, (ax,)) > 0, "ValueError",
                         f"attempt to get {name} of an empty sequence")
    return _wrap(result, _remaining(y, (ax,), keepdims))


def scan(name, y, axis=None, dtype=None):
    """``cumsum``/``cumprod`` along a dim; the padding is the identity, so it never leaks."""
    if axis is None and y.ndim > 1:
        return getattr(reductions, name)(y.materialize(), dtype=dtype)
    ax = 0 if axis is None else normalize_axis(axis, y.ndim)
    data = y._data
    if y._sizes[ax] is not None:
        identity = 0 if name == "cumsum" else 1
        data = mathfuncs.where(y.valid_mask((ax,)), data, np.array(identity, dtype=y.dtype))
    return BoundedArray(getattr(reductions, name)(data, axis=ax, dtype=dtype), y._sizes)


def sort(name, y, axis=-1, **kwargs):
    """``sort``/``argsort``: padding sorted after every true element (NaN or the maximum;
    complex NaN + NaNj, which NumPy's order puts after R + NaNj and NaN + Rj)."""
    if axis is None:
        return getattr(sorting, name)(y.materialize(), axis=None, **kwargs)
    ax = normalize_axis(axis, y.ndim)
    data = y._data
    if y._sizes[ax] is not None:
        last = {"f": np.nan, "c": complex(np.nan, np.nan)}.get(y.dtype.kind, None)
        last = highest(y.dtype) if last is None else last
        data = mathfuncs.where(y.valid_mask((ax,)), data, np.array(last, dtype=y.dtype))
        # true elements keep their place among ties (stable= and kind= together stay an error)
        stable = {"stable": True} if kwargs.get("stable") is not None else {"kind": "stable"}
        kwargs = {**kwargs, **stable}
    return BoundedArray(getattr(sorting, name)(data, axis=ax, **kwargs), y._sizes)


def where(condition, x, y):
    """Three-argument ``where`` with bounded operands (sizes checked like a ufunc's)."""
    arrays, sizes = align((condition, x, y))
    return _wrap(mathfuncs.where(*arrays), sizes)


def astype(y, dtype, **kwargs):
    pair = y._uncompacted
    rows = None if pair is None else (pair[0].astype(dtype, **kwargs), pair[1])
    return BoundedArray(y._data.astype(dtype, **kwargs), y._sizes, rows)


# --- contractions --------------------------------------------------------------------------------

def matmul(a, b):
    """``a @ b`` with bounded operands (1-d or 2-d): a bounded contraction dim is masked to
    zero on both sides and its sizes checked; other bounded dims stay bounded."""
    a_b, b_b = isinstance(a, BoundedArray), isinstance(b, BoundedArray)
    if (a_b and a.ndim > 2) or (b_b and b.ndim > 2):
        return linalg.matmul(materialized(a), materialized(b))
    pa, sa = (a._data, a._sizes) if a_b else (to_array(a), (None,) * np.ndim(a))
    pb, sb = (b._data, b._sizes) if b_b else (to_array(b), (None,) * np.ndim(b))
    ka, kb = sa[-1], sb[0] if len(sb) == 1 else sb[-2]
    if ka is not None or kb is not None:
        pa, pb, check = _masked_contraction(pa, pb, sa, sb)
    else:
        check = None
    result = linalg.matmul(pa, pb)
    rows = sa[:-1] if len(sa) == 2 else ()
    cols = sb[-1:] if len(sb) == 2 else ()
    sizes = rows + cols
    if check is not None:            # the size check rides on the data (not as + 0: -0.0)
        result = checked(result, check == check, "ValueError",
                         "matmul: the contraction dims' run-time sizes differ")
    return _wrap(result, sizes) if sizes else result


def _masked_contraction(pa, pb, sa, sb):
    """Both operands cropped to the smaller bound and zero beyond the run-time size."""
    k_a, k_b = int(pa.shape[-1]), int(pb.shape[0] if pb.ndim == 1 else pb.shape[-2])
    k = min(k_a, k_b)
    pa = pa[..., :k] if k_a > k else pa
    pb = (pb[:k] if pb.ndim == 1 else pb[..., :k, :]) if k_b > k else pb
    contract_b = sb[0] if len(sb) == 1 else sb[-2]
    size_a = sa[-1] if sa[-1] is not None else k_a
    size_b = contract_b if contract_b is not None else k_b
    size = size_a if sa[-1] is not None else size_b           # a lazy one
    inside = creation.arange(k) < size
    pa = mathfuncs.where(inside, pa, np.array(0, dtype=pa.dtype))
    pb = mathfuncs.where(inside if pb.ndim == 1 else inside.reshape(k, 1), pb,
                         np.array(0, dtype=pb.dtype))
    check = checked(size, size_a == size_b, "ValueError",
                    "matmul: the contraction dims' run-time sizes differ")
    return pa, pb, check
