"""Squared deviations from a distributed value in the first pass over the data (``var``).

The front end's ``var`` is ``sum((x - m)**2) / dof`` with ``m = sum(x) / n`` (under a
mask for a selection: ``x[x > t].var()`` sums ``select(mask, (x - m)**2, 0)``).  Read
literally, the squared deviations need ``m``, a reduction of all the blocks, so they are a
second pass.  But for any single value ``m``

    sum over blocks b, elements i of (x_i - m)**2  =  Q + n (mu - m)**2,

where ``n``, ``mu`` and ``Q`` are the count, the mean and the sum of squared deviations
from the mean of all the elements, and those fold block by block with Chan's parallel
formula (``blocks.combine_moments``: sums of squares only, no cancellation).  Each block's
``(n_b, mu_b, Q_b)`` reads only its own elements, so ``match`` turns such a sum into a
``"moments"`` member of the reduction group of the first pass (``reductions``), and
applies ``m`` after the fold: ``var``, ``std`` and the sums and counts beside them read
the data once.  Anything else (a cube of deviations, a complex ``var``'s real and
imaginary squares, a sum over some axes only) is left to the literal two passes.
"""
from __future__ import annotations

import numpy as np

from ..expr import node as nodes
from .region import Flat


def keepdims(region, partial, axes, dims):
    """A partial reduction's value with its reduced ``dims`` kept, as length-1 axes."""
    spec = tuple(None if d in dims else a for d, a in enumerate(axes))
    return region.step(("reshape", spec, partial.ref), axes, partial.dtype)


def match(translation, node):
    """The ``Reduced`` of ``node`` as moments (module docstring), or None where it is not
    ``sum(square(x - m))`` / ``sum(select(mask, square(x - m), 0))`` over all of ``x``
    with ``m`` a single value and ``x`` (and ``mask``) read block by block."""
    parts = _parts(node)
    if parts is None:
        return None
    x, mask, m = parts
    data = _inner(translation, x)
    flags = _inner(translation, mask) if mask is not None else None
    if data is None or (mask is not None and (flags is None or flags.axes != data.axes)):
        return None
    return _moments(translation, node, data, flags, m, tuple(range(len(data.axes))))


def _parts(node):
    """(x, mask or None, m) of a full ``reduce_sum`` of squared deviations, else None."""
    if node.op.name != "reduce_sum" or node.shape != () or node.dtype.kind != "f":
        return None
    term, mask = node.args[0], None
    if term.op.name == "select" and _is_zero(term.args[2]):
        mask, term = term.args[0], term.args[1]
    if term.op.name != "square" or term.args[0].op.name != "subtract":
        return None
    x, m = term.args[0].args
    if int(np.prod(m.shape, dtype=np.int64)) != 1 or x.dtype.kind not in "iuf" or \
            tuple(x.shape) != tuple(term.shape):
        return None
    return x, mask, m


def _is_zero(arg) -> bool:
    if arg.op.name == "literal":
        return float(arg.attrs[0]) == 0
    return arg.op is nodes.SCALAR and arg.buffer == 0


def _inner(translation, arg):
    """``arg``'s value as a region value over its blocks (a selection's unflattened)."""
    value = translation.value(arg)
    if isinstance(value, Flat):
        return value.inner
    if isinstance(value, nodes.Node):
        return None
    return translation.blockwise_value(arg, value)


def _moments(translation, node, data, flags, m, dims):
    # the blocks' moments in float64 whatever the result's dtype: a float32 count is exact
    # only up to 2**24, the elements of one 64 MiB block
    region, dtype = translation.region, np.dtype(np.float64)
    axes = data.axes

    def op(name, attrs, *refs, out_axes=axes, out_dtype=dtype):
        return region.step(("op", name, attrs, tuple(r.ref for r in refs)), out_axes, out_dtype)

    x = data if data.dtype == dtype else op("cast", (dtype,), data)
    if flags is None:                   # every element counts (NaN included: NumPy's)
        nan = op("isnan", (), x, out_dtype=np.dtype(bool))
        flags = op("logical_or", (), nan, op("logical_not", (), nan, out_dtype=nan.dtype),
                   out_dtype=nan.dtype)
    zero = region.step(("scalar", 0.0, dtype.str), (), dtype)
    one = region.step(("scalar", 1.0, dtype.str), (), dtype)
    summed = (dims,)
    count = op("reduce_sum", summed, op("cast", (dtype,), flags), out_axes=())
    total = op("reduce_sum", summed, op("select", (), flags, x, zero), out_axes=())
    mean = op("divide", (), total, op("maximum", (), count, one, out_axes=()), out_axes=())
    squares = op("square", (), op("subtract", (), x, mean))
    spread = op("reduce_sum", summed, op("select", (), flags, squares, zero), out_axes=())
    partials = tuple(keepdims(region, p, axes, dims) for p in (count, mean, spread))
    m_node = m

    def finish(n, mu, q):
        centre = translation.to_dask(translation.value(m_node), m_node).reshape(())
        return (q + n * (mu - centre) ** 2).astype(node.dtype)
    return translation.reductions.add(partials, dims, "moments", node.dtype, 0, finish)
