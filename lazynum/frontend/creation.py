"""Array creation: ``array``/``asarray``, filled arrays, ranges, and copies/casts.

Filled arrays are a broadcast view of one scalar leaf: ``zeros((4096, 4096))`` allocates
nothing until a kernel needs it (and a fused kernel never does).
"""
from __future__ import annotations

import math
import operator

import numpy as np

from ..array.extension import extensible
from ..expr import dtypes
from ..array import layout as layouts
from ..expr.symbolic import SymInt, as_index, is_symbolic
from ..array.arraytype import ndarray, scalar_result, wrap, wrap_ordered, wrap_scalar
from ..array.conversion import _contains_lazy, broadcast_node, cast, numpy_constant, to_node
from ..expr import node as nodes
from ..expr.elementwise import SELECT, UFUNC_OPS
from ..expr.movement import CONCATENATE, IOTA
from ..expr.reduce import REDUCE_ANY
from ..expr.shapes import broadcast_shapes, range_length


__all__ = ["array", "asarray", "asanyarray", "ascontiguousarray", "full", "zeros", "ones",
           "empty", "zeros_like", "ones_like", "empty_like", "full_like", "astype", "copy",
           "arange", "linspace", "logspace", "geomspace", "eye", "identity", "tri", "tril",
           "triu", "meshgrid", "indices", "fromfunction", "diag", "diagflat"]
from .manipulation import broadcast_to, diagonal, expand_dims, moveaxis, ravel, reshape
from .ufuncs import call

def _shape_tuple(shape) -> tuple:
    if isinstance(shape, ndarray):
        shape = shape.tolist()
    try:
        dims = (as_index(shape),)
    except TypeError:
        dims = tuple(as_index(d) for d in shape)
    if any(d < 0 for d in dims):
        raise ValueError("negative dimensions are not allowed")
    return dims


def _default(dtype, fallback=dtypes.FLOAT64):
    return fallback if dtype is None else dtypes.normalize(dtype)


def array(obj, dtype=None, *, copy=True, order="K", ndmin=0, like=None):
    """Create a lazy array from array-like ``obj`` (NumPy's ``array``)."""
    if isinstance(obj, ndarray) and copy:
        if type(obj) is scalar_result:      # NumPy's scalar becomes a 0-d array (views alias it)
            obj = wrap(obj._n())
        out = astype(obj, obj.dtype if dtype is None else dtype, order=order)
    else:
        out = asarray(obj, dtype, order, copy=copy)
    if ndmin > out.ndim:
        out = reshape(out, (1,) * (ndmin - out.ndim) + out.shape)
    return out


def asarray(obj, dtype=None, order=None, *, copy=None, like=None):
    """Convert ``obj`` to a lazy array without copying an existing one (NumPy's ``asarray``).

    NumPy input is copied once: the lazy value must not change if the caller later
    mutates the NumPy array it passed in.
    """
    order = layouts.order_code(order)
    if hasattr(type(obj), "__lazynum_array__"):      # a bounded array is a lazynum array
        if (dtype is None or obj.dtype == dtypes.normalize(dtype)) and not copy and order in "KA":
            return obj
        obj = obj.__lazynum_array__()
    if isinstance(obj, ndarray):
        same_dtype = dtype is None or obj.dtype == dtypes.normalize(dtype)
        if type(obj) is scalar_result:     # NumPy's scalar becomes a new 0-d array (views alias it)
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            obj = wrap(obj._n())
            return obj if same_dtype else astype(obj, dtype, order=order)
        if same_dtype and not copy and _has_order(obj._layout(), order):
            return obj
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        return astype(obj, obj.dtype if dtype is None else dtype, order=order)
    node = to_node(obj, None if dtype is None else dtypes.normalize(dtype))
    if order in "CK" and (node.buffer is None or node.buffer.flags.c_contiguous):
        return wrap(node)
    # NumPy's asarray returns a non-C-ordered input itself (our snapshot copies it in its
    # memory order): the lazy array keeps that order, so its reshapes copy where NumPy's do.
    memory = layouts.identity(node.shape)
    if node.buffer is not None and node.dtype.itemsize:
        memory = (node.shape, tuple(s // node.dtype.itemsize for s in node.buffer.strides), 0)
    return wrap_ordered(node, layouts.new_array_order(memory, order))


def _has_order(layout, order: str) -> bool:
    """Whether an array with ``layout`` already satisfies ``order`` (no copy needed)."""
    if order == "C":
        return layouts.is_c_contiguous(layout)
    if order == "F":
        return layouts.is_f_contiguous(layout)
    if order == "A":
        return layouts.is_c_contiguous(layout) or layouts.is_f_contiguous(layout)
    return True


asanyarray = asarray


def ascontiguousarray(a, dtype=None, *, like=None):
    """A C-contiguous array (at least 1-d, as NumPy's); ``a`` itself when it already is."""
    out = asarray(a, dtype)
    if out.ndim == 0:
        return reshape(out, (1,))
    if not out.flags["C_CONTIGUOUS"]:
        out = wrap(out._n())
    return out


def _creation_order(order, ndim):
    """The memory order of a new array: NumPy's creation functions take 'C' or 'F' only."""
    order = layouts.order_code(order, none="C")
    if order not in "CF":
        raise ValueError("only 'C' or 'F' order is permitted")
    return layouts.fortran_order(ndim) if order == "F" else None


@extensible('full')
def full(shape, fill_value, dtype=None, order="C", *, like=None):
    """Array of ``shape`` filled with ``fill_value`` (a lazy broadcast of one scalar)."""
    shape = _shape_tuple(shape)
    perm = _creation_order(order, len(shape))
    if isinstance(fill_value, ndarray):
        node = fill_value._n()
        if dtype is not None:
            node = cast(node, dtypes.normalize(dtype))
    elif dtype is None:
        node = numpy_constant(fill_value)
    else:
        # NumPy's copyto(..., casting="unsafe"): a Python int must fit an integer dtype,
        # anything else is converted to an array first and cast unsafely.
        dt = dtypes.normalize(dtype)
        if isinstance(fill_value, int) and not isinstance(fill_value, (bool, np.generic)):
            node = numpy_constant(fill_value, dt)
        else:
            with np.errstate(all="ignore"):
                node = numpy_constant(np.asarray(fill_value).astype(dt))
    return wrap_ordered(broadcast_node(node, shape), perm)


@extensible('zeros')
def zeros(shape, dtype=float, order="C", *, like=None):
    """Array of zeros (NumPy's ``zeros``)."""
    shape = _shape_tuple(shape)
    return wrap_ordered(broadcast_node(nodes.scalar(0, _default(dtype)), shape),
                        _creation_order(order, len(shape)))


@extensible('ones')
def ones(shape, dtype=None, order="C", *, like=None):
    """Array of ones (NumPy's ``ones``)."""
    shape = _shape_tuple(shape)
    return wrap_ordered(broadcast_node(nodes.scalar(1, _default(dtype)), shape),
                        _creation_order(order, len(shape)))


@extensible('empty')
def empty(shape, dtype=float, order="C", *, like=None):
    """Like NumPy's ``empty``; lazynum's uninitialized memory is zeros."""
    return zeros(shape, dtype, order)


def _like(maker):
    def like_function(prototype, dtype=None, order="K", subok=True, shape=None, **kwargs):
        proto = asarray(prototype)
        new_shape = proto.shape if shape is None else _shape_tuple(shape)
        result = maker(new_shape, dtype=proto.dtype if dtype is None else dtype, **kwargs)
        return _in_order_of(result, proto, order, shape)
    like_function.__name__ = maker.__name__ + "_like"
    like_function.__doc__ = (f"``{maker.__name__}`` with the shape, dtype and memory order "
                             "of ``prototype``.")
    return like_function


def _in_order_of(result, proto, order, shape):
    """``result`` (C-ordered, new) given the memory order NumPy's ``*_like`` gives it: the
    prototype's under ``order``, or C order for a new shape of another rank."""
    order = layouts.order_code(order)
    if shape is not None and len(result.shape) != proto.ndim:
        return result
    return wrap_ordered(result._n(), layouts.new_array_order(proto._layout(), order))


zeros_like = _like(zeros)
ones_like = _like(ones)
empty_like = _like(empty)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None):
    """``full`` with the shape, dtype and memory order of ``a``."""
    proto = asarray(a)
    result = full(proto.shape if shape is None else shape, fill_value,
                  dtype=proto.dtype if dtype is None else dtype)
    return _in_order_of(result, proto, order, shape)


def astype(x, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """``x`` converted to ``dtype`` (NumPy's unsafe casting by default), in the memory
    order ``order`` gives (NumPy's default 'K' keeps a transposed input's order).  A scalar
    result converts to a scalar result, as NumPy's scalar ``astype`` returns a scalar."""
    scalar = type(x) is scalar_result
    x = x if scalar else asarray(x)
    order = layouts.order_code(order)
    dt = dtypes.normalize(dtype)
    if not np.can_cast(x.dtype, dt, casting):
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to {dt!r} according to the rule '{casting}'")
    if dt == x.dtype and not copy and _has_order(x._layout(), order):
        return x
    if scalar:
        return wrap_scalar(cast(x._n(), dt))
    return wrap_ordered(cast(x._n(), dt), layouts.new_array_order(x._layout(), order))


def copy(a, order="K", subok=False):
    """A new array with the same value; later writes to either do not affect the other.
    Its memory order is ``order``'s (NumPy's ``copy`` keeps the input's by default)."""
    a = asarray(a)
    return wrap_ordered(a._n(), layouts.new_array_order(a._layout(), layouts.order_code(order)))


def method_copy(a, order="C"):
    """``ndarray.copy``: C order unless told otherwise (NumPy's ``numpy.copy`` is 'K')."""
    return copy(a, layouts.order_code(order, none="C"))


def fill(a, value):
    """Set every element of ``a`` to ``value`` in place (``ndarray.fill``)."""
    a[...] = value


# -- ranges ----------------------------------------------------------------------------------

def _iota(shape, axis):
    """int64 node of ``shape`` holding the index along ``axis``."""
    return nodes.apply(IOTA, (), (tuple(shape), axis))


def _host_scalar(value, name):
    """A host value for a range bound: lazy 0-d arrays are synced (NumPy needs the value)."""
    if isinstance(value, ndarray):
        value = value._value(name)
    if isinstance(value, np.ndarray):
        if value.ndim:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        value = value[()]
    return value


def _arange_length(start, stop, step):
    """NumPy's ``_calc_length``: (length, start + step) computed with the bounds' own
    (Python or NumPy scalar) arithmetic; an OverflowError there is NumPy's ValueError."""
    try:
        with np.errstate(all="ignore"):
            diff = stop - start
            nonzero = bool(diff != 0)
            value = float(diff / step)
            if value != value:
                raise ValueError("arange: cannot compute length")
            if value == 0 and nonzero:             # underflow, or a step of infinity
                length = 0 if math.copysign(1.0, value) < 0 else 1
            else:
                ceil = math.ceil(value) if abs(value) != math.inf else value
                if not -2.0**63 <= ceil <= 2.0**63:
                    raise OverflowError("arange: overflow while computing length")
                length = int(ceil)
            following = start + step if length > 0 else None
    except OverflowError:
        raise ValueError("Maximum allowed size exceeded") from None
    return max(length, 0), following


def _pack(value, dt):
    """``value`` stored into ``dt`` the way NumPy's arange stores its first two elements
    (as a Python number: floats truncate into integer dtypes, out-of-range ints raise)."""
    if isinstance(value, np.generic):
        value = value.item()
    if dt.kind in "iu" and not isinstance(value, bool):
        value = int(value)
        info = np.iinfo(dt)
        if not info.min <= value <= info.max:
            raise OverflowError(f"Python integer {value} out of bounds for {dt}")
    return np.array(value, dtype=dt)


@extensible('arange')
def arange(start=None, stop=None, step=None, dtype=None, *, device=None, like=None):
    """Evenly spaced values in ``[start, stop)`` (NumPy's ``arange``: length, dtype, values).

    The dtype is at least int64 (``promote_types(int64, each bound's dtype)``) unless given.
    Values are NumPy's: ``first + i * delta`` in the result dtype, with ``delta`` the
    difference of the first two elements in that dtype (exact for integers).  Lazy bounds
    are synced: the length depends on them.
    """
    if stop is None:
        if start is None:
            raise TypeError("arange() requires stop to be specified.")
        start, stop = 0, start
    elif start is None:
        start = 0
    symbolic = _symbolic_arange(start, stop, step, dtype)
    if symbolic is not None:
        return symbolic
    start, stop = _host_scalar(start, "arange"), _host_scalar(stop, "arange")
    if step is not None:
        step = _host_scalar(step, "arange")
    if dtype is None:
        dt = dtypes.INT64
        for bound in (start, stop, step):
            if bound is not None:
                dt = np.promote_types(dt, np.asarray(bound).dtype)
        dt = dtypes.check(dt, "arange")
    else:
        dt = dtypes.normalize(dtype)
    length, following = _arange_length(start, stop, 1 if step is None else step)
    if length * dt.itemsize > 2**63 - 1:
        raise ValueError("Maximum allowed size exceeded")
    if dt == dtypes.BOOL and length > 2:
        raise TypeError("arange() is only supported for booleans when the result has at most "
                        "length 2.")
    if length == 0:
        return zeros((0,), dt)
    first = _pack(start, dt)
    if length == 1:
        return wrap(nodes.constant(first.reshape(1)))
    with np.errstate(all="ignore"):
        second = _pack(following, dt)
        if length == 2:
            return wrap(numpy_constant(np.stack([first, second])))
        delta = second - first
    index = _iota((length,), 0)
    values = nodes.apply(UFUNC_OPS["multiply"], (cast(index, dt), nodes.scalar(delta.item(), dt)))
    values = nodes.apply(UFUNC_OPS["add"], (values, nodes.scalar(first.item(), dt)))
    if dt.kind == "f":
        # NumPy stores the second element as computed, not as first + delta.
        is_second = nodes.apply(UFUNC_OPS["equal"], (index, nodes.scalar(1, dtypes.INT64)))
        values = nodes.apply(SELECT, (is_second, nodes.scalar(second.item(), dt), values))
    return wrap(values)


def _symbolic_arange(start, stop, step, dtype):
    """``arange`` over Python ints where a bound is a symbolic size (``arange(len_dim)``):
    the length stays an expression, so the program serves every size.  None otherwise."""
    bounds = (start, stop, 1 if step is None else step)
    if (not any(is_symbolic(b) for b in bounds) or any(type(b) not in (int, SymInt) for b in bounds)
            or (dtype is not None and dtypes.normalize(dtype) != dtypes.INT64)):
        return None
    start, stop, step = bounds
    if step == 0:
        return None                 # the general path raises NumPy's error
    length = range_length(start, stop, step)
    if length < 2:
        return None                 # 0/1 lengths are static: the general path
    values = _iota((length,), 0)
    if step != 1:
        values = nodes.apply(UFUNC_OPS["multiply"], (values, nodes.scalar(step, dtypes.INT64)))
    if start != 0:
        values = nodes.apply(UFUNC_OPS["add"], (values, nodes.scalar(start, dtypes.INT64)))
    return wrap(values)


def _linspace_operands(start, stop):
    """NumPy's ``_array_converter(start, stop).as_arrays()``: Python scalars stay weak when
    an array is among the inputs, else become arrays; and the inexact result dtype."""
    def is_py(v):
        return isinstance(v, (int, float)) and not isinstance(v, np.generic)
    lazy = _contains_lazy(start) or _contains_lazy(stop)
    if is_py(start) and is_py(stop):
        start, stop = np.asarray(start), np.asarray(stop)
    else:
        start, stop = (v if is_py(v) or isinstance(v, ndarray)
                       else (asarray(v) if lazy else np.asarray(v)) for v in (start, stop))
    keys = [v.dtype if hasattr(v, "dtype") else v for v in (start, stop)]
    dt = np.result_type(*keys)
    if dt.kind not in "fc":
        dt = np.result_type(dt, 1.0)
    return start, stop, dtypes.check(dt, "linspace"), lazy


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    """``num`` evenly spaced samples over ``[start, stop]`` (NumPy's algorithm exactly).

    With host bounds (Python/NumPy values), ``step`` is computed on the host and returned
    as NumPy returns it; with lazy bounds it is a lazy array and NumPy's data-dependent
    "step == 0" branch is a lazy ``where``.
    """
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    start, stop, dt, lazy = _linspace_operands(start, stop)
    integer_dtype = dtype is not None and np.issubdtype(dtype, np.integer)
    if lazy:
        delta = call(np.subtract, (stop, start), dtype=dt)
        nd = delta.ndim
    else:
        delta = np.subtract(stop, start, dtype=dt)
        nd = np.ndim(delta)
    y = wrap(cast(_iota((num,) + (1,) * nd, 0), dt))
    if div > 0:
        if lazy:
            step = call(np.divide, (delta, div))
            zero = call(np.equal, (step, 0))._n()
            if zero.shape:
                zero = nodes.apply(REDUCE_ANY, (zero,), (tuple(range(len(zero.shape))),))
            tiny = call(np.multiply, (call(np.divide, (y, div)), delta))
            y = call(np.multiply, (y, step))
            y = wrap(nodes.apply(SELECT, (zero, tiny._n(), y._n())))    # select broadcasts
        else:
            with np.errstate(all="ignore"):
                step = delta / div
            if np.asanyarray(step == 0).any():
                y = call(np.multiply, (call(np.divide, (y, div)), delta))
            else:
                y = call(np.multiply, (y, step))
    else:
        step = math.nan
        y = call(np.multiply, (y, delta))
    y = call(np.add, (y, start), out=wrap(broadcast_node(nodes.scalar(0, y.dtype), y.shape)))
    if endpoint and num > 1:
        y[-1, ...] = stop
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if integer_dtype:
        y = call(np.floor, (y,), out=wrap(y._n()))
    if dtype is not None:
        y = astype(y, dtype, copy=False)
    return (y, step) if retstep else y


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``base ** linspace(start, stop, ...)`` (``base`` may be an array)."""
    if not isinstance(base, (float, int)) and np.ndim(base):
        ndmax = len(broadcast_shapes(np.shape(start), np.shape(stop), np.shape(base)))
        start, stop, base = (array(a, copy=False, ndmin=ndmax) if isinstance(a, ndarray)
                             else array(a, ndmin=ndmax) for a in (start, stop, base))
        base = expand_dims(base, axis=axis)
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    result = call(np.power, (base, y))
    return result if dtype is None else astype(result, dtype, copy=False)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale between ``start`` and ``stop`` (NumPy's
    algorithm; lazy bounds are synced once for NumPy's "cannot include zero" check)."""
    if _contains_lazy(start) or _contains_lazy(stop):
        start, stop = asarray(start), asarray(stop)
        zero = call(np.logical_or, (call(np.equal, (start, 0)), call(np.equal, (stop, 0))))._n()
        if zero.shape:
            zero = nodes.apply(REDUCE_ANY, (zero,), (tuple(range(len(zero.shape))),))
        has_zero = bool(wrap(zero)._value("geomspace"))
    else:                                      # host values: no sync needed
        has_zero = bool(np.any(np.asarray(start) == 0) or np.any(np.asarray(stop) == 0))
        start, stop = asarray(start), asarray(stop)
    if has_zero:
        raise ValueError("Geometric sequence cannot include zero")
    dt = np.result_type(start.dtype, stop.dtype, float(num),
                        np.dtype(dtypes.FLOAT64 if dtype is None else dtype))
    dt = dtypes.check(dt, "geomspace")
    dtype = dt if dtype is None else dtypes.normalize(dtype)
    start, stop = astype(start, dt, copy=True), astype(stop, dt, copy=True)
    out_sign = call(np.sign, (start,))
    start = call(np.divide, (start, out_sign), out=start)
    stop = call(np.divide, (stop, out_sign))
    result = logspace(call(np.log10, (start,)), call(np.log10, (stop,)), num=num,
                      endpoint=endpoint, base=10.0, dtype=dt)
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result = call(np.multiply, (result, out_sign), out=result)
    if axis != 0:
        result = moveaxis(result, 0, axis)
    return astype(result, dtype, copy=False)


# -- matrices --------------------------------------------------------------------------------

def _diagonal_offset_mask(n, m, k, ufunc_name):
    """bool node (n, m): ``ufunc(col - row, k)`` (``equal`` for eye, ``less_equal`` for tri)."""
    diff = nodes.apply(UFUNC_OPS["subtract"], (_iota((n, m), 1), _iota((n, m), 0)))
    k = max(-n - 1, min(m + 1, k))     # beyond the matrix: same mask
    return nodes.apply(UFUNC_OPS[ufunc_name], (diff, nodes.scalar(k, dtypes.INT64)))


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    """2-d array with ones on the ``k``-th diagonal and zeros elsewhere."""
    M = N if M is None else M
    n, m = _shape_tuple((N, M))
    dt = _default(dtype)
    return wrap(cast(_diagonal_offset_mask(n, m, operator.index(k), "equal"), dt))


def identity(n, dtype=None, *, like=None):
    """The ``n`` x ``n`` identity matrix."""
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=float, *, like=None):
    """Ones at and below the ``k``-th diagonal, zeros above."""
    M = N if M is None else M
    n, m = _arange_length(0, N, 1)[0], _arange_length(0, M, 1)[0]   # NumPy sizes by arange
    dt = _default(dtype)
    return wrap(cast(_diagonal_offset_mask(n, m, operator.index(k), "less_equal"), dt))


def _select_zero(mask, m, zero_where_true):
    node = m._n()
    zero = nodes.scalar(0, node.dtype)           # select broadcasts its operands
    args = (mask, zero, node) if zero_where_true else (mask, node, zero)
    return wrap(nodes.apply(SELECT, args))


def tril(m, k=0):
    """Lower triangle of (the last two axes of) ``m``; zeros above the ``k``-th diagonal."""
    m = asarray(m)
    mask = tri(*m.shape[-2:], k=k, dtype=bool)._n()
    return _select_zero(mask, m, zero_where_true=False)


def triu(m, k=0):
    """Upper triangle of (the last two axes of) ``m``; zeros below the ``k``-th diagonal."""
    m = asarray(m)
    mask = tri(*m.shape[-2:], k=k - 1, dtype=bool)._n()
    return _select_zero(mask, m, zero_where_true=True)


def diag(v, k=0):
    """The ``k``-th diagonal of a 2-d array (a read-only view), or a 2-d array with 1-d
    ``v`` on its ``k``-th diagonal."""
    v = asarray(v)
    k = operator.index(k)
    if v.ndim == 1:
        return _diag_from_vector(v, k)
    if v.ndim == 2:
        return diagonal(v, k)
    raise ValueError("Input must be 1- or 2-d.")


def _diag_from_vector(v, k):
    count = v.shape[0]
    n = count + abs(k)
    res = zeros((n, n), v.dtype)
    if count:
        offset = k if k >= 0 else (-k) * n
        res._write(((count,), (n + 1,), offset), v._n())
    return res


def diagflat(v, k=0):
    """2-d array with the flattened ``v`` on its ``k``-th diagonal."""
    return _diag_from_vector(ravel(asarray(v)), operator.index(k))


# -- grids -----------------------------------------------------------------------------------

def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """Coordinate arrays from 1-d coordinate vectors (a tuple, as NumPy 2 returns).

    With ``copy=False`` the dense outputs are read-only broadcast views (NumPy makes them
    writeable with a FutureWarning; writing into a broadcast is never meaningful).
    """
    ndim = len(xi)
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    s0 = (1,) * ndim
    output = [reshape(asarray(x), s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        output[0] = reshape(output[0], (1, -1) + s0[2:])
        output[1] = reshape(output[1], (-1, 1) + s0[2:])
    if not sparse:
        shape = broadcast_shapes(*[o.shape for o in output]) if output else ()
        output = tuple(o if o.shape == shape else broadcast_to(o, shape) for o in output)
    if copy:
        output = tuple(wrap(o._n()) for o in output)
    return output       # NumPy's types: a tuple, but a list when sparse and not copied


def _index_arrays(dimensions, dtype, sparse):
    dims = tuple(operator.index(d) for d in dimensions)
    dt = dtypes.normalize(dtype)
    if dt == dtypes.BOOL and any(d > 2 for d in dims):
        raise TypeError("arange() is only supported for booleans when the result has at most "
                        "length 2.")
    n = len(dims)
    if sparse:
        return dims, dt, [cast(_iota(tuple(d if j == i else 1 for j in range(n)), i), dt)
                          for i, d in enumerate(dims)]
    return dims, dt, [cast(_iota(dims, i), dt) for i in range(n)]


def indices(dimensions, dtype=int, sparse=False):
    """The index grid of ``dimensions``: shape ``(N,) + dimensions`` (or N sparse arrays)."""
    dims, dt, grids = _index_arrays(dimensions, dtype, sparse)
    if sparse:
        return tuple(wrap(g) for g in grids)
    if not grids:
        return zeros((0,), dt)
    stacked = [broadcast_node(g, (1,) + dims) for g in grids]
    if len(stacked) == 1:
        return wrap(stacked[0])
    return wrap(nodes.apply(CONCATENATE, tuple(stacked), (0,)))


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``function(*indices(shape, dtype))``: the function receives lazy index arrays."""
    _, _, grids = _index_arrays(shape, dtype, False)
    return function(*[wrap(g) for g in grids], **kwargs)
