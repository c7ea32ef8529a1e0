"""Elementwise math beyond the ufuncs: ``where``, ``clip``, ``round``, ``nan_to_num``,
``isclose``/``allclose``, ``array_equal``, real/imag helpers and ``sinc``.

Each function follows NumPy 2's own algorithm (the same ufunc calls in the same order, so
dtypes, NEP 50 weak scalars and rounding match) built from lazy ufunc calls and the
``select`` primitive.  ``allclose``, ``array_equal`` and ``array_equiv`` return a Python
``bool`` as NumPy does, which needs the value: they sync (reason ``allclose`` /
``array_equal`` / ``array_equiv``), reducing lazily first so one bool comes back.
"""
from __future__ import annotations

import builtins
import operator

import numpy as np

from ..array.extension import extensible
from ..expr import dtypes
from ..array import complex_parts
from ..array.arraytype import ndarray, wrap, wrap_ordered
from ..array.conversion import _contains_lazy, broadcast_node, cast, to_array, to_node
from ..expr import node as nodes
from ..expr.complex_parts import complex_node, imag_node, real_node
from ..expr.elementwise import SELECT, UFUNC_OPS
from ..expr.reduce import REDUCE_ALL
from ..expr.shapes import broadcast_shapes
from ..array.arraytype import result_order
from .ufuncs import _classify, _resolve, _store, _weak_node, call

__all__ = ["where", "clip", "nan_to_num", "around", "round", "fix", "real", "imag",
           "isclose", "allclose", "array_equal", "array_equiv", "isreal", "iscomplex",
           "isrealobj", "iscomplexobj", "sinc", "isposinf", "isneginf", "real_if_close", "angle"]
from .indexing.advanced import nonzero
from .fallbacks import numpy_out

_apply = nodes.apply
_BOOL = dtypes.BOOL
_NoValue = np._NoValue
_um_clip = np._core.umath.clip


# -- where ---------------------------------------------------------------------------------

def _where_operand(value, dtype):
    """``value`` (node or Python scalar) as a node of ``dtype``, with ``numpy.where``'s
    conversion: Python ints are cast like C longs (wrapping), not range-checked."""
    if type(value) is nodes.Node:
        return cast(value, dtype)
    if isinstance(value, int) and not isinstance(value, bool) and dtype.kind in "iu":
        if -2**63 <= value < 2**63:
            value = np.array(value, dtypes.INT64).astype(dtype)
        elif 0 <= value < 2**64:
            value = np.array(value, dtypes.UINT64).astype(dtype)
        else:
            raise OverflowError("Python int too large to convert to C long")
        return nodes.constant(value)
    if isinstance(value, int) and not isinstance(value, bool) and dtype.kind == "f":
        value = float(value)
    return nodes.scalar(value, dtype)


@extensible('where')
def where(condition, x=_NoValue, y=_NoValue, /):
    """``x`` where ``condition`` is true, else ``y`` (NumPy 2 promotion, Python scalars weak).

    ``where(condition)`` is ``nonzero(condition)`` (data-dependent shape).
    """
    if x is _NoValue and y is _NoValue:
        return nonzero(condition)
    if x is _NoValue or y is _NoValue:
        raise ValueError("either both or neither of x and y should be given")
    cond = to_node(condition)
    (xv, _), (yv, _) = _classify(x), _classify(y)
    dt = dtypes.result_type(xv.dtype if type(xv) is nodes.Node else xv,
                            yv.dtype if type(yv) is nodes.Node else yv)
    cond = cast(cond, _BOOL)          # truthiness, as NumPy's where (NaN is true)
    # select broadcasts its operands (NumPy's rules and ValueError): no views needed.
    result = _apply(SELECT, (cond, _where_operand(xv, dt), _where_operand(yv, dt)))
    # NumPy's where iterates in 'K' order: its result follows its operands' memory order
    return wrap_ordered(result, result_order((condition, x, y), result.shape))


# -- clip ----------------------------------------------------------------------------------

@numpy_out
@extensible('clip')
def clip(a, a_min=_NoValue, a_max=_NoValue, out=None, *, min=_NoValue, max=_NoValue,
         **kwargs):
    """Limit the values of ``a`` to ``[a_min, a_max]`` (either may be None).

    NumPy 2's rules: ``min=``/``max=`` aliases, Python ints beyond an integer array's range
    are dropped (no overflow), and otherwise the ``clip`` loop promotes as a ufunc does.
    """
    if a_min is _NoValue and a_max is _NoValue:
        a_min = None if min is _NoValue else min
        a_max = None if max is _NoValue else max
    elif a_min is _NoValue:
        raise TypeError("clip() missing 1 required positional argument: 'a_min'")
    elif a_max is _NoValue:
        raise TypeError("clip() missing 1 required positional argument: 'a_max'")
    elif min is not _NoValue or max is not _NoValue:
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` "
                         "are provided is forbidden.")
    a = to_array(a)
    lo, hi = a_min, a_max
    if a.dtype.kind in "iu":
        info = np.iinfo(a.dtype)
        if type(lo) is int and lo <= info.min:
            lo = None
        if type(hi) is int and hi >= info.max:
            hi = None
    where = kwargs.pop("where", True)
    dtype = kwargs.pop("dtype", None)
    casting = kwargs.pop("casting", "same_kind")
    kwargs.pop("order", None)
    kwargs.pop("subok", None)
    if kwargs:
        raise TypeError(f"clip() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if isinstance(out, ndarray):       # NumPy refuses a read-only output before a type error
        out._check_writeable()
    common = dict(out=out, where=where, dtype=dtype, casting=casting)
    if lo is None and hi is None:
        return call(np.positive, (a,), **common)
    if lo is None:
        return call(np.minimum, (a, hi), **common)
    if hi is None:
        return call(np.maximum, (a, lo), **common)
    items = [_classify(v) for v in (a, lo, hi)]
    loop = _resolve(_um_clip, tuple(k for _, k in items),
                    None if dtype is None else dtypes.normalize(dtype), casting)
    x, low, high = [cast(v, want) if type(v) is nodes.Node else _weak_node(v, k, want)
                    for (v, k), want in zip(items, loop)]
    result = _clip_nodes(x, low, high)
    if result.dtype != loop[3]:
        result = cast(result, loop[3])
    if out is None and where is True:
        return wrap_ordered(result, result_order((a, a_min, a_max), result.shape))
    return _store(_um_clip, [result], out, where, casting)


def _clip_nodes(x, low, high):
    """NumPy's clip: ``x`` unless it is strictly below ``low`` (then ``low``) or, after that,
    strictly above ``high`` (then ``high``), so a tie keeps ``x``'s signed zero
    (``clip(-0.0, -1, 0)`` is -0.0, where ``minimum(-0.0, 0.0)`` is 0.0); a NaN anywhere
    gives NaN; ``low > high`` gives ``high``."""
    if x.dtype.kind == "c":
        return _clip_complex(x, low, high)
    below = _apply(UFUNC_OPS["less"], (x, low))
    if x.dtype.kind == "f":
        below = _apply(UFUNC_OPS["logical_or"], (below, _apply(UFUNC_OPS["isnan"], (low,))))
    raised = _apply(SELECT, (below, low, x))
    above = _apply(UFUNC_OPS["greater"], (raised, high))
    if x.dtype.kind == "f":
        above = _apply(UFUNC_OPS["logical_or"], (above, _apply(UFUNC_OPS["isnan"], (high,))))
    return _apply(SELECT, (above, high, raised))


def _clip_complex(x, low, high):
    """NumPy's complex clip, ``min(max(x, low), high)`` with its own complex extremes:
    ``max(a, b)`` is ``a`` when ``a`` is NaN (either part) or lexicographically above ``b``
    (real parts first, then imaginary; a NaN part compares false, unlike the comparison
    ufuncs, which are false whenever a NaN is involved), else ``b``; ``min`` likewise with
    below.  So ``clip(3.5+2.5j, 1.5+nanj, 2+1j)`` is ``2+1j``."""
    def extreme(a, b, order):
        ar, ai, br, bi = real_node(a), imag_node(a), real_node(b), imag_node(b)
        beyond = _apply(UFUNC_OPS["logical_or"], (
            _apply(UFUNC_OPS[order], (ar, br)),
            _apply(UFUNC_OPS["logical_and"], (_apply(UFUNC_OPS["equal"], (ar, br)),
                                               _apply(UFUNC_OPS[order], (ai, bi))))))
        keep = _apply(UFUNC_OPS["logical_or"], (_apply(UFUNC_OPS["isnan"], (a,)), beyond))
        return _apply(SELECT, (keep, a, b))
    return extreme(extreme(x, low, "greater"), high, "less")


# -- rounding ------------------------------------------------------------------------------

def _power_of_ten(n: int) -> float:
    """NumPy's ``power_of_ten`` (the same double, rounding included)."""
    table = (1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8)
    if n < 9:
        return table[n]
    ret = 1e9
    while n > 9:
        ret *= 10.0
        n -= 1
    return ret


@numpy_out
@extensible('around')
def around(a, decimals=0, out=None):
    """Round to ``decimals`` places with NumPy's algorithm (half to even).

    Floats: ``rint(a * 10**d) / 10**d`` in the array's dtype (``a / 10**-d`` for negative
    ``d``); integers are unchanged for ``d >= 0`` and rounded through float64 otherwise.
    """
    a = to_array(a)
    decimals = operator.index(decimals)
    is_int = a.dtype.kind in "iu"
    order = result_order((a,), a.shape)      # NumPy's copy keeps a's memory order ('K')
    if decimals >= 0 and is_int:
        return wrap_ordered(a._n(), order) if out is None else _assign(out, a)
    if a.dtype.kind == "c":     # NumPy rounds the real and the imaginary part separately
        parts = (around(wrap(part(a._n())), decimals)._n() for part in (real_node, imag_node))
        result = wrap_ordered(complex_node(*parts), order)
        return result if out is None else _assign(out, result)
    if decimals == 0:
        return call(np.rint, (a,), out=out)
    op1, op2 = np.multiply, np.divide
    if decimals < 0:
        op1, op2, decimals = np.divide, np.multiply, -decimals
    f = _power_of_ten(decimals)
    if out is None:
        if is_int:     # through a float64 temporary, cast back at the end
            result = call(op2, (call(np.rint, (call(op1, (a, f)),)), f))
            return wrap_ordered(cast(result._n(), a.dtype), order)
        if a.dtype.kind == "f":
            ret = call(op1, (a, f))     # a new array in a's memory order ('K'), as NumPy's
        else:                           # into a's dtype: NumPy's casting error for bool
            out = wrap(broadcast_node(nodes.scalar(0, a.dtype), a.shape))
    if out is not None:
        ret = call(op1, (a, f), out=out)
    call(np.rint, (ret,), out=ret)
    return call(op2, (ret, f), out=ret)


def _assign(out, a):
    if not isinstance(out, ndarray):
        raise TypeError("return arrays must be of lazynum.ndarray type")
    if not np.can_cast(a.dtype, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast array data from {a.dtype!r} to {out.dtype!r} "
                        "according to the rule 'same_kind'")
    out[...] = a
    return out


round = around   # noqa: A001  (NumPy's name)


@numpy_out
@extensible('fix')
def fix(x, out=None):
    """Round toward zero (NumPy 2: ``trunc``)."""
    return call(np.trunc, (x,), out=out)


# -- NaN / inf handling --------------------------------------------------------------------

@numpy_out
def isposinf(x, out=None):
    """``isinf(x) & ~signbit(x)``."""
    is_inf = call(np.isinf, (x,))
    try:
        signbit = call(np.invert, (call(np.signbit, (x,)),))
    except TypeError as exc:
        raise TypeError(f"This operation is not supported for {to_array(x).dtype} values "
                        "because it would be ambiguous.") from exc
    return call(np.logical_and, (is_inf, signbit), out=out)


@numpy_out
def isneginf(x, out=None):
    """``isinf(x) & signbit(x)``."""
    is_inf = call(np.isinf, (x,))
    try:
        signbit = call(np.signbit, (x,))
    except TypeError as exc:
        raise TypeError(f"This operation is not supported for {to_array(x).dtype} values "
                        "because it would be ambiguous.") from exc
    return call(np.logical_and, (is_inf, signbit), out=out)


def _fill_node(value, dtype, shape):
    if isinstance(value, ndarray) or isinstance(value, np.ndarray) or isinstance(value, list):
        return broadcast_node(cast(to_node(value), dtype), shape)
    return nodes.scalar(float(value) if isinstance(value, int) else value, dtype)


@extensible('nan_to_num')
def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """Replace NaN with ``nan`` and infinities with ``posinf``/``neginf`` (default: the
    dtype's largest/smallest finite value).  ``copy=False`` writes into ``x`` itself."""
    if isinstance(x, ndarray):
        array = x if not copy else wrap(x._n())
    else:
        array = to_array(x)
    dt = array.dtype
    if dt.kind not in "fc":
        return array
    node = array._n()
    if dt.kind == "c":          # NumPy fixes the real and the imaginary parts separately
        value = complex_node(*(_finite_part(part, nan, posinf, neginf)
                               for part in (real_node(node), imag_node(node))))
    else:
        value = _finite_part(node, nan, posinf, neginf)
    if array is x:
        x._write(x._layout(), value)
        return x
    return wrap(value)


def _finite_part(node, nan, posinf, neginf):
    """``node`` (a float node) with NaN and infinities replaced (``nan_to_num``'s steps)."""
    dt, shape = node.dtype, node.shape
    info = np.finfo(dt)
    maxf = info.max if posinf is None else posinf
    minf = info.min if neginf is None else neginf
    array, value = wrap(node), node
    for mask_fn, fill in ((np.isnan, nan), (isposinf, maxf), (isneginf, minf)):
        mask = (call(mask_fn, (array,)) if mask_fn is np.isnan else mask_fn(array))._n()
        value = _apply(SELECT, (mask, _fill_node(fill, dt, shape), value))
    return value


# -- comparisons returning Python bools -----------------------------------------------------

def _all_bool(array, reason: str) -> bool:
    """``bool(array.all())`` for a lazy bool array: one lazy reduction, then a sync."""
    node = array._n()
    if node.shape:
        node = _apply(REDUCE_ALL, (node,), (tuple(range(len(node.shape))),))
    return builtins.bool(wrap(node)._value(reason))


def isclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (NumPy's formula and dtypes)."""
    x, y, atol, rtol = (v if isinstance(v, (int, float, complex)) and not isinstance(v, np.generic)
                        else to_array(v) for v in (a, b, atol, rtol))
    if isinstance(y, ndarray):
        dt = dtypes.result_type(y.dtype, 1.0)
        y = to_array(y, dt)
    elif isinstance(y, int):
        y = float(y)
    diff = call(np.absolute, (call(np.subtract, (x, y)),))
    # NumPy writes abs(y), rtol * ..., atol + ...: Python scalars stay Python (weak) there.
    abs_y = abs(y) if isinstance(y, float) else call(np.absolute, (y,))
    scaled = rtol * abs_y if isinstance(rtol, (int, float)) and isinstance(abs_y, float) \
        else call(np.multiply, (rtol, abs_y))
    tol = atol + scaled if isinstance(atol, (int, float)) and isinstance(scaled, float) \
        else call(np.add, (atol, scaled))
    result = call(np.bitwise_or, (
        call(np.bitwise_and, (call(np.less_equal, (diff, tol)), call(np.isfinite, (y,)))),
        call(np.equal, (x, y))))
    if equal_nan:
        result = call(np.bitwise_or, (result, call(np.bitwise_and, (
            call(np.isnan, (x,)), call(np.isnan, (y,))))))
    return result


def allclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """``all(isclose(...))`` as a Python ``bool``, as NumPy returns: this syncs."""
    return _all_bool(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan), "allclose")


def array_equal(a1, a2, equal_nan=False):
    """True when the shapes and all elements are equal (a Python ``bool``: this syncs)."""
    try:
        a1, a2 = to_array(a1), to_array(a2)
    except Exception:  # noqa: BLE001 - NumPy answers False for anything it cannot convert
        return False
    if a1.shape != a2.shape:
        return False
    equal = call(np.equal, (a1, a2))
    if equal_nan:
        if a1 is a2:
            return True
        if a1.dtype.kind in "fc" or a2.dtype.kind in "fc":
            equal = call(np.bitwise_or, (equal, call(np.bitwise_and, (
                call(np.isnan, (a1,)), call(np.isnan, (a2,))))))
    return _all_bool(equal, "array_equal")


def array_equiv(a1, a2):
    """True when the arrays broadcast together and are equal elementwise (syncs)."""
    try:     # a Python int beyond int64 stays one: equal() compares it exactly (NumPy: object)
        a1, a2 = (v if type(v) is int else to_array(v) for v in (a1, a2))
    except Exception:  # noqa: BLE001
        return False
    try:
        broadcast_shapes(np.shape(a1), np.shape(a2))
    except ValueError:
        return False
    return _all_bool(call(np.equal, (a1, a2)), "array_equiv")


# -- real / imaginary parts ---------------------------------------------------------------

@extensible('real')
def real(val):
    """The real part: of a complex array a writable view of its real parts
    (``array.complex_parts``), of a real array the array itself (a view)."""
    if isinstance(val, (int, float, complex, np.generic)) and not isinstance(val, ndarray):
        return val.real
    a = to_array(val)
    if a.dtype.kind == "c":
        return complex_parts.part(a, 0)
    return a._window(a._layout()) if a is val else a


@extensible('imag')
def imag(val):
    """The imaginary part: of a complex array a writable view of its imaginary parts, of a
    real array read-only zeros of its shape and dtype."""
    if isinstance(val, (int, float, complex, np.generic)) and not isinstance(val, ndarray):
        return val.imag
    a = to_array(val)
    if a.dtype.kind == "c":
        return complex_parts.part(a, 1)
    zeros = wrap(broadcast_node(nodes.scalar(0, a.dtype), a.shape))
    return zeros._window(zeros._layout(), readonly=True)


def conj(a, out=None):
    """``ndarray.conj()``/``conjugate()``: the complex conjugate; for real dtypes NumPy
    returns the array itself (``lazynum.conj``, the ufunc, gives bool input NumPy's int8
    loop instead)."""
    a = to_array(a)
    if a.dtype.kind == "c":
        return call(np.conjugate, (a,), out=out)
    return a if out is None else _assign(out, a)


conjugate = conj


def isreal(x):
    """``imag(x) == 0``: all True for real dtypes."""
    return imag(x) == 0


def iscomplex(x):
    """Elementwise "has a nonzero imaginary part": all False for real dtypes."""
    a = to_array(x)
    if a.dtype.kind == "c":
        return imag(a) != 0
    return wrap(broadcast_node(nodes.scalar(False, _BOOL), a.shape))


def iscomplexobj(x):
    """True when ``x`` has a complex dtype (NumPy's rule: the dtype, not the values)."""
    if isinstance(x, ndarray):
        return x.dtype.kind == "c"
    try:
        return issubclass(x.dtype.type, np.complexfloating)
    except AttributeError:
        if _contains_lazy(x):
            return to_array(x).dtype.kind == "c"
        return np.iscomplexobj(x)


def isrealobj(x):
    """``not iscomplexobj(x)``."""
    return not iscomplexobj(x)


def real_if_close(a, tol=100):
    """``a.real`` when every imaginary part is within ``tol`` machine epsilons of zero (a
    sync for the answer: the result's dtype depends on the values, as in NumPy); ``a``
    itself for real dtypes."""
    a = to_array(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    small = call(np.less, (call(np.absolute, (imag(a),)), tol))
    return real(a) if _all_bool(small, "real_if_close") else a


def sinc(x):
    """The normalized sinc ``sin(pi x) / (pi x)`` (1 at 0), NumPy's formula."""
    x = to_array(x)
    x = call(np.multiply, (np.pi, x))
    eps = np.finfo(x.dtype).eps if x.dtype.kind == "f" else 1e-20
    y = where(x, x, eps)
    return call(np.divide, (call(np.sin, (y,)), y))


def angle(z, deg=False):
    """The argument of ``z`` (``numpy.angle``): ``arctan2(z.imag, z.real)``; for real values
    ``arctan2(0, z)``, so 0 or pi (also for -0.0), in NumPy's dtype; degrees when ``deg``."""
    z = z if isinstance(z, ndarray) else wrap(to_node(z))
    a = (call(np.arctan2, (imag(z), real(z))) if z.dtype.kind == "c" else
         call(np.arctan2, (0, z)))
    return call(np.multiply, (a, 180 / np.pi)) if deg else a
