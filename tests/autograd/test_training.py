"""Training loops: the loss decreases, and each step (forward + backward + update) is one
program compiled at the first step and replayed from the cache afterwards."""
import numpy as np

import lazynum as lnp
from lazynum.runtime import compile_cache


def _train(step, params, steps):
    losses, compiles = [], []
    for _ in range(steps):
        loss, grads = step(params)
        params = {k: params[k] - 0.5 * grads[k] for k in params}
        losses.append(float(loss))          # the sync: computes loss, grads and new params
        compiles.append(lnp.metrics()["compiles"])
    return losses, compiles


def test_logistic_regression_loss_decreases_with_one_compiled_program():
    compile_cache.clear_memory()
    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 5))
    y = (X @ np.array([1.5, -2.0, 0.5, 0.0, 1.0]) > 0).astype(np.float64)
    Xl, yl = lnp.asarray(X), lnp.asarray(y)

    def loss(p):
        z = Xl @ p["w"] + p["b"]
        return lnp.mean(lnp.logaddexp(0.0, z) - yl * z)
    # parameters start as computed arrays (lnp.zeros would be pending: its creation would
    # be part of the first step's program only)
    params = {"w": lnp.asarray(np.zeros(5)), "b": lnp.asarray(0.0)}
    losses, compiles = _train(lnp.value_and_grad(loss), params, 25)
    assert abs(losses[0] - np.log(2.0)) < 1e-12
    assert losses[-1] < 0.5 * losses[0]
    assert all(b <= a + 1e-12 for a, b in zip(losses, losses[1:]))
    assert compiles[0] >= 1 and compiles[-1] == compiles[0], compiles


def test_mlp_loss_decreases_with_one_compiled_program():
    compile_cache.clear_memory()
    rng = np.random.default_rng(1)
    X = rng.standard_normal((64, 8)).astype(np.float32)
    labels = (X[:, 0] + X[:, 1] ** 2 > 1).astype(np.int64) + (X[:, 2] > 0.5)
    onehot = np.eye(3, dtype=np.float32)[labels]
    Xl, Yl = lnp.asarray(X), lnp.asarray(onehot)

    def loss(p):
        h = lnp.maximum(Xl @ p["w1"] + p["b1"], 0.0)
        logits = h @ p["w2"] + p["b2"]
        shifted = logits - logits.max(axis=1, keepdims=True)
        logp = shifted - lnp.log(lnp.exp(shifted).sum(axis=1, keepdims=True))
        return -(Yl * logp).sum(axis=1).mean()
    params = {"w1": lnp.asarray((rng.standard_normal((8, 16)) * 0.3).astype(np.float32)),
              "b1": lnp.asarray(np.zeros(16, dtype=np.float32)),
              "w2": lnp.asarray((rng.standard_normal((16, 3)) * 0.3).astype(np.float32)),
              "b2": lnp.asarray(np.zeros(3, dtype=np.float32))}
    losses, compiles = _train(lnp.value_and_grad(loss), params, 30)
    assert losses[-1] < 0.6 * losses[0], losses
    assert compiles[-1] == compiles[0], compiles


def test_gradients_match_hand_written_numpy():
    rng = np.random.default_rng(2)
    X, y, w = rng.standard_normal((50, 4)), (rng.random(50) > 0.5) * 1.0, rng.standard_normal(4)

    def loss(w):
        p = 1 / (1 + lnp.exp(-(X @ w)))
        return -lnp.mean(y * lnp.log(p) + (1 - y) * lnp.log(1 - p))
    p = 1 / (1 + np.exp(-(X @ w)))
    np.testing.assert_allclose(np.asarray(lnp.grad(loss)(w)), X.T @ (p - y) / 50, rtol=1e-10)


def test_new_batch_sizes_replay_the_same_program():
    compile_cache.clear_memory()
    rng = np.random.default_rng(3)
    w = lnp.asarray(rng.standard_normal(4))

    def loss(w, X, y):
        z = X @ w
        return lnp.mean(lnp.logaddexp(0.0, z) - y * z) + (w[1:] ** 2).sum()
    step = lnp.value_and_grad(loss)
    for n in (50, 80, 120, 33):
        X, y = rng.standard_normal((n, 4)), (rng.random(n) > 0.5) * 1.0
        value, g = step(w, lnp.asarray(X), lnp.asarray(y))
        lnp.sync(value, g)
        p = 1 / (1 + np.exp(-(X @ np.asarray(w))))
        expected = X.T @ (p - y) / n + np.r_[0.0, 2 * np.asarray(w)[1:]]
        np.testing.assert_allclose(np.asarray(g), expected, rtol=1e-10)
    assert lnp.metrics()["compiles"] == 1


def test_backward_pass_leaves_no_dead_nodes_in_the_pending_count():
    # A rule that built unused nodes (the matmul with the data matrix, an unused mask)
    # would make the pending count grow with every step until an automatic flush cut a
    # step's graph at a random line and compiled extra programs.
    from lazynum.expr import node as nodes
    compile_cache.clear_memory()
    rng = np.random.default_rng(4)
    X, y = lnp.asarray(rng.standard_normal((40, 3))), lnp.asarray((rng.random(40) > 0.5) * 1.0)

    def loss(p):
        z = X @ p["w"] + p["b"]
        h = lnp.where(z > 0, z, 0.1 * z)
        return lnp.mean(lnp.logaddexp(0.0, h) - y * h) + lnp.maximum(p["w"], 0.0).sum()
    params = {"w": lnp.asarray(np.zeros(3)), "b": lnp.asarray(0.0)}
    counts = []
    for _ in range(4):
        value, grads = lnp.value_and_grad(loss)(params)
        params = {k: params[k] - 0.1 * grads[k] for k in params}
        float(value)
        counts.append(nodes.pending_nodes)
    assert counts == sorted(counts, reverse=True) and lnp.metrics()["compiles"] == 1, counts
