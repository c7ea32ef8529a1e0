"""The methods and Python operators of ``lazynum.ndarray``.

Each method forwards to the namespace function it mirrors (``a.sum(...)`` is
``lazynum.sum(a, ...)``), so semantics live in one place.  Operators go straight to the
ufunc call path, the hottest path of tracing.
"""
from __future__ import annotations

import numpy as np

from . import (advanced_indexing, creation, indexing, joining, linalg, manipulation, mathfuncs,
               reductions, sorting)
from .arraytype import ndarray, wrap, wrap_ordered
from .expr import node as nodes
from .expr.elementwise import UFUNC_OPS, loop_signature
from .ufuncs import call, result_order

apply_checked = nodes.apply_checked

_OPERAND_TYPES = (ndarray, np.ndarray, np.generic, bool, int, float, list, tuple)


class _LoopCache(dict):
    """(left type, right type) -> output dtype when ``ufunc``'s NumPy loop needs no casts
    (else None), one table per operator.

    Types are dtypes, or ``float``/``int`` for weak Python scalars.  A hit lets an
    operator record its node directly; anything else takes the general ufunc path.
    """

    def __init__(self, ufunc):
        super().__init__()
        self.ufunc = ufunc

    def __missing__(self, key):
        left, right = key
        try:
            signature = loop_signature(self.ufunc, (left, right))
        except TypeError:
            self[key] = None
            return None
        want = (left if isinstance(left, np.dtype) else signature[0],
                right if isinstance(right, np.dtype) else signature[1])
        ok = signature[:2] == want and signature[0] == signature[1]
        self[key] = out = signature[2] if ok else None
        return out


_INT_BOUNDS = {np.dtype(t): (np.iinfo(t).min, np.iinfo(t).max)
               for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)}


def _fast_scalar(no_cast, node, other):
    """(scalar leaf, output dtype) for a weak Python scalar needing no cast, else None."""
    kind = type(other)
    if kind is float:
        out = no_cast[node.dtype, float]
        return None if out is None else (nodes.scalar(other, node.dtype), out)
    if kind is int:
        bounds = _INT_BOUNDS.get(node.dtype)
        if bounds is not None and bounds[0] <= other <= bounds[1]:
            out = no_cast[node.dtype, int]
            return None if out is None else (nodes.scalar(other, node.dtype), out)
    return None


def _binary(name, reflected=False):
    uf = getattr(np, name)
    op = UFUNC_OPS[name]
    no_cast = _LoopCache(uf)

    def method(self, other):
        # The tracing hot path: same-shape (or 0-d) operands whose dtypes are already the
        # loop's record one node with no promotion or broadcast work.
        node = self._node if self._view is None else self._n()
        if type(other) is ndarray:
            other_node = other._node if other._view is None else other._n()
            if other_node.shape == node.shape or not other_node.shape:
                out = no_cast[node.dtype, other_node.dtype]
                if out is not None:
                    args = (other_node, node) if reflected else (node, other_node)
                    result = apply_checked(op, args, node.shape, out)
                    if self._view is None and other._view is None:
                        return wrap(result)
                    return wrap_ordered(result, result_order((self, other), node.shape))
        else:
            fast = _fast_scalar(no_cast, node, other)
            if fast is not None:
                args = (fast[0], node) if reflected else (node, fast[0])
                result = apply_checked(op, args, node.shape, fast[1])
                if self._view is None:
                    return wrap(result)
                return wrap_ordered(result, result_order((self,), node.shape))
        if not isinstance(other, _OPERAND_TYPES):
            return NotImplemented
        return call(uf, (other, self) if reflected else (self, other))
    return method


def _inplace(name):
    uf = getattr(np, name)

    def method(self, other):
        if not isinstance(other, _OPERAND_TYPES):
            return NotImplemented
        return call(uf, (self, other), out=self)
    return method


def _unary(name):
    uf = getattr(np, name)
    return lambda self: call(uf, (self,))


_BINARY_OPERATORS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "power", "and": "bitwise_and",
    "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "left_shift", "rshift": "right_shift",
}
for _op, _name in _BINARY_OPERATORS.items():
    setattr(ndarray, f"__{_op}__", _binary(_name))
    setattr(ndarray, f"__r{_op}__", _binary(_name, reflected=True))
    setattr(ndarray, f"__i{_op}__", _inplace(_name))
for _op, _name in {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal"}.items():
    setattr(ndarray, f"__{_op}__", _binary(_name))


def _equality(name, unequal_value):
    compare = _binary(name)

    def method(self, other):
        result = compare(self, other)
        if result is NotImplemented:
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
ndarray.__getitem__ = indexing.getitem
ndarray.__setitem__ = indexing.setitem

# Properties that are views or derived arrays.
ndarray.T = property(lambda self: manipulation.transpose(self))
ndarray.mT = property(lambda self: manipulation.matrix_transpose(self))
def _set_flat(self, value):
    advanced_indexing.FlatIter(self)[...] = value


ndarray.flat = property(advanced_indexing.FlatIter, _set_flat)
def _set_real(self, value):
    self[...] = value


def _set_imag(self, value):
    raise TypeError("array does not have imaginary part to set")


ndarray.real = property(lambda self: mathfuncs.real(self), _set_real)
ndarray.imag = property(lambda self: mathfuncs.imag(self), _set_imag)

# Methods mirroring namespace functions: name -> function(self, *args, **kwargs).
_METHODS = {
    "astype": creation.astype, "copy": creation.copy, "fill": creation.fill,
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
}
for _name, _function in _METHODS.items():
    setattr(ndarray, _name, _function)
ndarray.sort = sorting.method_sort   # in place, like NumPy's
