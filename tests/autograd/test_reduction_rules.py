"""VJP rules of reductions and scans (sum, prod, max/min incl. ties and NaN, mean/var/std
through their decomposition, cumsum/cumprod incl. zeros, logsumexp patterns)."""
import numpy as np
import pytest
from hypothesis import given

from tests import strategies as S
from tests.autograd.finite_differences import assert_gradients, lazy_gradients, weights

st = S.st

REDUCTIONS = ("sum", "prod", "max", "min", "mean", "var", "std", "nanmax", "nanmin")


@st.composite
def reduction_cases(draw):
    shape = draw(S.grad_shapes())
    axis = draw(S.axes_for(len(shape)))
    return shape, axis, draw(st.booleans()), draw(S.rngs())


@pytest.mark.parametrize("name", REDUCTIONS)
@given(case=reduction_cases())
def test_reductions_match_finite_differences(name, case):
    shape, axis, keepdims, rng = case
    x = S.uniform(rng, shape, 0.5, 2.0) if name == "prod" else S.uniform(rng, shape)
    out_shape = getattr(np, name)(x, axis=axis, keepdims=keepdims).shape
    w = weights(rng, out_shape)
    if name == "std" and x.size // np.prod(out_shape, dtype=int) < 2:
        return                        # std of one element is sqrt(0): no derivative there
    assert_gradients(lambda xp, x: (getattr(xp, name)(x, axis=axis, keepdims=keepdims) * w).sum(), x,
                     seed=int(rng.integers(1 << 30)))


def test_max_min_share_ties_evenly_and_nan_takes_the_gradient():
    x = np.array([[1.0, 3.0, 3.0], [2.0, np.nan, 5.0]])
    (g,) = lazy_gradients(lambda xp, x: xp.max(x, axis=1).sum(), [x], [0])
    np.testing.assert_array_equal(g, [[0, 0.5, 0.5], [0, 1, 0]])
    (g,) = lazy_gradients(lambda xp, x: xp.nanmin(x, axis=1).sum(), [x], [0])
    np.testing.assert_array_equal(g, [[1, 0, 0], [1, 0, 0]])


def test_prod_with_zeros_is_exact():
    x = np.array([[0.0, 3.0, 2.0], [0.0, 0.0, 4.0], [1.0, 2.0, 5.0]])
    (g,) = lazy_gradients(lambda xp, x: xp.prod(x, axis=1).sum(), [x], [0])
    np.testing.assert_array_equal(g, [[6, 0, 0], [0, 0, 0], [10, 5, 2]])


@given(shape=S.grad_shapes(), rng=S.rngs(), data=st.data())
def test_scans_match_finite_differences(shape, rng, data):
    axis = data.draw(st.none() | st.integers(-max(len(shape), 1), max(len(shape), 1) - 1))
    x = S.uniform(rng, shape, 0.5, 1.5) * rng.choice([-1.0, 1.0], size=shape)
    w = weights(rng, np.cumsum(x, axis=axis).shape)
    assert_gradients(lambda xp, x: (xp.cumsum(x, axis=axis) * w).sum() + (xp.cumprod(x, axis=axis) * w).sum(),
                     x, seed=int(rng.integers(1 << 30)))


def test_cumprod_through_zeros():
    x = np.array([2.0, 0.0, 3.0, 0.0, 5.0])
    w = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    (g,) = lazy_gradients(lambda xp, x: (xp.cumprod(x) * w).sum(), [x], [0])
    expected = [w[0], w[1] * 2 + w[2] * 6, 0.0, 0.0, 0.0]   # d/dx1 = x0 (w1 + w2 x2)
    np.testing.assert_array_equal(g, expected)
    assert_gradients(lambda xp, x: (xp.cumprod(x) * w).sum(), np.array([2.0, 0.0, 3.0, 1.5, 5.0]))


@given(shape=S.grad_shapes(), rng=S.rngs())
def test_logsumexp_and_softmax_patterns(shape, rng):
    x = S.uniform(rng, shape, -3, 3)
    axis = -1 if shape else None

    def logsumexp(xp, x):
        top = xp.max(x, axis=axis, keepdims=True)
        return (xp.log(xp.exp(x - top).sum(axis=axis)) + xp.squeeze(top, axis=axis)).sum()

    def softmax_entropy(xp, x):
        e = xp.exp(x - x.max(axis=axis, keepdims=True))
        p = e / e.sum(axis=axis, keepdims=True)
        return -(p * xp.log(p)).sum()
    assert_gradients(logsumexp, x)
    assert_gradients(softmax_entropy, x)


def test_exact_known_gradients():
    x = np.array([1.0, -2.0, 3.0])
    (g,) = lazy_gradients(lambda xp, x: (x * x).sum(), [x], [0])
    np.testing.assert_array_equal(g, 2 * x)
    (g,) = lazy_gradients(lambda xp, x: x.mean(), [x], [0])
    np.testing.assert_allclose(g, np.full(3, 1 / 3))
    (g,) = lazy_gradients(lambda xp, x: x.var(), [x], [0])
    np.testing.assert_allclose(g, 2 * (x - x.mean()) / 3)
