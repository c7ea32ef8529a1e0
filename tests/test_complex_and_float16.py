"""complex64, complex128 and float16 as lazy dtypes (issue 15 item 1): NumPy's values,
dtypes, shapes and exceptions on both backends; writable real/imag parts; complex
special values; float16 rounding; and on llvm, extern steps (not syncs, not fallbacks)
for the nodes kernels do not compute."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings

import lazynum as lnp
from lazynum.expr import dtypes

from . import strategies as S
from .compile.llvm_harness import compiled

INF, NAN = float("inf"), float("nan")
SPECIAL = np.array([complex(a, b) for a in (0.0, -0.0, 1.5, -2.0, INF, -INF, NAN)
                    for b in (0.0, -0.0, 0.5, -3.0, INF, -INF, NAN)])


def _same(got, expected, rtol=None):
    S.assert_same(got, expected, rtol=rtol)
    got = np.asarray(got)
    if got.dtype.kind == "c" and rtol == 0.0:      # the signs of zero parts too
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(np.asarray(expected).real))
        np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(np.asarray(expected).imag))


def _quiet(fn):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


CASES = {
    "exp_of_phase": lambda m, z, x: m.exp(1j * x),
    "arithmetic": lambda m, z, x: (z * z + 2 * z - 1j) / (z + 3),
    "abs": lambda m, z, x: m.abs(z),
    "angle": lambda m, z, x: m.angle(z, deg=True),
    "conj": lambda m, z, x: m.conj(z) * z,
    "real_imag": lambda m, z, x: z.real - z.imag,
    "sum_mean": lambda m, z, x: z.sum(axis=0) + z.mean(axis=0),
    "prod": lambda m, z, x: (z / 4).prod(axis=-1),
    "cumsum": lambda m, z, x: m.cumsum(z, axis=1),
    "var_std": lambda m, z, x: z.var(axis=1) + z.std(),
    "matmul": lambda m, z, x: z @ z.T,
    "vdot": lambda m, z, x: m.vdot(z, z * 1j),
    "sort": lambda m, z, x: m.sort(z, axis=None),
    "compare": lambda m, z, x: (z < z.T.T[::-1]) & (z != 0),
    "isclose": lambda m, z, x: m.isclose(z, z + 1e-9j),
    "nonzero": lambda m, z, x: m.nonzero(z.real > 0)[0],
    "mask": lambda m, z, x: z[z.real > 0],
    "astype": lambda m, z, x: z.astype(m.complex64) + x.astype(m.float16),
    "linalg": lambda m, z, x: m.linalg.inv(z[:3, :3] + 4 * m.eye(3)),
    "svd": lambda m, z, x: m.linalg.svd(z[:3, :3], compute_uv=False),
    "predicates": lambda m, z, x: m.iscomplex(z) ^ m.isreal(z.real),
    "round": lambda m, z, x: m.round(z, 1),
    "nan_reductions": lambda m, z, x: m.nansum(z, axis=1) + m.nanmax(z, axis=1) + m.nanvar(z),
    "median_cov": lambda m, z, x: m.cov(z) + m.median(z.real),
    "truth": lambda m, z, x: m.count_nonzero(z.imag * 1j, axis=0) + m.any(z * 1j, axis=0),
    "interp": lambda m, z, x: m.interp(x[0], [-1.0, 0.0, 1.0], z[0, :3], left=2j),
    "max": lambda m, z, x: m.maximum(z, 0.5j).max(axis=0) + m.argmin(z, axis=0),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", S.COMPLEX)
def test_complex_programs_match_numpy(name, dtype):
    rng = np.random.default_rng(7)
    z = (rng.normal(size=(4, 5)) + 1j * rng.normal(size=(4, 5))).astype(dtype)
    x = rng.normal(size=(4, 5)).astype(np.float32)
    got = CASES[name](lnp, lnp.asarray(z), lnp.asarray(x))
    expected = CASES[name](np, z, x)
    single = dtype == np.complex64 or np.asarray(expected).dtype in (np.complex64, np.float32)
    S.assert_same(got, expected, rtol=1e-4 if single else 1e-10)


@given(pair=S.lazy_views(S.arrays(S.st.sampled_from(S.WIDE), finite=False)))
@settings(max_examples=30)
def test_unary_ufuncs_of_wide_dtypes_match_numpy(pair):
    base, lazy = pair
    for name in ("negative", "absolute", "sqrt", "exp", "log", "sin", "tanh", "square",
                 "reciprocal", "sign", "isnan", "isfinite", "conjugate"):
        expected = _quiet(lambda: getattr(np, name)(base))
        got = _quiet(lambda: np.asarray(getattr(lnp, name)(lazy)))
        S.assert_same(got, expected, rtol=1e-3 if base.dtype.itemsize <= 8 else 1e-9)


@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "expm1", "log1p", "arcsin", "arctanh",
                                  "reciprocal", "absolute", "sign"])
def test_complex_special_values_and_branch_cuts_are_numpys(name):
    # Bit for bit, signed zeros included: NumPy's complex loops, or (llvm) kernels with
    # NumPy's algorithms.  Fused exp's, sqrt's, log's and sign's finite values come from
    # libm functions (a few ulps; their special values are checked bit for bit in
    # test_complex_kernels).
    rtol = 1e-15 if name in ("exp", "sqrt", "log", "sign") else 0.0
    expected = _quiet(lambda: getattr(np, name)(SPECIAL))
    got = _quiet(lambda: np.asarray(getattr(lnp, name)(lnp.asarray(SPECIAL))))
    _same(got, expected, rtol=rtol)
    cut = np.array([complex(-2.0, 0.0), complex(-2.0, -0.0)])    # just above/below the cut
    _same(_quiet(lambda: getattr(lnp, name)(lnp.asarray(cut))), _quiet(lambda: getattr(np, name)(cut)),
          rtol=rtol)


@pytest.mark.parametrize("call", [
    lambda m, z: m.floor(z), lambda m, z: z % 2, lambda m, z: z // 2,
    lambda m, z: m.arctan2(z, 1.0), lambda m, z: z & 1, lambda m, z: m.fmod(z, 2),
    lambda m, z: m.heaviside(z, 0.5), lambda m, z: m.signbit(z), lambda m, z: m.rint(z.real) > z,
])
def test_loops_numpy_lacks_for_complex_raise_its_error_at_the_call(call):
    z = np.array([1 + 2j, -3j])
    try:
        expected = call(np, z)
    except TypeError as exc:
        with pytest.raises(S.public_type(exc)):
            call(lnp, lnp.asarray(z))
        return
    S.assert_same(call(lnp, lnp.asarray(z)), expected)


def test_promotion_with_weak_complex_and_float16_is_numpys():
    for dt in S.EVERY:
        x = np.ones(2, dt)
        for value in (1j, 1.5, 3, True, complex(1e40, 0)):
            got = _quiet(lambda: lnp.asarray(x) * value)
            expected = _quiet(lambda: x * value)
            assert got.dtype == expected.dtype, (dt, value)
            S.assert_same(got, expected, rtol=0.0)
    for a in S.WIDE:
        for b in S.EVERY:
            assert lnp.result_type(a, b) == np.result_type(a, b)
            assert (lnp.ones(2, a) + lnp.ones(2, b)).dtype == np.result_type(a, b)


def test_asarray_of_complex_scalars_and_lists():
    for value in (1j, [1, 2.5, 3j], np.complex64(1 - 1j), np.array([1j], np.complex64)):
        S.assert_same(lnp.asarray(value), np.asarray(value), rtol=0.0)
    S.assert_same(lnp.asarray(complex(1, -0.0)) + 0, np.asarray(complex(1, -0.0)) + 0, rtol=0.0)
    assert complex(lnp.asarray(2 - 1j)) == 2 - 1j


def test_real_and_imag_are_writable_views_of_a_complex_array():
    z_np = np.arange(6, dtype=np.complex128).reshape(2, 3) * (1 + 1j)
    z = lnp.asarray(z_np)
    re, im = z.real, z.imag
    assert re.dtype == np.float64 and im.flags.writeable
    re[0] = 7                     # through the part
    z_np.real[0] = 7
    im[:, 1:] += 1                # a window of a part, in place
    z_np.imag[:, 1:] += 1
    z.real = z.real * 2           # the property setter
    z_np.real = z_np.real * 2
    z.imag[z.imag > 3] = -1       # a masked write
    z_np.imag[z_np.imag > 3] = -1
    z[1, 0] = 9 - 9j              # a write to z is seen by the parts
    z_np[1, 0] = 9 - 9j
    _same(z, z_np, rtol=0.0)
    _same(re, z_np.real, rtol=0.0)
    _same(im, z_np.imag, rtol=0.0)
    _same(lnp.real(z).T, z_np.real.T, rtol=0.0)
    with pytest.raises(TypeError):
        lnp.arange(3.0).imag = 1          # NumPy: a real array has no imaginary part to set
    x = lnp.arange(3.0)
    x.real = 5                            # a real array's real part is itself
    assert x.tolist() == [5.0, 5.0, 5.0]


def test_part_of_a_read_only_array_is_read_only():
    z = lnp.asarray(np.ones(3, np.complex64))
    z.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        z.real[0] = 2


def test_complex_to_real_casts_warn_as_numpy_does():
    z = lnp.asarray(np.array([1 + 2j, 3 - 1j]))
    with pytest.warns(np.exceptions.ComplexWarning):
        r = z.astype(np.float64)
    assert r.tolist() == [1.0, 3.0]
    out = lnp.zeros(2)
    with pytest.warns(np.exceptions.ComplexWarning):
        out[...] = z
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert lnp.abs(z).dtype == np.float64 and z.real.dtype == np.float64   # no warning


def test_helpers_for_complex_data():
    z_np = np.array([1 + 1e-20j, 3 + 0j, -2 + 0j])
    z = lnp.asarray(z_np)
    assert lnp.iscomplexobj(z) and not lnp.isrealobj(z) and lnp.isrealobj(z.real)
    S.assert_same(lnp.real_if_close(z), np.real_if_close(z_np))
    S.assert_same(lnp.real_if_close(z * 1j + 1), np.real_if_close(z_np * 1j + 1))
    S.assert_same(lnp.sort_complex(lnp.asarray([3, 1, 2])), np.sort_complex([3, 1, 2]))
    S.assert_same(lnp.sort_complex(lnp.asarray(np.array([3, 1], np.int8))),
                  np.sort_complex(np.array([3, 1], np.int8)))
    w = np.array([complex(NAN, 1), 1 + 2j, complex(1, NAN), 1 + 1j, complex(0, INF)])
    S.assert_same(lnp.sort(lnp.asarray(w)), np.sort(w))          # NumPy's order, NaNs last
    S.assert_same(lnp.argsort(lnp.asarray(w)), np.argsort(w))
    S.assert_same(lnp.nan_to_num(lnp.asarray(w)), np.nan_to_num(w))
    S.assert_same(lnp.linalg.norm(lnp.asarray(w[1:4].real + 1j)), np.linalg.norm(w[1:4].real + 1j))
    assert lnp.allclose(z, z_np) is True and lnp.array_equal(lnp.asarray(w), w, equal_nan=True)


def test_linalg_dtypes_follow_numpy():
    a = np.array([[2 + 1j, 1], [1j, 3]], np.complex64)
    la = lnp.asarray(a)
    for fn in (lambda m, x: m.linalg.inv(x), lambda m, x: m.linalg.det(x),
               lambda m, x: m.linalg.slogdet(x)[1], lambda m, x: m.linalg.slogdet(x)[0],
               lambda m, x: m.linalg.svd(x)[1], lambda m, x: m.linalg.eigvalsh(x @ x.conj().T),
               lambda m, x: m.linalg.eigh(x @ x.conj().T)[0],
               lambda m, x: m.linalg.solve(x, m.ones(2)), lambda m, x: m.linalg.qr(x)[1].shape):
        expected, got = fn(np, a), fn(lnp, la)
        if isinstance(expected, tuple):
            assert got == expected
            continue
        S.assert_same(got, expected, rtol=1e-4)
    with pytest.raises(TypeError):
        lnp.linalg.inv(lnp.ones((2, 2), np.float16))          # NumPy: unsupported in linalg


def test_float16_is_stored_and_rounded_per_op_as_numpy():
    rng = np.random.default_rng(3)
    a, b, c = (rng.normal(size=257).astype(np.float16) for _ in range(3))
    la, lb, lc = map(lnp.asarray, (a, b, c))
    _same((la * lb + lc) / 3, (a * b + c) / 3, rtol=0.0)
    _same(lnp.exp(la) - lnp.sqrt(lnp.abs(lb)), np.exp(a) - np.sqrt(np.abs(b)), rtol=0.0)
    _same(la.sum(), a.sum(), rtol=0.0)
    _same(la.mean(), a.mean(), rtol=0.0)
    _same(la.reshape(-1, 1)[:256].reshape(16, 16).mean(axis=0),
          a[:256].reshape(16, 16).mean(axis=0), rtol=0.0)
    _same(lnp.cumsum(la), np.cumsum(a), rtol=0.0)
    _same(la.astype(np.float64) * 2, a.astype(np.float64) * 2, rtol=0.0)
    _same(lnp.asarray(np.arange(5)).astype(np.float16) + 0.1, np.arange(5).astype(np.float16) + 0.1,
          rtol=0.0)
    big = lnp.asarray(np.array([60000.0], np.float16))
    _same(big * 2, np.array([60000.0], np.float16) * np.float16(2), rtol=0.0)   # overflows to inf


def test_nothing_syncs_or_falls_back_before_the_read():
    lnp.reset_metrics()
    z = lnp.exp(1j * lnp.linspace(0, 3, 50))
    y = (z * z.conj()).real.sum() + lnp.abs(z @ z) + lnp.angle(z).mean()
    h = lnp.ones(8, np.float16) * 0.1
    h = h.cumsum()
    spectrum = lnp.fft.rfft(h.astype(np.float32))
    counts = lnp.metrics()
    assert counts["syncs"] == 0 and counts["fallbacks"] == 0
    np.asarray(y), np.asarray(spectrum)
    assert lnp.metrics()["fallbacks"] == 0


def test_llvm_fuses_complex_arithmetic_and_keeps_the_rest_extern_with_a_reason():
    z = (np.arange(6) + 1j).astype(np.complex128)
    got, program = compiled(lambda m, a: (a * a + 1).sum(), z)
    S.assert_same(got, (z * z + 1).sum(), rtol=1e-12)
    assert (program.kernel_count, program.extern_count) == (1, 0)
    from lazynum.compile.wide_dtypes import extern_reason
    assert extern_reason((lnp.asarray(z) * 2)._n()) is None
    assert "complex128" in extern_reason(lnp.log1p(lnp.asarray(z))._n())
    assert "float16" in extern_reason(lnp.ones(3, np.float16).sum()._n())
    assert extern_reason((lnp.ones(3) * 2)._n()) is None
    # a complex transcendental is an extern step; the float kernel reading its parts fuses
    got, program = compiled(lambda m, a: m.sqrt(m.log1p(a).real + 1) * 2, z)
    S.assert_same(got, np.sqrt(np.log1p(z).real + 1) * 2)
    assert (program.kernel_count, program.extern_count) == (1, 1)


def test_supported_dtypes_are_numpys_numeric_set():
    assert dtypes.SUPPORTED >= {np.dtype(t) for t in (np.float16, np.complex64, np.complex128)}
    for other in ("U3", "datetime64[s]", object):       # NumPy-backed (test_exotic_dtypes)
        assert lnp.zeros(2, dtype=other).dtype == np.dtype(other)


# -- fuzz findings (complex joined the fuzzer's dtypes) ------------------------------------------
def test_bounded_arrays_take_python_complex_operands():
    # seed 200096: `selection + complex(...)` and `selection > complex(...)` were TypeErrors
    a = np.array([1 + 2j, -3 + 0.5j, 0j], np.complex128)
    s = lnp.asarray(a)[lnp.asarray(a) != 0]
    S.assert_same(s + complex(-2.0, 0.5), a[a != 0] + complex(-2.0, 0.5))
    S.assert_same(complex(1, 1) * s, complex(1, 1) * a[a != 0])
    S.assert_same(s > complex(-2.5, 2.5), a[a != 0] > complex(-2.5, 2.5))


def test_int_and_float_of_a_complex_scalar_take_the_real_part_with_numpys_warning():
    # seed 200138: NumPy's complex scalars convert (ComplexWarning); 0-d arrays refuse
    a = np.array([3 + 2j, 1 - 1j], np.complex64)
    lazy = lnp.asarray(a)
    with pytest.warns(np.exceptions.ComplexWarning):
        assert int(lazy.sum()) == int(a.sum()) == 4
    with pytest.warns(np.exceptions.ComplexWarning):
        assert float(lazy[1]) == float(a[1]) == 1.0
    with pytest.raises(TypeError):
        float(lnp.asarray(np.array(1 + 2j)))


@pytest.mark.parametrize("selected", [False, True])
def test_unique_collapses_complex_nans_like_numpy(selected):
    # seed 200305: every value with a NaN part is one NaN for unique (equal_nan)
    a = np.array([complex(4, np.nan), 0, complex(4, np.nan), complex(np.nan, 1), 1 + 1j,
                  complex(np.nan, np.nan)], np.complex128)
    lazy = lnp.asarray(a)
    if selected:
        S.assert_same(lnp.unique(lazy[lazy != 0]), np.unique(a[a != 0]))
    else:
        S.assert_same(lnp.unique(lazy), np.unique(a))
