"""A loss and its gradient over a tall matrix in one pass over it (``compile.row_blocks``).

``z = X @ w``, row-wise work, ``X.T @ r``: the plan groups the two products and the kernels
between them, and the llvm program runs the group by blocks of rows (``backends/llvm/
row_blocked``), so each block of ``X`` is read from memory once.  The tests shrink the
block to a few rows so small arrays cross many blocks, and check the values against
hand-written NumPy gradients, that the group ran blocked, and where grouping must not
happen.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import lazynum as lnp
from lazynum.backends.llvm import blas_threads, row_blocked
from lazynum.compile.plan import ExternStep, KernelStep

from ..compile.llvm_harness import on_llvm

RNG = np.random.default_rng(11)
# Rows for tests outside grad: more than a small-array tier would compute at once, so the
# products stay lazy and meet in one program.
TALL = 5000


@pytest.fixture
def blocked_runs(monkeypatch):
    """Blocks of 16 rows (whatever X's width, however small X), and a list of each group
    run's result."""
    runs = []
    original = row_blocked.run_group

    def spy(*args):
        done = original(*args)
        runs.append(done)
        return done
    monkeypatch.setattr(row_blocked, "BLOCK_BYTES", 1)
    monkeypatch.setattr(row_blocked, "MIN_BLOCK_ROWS", 16)
    monkeypatch.setattr(row_blocked, "MIN_X_BYTES", 0)
    monkeypatch.setattr(row_blocked, "run_group", spy)
    return runs


def _logistic(xp, w, X, y):
    z = X @ w
    return xp.mean(xp.logaddexp(0.0, z) - y * z)


def _logistic_numpy_gradient(w, X, y):
    z = X @ w
    return X.T @ (1.0 / (1.0 + np.exp(-z)) - y) / len(y)


def _data(n, k, dtype=np.float64):
    X = RNG.standard_normal((n, k)).astype(dtype)
    y = (RNG.random(n) > 0.5).astype(dtype)
    w = (0.3 * RNG.standard_normal(k)).astype(dtype)
    return X, y, w


@pytest.mark.parametrize("threads", [1, 2])      # the blocks on one thread, or in parts
@pytest.mark.parametrize("n", [16 * 7, 16 * 7 + 5])     # whole blocks and a ragged last one
def test_logistic_gradient_runs_blocked_with_numpy_values(blocked_runs, n, threads):
    X, y, w = _data(n, 6)
    lX, ly = lnp.asarray(X), lnp.asarray(y)
    with on_llvm() as programs, lnp.config(threads=threads):
        value, grad = lnp.value_and_grad(lambda v: _logistic(lnp, v, lX, ly))(lnp.asarray(w))
        lnp.sync(value, grad)
    (program,) = programs
    (first, last), = program.row_blocks
    group = program.steps[first:last + 1]
    assert [s.op.name for s in (group[0], group[-1])] == ["matmul", "matmul"]
    # only the gradient's row-wise kernel sits between the products; the loss's sum over
    # all of z runs after the group
    assert sum(isinstance(s, KernelStep) for s in group) == 1
    assert any(isinstance(s, KernelStep) for s in program.steps[last + 1:])
    assert blocked_runs == [True]
    np.testing.assert_allclose(float(value), float(_logistic(np, w, X, y)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(grad), _logistic_numpy_gradient(w, X, y),
                               rtol=1e-10, atol=1e-14)
    assert np.asarray(grad).dtype == np.float64 and np.asarray(grad).shape == (6,)


def test_float32_training_steps_replay_the_blocked_program(blocked_runs):
    X, y, w = _data(200, 5, np.float32)
    lX, ly = lnp.asarray(X), lnp.asarray(y)
    step = lnp.value_and_grad(lambda v: _logistic(lnp, v, lX, ly))
    params, expected = lnp.asarray(w), w
    with on_llvm() as programs:
        for _ in range(3):
            _, grad = step(params)
            params = params - np.float32(0.5) * grad
            lnp.sync(params)
            expected = expected - np.float32(0.5) * _logistic_numpy_gradient(expected, X, y)
    assert len(programs) == 1 and blocked_runs == [True, True, True]
    assert np.asarray(params).dtype == np.float32
    np.testing.assert_allclose(np.asarray(params), expected, rtol=1e-5, atol=1e-6)


def test_vector_times_matrix_form_is_blocked(blocked_runs):
    X, _, w = _data(TALL, 4)
    with on_llvm() as programs:
        lX = lnp.asarray(X)
        out = np.asarray(lnp.tanh(lX @ lnp.asarray(w)) @ lX)
    assert programs[-1].row_blocks and blocked_runs == [True]
    np.testing.assert_allclose(out, np.tanh(X @ w) @ X, rtol=1e-12)


def test_row_work_that_needs_all_rows_is_not_blocked(blocked_runs):
    # r = softmax(z): each row needs the sum over every row of z, known only at the end
    X, _, w = _data(TALL, 4)
    with on_llvm() as programs:
        lX = lnp.asarray(X)
        e = lnp.exp(lX @ lnp.asarray(w))
        out = np.asarray(lX.T @ (e / e.sum()))
    assert programs[-1].row_blocks == () and blocked_runs == []
    e = np.exp(X @ w)
    np.testing.assert_allclose(out, X.T @ (e / e.sum()), rtol=1e-12)


def test_too_few_rows_for_two_blocks_runs_the_steps_in_order(blocked_runs):
    X, y, w = _data(20, 3)
    lX, ly = lnp.asarray(X), lnp.asarray(y)
    with on_llvm() as programs:
        grad = np.asarray(lnp.grad(lambda v: _logistic(lnp, v, lX, ly))(lnp.asarray(w)))
    assert programs[-1].row_blocks and blocked_runs == [False]
    np.testing.assert_allclose(grad, _logistic_numpy_gradient(w, X, y), rtol=1e-10, atol=1e-14)


def test_floating_point_warnings_of_blocked_kernels_are_numpys(blocked_runs):
    X, _, w = _data(TALL, 3)
    X[40] = 1e3                                      # exp overflows on one row
    with on_llvm():
        lX = lnp.asarray(X)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = np.asarray(lX.T @ lnp.exp(lX @ lnp.asarray(np.abs(w))))
    with warnings.catch_warnings(record=True) as expected_warnings:
        warnings.simplefilter("always")
        expected = X.T @ np.exp(X @ np.abs(w))
    assert blocked_runs == [True]
    assert [str(c.message) for c in caught] == [str(c.message) for c in expected_warnings]
    np.testing.assert_array_equal(np.isinf(out), np.isinf(expected))


def test_a_stored_program_runs_its_group_blocked_again(blocked_runs):
    X, y, w = _data(200, 3)
    lX, ly = lnp.asarray(X), lnp.asarray(y)
    with on_llvm() as programs:
        grad = np.asarray(lnp.grad(lambda v: _logistic(lnp, v, lX, ly))(lnp.asarray(w)))
    import lazynum.backends.llvm as llvm_backend
    program = programs[-1]
    loaded = llvm_backend.load(program.to_bytes())
    assert loaded.row_blocks == program.row_blocks != ()
    assert all(isinstance(s, (ExternStep, KernelStep)) for s in loaded.steps)
    inputs, sizes = program.last_call
    outputs = loaded.run(inputs, sizes)
    assert blocked_runs == [True, True]
    assert any(np.array_equal(np.asarray(out).reshape(grad.shape), grad)
               for out in outputs if np.size(out) == grad.size)


@pytest.mark.skipif(blas_threads.set_local is None, reason="NumPy's BLAS is not OpenBLAS")
def test_blas_thread_count_is_restored_after_a_parallel_group(blocked_runs):
    before = blas_threads.set_local(3)
    try:
        X, y, w = _data(200, 4)
        lX, ly = lnp.asarray(X), lnp.asarray(y)
        with on_llvm(), lnp.config(threads=2):
            lnp.sync(lnp.grad(lambda v: _logistic(lnp, v, lX, ly))(lnp.asarray(w)))
        assert blocked_runs == [True]
        assert blas_threads.set_local(3) == 3
    finally:
        blas_threads.set_local(before)


def _softmax_regression(xp, W, X, Y):
    z = X @ W
    z = z - z.max(axis=1, keepdims=True)
    return -(Y * (z - xp.log(xp.exp(z).sum(axis=1, keepdims=True)))).sum() / len(X)


@pytest.mark.parametrize("threads", [1, 2])
def test_softmax_regression_gradient_runs_blocked_with_numpy_values(blocked_runs, threads):
    n, k, c = 16 * 9 + 3, 5, 4
    X = RNG.standard_normal((n, k))
    Y = np.eye(c)[RNG.integers(0, c, n)]
    W = 0.3 * RNG.standard_normal((k, c))
    lX, lY = lnp.asarray(X), lnp.asarray(Y)
    with on_llvm() as programs, lnp.config(threads=threads):
        value, grad = lnp.value_and_grad(lambda v: _softmax_regression(lnp, v, lX, lY))(
            lnp.asarray(W))
        lnp.sync(value, grad)
    assert programs[-1].row_blocks and blocked_runs == [True]
    z = X @ W
    e = np.exp(z - z.max(axis=1, keepdims=True))
    expected = X.T @ (e / e.sum(axis=1, keepdims=True) - Y) / n
    np.testing.assert_allclose(float(value), float(_softmax_regression(np, W, X, Y)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(grad), expected, rtol=1e-9, atol=1e-13)


def test_row_work_reading_another_row_is_not_blocked(blocked_runs):
    X, _, w = _data(TALL, 4)
    with on_llvm() as programs:
        lX = lnp.asarray(X)
        z = lX @ lnp.asarray(w)
        out = np.asarray(lX.T @ (z * lnp.roll(z, 1)))
    assert programs[-1].row_blocks == () and blocked_runs == []
    z = X @ w
    np.testing.assert_allclose(out, X.T @ (z * np.roll(z, 1)), rtol=1e-12)


def test_a_matrix_that_fits_in_cache_runs_unblocked(blocked_runs, monkeypatch):
    monkeypatch.setattr(row_blocked, "MIN_X_BYTES", 1 << 20)
    X, y, w = _data(200, 4)                          # 6.4 kB
    lX, ly = lnp.asarray(X), lnp.asarray(y)
    with on_llvm() as programs:
        grad = np.asarray(lnp.grad(lambda v: _logistic(lnp, v, lX, ly))(lnp.asarray(w)))
    assert programs[-1].row_blocks and blocked_runs == [False]
    np.testing.assert_allclose(grad, _logistic_numpy_gradient(w, X, y), rtol=1e-10, atol=1e-14)
