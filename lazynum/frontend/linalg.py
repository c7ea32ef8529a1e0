"""Products and contractions: ``matmul``, ``dot``, ``vdot``, ``inner``, ``outer``,
``tensordot``, ``einsum``, ``vecdot``, ``matvec``, ``vecmat`` and ``kron``.

Everything lowers onto two extern primitives: ``matmul`` (batched, BLAS on the CPU) and
``einsum`` (explicit ``->`` subscripts).  Both are strict (equal operand dtypes), so the
front end resolves the result dtype exactly as NumPy does, casts, and then records one
node; transposes and reshapes around them are views (index math, not copies).  Shape
errors are raised at the call with NumPy's exception types; nothing here computes.
"""
from __future__ import annotations

import functools
import math
import operator

import numpy as np

from ..array.extension import extensible
from ..expr import dtypes
from ..array.arraytype import ndarray, wrap, wrap_scalar
from ..array.conversion import cast, to_array, to_node
from ..expr import node as nodes
from ..expr.complex_parts import real_node
from ..expr.elementwise import UFUNC_OPS
from ..expr.extern import EINSUM, MATMUL, parse_einsum
from ..expr.shapes import normalize_axis
from .manipulation import moveaxis, ravel, reshape, transpose

# vecdot/matvec/vecmat are written below but not exported yet: they are NumPy ufuncs without
# a primitive of their own, which tests/expr/test_registry.py refuses for exported names.
__all__ = ["matmul", "dot", "vdot", "inner", "outer", "tensordot", "einsum", "kron", "vecdot", "matvec",
           "vecmat"]
from . import lapack, reductions
from .lapack import (cholesky, cond, det, eigh, eigvalsh, inv, lstsq, matrix_power,  # noqa: F401
                     matrix_rank, pinv, qr, slogdet, solve, svd, svdvals, tensorinv, tensorsolve)
from .contraction_order import chain_order
from .array_api_linalg import cross, diagonal, matrix_transpose, trace  # noqa: F401
from .fallbacks import numpy_function, resolve
from .manipulation import squeeze
from .ufuncs import call
from .fallbacks import numpy_out

_apply = nodes.apply


@functools.lru_cache(maxsize=1024)
def _loop_dtype(ufunc_name: str, a: np.dtype, b: np.dtype, want, casting: str) -> np.dtype:
    """The dtype of the (homogeneous) loop NumPy's gufunc ``ufunc_name`` runs."""
    uf = getattr(np, ufunc_name, None)
    if uf is None:          # NumPy < 2.2 lacks matvec/vecmat: same loops as matmul
        uf = np.matmul
    signature = uf.resolve_dtypes((a, b, None), signature=(None, None, want), casting=casting)
    return dtypes.check(signature[-1], f"{ufunc_name} result")


def _store(result, out, casting, name):
    """Write ``result`` (a node) into the lazynum array ``out`` (NumPy's gufunc ``out=``)."""
    if out is None:                 # 1-d @ 1-d: NumPy returns a scalar
        return wrap(result) if result.shape else wrap_scalar(result)
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(f"{name}: expected 1 output array, got {len(out)}")
        out = out[0]
    if not isinstance(out, ndarray):
        raise TypeError("return arrays must be of lazynum.ndarray type")
    if out.shape != result.shape:
        raise ValueError(f"{name}: output operand has shape {out.shape}, the result has "
                         f"shape {result.shape}")
    if not np.can_cast(result.dtype, out.dtype, casting):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {result.dtype!r} to "
                        f"{out.dtype!r} with casting rule '{casting}'")
    out._write(out._layout(), cast(result, out.dtype))
    return out


def _check_kwargs(name, kwargs):
    if kwargs:
        raise TypeError(f"{name}() got unsupported keyword argument(s) {sorted(kwargs)}")


def _matmul_node(a, b, dt):
    """``matmul`` of nodes ``a``, ``b`` computed in ``dt`` (shape errors before any cast)."""
    MATMUL.shape_rule((a, b), ())
    return _apply(MATMUL, (cast(a, dt), cast(b, dt)), ())


def _gufunc_dtype(name, a, b, dtype, casting):
    want = None if dtype is None else dtypes.normalize(dtype)
    return _loop_dtype(name, a.dtype, b.dtype, want, casting)


@numpy_out
@extensible('matmul')
def matmul(x1, x2, /, out=None, *, casting="same_kind", dtype=None, **kwargs):
    """Matrix product of two arrays (``numpy.matmul``, the ``@`` operator).

    Parameters
    ----------
    x1, x2 : array_like
        Input arrays; scalars (0-d) are not allowed.  A 1-d first operand is treated as a
        row vector and a 1-d second operand as a column vector (the added dim is removed
        from the result); leading (batch) dims broadcast.
    out : lazynum.ndarray, optional
        Array of the result's shape to write into.
    casting : str, optional
        Casting rule for ``dtype`` and ``out`` (default ``'same_kind'``).
    dtype : dtype, optional
        Dtype of the loop to compute in.

    Returns
    -------
    lazynum.ndarray
        The product; its dtype is the dtype NumPy's matmul loop gives (``bool`` for two
        bools, ``int8`` for two int8s, ...).

    Raises
    ------
    ValueError
        If an operand is 0-d, the core dims do not match, or the batch dims do not broadcast.
    """
    _check_kwargs("matmul", kwargs)
    a, b = to_node(x1), to_node(x2)
    dt = _gufunc_dtype("matmul", a, b, dtype, casting)
    return _store(_matmul_node(a, b, dt), out, casting, "matmul")


def _multiply(a, b, out=None):
    return call(np.multiply, (wrap(a), wrap(b)), out=out)


def _store_dot(result, out):
    """``out=`` for dot/vdot-like functions: NumPy requires exactly the result's dtype."""
    if out is None:
        return wrap(result)
    if (not isinstance(out, ndarray) or out.dtype != result.dtype or out.shape != result.shape
            or not out.flags["C_CONTIGUOUS"]):
        raise ValueError("output array is not acceptable (must have the right datatype, "
                         "number of dimensions, and be a C-Array)")
    out._write(out._layout(), result)
    return out


@numpy_out
@extensible('dot')
def dot(a, b, out=None):
    """Dot product of two arrays (``numpy.dot``).

    * 0-d operand: elementwise multiplication.
    * Both 1-d: inner product (a 0-d result).
    * 2-d and 2-d, N-d and 1-d, 1-d and M-d: ``matmul``.
    * N-d and M-d: a sum product over the last axis of ``a`` and the second-to-last of
      ``b``: ``dot(a, b)[i, j, k, m] == sum(a[i, j, :] * b[k, :, m])``.

    Parameters
    ----------
    a, b : array_like
        Input arrays (Python scalars are converted like NumPy arrays, not weakly).
    out : lazynum.ndarray, optional
        C-contiguous array with exactly the result's dtype and shape.

    Returns
    -------
    lazynum.ndarray

    Raises
    ------
    ValueError
        If the summed dims differ ("shapes ... not aligned").
    """
    a, b = to_node(a), to_node(b)
    if not a.shape or not b.shape:
        result = _multiply(a, b)._n()
        return _store_dot(result, out)
    k_b = b.shape[-1] if len(b.shape) == 1 else b.shape[-2]
    if a.shape[-1] != k_b:
        raise ValueError(f"shapes {a.shape} and {b.shape} not aligned: {a.shape[-1]} (dim "
                         f"{len(a.shape) - 1}) != {k_b} (dim {max(len(b.shape) - 2, 0)})")
    dt = dtypes.result_type(a.dtype, b.dtype)
    if len(b.shape) <= 2 or len(a.shape) == 1:
        return _store_dot(_matmul_node(a, b, dt), out)    # matmul's rules agree with dot's
    return _store_dot(_tensordot_nodes(a, b, [len(a.shape) - 1], [len(b.shape) - 2], dt), out)


def vdot(a, b, /):
    """Dot product of the flattened arrays, the first one conjugated (``numpy.vdot``).

    Parameters
    ----------
    a, b : array_like
        Arrays with the same number of elements.

    Returns
    -------
    lazynum.ndarray
        A 0-d array.

    Raises
    ------
    ValueError
        If the sizes differ.
    """
    a, b = to_node(a), to_node(b)
    if a.size != b.size:
        raise ValueError(f"cannot reshape array of size {b.size} into shape ({a.size},)")
    dt = dtypes.result_type(a.dtype, b.dtype)
    if a.dtype.kind == "c":
        a = nodes.apply(UFUNC_OPS["conjugate"], (a,), ())
    return wrap(_matmul_node(ravel(wrap(a))._n(), ravel(wrap(b))._n(), dt))


def inner(a, b, /):
    """Inner product over the last axes (``numpy.inner``); multiplication for 0-d operands.

    Parameters
    ----------
    a, b : array_like
        Input arrays whose last dims match.

    Returns
    -------
    lazynum.ndarray
        Shape ``a.shape[:-1] + b.shape[:-1]``.

    Raises
    ------
    ValueError
        If the last dims differ.
    """
    a, b = to_node(a), to_node(b)
    if not a.shape or not b.shape:
        return _multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"shapes {a.shape} and {b.shape} not aligned: {a.shape[-1]} (dim "
                         f"{len(a.shape) - 1}) != {b.shape[-1]} (dim {len(b.shape) - 1})")
    dt = dtypes.result_type(a.dtype, b.dtype)
    return wrap(_tensordot_nodes(a, b, [len(a.shape) - 1], [len(b.shape) - 1], dt))


@numpy_out
def outer(a, b, out=None):
    """Outer product of the flattened arrays (``numpy.outer``).

    Parameters
    ----------
    a, b : array_like
        Input arrays (flattened).
    out : lazynum.ndarray, optional
        Array of shape ``(a.size, b.size)`` to write into.

    Returns
    -------
    lazynum.ndarray
        ``out[i, j] = a.ravel()[i] * b.ravel()[j]`` with multiply's dtype rules.
    """
    a, b = to_array(a), to_array(b)
    left = reshape(a, (a.size, 1))
    right = reshape(b, (1, b.size))
    return call(np.multiply, (left, right), out=out)


def _tensordot_axes(axes):
    """NumPy's reading of tensordot's ``axes`` (its errors included)."""
    try:
        iter(axes)
    except Exception:
        axes = operator.index(axes)
        axes_a, axes_b = list(range(-axes, 0)), list(range(axes))
    else:
        axes_a, axes_b = axes
    axes_a = list(axes_a) if _sized(axes_a) else [axes_a]
    axes_b = list(axes_b) if _sized(axes_b) else [axes_b]
    if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
        raise ValueError("duplicate axes are not allowed in tensordot")
    return axes_a, axes_b


def _sized(x):
    try:
        len(x)
    except TypeError:
        return False
    return True


def _tensordot_nodes(a, b, axes_a, axes_b, dt):
    """Contract ``a``'s ``axes_a`` with ``b``'s ``axes_b`` (NumPy's tensordot algorithm)."""
    as_, bs = a.shape, b.shape
    nda, ndb = len(as_), len(bs)
    axes_a, axes_b = list(axes_a), list(axes_b)
    equal = len(axes_a) == len(axes_b)
    if equal:
        for k in range(len(axes_a)):
            if as_[axes_a[k]] != bs[axes_b[k]]:     # IndexError for bad axes, like NumPy
                equal = False
                break
            axes_a[k] += nda if axes_a[k] < 0 else 0
            axes_b[k] += ndb if axes_b[k] < 0 else 0
    if not equal:
        raise ValueError("shape-mismatch for sum")
    free_a = [k for k in range(nda) if k not in axes_a]
    free_b = [k for k in range(ndb) if k not in axes_b]
    n2 = math.prod(as_[k] for k in axes_a)
    at = reshape(transpose(wrap(a), free_a + axes_a), (math.prod(as_[k] for k in free_a), n2))
    bt = reshape(transpose(wrap(b), axes_b + free_b), (n2, math.prod(bs[k] for k in free_b)))
    product = wrap(_matmul_node(at._n(), bt._n(), dt))
    return reshape(product, [as_[k] for k in free_a] + [bs[k] for k in free_b])._n()


def tensordot(a, b, axes=2):
    """Sum products over the given axes (``numpy.tensordot``).

    Parameters
    ----------
    a, b : array_like
        Tensors to contract.
    axes : int or (sequence, sequence), optional
        An int ``N`` sums over the last ``N`` axes of ``a`` and the first ``N`` of ``b``;
        a pair lists the axes of ``a`` and of ``b`` to sum over, in matching order.

    Returns
    -------
    lazynum.ndarray
        The free axes of ``a`` followed by the free axes of ``b``.

    Raises
    ------
    ValueError
        Duplicate axes, or summed dims that differ ("shape-mismatch for sum").
    IndexError
        An axis out of range (as NumPy).
    """
    axes_a, axes_b = _tensordot_axes(axes)
    a, b = to_node(a), to_node(b)
    return wrap(_tensordot_nodes(a, b, axes_a, axes_b, dtypes.result_type(a.dtype, b.dtype)))


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _sublist_text(sublist):
    out = []
    for item in sublist:
        if item is Ellipsis:
            out.append("...")
        else:
            index = operator.index(item)
            if not 0 <= index < len(_LETTERS):
                raise ValueError(f"subscript is not within the valid range [0, {len(_LETTERS)})")
            out.append(_LETTERS[index])
    return "".join(out)


def _interleaved(args):
    """``einsum(op0, sub0, op1, sub1, ..., [subout])`` as (subscripts, operands)."""
    operands, terms = list(args[0::2]), [_sublist_text(s) for s in args[1::2]]
    out = None
    if len(args) % 2:
        out = _sublist_text(operands.pop())
    text = ",".join(terms)
    return (text if out is None else f"{text}->{out}"), operands


@numpy_out
def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """Einstein summation (``numpy.einsum``).

    Parameters
    ----------
    subscripts : str
        Comma-separated subscript labels, optionally ``->`` and the output labels; ``...``
        broadcasts.  Without ``->`` (implicit mode) the output is ``...`` followed by the
        labels used exactly once, in alphabetical order.  The interleaved form
        ``einsum(op0, sublist0, op1, sublist1, ..., [sublistout])`` is accepted too.
    *operands : array_like
        The arrays.
    out : lazynum.ndarray, optional
        Array to write the result into (``casting`` applies).
    dtype : dtype, optional
        Compute in this dtype (operands cast under ``casting``, default ``'safe'``).
    optimize : bool or str, optional
        Accepted for compatibility; contraction order is the backend's choice.

    Returns
    -------
    lazynum.ndarray
        The result, with NumPy's result dtype of the operands.

    Raises
    ------
    ValueError
        Bad subscripts, operand/subscript count or rank mismatch, label sizes that differ.
    TypeError
        An operand that cannot be cast to ``dtype`` under ``casting``.
    """
    if not operands:
        raise TypeError("einsum() missing required argument 'subscripts' (pos 0)")
    if isinstance(operands[0], str):
        subscripts, operands = operands[0], list(operands[1:])
    else:
        subscripts, operands = _interleaved(operands)
    args = [to_node(op) for op in operands]
    shapes = [a.shape for a in args]
    explicit, _ = parse_einsum(subscripts, shapes)
    if dtype is None:
        dt = dtypes.result_type(*[a.dtype for a in args]) if args else dtypes.FLOAT64
    else:
        dt = dtypes.normalize(dtype)
        for n, a in enumerate(args):
            if not np.can_cast(a.dtype, dt, casting):
                raise TypeError(f"Iterator operand {n} dtype could not be cast from "
                                f"{a.dtype!r} to {dt!r} according to the rule '{casting}'")
    result = _apply(EINSUM, tuple(cast(a, dt) for a in args), (explicit,))
    return _store(result, out, casting, "einsum")


@numpy_out
def vecdot(x1, x2, /, out=None, *, axis=-1, casting="same_kind", dtype=None, **kwargs):
    """Vector dot product over ``axis`` with broadcasting (``numpy.vecdot``).

    Parameters
    ----------
    x1, x2 : array_like
        Arrays (at least 1-d) whose ``axis`` dims match; the other dims broadcast.
    axis : int, optional
        The summed axis of each operand (default -1).

    Returns
    -------
    lazynum.ndarray
        ``sum(x1 * x2, axis)`` over the broadcast of the remaining dims.

    Raises
    ------
    ValueError
        0-d operands, a mismatched core dim, or batch dims that do not broadcast.
    """
    _check_kwargs("vecdot", kwargs)
    a, b = to_node(x1), to_node(x2)
    _need_dims("vecdot", (a, b), (1, 1), "(n),(n)->()")
    a = moveaxis(wrap(a), normalize_axis(axis, len(a.shape)), -1)._n()
    b = moveaxis(wrap(b), normalize_axis(axis, len(b.shape)), -1)._n()
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"vecdot: Input operand 1 has a mismatch in its core dimension 0, with "
                         f"gufunc signature (n),(n)->() (size {b.shape[-1]} is different from "
                         f"{a.shape[-1]})")
    dt = _gufunc_dtype("vecdot", a, b, dtype, casting)
    row = reshape(wrap(a), a.shape[:-1] + (1, a.shape[-1]))._n()
    col = reshape(wrap(b), b.shape + (1,))._n()
    product = wrap(_matmul_node(row, col, dt))
    return _store(product[..., 0, 0]._n(), out, casting, "vecdot")


def _need_dims(name, args, needs, signature):
    for n, (a, need) in enumerate(zip(args, needs)):
        if len(a.shape) < need:
            raise ValueError(f"{name}: Input operand {n} does not have enough dimensions (has "
                             f"{len(a.shape)}, gufunc core with signature {signature} requires "
                             f"{need})")


def _gufunc_operands(name, x1, x2, needs, signature, core):
    """Nodes for a matrix/vector gufunc, with NumPy's dimension and core-size errors;
    ``core`` = (axis of x1, axis of x2) whose sizes must agree."""
    a, b = to_node(x1), to_node(x2)
    _need_dims(name, (a, b), needs, signature)
    if a.shape[core[0]] != b.shape[core[1]]:
        raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension 0, with "
                         f"gufunc signature {signature} (size {b.shape[core[1]]} is different "
                         f"from {a.shape[core[0]]})")
    return a, b


@numpy_out
def matvec(x1, x2, /, out=None, *, casting="same_kind", dtype=None, **kwargs):
    """Matrix-vector product with broadcast batch dims (``numpy.matvec``).

    Parameters
    ----------
    x1 : array_like
        Matrices, shape ``(..., m, n)``.
    x2 : array_like
        Vectors, shape ``(..., n)``.

    Returns
    -------
    lazynum.ndarray
        Shape ``(..., m)``.
    """
    _check_kwargs("matvec", kwargs)
    a, b = _gufunc_operands("matvec", x1, x2, (2, 1), "(m,n),(n)->(m)", (-1, -1))
    dt = _gufunc_dtype("matvec", a, b, dtype, casting)
    col = reshape(wrap(b), b.shape + (1,))._n()
    return _store(wrap(_matmul_node(a, col, dt))[..., 0]._n(), out, casting, "matvec")


@numpy_out
def vecmat(x1, x2, /, out=None, *, casting="same_kind", dtype=None, **kwargs):
    """Vector-matrix product with broadcast batch dims (``numpy.vecmat``).

    Parameters
    ----------
    x1 : array_like
        Vectors, shape ``(..., n)``.
    x2 : array_like
        Matrices, shape ``(..., n, m)``.

    Returns
    -------
    lazynum.ndarray
        Shape ``(..., m)``.
    """
    _check_kwargs("vecmat", kwargs)
    a, b = _gufunc_operands("vecmat", x1, x2, (1, 2), "(n),(n,m)->(m)", (-1, -2))
    dt = _gufunc_dtype("vecmat", a, b, dtype, casting)
    row = reshape(wrap(a), a.shape[:-1] + (1, a.shape[-1]))._n()
    return _store(wrap(_matmul_node(row, b, dt))[..., 0, :]._n(), out, casting, "vecmat")


def kron(a, b):
    """Kronecker product (``numpy.kron``): blocks of ``b`` scaled by the elements of ``a``.

    Parameters
    ----------
    a, b : array_like
        Input arrays; the shorter shape is padded with leading 1s.

    Returns
    -------
    lazynum.ndarray
        Shape ``a.shape * b.shape`` elementwise, multiply's dtype rules.
    """
    a, b = to_array(a), to_array(b)
    if a.ndim == 0 or b.ndim == 0:
        if a.ndim == 0 and b.ndim:        # NumPy makes a at least b.ndim-d first
            a = reshape(a, (1,) * b.ndim)
        else:
            return _multiply(a._n(), b._n())
    nd = max(a.ndim, b.ndim)
    as_ = (1,) * (nd - a.ndim) + a.shape
    bs = (1,) * (nd - b.ndim) + b.shape
    left = reshape(a, tuple(d for x in as_ for d in (x, 1)))
    right = reshape(b, tuple(d for x in bs for d in (1, x)))
    product = _multiply(left._n(), right._n())
    return reshape(product, tuple(x * y for x, y in zip(as_, bs)))


# -- numpy.linalg --------------------------------------------------------------------------------
def norm(x, ord=None, axis=None, keepdims=False):
    """Vector or matrix norm (``numpy.linalg.norm``), lazily for the norms that are reductions.

    Vector ords: None/2, 1, inf, -inf, 0 and any p; matrix ords: None/'fro', 1, -1, inf,
    -inf, and 2, -2, 'nuc' from the singular values (an SVD inside the program).
    """
    a = wrap(to_node(x))
    if a.dtype.kind not in "fc":
        a = a.astype(np.float64)
    if axis is None:
        axes = tuple(range(a.ndim)) if ord is None or a.ndim == 1 else (0, 1)
    else:
        axes = (axis,) if np.ndim(axis) == 0 else tuple(axis)
    if ord is None or (ord == "fro" and len(axes) == 2) or (ord == 2 and len(axes) == 1):
        # NumPy's (x.conj() * x).real for complex x
        squares = (call(np.multiply, (a, a)) if a.dtype.kind != "c" else
                   wrap(real_node(call(np.multiply, (call(np.conjugate, (a,)), a))._n())))
        return call(np.sqrt, (reductions.sum(squares, axis=axes, keepdims=keepdims),))
    if len(axes) == 1:
        return _vector_norm(a, ord, axes[0], keepdims)
    if len(axes) == 2 and ord in (2, -2, "nuc"):
        return lapack.svd_norm(a, ord, tuple(normalize_axis(ax, a.ndim) for ax in axes), keepdims)
    if len(axes) == 2 and ord in (1, -1, np.inf, -np.inf):
        summed, picked = axes if ord in (1, -1) else (axes[1], axes[0])
        pick = reductions.max if ord > 0 else reductions.min
        inner = reductions.sum(call(np.absolute, (a,)), axis=summed, keepdims=True)
        result = pick(inner, axis=picked, keepdims=True)
        return result if keepdims else squeeze(result, axis=tuple(sorted(axes)))
    return numpy_function(np.linalg.norm, "numpy.linalg.norm")(x, ord, axis, keepdims)


def _vector_norm(a, ord, axis, keepdims):
    magnitude = call(np.absolute, (a,))
    if ord == np.inf:
        return reductions.max(magnitude, axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return reductions.min(magnitude, axis=axis, keepdims=keepdims)
    if ord == 0:
        return reductions.sum(call(np.not_equal, (a, 0)).astype(a.dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return reductions.sum(magnitude, axis=axis, keepdims=keepdims)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    powered = call(np.power, (magnitude, float(ord)))
    return call(np.power, (reductions.sum(powered, axis=axis, keepdims=keepdims), 1.0 / ord))


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The vector norm over ``axis`` (all of ``x`` when None), as ``numpy.linalg.vector_norm``."""
    x = wrap(to_node(x))
    shape = list(x.shape)
    if axis is None:
        flat, inner, reduced = ravel(x), 0, list(range(x.ndim))
    elif isinstance(axis, tuple):
        reduced = [normalize_axis(a, x.ndim) for a in axis]
        rest = tuple(i for i in range(x.ndim) if i not in reduced)
        flat = reshape(transpose(x, tuple(reduced) + rest),
                       (math.prod(shape[i] for i in reduced),) + tuple(shape[i] for i in rest))
        inner = 0
    else:
        flat, inner, reduced = x, axis, [normalize_axis(axis, x.ndim)]
    result = norm(flat, axis=inner, ord=ord)
    if not keepdims:
        return result
    for i in reduced:
        shape[i] = 1
    return reshape(result, tuple(shape))


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The norm of each matrix in the last two axes (``numpy.linalg.matrix_norm``)."""
    x = wrap(to_node(x))
    if x.ndim < 2:
        raise np.linalg.LinAlgError(f"{x.ndim}-dimensional array given. Array must be at least "
                                    "two-dimensional")
    return norm(x, axis=(-2, -1), keepdims=keepdims, ord=ord)


def multi_dot(arrays, *, out=None):
    """The product of a chain of matrices in the cheapest order (``numpy.linalg.multi_dot``).

    The order comes from the static shapes (``contraction_order.chain_order``); the first
    array may be 1-d (a row vector) and the last 1-d (a column vector), as in NumPy.
    """
    arrays = [to_array(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    if len(arrays) == 2:
        return dot(arrays[0], arrays[1], out=out)
    first, last = arrays[0].ndim, arrays[-1].ndim
    if first == 1:
        arrays[0] = reshape(arrays[0], (1, -1))
    if last == 1:
        arrays[-1] = reshape(arrays[-1], (-1, 1))
    for a in arrays:
        if a.ndim != 2:
            raise np.linalg.LinAlgError(f"{a.ndim}-dimensional array given. Array must be "
                                        "two-dimensional")
    order = chain_order([int(a.shape[0]) for a in arrays] + [int(arrays[-1].shape[1])])

    def product(tree, out=None):
        if isinstance(tree, int):
            return arrays[tree]
        return dot(product(tree[0]), product(tree[1]), out=out)
    result = product(order, out=out if first != 1 and last != 1 else None)
    if first == 1 and last == 1:
        return result[0, 0]
    return ravel(result) if first == 1 or last == 1 else result


def __getattr__(name):
    """Other ``numpy.linalg`` functions (eig, lstsq, ...) run as counted fallbacks."""
    if name.startswith("__"):
        raise AttributeError(name)
    return resolve(np.linalg, name, "numpy.linalg")
