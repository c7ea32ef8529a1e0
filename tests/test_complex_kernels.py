"""Fused llvm kernels for complex64/complex128 and float16 (issue 15 item 1, stage 2).

Chains of the fused ops compile to one kernel with no extern step and give NumPy's bits:
complex values as pairs of real statements with NumPy's algorithms (compile/complex_scalar),
float16 computed in float32 and rounded to half after every op (compile/wide_dtypes).
Tolerances appear only for float16 transcendentals, where this backend's float32 math
library and NumPy's SIMD library differ in the last bits (one half ulp, a few inputs in
65536), and for sums (their order of additions is the backend's, as for float sums).
"""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import lazynum as lnp

from lazynum.backends.llvm import jit

from . import strategies as S
from .compile.llvm_harness import compiled

# float16 kernels need the CPU's half conversions (F16C); without them they stay extern
needs_f16c = pytest.mark.skipif(not jit.host_has("f16c"), reason="no F16C: float16 stays extern")

INF, NAN = float("inf"), float("nan")
PARTS = (0.0, -0.0, 1.5, -2.0, INF, -INF, NAN, 1e300, -3e-310, 1e-200)
SPECIAL = np.array([complex(a, b) for a in PARTS for b in PARTS])
ALL_HALVES = np.arange(1 << 16, dtype=np.uint16).view(np.float16)


def _quiet(fn):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def _bits_equal(got, expected):
    """Equal values, NaN where NumPy has NaN, and the signs of zeros (parts) too."""
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    got, expected = np.atleast_1d(got), np.atleast_1d(expected)
    if expected.dtype.kind == "c":
        got, expected = got.view(got.real.dtype), expected.view(expected.real.dtype)
    if expected.dtype.kind != "f":
        np.testing.assert_array_equal(got, expected)
        return
    nan = np.isnan(expected)
    assert np.isnan(got[nan]).all()
    np.testing.assert_array_equal(got[~nan], expected[~nan])
    np.testing.assert_array_equal(np.signbit(got[~nan]), np.signbit(expected[~nan]))


def _fused(fn, *arrays, kernels=1):
    """``fn`` on llvm: NumPy's bits, computed by ``kernels`` kernels and no extern step."""
    got, program = _quiet(lambda: compiled(fn, *arrays))
    _bits_equal(got, _quiet(lambda: fn(np, *arrays)))
    assert (program.kernel_count, program.extern_count) == (kernels, 0), program.describe()


COMPLEX_BINARY = {
    "add": lambda m, a, b: a + b, "subtract": lambda m, a, b: a - b,
    "multiply": lambda m, a, b: a * b, "divide": lambda m, a, b: a / b,
    "equal": lambda m, a, b: a == b, "not_equal": lambda m, a, b: a != b,
    "less": lambda m, a, b: a < b, "less_equal": lambda m, a, b: a <= b,
    "greater": lambda m, a, b: a > b, "greater_equal": lambda m, a, b: a >= b,
    "logical_and": lambda m, a, b: m.logical_and(a, b),
    "logical_xor": lambda m, a, b: m.logical_xor(a, b),
    "where": lambda m, a, b: m.where(a.real > b.imag, a, b),
    "maximum": lambda m, a, b: m.maximum(a, b), "minimum": lambda m, a, b: m.minimum(a, b),
    "fmax": lambda m, a, b: m.fmax(a, b), "fmin": lambda m, a, b: m.fmin(a, b),
}
COMPLEX_UNARY = {
    "negative": lambda m, a: -a, "conjugate": lambda m, a: m.conj(a),
    "absolute": lambda m, a: m.abs(a), "square": lambda m, a: m.square(a),
    "reciprocal": lambda m, a: m.reciprocal(a),
    "isnan": lambda m, a: m.isnan(a), "isinf": lambda m, a: m.isinf(a),
    "isfinite": lambda m, a: m.isfinite(a), "logical_not": lambda m, a: m.logical_not(a),
    "real_imag": lambda m, a: a.real * 2 - a.imag, "to_bool": lambda m, a: a.astype(bool),
    "to_float32": lambda m, a: a.astype(np.float32),
    "to_other_complex": lambda m, a: a.astype(
        np.complex64 if a.dtype == np.complex128 else np.complex128),
}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", sorted(COMPLEX_BINARY))
def test_complex_binary_ops_on_special_values_are_numpys_bits_in_one_kernel(name, dtype):
    a = np.repeat(SPECIAL, len(SPECIAL)).astype(dtype)
    b = np.tile(SPECIAL, len(SPECIAL)).astype(dtype)
    _fused(COMPLEX_BINARY[name], a, b)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", sorted(COMPLEX_UNARY))
def test_complex_unary_ops_on_special_values_are_numpys_bits_in_one_kernel(name, dtype):
    _fused(COMPLEX_UNARY[name], SPECIAL.astype(dtype))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_multiply_divide_abs_over_wide_magnitudes_are_numpys_bits(dtype):
    # NumPy's multiply rounds each part once with an fma, its division is Smith's method
    # and its abs the overflow-safe scaled hypot: the kernel reproduces all three.  (Below
    # 256 KiB: above it NumPy reuses a temporary right operand in place, computing
    # ``conj(y) * x`` for ``x * conj(y)``, whose fma rounds the imaginary part differently.)
    rng = np.random.default_rng(5)
    n = 8009
    a = (rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n) + 1j * rng.standard_normal(n))
    b = (rng.standard_normal(n) + 1j * rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n))
    a, b = a.astype(dtype), b.astype(dtype)
    _fused(lambda m, x, y: (x * y + x) / (y - 1j), a, b)
    _fused(lambda m, x, y: m.abs(x * m.conj(y)) + x.real, a, b)
    _fused(lambda m, x, y: m.reciprocal(x) + m.reciprocal(y * 3), a, b)


def test_a_complex_chain_with_scalars_and_views_is_one_kernel():
    rng = np.random.default_rng(1)
    z = (rng.standard_normal((7, 9)) + 1j * rng.standard_normal((7, 9)))
    w = z.astype(np.complex64)
    _fused(lambda m, a: (a * a + 2 * a - 1j) / (a.T.T[::-1] + 3), z)
    _fused(lambda m, a: m.where(m.abs(a) > 1, a.conj(), a * 0.5j).imag + a.real[:, ::-1], w)
    _fused(lambda m, a, b: a + b[:1] * 1j, z, w)


def test_complex_sums_and_means_are_a_sum_per_part_in_the_kernel():
    rng = np.random.default_rng(2)
    z = rng.standard_normal((30, 40)) + 1j * rng.standard_normal((30, 40))
    for fn in (lambda m, a: (a * a.conj() + a).sum(), lambda m, a: (a * 1j).sum(axis=1),
               lambda m, a: a.mean(axis=0), lambda m, a: (a - a.mean(axis=1, keepdims=True)) * 2):
        got, program = compiled(fn, z)
        S.assert_same(got, fn(np, z), rtol=1e-12)
        assert program.extern_count == 0, program.describe()


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", ["exp", "exp2", "sqrt", "log", "log2", "log10", "sin", "cos",
                                  "sinh", "cosh", "tan", "tanh", "sign"])
def test_complex_exp_sqrt_log_have_numpys_special_values_and_libm_close_finite_values(name, dtype):
    # Infinite, NaN and zero parts are NumPy's exactly (C99 Annex G; exp: no overflow for
    # x in (709, 1418) where the product is finite; sqrt and log: the branch cut follows
    # the sign of a zero imaginary part, extreme magnitudes neither overflow nor underflow;
    # log(-0 + 0i) is -inf + pi i); finite parts come from this backend's
    # exp/cos/sin/hypot/log/atan2: within a few ulps of |f(z)|.
    parts = PARTS + (709.5, 710.0, 1000.0, 1500.0, -745.5, 3.14159, 1e22, 1.7e308, -1e-320)
    z = np.array([complex(a, b) for a in parts for b in parts]).astype(dtype)
    got, program = _quiet(lambda: compiled(lambda m, a: getattr(m, name)(a), z))
    expected = _quiet(lambda: getattr(np, name)(z))
    assert (program.kernel_count, program.extern_count) == (1, 0)
    if name == "exp":
        _bits_equal(got.imag[z.imag == 0], expected.imag[z.imag == 0])     # (exp(x), y)
    tiny = 2 * np.finfo(got.real.dtype).smallest_subnormal              # (libm's subnormals)
    finite = [np.nan_to_num(p, nan=0.0, posinf=0.0, neginf=0.0) for p in (expected.real, expected.imag)]
    ulp = np.spacing(np.maximum(*np.abs(finite)))     # of the larger finite part of f(z)
    for g, e in ((got.real, expected.real), (got.imag, expected.imag)):
        special = ~np.isfinite(e) | ~np.isfinite(g)
        _bits_equal(g[special], e[special])
        assert (np.abs(g[~special] - e[~special]) <= 8 * ulp[~special] + tiny).all()
    rng = np.random.default_rng(6)
    theta = rng.uniform(-50, 50, 1000).astype(dtype().real.dtype)
    got, program = compiled(lambda m, t: getattr(m, name)(m.exp(1j * t) * 2), theta)
    # (tan's condition number on |z| = 2 reaches ~4: exp's last-bit differences grow)
    ulps = 32 if name in ("tan", "tanh") else 8
    np.testing.assert_allclose(got, getattr(np, name)(np.exp(1j * theta) * 2),
                               rtol=ulps * np.finfo(theta.dtype).eps)
    assert (program.kernel_count, program.extern_count) == (1, 0)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_log_near_the_unit_circle_keeps_the_small_real_part(dtype):
    # log|z| of z just off the unit circle is tiny and log(hypot) would lose it; glibc's
    # clog (NumPy's) computes x^2 + y^2 - 1 exactly and so does the kernel: each part
    # within a few ulps of itself, not only of |log z|
    rng = np.random.default_rng(9)
    n = 4000
    t = rng.uniform(-np.pi, np.pi, n)
    z = ((1 + rng.standard_normal(n) * 10.0 ** rng.uniform(-16, -1, n)) * np.exp(1j * t)).astype(dtype)
    got, program = compiled(lambda m, a: m.log(a), z)
    expected = np.log(z)
    assert (program.kernel_count, program.extern_count) == (1, 0)
    for g, e in ((got.real, expected.real), (got.imag, expected.imag)):
        assert (np.abs(g - e) <= 4 * np.spacing(np.abs(e))).all()


def test_complex_transcendentals_stay_extern_steps_with_a_reason():
    from lazynum.compile.wide_dtypes import extern_reason
    z = lnp.asarray(SPECIAL)
    for node in (lnp.log1p(z)._n(), lnp.arctanh(z)._n(), (z ** 2.5)._n(), lnp.arcsin(z)._n(), z.prod()._n()):
        assert "no complex kernel code" in extern_reason(node)
    assert extern_reason((z * z)._n()) is None and extern_reason(z.sum()._n()) is None


# --- float16 --------------------------------------------------------------------------------
@needs_f16c
def test_float16_rounds_after_every_op_not_once_at_the_end():
    # 2048 + 1 is 2049 in float32 but a tie between halves 2048 and 2050: per op (NumPy)
    # it rounds to 2048 and the chain gives 0; rounding once would give 1.
    a = np.full(5, 2048, np.float16)
    b = np.ones(5, np.float16)
    got, program = compiled(lambda m, x, y: (x + y) - x, a, b)
    np.testing.assert_array_equal(got, np.zeros(5, np.float16))
    assert np.float16(np.float32(a[0]) + np.float32(b[0]) - np.float32(a[0])) == 1
    _fused(lambda m, x, y: (x + y) - x, a, b)
    _fused(lambda m, x, y: (x * 3 + y) / 7 - m.sqrt(m.abs(x - y)), a * np.float16(0.01), b)


EXACT_F16_UNARY = ("negative", "absolute", "fabs", "square", "reciprocal", "sign", "sqrt",
                   "floor", "ceil", "trunc", "rint", "isnan", "isinf", "isfinite", "signbit",
                   "logical_not", "cbrt", "exp2", "expm1", "log2", "log10", "log1p", "sin",
                   "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
                   "arccosh", "arctanh")
CLOSE_F16_UNARY = ("exp", "log", "cos")     # NumPy's SIMD float32 values differ in the last bits


@needs_f16c
@pytest.mark.parametrize("name", EXACT_F16_UNARY + CLOSE_F16_UNARY)
def test_float16_unary_ops_over_all_65536_halves(name):
    fn = lambda m, x: getattr(m, name)(x)       # noqa: E731
    got, program = _quiet(lambda: compiled(fn, ALL_HALVES))
    expected = _quiet(lambda: fn(np, ALL_HALVES))
    assert (program.kernel_count, program.extern_count) == (1, 0)
    if name in EXACT_F16_UNARY:
        _bits_equal(got, expected)
        return
    differ = (got != expected) & ~(np.isnan(got) & np.isnan(expected))
    assert differ.sum() <= 8       # one half ulp apart where they differ
    ulps = np.abs(got[differ].view(np.int16).astype(int) - expected[differ].view(np.int16))
    assert (ulps <= 1).all()


F16_BINARY = ("add", "subtract", "multiply", "divide", "maximum", "minimum", "fmax", "fmin",
              "copysign", "hypot", "heaviside", "floor_divide", "remainder", "fmod", "equal",
              "less", "greater_equal", "logical_or")


@needs_f16c
@pytest.mark.parametrize("name", F16_BINARY)
def test_float16_binary_ops_on_random_halves_are_numpys_bits(name):
    rng = np.random.default_rng(9)
    special = np.array([0.0, -0.0, NAN, INF, -INF, 1.0], np.float16)   # (ties of signed zeros)
    a = np.concatenate([rng.choice(ALL_HALVES, 50000), np.repeat(special, len(special))])
    b = np.concatenate([rng.choice(ALL_HALVES, 50000), np.tile(special, len(special))])
    _fused(lambda m, x, y: getattr(m, name)(x, y), a, b)


@needs_f16c
def test_float16_casts_round_once_from_double_and_exactly_to_ints():
    halves = ALL_HALVES[np.isfinite(ALL_HALVES)].astype(np.float64)
    upper = np.nextafter(halves.astype(np.float16)[:-1], np.float16(np.inf)).astype(np.float64)
    ties = (halves[:-1] + upper) / 2          # exactly between two halves: to even, once
    doubles = np.concatenate([ties, np.nextafter(ties, INF), np.nextafter(ties, -INF),
                              [INF, -INF, NAN, 65519.99, 65520.0, 1e300, 2.9802322387695312e-08]])
    _fused(lambda m, x: x.astype(np.float16), doubles)
    _fused(lambda m, x: x.astype(np.float16), np.arange(-70000, 70000, 7))
    _fused(lambda m, x: (x * 2).astype(np.int32), ALL_HALVES[np.isfinite(ALL_HALVES)])


@needs_f16c
def test_float16_extremes_reduce_in_the_kernel():
    rng = np.random.default_rng(4)
    h = rng.standard_normal((300, 257)).astype(np.float16)
    h[5, 7], h[100, 3] = np.nan, np.inf
    for x in (h, np.nan_to_num(h)):
        for fn in (lambda m, a: a.max(), lambda m, a: (a * 3).min(axis=0),
                   lambda m, a: m.nanmax(a, axis=1), lambda m, a: m.fmin.reduce(a * 2, axis=1)):
            got, program = _quiet(lambda: compiled(fn, x))
            np.testing.assert_array_equal(got, _quiet(lambda: fn(np, x)))
            assert program.extern_count == 0 and got.dtype == np.float16


def test_float16_sums_and_power_stay_extern_with_their_reasons():
    from lazynum.compile.wide_dtypes import extern_reason
    h = lnp.ones(4, np.float16)
    assert "after each inner loop" in extern_reason(h.sum()._n())
    assert "float16" in extern_reason((h ** h)._n())
    assert "float16" in extern_reason(lnp.nextafter(h, h)._n())


# --- differential chains through the shared strategies -------------------------------------
CHAIN = {
    "add": lambda m, x, y: x + y, "subtract": lambda m, x, y: y - x,
    "multiply": lambda m, x, y: x * y, "divide": lambda m, x, y: x / y,
    "scale": lambda m, x, y: x * 3 - 1, "negative": lambda m, x, y: -x,
    "where": lambda m, x, y: m.where(x == y, y, x),
    "abs_back": lambda m, x, y: m.abs(x).astype(x.dtype) + x,
}
COMPLEX_CHAIN = {"conj": lambda m, x, y: m.conj(x) * 1j, "parts": lambda m, x, y: x + x.imag}
FLOAT16_CHAIN = {"sqrt": lambda m, x, y: m.sqrt(m.abs(x)), "floor": lambda m, x, y: m.floor(x),
                 "maximum": lambda m, x, y: m.maximum(x, y)}


@st.composite
def wide_chains(draw):
    dtype = draw(st.sampled_from(S.WIDE))
    shape_x, shape_y = draw(S.broadcastable_shapes(max_dims=3))
    x = draw(S.arrays(dtype, st.just(shape_x), finite=draw(st.booleans())))
    y = draw(S.arrays(dtype, st.just(shape_y)))
    pool = sorted(CHAIN) + sorted(COMPLEX_CHAIN if dtype.kind == "c" else FLOAT16_CHAIN)
    return x, y, draw(st.lists(st.sampled_from(pool), min_size=1, max_size=5))


def _chain(m, x, y, steps):
    table = {**CHAIN, **COMPLEX_CHAIN, **FLOAT16_CHAIN}
    for name in steps:
        x = table[name](m, x, y)
    return x * 1


@needs_f16c
@settings(max_examples=60, deadline=None)
@given(wide_chains())
def test_random_chains_of_fused_ops_are_numpys_bits_without_extern_steps(case):
    x, y, steps = case
    got, program = _quiet(lambda: compiled(lambda m, a, b: _chain(m, a, b, steps), x, y))
    _bits_equal(got, _quiet(lambda: _chain(np, x, y, steps)))
    assert program.extern_count == 0, program.describe()


@needs_f16c
def test_a_backend_that_renders_no_wide_dtypes_gets_them_as_extern_steps():
    # (the CUDA renderer, until it takes half and complex buffers by part)
    from lazynum.backends.llvm.capabilities import SUPPORTS
    from lazynum.compile.capability_probe import ProbingSupports
    from lazynum.compile.schedule import classify
    other = ProbingSupports(lambda op, args, out: True, lambda op, args, out: "no code")
    for node in ((lnp.asarray(SPECIAL) * 2)._n(), (lnp.ones(3, np.float16) + 1)._n()):
        kind, why = classify(node, other)
        assert kind == "extern" and "renders no kernel code" in why
        assert classify(node, SUPPORTS) == ("pointwise", None)


def test_fused_complex_ops_raise_no_ieee_flag_numpy_would_not(monkeypatch):
    # A flag NumPy would not raise sends the trace to the reference backend again (to name
    # the error exactly): correct, but a second run.  abs of 0 and of infinities, and the
    # unused branch of a division, must not raise one.
    from lazynum.runtime import fp_errors
    reruns = []
    original = fp_errors._check_again
    monkeypatch.setattr(fp_errors, "_check_again", lambda *a: reruns.append(1) or original(*a))
    z = np.array([0j, complex(INF, INF), complex(-INF, 1), 1 + 2j, 3j, -4.0 + 0j])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for fn in (lambda m, a: m.abs(a), lambda m, a: a[3:] / a[3:][::-1],
                   lambda m, a: a[3:] / (a[3:] * 1j), lambda m, a: m.reciprocal(a[3:])):
            got, program = compiled(fn, z)
            _bits_equal(got, fn(np, z))
        for fn in (lambda m, a: m.log(a[1:]), lambda m, a: m.log10(a[3:] * 1e300),
                   lambda m, a: m.exp(a[3:]) + m.exp2(a[3:] * 2)):
            got, program = compiled(fn, z)       # (log's finite values: libm's, a few ulps)
            np.testing.assert_allclose(got, fn(np, z), rtol=1e-15)
    assert reruns == []


def test_complex_loads_and_stores_name_parts_of_unit_stride_elements():
    # (the index keeps unit strides, so the loops collapse and vectorize like real ones)
    z = np.arange(12).reshape(3, 4) * (1 + 1j)
    got, program = compiled(lambda m, a: a * 2j + a.T.T, z)
    _bits_equal(got, z * 2j + z)
    text = program.describe()
    assert "for o0 in [0, n0*n1)" in text
    assert "load in0[o0].re" in text and "load in0[o0].im" in text
    assert "v2[o0].re = " in text and "v2[o0].im = " in text


def _warnings_of(fn):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        fn()
    return sorted({str(w.message).split(" encountered")[0] for w in seen
                   if "encountered" in str(w.message)})


@pytest.mark.parametrize("name", ["exp", "exp2", "log", "log2", "log10", "sqrt", "reciprocal",
                                  "sin", "cos", "sinh", "cosh", "tan", "tanh", "sign"])
def test_fused_complex_functions_warn_exactly_where_numpy_warns(name):
    # Each value alone: the warnings NumPy gives (log of 0: divide by zero; exp of a NaN
    # part beside a finite one, reciprocal of any NaN part: invalid; overflow) and the
    # ones the kernel's IEEE flags report must be the same.
    caught = _warnings_of
    for dtype in (np.complex64, np.complex128):
        with np.errstate(over="ignore"):
            values = SPECIAL.astype(dtype)
        for value in values:
            z = np.full(3, value)
            expected = caught(lambda: getattr(np, name)(z))
            got = caught(lambda: np.asarray(getattr(lnp, name)(lnp.asarray(z))))
            assert got == expected, (value, got, expected)


def test_fused_complex_division_warns_for_a_nan_divisor_part_as_numpy():
    # NumPy's |br| >= |bi| is a signaling comparison: any NaN divisor part warns invalid,
    # and a NaN numerator part alone only where the arithmetic itself is invalid
    parts = (0.0, 1.5, INF, NAN)
    quads = np.array([[a, b, c, d] for a in parts for b in parts for c in parts for d in parts])
    for dtype in (np.complex64, np.complex128):
        for ar, ai, br, bi in quads:
            x = np.full(3, complex(ar, ai), dtype)
            y = np.full(3, complex(br, bi), dtype)
            expected = _warnings_of(lambda: x / y)
            got = _warnings_of(lambda: np.asarray(lnp.asarray(x) / lnp.asarray(y)))
            assert got == expected, ((ar, ai, br, bi), got, expected)


@pytest.mark.parametrize("name", ["exp", "cosh", "sinh"])
def test_complex64_exp_family_is_finite_where_only_exp_of_the_real_part_overflows(name):
    # exp(95) overflows float32, exp(95) * cos(pi/2 in float32) does not: the kernel
    # multiplies exp(x/2) twice from x = 88 in float32 (709 in float64), as NumPy's is finite
    z = np.array([95 + 1.5707964j, -120 + 1.5707964j, 89.5 - 0.3j, 150 + 1.5707964j], np.complex64)
    got, program = _quiet(lambda: compiled(lambda m, a: getattr(m, name)(a), z))
    expected = _quiet(lambda: getattr(np, name)(z))
    assert program.extern_count == 0
    for g, e in ((got.real, expected.real), (got.imag, expected.imag)):
        finite = np.isfinite(e)
        _bits_equal(g[~finite], e[~finite])
        assert (np.abs(g[finite] - e[finite]) <= 8 * np.spacing(np.abs(e[finite]))).all()
