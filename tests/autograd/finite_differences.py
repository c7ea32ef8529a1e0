"""Gradient checks against central finite differences, evaluated with NumPy.

A test function is written once as ``fn(xp, *args) -> scalar`` and runs with ``xp`` =
lazynum (differentiated by ``lazynum.grad``) and ``xp`` = numpy (the finite differences).
Each gradient is checked along random directions: ``<grad, v>`` against
``(f(x + eps v) - f(x - eps v)) / (2 eps)`` in float64, two evaluations per direction
instead of two per element.
"""
from __future__ import annotations

import numpy as np

import lazynum as lnp

EPS = 1e-6


def lazy_gradients(fn, args, argnums):
    grads = lnp.grad(lambda *a: fn(lnp, *a), argnums=tuple(argnums))(*args)
    return [np.asarray(lnp.sync(g)) for g in grads]


def directional(fn, args, index, direction, eps=EPS):
    plus, minus = list(args), list(args)
    plus[index] = args[index] + eps * direction
    minus[index] = args[index] - eps * direction
    return (float(fn(np, *plus)) - float(fn(np, *minus))) / (2 * eps)


def assert_gradients(fn, *args, argnums=None, seed=0, directions=2, rtol=1e-5, atol=1e-6):
    """lazynum's gradient of ``fn`` w.r.t. ``argnums`` (default: every float array)
    matches central differences along ``directions`` random directions."""
    args = [np.asarray(a, dtype=np.float64) if isinstance(a, float) else a for a in args]
    if argnums is None:
        argnums = [i for i, a in enumerate(args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    grads = lazy_gradients(fn, args, argnums)
    rng = np.random.default_rng(seed)
    for index, grad in zip(argnums, grads):
        assert grad.shape == np.shape(args[index]), (grad.shape, np.shape(args[index]))
        assert grad.dtype == args[index].dtype, (grad.dtype, args[index].dtype)
        assert np.all(np.isfinite(grad)), grad
        for _ in range(directions):
            direction = rng.standard_normal(np.shape(args[index]))
            expected = directional(fn, args, index, direction)
            got = float(np.sum(grad * direction))
            assert abs(got - expected) <= atol + rtol * abs(expected), \
                f"argument {index}: <grad, v> = {got!r}, finite differences {expected!r}"
    return grads


def weights(rng, shape):
    """Random weights for ``(f(x) * w).sum()``: the cotangent is not all ones."""
    return rng.standard_normal(shape)
