"""Extern primitives: work a fused kernel should not do (BLAS contractions, sorting).

Compiled backends call the device library for these (NumPy/BLAS on CPU, CuPy on GPU): a
fusion boundary, not a sync.
"""
from __future__ import annotations

import numpy as np

from . import dtypes
from .registry import register
import string

from .shapes import broadcast_shapes

EINSUM_LETTERS = frozenset(string.ascii_letters)


def _matmul_shape(args, attrs):
    a, b = args[0].shape, args[1].shape
    if not a or not b:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    a2 = (1,) + a if len(a) == 1 else a
    b2 = b + (1,) if len(b) == 1 else b
    if a2[-1] != b2[-2]:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with "
                         f"gufunc signature (n?,k),(k,m?)->(n?,m?) (size {b2[-2]} is different from {a2[-1]})")
    batch = broadcast_shapes(a2[:-2], b2[:-2])
    out = batch + (a2[-2], b2[-1])
    if len(a) == 1:
        out = out[:-2] + out[-1:]
    if len(b) == 1:
        out = out[:-1]
    return out


def _same_dtypes(name):
    def rule(args, attrs):
        if any(a.dtype != args[0].dtype for a in args):
            raise TypeError(f"{name} primitive needs equal dtypes (the front end promotes)")
        return args[0].dtype
    return rule


MATMUL = register("matmul", "extern", shape=_matmul_shape, dtype=_same_dtypes("matmul"),
                  reference=lambda arrays, attrs: np.asarray(np.matmul(*arrays)),
                  doc="numpy.matmul (batched, 1-d promotion rules).")



# VJP (lazynum.autograd): 1-d operands are promoted to matrices as matmul does, the
# products are taken with the other operand transposed, then summed over broadcast batches.
from . import derivatives as _d  # noqa: E402


@_d.uses_needs
def _matmul_vjp(node, g, needs=None):
    a, b = node.args
    a_shape = (1,) + tuple(a.shape) if len(a.shape) == 1 else tuple(a.shape)
    b_shape = tuple(b.shape) + (1,) if len(b.shape) == 1 else tuple(b.shape)
    batch = broadcast_shapes(a_shape[:-2], b_shape[:-2])
    g2 = _d.reshape(g, batch + (a_shape[-2], b_shape[-1]))
    da = db = None
    if _d.wanted(needs, 0):
        da = _d.apply("matmul", (g2, _d.swap_last(_d.reshape(b, b_shape))))
        da = _d.reshape(_d.sum_to_shape(da, a_shape), a.shape)
    if _d.wanted(needs, 1):
        db = _d.apply("matmul", (_d.swap_last(_d.reshape(a, a_shape)), g2))
        db = _d.reshape(_d.sum_to_shape(db, b_shape), b.shape)
    return (da, db)


MATMUL.vjp = _matmul_vjp


def _axis_shape(args, attrs):
    if not 0 <= attrs[0] < len(args[0].shape):
        raise ValueError(f"axis {attrs[0]} invalid for shape {args[0].shape}")
    return args[0].shape


SORT = register("sort", "extern", shape=_axis_shape, dtype=lambda args, attrs: args[0].dtype,
                reference=lambda arrays, attrs: np.sort(arrays[0], axis=attrs[0], kind=attrs[1]),
                doc="Sort along attrs[0] with algorithm attrs[1]; NaNs last.")
ARGSORT = register("argsort", "extern", shape=_axis_shape, dtype=lambda args, attrs: dtypes.INT64,
                   reference=lambda arrays, attrs: np.argsort(arrays[0], axis=attrs[0], kind=attrs[1]),
                   doc="Indices that sort along attrs[0] with algorithm attrs[1].")



def _sort_vjp(node, g):
    # through the permutation: g goes back to where each sorted element came from (ties
    # hold equal values, so any order among them is a valid choice)
    x = node.args[0]
    perm = _d.apply("argsort", (x,), node.attrs)
    return (_d.apply("put_along_axis", (_d.zeros(x.shape, g.dtype), perm, g), (node.attrs[0],)),)


SORT.vjp = _sort_vjp
ARGSORT.vjp = _d.NOT_FLOAT


def _searchsorted_shape(args, attrs):
    if len(args[0].shape) != 1:
        raise ValueError("object too deep for desired array")
    return args[1].shape


SEARCHSORTED = register(
    "searchsorted", "extern", shape=_searchsorted_shape, dtype=lambda args, attrs: dtypes.INT64,
    reference=lambda arrays, attrs: np.asarray(np.searchsorted(arrays[0], arrays[1], side=attrs[0]),
                                               dtype=np.int64),
    doc="Insertion points of v (arg 1) into sorted 1-d a (arg 0), side attrs[0].")
SEARCHSORTED.vjp = _d.NOT_FLOAT


def _check_einsum_labels(subscripts, shapes):
    """NumPy's errors for subscripts that name letters inconsistently within an operand."""
    text = subscripts.replace(" ", "")
    lhs, arrow, rhs = text.partition("->")
    for ch in lhs + rhs:
        if ch not in EINSUM_LETTERS and ch not in ".,->":
            raise ValueError(f"invalid subscript {ch!r} in einstein sum subscripts string, "
                             "subscripts must be letters")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        return
    wide = False
    for n, (term, shape) in enumerate(zip(terms, shapes)):
        pre, dots, post = term.partition("...")
        if dots and len(shape) > len(pre) + len(post):
            wide = True
        labels = pre + post
        dims = shape[:len(pre)] + (shape[len(shape) - len(post):] if post else ())
        if len(dims) != len(labels):
            continue
        seen = {}
        for letter, d in zip(labels, dims):
            if seen.setdefault(letter, d) != d:
                raise ValueError(f"dimensions in operand {n} for collapsing index '{letter}' "
                                 f"don't match ({seen[letter]} != {d})")
    if arrow and wide and "..." not in rhs:
        raise ValueError("output has more dimensions than subscripts given in einstein sum, "
                         "but no '...' ellipsis provided to broadcast the extra dimensions.")


def parse_einsum(subscripts: str, shapes) -> tuple:
    """Validate ``subscripts`` against operand ``shapes``; return (explicit subscripts, shape).

    Follows numpy.einsum: letters name axes, ``...`` broadcasts, implicit mode outputs the
    letters used once in alphabetical order; repeated size-1 axes broadcast.
    """
    _check_einsum_labels(subscripts, shapes)
    text = subscripts.replace(" ", "")
    lhs, arrow, rhs = text.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"einsum: {len(terms)} operand subscripts for {len(shapes)} operands")
    sizes, ellipsis, counts = {}, (), {}
    for term, shape in zip(terms, shapes):
        pre, dots, post = term.partition("...")
        if not (pre + post).isalpha() and (pre + post):
            raise ValueError(f"einsum: invalid subscript {term!r}")
        fixed = len(pre) + len(post)
        if len(shape) < fixed or (not dots and len(shape) != fixed):
            raise ValueError(f"einsum: operand has {len(shape)} dims, subscripts {term!r} expect {fixed}")
        if dots:
            ellipsis = broadcast_shapes(ellipsis, tuple(shape[len(pre):len(shape) - len(post)]))
        letter_dims = list(zip(pre, shape[:len(pre)])) + list(zip(post, shape[len(shape) - len(post):]))
        for letter, d in letter_dims:
            counts[letter] = counts.get(letter, 0) + 1
            known = sizes.get(letter, 1)
            if known != d and known != 1 and d != 1:
                raise ValueError(f"einsum: size of label {letter!r} differs ({known} vs {d})")
            sizes[letter] = d if known == 1 else known
    if not arrow:
        rhs = ("..." if "..." in lhs else "") + "".join(sorted(c for c, n in counts.items() if n == 1))
    out_pre, _, out_post = rhs.partition("...")
    for letter in out_pre + out_post:
        if letter not in sizes or (out_pre + out_post).count(letter) > 1:
            raise ValueError(f"einsum: output subscript {letter!r} invalid")
    dims = (tuple(sizes[c] for c in out_pre) + (ellipsis if "..." in rhs else ())
            + tuple(sizes[c] for c in out_post))
    return f"{lhs}->{rhs}", dims


def _einsum_shape(args, attrs):
    return parse_einsum(attrs[0], [a.shape for a in args])[1]


EINSUM = register("einsum", "extern", shape=_einsum_shape, dtype=_same_dtypes("einsum"),
                  reference=lambda arrays, attrs: np.asarray(np.einsum(attrs[0], *arrays)),
                  doc="numpy.einsum with explicit output subscripts attrs[0].")
EINSUM.vjp = _d.uses_needs(lambda node, g, needs=None: tuple(
    _d.einsum_cotangent(node.attrs[0], node.args, g, i) if _d.wanted(needs, i) else None
    for i in range(len(node.args))))


BYTESWAP = register("byteswap", "extern", shape=lambda args, attrs: args[0].shape,
                    dtype=lambda args, attrs: args[0].dtype,
                    reference=lambda arrays, attrs: arrays[0].byteswap(),
                    doc="ndarray.byteswap: each element's bytes reversed (the dtype kept).")


def _byteswap_vjp(node, g):
    raise TypeError("lazynum.grad: byteswap reinterprets bits and has no derivative")


BYTESWAP.vjp = _byteswap_vjp


# --- kernel lowerings (lazynum.compile): library calls inside compiled programs ------------
from .registry import EXTERN, declare_lowering  # noqa: E402

for _op in (MATMUL, SORT, ARGSORT, SEARCHSORTED, EINSUM, BYTESWAP):
    declare_lowering(_op, EXTERN)
