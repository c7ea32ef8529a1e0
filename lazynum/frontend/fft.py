"""``lazynum.fft``: NumPy's discrete Fourier transforms, lazily.

Every transform records one ``fft`` extern node (``expr.spectral``) whose reference is
NumPy's own call, so a compiled program runs pocketfft inside it: no sync, NumPy's values
and dtypes (float32 and complex64 stay single precision).  The front end makes NumPy's
defaults explicit (lengths, axes) and raises NumPy's errors at the call.  ``fftfreq``,
``rfftfreq``, ``fftshift`` and ``ifftshift`` are compositions of lazy ops.
"""
from __future__ import annotations

import numpy as np

from ..array.arraytype import ndarray, wrap
from ..array.conversion import to_node
from ..expr import node as nodes
from ..expr.shapes import normalize_axis
from ..expr.spectral import FFT, FROM_HALF
from . import creation, joining
from .fallbacks import resolve
from .ufuncs import call

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
           "fftn", "ifftn", "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_NORMS = (None, "backward", "ortho", "forward")


def _norm(norm):
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')
    return norm


def _length(n) -> int:
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def _one_axis(name, a, n, axis, norm, out):
    if out is not None:
        raise NotImplementedError(f"lazynum.fft.{name}(out=...) is not supported")
    node = to_node(a)
    if not node.shape:
        raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension 0")
    axis = normalize_axis(axis, len(node.shape))
    if n is None:
        m = node.shape[axis]
        n = 2 * (m - 1) if name in FROM_HALF else m
    n = _length(int(n) if not hasattr(n, "free_symbols") else n)
    return wrap(nodes.apply(FFT, (node,), (name, (n,), (axis,), _norm(norm))))


def _many_axes(name, a, s, axes, norm, out, default_axes=None):
    if out is not None:
        raise NotImplementedError(f"lazynum.fft.{name}(out=...) is not supported")
    node = to_node(a)
    ndim = len(node.shape)
    if axes is None:
        axes = default_axes if default_axes is not None else (
            tuple(range(ndim)) if s is None else tuple(range(ndim - len(s), ndim)))
    axes = tuple(normalize_axis(ax, ndim) for ax in axes)
    if s is not None and len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if s is None:
        s = [node.shape[ax] for ax in axes]
        if name in FROM_HALF and axes:
            s[-1] = 2 * (s[-1] - 1)
    s = tuple(_length(int(n)) for n in s)
    if not axes:
        return wrap(node)
    return wrap(nodes.apply(FFT, (node,), (name, s, axes, _norm(norm))))


def fft(a, n=None, axis=-1, norm=None, out=None):
    """The one-dimensional discrete Fourier transform (``numpy.fft.fft``)."""
    return _one_axis("fft", a, n, axis, norm, out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """The one-dimensional inverse transform (``numpy.fft.ifft``)."""
    return _one_axis("ifft", a, n, axis, norm, out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """The transform of real input, ``n // 2 + 1`` outputs (``numpy.fft.rfft``)."""
    return _one_axis("rfft", a, n, axis, norm, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of ``rfft``: ``n`` real outputs (``numpy.fft.irfft``)."""
    return _one_axis("irfft", a, n, axis, norm, out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """The transform of a Hermitian-symmetric signal, real outputs (``numpy.fft.hfft``)."""
    return _one_axis("hfft", a, n, axis, norm, out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of ``hfft`` (``numpy.fft.ihfft``)."""
    return _one_axis("ihfft", a, n, axis, norm, out)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """The n-dimensional transform (``numpy.fft.fftn``)."""
    return _many_axes("fftn", a, s, axes, norm, out)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """The n-dimensional inverse transform (``numpy.fft.ifftn``)."""
    return _many_axes("ifftn", a, s, axes, norm, out)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """The n-dimensional transform of real input (``numpy.fft.rfftn``)."""
    return _many_axes("rfftn", a, s, axes, norm, out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """The inverse of ``rfftn`` (``numpy.fft.irfftn``)."""
    return _many_axes("irfftn", a, s, axes, norm, out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The transform over two axes (``numpy.fft.fft2``)."""
    return _many_axes("fftn", a, s, axes, norm, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The inverse transform over two axes (``numpy.fft.ifft2``)."""
    return _many_axes("ifftn", a, s, axes, norm, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The transform of real input over two axes (``numpy.fft.rfft2``)."""
    return _many_axes("rfftn", a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The inverse of ``rfft2`` (``numpy.fft.irfft2``)."""
    return _many_axes("irfftn", a, s, axes, norm, out)


def _frequency_scale(n, d):
    """NumPy's ``1.0 / (n * d)``: a Python or NumPy scalar, or lazy for a lazy ``d``."""
    if isinstance(d, ndarray):
        return call(np.divide, (1.0, call(np.multiply, (n, d))))
    return 1.0 / (n * d)


def fftfreq(n, d=1.0, device=None):
    """The sample frequencies of an ``n``-point transform (``numpy.fft.fftfreq``)."""
    n = int(n)
    half = (n - 1) // 2 + 1
    ints = joining.concatenate([creation.arange(0, half, dtype=np.int64),
                                creation.arange(-(n // 2), 0, dtype=np.int64)])
    return call(np.multiply, (ints, _frequency_scale(n, d)))


def rfftfreq(n, d=1.0, device=None):
    """The sample frequencies of an ``n``-point ``rfft`` (``numpy.fft.rfftfreq``)."""
    n = int(n)
    ints = creation.arange(0, n // 2 + 1, dtype=np.int64)
    return call(np.multiply, (ints, _frequency_scale(n, d)))


def _shift(x, axes, sign):
    x = wrap(to_node(x))
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [sign * (dim // 2) for dim in x.shape]
    elif isinstance(axes, (int, np.integer)):
        shift = sign * (x.shape[axes] // 2)
    else:
        shift = [sign * (x.shape[ax] // 2) for ax in axes]
    return joining.roll(x, shift, axes)


def fftshift(x, axes=None):
    """The zero frequency moved to the center (``numpy.fft.fftshift``)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """The inverse of ``fftshift`` (``numpy.fft.ifftshift``)."""
    return _shift(x, axes, -1)


def __getattr__(name):
    """Anything else of ``numpy.fft`` resolves as NumPy's (helper modules, counted fallbacks)."""
    if name.startswith("__"):
        raise AttributeError(name)
    return resolve(np.fft, name, "numpy.fft")
