"""Complex numbers' parts as primitives: ``real``, ``imag`` and ``make_complex``.

NumPy's ``z.real``/``z.imag`` are strided views of a complex array's float storage.
lazynum's storages hold whole elements, so a part is read by a primitive (``real``,
``imag``: a complex array's float part; a real array is its own real part) and written by
rebuilding the complex value (``make_complex(re, im)``); ``array.complex_parts`` uses
these to make the parts behave as writable views.  Shape, dtype, reference, VJP and kernel
lowering of each op sit together here.
"""
from __future__ import annotations

import numpy as np

from . import derivatives as _d
from .node import apply
from .registry import declare_lowering, register
from .shapes import broadcast_shapes

COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
              np.dtype(np.float64): np.dtype(np.complex128)}
PART_OF = {c: f for f, c in COMPLEX_OF.items()}


def _part_dtype(args, attrs):
    dt = args[0].dtype
    if dt not in PART_OF:
        raise TypeError(f"real/imag primitives take complex input, not {dt}")
    return PART_OF[dt]


def _real_reference(arrays, attrs):
    return np.array(arrays[0].real)         # a copy: results own their buffers


def _imag_reference(arrays, attrs):
    return np.array(arrays[0].imag)


REAL = register("real", "elementwise", shape=lambda args, attrs: args[0].shape,
                dtype=_part_dtype, reference=_real_reference,
                doc="The real part of a complex array (float of the same precision).")
IMAG = register("imag", "elementwise", shape=lambda args, attrs: args[0].shape,
                dtype=_part_dtype, reference=_imag_reference,
                doc="The imaginary part of a complex array (float of the same precision).")


def _make_dtype(args, attrs):
    re, im = args
    if re.dtype != im.dtype or re.dtype not in COMPLEX_OF:
        raise TypeError(f"make_complex takes two float32 or two float64 parts, not "
                        f"({re.dtype}, {im.dtype})")
    return COMPLEX_OF[re.dtype]


def _make_reference(arrays, attrs):
    re, im = arrays
    out = np.empty(np.broadcast_shapes(re.shape, im.shape), COMPLEX_OF[re.dtype])
    out.real = re            # not re + 1j * im: inf * 1j would make a NaN real part
    out.imag = im
    return out


MAKE_COMPLEX = register("make_complex", "elementwise",
                        shape=lambda args, attrs: broadcast_shapes(args[0].shape, args[1].shape),
                        dtype=_make_dtype, reference=_make_reference,
                        doc="The complex array with real part args[0] and imaginary part args[1].")


# --- VJPs, in JAX's convention (a cotangent g pairs with a tangent t as Re(g * t), see
# docs/autograd.md): real(t) = Re(1 * t), so a real part's cotangent g flows back as g + 0i;
# imag(t) = Re(-i * t), so an imaginary part's flows back as -g i; make_complex(a, b) pairs
# with a complex g as Re(g (a + ib)) = Re(g) a - Im(g) b, so its parts get Re(g), -Im(g).
def _zero_like(node):
    return _d.zeros(node.shape, node.dtype)


REAL.vjp = _d.keeps_zeros(lambda node, g: (_d.apply("make_complex", (g, _zero_like(g))),))
IMAG.vjp = _d.keeps_zeros(lambda node, g: (_d.apply("make_complex", (_zero_like(g), _d.neg(g))),))
MAKE_COMPLEX.vjp = _d.keeps_zeros(lambda node, g: (
    _d.sum_to_shape(_d.apply("real", (g,)), node.args[0].shape),
    _d.sum_to_shape(_d.neg(_d.apply("imag", (g,))), node.args[1].shape)))


# --- kernel lowerings: a complex value in a kernel is a pair of real statements
# (``compile/lowering.py``), so a part is one of the pair and make_complex pairs them.
def _real_lowering(builder, node, args):
    return args[0][0]


def _imag_lowering(builder, node, args):
    return args[0][1]


def _make_lowering(builder, node, args):
    return (args[0], args[1])


declare_lowering(REAL, _real_lowering)
declare_lowering(IMAG, _imag_lowering)
declare_lowering(MAKE_COMPLEX, _make_lowering)


def _part(op, node, which):
    # A part of a pending make_complex is its argument: a write into one part leaves the
    # other part's graph free of the written value (a failed write undoes cleanly).
    if node.op is MAKE_COMPLEX and node.buffer is None and node.args[which].shape == node.shape:
        return node.args[which]
    return apply(op, (node,), ())


def real_node(node):
    """The real part of ``node`` (``node`` itself when it is not complex)."""
    return _part(REAL, node, 0) if node.dtype in PART_OF else node


def imag_node(node):
    """The imaginary part of a complex ``node``."""
    return _part(IMAG, node, 1)


def complex_node(re, im):
    """The complex node with parts ``re`` and ``im`` (float nodes of one dtype)."""
    return apply(MAKE_COMPLEX, (re, im), ())
