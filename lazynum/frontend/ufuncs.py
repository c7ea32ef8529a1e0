"""NumPy's ufuncs, lazily: ``lazynum.add``, ``lazynum.sin``, ... with ``reduce``/``accumulate``/
``outer``/``at`` where NumPy users reach for them.

The call path is the per-op hot path of tracing: classify operands (weak Python scalars
vs. typed nodes), look up NumPy's loop signature (cached), cast to it, record one node.

NumPy 2 rules kept here (NEP 50):

* Python ``int``/``float`` are weak: the loop is resolved with the abstract Python type and
  the value is converted to the loop's dtype; an int that does not fit an integer loop raises
  ``OverflowError`` (a ``bool`` loop first needs it to fit a C long, as in NumPy).
* Python ``bool`` behaves exactly as ``numpy.bool_`` (the lowest kind, never changes a result).
* Comparisons against an out-of-range Python int are exact (``int8_array < 300`` is all
  ``True``): the result is a constant that does not depend on the data.
* Python ``complex`` is weak too: ``float32_array * 1j`` is complex64.
* Every loop NumPy has runs here, float16 and complex ones included; a loop NumPy lacks
  (``floor`` of complex, ``complex % 2``) is NumPy's own ``UFuncTypeError`` at the call.
"""
from __future__ import annotations

import numpy as np

from ..expr import dtypes
from ..array import extension, fastpath as _fastpath, layout as layouts
from ..array.arraytype import (ndarray, operand_layout, result_order, scalar_result, wrap,
                                 wrap_ordered, wrap_result)
from ..array.conversion import broadcast_node, cast, is_weak, to_node
from ..expr import node as nodes
from ..expr.elementwise import (BINARY_UFUNCS, COMPARISONS, MULTI_OUTPUT_UFUNCS, SELECT, UFUNC_OPS,
    UNARY_UFUNCS)
from ..expr.shapes import broadcast_shapes
from . import immediate_forms
from .fallbacks import ufunc_fallback
from .indexing.ufunc_at import ufunc_at
from .manipulation import reshape

_apply = nodes.apply
_scalar = nodes.scalar
_Node = nodes.Node
_BOOL = dtypes.BOOL
_I32 = np.dtype(np.int32)
_SUPPORTED = dtypes.SUPPORTED
_INT64_MIN, _INT64_MAX = -2**63, 2**63 - 1
_INT_BOUNDS = {dt: (int(np.iinfo(dt).min), int(np.iinfo(dt).max))
               for dt in dtypes.SUPPORTED if dt.kind in "iu"}

try:   # NumPy's own exception classes, so ``except`` clauses written for NumPy keep working
    from numpy._core._exceptions import _UFuncOutputCastingError
except ImportError:  # pragma: no cover - NumPy layout changed
    _UFuncOutputCastingError = None


def _classify(x):
    """(value, type key): nodes keyed by dtype, weak Python scalars by ``int``/``float``.

    A Python ``bool`` is keyed by the bool dtype: under NEP 50 it acts like ``numpy.bool_``.
    """
    t = type(x)
    if t is ndarray or t is scalar_result:
        node = x._n()
        return node, node.dtype
    if t is int or t is float or t is complex:
        return x, t
    if t is bool:
        return x, _BOOL
    if is_weak(x):             # subclasses of Python's scalar types (not NumPy scalars)
        if isinstance(x, bool):
            return bool(x), _BOOL
        if isinstance(x, complex):
            return complex(x), complex
        return (int(x), int) if isinstance(x, int) else (float(x), float)
    node = to_node(x)
    return node, node.dtype


# (ufunc, operand types, dtype, casting) -> NumPy's loop for them (checked once)
_loops: dict = {}


def _resolve(uf, types, dtype, casting):
    """NumPy's loop for ``types`` (``dtype=``/``casting=`` as NumPy's ufunc call takes them)."""
    key = (uf, types, dtype, casting)
    try:
        return _loops[key]
    except KeyError:
        pass
    nin, nout = uf.nin, uf.nout
    kwargs = {"casting": casting}
    if dtype is not None:
        kwargs["signature"] = (None,) * nin + (dtype,) * nout
    try:
        loop = uf.resolve_dtypes(types + (None,) * nout, **kwargs)
    except TypeError:
        # ldexp's legacy type resolver takes a Python int exponent as int32 (a C long
        # after a bool mantissa): NumPy's 'fi->f' / 'el->e' loops.
        if uf is not np.ldexp or types[1] is not int:
            raise
        strong = (types[0], dtypes.INT64 if types[0] == _BOOL else _I32)
        loop = uf.resolve_dtypes(strong + (None,) * nout, **kwargs)
    for dt in loop:
        if dt not in _SUPPORTED:
            dtypes.check(dt, f"ufunc {uf.__name__}")
    _loops[key] = loop
    return loop


def _check_huge_int_into_integer_out(items, out):
    """NumPy converts a Python int beyond int64 to a C long first when ``out`` is a bool or
    signed integer array (uint64 takes it): OverflowError before any casting check."""
    if not any(k is int and not _INT64_MIN <= v <= _INT64_MAX for v, k in items):
        return
    for target in out if isinstance(out, tuple) else (out,):
        dtype = getattr(target, "dtype", None)
        if dtype is not None and (dtype.kind in "bi" or (dtype.kind == "u" and dtype.itemsize < 8)):
            raise OverflowError("Python int too large to convert to C long")


def _check_out_casting(uf, loop, out, casting):
    """Raise NumPy's output-casting error for ``out``."""
    outs = out if isinstance(out, tuple) else (out,)
    for i, (dt, target) in enumerate(zip(loop[uf.nin:], outs)):
        tdtype = getattr(target, "dtype", None)
        if tdtype is not None and dt != tdtype and not np.can_cast(dt, tdtype, casting) \
                and _UFuncOutputCastingError is not None:
            raise _UFuncOutputCastingError(uf, casting, dt, tdtype, uf.nin + i)


def _ldexp_exponent(value, mantissa_type):
    """NumPy's checks of a Python int exponent of ``ldexp`` (before its loop is chosen)."""
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise OverflowError("Python int too large to convert to C long")
    if mantissa_type != _BOOL and not -2**31 <= value < 2**31:
        raise OverflowError(f"Python integer {value} out of bounds for int32")


def _weak_node(value, key, want):
    """Node for a Python scalar in the loop dtype ``want`` (NumPy 2's conversion rules)."""
    kind = want.kind
    if key is int:
        if kind in "iu":
            low, high = _INT_BOUNDS[want]
            if not low <= value <= high:
                # NumPy first converts to a C long (an unsigned one for uint32 and uint64)
                widest = 2**64 - 1 if kind == "u" and want.itemsize >= 4 else _INT64_MAX
                if not _INT64_MIN <= value <= widest:
                    raise OverflowError("Python int too large to convert to C long")
                raise OverflowError(f"Python integer {value} out of bounds for {want}")
        elif kind == "b":
            if not _INT64_MIN <= value <= _INT64_MAX:
                raise OverflowError("Python int too large to convert to C long")
        else:
            value = float(value)      # OverflowError beyond the float range, as NumPy
    return _scalar(value, want)


def _exact_comparison(uf, items, loop):
    """The constant result of comparing an integer array with an out-of-range Python int,
    or None when the comparison is an ordinary loop."""
    (v0, k0), (v1, k1) = items
    if k0 is int and k1 is not int:
        value, other, flip = v0, v1, True
    elif k1 is int and k0 is not int:
        value, other, flip = v1, v0, False
    else:
        return None
    dt = loop[1 if flip else 0]
    if type(other) is not _Node or dt.kind not in "iu" or other.dtype.kind not in "iu":
        return None
    low, high = _INT_BOUNDS[dt]
    if low <= value <= high:
        return None
    above = value > high              # the Python int is above every value of the array
    name = uf.__name__
    if name == "equal":
        result = False
    elif name == "not_equal":
        result = True
    else:
        # array OP value with array < value everywhere when ``above``
        less_side = name in ("less", "less_equal")
        result = less_side == above
        if flip:                      # value OP array
            result = not result
    return broadcast_node(_scalar(result, _BOOL), other.shape)


def call(uf: np.ufunc, args, out=None, where=True, dtype=None, casting="same_kind", order="K"):
    """Record ``uf(*args)``; the result array (a tuple for multi-output ufuncs)."""
    if out is None and where is True and order == "K" and casting == "same_kind":
        result = immediate_forms.run_now(uf.__name__, uf, args, {} if dtype is None else
                                         {"dtype": dtype})
        if result is not immediate_forms.NOT_TAKEN:
            return result
    nin = uf.nin
    if len(args) != nin:
        if nin < len(args) <= uf.nargs and out is None:
            args, out = args[:nin], args[nin:]
            out = out[0] if len(out) == 1 else out
        elif len(args) > nin and out is not None:
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        else:
            raise TypeError(f"{uf.__name__}() takes from {nin} to {uf.nargs} positional "
                            f"arguments but {len(args)} were given")
    if out is not None:           # NumPy refuses a read-only output before any type error
        for target in (out if isinstance(out, tuple) else (out,)):
            if isinstance(target, ndarray):
                target._check_writeable()
    try:
        items = [_classify(a) for a in args]
    except TypeError:             # a dtype lazynum lacks (float16): NumPy's shape error first
        _check_shapes(args, out)
        raise
    types = tuple([k for _, k in items])
    if nin == 1 and types[0] is int and not _INT64_MIN <= items[0][0] <= _INT64_MAX:
        node = to_node(items[0][0])       # NumPy converts a lone huge int like asarray does
        items, types = [(node, node.dtype)], (node.dtype,)
    elif nin == 2 and uf.__name__ in COMPARISONS and not any(type(v) is _Node for v, _ in items):
        # Two Python scalars: NumPy compares them as the arrays they convert to.
        items = [(n, n.dtype) for n in (to_node(v) for v, _ in items)]
        types = (items[0][1], items[1][1])
    elif uf is np.ldexp and types[1] is int:
        _ldexp_exponent(items[1][0], types[0])
    if dtype is not None:
        try:
            dtype = dtypes.normalize(dtype)
        except TypeError:         # float16, complex: NumPy has the loop, so its shape error first
            if _numpy_has_loop(uf, types, dtype, casting):
                _check_shapes(args, out)
            raise
    loop = _resolve(uf, types, dtype, casting)
    if out is not None:
        _check_huge_int_into_integer_out(items, out)
        _check_out_casting(uf, loop, out, casting)   # NumPy checks casting before shapes
    inputs = []
    for (value, key), want in zip(items, loop):
        if type(value) is _Node:
            inputs.append(value if value.dtype == want else cast(value, want))
            continue
        if nin == 2 and key is int and uf.__name__ in COMPARISONS:
            constant = _exact_comparison(uf, items, loop)
            if constant is not None:
                return _finish(uf, [constant], out, where, casting, args, order)
        inputs.append(_weak_node(value, key, want))
    op = UFUNC_OPS[uf.__name__]
    inputs = tuple(inputs)
    if uf.nout == 1:
        results = [_apply(op, inputs, ())]
    else:
        results = [_apply(op, inputs, (i,)) for i in range(uf.nout)]
    return _finish(uf, results, out, where, casting, args, order)


def power_shortcut(a, exponent):
    """The unary ufunc NumPy's ``a ** exponent`` operator (and ``**=``) calls instead of
    ``power``, or None: ``square`` for an exact Python int 2 on any array (so a bool array
    squared is int8), and on a float or complex array ``reciprocal`` for an exact int -1 and ``sqrt``
    for an exact float 0.5 (NumPy's ``fast_scalar_power``: not ``np.power``, whose float
    loop has fast cases of its own, nor a NumPy scalar or Python bool exponent)."""
    kind = type(exponent)
    if kind is int:
        if exponent == 2:
            return np.square
        return np.reciprocal if exponent == -1 and a.dtype.kind in "fc" else None
    if kind is float and exponent == 0.5 and a.dtype.kind in "fc":
        return np.sqrt
    return None


def _finish(uf, results, out, where, casting, args=(), order="K"):
    if out is None and where is True:
        perm = _requested_order(args, results[0].shape, order)
        if perm is None:
            return wrap_result(results[0]) if len(results) == 1 else tuple(map(wrap_result, results))
        if len(results) == 1:
            return wrap_ordered(results[0], perm)
        return tuple(wrap_ordered(r, perm) for r in results)
    return _store(uf, results, out, where, casting)


def _requested_order(args, shape, order):
    """The result's memory order for the ufunc's ``order=``: 'K' follows the operands, 'A'
    is Fortran order when every array operand is Fortran- and not C-contiguous."""
    order = order if order == "K" else layouts.order_code(order)
    if order == "A":
        arrays = [operand_layout(a) for a in args if isinstance(a, (ndarray, np.ndarray))]
        fortran = arrays and all(layouts.is_f_contiguous(lay) and not layouts.is_c_contiguous(lay)
                                 for lay in arrays)
        order = "F" if fortran else "C"
    if order == "K":
        return result_order(args, shape)
    return layouts.fortran_order(len(shape)) if order == "F" else None


def _outputs(uf, out, count):
    if out is None:
        return (None,) * count
    if isinstance(out, tuple):
        if len(out) != count:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        return out
    if count != 1:
        raise TypeError("'out' must be a tuple of arrays")
    return (out,)


def _where_node(where):
    if isinstance(where, ndarray) or isinstance(where, np.ndarray):
        node = to_node(where)
        if node.dtype != _BOOL:
            raise TypeError(f"Cannot cast array data from {node.dtype!r} to dtype('bool') "
                            "according to the rule 'safe'")
        return node
    return to_node(where, _BOOL)


def _store(uf, results, out, where, casting):
    outs = _outputs(uf, out, len(results))
    mask = None if where is True else _where_node(where)
    arrays = []
    for i, (result, target) in enumerate(zip(results, outs)):
        if target is None:
            if mask is None:
                arrays.append(wrap_result(result))
                continue
            # NumPy leaves the masked-off elements uninitialized; lazynum's are zeros.
            arrays.append(wrap(_apply(SELECT, (mask, result, _scalar(0, result.dtype)), ())))
            continue
        if not isinstance(target, ndarray):
            raise TypeError("return arrays must be of ArrayType")
        tdtype = target.dtype
        if result.dtype != tdtype and not np.can_cast(result.dtype, tdtype, casting):
            if _UFuncOutputCastingError is not None:
                raise _UFuncOutputCastingError(uf, casting, result.dtype, tdtype, uf.nin + i)
            raise TypeError(f"Cannot cast ufunc '{uf.__name__}' output from {result.dtype!r} "
                            f"to {tdtype!r} with casting rule '{casting}'")
        shape = target.shape
        full = result.shape if mask is None else _broadcast_or_none(result.shape, mask.shape)
        if full is None or len(full) > len(shape) or _broadcast_or_none(full, shape) != shape:
            if full is None:
                broadcast_shapes(result.shape, mask.shape)   # raises NumPy's ValueError
            raise ValueError(f"non-broadcastable output operand with shape {_text(shape)} doesn't "
                             f"match the broadcast shape {_text(full)}")
        value = cast(result, tdtype)
        if mask is not None:
            value = _apply(SELECT, (mask, value, target._n()), ())     # broadcasts to shape
        else:
            value = broadcast_node(value, shape)
        target._write(target._layout(), value)
        arrays.append(target)
    return arrays[0] if len(arrays) == 1 else tuple(arrays)


def _numpy_has_loop(uf, types, dtype, casting) -> bool:
    """Whether NumPy runs ``uf`` on ``types`` with ``dtype=`` (which lazynum may lack)."""
    try:
        uf.resolve_dtypes(types + (None,) * uf.nout, casting=casting,
                          signature=(None,) * uf.nin + (np.dtype(dtype),) * uf.nout)
    except (TypeError, ValueError):
        return False
    return True


def _check_shapes(args, out) -> None:
    """Raise NumPy's broadcasting errors for ``args`` and ``out``: NumPy reaches them before
    a refusal of lazynum's own (a float16 operand, loop or ``dtype=``)."""
    shapes = [a.shape if isinstance(a, (ndarray, np.ndarray)) else np.shape(a) for a in args]
    full = broadcast_shapes(*shapes)
    for target in (out if type(out) is tuple else (out,)):
        shape = getattr(target, "shape", None)
        if shape is not None and (len(full) > len(shape) or
                                  _broadcast_or_none(full, shape) != tuple(shape)):
            raise ValueError(f"non-broadcastable output operand with shape {_text(shape)} "
                             f"doesn't match the broadcast shape {_text(full)}")


def _has_numpy_out(out) -> bool:
    """Whether ``out`` (one array or a tuple) holds a NumPy array."""
    if type(out) is tuple:
        return any(isinstance(o, np.ndarray) for o in out)
    return isinstance(out, np.ndarray)


def _text(shape):
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _broadcast_or_none(a, b):
    try:
        return broadcast_shapes(a, b)
    except ValueError:
        return None


class ufunc:
    """A lazy NumPy ufunc: calling it records a node (see ``numpy.ufunc``)."""

    def __init__(self, name: str):
        self._np = getattr(np, name)
        self.__name__ = self._np.__name__
        self.__doc__ = f"Lazy numpy.{self.__name__}; see NumPy's documentation."
        self.nin, self.nout, self.nargs = self._np.nin, self._np.nout, self._np.nargs
        self.identity = self._np.identity
        self.types = self._np.types
        self.ntypes = self._np.ntypes
        self.signature = None
        self._op = UFUNC_OPS[name]
        self._no_cast = _fastpath.LoopCache(self._np)

    def __repr__(self):
        return f"<lazynum ufunc '{self.__name__}'>"

    def __call__(self, *args, out=None, where=True, dtype=None, casting="same_kind",
                 order="K", subok=True, **kwargs):
        if (out is None and where is True and dtype is None and not kwargs and order == "K"
                and args and type(args[0]) in _LAZY_TYPES and len(args) == self.nin and self.nout == 1):
            result = (_fastpath.unary(self._op, self._no_cast, args[0]) if self.nin == 1 else
                      _fastpath.binary(self._op, self._no_cast, args[0], args[1]))
            if result is not None:
                return result
        if extension.TYPES and (extension.any_extension(args) or extension.is_extension(out) or (
                type(out) is tuple and extension.any_extension(out))):      # bounded dims
            return extension.hook("ufunc")(self._np, args, dict(out=out, where=where, dtype=dtype,
                                                      casting=casting, **kwargs)
                                 if out is not None or where is not True else
                                 ({"dtype": dtype} if dtype is not None else {}))
        if out is None and self.nin < len(args) <= self.nargs and _has_numpy_out(args[self.nin:]):
            args, out = args[:self.nin], args[self.nin:]       # outputs given positionally
        if _has_numpy_out(out):
            return self._into_numpy(args, out, where, dtype, casting, order, kwargs)
        if kwargs:
            if "signature" in kwargs or "sig" in kwargs:
                raise NotImplementedError(f"{self.__name__}(signature=...) is not supported; "
                                          "use dtype=")
            raise TypeError(f"{self.__name__}() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        return call(self._np, args, out=out, where=where, dtype=dtype, casting=casting,
                    order=order)

    def _into_numpy(self, args, out, where, dtype, casting, order, kwargs):
        """``out=`` a NumPy array: NumPy writes into it (syncing the lazy operands, a counted
        fallback, as ``numpy.add(h, lazy, out=h)`` and ``h += lazy`` are) and returns it."""
        given = _given(out=(out, None), where=(where, True), dtype=(dtype, None),
                       casting=(casting, "same_kind"), order=(order, "K"))
        return ufunc_fallback(self._np, "__call__", args, {**given, **kwargs}, numpy_result=True)

    def _fallback(self, method, inputs, kwargs):
        """NumPy's ``method`` as a counted fallback: the path NumPy's own ufunc takes on
        lazynum arrays (``protocols.ufunc_fallback``; ``at`` and ``out=`` write back)."""
        return ufunc_fallback(self._np, method, inputs, kwargs)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """Not lazy: NumPy's ``reduceat`` as a counted fallback."""
        kwargs = _given(axis=(axis, 0), dtype=(dtype, None), out=(out, None))
        return self._fallback("reduceat", (array, indices), kwargs)

    def outer(self, A, B, /, **kwargs):
        """``op(a[..., None, ...], b)`` over every pair: shape ``a.shape + b.shape``.

        Like NumPy, both operands are converted to arrays first (Python scalars are strong).
        """
        if self.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        a, b = to_node(A), to_node(B)
        left = reshape(wrap(a), a.shape + (1,) * len(b.shape))
        try:
            return self(left, wrap(b), **kwargs)
        except NotImplementedError:
            return self._fallback("outer", (A, B), kwargs)

    def at(self, a, indices, b=None):
        """``a[indices] op= b`` unbuffered; lazy into a lazynum array for add, subtract,
        multiply, minimum, maximum, fmin, fmax, bitwise_and/or/xor and (bool arrays)
        logical_and/or (``indexing.ufunc_at``: a scatter kernel), else NumPy's ``at`` as a
        counted fallback that writes back into ``a``."""
        if isinstance(a, ndarray):
            try:
                return ufunc_at(self, a, indices, b)
            except NotImplementedError:
                pass
        return self._fallback("at", (a, indices) if b is None else (a, indices, b), {})


_LAZY_TYPES = (ndarray, scalar_result)


def _given(**pairs):
    """The keyword arguments whose value is not the default (``name=(value, default)``)."""
    return {name: value for name, (value, default) in pairs.items()
            if value is not default and not (type(value) is type(default) and value == default)}


UFUNCS = {name: ufunc(name) for name in UNARY_UFUNCS + BINARY_UFUNCS + MULTI_OUTPUT_UFUNCS}
ALIASES = {
    "abs": "absolute", "mod": "remainder", "conj": "conjugate", "bitwise_not": "invert",
    "bitwise_invert": "invert", "true_divide": "divide", "pow": "power", "acos": "arccos",
    "asin": "arcsin", "atan": "arctan", "atan2": "arctan2", "acosh": "arccosh",
    "asinh": "arcsinh", "atanh": "arctanh", "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
}
for _alias, _target in ALIASES.items():
    UFUNCS[_alias] = UFUNCS[_target]
