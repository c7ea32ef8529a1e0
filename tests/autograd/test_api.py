"""grad / value_and_grad / vjp / jvp: structures, errors, higher order, NaN safety, laziness."""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp
from lazynum.autograd import SyncedIntermediateError
from tests import strategies as S

st = S.st


def value(x):
    return np.asarray(lnp.sync(x))


# --- structures ------------------------------------------------------------------------------
def test_pytrees_in_and_out():
    params = {"w": np.array([1.0, 2.0]), "layers": [np.array(3.0), (np.array([[0.5]]), 2.0)]}

    def loss(p, x):
        w, (a, (b, c)) = p["w"], p["layers"]
        return (w * x).sum() * a + (b * c).sum()
    g = lnp.grad(loss)(params, np.array([1.0, -1.0]))
    assert set(g) == {"w", "layers"} and isinstance(g["layers"], list) and isinstance(g["layers"][1], tuple)
    np.testing.assert_array_equal(value(g["w"]), [3.0, -3.0])
    assert value(g["layers"][0]) == -1.0
    np.testing.assert_array_equal(value(g["layers"][1][0]), [[2.0]])
    assert value(g["layers"][1][1]) == 0.5


def test_argnums_tuple_has_aux_and_value():
    def f(x, y, scale):
        return (x * y).sum() * scale, {"note": "aux", "y": y}
    (val, aux), (gx, gy) = lnp.value_and_grad(f, argnums=(0, 1), has_aux=True)(
        np.array([1.0, 2.0]), np.array([3.0, 4.0]), 2.0)
    assert float(val) == 22.0 and aux["note"] == "aux"
    np.testing.assert_array_equal(value(gx), [6.0, 8.0])
    np.testing.assert_array_equal(value(gy), [2.0, 4.0])
    g, aux = lnp.grad(f, argnums=1, has_aux=True)(np.array([1.0]), np.array([5.0]), 1.0)
    np.testing.assert_array_equal(value(g), [1.0])


def test_same_array_twice_and_unused_inputs():
    x = lnp.asarray([1.0, 2.0])
    gx, gy, gz = lnp.grad(lambda a, b, c: (a * b).sum(), argnums=(0, 1, 2))(x, x, np.ones(3))
    np.testing.assert_array_equal(value(gx), [1.0, 2.0])
    np.testing.assert_array_equal(value(gy), [1.0, 2.0])
    np.testing.assert_array_equal(value(gz), np.zeros(3))      # unused: exact zeros


def test_pending_lazy_inputs_and_float32():
    base = lnp.asarray(np.array([1.0, 2.0, 3.0], dtype=np.float32))
    pending = base * 2                      # not computed yet
    g = lnp.grad(lambda x: (x ** 2).sum())(pending)
    assert g.dtype == np.float32
    np.testing.assert_allclose(value(g), [4.0, 8.0, 12.0])


# --- errors ----------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [np.array([1, 2]), 3, True, np.array([True]), (1.0, np.int32(2))])
def test_integer_or_bool_inputs_are_a_type_error(bad):
    with pytest.raises(TypeError, match="floating-point"):
        lnp.grad(lambda x: lnp.asarray(1.0))(bad)


def test_non_scalar_or_integer_outputs_are_a_type_error():
    with pytest.raises(TypeError, match="scalar"):
        lnp.grad(lambda x: x * 2)(np.ones(3))
    with pytest.raises(TypeError, match="floating-point output"):
        lnp.grad(lambda x: (x > 0).sum())(np.ones(3))


def test_a_sync_inside_the_function_is_a_clear_error():
    def f(x):
        y = lnp.exp(x)
        print(y.sum(), end="")          # computes y: its graph is gone
        return y.sum()
    with pytest.raises(SyncedIntermediateError, match="sync"):
        lnp.grad(f)(np.ones(2))


def test_a_sync_of_the_input_inside_the_function_is_a_clear_error():
    def f(x):
        float(x.sum())                  # computes x: a later view would read plain data
        return x[1:].sum()
    with pytest.raises(SyncedIntermediateError, match="sync"):
        lnp.grad(f)(np.ones(3))
    with pytest.raises(SyncedIntermediateError, match="sync"):
        lnp.vjp(f, np.ones(3))


def test_comparisons_and_argmax_pass_no_gradient():
    def f(x):
        i = lnp.argmax(x)
        return x[i] + (x > 0).astype(lnp.float64).sum() * x.sum()
    g = lnp.grad(f)(np.array([1.0, 5.0, -2.0]))
    np.testing.assert_array_equal(value(g), [2.0, 3.0, 2.0])


# --- vjp / jvp -------------------------------------------------------------------------------
def test_vjp_with_tree_output_and_pullback_after_sync():
    out, pullback = lnp.vjp(lambda a, b: {"p": a * b, "s": (a + b).sum()}, np.array([1.0, 2.0]), 3.0)
    np.testing.assert_array_equal(value(out["p"]), [3.0, 6.0])        # syncs the forward graph
    ga, gb = pullback({"p": np.array([1.0, 10.0]), "s": 2.0})
    np.testing.assert_array_equal(value(ga), [5.0, 32.0])
    assert value(gb) == 1.0 + 20.0 + 4.0
    ga2, _ = pullback({"p": np.zeros(2), "s": 1.0})                    # a second call
    np.testing.assert_array_equal(value(ga2), [1.0, 1.0])
    with pytest.raises(ValueError, match="structure"):
        pullback((np.ones(2), 1.0))


@given(shape=S.grad_shapes(), rng=S.rngs())
def test_jvp_is_the_jacobian_vector_product(shape, rng):
    x, t = S.uniform(rng, shape), S.uniform(rng, shape)
    out, tangent = lnp.jvp(lambda x: lnp.sin(x) * x ** 2, (x,), (t,))
    np.testing.assert_allclose(value(out), np.sin(x) * x ** 2)
    np.testing.assert_allclose(value(tangent), (np.cos(x) * x ** 2 + 2 * x * np.sin(x)) * t,
                               rtol=1e-12, atol=1e-12)


def test_jvp_with_several_primals_and_tree_output_and_vjp_aux():
    a, b = np.array([1.0, 2.0]), np.array([0.5, -1.0])
    ta, tb = np.array([1.0, 0.0]), np.array([2.0, 1.0])
    out, tangent = lnp.jvp(lambda a, b: (a * b, {"s": (a ** 2).sum()}), (a, b), (ta, tb))
    np.testing.assert_allclose(value(tangent[0]), ta * b + a * tb)
    np.testing.assert_allclose(value(tangent[1]["s"]), (2 * a * ta).sum())
    out, pullback, aux = lnp.vjp(lambda a: (a * 3.0, "note"), a, has_aux=True)
    assert aux == "note"
    np.testing.assert_array_equal(value(pullback(np.ones(2))[0]), [3.0, 3.0])


# --- higher order ----------------------------------------------------------------------------
SCALAR_FUNCTIONS = {
    "cube": (lambda x: x ** 3, lambda x: 6 * x),
    "sin": (lambda x: lnp.sin(x), lambda x: -np.sin(x)),
    "exp_tanh": (lambda x: lnp.exp(lnp.tanh(x)),
                 lambda x: np.exp(np.tanh(x)) * ((1 - np.tanh(x) ** 2) ** 2 - 2 * np.tanh(x) * (1 - np.tanh(x) ** 2))),
    "log_sqrt": (lambda x: lnp.log(lnp.sqrt(x) + 1.0),
                 lambda x: -(1 / (4 * x ** 1.5 * (np.sqrt(x) + 1))) - 1 / (4 * x * (np.sqrt(x) + 1) ** 2)),
}


@pytest.mark.parametrize("name", sorted(SCALAR_FUNCTIONS))
@given(x=st.floats(0.2, 2.0))
def test_second_derivatives(name, x):
    f, second = SCALAR_FUNCTIONS[name]
    np.testing.assert_allclose(value(lnp.grad(lnp.grad(f))(x)), second(x), rtol=1e-10)


def test_third_derivative_and_hessian_vector_product():
    assert value(lnp.grad(lnp.grad(lnp.grad(lambda x: x ** 4)))(1.5)) == pytest.approx(24 * 1.5)
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    x, v = np.array([0.5, -1.0]), np.array([1.0, 2.0])
    hvp = lnp.grad(lambda x: (lnp.grad(lambda y: (y * (a @ y)).sum() / 2)(x) * v).sum())(x)
    np.testing.assert_allclose(value(hvp), a @ v)


# --- NaN safety ------------------------------------------------------------------------------
NAN_SAFE = {
    "where sqrt": (lambda x: lnp.where(x > 0, lnp.sqrt(x), 0.0).sum(), [0.0, 0.25, 0.0]),
    "where log": (lambda x: lnp.where(x > 0, lnp.log(x) * 2.0 + 1.0, x).sum(), [1.0, 4.0, 1.0]),
    "where division": (lambda x: lnp.where(x != 0, 1.0 / x, 0.0).sum(), [-1.0, -0.25, 0.0]),
    "clip log": (lambda x: lnp.clip(lnp.log(x), -10.0, 10.0).sum(), [1.0, 0.5, 0.0]),
    "maximum log": (lambda x: lnp.maximum(lnp.log(x), -5.0).sum(), [1.0, 0.5, 0.0]),
    "where exp overflow": (lambda x: lnp.where(x < 100, lnp.exp(x), 0.0).sum(),
                           [np.exp(-1.0), np.exp(2.0), 0.0]),
    "masked power": (lambda x: lnp.where(x > 0, x ** 0.5, 0.0).sum(), [0.0, 0.25, 0.0]),
}


@pytest.mark.parametrize("name", sorted(NAN_SAFE))
def test_untaken_branches_give_exact_zeros_not_nan(name):
    f, expected = NAN_SAFE[name]
    xs = {"where exp overflow": [-1.0, 2.0, 1000.0], "clip log": [1.0, 2.0, 0.0],
          "maximum log": [1.0, 2.0, 0.0], "where division": [-1.0, 2.0, 0.0],
          "where log": [-1.0, 0.5, 0.0]}.get(name, [-1.0, 4.0, 0.0])
    g = value(lnp.grad(f)(np.array(xs)))
    assert not np.isnan(g).any(), g
    np.testing.assert_allclose(g, expected)


def test_second_derivatives_through_where_and_clip_stay_nan_free():
    f = lnp.grad(lnp.grad(lambda x: lnp.where(x > 0, lnp.sqrt(x), 0.0)))
    assert [float(f(x)) for x in (-1.0, 0.0, 4.0)] == [0.0, 0.0, -1 / 32]
    g = lnp.grad(lnp.grad(lambda x: lnp.clip(lnp.log(x), -3.0, 3.0)))
    assert [float(g(x)) for x in (0.0, 1.0)] == [0.0, -1.0]


def test_untaken_branch_through_views_gives_no_nan():
    x = np.array([[0.0, 1.0, 4.0], [2.0, 0.0, 0.5]])
    g = value(lnp.grad(lambda x: lnp.where(x.T[1:] > 0, lnp.log(x).T[1:], 0.0).sum())(x))
    np.testing.assert_allclose(g, [[0.0, 1.0, 0.25], [0.0, 0.0, 2.0]])
    g = value(lnp.grad(lambda x: lnp.where(x[:, ::2] > 0, lnp.sqrt(x)[:, ::2], 0.0).sum())(x))
    np.testing.assert_allclose(g, [[0.0, 0.0, 0.25], [0.5 / np.sqrt(2.0), 0.0, 0.5 / np.sqrt(0.5)]])


def test_untaken_branch_with_a_broadcast_operand_gives_no_nan():
    x = np.array([[0.0, 1.0, 2.0], [3.0, 0.0, 0.5]])
    gw = value(lnp.grad(lambda w: lnp.where(x > 0, lnp.log(x) * w, 0.0).sum())(np.ones(3)))
    np.testing.assert_allclose(gw, np.log(np.where(x > 0, x, 1.0)).sum(axis=0))


def test_deep_graphs_are_walked_without_recursion():
    def chain(x):
        for _ in range(15_000):
            x = x * 1.0001 + 0.0
        return x.sum()
    g = lnp.grad(chain)(np.ones(2))
    np.testing.assert_allclose(value(g), np.full(2, 1.0001 ** 15_000), rtol=1e-9)
