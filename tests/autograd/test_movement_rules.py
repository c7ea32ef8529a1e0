"""VJP rules of views and data movement: slicing with steps, transposes, reshapes,
broadcasts, concatenate/stack/split, pad, tile, repeat, flip, roll, diagonal, and writes
(setitem, in-place operators) through the functionalized storage versions."""
import numpy as np
import pytest
from hypothesis import given

from tests import strategies as S
from tests.autograd.finite_differences import assert_gradients, lazy_gradients, weights

st = S.st


def _weighted(fn, out_shape, rng):
    w = weights(rng, out_shape)
    return lambda xp, *args: (fn(xp, *args) * w).sum()


MOVES = {
    "strided slice": lambda xp, x: x[::2, 1::3],
    "negative step": lambda xp, x: x[::-1, ::-2],
    "transpose": lambda xp, x: x.T,
    "reshape": lambda xp, x: x.reshape(-1),
    "reshape of transpose": lambda xp, x: x.T.reshape(x.shape[1], -1),
    "broadcast_to": lambda xp, x: xp.broadcast_to(x[:, :1], (2,) + x.shape),
    "concatenate": lambda xp, x: xp.concatenate([x, x[:1] * 2, x], axis=0),
    "stack": lambda xp, x: xp.stack([x, x * x], axis=1),
    "split": lambda xp, x: xp.split(x, [1, 2], axis=1)[1] * xp.split(x, [1, 2], axis=1)[2].sum(),
    "pad": lambda xp, x: xp.pad(x, ((1, 2), (0, 1)), mode="reflect"),
    "tile": lambda xp, x: xp.tile(x, (2, 3)),
    "repeat": lambda xp, x: xp.repeat(x, 2, axis=1),
    "flip": lambda xp, x: xp.flip(x),
    "roll": lambda xp, x: xp.roll(x, 2, axis=1),
    "diagonal": lambda xp, x: xp.diagonal(x),
    "moveaxis and expand": lambda xp, x: xp.moveaxis(x[:, :, None], 0, -1),
    "triu": lambda xp, x: xp.triu(x),
}


@pytest.mark.parametrize("name", sorted(MOVES))
@given(rows=st.integers(2, 5), cols=st.integers(3, 5), rng=S.rngs())
def test_views_and_movement_match_finite_differences(name, rows, cols, rng):
    x = S.uniform(rng, (rows, cols))
    move = MOVES[name]
    fn = _weighted(move, move(np, x).shape, rng)
    assert_gradients(fn, x, seed=int(rng.integers(1 << 30)))


def test_broadcast_views_accumulate():
    # a broadcast reads each element several times: the copies' cotangents are summed
    x = np.arange(6.0)
    (g,) = lazy_gradients(lambda xp, x: xp.broadcast_to(x, (4, 6)).sum() + x[1:].sum(), [x], [0])
    np.testing.assert_array_equal(g, [4, 5, 5, 5, 5, 5])


def test_overlapping_windows_scatter_add_back():
    # a strided view that reads elements more than once without a broadcast (sliding
    # windows): its cotangent goes back through scatter_add
    import lazynum as lnp
    from lazynum.array.arraytype import wrap
    from lazynum.expr import node as nodes
    from lazynum.expr.movement import VIEW

    def windows(x):
        return wrap(nodes.apply(VIEW, (x._n(),), ((4, 3), (1, 1), 0)))
    w = np.arange(12.0).reshape(4, 3)
    g = lnp.grad(lambda x: (windows(lnp.sin(x)) * w).sum())(np.linspace(0, 1, 6))
    expected = np.zeros(6)
    for i in range(4):
        expected[i:i + 3] += w[i]
    np.testing.assert_allclose(np.asarray(g), expected * np.cos(np.linspace(0, 1, 6)))


def test_setitem_and_inplace_updates_through_storage_versions():
    def update(xp, x, v):
        y = x * 1.0
        y[1:3] = v * 2          # overwritten: x's gradient there is zero
        y[::2] *= y[::2]        # in place, through a strided view
        y += x[::-1]
        return (y ** 2).sum()
    x = np.array([0.5, -1.0, 2.0, 1.5, -0.7])
    v = np.array([0.3, -0.4])
    assert_gradients(update, x, v)


@given(rng=S.rngs())
def test_view_of_view_write_chain(rng):
    x = S.uniform(rng, (4, 6))

    def fn(xp, x):
        y = xp.zeros((4, 6))
        y[:, ::2] = xp.sin(x[:, 1::2])
        z = y.T
        z[1] = z[1] + x[:, 0]
        return (y * y).sum() + (z[::-1] * x.T).sum()
    assert_gradients(fn, x, seed=int(rng.integers(1 << 30)))
