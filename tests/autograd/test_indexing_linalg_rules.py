"""VJP rules of gathers and scatters (integer indexing, take, take_along_axis,
put_along_axis, fancy setitem with repeated indices, ufunc.at), matmul/dot/einsum/
tensordot, and sort (through the permutation)."""
import numpy as np
import pytest
from hypothesis import given

from tests import strategies as S
from tests.autograd.finite_differences import assert_gradients, lazy_gradients, weights

st = S.st


@given(rows=st.integers(1, 5), cols=st.integers(1, 4), rng=S.rngs())
def test_gathers_match_finite_differences(rows, cols, rng):
    x = S.uniform(rng, (rows, cols))
    idx = rng.integers(-rows, rows, size=(3, 2))        # repeats and negative indices
    along = rng.integers(0, cols, size=(rows, 5))
    across = rng.integers(-cols, cols, size=(2, 2))

    def fn(xp, x):
        w = np.arange(1.0, 7.0).reshape(3, 2, 1)
        return ((x[idx] * w).sum() + (xp.take(x, across, axis=1) ** 2).sum()
                + (xp.take_along_axis(x, along, axis=1) * 1.5).sum() + x[idx[:, 0], 0].sum())
    assert_gradients(fn, x, seed=int(rng.integers(1 << 30)))


@given(n=st.integers(2, 6), rng=S.rngs())
def test_scatters_match_finite_differences(n, rng):
    x = S.uniform(rng, (n, 3))
    v = S.uniform(rng, (4, 3))
    rows = rng.integers(0, n, size=4)                   # repeated rows: the last write wins
    cols = np.argsort(rng.random((n, 2)), axis=0)[:, :1].repeat(2, axis=1) % 3

    def fn(xp, x, v):
        y = x * 1.0
        y[rows] = v * v
        z = x * 2.0
        xp.put_along_axis(z, cols, v[:n, :2] if n <= 4 else xp.ones((n, 2)), axis=1)
        t = x * 1.0
        xp.add.at(t, rows, v)
        return (y * xp.cos(y)).sum() + (z ** 2).sum() + (t ** 3).sum()
    assert_gradients(fn, x, v, seed=int(rng.integers(1 << 30)))


def test_repeated_fancy_write_gives_the_gradient_to_the_last_value():
    x = np.zeros(3)
    v = np.array([1.0, 2.0, 3.0])

    def fn(xp, x, v):
        y = x * 1.0
        y[np.array([0, 0, 2])] = v
        return (y * np.array([5.0, 7.0, 11.0])).sum()
    gx, gv = lazy_gradients(fn, [x, v], [0, 1])
    np.testing.assert_array_equal(gx, [0, 7, 0])
    np.testing.assert_array_equal(gv, [0, 5, 11])


@st.composite
def matmul_shapes(draw):
    n, k, m = draw(st.integers(1, 4)), draw(st.integers(1, 4)), draw(st.integers(1, 4))
    batch_a, batch_b = draw(S.grad_broadcastable_shapes(max_dims=2, max_side=3))
    a = draw(st.sampled_from([(k,), batch_a + (n, k)]))
    b = draw(st.sampled_from([(k,), batch_b + (k, m)]))
    return a, b


@given(shapes=matmul_shapes(), rng=S.rngs())
def test_matmul_with_batches_and_vectors(shapes, rng):
    a, b = (S.uniform(rng, s) for s in shapes)
    w = weights(rng, np.matmul(a, b).shape)
    assert_gradients(lambda xp, a, b: (xp.matmul(a, b) * w).sum(), a, b, seed=int(rng.integers(1 << 30)))


EINSUMS = [("ij,jk->ik", [(2, 3), (3, 4)]), ("ii->i", [(3, 3)]), ("ii", [(3, 3)]),
           ("ij->", [(2, 3)]), ("i,j->ij", [(2,), (3,)]), ("...ij,...jk->...ik", [(2, 1, 2, 3), (4, 3, 2)]),
           ("ijk,ik->j", [(2, 3, 4), (2, 4)]), ("bi,bi->b", [(3, 1), (3, 4)])]


@pytest.mark.parametrize("spec,shapes", EINSUMS)
def test_einsum(spec, shapes):
    rng = np.random.default_rng(7)
    args = [S.uniform(rng, s) for s in shapes]
    w = weights(rng, np.einsum(spec, *args).shape)
    assert_gradients(lambda xp, *ops: (xp.einsum(spec, *ops) * w).sum(), *args)


def test_dot_and_tensordot():
    rng = np.random.default_rng(3)
    a, b = S.uniform(rng, (2, 3, 4)), S.uniform(rng, (4, 3, 2))
    assert_gradients(lambda xp, a, b: xp.tanh(xp.tensordot(a, b, axes=([1, 2], [1, 0]))).sum(), a, b)
    c, d = S.uniform(rng, (3, 4)), S.uniform(rng, (4,))
    assert_gradients(lambda xp, c, d: (xp.dot(c, d) ** 2).sum() + (c @ c.T).sum(), c, d)


@given(shape=S.grad_shapes(), rng=S.rngs())
def test_sort_through_the_permutation(shape, rng):
    x = S.uniform(rng, shape)
    axis = -1 if shape else None
    w = weights(rng, np.sort(x, axis=axis).shape)
    assert_gradients(lambda xp, x: (xp.sort(x, axis=axis) * w).sum(), x, seed=int(rng.integers(1 << 30)))
