"""Reductions, arg-reductions and scans with NumPy 2's semantics, recorded lazily.

Everything here composes the strict primitives of ``lazynum.expr.reduce`` (one reduction
over a sorted tuple of axes, in the dtype of its input) with elementwise ops.  The NumPy
rules live in the front: the accumulator dtype (``sum`` of int8 accumulates in int64; with
``out=`` the loop is chosen from ``out``'s dtype as NumPy 2 does), ``initial=``/``where=``,
``keepdims`` (a reshape), ``out=`` (reductions cast to ``out`` unsafely, as NumPy's do) and
the exception types.  ``mean``/``var`` follow ``numpy/_core/_methods.py`` step by step, so
even their roundings match (a float32 mean is ``float32(float64(sum) / n)``).

Nothing computes here: shapes are static, so every shape or axis error is raised at the call;
only what depends on data (an all-NaN slice in ``nanargmax``) is checked when the graph runs.
"""
from __future__ import annotations

import builtins
import operator
import warnings

import numpy as np

from ..array.extension import extensible
from ..expr import dtypes
from ..array import layout as layouts
from ..array.arraytype import layout_of, ndarray, wrap, wrap_ordered, wrap_result
from ..array.conversion import broadcast_node, cast, is_weak, reshape_node, to_node, weak_scalar
from ..expr import node as nodes
from ..expr.combines import numpy_identity
from ..expr.complex_parts import imag_node, real_node
from ..expr.elementwise import SELECT, UFUNC_OPS, loop_signature
from ..expr.extern import SORT
from ..expr.checks import ASSERT_ALL
from ..expr.movement import CONCATENATE, VIEW, literal
from ..expr.rounded_reduce import ROUNDED_REDUCE
from ..expr.reduce import (ARGMAX, ARGMIN, CUMPROD, CUMSUM, REDUCE_ALL, REDUCE_ANY, REDUCE_FMAX,
    REDUCE_FMIN, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD, REDUCE_SUM, RUNNING_EXTREMES)
from ..expr.shapes import c_strides, normalize_axes, normalize_axis, size_of
from .ufuncs import _given, call, ufunc
from ..runtime.immediate import is_on as immediate_on, now as immediate_now

__all__ = [
    "sum", "prod", "mean", "var", "std", "max", "min", "amax", "amin", "argmax", "argmin",
    "any", "all", "ptp", "cumsum", "cumprod", "cumulative_sum", "cumulative_prod", "trace",
    "count_nonzero", "average", "median", "nansum", "nanprod", "nanmean", "nanvar", "nanstd",
    "nanmin", "nanmax", "nanargmin", "nanargmax", "nancumsum", "nancumprod",
]

_NoValue = np._NoValue
_apply = nodes.apply
BOOL, INT64, FLOAT64 = dtypes.BOOL, dtypes.INT64, dtypes.FLOAT64
FLOAT16 = np.dtype(np.float16)

# ufunc name -> reduction primitive (its identity: ``expr.combines``)
_REDUCERS = {
    "add": REDUCE_SUM, "multiply": REDUCE_PROD, "maximum": REDUCE_MAX, "minimum": REDUCE_MIN,
    "fmax": REDUCE_FMAX, "fmin": REDUCE_FMIN, "logical_or": REDUCE_ANY, "logical_and": REDUCE_ALL,
}
from .manipulation import diagonal, reshape, transpose
from .fallbacks import numpy_out
# On bool, add is logical or and multiply is logical and (NumPy's bool loops).
_ON_BOOL = {REDUCE_SUM: REDUCE_ANY, REDUCE_PROD: REDUCE_ALL}
_SCANS = {"add": CUMSUM, "multiply": CUMPROD, "logical_or": CUMSUM, "logical_and": CUMPROD,
          **RUNNING_EXTREMES}


# -- small node helpers -----------------------------------------------------------------------
def _uf(name, *args):
    """``numpy.<name>(*args)`` on nodes, with NumPy's loop (promotion) and broadcasting."""
    signature = loop_signature(getattr(np, name), tuple(a.dtype for a in args))
    return _apply(UFUNC_OPS[name], tuple(cast(a, t) for a, t in zip(args, signature)), ())


def _scalar(value, dtype):
    """``initial``-like value converted to ``dtype`` as NumPy converts it (weak if Python)."""
    if is_weak(value):
        return weak_scalar(value, dtype)
    node = to_node(value)
    if node.shape != ():
        raise ValueError("setting an array element with a sequence.")
    return cast(node, dtype)


def _axes(axis, ndim, legacy=False):
    """Sorted non-negative axes; ``legacy``: ufunc reductions accept axis 0/-1 on 0-d input."""
    if isinstance(axis, list):
        raise TypeError("'list' object cannot be interpreted as an integer")
    if legacy and ndim == 0 and axis is not None and not isinstance(axis, tuple) \
            and operator.index(axis) in (0, -1):
        return ()
    return normalize_axes(axis, ndim)


def _kept(shape, axes):
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def _where_node(where):
    """The ``where=`` mask as a bool node (NumPy checks its dtype before anything else)."""
    mask = to_node(where)
    if mask.dtype != BOOL:
        raise TypeError(f"Cannot cast array data from {mask.dtype!r} to dtype('bool') "
                        "according to the rule 'safe'")
    return mask


def _mask(where, shape):
    return broadcast_node(_where_node(where), shape)


def _check_out(out):
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("return arrays must be of lazynum.ndarray type")


def _emit(node, out, order=None):
    """Wrap ``node`` (in memory ``order``), or store it into ``out`` (exact shape; unsafe
    cast, like NumPy's)."""
    if out is None:
        return wrap_result(node) if order is None else wrap_ordered(node, order)
    _check_shape(out, node)
    out._write(out._layout(), cast(node, out.dtype))
    return out


def _order(a, axis, keepdims, where=True, legacy=True):
    """The memory order of a reduction's result over ``axis`` of ``a`` (None: C order):
    NumPy's follows the input's (and the ``where`` mask's) strides."""
    if type(a) is ndarray and (a._view is None or axis is None) and where is True:
        return None     # an owner is C-ordered: so is its reduction; a full one has no order
    memory = layout_of(a)
    if memory is None or len(memory[0]) < 2:
        return None
    operands = [memory]
    if where is not True and layout_of(where) is not None:
        operands.append(layout_of(where))
    shape = memory[0]
    return layouts.reduction_order(operands, shape, _axes(axis, len(shape), legacy),
                                   keepdims is not _NoValue and bool(keepdims))


def _scan_order(a, axis):
    """The memory order of ``cumsum``'s result along ``axis`` (None: C order): NumPy's
    accumulate allocates it like a copy of ``a`` in order 'K'."""
    if axis is not None and hasattr(type(a), "__lazynum_array__"):
        a = a.__lazynum_array__()       # a bounded array: its true-size view (argwhere: F order)
    memory = None if axis is None else layout_of(a)
    return memory and layouts.new_array_order(memory, "K")


def _check_shape(out, node):
    if out.shape != node.shape:
        raise ValueError(f"output parameter has shape {out.shape} but the reduction's result "
                         f"has shape {node.shape}")


def _acc(name, dt, dtype, out):
    """The loop dtype NumPy 2 reduces in (``dtype``; else from ``out``; else upcast ints)."""
    if name in ("logical_or", "logical_and"):
        if dtype is not None and dtypes.normalize(dtype) != BOOL:
            raise TypeError(f"No loop matching the specified signature and casting was found "
                            f"for ufunc {name}")
        return BOOL
    if dtype is not None:
        return dtypes.normalize(dtype)
    if out is not None:
        return loop_signature(getattr(np, name), (out.dtype, dt))[-1]
    return dtypes.sum_dtype(dt) if name in ("add", "multiply") else dt


# -- the reduction core -----------------------------------------------------------------------
def _reduce_now(name, a, axis):
    """``numpy.<name>.reduce(a, axis)`` as a result array, computed now when ``a`` is a
    computed lazynum array the immediate tier takes, reduced in its own dtype (NumPy's
    accumulator for it), over all axes or one; else None (the general path)."""
    if type(a) is not ndarray:
        return None
    node = a._n()
    if node.buffer is None or not immediate_on():
        return None
    dtype = node.dtype
    if dtype == BOOL or (name in ("add", "multiply") and dtypes.sum_dtype(dtype) != dtype):
        return None
    ndim = len(node.shape)
    if axis is None:
        axes = tuple(range(ndim))
    elif type(axis) is int and -ndim <= axis < ndim:
        axes = (axis + ndim if axis < 0 else axis,)
    else:
        return None
    if not axes:
        return None
    shape = tuple([d for i, d in enumerate(node.shape) if i not in axes])
    result = immediate_now(_REDUCERS[name], (node,), shape, dtype, (axes,), node.shape)
    if result is None:
        return None
    return _emit(result, None, None if axis is None else _order(a, axis, False))


def _reduce(name, a, axis, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True,
            legacy=False):
    """Node of ``numpy.<name>.reduce(a, ...)``: keepdims applied, in ``out``'s dtype if given."""
    _check_out(out)
    node = to_node(a)
    if where is not True:
        _where_node(where)
    axes = _axes(axis, len(node.shape), legacy)
    acc = _acc(name, node.dtype, dtype, out)
    op, identity = _REDUCERS[name], numpy_identity(name, acc)
    if acc == BOOL:
        op = _ON_BOOL.get(op, op)
    explicit = initial is not _NoValue and initial is not None
    if initial is _NoValue:
        initial = identity
    init = _scalar(initial, acc) if explicit else None
    x = cast(node, acc)
    if acc == FLOAT16 and name in ("add", "multiply") and (explicit or where is not True) and axes \
            and size_of(x.shape[i] for i in axes):
        result = _rounded_reduce(name, x, axes, init if explicit else literal(identity, acc), where)
        return _finish(result, node, axes, keepdims, out)
    if where is not True:
        if initial is None:
            raise ValueError(f"reduction operation '{name}' does not have an identity, so to "
                             "use a where mask one has to specify 'initial'")
        # The identity is the op's own constant (a literal: equal fills are one node, so
        # sum/mean/var over one mask share their passes); a user's initial is a parameter.
        fill = _scalar(initial, acc) if identity is None else literal(identity, acc)
        x = _apply(SELECT, (_mask(where, x.shape), x, fill), ())
    elif initial is None and size_of(x.shape) == 0:
        getattr(np, name).reduce(np.empty(x.shape, acc), axis=axes, initial=None)  # its error
    shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    if explicit and size_of(x.shape[i] for i in axes) == 0:
        result = broadcast_node(init, shape)
    else:
        result = _apply(op, (x,), (axes,)) if axes else x
        if not axes and not explicit and identity is not None and name in ("add", "multiply") \
                and acc.kind in "fc":
            # NumPy starts every sum/prod at the identity, over no axis too (a 0-d input):
            # 0 + -0.0 is 0.0, 1 * (-1+nanj) is nan+nanj
            result = _apply(UFUNC_OPS[name], (literal(identity, acc), result), ())
        if explicit:
            result = _apply(UFUNC_OPS[name], (result, init), ())
    return _finish(result, node, axes, keepdims, out)


def _finish(result, node, axes, keepdims, out):
    """A reduction's node with keepdims applied, cast to ``out``'s dtype if given."""
    if keepdims and keepdims is not _NoValue:
        result = reshape_node(result, _kept(node.shape, axes))
    if out is None:
        return result
    _check_shape(out, result)
    return cast(result, out.dtype)


def _rounded_reduce(name, x, axes, initial, where):
    """float16 sum/prod with an initial value or a where mask: NumPy's own call, which
    rounds to half once per inner loop, starting from ``initial`` and splitting the loop
    at the mask's runs (``expr/rounded_reduce.py``)."""
    mask = () if where is True else (_mask(where, x.shape),)
    return _apply(ROUNDED_REDUCE, (x, initial) + mask, (name, axes))


def _count(shape, axis, keepdims, where):
    """How many elements each output of a reduction sees: a static int64 scalar, or (with a
    ``where`` mask) an int64 array of the reduction's shape."""
    axes = _axes(axis, len(shape))
    if where is True:
        return nodes.scalar(size_of(shape[i] for i in axes), INT64)
    return _reduce("add", cast(_mask(where, shape), INT64), axes, keepdims=keepdims)


def _static_count(shape, axis, where):
    return size_of(shape[i] for i in _axes(axis, len(shape))) if where is True else None


def _divide_as(total, count):
    """``true_divide(total, count, out=total, casting='unsafe')``."""
    return cast(_uf("divide", total, count), total.dtype)


# -- sum, prod, max, min, any, all ------------------------------------------------------------
@numpy_out
@extensible('sum')
def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """Sum of array elements over the given axes.

    Parameters
    ----------
    a : array_like
    axis : None, int or tuple of ints, optional
        Axes to reduce (negative ones count from the end); None reduces all.
    dtype : dtype, optional
        Accumulator/result dtype.  By default bool and narrow ints accumulate in (u)int64;
        with ``out`` the loop comes from ``out``'s dtype (NumPy 2).
    out : lazynum.ndarray, optional
        Stored into, exact result shape, cast unsafely (like NumPy's reductions).
    keepdims : bool, optional
    initial : scalar, optional
        Starting value; None means "no identity" (an empty sum then raises ValueError).
    where : array_like of bool, optional
        Elements to include (broadcast against ``a``).

    Returns
    -------
    lazynum.ndarray
    """
    if out is None and keepdims is False and initial is _NoValue and where is True and dtype is None:
        fast = _reduce_now("add", a, axis)
        if fast is not None:
            return fast
    return _emit(_reduce("add", a, axis, dtype, out, keepdims, initial, where, True), out,
                 _order(a, axis, keepdims, where))


@numpy_out
@extensible('prod')
def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """Product of array elements over the given axes.

    Parameters and dtype rules are those of :func:`sum` (the identity is 1).
    """
    if out is None and keepdims is False and initial is _NoValue and where is True and dtype is None:
        fast = _reduce_now("multiply", a, axis)
        if fast is not None:
            return fast
    return _emit(_reduce("multiply", a, axis, dtype, out, keepdims, initial, where, True), out,
                 _order(a, axis, keepdims, where))


@numpy_out
@extensible('max')
def max(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """Maximum over the given axes (NaN propagates); parameters as :func:`sum`.

    ``initial`` is a lower bound of the result: it is required to reduce an empty axis
    and with ``where`` (ValueError otherwise, as in NumPy).
    """
    if out is None and keepdims is False and initial is _NoValue and where is True:
        fast = _reduce_now("maximum", a, axis)
        if fast is not None:
            return fast
    return _emit(_reduce("maximum", a, axis, None, out, keepdims, initial, where, True), out,
                 _order(a, axis, keepdims, where))


@numpy_out
@extensible('min')
def min(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """Minimum over the given axes (NaN propagates); see :func:`max`."""
    if out is None and keepdims is False and initial is _NoValue and where is True:
        fast = _reduce_now("minimum", a, axis)
        if fast is not None:
            return fast
    return _emit(_reduce("minimum", a, axis, None, out, keepdims, initial, where, True), out,
                 _order(a, axis, keepdims, where))


amax, amin = max, min


@numpy_out
@extensible('any')
def any(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether any element along the axes is non-zero (NaN counts as true).

    Parameters as :func:`sum` (without dtype/initial).
    """
    return _emit(_reduce("logical_or", a, axis, None, out, keepdims, _NoValue, where, True), out,
                 _order(a, axis, keepdims, where))


@numpy_out
@extensible('all')
def all(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether all elements (``!= 0``; NaN counts as true) along the axes are true.

    See :func:`any` for the parameters.
    """
    return _emit(_reduce("logical_and", a, axis, None, out, keepdims, _NoValue, where, True), out,
                 _order(a, axis, keepdims, where))


def ufunc_reduce(uf, array, axis=0, dtype=None, out=None, keepdims=False, initial=None,
                 where=True):
    """``uf.reduce`` for add, multiply, maximum, minimum, fmax, fmin, logical_and/or.

    ``initial=None`` is read as "not given" (the lazy ufunc's default), so an empty
    ``add.reduce`` gives 0 as NumPy's does.  Other ufuncs raise NotImplementedError
    (NumPy's dispatch then falls back to NumPy and counts it).
    """
    name = uf.__name__
    if name not in _REDUCERS:
        raise NotImplementedError(f"lazynum has no lazy {name}.reduce")
    initial = _NoValue if initial is None else initial
    out = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    return _emit(_reduce(name, array, axis, dtype, out, keepdims, initial, where, True), out,
                 _order(array, axis, keepdims, where))


# -- mean, var, std ---------------------------------------------------------------------------
def _float_default(dt, dtype):
    return FLOAT64 if dtype is None and dt.kind in "biu" else dtype


@numpy_out
@extensible('mean')
def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Arithmetic mean over the given axes; parameters as :func:`sum`.

    ``dtype`` defaults to float64 for bool and integer input, else the input's dtype.  An
    empty slice gives NaN (with NumPy's RuntimeWarning when the shapes show it).

    Returns
    -------
    lazynum.ndarray
    """
    node = to_node(a)
    if _static_count(node.shape, axis, where) == 0:
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
    half = dtype is None and node.dtype == dtypes.FLOAT16    # NumPy sums float16 in float32
    dtype = np.dtype(np.float32) if half else _float_default(node.dtype, dtype)
    total = _reduce("add", node, axis, dtype, out, keepdims, _NoValue, where)
    quotient = _uf("divide", total, _count(node.shape, axis, keepdims, where))
    result = cast(quotient, total.dtype)
    if half and out is None:
        # an array result is divided into its float32 sum, a scalar's quotient converts at once
        result = cast(result if total.shape else quotient, dtypes.FLOAT16)
    return _emit(result, out, _order(a, axis, keepdims, where, legacy=False))


def _ddof(ddof, correction):
    if correction is _NoValue:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def _var(a, axis, dtype, out, ddof, keepdims, where, mean_value):
    """Node of NumPy's ``_var``: sum((x - mean)**2) / max(n - ddof, 0)."""
    node = to_node(a)
    n = _static_count(node.shape, axis, where)
    if n is not None and isinstance(ddof, (int, float, np.generic)) and ddof >= n:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=3)
    dtype = _float_default(node.dtype, dtype)
    if mean_value is _NoValue or mean_value is None:
        total = _reduce("add", node, axis, dtype, None, True, _NoValue, where)
        mean_value = _divide_as(total, _count(node.shape, axis, True, where))
    deviation = _uf("subtract", node, to_node(mean_value))
    if deviation.dtype.kind == "c":     # NumPy's fast path: re**2 + im**2, a real result
        squares = _uf("add", _uf("square", real_node(deviation)), _uf("square", imag_node(deviation)))
    else:
        squares = _uf("square", deviation)
    total = _reduce("add", squares, axis, dtype, out, keepdims, _NoValue, where)
    if n is not None and isinstance(ddof, (int, float, np.generic)):
        dof = np.maximum(np.int64(n) - ddof, 0)     # static: NumPy's own scalar arithmetic
        dof = nodes.scalar(dof.item(), dof.dtype)
    else:
        count = wrap(_count(node.shape, axis, keepdims, where))
        dof = call(np.maximum, (call(np.subtract, (count, ddof)), 0))._n()
    return _divide_as(total, dof)


@numpy_out
@extensible('var')
def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=_NoValue, correction=_NoValue):
    """Variance over the given axes: ``sum(abs(x - x.mean())**2) / (N - ddof)``.

    Parameters as :func:`mean`, plus ``ddof`` (or its Array API name ``correction``; give
    one) and ``mean``, a precomputed mean of the keepdims shape.  ``N - ddof <= 0`` gives
    inf/NaN with NumPy's RuntimeWarning.
    """
    ddof = _ddof(ddof, correction)
    return _emit(_var(a, axis, dtype, out, ddof, keepdims, where, mean), out,
                 _deviation_order(a, axis, keepdims, where))


def _deviation_order(a, axis, keepdims, where=True):
    """``var``'s result order: NumPy reduces ``a - mean``, a new array following ``a``'s
    order (an empty one has zero strides, so its reduction is C-ordered)."""
    memory = layout_of(a)
    if memory is None or size_of(memory[0]) == 0:
        return None
    return _order(a, axis, keepdims, where, legacy=False)


def _sqrt_as(node, out):
    """``sqrt(x, out=x)`` for an array result, ``x.dtype.type(sqrt(x))`` for a scalar."""
    root = _uf("sqrt", node)
    if root.dtype != node.dtype and (out is not None or node.shape) \
            and not np.can_cast(root.dtype, node.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc 'sqrt' output from {root.dtype!r} to "
                        f"{node.dtype!r} with casting rule 'same_kind'")
    return cast(root, node.dtype)


@numpy_out
@extensible('std')
def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=_NoValue, correction=_NoValue):
    """Standard deviation over the given axes: ``sqrt(var(...))``; see :func:`var`."""
    ddof = _ddof(ddof, correction)
    return _emit(_sqrt_as(_var(a, axis, dtype, out, ddof, keepdims, where, mean), out), out,
                 _deviation_order(a, axis, keepdims, where))


# -- arg-reductions ---------------------------------------------------------------------------
def _arg_input(a, axis):
    """(node to reduce, its axis, keepdims shape) following NumPy's argmax axis rules."""
    node = to_node(a)
    shape = node.shape
    if axis is None:
        return reshape_node(node, (node.size,)), 0, (1,) * len(shape)
    ax = normalize_axis(axis, builtins.max(len(shape), 1))
    if not shape:
        return reshape_node(node, (1,)), 0, ()
    return node, ax, _kept(shape, (ax,))


def _arg_out(result, kept, out, keepdims):
    _check_out(out)
    result = reshape_node(result, kept) if keepdims and keepdims is not _NoValue else result
    if out is not None:
        _check_shape(out, result)
        if not np.can_cast(out.dtype, INT64, "safe"):
            raise TypeError(f"Cannot cast scalar from {out.dtype!r} to dtype('int64') "
                            "according to the rule 'safe'")
    return _emit(result, out)


def _arg(op, a, axis, out, keepdims):
    node, ax, kept = _arg_input(a, axis)
    return _arg_out(_apply(op, (node,), (ax,)), kept, out, keepdims)


@numpy_out
@extensible('argmax')
def argmax(a, axis=None, out=None, *, keepdims=False):
    """Indices of the first maximum along ``axis`` (of the flattened array if None).

    NaN counts as the maximum (NumPy's rule); an empty axis raises ValueError.

    Returns
    -------
    lazynum.ndarray of int64
    """
    return _arg(ARGMAX, a, axis, out, keepdims)


@numpy_out
@extensible('argmin')
def argmin(a, axis=None, out=None, *, keepdims=False):
    """Indices of the first minimum along ``axis``; see :func:`argmax`."""
    return _arg(ARGMIN, a, axis, out, keepdims)


# -- scans ------------------------------------------------------------------------------------
def _scan(name, a, axis, dtype, out, flatten=True):
    """Node of ``numpy.<name>.accumulate`` (cumsum rules: axis=None flattens, 0-d is 1-d)."""
    _check_out(out)
    node = to_node(a)
    if axis is None and flatten:
        node, ax = reshape_node(node, (node.size,)), 0
    else:
        ax = normalize_axis(axis, builtins.max(len(node.shape), 1))
        node = reshape_node(node, (1,)) if not node.shape else node
    acc = _acc(name, node.dtype, dtype, out)
    op = _SCANS[name]
    if acc == BOOL:   # or / and as a running count / product of 0s and 1s
        result = cast(_apply(op, (cast(cast(node, BOOL), INT64),), (ax,)), BOOL)
    else:
        result = _apply(op, (cast(node, acc),), (ax,))
    return result, ax


@numpy_out
@extensible('cumsum')
def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along ``axis`` (of the flattened array if None).

    ``dtype`` follows :func:`sum`; ``out`` must have the result's shape.
    """
    return _emit(_scan("add", a, axis, dtype, out)[0], out, _scan_order(a, axis))


@numpy_out
@extensible('cumprod')
def cumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product along ``axis``; see :func:`cumsum`."""
    return _emit(_scan("multiply", a, axis, dtype, out)[0], out, _scan_order(a, axis))


def _cumulative(name, x, axis, dtype, out, include_initial):
    node = to_node(x)
    if axis is None:
        if len(node.shape) >= 2:
            raise ValueError("For arrays which have more than one dimension ``axis`` argument "
                             "is required.")
        axis = 0
    result, ax = _scan(name, node, axis, dtype, out, flatten=False)
    order = _scan_order(x, axis)
    if include_initial:
        first = result.shape[:ax] + (1,) + result.shape[ax + 1:]
        identity = broadcast_node(nodes.scalar(numpy_identity(name, result.dtype), result.dtype), first)
        # NumPy joins full_like(scan, shape=first) to the scan: both in the scan's order.
        memory = [layouts.dense(first, order), layouts.dense(result.shape, order)]
        order = layouts.join_order(memory) if len(first) > 1 else None
        result = _apply(CONCATENATE, (identity, result), (ax,))
    return _emit(result, out, order)


@numpy_out
def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Array API cumulative sum: ``axis`` is required above 1-d; ``include_initial``
    prepends the zero.
    """
    return _cumulative("add", x, axis, dtype, out, include_initial)


@numpy_out
def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Array API cumulative product; see :func:`cumulative_sum` (the initial value is 1)."""
    return _cumulative("multiply", x, axis, dtype, out, include_initial)


def ufunc_accumulate(uf, array, axis=0, dtype=None, out=None):
    """``uf.accumulate`` for add, multiply, logical_or, logical_and, maximum, minimum, fmax
    and fmin (else NotImplementedError, so that NumPy's dispatch falls back)."""
    name = uf.__name__
    if name not in _SCANS:
        raise NotImplementedError(f"lazynum has no lazy {name}.accumulate")
    node = to_node(array)
    if not node.shape:
        if axis is not None and not isinstance(axis, tuple):
            normalize_axis(axis, 1)       # NumPy checks axis 0/-1 first
        raise TypeError("cannot accumulate on a scalar")
    axes = (0,) if axis is None and len(node.shape) == 1 else axis
    if isinstance(axes, tuple) and len(axes) == 1:
        axes = axes[0]
    if axes is None or isinstance(axes, tuple):
        raise ValueError("accumulate does not allow multiple axes")
    out = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    return _emit(_scan(name, node, axes, dtype, out)[0], out)


# -- compositions -----------------------------------------------------------------------------
@numpy_out
def ptp(a, axis=None, out=None, keepdims=False):
    """Range (maximum - minimum) along the axes.

    As in NumPy, the maximum is first stored into ``out`` (so ``out``'s dtype takes part in
    the subtraction, whose result must then cast to ``out`` with same_kind casting).
    """
    high, low = max(a, axis, out, keepdims), min(a, axis, keepdims=keepdims)
    return call(np.subtract, (high, low), out=out)


@numpy_out
def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """Sum along a diagonal (``sum(diagonal(a, offset, axis1, axis2), -1)``)."""
    return sum(diagonal(a, offset, axis1, axis2), -1, dtype, out)


def count_nonzero(a, axis=None, *, keepdims=False):
    """Number of non-zero elements along the axes, as int64.

    Unlike NumPy, ``axis=None`` gives a lazy 0-d array rather than a Python int (an int
    would force a sync).
    """
    return _emit(_reduce("add", cast(to_node(a), BOOL), axis, INT64, None, keepdims, _NoValue,
                         True, True), None, _order(a, axis, keepdims))


def _weights(weights, shape, axes):
    """Weights shaped to broadcast against ``a`` (NumPy's ``_weights_are_valid``)."""
    wgt = wrap(to_node(weights))
    if wgt.shape == shape:
        return wgt
    if axes is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    if wgt.shape != tuple(shape[ax] for ax in axes):
        raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
    wgt = transpose(wgt, sorted(range(len(axes)), key=axes.__getitem__))
    return reshape(wgt, tuple(s if ax in axes else 1 for ax, s in enumerate(shape)))


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Weighted average along the axes (:func:`mean` without weights).

    Parameters
    ----------
    a : array_like
    axis : None, int or tuple of ints, optional
    weights : array_like, optional
        Same shape as ``a``, or the shape of ``a`` along ``axis``.
    returned : bool, optional
        Also return the sum of the weights (broadcast to the result's shape).
    keepdims : bool, optional

    Returns
    -------
    lazynum.ndarray, or a tuple (average, sum of weights)

    Notes
    -----
    NumPy raises ZeroDivisionError when weights sum to zero; that depends on data, so here
    the result is inf/NaN instead.
    """
    a = a if isinstance(a, ndarray) else wrap(to_node(a))     # a's layout orders the result
    keepdims = False if keepdims is _NoValue else keepdims
    axes = None if axis is None else tuple(
        normalize_axis(ax, a.ndim) for ax in (axis if isinstance(axis, tuple) else (axis,)))
    if axes is not None and len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    if weights is None:
        avg = mean(a, axes, keepdims=keepdims)
        scale = wrap(broadcast_node(nodes.scalar(a.size / avg.size, avg.dtype), avg.shape))
    else:
        wgt = _weights(weights, a.shape, axes)
        float_floor = (np.float64,) if a.dtype.kind in "biu" else ()
        kind = dtypes.check(np.result_type(a.dtype, wgt.dtype, *float_floor))
        scale = sum(wgt, axes, kind, keepdims=keepdims)
        avg = call(np.divide, (sum(call(np.multiply, (a, wgt), dtype=kind), axes,
                                   keepdims=keepdims), scale))
        scale = wrap(broadcast_node(scale._n(), avg.shape))
    return (avg, scale) if returned else avg


@numpy_out
def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Median along the axes: the mean of the middle one or two sorted elements.

    A slice holding NaN gives NaN; an empty slice gives NaN (with "Mean of empty slice").
    ``overwrite_input`` is accepted and ignored: lazy inputs are never overwritten.

    Returns
    -------
    lazynum.ndarray
    """
    node = to_node(a)
    shape, ndim = node.shape, len(node.shape)
    axes = _axes(axis, ndim)
    rest = [i for i in range(ndim) if i not in axes]
    if axis is not None and len(axes) != 1 and size_of(node.shape[i] for i in rest) == 0:
        raise ValueError(f"cannot reshape array of size 0 into shape "
                         f"{tuple(node.shape[i] for i in rest) + (-1,)}")   # as NumPy's
    moved = tuple(node.shape[i] for i in rest) + (size_of(node.shape[i] for i in axes),)
    if axes != tuple(range(ndim - len(axes), ndim)):
        order = rest + list(axes)
        strides = c_strides(node.shape)
        node = _apply(VIEW, (node,), (tuple(node.shape[i] for i in order),
                                      tuple(strides[i] for i in order), 0))
    node = reshape_node(node, moved)
    length = moved[-1]
    if length:
        node = _apply(SORT, (node,), (len(moved) - 1, "quicksort"))
    lo, count = (length - 1) // 2 if length else 0, (2 - length % 2) if length else 0
    strides = c_strides(moved)
    middle = _apply(VIEW, (node,), (moved[:-1] + (count,), strides, lo * strides[-1]))
    result = mean(middle, -1)._n()
    if length and node.dtype.kind in "fc":
        # NumPy's _median_nancheck returns the NaN itself (sorted last): a complex NaN
        # keeps its other part ((-3.5+nanj) stays, its real part -3.5)
        last = _apply(VIEW, (node,), (moved[:-1], strides[:-1], (length - 1) * strides[-1]))
        result = _apply(SELECT, (_apply(UFUNC_OPS["isnan"], (last,), ()), cast(last, result.dtype),
                                 result), ())
    # NumPy averages the middle of a partitioned copy of ``a`` in order 'K' (when one axis
    # is reduced; several are first merged by a reshape that may copy: C order here).
    order = _deviation_order(a, axis, keepdims) if len(axes) == 1 else None
    return _emit(reshape_node(result, _kept(shape, axes)) if keepdims else result, out, order)


# -- NaN-ignoring variants --------------------------------------------------------------------
def _nan_fill(a, value):
    """(input with NaN replaced by ``value``, NaN mask) for floats; (input, None) otherwise."""
    node = to_node(a)
    if node.dtype.kind not in "fc":
        return node, None
    mask = _apply(UFUNC_OPS["isnan"], (node,), ())
    return _apply(SELECT, (mask, nodes.scalar(value, node.dtype), node), ()), mask


@numpy_out
def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """:func:`sum` treating NaN as zero."""
    return _emit(_reduce("add", _nan_fill(a, 0)[0], axis, dtype, out, keepdims, initial, where,
                         True), out, _order(a, axis, keepdims, where))


@numpy_out
def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """:func:`prod` treating NaN as one."""
    return _emit(_reduce("multiply", _nan_fill(a, 1)[0], axis, dtype, out, keepdims, initial,
                         where, True), out, _order(a, axis, keepdims, where))


@numpy_out
def nancumsum(a, axis=None, dtype=None, out=None):
    """:func:`cumsum` treating NaN as zero."""
    return _emit(_scan("add", _nan_fill(a, 0)[0], axis, dtype, out)[0], out, _scan_order(a, axis))


@numpy_out
def nancumprod(a, axis=None, dtype=None, out=None):
    """:func:`cumprod` treating NaN as one."""
    return _emit(_scan("multiply", _nan_fill(a, 1)[0], axis, dtype, out)[0], out,
                 _scan_order(a, axis))


@numpy_out
def nanmax(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """:func:`max` ignoring NaN (``fmax.reduce``); an all-NaN slice gives NaN.

    NumPy's "All-NaN slice encountered" RuntimeWarning depends on data and is not issued.
    """
    node = to_node(a)
    name = "fmax" if node.dtype.kind in "fc" else "maximum"
    return _emit(_reduce(name, node, axis, None, out, keepdims, initial, where, True), out,
                 _order(a, axis, keepdims, where))


@numpy_out
def nanmin(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """:func:`min` ignoring NaN (``fmin.reduce``); see :func:`nanmax`."""
    node = to_node(a)
    name = "fmin" if node.dtype.kind in "fc" else "minimum"
    return _emit(_reduce(name, node, axis, None, out, keepdims, initial, where, True), out,
                 _order(a, axis, keepdims, where))


def _nanarg(op, fill, a, axis, out, keepdims):
    filled, mask = _nan_fill(a, fill)
    node, ax, kept = _arg_input(filled, axis)
    result = _apply(op, (node,), (ax,))
    if mask is not None and size_of(mask.shape):
        # An all-NaN slice has no answer: NumPy's ValueError, raised by the sync that needs it.
        is_number = _apply(UFUNC_OPS["logical_not"], (_arg_input(mask, axis)[0],), ())
        some_number = _apply(REDUCE_ANY, (is_number,), ((ax,),))
        result = _apply(ASSERT_ALL, (result, some_number), ("ValueError", "All-NaN slice encountered"))
    return _arg_out(result, kept, out, keepdims)


@numpy_out
def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """:func:`argmax` ignoring NaN.

    An all-NaN slice has no answer: NumPy raises ValueError at the call; that depends on
    data, so here the sync that computes the result raises the same ValueError.
    """
    return _nanarg(ARGMAX, -np.inf, a, axis, out, keepdims)


@numpy_out
def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """:func:`argmin` ignoring NaN; see :func:`nanargmax` for all-NaN slices."""
    return _nanarg(ARGMIN, np.inf, a, axis, out, keepdims)


def _nan_checks(dtype, out):
    if dtype is not None and dtypes.normalize(dtype).kind != "f":
        raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and isinstance(out, ndarray) and out.dtype.kind != "f":
        raise TypeError("If a is inexact, then out must be inexact")


@numpy_out
def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """:func:`mean` ignoring NaN; an all-NaN slice gives NaN."""
    filled, mask = _nan_fill(a, 0)
    if mask is None:
        return mean(a, axis, dtype, out, keepdims, where=where)
    _nan_checks(dtype, out)
    count = _reduce("add", _uf("logical_not", mask), axis, INT64, None, keepdims, _NoValue,
                    where, True)
    total = _reduce("add", filled, axis, dtype, out, keepdims, _NoValue, where, True)
    return _emit(_divide_as(total, count), out, _order(a, axis, keepdims, where, False))


def _nanvar(a, axis, dtype, out, ddof, keepdims, where, mean_value):
    filled, mask = _nan_fill(a, 0)
    _nan_checks(dtype, out)
    count = _reduce("add", _uf("logical_not", mask), axis, INT64, None, True, _NoValue, where,
                    True)
    if mean_value is _NoValue:
        mean_value = _divide_as(_reduce("add", filled, axis, dtype, None, True, _NoValue,
                                        where, True), count)
    deviation = cast(_uf("subtract", filled, to_node(mean_value)), filled.dtype)
    deviation = _apply(SELECT, (mask, nodes.scalar(0, filled.dtype), deviation), ())
    squares = (_uf("multiply", deviation, deviation) if deviation.dtype.kind != "c" else  # NumPy's
               real_node(_uf("multiply", deviation, _uf("conjugate", deviation))))      # x * x.conj()
    total = _reduce("add", squares, axis, dtype, out, keepdims, _NoValue, where, True)
    dof = call(np.subtract, (wrap(reshape_node(count, total.shape)), ddof))._n()
    result = _divide_as(total, dof)
    bad = _uf("less_equal", dof, nodes.scalar(0, dof.dtype))
    return _apply(SELECT, (bad, nodes.scalar(np.nan, result.dtype), result), ())


@numpy_out
def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=_NoValue, correction=_NoValue):
    """:func:`var` ignoring NaN; slices with ``N - ddof <= 0`` non-NaN values give NaN."""
    ddof, node = _ddof(ddof, correction), to_node(a)
    if node.dtype.kind not in "fc":
        return var(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean)
    return _emit(_nanvar(node, axis, dtype, out, ddof, keepdims, where, mean), out,
                 _deviation_order(a, axis, keepdims, where))


@numpy_out
def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=_NoValue, correction=_NoValue):
    """:func:`std` ignoring NaN; see :func:`nanvar`."""
    ddof, node = _ddof(ddof, correction), to_node(a)
    if node.dtype.kind not in "fc":
        return std(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean)
    return _emit(_sqrt_as(_nanvar(node, axis, dtype, out, ddof, keepdims, where, mean), out),
                 out, _deviation_order(a, axis, keepdims, where))


# The ufunc objects' reduce and accumulate live with the reductions they call.
def _reduce_method(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """``ufunc.reduce``: lazily where a reduction implements it, else NumPy's (a counted
    fallback)."""
    try:
        return ufunc_reduce(self, array, axis, dtype, out, keepdims, initial, where)
    except NotImplementedError:
        pass
    # ``initial=None`` is "not given" here; NumPy reads None as "no identity"
    kwargs = _given(axis=(axis, 0), dtype=(dtype, None), out=(out, None),
                    keepdims=(keepdims, False), initial=(initial, None), where=(where, True))
    return self._fallback("reduce", (array,), kwargs)


def _accumulate_method(self, array, axis=0, dtype=None, out=None):
    """``ufunc.accumulate``: lazily for add/multiply (cumsum/cumprod), else NumPy's."""
    try:
        return ufunc_accumulate(self, array, axis, dtype, out)
    except NotImplementedError:
        pass
    kwargs = _given(axis=(axis, 0), dtype=(dtype, None), out=(out, None))
    return self._fallback("accumulate", (array,), kwargs)


ufunc.reduce = _reduce_method
ufunc.accumulate = _accumulate_method
