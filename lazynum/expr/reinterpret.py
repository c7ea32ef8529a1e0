"""``bitcast``: an array's bytes read as another dtype (``ndarray.view(dtype)``'s read).

NumPy's ``x.view(dtype)`` reinterprets memory.  lazynum's values are typed nodes, so the
reinterpretation is a primitive on a C-contiguous value: the same shape when the itemsizes
agree, else the last axis resized to hold the same bytes (NumPy's rules and messages,
checked here so a bad view fails when it is traced).  ``array.reinterpret`` makes it a
writable view: a write through the view is ``bitcast`` back into the base's storage.
Shape, dtype, reference, derivative and kernel lowering sit together here.
"""
from __future__ import annotations

import numpy as np

from . import node as nodes
from .node import apply
from .registry import EXTERN, declare_lowering, register

ZERO_D_MESSAGE = "Changing the dtype of a 0d array is only supported if the itemsize is unchanged"
SMALLER_MESSAGE = ("When changing to a smaller dtype, its size must be a divisor of the size "
                   "of original dtype")
LARGER_MESSAGE = ("When changing to a larger dtype, its size must be a divisor of the total "
                  "size in bytes of the last axis of the array.")


def bitcast_shape(shape, old: np.dtype, new: np.dtype) -> tuple:
    """The shape of a C-contiguous ``shape`` array of ``old`` viewed as ``new`` (NumPy's
    ``ValueError`` and message where the bytes do not divide)."""
    shape = tuple(shape)
    if old.itemsize == new.itemsize:
        return shape
    if not shape:
        raise ValueError(ZERO_D_MESSAGE)
    if new.itemsize < old.itemsize:
        if old.itemsize % new.itemsize:
            raise ValueError(SMALLER_MESSAGE)
        return shape[:-1] + (shape[-1] * (old.itemsize // new.itemsize),)
    last_bytes = shape[-1] * old.itemsize
    if int(last_bytes) % new.itemsize:
        raise ValueError(LARGER_MESSAGE)
    return shape[:-1] + (last_bytes // new.itemsize,)


def _bitcast_reference(arrays, attrs):
    value = arrays[0]
    if not value.flags.c_contiguous:       # (ascontiguousarray would make a 0-d value 1-d)
        value = value.copy()
    out = value.view(attrs[0])
    # A window read at an odd byte offset may be misaligned for the new dtype: kernels
    # reading this buffer expect aligned elements.
    return out if out.flags.aligned else out.copy()


BITCAST = register("bitcast", "extern",
                   shape=lambda args, attrs: bitcast_shape(args[0].shape, args[0].dtype, attrs[0]),
                   dtype=lambda args, attrs: np.dtype(attrs[0]),
                   reference=_bitcast_reference,
                   doc="A C-contiguous value's bytes read as dtype attrs[0] (ndarray.view(dtype)).")



def _bitcast_vjp(node, g):
    # Not NoGradient (that means an exact zero): reading float bits as other numbers is no
    # differentiable function of the values, so a cotangent reaching it is an error (as
    # byteswap's; JAX's bitcast_convert_type has no gradient either).
    raise TypeError("lazynum.grad: view(dtype) reinterprets bits and has no derivative")


BITCAST.vjp = _bitcast_vjp

# Extern: the reference's NumPy view runs inside compiled programs (a fusion boundary, not
# a sync).  A same-itemsize bitcast could be a kernel statement; views of dtypes are rare
# in hot loops, so one lowering serves every itemsize.
declare_lowering(BITCAST, EXTERN)


def bitcast_node(node, dtype):
    """``node``'s value (C order) read as ``dtype``; a computed value is read now (a NumPy
    view of an immutable buffer: no sync, no pending node)."""
    dtype = np.dtype(dtype)
    if dtype == node.dtype:
        return node
    if node.buffer is not None:
        shape = bitcast_shape(node.shape, node.dtype, dtype)
        return nodes.constant(_bitcast_reference((node.buffer,), (dtype,)), shape)
    return apply(BITCAST, (node,), (dtype,))
