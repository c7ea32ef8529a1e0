"""Discrete Fourier transforms as one extern primitive: NumPy's ``numpy.fft`` call.

``fft`` carries ``(name, s, axes, norm)``: which ``numpy.fft`` transform (``fft``, ``ifft``,
``rfft``, ``irfft``, ``hfft``, ``ihfft`` along one axis; ``fftn``, ``ifftn``, ``rfftn``,
``irfftn`` along several), the transform length per axis (resolved by the front end:
NumPy's defaults made explicit), the non-negative axes and the normalization.  Its
reference is NumPy's own call (pocketfft), so values are NumPy's bit for bit; in a compiled
program it is an extern step (a fusion boundary, not a sync).
"""
from __future__ import annotations

import functools

import numpy as np

from . import derivatives as _d
from .registry import EXTERN, declare_lowering, register
from .shapes import c_strides

ONE_AXIS = frozenset({"fft", "ifft", "rfft", "irfft", "hfft", "ihfft"})
TO_HALF = frozenset({"rfft", "ihfft", "rfftn"})         # last axis: n // 2 + 1 outputs
FROM_HALF = frozenset({"irfft", "hfft", "irfftn"})      # last axis: n real outputs


def output_shape(shape, name, s, axes) -> tuple:
    """The transform's result shape: each axis gets its length, the last transformed axis
    ``n // 2 + 1`` for the real-to-half transforms."""
    out = list(shape)
    for k, (axis, n) in enumerate(zip(axes, s)):
        last = k == len(axes) - 1
        out[axis] = n // 2 + 1 if last and name in TO_HALF else n
    return tuple(out)


def _shape(args, attrs):
    name, s, axes, _ = attrs
    return output_shape(args[0].shape, name, s, axes)


@functools.lru_cache(maxsize=256)
def result_dtype(name: str, dtype) -> np.dtype:
    """NumPy's result dtype of transform ``name`` on ``dtype`` (asked of NumPy on a tiny
    array; its TypeError, e.g. ``rfft`` of complex input, propagates)."""
    probe = np.zeros((4,) if name in ONE_AXIS else (4, 4), dtype)
    return np.dtype(getattr(np.fft, name)(probe).dtype)


def _dtype(args, attrs):
    return result_dtype(attrs[0], args[0].dtype)


def transform(array, name, s, axes, norm):
    """NumPy's ``numpy.fft.<name>`` with every length and axis explicit."""
    function = getattr(np.fft, name)
    if name in ONE_AXIS:
        return function(array, n=s[0], axis=axes[0], norm=norm)
    return function(array, s=s, axes=axes, norm=norm)


FFT = register("fft", "extern", shape=_shape, dtype=_dtype,
               reference=lambda arrays, attrs: transform(arrays[0], *attrs),
               doc="numpy.fft's transform attrs[0] with lengths attrs[1] along axes attrs[2], "
                   "normalization attrs[3].")
declare_lowering(FFT, EXTERN)


# VJP, in JAX's convention (a cotangent pairs with a tangent as Re(g * t), unconjugated):
# the DFT matrix is symmetric, so a complex-to-complex transform is its own transpose with
# the same normalization; the input's zero padding (or truncation) to the length n becomes
# a truncation (or zero padding) of the result.  A real input takes the real part.
# rfft keeps the first n//2 + 1 outputs of fft: its transpose pads g with zeros to n first.
# irfft reads the half spectrum X as Hermitian: y_j = f (X_0 + sum_k c_k Re(X_k w^(jk)))
# (c_k = 2 but 1 at k = 0 and at n/2; f the norm's factor), so X_k's cotangent is
# c_k conj(rfft(g))_k with rfft scaled by f (the inverse norm's transform).  hfft and
# ihfft are these with a conjugate and the other norm.
_SELF_TRANSPOSED = frozenset({"fft", "ifft", "fftn", "ifftn"})
_REAL_TO_HALF = {"rfft": "fft", "rfftn": "fftn"}
_HALF_TO_REAL = {"irfft": "ifft", "irfftn": "ifftn"}
_SWAPPED_NORM = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _fit_axis(node, axis: int, length: int):
    """``node`` cut to, or padded with zeros to, ``length`` along ``axis``."""
    shape = tuple(node.shape)
    if shape[axis] == length:
        return node
    fitted = shape[:axis] + (length,) + shape[axis + 1:]
    if shape[axis] > length:
        return _d.apply("view", (node,), (fitted, c_strides(shape), 0))
    return _d.apply("view_scatter", (_d.zeros(fitted, node.dtype), node),
                    (shape, c_strides(fitted), 0))


def _fit(node, like, axes):
    for axis in axes:
        node = _fit_axis(node, axis, like.shape[axis])
    return node


def _transform(node, name, s, axes, norm):
    if name in ONE_AXIS:
        s, axes = s[-1:], axes[-1:]
    return _d.apply("fft", (node,), (name, tuple(s), tuple(axes), norm))


def _half_weights(shape, axis: int, n: int, dtype):
    """c_k along ``axis`` (length n//2 + 1): 1 at k = 0 and, for even n, at k = n/2; 2
    elsewhere (each holds a conjugate pair of the full spectrum)."""
    k = _d.iota(shape, axis)
    single = _d.call("equal", k, _d.const(0, k))
    if n % 2 == 0:
        single = _d.call("logical_or", single, _d.call("equal", k, _d.const(n // 2, k)))
    return _d.select(single, _d.const(1, dtype), _d.const(2, dtype))


def _fft_vjp(node, g):
    name, s, axes, norm = node.attrs
    x = node.args[0]
    if name in _SELF_TRANSPOSED:
        return (_d.cast(_fit(_transform(g, name, s, axes, norm), x, axes), x.dtype),)
    if name in _REAL_TO_HALF:
        return (_real_to_half_vjp(g, x, _REAL_TO_HALF[name], s, axes, norm),)
    if name in _HALF_TO_REAL:
        return (_half_to_real_vjp(g, x, s, axes, norm),)
    # NumPy's hfft is irfft(conj(a)) and ihfft conj(rfft(a)), each with the other norm;
    # conj is its own transpose
    if name == "hfft":
        return (_d.call("conjugate", _half_to_real_vjp(g, x, s, axes, _SWAPPED_NORM[norm])),)
    return (_real_to_half_vjp(_d.call("conjugate", g), x, "fft", s, axes, _SWAPPED_NORM[norm]),)


def _real_to_half_vjp(g, x, full_name, s, axes, norm):
    padded = _fit_axis(g, axes[-1], s[-1])
    return _d.cast(_fit(_transform(padded, full_name, s, axes, norm), x, axes), x.dtype)


def _half_to_real_vjp(g, x, s, axes, norm):
    n = s[-1]
    half = _transform(g, "rfft", (n,), (axes[-1],), _SWAPPED_NORM[norm])
    half = _d.mul(_d.call("conjugate", half), _half_weights(tuple(half.shape), axes[-1], n, half.dtype))
    if len(axes) > 1:
        half = _transform(half, "ifftn", s[:-1], axes[:-1], norm)
    return _d.cast(_fit(half, x, axes), x.dtype)


FFT.vjp = _fft_vjp
