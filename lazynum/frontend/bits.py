"""Bits packed into bytes and back: ``packbits`` and ``unpackbits``, lazily.

The packed axis moves last; packing zero-pads it to whole bytes, views it as
``(..., bytes, 8)`` and sums each byte's bits times their weights (128 .. 1 for
``bitorder='big'``, 1 .. 128 for 'little'); unpacking shifts each byte right by 7 .. 0 (or
0 .. 7) and keeps the low bit.  Both are elementwise maps and a small reduction, so they
fuse with what is around them.  Argument errors (dtype, ``bitorder``, ``axis``,
``count``) are NumPy's, raised at the call.
"""
from __future__ import annotations

import operator

import numpy as np

from ..array.arraytype import ndarray, wrap
from ..array.conversion import to_node
from ..expr.shapes import normalize_axis
from .creation import zeros
from .joining import concatenate
from .manipulation import moveaxis, ravel, reshape
from .reductions import sum as asum
from .ufuncs import call

__all__ = ["packbits", "unpackbits"]

_BIG = np.array([128, 64, 32, 16, 8, 4, 2, 1], np.uint8)


def _little(bitorder, function: str, position: int) -> bool:
    """True for 'little': NumPy reads the string's prefix ('big...' or 'little...')."""
    if not isinstance(bitorder, str):
        raise TypeError(f"{function}() argument {position} must be str, not "
                        f"{type(bitorder).__name__ if bitorder is not None else 'None'}")
    if bitorder.startswith("little"):
        return True
    if bitorder.startswith("big"):
        return False
    raise ValueError("'order' must be either 'little' or 'big'")


def _along_last(a, axis):
    """``(a with the axis last, the axis)``: ``axis=None`` flattens; 0-d acts as 1-d."""
    if axis is None:
        return ravel(a), None
    axis = normalize_axis(operator.index(axis), max(a.ndim, 1))
    if a.ndim == 0:
        a = reshape(a, (1,))
    return moveaxis(a, axis, -1), axis


def _extend(a, length):
    """``a`` with its last axis zero-padded (or cut) to ``length``."""
    n = int(a.shape[-1])
    if length <= n:
        return a[..., :length]
    return concatenate((a, zeros(tuple(a.shape[:-1]) + (length - n,), a.dtype)), axis=-1)


def packbits(a, /, axis=None, bitorder="big"):
    """Pack the truth values of an integer or boolean array into uint8 bytes along
    ``axis`` (``numpy.packbits``; flattened when ``axis`` is None)."""
    a = a if isinstance(a, ndarray) else wrap(to_node(a))
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    little = _little(bitorder, "pack", 3)
    a, axis = _along_last(a, axis)
    n = int(a.shape[-1])
    nbytes = -(-n // 8)
    bits = _extend(call(np.not_equal, (a, 0)).astype(np.uint8), nbytes * 8)
    bits = reshape(bits, tuple(bits.shape[:-1]) + (nbytes, 8))
    weights = _BIG[::-1] if little else _BIG
    packed = asum(call(np.multiply, (bits, weights)), axis=-1, dtype=np.uint8)
    return packed if axis is None else moveaxis(packed, -1, axis)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """Unpack uint8 bytes into their bits (0 or 1, uint8) along ``axis``
    (``numpy.unpackbits``): ``count`` keeps that many bits (zero-padded beyond them), a
    negative ``count`` drops bits from the end."""
    a = a if isinstance(a, ndarray) else wrap(to_node(a))
    if a.dtype != np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    little = _little(bitorder, "unpack", 4)
    a, axis = _along_last(a, axis)
    n = int(a.shape[-1]) * 8
    length = n
    if count is not None:
        count = operator.index(count)
        if count < 0 and -count > n:
            raise ValueError("-count larger than number of elements")
        length = count if count >= 0 else n + count
    shifts = np.arange(8, dtype=np.uint8) if little else np.arange(7, -1, -1, dtype=np.uint8)
    bits = call(np.bitwise_and, (call(np.right_shift, (a[..., None], shifts)), 1))
    bits = _extend(reshape(bits, tuple(a.shape[:-1]) + (n,)), length)
    return bits if axis is None else moveaxis(bits, -1, axis)
