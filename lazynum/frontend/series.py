"""Functions of sequences, lazily: ``trapezoid``, ``ediff1d``, ``polyval``, ``vander``,
``cross``, ``gradient`` and ``unwrap``, each NumPy's own arithmetic in NumPy's order (so the same roundings): the
trapezoid rule as ``(d * (y[1:] + y[:-1]) / 2.0).sum(axis)``, Horner's scheme from a
zero array of ``x``'s dtype, the Vandermonde columns as a running product, the cross
product's components as ``a1 * b2 - a2 * b1`` and its rotations.
"""
from __future__ import annotations

import operator

import numpy as np

from ..array.arraytype import ndarray, wrap
from ..array.conversion import to_node
from ..expr.shapes import normalize_axis
from .creation import ones, zeros
from .fallbacks import numpy_function
from .joining import concatenate, diff, stack
from .manipulation import broadcast_to, moveaxis, ravel
from .mathfuncs import where
from .reductions import cumprod, cumsum, sum as asum
from .ufuncs import call

__all__ = ["trapezoid", "ediff1d", "polyval", "vander", "cross", "gradient", "unwrap"]


def _lazy(a):
    return a if isinstance(a, ndarray) else wrap(to_node(a))


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integral of ``y`` by the trapezoid rule (``numpy.trapezoid``)."""
    y = _lazy(y)
    if x is None:
        d = dx
    else:
        x = _lazy(x)
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = d.reshape(tuple(shape))
        else:
            d = diff(x, axis=axis)
    nd = y.ndim
    later, earlier = [slice(None)] * nd, [slice(None)] * nd
    later[axis], earlier[axis] = slice(1, None), slice(None, -1)
    pairs = call(np.add, (y[tuple(later)], y[tuple(earlier)]))
    return asum(call(np.divide, (call(np.multiply, (d, pairs)), 2.0)), axis=axis)


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened array (``numpy.ediff1d``)."""
    ary = ravel(_lazy(ary))
    parts = []
    for name, extra in (("to_begin", to_begin), ("to_end", to_end)):
        if extra is None:
            parts.append(None)
            continue
        extra = _lazy(extra)
        if not np.can_cast(extra.dtype, ary.dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the "
                            "`same_kind` rule.")
        parts.append(ravel(extra).astype(ary.dtype))
    middle = call(np.subtract, (ary[1:], ary[:-1]))
    if parts[0] is None and parts[1] is None:
        return middle
    return concatenate([p for p in (parts[0], middle.astype(ary.dtype), parts[1]) if p is not None])


def polyval(p, x):
    """The polynomial with coefficients ``p`` (highest power first) at ``x`` (``numpy.polyval``)."""
    if isinstance(p, np.poly1d) or isinstance(x, np.poly1d):
        return _numpy_polyval(p, x)
    p = p if isinstance(p, ndarray) else np.asarray(p)
    x = _lazy(x)
    y = zeros(x.shape, x.dtype)
    for i in range(len(p)):
        y = call(np.add, (call(np.multiply, (y, x)), p[i]))
    return y


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of ``x`` (``numpy.vander``)."""
    x = _lazy(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = int(x.shape[0])
    N = n if N is None else operator.index(N)
    dtype = np.promote_types(x.dtype, int)
    columns = []
    if N > 0:
        columns.append(ones((n, 1), dtype))
    if N > 1:
        columns.append(cumprod(broadcast_to(x[:, None].astype(dtype), (n, N - 1)), axis=1))
    v = concatenate(columns, axis=1) if columns else zeros((n, 0), dtype)
    return v if increasing else v[:, ::-1]


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (``numpy.cross``; 2-vectors, deprecated in NumPy 2,
    run NumPy's as a counted fallback)."""
    if axis is not None:
        axisa, axisb, axisc = (axis,) * 3
    a, b = _lazy(a), _lazy(b)
    a = moveaxis(a, normalize_axis(axisa, a.ndim), -1)
    b = moveaxis(b, normalize_axis(axisb, b.ndim), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if a.shape[-1] != 3 or b.shape[-1] != 3:
        return _numpy_cross(a, b, axisc=axisc)
    dtype = np.promote_types(a.dtype, b.dtype)
    a0, a1, a2 = (a[..., i] for i in range(3))
    b0, b1, b2 = (b[..., i] for i in range(3))

    def component(p, q, r, s):
        return call(np.subtract, (call(np.multiply, (p, q)), call(np.multiply, (r, s)))).astype(dtype)
    cp = stack([component(a1, b2, a2, b1), component(a2, b0, a0, b2), component(a0, b1, a1, b0)],
               axis=-1)
    return moveaxis(cp, -1, normalize_axis(axisc, cp.ndim))


_numpy_polyval = numpy_function(np.polyval, "numpy.polyval")
_numpy_cross = numpy_function(np.cross, "numpy.cross")


def gradient(f, *varargs, axis=None, edge_order=1):
    """Second-order central differences inside, one-sided ones at the ends
    (``numpy.gradient``), with NumPy's coefficients and order of operations.  Coordinate
    arrays given as lazy arrays are read (a sync): whether they are evenly spaced decides
    NumPy's formula."""
    f = _lazy(f)
    n_dims = f.ndim
    axes = tuple(range(n_dims)) if axis is None else tuple(
        normalize_axis(a, n_dims) for a in (axis if np.iterable(axis) else (axis,)))
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    spacings = _spacings(f, axes, varargs)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype if f.dtype.kind == "f" else np.dtype(np.float64)
    if f.dtype.kind in "iub":
        f = f.astype(np.float64)
    results = [_gradient_along(f, ax, dx, edge_order, otype) for ax, dx in zip(axes, spacings)]
    return results[0] if len(results) == 1 else tuple(results)


def _spacings(f, axes, varargs) -> list:
    """NumPy's per-axis spacing: a number, or the differences of a coordinate array (a
    number again when they are all equal)."""
    if not varargs:
        return [1.0] * len(axes)
    if len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        return [varargs[0]] * len(axes)
    if len(varargs) != len(axes):
        raise TypeError("invalid number of arguments")
    out = []
    for ax, distances in zip(axes, varargs):
        distances = np.asarray(distances)
        if distances.ndim == 0:
            out.append(distances[()])
            continue
        if distances.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if len(distances) != f.shape[ax]:
            raise ValueError("when 1d, distances must match the length of the corresponding "
                             "dimension")
        if distances.dtype.kind in "iu":
            distances = distances.astype(np.float64)
        steps = np.diff(distances)
        out.append(steps[0] if (steps == steps[0]).all() else steps)
    return out


def _gradient_along(f, axis, dx, edge_order, otype):
    if f.shape[axis] < edge_order + 1:
        raise ValueError("Shape of array too small to calculate a numerical gradient, at "
                         "least (edge_order + 1) elements are required.")
    n_dims = f.ndim

    def at(index):
        key = [slice(None)] * n_dims
        key[axis] = index
        return f[tuple(key)]

    def mul(c, x):
        return call(np.multiply, (c, x))

    def add(*xs):
        total = xs[0]
        for x in xs[1:]:
            total = call(np.add, (total, x))
        return total

    def sub(x, y):
        return call(np.subtract, (x, y))

    def div(x, y):
        return call(np.divide, (x, y))

    uniform = np.ndim(dx) == 0
    if uniform:
        inside = div(sub(at(slice(2, None)), at(slice(None, -2))), 2.0 * dx)
    else:
        shape = [1] * n_dims
        shape[axis] = -1
        d1, d2 = dx[:-1], dx[1:]
        a = (-d2 / (d1 * (d1 + d2))).reshape(shape)
        b = ((d2 - d1) / (d1 * d2)).reshape(shape)
        c = (d1 / (d2 * (d1 + d2))).reshape(shape)
        inside = add(mul(a, at(slice(None, -2))), mul(b, at(slice(1, -1))), mul(c, at(slice(2, None))))
    if edge_order == 1:
        first = div(sub(at(slice(1, 2)), at(slice(0, 1))), dx if uniform else dx[0])
        last = div(sub(at(slice(-1, None)), at(slice(-2, -1))), dx if uniform else dx[-1])
    else:
        if uniform:
            a, b, c = -1.5 / dx, 2.0 / dx, -0.5 / dx
        else:
            d1, d2 = dx[0], dx[1]
            a, b, c = (-(2.0 * d1 + d2) / (d1 * (d1 + d2)), (d1 + d2) / (d1 * d2),
                       -d1 / (d2 * (d1 + d2)))
        first = add(mul(a, at(slice(0, 1))), mul(b, at(slice(1, 2))), mul(c, at(slice(2, 3))))
        if uniform:
            a, b, c = 0.5 / dx, -2.0 / dx, 1.5 / dx
        else:
            d1, d2 = dx[-2], dx[-1]
            a, b, c = (d2 / (d1 * (d1 + d2)), -(d2 + d1) / (d1 * d2),
                       (2.0 * d2 + d1) / (d2 * (d1 + d2)))
        last = add(mul(a, at(slice(-3, -2))), mul(b, at(slice(-2, -1))), mul(c, at(slice(-1, None))))
    pieces = [first.astype(otype), last.astype(otype)]
    if f.shape[axis] > 2:
        pieces.insert(1, inside.astype(otype))
    return concatenate(pieces, axis=axis)


def unwrap(p, discont=None, axis=-1, *, period=2 * np.pi):
    """Unwrap jumps of ``p`` larger than ``discont`` along ``axis`` by multiples of ``period``
    (``numpy.unwrap``: its steps, so its roundings and its boundary rule at period / 2)."""
    p = _lazy(p)
    axis = normalize_axis(axis, p.ndim)
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = np.result_type(dd.dtype, period if not isinstance(period, ndarray) else period.dtype)
    if np.issubdtype(dtype, np.integer):
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = call(np.remainder, (dd - interval_low, period)) + interval_low
    if boundary_ambiguous:
        ddmod = where((ddmod == interval_low) & (dd > 0), interval_high, ddmod).astype(ddmod.dtype)
    correction = ddmod - dd
    correction = where(call(np.absolute, (dd,)) < discont, 0, correction).astype(correction.dtype)
    body = [slice(None)] * p.ndim
    body[axis] = slice(1, None)
    body = tuple(body)
    up = p.astype(dtype, copy=True)
    up[body] = p[body] + cumsum(correction, axis=axis)
    return up
