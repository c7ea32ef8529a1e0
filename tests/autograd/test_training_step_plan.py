"""What a 2-layer MLP training step compiles to: the backward fused with the forward.

One program; BLAS reads transposed operands as views (no kernel copies data to transpose
it); each bias gradient is one column reduction reading its cotangent once; the handful
of kernels between the products; values against a hand-written NumPy backward.
"""
from __future__ import annotations

import numpy as np

import lazynum as lnp
from lazynum.compile.kernel_ir import walk_phases
from lazynum.compile.plan import ExternStep, KernelStep

from ..compile.llvm_harness import on_llvm

F32 = np.float32
LEARNING_RATE = F32(0.1)


def _loss(xp, p, X, Y):
    h = xp.maximum(X @ p["w1"] + p["b1"], 0.0)
    logits = h @ p["w2"] + p["b2"]
    shifted = logits - logits.max(axis=1, keepdims=True)
    logp = shifted - xp.log(xp.exp(shifted).sum(axis=1, keepdims=True))
    return -(Y * logp).sum(axis=1).mean()


def _numpy_gradients(p, X, Y):
    pre = X @ p["w1"] + p["b1"]
    h = np.maximum(pre, 0)
    logits = h @ p["w2"] + p["b2"]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    dlogits = (e / e.sum(axis=1, keepdims=True) - Y) / len(X)
    dh = (dlogits @ p["w2"].T) * (pre >= 0)
    return {"w1": X.T @ dh, "b1": dh.sum(axis=0), "w2": h.T @ dlogits, "b2": dlogits.sum(axis=0)}


def _data(n=300, d=20, hidden=12, classes=4):
    rng = np.random.default_rng(5)
    X = rng.standard_normal((n, d)).astype(F32)
    Y = np.eye(classes, dtype=F32)[rng.integers(0, classes, n)]
    p = {"w1": (rng.standard_normal((d, hidden)) * 0.3).astype(F32),
         "b1": (rng.standard_normal(hidden) * 0.1).astype(F32),
         "w2": (rng.standard_normal((hidden, classes)) * 0.3).astype(F32),
         "b2": np.zeros(classes, F32)}
    return X, Y, p


def _is_copy(kernel) -> bool:
    """A kernel that only moves data (loads stored unchanged): a transposed copy, say."""
    return all(stmt.op in ("load", "const", "index", "cast") for phase in walk_phases(kernel.phases)
               for stmt in phase.body) and not any(p.reductions for p in kernel.phases)


def test_mlp_training_step_is_one_program_with_blas_reading_views():
    X, Y, p = _data()
    lX, lY = lnp.asarray(X), lnp.asarray(Y)
    lp = {k: lnp.asarray(v) for k, v in p.items()}
    with on_llvm() as programs:
        loss, grads = lnp.value_and_grad(lambda q: _loss(lnp, q, lX, lY))(lp)
        new = {k: lp[k] - LEARNING_RATE * grads[k] for k in p}
        lnp.sync(loss, *grads.values(), *new.values())
    (program,) = programs
    matmuls = [s for s in program.steps if isinstance(s, ExternStep) and s.op.name == "matmul"]
    # forward: X @ w1, h @ w2; backward: dlogits @ w2.T, h.T @ dlogits, X.T @ dh (no dX)
    assert len(matmuls) == 5
    externs = {s.op.name for s in program.steps if isinstance(s, ExternStep)}
    assert externs <= {"matmul", "view"}, externs
    kernels = {k.name: k for k in program.kernels_ir}
    assert not [name for name, k in kernels.items() if _is_copy(k)]
    # the transposed operands (w2.T, h.T, X.T) are NumPy views BLAS reads in place
    views = {s.out for s in program.steps if isinstance(s, ExternStep) and s.op.name == "view"}
    assert sum(arg in views for step in matmuls[2:] for arg in step.args) >= 3
    # each bias gradient: a column reduction of its cotangent, one phase, one loop over rows
    column_sums = {name for name, k in kernels.items()
                   if len(k.outer) == 1 and len(k.phases[0].inner) == 1
                   and any(r.combine == "add" for r in k.phases[0].reductions)
                   and k.phases[0].inner[0].extent != k.outer[0].extent}
    launches = [s for s in program.steps if isinstance(s, KernelStep) and s.name in column_sums]
    assert len(launches) == 2, program.describe()
    assert program.kernel_count <= 8, program.describe()
    expected = _numpy_gradients(p, X, Y)
    for k in p:
        np.testing.assert_allclose(np.asarray(grads[k]), expected[k], rtol=2e-4, atol=2e-6)
        np.testing.assert_allclose(np.asarray(new[k]), p[k] - LEARNING_RATE * expected[k],
                                   rtol=2e-4, atol=2e-6)
    assert np.asarray(grads["w1"]).dtype == np.float32
