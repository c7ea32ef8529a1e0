"""VJP rules of the elementwise primitives (every differentiable ufunc, cast, select)
against central finite differences, on random shapes with broadcasting and size-1 dims."""
import numpy as np
import pytest
from hypothesis import given

from tests import strategies as S
from tests.autograd.finite_differences import assert_gradients, lazy_gradients, weights

st = S.st

# name -> domain the finite differences see as smooth (kinks and poles stay away)
UNARY = {
    "negative": (-2, 2), "positive": (-2, 2), "conjugate": (-2, 2), "exp": (-2, 2),
    "exp2": (-2, 2), "expm1": (-2, 2), "log": (0.1, 3), "log2": (0.1, 3), "log10": (0.1, 3),
    "log1p": (-0.5, 2), "sqrt": (0.1, 3), "cbrt": (0.1, 3), "square": (-2, 2),
    "reciprocal": (0.2, 3), "sin": (-3, 3), "cos": (-3, 3), "tan": (-1.2, 1.2),
    "arcsin": (-0.9, 0.9), "arccos": (-0.9, 0.9), "arctan": (-3, 3), "sinh": (-2, 2),
    "cosh": (-2, 2), "tanh": (-2, 2), "arcsinh": (-3, 3), "arccosh": (1.1, 3),
    "arctanh": (-0.9, 0.9), "deg2rad": (-9, 9), "rad2deg": (-2, 2), "degrees": (-2, 2),
    "radians": (-9, 9), "absolute": (0.1, 2), "fabs": (0.1, 2),
}
SIGNED = {"absolute", "fabs"}          # drawn on both sides of the kink at 0

# name -> (domain of a, domain of b); "signed" b: |b| in the domain, either sign
BINARY = {
    "add": ((-2, 2), (-2, 2)), "subtract": ((-2, 2), (-2, 2)), "multiply": ((-2, 2), (-2, 2)),
    "divide": ((-2, 2), "signed"), "power": ((0.5, 2), (-2, 2)), "float_power": ((0.5, 2), (-2, 2)),
    "maximum": ((-2, 2), (-2, 2)), "minimum": ((-2, 2), (-2, 2)), "fmax": ((-2, 2), (-2, 2)),
    "fmin": ((-2, 2), (-2, 2)), "arctan2": ((-2, 2), (-2, 2)), "hypot": ((-2, 2), (-2, 2)),
    "logaddexp": ((-2, 2), (-2, 2)), "logaddexp2": ((-2, 2), (-2, 2)),
    "remainder": ((-5, 5), "signed"), "fmod": ((-5, 5), "signed"), "copysign": ((0.2, 2), (-2, 2)),
}
ZERO_GRADIENT_UNARY = ("sign", "floor", "ceil", "trunc", "rint", "spacing")


def _draw(rng, shape, domain):
    if domain == "signed":
        return S.uniform(rng, shape, 0.5, 2.0) * rng.choice([-1.0, 1.0], size=shape)
    return S.uniform(rng, shape, *domain)


@pytest.mark.parametrize("name", sorted(UNARY))
@given(shape=S.grad_shapes(), rng=S.rngs())
def test_unary_rules_match_finite_differences(name, shape, rng):
    x = S.uniform(rng, shape, *UNARY[name])
    if name in SIGNED:
        x = x * rng.choice([-1.0, 1.0], size=shape)
    w = weights(rng, shape)
    assert_gradients(lambda xp, x: (getattr(xp, name)(x) * w).sum(), x, seed=int(rng.integers(1 << 30)))


@pytest.mark.parametrize("name", sorted(BINARY))
@given(shapes=S.grad_broadcastable_shapes(), rng=S.rngs())
def test_binary_rules_match_finite_differences_with_broadcasting(name, shapes, rng):
    a, b = (_draw(rng, s, domain) for s, domain in zip(shapes, BINARY[name]))
    w = weights(rng, np.broadcast_shapes(*shapes))
    assert_gradients(lambda xp, a, b: (getattr(xp, name)(a, b) * w).sum(), a, b,
                     seed=int(rng.integers(1 << 30)))


@pytest.mark.parametrize("name", ZERO_GRADIENT_UNARY)
def test_piecewise_constant_ops_give_exact_zero_gradients(name):
    x = np.array([-1.5, -0.2, 0.3, 2.7])
    (g,) = lazy_gradients(lambda xp, x: (getattr(xp, name)(x) * x).sum(), [x], [0])
    np.testing.assert_array_equal(g, getattr(np, name)(x))   # only the product's other factor


def test_zero_gradient_binary_ops():
    a, b = np.array([1.5, -2.5, 3.0]), np.array([0.7, 0.9, -1.1])
    grads = lazy_gradients(lambda xp, a, b: (xp.floor_divide(a, b) + xp.nextafter(a, b)
                                            - xp.nextafter(a, b)).sum(), [a, b], [0, 1])
    for g in grads:
        np.testing.assert_array_equal(g, np.zeros(3))


def test_multi_output_ufuncs():
    x = np.array([1.25, -2.5, 3.75, 0.3])
    y = np.array([0.7, 0.9, -1.1, 2.0])
    assert_gradients(lambda xp, x: (xp.modf(x)[0] * 3 + xp.modf(x)[1]).sum(), x)
    assert_gradients(lambda xp, x: (xp.frexp(x)[0] ** 2).sum(), x)
    assert_gradients(lambda xp, x, y: (xp.divmod(x, y)[1] ** 2).sum(), x, y)


def test_ldexp_and_heaviside():
    x = np.array([1.25, -2.5, 0.0, 0.3])
    n = np.array([1, -2, 3, 0])
    (g,) = lazy_gradients(lambda xp, x: (xp.ldexp(x, n) * x).sum(), [x], [0])
    np.testing.assert_allclose(g, 2 * x * 2.0 ** n)
    h = np.array([0.5, 0.5, 0.25, 0.5])
    (g,) = lazy_gradients(lambda xp, h: (xp.heaviside(x, h) * 3).sum(), [h], [0])
    np.testing.assert_array_equal(g, [0, 0, 3, 0])          # only where x == 0


def test_maximum_minimum_ties_go_to_the_first_operand():
    a = np.array([1.0, 2.0, 3.0, np.nan])
    b = np.array([1.0, 5.0, 0.0, 1.0])
    ga, gb = lazy_gradients(lambda xp, a, b: xp.maximum(a, b).sum(), [a, b], [0, 1])
    np.testing.assert_array_equal(ga, [1, 0, 1, 1])          # NaN propagates from a
    np.testing.assert_array_equal(gb, [0, 1, 0, 0])
    ga, gb = lazy_gradients(lambda xp, a, b: xp.fmin(a, b).sum(), [a, b], [0, 1])
    np.testing.assert_array_equal(ga, [1, 1, 0, 0])          # fmin ignores the NaN
    np.testing.assert_array_equal(gb, [0, 0, 1, 1])


@given(shape=S.grad_shapes(), rng=S.rngs())
def test_select_cast_and_float32(shape, rng):
    x, y = S.uniform(rng, shape), S.uniform(rng, shape)
    cond = rng.random(shape) > 0.5
    assert_gradients(lambda xp, x, y: (xp.where(cond, xp.sin(x), y * y) * x).sum(), x, y)
    (g,) = lazy_gradients(lambda xp, x: (x.astype(xp.float32) * 3).astype(xp.float64).sum(), [x], [0])
    np.testing.assert_array_equal(g, np.full(shape, 3.0))        # cast back to float64
    (g,) = lazy_gradients(lambda xp, x: (xp.tanh(x) * 2).sum(), [x.astype(np.float32)], [0])
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, 2 * (1 - np.tanh(x) ** 2), rtol=1e-5, atol=1e-6)
