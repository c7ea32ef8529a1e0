"""Gradients over complex values in JAX's convention, against central finite differences.

For a real-valued ``f`` of a complex ``z = x + iy`` lazynum's gradient is
``G = df/dx - i df/dy`` (what ``jax.grad`` returns), so along a complex direction ``v``
the directional derivative of ``f`` is ``Re(sum(G * v))``; that is what is checked, in
float64, with finite differences evaluated by NumPy.  A complex-valued function is checked
through ``Re(sum(f(z) * w))`` with complex weights ``w``, which makes every cotangent
complex and not all ones.
"""
import numpy as np
import pytest
from hypothesis import given, settings

import lazynum as lnp
from tests import strategies as S

EPS = 1e-6


def _complex(rng, shape, low=0.2, high=0.8):
    """Values with |re|, |im| in [low, high), either sign: off every branch cut (the real
    axis outside (-1, 1), the imaginary axis outside (-i, i)) and every pole."""
    parts = [rng.uniform(low, high, size=shape) * rng.choice([-1.0, 1.0], size=shape) for _ in range(2)]
    return np.asarray(parts[0] + 1j * parts[1])


def _directional(fn, args, index, direction):
    plus, minus = list(args), list(args)
    plus[index] = args[index] + EPS * direction
    minus[index] = args[index] - EPS * direction
    return (float(fn(np, *plus)) - float(fn(np, *minus))) / (2 * EPS)


def assert_complex_gradients(fn, *args, argnums=(0,), seed=0, rtol=1e-5, atol=1e-6):
    """lazynum's gradients of real-valued ``fn(xp, *args)`` match finite differences along
    random directions (complex ones for complex arguments), with each argument's dtype."""
    grads = lnp.grad(lambda *a: fn(lnp, *a), argnums=tuple(argnums))(*args)
    rng = np.random.default_rng(seed)
    for index, grad in zip(argnums, grads):
        grad = np.asarray(grad)
        arg = np.asarray(args[index])
        assert grad.shape == arg.shape and grad.dtype == arg.dtype, (grad.dtype, arg.dtype)
        assert np.all(np.isfinite(grad)), grad
        for _ in range(2):
            direction = rng.standard_normal(arg.shape)
            if arg.dtype.kind == "c":
                direction = direction + 1j * rng.standard_normal(arg.shape)
            expected = _directional(fn, args, index, direction)
            got = float(np.real(np.sum(grad * direction)))
            assert abs(got - expected) <= atol + rtol * abs(expected), \
                f"argument {index}: Re<grad, v> = {got!r}, finite differences {expected!r}"


def _weighted(value_fn, w):
    """``Re(sum(value * w))``: a real scalar whose cotangent for the value is ``w``."""
    return lambda xp, *args: xp.real(value_fn(xp, *args) * w).sum()


HOLOMORPHIC_UNARY = ("negative", "positive", "exp", "exp2", "expm1", "log", "log2", "log10",
                     "log1p", "sqrt", "square", "reciprocal", "sin", "cos", "tan", "arcsin",
                     "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh")


@pytest.mark.parametrize("name", HOLOMORPHIC_UNARY + ("conjugate", "absolute"))
def test_unary_rules_on_complex_values_match_finite_differences(name):
    rng = np.random.default_rng(abs(hash(name)) % (1 << 32))
    z, w = _complex(rng, (2, 3)), _complex(rng, (2, 3))
    assert_complex_gradients(_weighted(lambda xp, z: getattr(xp, name)(z), w), z)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "power"])
@settings(max_examples=12)          # (each example compiles programs of new shapes)
@given(shapes=S.grad_broadcastable_shapes(), rng=S.rngs())
def test_binary_rules_on_complex_and_mixed_operands_match_finite_differences(name, shapes, rng):
    a, b = (_complex(rng, s) for s in shapes)
    b_real = np.abs(b.real)                       # a float operand, promoted to complex
    w = _complex(rng, np.broadcast_shapes(*shapes))
    op = lambda xp, a, b: getattr(xp, name)(a, b)          # noqa: E731
    assert_complex_gradients(_weighted(op, w), a, b, argnums=(0, 1), seed=int(rng.integers(1 << 30)))
    assert_complex_gradients(_weighted(op, w), a, b_real, argnums=(0, 1), seed=1)


NON_HOLOMORPHIC = {
    "abs squared": lambda xp, z: (xp.abs(z) ** 2).sum(),
    "real and imag": lambda xp, z: (xp.real(z) * 3 - xp.imag(z) ** 3).sum(),
    "attributes": lambda xp, z: (z.real * z.imag).sum(),
    "angle": lambda xp, z: (xp.angle(z) * xp.arange(4)).sum(),
    "conj product": lambda xp, z: xp.real(xp.conj(z) * (1 + 2j) * z ** 3).sum(),
    "rebuilt from parts": lambda xp, z: xp.abs(xp.real(z) + 1j * xp.imag(z) ** 2).sum(),
    "where on the real part": lambda xp, z: xp.abs(xp.where(z.real > 0, z * z, xp.sin(z))).sum(),
    "maximum (lexicographic)": lambda xp, z: xp.real(xp.maximum(z, z[::-1]) * (2 - 1j)).sum(),
    "sum, mean and var": lambda xp, z: xp.abs(xp.sum(z * z)) + xp.var(z) + xp.abs(xp.mean(z)),
    "prod and cumprod": lambda xp, z: xp.abs(xp.prod(z)) + xp.abs(xp.cumprod(z)).sum(),
    "norm": lambda xp, z: xp.linalg.norm(z),
    "sort": lambda xp, z: xp.real(xp.sort(z) * xp.arange(4)).sum(),
    "matmul and vdot": lambda xp, z: xp.abs(xp.outer(z, z) @ z).sum() + xp.real(xp.vdot(z, 2j * z)),
    "einsum": lambda xp, z: xp.abs(xp.einsum("i,j->ij", z, xp.conj(z))).sum(),
    "fft with padding": lambda xp, z: xp.abs(xp.fft.fft(z, n=6)).sum(),
    "ifft truncated, ortho": lambda xp, z: xp.real(xp.fft.ifft(z * z, n=3, norm="ortho")).sum(),
    "views and writes": lambda xp, z: xp.abs(xp.concatenate([z[1:], z[:2] * 2])).sum(),
}


@pytest.mark.parametrize("name", sorted(NON_HOLOMORPHIC))
def test_real_valued_functions_of_complex_inputs_match_finite_differences(name):
    rng = np.random.default_rng(7)
    assert_complex_gradients(NON_HOLOMORPHIC[name], _complex(rng, (4,)))


def test_jax_documented_example_abs_squared_at_3_plus_4j_is_6_minus_8j():
    g = lnp.grad(lambda z: lnp.abs(z) ** 2)(3.0 + 4.0j)
    np.testing.assert_allclose(complex(g), 6 - 8j, rtol=1e-15)   # (sqrt's rounding)
    g = lnp.grad(lambda z: z.real ** 2 + z.imag ** 2)(lnp.asarray([3.0 + 4.0j]).sum())
    assert complex(g) == 6 - 8j


LINALG = {
    "det": lambda xp, a: xp.abs(xp.linalg.det(a)),
    "inv": lambda xp, a: xp.abs(xp.linalg.inv(a)).sum(),
    "solve": lambda xp, a: xp.abs(xp.linalg.solve(a, a[:, :1] + 1)).sum(),
    "slogdet's log|det|": lambda xp, a: xp.linalg.slogdet(a)[1],
    "slogdet's sign": lambda xp, a: xp.real(xp.linalg.slogdet(a)[0] * (1 - 2j)),
    "eigvalsh": lambda xp, a: (xp.linalg.eigvalsh(a @ xp.conj(a).T) * xp.arange(3)).sum(),
}


@pytest.mark.parametrize("name", sorted(LINALG))
def test_linalg_rules_on_complex_matrices_match_finite_differences(name):
    rng = np.random.default_rng(3)
    a = _complex(rng, (3, 3)) + 2 * np.eye(3)
    assert_complex_gradients(LINALG[name], a)


@pytest.mark.parametrize("fn", [lambda z: lnp.linalg.cholesky(z @ lnp.conj(z).T),
                                lambda z: lnp.linalg.eigh(z @ lnp.conj(z).T)[1]])
def test_rules_not_written_for_complex_say_so(fn):
    z = _complex(np.random.default_rng(0), (3, 3))
    with pytest.raises(NotImplementedError, match="not written"):
        lnp.grad(lambda z: lnp.abs(fn(z)).sum())(z)


FFT = {
    "rfft": lambda xp, x, norm: xp.abs(xp.fft.rfft(x, norm=norm)).sum(),
    "rfft padded": lambda xp, x, norm: xp.real(xp.fft.rfft(x, n=9, norm=norm) * (1 - 2j)).sum(),
    "rfft truncated": lambda xp, x, norm: xp.imag(xp.fft.rfft(x, n=4, norm=norm)).sum(),
    "rfft2 with s": lambda xp, x, norm: xp.abs(xp.fft.rfft2(x, s=(4, 5), norm=norm)).sum(),
    "irfft": lambda xp, z, norm: (xp.fft.irfft(z, norm=norm) * xp.arange(6)).sum(),
    "irfft odd n": lambda xp, z, norm: (xp.fft.irfft(z, n=7, norm=norm) ** 2).sum(),
    "irfft truncated": lambda xp, z, norm: (xp.fft.irfft(z, n=4, norm=norm) * xp.arange(4)).sum(),
    "irfftn": lambda xp, z, norm: (xp.fft.irfftn(z, norm=norm) ** 3).sum(),
    "irfft2 with s": lambda xp, z, norm: (xp.fft.irfft2(z, s=(2, 5), norm=norm) * xp.arange(5)).sum(),
    "hfft": lambda xp, z, norm: (xp.fft.hfft(z, n=7, norm=norm) * xp.arange(7)).sum(),
    "ihfft": lambda xp, x, norm: xp.imag(xp.fft.ihfft(x, norm=norm) * (2 + 1j)).sum(),
}


@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("name", sorted(FFT))
def test_real_fft_rules_match_finite_differences(name, norm):
    # rfft's transpose pads the cotangent to n and takes the real part of its fft; irfft's
    # weighs the half spectrum (each inner bin holds a conjugate pair) and ignores the
    # imaginary parts irfft ignores (bin 0 and, for even n, n/2)
    rng = np.random.default_rng(11)
    arg = rng.standard_normal((3, 6)) if name.startswith(("rfft", "ihfft")) else _complex(rng, (3, 4))
    assert_complex_gradients(lambda xp, a: FFT[name](xp, a, norm), arg)


def test_a_real_input_through_complex_values_gets_a_real_gradient():
    rng = np.random.default_rng(5)
    x = rng.uniform(-2, 2, 5)
    fn = lambda xp, x: xp.abs(xp.exp(1j * x) * (x + 2j)).sum() + xp.fft.fft(x).real.sum()  # noqa: E731
    assert_complex_gradients(fn, x)


def test_holomorphic_grad_is_the_complex_derivative_and_differentiates_again():
    z = _complex(np.random.default_rng(2), ())
    f = lambda z: lnp.sin(z) * z                   # noqa: E731
    first = lnp.grad(f, holomorphic=True)
    np.testing.assert_allclose(complex(first(z)), np.cos(z) * z + np.sin(z), rtol=1e-12)
    second = lnp.grad(first, holomorphic=True)
    np.testing.assert_allclose(complex(second(z)), 2 * np.cos(z) - z * np.sin(z), rtol=1e-12)


def test_complex64_inputs_get_complex64_gradients():
    z = _complex(np.random.default_rng(4), (3,)).astype(np.complex64)
    g = lnp.grad(lambda z: (lnp.abs(lnp.exp(z)) ** 2).sum())(z)
    assert g.dtype == np.complex64
    expected = 2 * np.exp(2 * z.real.astype(np.float64)) + 0j    # d/dx e^(2x), no y term
    np.testing.assert_allclose(np.asarray(g), expected, rtol=1e-5)


def test_vjp_of_a_complex_output_pulls_back_complex_cotangents_unconjugated():
    rng = np.random.default_rng(6)
    z, c = _complex(rng, (4,)), _complex(rng, (4,))
    out, pullback = lnp.vjp(lambda z: lnp.exp(z) * lnp.conj(z), z)
    np.testing.assert_allclose(np.asarray(out), np.exp(z) * np.conj(z))
    (g,) = pullback(c)
    # the pullback of c is the gradient of Re(sum(c * f(z)))
    assert_complex_gradients(lambda xp, z: xp.real(c * xp.exp(z) * xp.conj(z)).sum(), z)
    expected = lnp.grad(lambda z: lnp.real(c * lnp.exp(z) * lnp.conj(z)).sum())(z)
    np.testing.assert_allclose(np.asarray(g), np.asarray(expected), rtol=1e-12)
    # holomorphic: c * f'(z), no conjugate
    (h,) = lnp.vjp(lnp.sin, z)[1](c)
    np.testing.assert_allclose(np.asarray(h), c * np.cos(z), rtol=1e-12)


def test_jvp_over_complex_values_is_the_real_linear_derivative():
    rng = np.random.default_rng(8)
    z, t = _complex(rng, (4,)), _complex(rng, (4,))
    f = lambda xp, z: xp.exp(z) * xp.conj(z) + xp.abs(z)    # noqa: E731
    _, tangent = lnp.jvp(lambda z: f(lnp, z), (z,), (t,))
    expected = (f(np, z + EPS * t) - f(np, z - EPS * t)) / (2 * EPS)
    np.testing.assert_allclose(np.asarray(tangent), expected, rtol=1e-6)


def test_wrong_dtypes_for_complex_gradients_are_type_errors():
    z = np.array([1.0 + 2.0j])
    with pytest.raises(TypeError, match="holomorphic=True"):
        lnp.grad(lambda z: (z * z).sum())(z)              # a complex output
    with pytest.raises(TypeError, match="complex inputs"):
        lnp.grad(lambda x: (x * 1j).sum(), holomorphic=True)(np.array([1.0]))
    with pytest.raises(TypeError, match="complex output"):
        lnp.grad(lambda z: lnp.abs(z).sum(), holomorphic=True)(z)
