"""Dense linear algebra primitives: LAPACK (through NumPy) as extern steps inside a program.

Each primitive works on stacks of matrices (the last two axes, leading axes batched as
NumPy's ``numpy.linalg`` batches them) of one float dtype: the front end
(``frontend.lapack``) casts to NumPy's computation dtype first (integers and bool compute
in float64, float32 stays float32), so the reference is NumPy's own call on the same
data and gives NumPy's bits.  A factorization with several results (``eigh``, ``svd``,
``qr``, ``slogdet``) is one node that packs them into one array (``packed_layout``); the
results are views of it, so nothing is computed twice.  An error only the data reveals (a
singular matrix, a matrix that is not positive definite) is NumPy's ``LinAlgError`` raised
at the sync, naming the op and the user's line; the arrays are left as NumPy leaves them.

VJPs, beside each primitive, are the standard ones for real matrices (``solve``, ``inv``,
``det``, ``slogdet``, ``cholesky``, ``eigh``, ``eigvalsh``): they are graphs of these
primitives and ``matmul``, so they differentiate again.  ``cholesky`` and ``eigh`` read one
triangle of a symmetric matrix; their cotangents are symmetrized (the gradient along
symmetric perturbations, as JAX defines it).
"""
from __future__ import annotations

import numpy as np

from . import derivatives as _d
from .registry import EXTERN, declare_lowering, register
from .shapes import broadcast_shapes, c_strides

LinAlgError = np.linalg.LinAlgError


def _stack(shape, what: str, square: bool = True) -> tuple:
    """``shape`` checked as a stack of (square) matrices, NumPy's LinAlgError otherwise."""
    if len(shape) < 2:
        raise LinAlgError(f"{len(shape)}-dimensional array given. Array must be at least "
                          "two-dimensional")
    if square and shape[-1] != shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    return tuple(shape)


_LAPACK_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64,
                                                  np.complex128))


def _float_dtype(args, attrs):
    dt = args[0].dtype
    if dt not in _LAPACK_DTYPES or any(a.dtype != dt for a in args):
        raise TypeError(f"linalg primitives take equal float32/float64/complex64/complex128 "
                        f"operands, got {[str(a.dtype) for a in args]} (the front end casts)")
    return dt


def _real_dtype(args, attrs):
    """Eigenvalues of a Hermitian matrix and singular values are real for complex input."""
    dt = _float_dtype(args, attrs)
    return np.dtype(dt.char.lower()) if dt.kind == "c" else dt


def _svd_dtype(args, attrs):
    return _float_dtype(args, attrs) if attrs[1] else _real_dtype(args, attrs)


def _register(name, shape, reference, doc, may_fail=True, dtype=_float_dtype):
    op = register(name, "extern", shape=shape, dtype=dtype, reference=reference,
                  doc=doc, may_fail=may_fail)
    declare_lowering(op, EXTERN)
    return op


# --- packing several results into one array ---------------------------------------------------

def packed_layout(batch, parts) -> tuple:
    """(packed shape, [(offset, part shape)]): results of shapes ``parts`` (per matrix)
    stored one after another along one last axis of ``batch + (total,)``."""
    offsets, total = [], 0
    for part in parts:
        offsets.append((total, tuple(part)))
        size = 1
        for d in part:
            size *= d
        total += size
    return tuple(batch) + (total,), offsets


def part_view_attrs(packed_shape, offset, part) -> tuple:
    """View attrs ``(shape, strides, offset)`` of one part of a packed array."""
    batch = tuple(packed_shape[:-1])
    return (batch + tuple(part), tuple(c_strides(packed_shape)[:-1]) + tuple(c_strides(part)),
            offset)


def _pack(batch_shape, arrays):
    return np.concatenate([a.reshape(batch_shape + (-1,)) for a in arrays], axis=-1)


def _part(g, offset, part):
    return _d.apply("view", (g,), part_view_attrs(tuple(g.shape), offset, part))


# --- solve and inv ------------------------------------------------------------------------------

def _solve_shape(args, attrs):
    a = _stack(args[0].shape, "solve")
    b = tuple(args[1].shape)
    if len(b) == 1:
        if b[0] != a[-1]:
            raise ValueError(f"solve: Input operand 1 has a mismatch in its core dimension 0, "
                             f"with gufunc signature (m,m),(m)->(m) (size {b[0]} is different "
                             f"from {a[-1]})")
        return a[:-1]
    if len(b) < 2 or b[-2] != a[-1]:
        raise ValueError(f"solve: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (m,m),(m,n)->(m,n) (size {b[-2] if b else 0} "
                         f"is different from {a[-1]})")
    return broadcast_shapes(a[:-2], b[:-2]) + (a[-1], b[-1])


SOLVE = _register("linalg_solve", _solve_shape, lambda arrays, attrs: np.linalg.solve(*arrays),
                  "numpy.linalg.solve(a, b): b a vector (1-d) or a stack of matrices.")


@_d.uses_needs
def _solve_vjp(node, g, needs=None):
    # x = A^-1 b:  b_bar = A^-T g,  A_bar = -b_bar x^T  (summed over broadcast batches)
    a, b = node.args
    g_b = _d.apply("linalg_solve", (_d.swap_last(a), g if len(b.shape) > 1 else
                                    _as_column(g)))
    da = db = None
    if _d.wanted(needs, 0):
        x = node if len(b.shape) > 1 else _as_column(node)
        da = _d.neg(_d.apply("matmul", (g_b, _d.swap_last(x))))
        da = _d.sum_to_shape(da, a.shape)
    if _d.wanted(needs, 1):
        db = _d.sum_to_shape(g_b, b.shape) if len(b.shape) > 1 else _d.sum_to_shape(
            _d.reshape(g_b, tuple(g_b.shape[:-1])), b.shape)
    return (da, db)


def _as_column(v):
    """A stack of vectors as a stack of one-column matrices (a view)."""
    return _d.reshape(v, tuple(v.shape) + (1,))


SOLVE.vjp = _solve_vjp

INV = _register("linalg_inv", lambda args, attrs: _stack(args[0].shape, "inv"),
                lambda arrays, attrs: np.linalg.inv(arrays[0]),
                "numpy.linalg.inv of a stack of square matrices.")
# y = A^-1:  A_bar = -y^T g y^T
INV.vjp = lambda node, g: (_d.neg(_d.apply("matmul", (_d.apply("matmul", (
    _d.swap_last(node), g)), _d.swap_last(node)))),)


# --- determinants -------------------------------------------------------------------------------

DET = _register("linalg_det", lambda args, attrs: _stack(args[0].shape, "det")[:-2],
                lambda arrays, attrs: np.asarray(np.linalg.det(arrays[0])),
                "numpy.linalg.det of a stack of square matrices.", may_fail=False)


def _det_vjp(node, g):
    # d det = det * tr(A^-1 dA):  A_bar = (g det) A^-T
    a = node.args[0]
    weight = _d.reshape(_d.mul(g, node), tuple(g.shape) + (1, 1))
    return (_d.mul(weight, _d.swap_last(_d.apply("linalg_inv", (a,)))),)


DET.vjp = _det_vjp


def _slogdet_shape(args, attrs):
    return _stack(args[0].shape, "slogdet")[:-2] + (2,)


def _slogdet_reference(arrays, attrs):
    sign, logabsdet = np.linalg.slogdet(arrays[0])
    return np.stack([np.asarray(sign), np.asarray(logabsdet)], axis=-1)


SLOGDET = _register("linalg_slogdet", _slogdet_shape, _slogdet_reference,
                    "numpy.linalg.slogdet packed as (..., 2): sign, then log|det|.",
                    may_fail=False)


def _slogdet_vjp(node, g):
    # real A: the sign is piecewise constant; log|det| has cotangent A^-T.  Complex A (JAX's
    # convention): with w = tr(A^-1 dA), d log|det| = Re(w) and the sign s = e^(i theta)
    # moves by ds = i s Im(w), so A_bar = (Re(g_log) + i Im(g_sign s)) A^-T
    a = node.args[0]
    g_log = _part(g, 1, ())
    if _d.is_complex(a):
        real_part = _d.apply("real", (g_log,))
        turn = _d.apply("imag", (_d.mul(_part(g, 0, ()), _part(node, 0, ())),))
        g_log = _d.apply("make_complex", (real_part, turn))
    weight = _d.reshape(g_log, tuple(g_log.shape) + (1, 1))
    return (_d.mul(weight, _d.swap_last(_d.apply("linalg_inv", (a,)))),)


SLOGDET.vjp = _slogdet_vjp


# --- Cholesky -----------------------------------------------------------------------------------

def _cholesky_reference(arrays, attrs):
    (upper,) = attrs
    lower = np.linalg.cholesky(arrays[0])
    return np.swapaxes(lower, -1, -2).copy() if upper else lower


CHOLESKY = _register("linalg_cholesky", lambda args, attrs: _stack(args[0].shape, "cholesky"),
                     _cholesky_reference,
                     "numpy.linalg.cholesky; attrs (upper,) returns L^T instead of L.")


def _lower_half_diagonal(x):
    """``tril(x)`` with its diagonal halved (Murray's Phi), elementwise on a stack."""
    shape = tuple(x.shape)
    rows, cols = _d.iota(shape, len(shape) - 2), _d.iota(shape, len(shape) - 1)
    below = _d.cast(_d.call("greater", rows, cols), x.dtype)
    on = _d.scale(_d.cast(_d.call("equal", rows, cols), x.dtype), 0.5)
    return _d.mul(x, _d.add(below, on))


def _real_only(what: str, node) -> None:
    """Rules written for real symmetric matrices refuse a complex (Hermitian) one: its
    formula needs conjugate transposes (and, for eigenvectors, a phase convention)."""
    if _d.is_complex(node.args[0]):
        raise NotImplementedError(f"lazynum.grad: the derivative of {what} of a complex "
                                  "matrix is not written yet")


def _cholesky_vjp(node, g):
    # L = chol(A):  A_bar = sym(L^-T Phi(L^T L_bar) L^-1)   (Murray 2016)
    _real_only("numpy.linalg.cholesky", node)
    (upper,) = node.attrs
    lower = _d.swap_last(node) if upper else node
    g_lower = _d.swap_last(g) if upper else g
    phi = _lower_half_diagonal(_d.apply("matmul", (_d.swap_last(lower), g_lower)))
    left = _d.apply("linalg_solve", (_d.swap_last(lower), phi))                 # L^-T Phi
    full = _d.swap_last(_d.apply("linalg_solve", (_d.swap_last(lower), _d.swap_last(left))))
    return (_d.scale(_d.add(full, _d.swap_last(full)), 0.5),)


CHOLESKY.vjp = _cholesky_vjp


# --- symmetric eigenproblems --------------------------------------------------------------------

def _eigh_shape(args, attrs):
    a = _stack(args[0].shape, "eigh")
    return a[:-2] + (a[-1] + 1, a[-1])


def _eigh_reference(arrays, attrs):
    w, v = np.linalg.eigh(arrays[0], UPLO=attrs[0])
    return np.concatenate([w[..., None, :], v], axis=-2)


EIGH = _register("linalg_eigh", _eigh_shape, _eigh_reference,
                 "numpy.linalg.eigh packed as (..., n + 1, n): the eigenvalues, then the "
                 "eigenvectors (columns).")


def _eigh_parts(packed):
    shape = tuple(packed.shape)
    n = shape[-1]
    strides = c_strides(shape)
    batch, batch_strides = shape[:-2], tuple(strides[:-2])
    w = _d.apply("view", (packed,), (batch + (n,), batch_strides + (1,), 0))
    v = _d.apply("view", (packed,), (batch + (n, n), batch_strides + (n, 1), n))
    return w, v


def _eigh_vjp(node, g):
    # A = V diag(w) V^T:  A_bar = sym(V (diag(w_bar) + F o (V^T V_bar)) V^T),
    # F_ij = 1 / (w_j - w_i) off the diagonal, 0 on it
    _real_only("numpy.linalg.eigh", node)
    w, v = _eigh_parts(node)
    g_w, g_v = _eigh_parts(g)
    shape = tuple(v.shape)
    gap = _d.sub(_d.broadcast_to(_d.reshape(w, tuple(w.shape[:-1]) + (1, shape[-1])), shape),
                 _d.broadcast_to(_d.reshape(w, tuple(w.shape) + (1,)), shape))
    rows, cols = _d.iota(shape, len(shape) - 2), _d.iota(shape, len(shape) - 1)
    off = _d.call("not_equal", rows, cols)
    f = _d.select(off, _d.div(_d.const(1.0, gap), _d.select(off, gap, _d.const(1.0, gap))),
                  _d.const(0.0, gap))
    inner = _d.mul(f, _d.apply("matmul", (_d.swap_last(v), g_v)))
    diag = _d.select(off, _d.const(0.0, gap),
                     _d.broadcast_to(_d.reshape(g_w, tuple(g_w.shape[:-1]) + (1, shape[-1])), shape))
    full = _d.apply("matmul", (_d.apply("matmul", (v, _d.add(diag, inner))), _d.swap_last(v)))
    return (_d.scale(_d.add(full, _d.swap_last(full)), 0.5),)


EIGH.vjp = _eigh_vjp

EIGVALSH = _register("linalg_eigvalsh", lambda args, attrs: _stack(args[0].shape, "eigvalsh")[:-1],
                     lambda arrays, attrs: np.linalg.eigvalsh(arrays[0], UPLO=attrs[0]),
                     "numpy.linalg.eigvalsh: the eigenvalues of a symmetric matrix, ascending.",
                     dtype=_real_dtype)


def _eigvalsh_vjp(node, g):
    # A_bar = V diag(w_bar) V^T (the eigenvectors recomputed: one more eigh).  Hermitian A:
    # dw_k = Re(v_k^H dA v_k), so in JAX's convention A_bar = conj(V) diag(w_bar) V^T
    _, v = _eigh_parts(_d.apply("linalg_eigh", node.args, node.attrs))
    g = _d.cast(g, v.dtype)
    left = _d.call("conjugate", v) if _d.is_complex(v) else v
    scaled = _d.mul(left, _d.reshape(g, tuple(g.shape[:-1]) + (1, g.shape[-1])))
    return (_d.apply("matmul", (scaled, _d.swap_last(v))),)


EIGVALSH.vjp = _eigvalsh_vjp


# --- SVD and QR ---------------------------------------------------------------------------------

def svd_parts(shape, full_matrices: bool) -> list:
    """Per-matrix shapes of (u, s, vh) for an (..., m, n) input."""
    m, n = shape[-2], shape[-1]
    k = min(m, n)
    return [(m, m if full_matrices else k), (k,), (n if full_matrices else k, n)]


def _svd_shape(args, attrs):
    full_matrices, compute_uv = attrs
    shape = _stack(args[0].shape, "svd", square=False)
    if not compute_uv:
        return shape[:-2] + (min(shape[-2], shape[-1]),)
    return packed_layout(shape[:-2], svd_parts(shape, full_matrices))[0]


def _svd_reference(arrays, attrs):
    full_matrices, compute_uv = attrs
    a = arrays[0]
    if not compute_uv:
        return np.linalg.svd(a, compute_uv=False)
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return _pack(a.shape[:-2], (u, s, vh))


SVD = _register("linalg_svd", _svd_shape, _svd_reference,
                "numpy.linalg.svd; attrs (full_matrices, compute_uv): u, s, vh packed along "
                "one last axis (packed_layout; s stored in u's complex dtype when complex), "
                "or s alone.", dtype=_svd_dtype)
SVD.vjp = _d.not_written("numpy.linalg.svd", " (differentiate through eigh of a.T @ a instead)")


def qr_parts(shape, mode: str) -> list:
    """Per-matrix shapes of (q, r) for an (..., m, n) input ('reduced' or 'complete')."""
    m, n = shape[-2], shape[-1]
    k = min(m, n) if mode == "reduced" else m
    return [(m, k), (k, n)]


def _qr_shape(args, attrs):
    (mode,) = attrs
    shape = _stack(args[0].shape, "qr", square=False)
    if mode == "r":
        return shape[:-2] + (min(shape[-2], shape[-1]), shape[-1])
    return packed_layout(shape[:-2], qr_parts(shape, mode))[0]


def _qr_reference(arrays, attrs):
    (mode,) = attrs
    a = arrays[0]
    if mode == "r":
        return np.linalg.qr(a, mode="r")
    q, r = np.linalg.qr(a, mode=mode)
    return _pack(a.shape[:-2], (q, r))


QR = _register("linalg_qr", _qr_shape, _qr_reference,
               "numpy.linalg.qr; attrs (mode,): q and r packed along one last axis, or r "
               "alone for mode 'r'.", may_fail=False)
QR.vjp = _d.not_written("numpy.linalg.qr")

PINV = _register("linalg_pinv", lambda args, attrs: _stack(args[0].shape, "pinv", square=False)[:-2]
                 + (args[0].shape[-1], args[0].shape[-2]),
                 lambda arrays, attrs: np.linalg.pinv(arrays[0], rcond=attrs[0], hermitian=attrs[1]),
                 "numpy.linalg.pinv; attrs (rcond, hermitian).")
PINV.vjp = _d.not_written("numpy.linalg.pinv")


# --- least squares ------------------------------------------------------------------------------

def lstsq_parts(m, n, k) -> list:
    """Per-problem shapes of (x, residuals, rank, s) packed by ``linalg_lstsq``."""
    return [(n, k), (k,), (), (min(m, n),)]


def _lstsq_shape(args, attrs):
    a, b = tuple(args[0].shape), tuple(args[1].shape)
    if len(a) != 2 or len(b) != 2:
        raise LinAlgError("linalg_lstsq takes 2-d a and b (the front end makes a vector b a "
                          "column)")
    if a[0] != b[0]:
        raise LinAlgError("Incompatible dimensions")
    return packed_layout((), lstsq_parts(a[0], a[1], b[1]))[0]


def _lstsq_reference(arrays, attrs):
    a, b = arrays
    x, resids, rank, s = np.linalg.lstsq(a, b, rcond=attrs[0])
    if resids.shape != (b.shape[1],):       # NumPy's empty residuals: the front end hides them
        resids = np.zeros(b.shape[1], a.dtype)
    return _pack((), (x, resids.astype(a.dtype), np.asarray(rank, a.dtype), s.astype(a.dtype)))


LSTSQ = _register("linalg_lstsq", _lstsq_shape, _lstsq_reference,
                  "numpy.linalg.lstsq of 2-d a and b; attrs (rcond,): x, the residuals (zeros "
                  "where NumPy's are empty), the rank and s packed in a's dtype along one axis "
                  "(packed_layout).")
LSTSQ.vjp = _d.not_written("numpy.linalg.lstsq")
