"""Benchmarks of reverse-mode autograd (issue 6): a loss and its gradient, one training step.

- ``logistic_gradient``: logistic-regression loss and gradient on X of 1,000,000 x 100
  float32 (100,000 rows with ``--quick``): lazynum ``value_and_grad`` against the gradient
  written by hand in NumPy and ``jax.jit(jax.value_and_grad(...))``.
- ``mlp_step``: one SGD step of a 2-layer MLP (784 -> 256 relu -> 10, softmax cross-entropy,
  float32): loss, gradients and the parameter update.

lazynum runs the logistic row's ``X @ w``, the row-wise derivative and ``X.T @ r`` by blocks of
rows (``compile/row_blocks``): one pass over X from memory where NumPy's two products make two.
The MLP row is bound by its two large products (``X @ W1``, ``X.T @ dH``), the same BLAS calls
in every column.

Each row checks the loss and every gradient against NumPy's hand-written ones.  lazynum's
timing is a whole step: tracing the forward function, building the backward graph, the
compile-cache lookup (a hit after the warm-up run) and computing, synced.
"""
from __future__ import annotations

import numpy

import lazynum

from .harness import Case, Impl

F32 = numpy.float32


def _flat(loss, grads) -> numpy.ndarray:
    """Loss and gradients summarized for the correctness check (relative, atol 0): each
    gradient's norm and its projections on two fixed random directions.  Comparing the
    entries themselves would fail on float32 rounding of entries that are almost zero."""
    parts = [float(loss)]
    for g in grads:
        g = numpy.asarray(g, dtype=numpy.float64)
        directions = numpy.random.default_rng(g.size).standard_normal((2,) + g.shape)
        parts += [float(numpy.linalg.norm(g))] + [float(numpy.sum(g * d)) for d in directions]
    return numpy.array(parts)


# ---------------------------------------------------------------------------------------------
# Logistic regression: loss = mean(log(1 + exp(z)) - y z), z = X w; grad = X^T (sigmoid(z) - y) / n

def _logistic_loss(xp, w, X, y):
    z = X @ w
    return xp.mean(xp.logaddexp(0.0, z) - y * z)


def _logistic_numpy(w, X, y):
    z = X @ w
    loss = numpy.mean(numpy.logaddexp(F32(0.0), z) - y * z)
    p = F32(1.0) / (F32(1.0) + numpy.exp(-z))
    return loss, (X.T @ (p - y)) / F32(len(y))


def _logistic_data(n, features=100):
    rng = numpy.random.default_rng(0)
    X = rng.standard_normal((n, features), dtype=F32)
    y = (X @ rng.standard_normal(features, dtype=F32) > 0).astype(F32)
    w = (rng.standard_normal(features, dtype=F32) * F32(0.1))
    return X, y, w


def logistic_gradient(peers, quick=False):
    n = 100_000 if quick else 1_000_000
    X, y, w = _logistic_data(n)
    loss, grad = _logistic_numpy(w, X, y)
    case = Case("autograd: logistic regression loss + gradient", f"{n}x100 f32", {},
                _flat(loss, [grad]), rtol=1e-4)
    case.impls["numpy"] = Impl(lambda: _logistic_numpy(w, X, y), value=lambda r: _flat(r[0], [r[1]]))
    lX, ly, lw = lazynum.asarray(X), lazynum.asarray(y), lazynum.asarray(w)
    step = lazynum.value_and_grad(lambda w: _logistic_loss(lazynum, w, lX, ly))

    def run_lazynum():
        value, gradient = step(lw)
        lazynum.sync(value, gradient)
        return value, gradient
    case.impls["lazynum"] = Impl(run_lazynum, value=lambda r: _flat(numpy.asarray(r[0]), [numpy.asarray(r[1])]))
    if "jax" in peers:
        jax = peers["jax"]
        f = jax.jit(jax.value_and_grad(lambda w, X, y: _logistic_loss(jax.numpy, w, X, y)))
        jw, jX, jy = (jax.device_put(a) for a in (w, X, y))

        def run_jax():
            value, gradient = f(jw, jX, jy)
            return value.block_until_ready(), gradient.block_until_ready()
        case.impls["jax"] = Impl(run_jax, value=lambda r: _flat(numpy.asarray(r[0]), [numpy.asarray(r[1])]))
    case.notes.append("logistic: numpy is the hand-written gradient (X.T @ (sigmoid(z) - y) / n); "
                      "lazynum and jax differentiate the loss function; lazynum reads X once "
                      "(row blocks), numpy twice.")
    return [case]


# ---------------------------------------------------------------------------------------------
# 2-layer MLP training step

LEARNING_RATE = 0.1
PARAMS = ("w1", "b1", "w2", "b2")


def _mlp_loss(xp, p, X, Y):
    h = xp.maximum(X @ p["w1"] + p["b1"], 0.0)
    logits = h @ p["w2"] + p["b2"]
    shifted = logits - logits.max(axis=1, keepdims=True)
    logp = shifted - xp.log(xp.exp(shifted).sum(axis=1, keepdims=True))
    return -(Y * logp).sum(axis=1).mean()


def _mlp_numpy_step(p, X, Y):
    """Forward, hand-written backward and the SGD update, in NumPy."""
    n = F32(len(X))
    pre = X @ p["w1"] + p["b1"]
    h = numpy.maximum(pre, F32(0.0))
    logits = h @ p["w2"] + p["b2"]
    shifted = logits - logits.max(axis=1, keepdims=True)
    e = numpy.exp(shifted)
    total = e.sum(axis=1, keepdims=True)
    loss = -(Y * (shifted - numpy.log(total))).sum(axis=1).mean()
    dlogits = (e / total - Y) / n
    dh = (dlogits @ p["w2"].T) * (pre >= 0)        # maximum's tie goes to its first operand
    grads = {"w1": X.T @ dh, "b1": dh.sum(axis=0), "w2": h.T @ dlogits, "b2": dlogits.sum(axis=0)}
    new = {k: p[k] - F32(LEARNING_RATE) * grads[k] for k in PARAMS}
    return loss, grads, new


def _mlp_data(n):
    rng = numpy.random.default_rng(1)
    X = rng.standard_normal((n, 784), dtype=F32)
    Y = numpy.eye(10, dtype=F32)[rng.integers(0, 10, n)]
    p = {"w1": rng.standard_normal((784, 256), dtype=F32) * F32(0.05), "b1": numpy.zeros(256, F32),
         "w2": rng.standard_normal((256, 10), dtype=F32) * F32(0.05), "b2": numpy.zeros(10, F32)}
    return X, Y, p


def _mlp_value(result):
    loss, grads, _ = result
    return _flat(numpy.asarray(loss), [numpy.asarray(grads[k]) for k in PARAMS])


def mlp_step(peers, quick=False):
    n = 1024 if quick else 8192
    X, Y, p = _mlp_data(n)
    case = Case("autograd: 2-layer MLP training step (784-256-10)", f"batch {n} f32", {},
                _mlp_value(_mlp_numpy_step(p, X, Y)), rtol=1e-4)
    case.impls["numpy"] = Impl(lambda: _mlp_numpy_step(p, X, Y), value=_mlp_value)
    lX, lY = lazynum.asarray(X), lazynum.asarray(Y)
    lp = {k: lazynum.asarray(v) for k, v in p.items()}
    value_and_grad = lazynum.value_and_grad(lambda q: _mlp_loss(lazynum, q, lX, lY))

    def run_lazynum():
        loss, grads = value_and_grad(lp)
        new = {k: lp[k] - LEARNING_RATE * grads[k] for k in PARAMS}
        lazynum.sync(loss, *grads.values(), *new.values())
        return loss, grads, new
    case.impls["lazynum"] = Impl(run_lazynum, value=_mlp_value)
    if "jax" in peers:
        jax = peers["jax"]

        @jax.jit
        def jax_step(q, X, Y):
            loss, grads = jax.value_and_grad(lambda q: _mlp_loss(jax.numpy, q, X, Y))(q)
            return loss, grads, {k: q[k] - LEARNING_RATE * grads[k] for k in PARAMS}
        jp = {k: jax.device_put(v) for k, v in p.items()}
        jX, jY = jax.device_put(X), jax.device_put(Y)
        case.impls["jax"] = Impl(lambda: jax.block_until_ready(jax_step(jp, jX, jY)), value=_mlp_value)
    case.notes.append("mlp: numpy is the hand-written backward pass; every column includes the "
                      "SGD update of the four parameters.")
    return [case]
