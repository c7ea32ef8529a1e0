"""The methods and Python operators of ``lazynum.ndarray``.

Each method forwards to the namespace function it mirrors (``a.sum(...)`` is
``lazynum.sum(a, ...)``), so semantics live in one place.  Operators go straight to the
ufunc call path, the hottest path of tracing.
"""
from __future__ import annotations

import numpy as np

from .indexing import advanced as advanced_indexing, subscript
from . import (creation, joining, linalg, manipulation, mathfuncs, memory, reductions, selecting,
               sorting, statistics)
from ..array import extension, fastpath
from ..array.arraytype import Storage, ndarray, scalar_result
from ..expr.elementwise import UFUNC_OPS
from ..runtime.immediate import is_on as immediate_on
from ..runtime.in_place import update_in_place
from .ufuncs import UFUNCS, call, power_shortcut

_OPERAND_TYPES = (ndarray, np.ndarray, np.generic, bool, int, float, complex, list, tuple)


def _new(cls, shape, dtype=float, buffer=None):
    """``lazynum.ndarray(shape, dtype)``: a new array of zeros (NumPy's are uninitialized)."""
    if buffer is not None:
        raise TypeError("lazynum.ndarray(buffer=...) is not supported; use lazynum.asarray")
    return creation.zeros(shape, dtype)


def _reduce(self):
    """Pickling: the array's value, rebuilt by ``lazynum.asarray``."""
    return (creation.asarray, (np.array(self._value("pickle")),))


ndarray.__new__ = _new
ndarray.__reduce__ = _reduce


def _binary(name, reflected=False):
    uf = getattr(np, name)
    op = UFUNC_OPS[name]
    no_cast = fastpath.LoopCache(uf)
    fast = fastpath.binary

    def method(self, other):
        result = fast(op, no_cast, self, other, reflected)
        if result is not None:
            return result
        if not isinstance(other, _OPERAND_TYPES):
            return NotImplemented
        return call(uf, (other, self) if reflected else (self, other))
    return method


def _inplace(name):
    uf = getattr(np, name)
    op = UFUNC_OPS[name]
    lazy_ufunc = UFUNCS[name]

    def method(self, other):
        if self._view is not None and immediate_on() and _update_now(op, uf, self, other):
            return self
        if not isinstance(other, _OPERAND_TYPES):
            if _takes_ufuncs(other):
                return lazy_ufunc(self, other, out=self)    # a bounded operand writes into self
            return NotImplemented
        return call(uf, (self, other), out=self)
    return method


def _update_now(op, uf, self, other) -> bool:
    """``self op= other`` by NumPy into a computed window's memory (the immediate tier's
    ``update_in_place``) when ``other`` is a Python number or a computed lazynum array."""
    storage = self._view.storage
    if type(storage) is not Storage or self._view.readonly:
        return False
    kind = type(other)
    if kind is ndarray or kind is scalar_result:
        other = other._n().buffer
        if other is None:
            return False
    elif kind not in (int, float, bool):
        return False
    self._n()
    return update_in_place(op, uf, self, storage, other)


def _takes_ufuncs(other) -> bool:
    """Whether ``other`` is a bounded array: lazynum's ufuncs take it (in-place operators
    write into this array, comparisons defer to it), unlike a foreign object."""
    return extension.is_extension(other)


def _unary(name):
    lazy_ufunc = UFUNCS[name]       # its call takes the tracing fast path
    return lambda self: lazy_ufunc(self)


_BINARY_OPERATORS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "power", "and": "bitwise_and",
    "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "left_shift", "rshift": "right_shift",
}
for _op, _name in _BINARY_OPERATORS.items():
    setattr(ndarray, f"__{_op}__", _binary(_name))
    setattr(ndarray, f"__r{_op}__", _binary(_name, reflected=True))
    setattr(ndarray, f"__i{_op}__", _inplace(_name))


def _power(general, inplace=False):
    """``**`` and ``**=``: NumPy's operator on an exact Python 2, -1 or 0.5 calls a unary
    ufunc (``ufuncs.power_shortcut``); anything else is ``general``."""
    def method(self, other):
        unary = power_shortcut(self, other)
        if unary is None:
            return general(self, other)
        if inplace:
            return call(unary, (self,), out=self)
        return UFUNCS[unary.__name__](self)
    return method


ndarray.__pow__ = _power(ndarray.__pow__)
ndarray.__ipow__ = _power(ndarray.__ipow__, inplace=True)
for _op, _name in {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal"}.items():
    setattr(ndarray, f"__{_op}__", _binary(_name))


def _equality(name, unequal_value):
    compare = _binary(name)

    def method(self, other):
        result = compare(self, other)
        if result is NotImplemented and not _takes_ufuncs(other):
            # NumPy 2 compares with any object elementwise: nothing equals a foreign object.
            return creation.full(self.shape, unequal_value, dtype=bool)
        return result
    return method


ndarray.__eq__ = _equality("equal", False)
ndarray.__ne__ = _equality("not_equal", True)
for _op, _name in {"neg": "negative", "pos": "positive", "abs": "absolute", "invert": "invert"}.items():
    setattr(ndarray, f"__{_op}__", _unary(_name))

def _contains(self, value):
    """``value in a``: any element equals value (NumPy's rule, a sync for the answer)."""
    return bool(reductions.any(call(np.equal, (self, value))))


ndarray.__contains__ = _contains
ndarray.__divmod__ = lambda self, other: call(np.divmod, (self, other))
ndarray.__rdivmod__ = lambda self, other: call(np.divmod, (other, self))
ndarray.__matmul__ = lambda self, other: linalg.matmul(self, other)
ndarray.__rmatmul__ = lambda self, other: linalg.matmul(other, self)


def _imatmul(self, other):
    result = linalg.matmul(self, other)
    if result.shape != self.shape:
        raise ValueError("inplace matrix multiplication requires the first operand to have "
                         "the same shape as the result")
    self[...] = result
    return self


ndarray.__imatmul__ = _imatmul
ndarray.__getitem__ = subscript.getitem
ndarray.__setitem__ = subscript.setitem

# Properties that are views or derived arrays.
ndarray.T = property(lambda self: manipulation.transpose(self))
ndarray.mT = property(lambda self: manipulation.matrix_transpose(self))
def _set_flat(self, value):
    advanced_indexing.FlatIter(self)[...] = value


ndarray.flat = property(advanced_indexing.FlatIter, _set_flat)
def _set_real(self, value):
    """``z.real = v``: writes ``v`` into the real part (all of a real array)."""
    mathfuncs.real(self)[...] = value


def _set_imag(self, value):
    """``z.imag = v``: writes ``v`` into the imaginary part (NumPy's TypeError for a real
    array, which has none to set)."""
    if self.dtype.kind != "c":
        raise TypeError("array does not have imaginary part to set")
    mathfuncs.imag(self)[...] = value


ndarray.real = property(lambda self: mathfuncs.real(self), _set_real)
ndarray.imag = property(lambda self: mathfuncs.imag(self), _set_imag)

# Methods mirroring namespace functions: name -> function(self, *args, **kwargs).
_METHODS = {
    "astype": creation.astype, "copy": creation.method_copy, "fill": creation.fill,
    "reshape": manipulation.method_reshape, "transpose": manipulation.method_transpose,
    "swapaxes": manipulation.swapaxes, "ravel": manipulation.ravel, "flatten": manipulation.flatten,
    "squeeze": manipulation.squeeze, "repeat": joining.repeat,
    "diagonal": manipulation.diagonal,
    "sum": reductions.sum, "prod": reductions.prod, "mean": reductions.mean, "var": reductions.var,
    "std": reductions.std, "min": reductions.min, "max": reductions.max, "argmin": reductions.argmin,
    "argmax": reductions.argmax, "any": reductions.any, "all": reductions.all,
    "cumsum": reductions.cumsum, "cumprod": reductions.cumprod,
    "trace": reductions.trace,
    "clip": mathfuncs.clip, "round": mathfuncs.round, "conj": mathfuncs.conj,
    "conjugate": mathfuncs.conj,
    "dot": linalg.dot, "take": advanced_indexing.take, "nonzero": advanced_indexing.nonzero,
    "put": advanced_indexing.put,
    "argsort": sorting.argsort, "searchsorted": sorting.searchsorted,
    "argpartition": statistics.argpartition,
}
for _name, _function in _METHODS.items():
    setattr(ndarray, _name, _function)
ndarray.sort = sorting.method_sort   # in place, like NumPy's
ndarray.partition = statistics.partition_in_place
ndarray.compress = lambda self, condition, axis=None, out=None: advanced_indexing.compress(
    condition, self, axis=axis, out=out)
ndarray.choose = lambda self, choices, out=None, mode="raise": selecting.choose(self, choices, out, mode)
ndarray.strides = property(memory.strides)
for _name in ("view", "tobytes", "tofile", "dumps", "dump", "setflags"):
    setattr(ndarray, _name, getattr(memory, _name))
# NumPy returns a scalar where lazynum returns a 0-d value: scalars hash (by value: a sync)
scalar_result.__hash__ = lambda self: hash(self.item())
