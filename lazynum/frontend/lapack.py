"""``numpy.linalg`` through LAPACK, lazily: ``solve``, ``inv``, ``det``, ``slogdet``,
``cholesky``, ``eigh``, ``eigvalsh``, ``svd``, ``svdvals``, ``qr``, ``pinv``,
``matrix_power``, ``matrix_rank``, ``cond`` and the SVD norms.

Each call records an extern node (``expr.linalg``) on NumPy's computation dtype (integers
and bool become float64, float32 stays float32), so the program calls LAPACK through
NumPy at run time: no sync, fused with what is around it, differentiable where
``expr.linalg`` has a VJP.  Shape errors are NumPy's, raised at the call; errors only the
data reveals (``LinAlgError: Singular matrix``) are raised at the sync, naming the call's
line.  Results with several parts are NumPy's named tuples of views of one packed node.
``lstsq``'s residuals are empty unless the rank is full and ``M > N``: when ``M > N`` they
are a bounded array (``K`` values or none, decided at run time).  ``tensorsolve`` and
``tensorinv`` are NumPy's reshapes around ``solve`` and ``inv``.  What has no lazy form here
(``eig``/``eigvals``: their dtype depends on the data; ``svd(hermitian=True)``,
``qr(mode='raw')``) runs as a counted NumPy fallback.
"""
from __future__ import annotations

import numpy as np
from numpy.linalg import _linalg as _np_linalg

from ..array.arraytype import ndarray, wrap
from ..array.conversion import cast, to_node
from ..expr import node as nodes
from ..expr.complex_parts import real_node
from ..expr.extern import MATMUL
from ..expr.linalg import (CHOLESKY, DET, EIGH, EIGVALSH, INV, LSTSQ, PINV, QR, SLOGDET, SOLVE,
                           SVD, lstsq_parts, packed_layout, part_view_attrs, qr_parts, svd_parts)
from ..expr.movement import VIEW
from ..expr.shapes import c_strides
from . import reductions
from .fallbacks import numpy_function
from .manipulation import moveaxis, reshape, transpose
from .mathfuncs import where
from .ufuncs import call

_apply = nodes.apply
_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
_C64, _C128 = np.dtype(np.complex64), np.dtype(np.complex128)


def _computation_dtype(*nodes_) -> np.dtype:
    """NumPy's linalg computation dtype (``_commonType``): single precision when every
    operand is float32 or complex64, else double; complex when any operand is; float16
    is NumPy's TypeError."""
    single, complex_ = True, False
    for n in nodes_:
        dt = n.dtype
        if dt == _F16:
            raise TypeError("array type float16 is unsupported in linalg")
        single = single and dt in (_F32, _C64)
        complex_ = complex_ or dt.kind == "c"
    if complex_:
        return _C64 if single else _C128
    return _F32 if single else _F64


def _operands(*arrays):
    found = [to_node(a) for a in arrays]
    dt = _computation_dtype(*found)
    return [cast(n, dt) for n in found]


def _parts(packed, batch, parts):
    """Views of a packed node's results (``expr.linalg.packed_layout``)."""
    shape, offsets = packed_layout(batch, parts)
    return [wrap(_apply(VIEW, (packed,), part_view_attrs(shape, offset, part)))
            for offset, part in offsets]


def _real(part):
    """A real-valued result packed in a complex node (eigenvalues, singular values, log|det|)
    as NumPy's float array; real packed results are themselves."""
    node = part._n()
    return wrap(real_node(node)) if node.dtype.kind == "c" else part


def solve(a, b):
    """Solve ``a @ x = b`` (``numpy.linalg.solve``); ``b`` is a vector when it is 1-d."""
    return wrap(_apply(SOLVE, tuple(_operands(a, b))))


def inv(a):
    """The inverse of a (stack of) square matrices (``numpy.linalg.inv``)."""
    return wrap(_apply(INV, tuple(_operands(a))))


def det(a):
    """The determinant (``numpy.linalg.det``)."""
    return wrap(_apply(DET, tuple(_operands(a))))


def slogdet(a):
    """Sign and log of the absolute determinant (``numpy.linalg.slogdet``)."""
    (node,) = _operands(a)
    packed = _apply(SLOGDET, (node,))
    sign, logabsdet = _parts(packed, tuple(packed.shape[:-1]), [(), ()])
    return _np_linalg.SlogdetResult(sign, _real(logabsdet))


def cholesky(a, /, *, upper=False):
    """The Cholesky factor, lower (or upper with ``upper=True``) (``numpy.linalg.cholesky``)."""
    return wrap(_apply(CHOLESKY, tuple(_operands(a)), (bool(upper),)))


def _uplo(UPLO) -> str:
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO


def eigh(a, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors of a symmetric matrix (``numpy.linalg.eigh``)."""
    (node,) = _operands(a)
    packed = _apply(EIGH, (node,), (_uplo(UPLO),))
    shape = tuple(packed.shape)
    n, batch, batch_strides = shape[-1], shape[:-2], tuple(c_strides(shape)[:-2])
    w = _real(wrap(_apply(VIEW, (packed,), (batch + (n,), batch_strides + (1,), 0))))
    v = wrap(_apply(VIEW, (packed,), (batch + (n, n), batch_strides + (n, 1), n)))
    return _np_linalg.EighResult(w, v)


def eigvalsh(a, UPLO="L"):
    """Eigenvalues (ascending) of a symmetric matrix (``numpy.linalg.eigvalsh``)."""
    return wrap(_apply(EIGVALSH, tuple(_operands(a)), (_uplo(UPLO),)))


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """Singular value decomposition (``numpy.linalg.svd``)."""
    if hermitian:
        return _numpy_svd(a, full_matrices, compute_uv, hermitian)
    (node,) = _operands(a)
    packed = _apply(SVD, (node,), (bool(full_matrices), bool(compute_uv)))
    if not compute_uv:
        return wrap(packed)
    shape = tuple(node.shape)
    u, s, vh = _parts(packed, shape[:-2], svd_parts(shape, bool(full_matrices)))
    return _np_linalg.SVDResult(u, _real(s), vh)


def svdvals(x, /):
    """The singular values, descending (``numpy.linalg.svdvals``)."""
    return svd(x, compute_uv=False)


def qr(a, mode="reduced"):
    """QR decomposition (``numpy.linalg.qr``; mode 'reduced', 'complete' or 'r')."""
    if mode not in ("reduced", "complete", "r"):
        return _numpy_qr(a, mode)
    (node,) = _operands(a)
    packed = _apply(QR, (node,), (mode,))
    if mode == "r":
        return wrap(packed)
    shape = tuple(node.shape)
    q, r = _parts(packed, shape[:-2], qr_parts(shape, mode))
    return _np_linalg.QRResult(q, r)


def pinv(a, rcond=None, hermitian=False, **kwargs):
    """The Moore-Penrose pseudo-inverse (``numpy.linalg.pinv``)."""
    if kwargs or np.ndim(rcond) != 0:
        return _numpy_pinv(a, rcond, hermitian, **kwargs)
    return wrap(_apply(PINV, tuple(_operands(a)), (None if rcond is None else float(rcond),
                                                   bool(hermitian))))


def matrix_power(a, n):
    """``a`` to the integer power ``n`` by repeated squaring (``numpy.linalg.matrix_power``)."""
    node = to_node(a)
    if len(node.shape) < 2 or node.shape[-1] != node.shape[-2]:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square"
                                    if len(node.shape) >= 2 else
                                    f"{len(node.shape)}-dimensional array given. Array must "
                                    "be at least two-dimensional")
    try:
        n = int(np.asarray(n).__index__())
    except TypeError as exc:
        raise TypeError("exponent must be an integer") from exc
    if n == 0:
        eye = np.broadcast_to(np.eye(node.shape[-1], dtype=node.dtype), tuple(node.shape))
        return wrap(to_node(np.ascontiguousarray(eye)))
    if n < 0:
        node, n = _apply(INV, tuple(_operands(wrap(node)))), -n
    result, square = None, node
    while True:             # NumPy's order of products: the same roundings
        if n & 1:
            result = square if result is None else _apply(MATMUL, (result, square))
        n >>= 1
        if not n:
            return wrap(result)
        square = _apply(MATMUL, (square, square))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """The number of singular values above the tolerance (``numpy.linalg.matrix_rank``)."""
    node = to_node(A)
    if len(node.shape) < 2:
        return _numpy_matrix_rank(A, tol, hermitian, rtol=rtol)
    s = (call(np.absolute, (eigvalsh(wrap(node)),)) if hermitian else svd(wrap(node), compute_uv=False))
    if tol is None:
        if rtol is None:
            rtol = max(node.shape[-2:]) * np.finfo(s.dtype).eps
        else:
            rtol = wrap(to_node(rtol))[..., None]
        tol = call(np.multiply, (reductions.max(s, axis=-1, keepdims=True), rtol))
    else:
        tol = wrap(to_node(tol))[..., None]
    return reductions.count_nonzero(call(np.greater, (s, tol)), axis=-1)


def cond(x, p=None):
    """The condition number; p None, 2 or -2 lazily (``numpy.linalg.cond``)."""
    if p not in (None, 2, -2):
        return _numpy_cond(x, p)
    node = to_node(x)
    s = svd(wrap(node), compute_uv=False)
    first, last = s[..., 0], s[..., -1]
    r = call(np.divide, (last, first) if p == -2 else (first, last))
    # NumPy: a NaN from a singular matrix (0 / 0) is inf unless the input itself has NaNs
    singular = call(np.logical_and, (call(np.isnan, (r,)), call(np.logical_not, (
        reductions.any(call(np.isnan, (wrap(node),)), axis=(-2, -1)),))))
    return where(singular, np.inf, r)


def svd_norm(x, ord, axes, keepdims):
    """The matrix norms ``ord`` 2, -2 and 'nuc' over ``axes`` (from the singular values)."""
    row, col = axes
    a = wrap(to_node(x))
    moved = moveaxis(a, (row, col), (-2, -1))
    s = svd(moved, compute_uv=False)
    reduce = {2: reductions.max, -2: reductions.min, "nuc": reductions.sum}[ord]
    result = reduce(s, axis=-1)
    if keepdims:
        shape = list(a.shape)
        shape[row] = shape[col] = 1
        result = result.reshape(tuple(shape))
    return result


def lstsq(a, b, rcond=None):
    """Least-squares solution of ``a @ x = b`` (``numpy.linalg.lstsq``).

    Parameters
    ----------
    a : (M, N) array_like
        Coefficient matrix.
    b : (M,) or (M, K) array_like
        Ordinate values.
    rcond : float, optional
        Singular values at most ``rcond`` times the largest count as zero; the default is
        NumPy 2's, machine epsilon times ``max(M, N)``.

    Returns
    -------
    x : (N,) or (N, K) lazynum.ndarray
        The solution.
    residuals : (1,), (K,) or (0,) array
        Squared residual norms, empty unless the rank is ``N`` and ``M > N`` (NumPy's rule):
        when ``M > N`` a bounded array whose size (``K`` or 0) is known at run time.
    rank : 0-d int32 lazynum.ndarray
        The effective rank of ``a``.
    s : (min(M, N),) lazynum.ndarray
        The singular values of ``a``.

    Raises
    ------
    LinAlgError
        ``a`` or ``b`` not 2-d (``b`` 1-d is allowed), or their first dims differ; at the
        sync, when the SVD does not converge.
    """
    x, resids, _, rank, s = lstsq_padded(a, b, rcond)
    return x, resids, rank, s


def lstsq_padded(a, b, rcond=None):
    """``lstsq``'s results with the residuals twice: NumPy's (maybe empty, bounded) and as
    ``K`` values that are zeros where NumPy's are empty (what ``polyfit(cov=True)`` scales)."""
    a, b = _operands(a, b)
    for node in (a, b):
        if len(node.shape) != 2 and not (node is b and len(node.shape) == 1):
            raise np.linalg.LinAlgError(f"{len(node.shape)}-dimensional array given. Array "
                                        "must be two-dimensional")
    vector = len(b.shape) == 1
    if vector:
        b = _apply(VIEW, (b,), ((b.shape[0], 1), (1, 0), 0))
    (m, n), k = tuple(a.shape), b.shape[1]
    if rcond is None:
        rcond = np.finfo(a.dtype).eps * max(n, m)
    packed = _apply(LSTSQ, (a, b), (float(rcond),))
    x, resids, rank, s = _parts(packed, (), lstsq_parts(m, n, k))
    rank = _real(rank).astype(np.int32)
    padded = _real(resids)
    if m <= n:
        resids = padded[:0]
    else:           # NumPy's residuals exist only at full rank: k values or none
        resids = padded[:where(call(np.equal, (rank, n)), k, 0)]
    return x[:, 0] if vector else x, resids, padded, rank, _real(s)


def tensorsolve(a, b, axes=None):
    """Solve the tensor equation ``tensordot(a, x, x.ndim) = b`` for ``x``
    (``numpy.linalg.tensorsolve``): ``solve`` of ``a`` reshaped to a square matrix."""
    a, b = (x if isinstance(x, ndarray) else wrap(to_node(x)) for x in (a, b))
    an = a.ndim
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(k)
            order.insert(an, k)
        a = transpose(a, order)
    old_shape = a.shape[-(an - b.ndim):]
    prod = int(np.prod(old_shape, dtype=np.int64))
    if a.size != prod ** 2:
        raise np.linalg.LinAlgError("Input arrays must satisfy the requirement "
                                    "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    return reshape(solve(reshape(a, (prod, prod)), reshape(b, (-1,))), old_shape)


def tensorinv(a, ind=2):
    """The inverse of ``a`` for ``tensordot`` over its first ``ind`` axes
    (``numpy.linalg.tensorinv``): ``inv`` of ``a`` reshaped to a square matrix."""
    a = a if isinstance(a, ndarray) else wrap(to_node(a))
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    old_shape = tuple(a.shape)
    inverse_shape = old_shape[ind:] + old_shape[:ind]
    prod = int(np.prod(old_shape[ind:], dtype=np.int64))
    return reshape(inv(reshape(a, (prod, -1))), inverse_shape)


_numpy_svd = numpy_function(np.linalg.svd, "numpy.linalg.svd")
_numpy_qr = numpy_function(np.linalg.qr, "numpy.linalg.qr")
_numpy_pinv = numpy_function(np.linalg.pinv, "numpy.linalg.pinv")
_numpy_matrix_rank = numpy_function(np.linalg.matrix_rank, "numpy.linalg.matrix_rank")
_numpy_cond = numpy_function(np.linalg.cond, "numpy.linalg.cond")
