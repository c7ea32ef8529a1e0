"""polyadd .. polyfit (frontend/polynomials.py), packbits/unpackbits (frontend/bits.py), i0
(frontend/bessel.py) and trim_zeros (frontend/editing.py): NumPy's values, dtypes, shapes and
exception types, with no sync and no fallback before the result is read."""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp
from .strategies import (arrays, assert_same, bit_arrays, float_dtypes, polynomial_coefficients,
                         rngs, same_error, st)


def _lazy_then(fn, expected, rtol=None):
    """Run ``fn`` (lazy), assert nothing synced or fell back, then compare with NumPy."""
    lnp.reset_metrics()
    got = fn()
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    pairs = zip(got, expected) if isinstance(expected, tuple) else [(got, expected)]
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
    for g, e in pairs:
        tol = rtol if rtol is not None else 1e-4 if np.asarray(e).dtype == np.float32 else 1e-9
        assert_same(g, e, rtol=tol, atol=1e-9)


@given(a=polynomial_coefficients(), b=polynomial_coefficients(),
       name=st.sampled_from(["polyadd", "polysub", "polymul"]))
def test_sums_and_products_match_numpy(a, b, name):
    _lazy_then(lambda: getattr(lnp, name)(lnp.asarray(a), lnp.asarray(b)),
               getattr(np, name)(a, b))


@given(p=polynomial_coefficients(), m=st.integers(0, 3), k=st.none() | st.integers(-3, 3))
def test_derivatives_and_antiderivatives_match_numpy(p, m, k):
    _lazy_then(lambda: lnp.polyder(lnp.asarray(p), m), np.polyder(p, m))
    _lazy_then(lambda: lnp.polyint(lnp.asarray(p), m, k), np.polyint(p, m, k))


@given(u=polynomial_coefficients(1, 7), v=polynomial_coefficients(1, 3))
def test_division_matches_numpy_with_a_bounded_remainder(u, v):
    v = v.copy()
    v[0] = v[0] if v[0] != 0 else 2          # (NumPy divides by the leading coefficient)
    _lazy_then(lambda: lnp.polydiv(lnp.asarray(u), lnp.asarray(v)), np.polydiv(u, v))


def test_division_drops_a_near_zero_leading_remainder():
    u, v = np.array([1.0, -3, 3, -1 + 1e-12]), np.array([1.0, -1])
    _lazy_then(lambda: lnp.polydiv(lnp.asarray(u), lnp.asarray(v)), np.polydiv(u, v))


@given(n=st.integers(4, 30), deg=st.integers(0, 3), two_d=st.booleans(), weighted=st.booleans(),
       cov=st.sampled_from([False, True, "unscaled"]), dtype=float_dtypes, rng=rngs())
def test_polyfit_matches_numpy(n, deg, two_d, weighted, cov, dtype, rng):
    x = np.linspace(-1, 2, n).astype(dtype)
    y = (rng.standard_normal((n, 2) if two_d else n)).astype(dtype)
    w = rng.random(n) + 0.5 if weighted else None
    lw = None if w is None else lnp.asarray(w)
    if cov == True and n <= deg + 1:  # noqa: E712  (NumPy's error, at the call)
        same_error(lambda: lnp.polyfit(lnp.asarray(x), lnp.asarray(y), deg, w=lw, cov=cov),
                   lambda: np.polyfit(x, y, deg, w=w, cov=cov))
        return
    _lazy_then(lambda: lnp.polyfit(lnp.asarray(x), lnp.asarray(y), deg, w=lw, cov=cov),
               np.polyfit(x, y, deg, w=w, cov=cov), rtol=1e-4 if dtype == np.float32 else 1e-8)
    got, want = lnp.polyfit(lnp.asarray(x), lnp.asarray(y), deg, full=True), np.polyfit(x, y, deg, full=True)
    for g, e in zip(got[:4], want[:4]):
        assert_same(g, e, rtol=1e-3 if dtype == np.float32 else 1e-8, atol=1e-6)
    assert got[4] == want[4]


@pytest.mark.parametrize("call", [
    lambda m: m.polyfit(m.ones(3), m.ones(3), -1), lambda m: m.polyfit(m.ones((2, 2)), m.ones(2), 1),
    lambda m: m.polyfit(m.ones(3), m.ones(4), 1), lambda m: m.polyder(m.ones(3), -1),
    lambda m: m.polyint(m.ones(3), 3, [1, 2])])
def test_polynomial_errors_are_numpys(call):
    same_error(lambda: call(lnp), lambda: call(np))


def test_poly1d_arguments_give_numpys_poly1d():
    p = np.poly1d([1.0, 2.0])
    for name, args in (("polyadd", (p, [1, 2, 3])), ("polymul", (p, p)), ("polyder", (p,)),
                       ("polyint", (p,)), ("polydiv", (np.poly1d([1.0, 3, 2]), p))):
        got, want = getattr(lnp, name)(*args), getattr(np, name)(*args)
        assert type(got) is type(want)
        assert lnp.metrics()["fallbacks"] == 0


@given(a=bit_arrays(), bitorder=st.sampled_from(["big", "little"]), data=st.data())
def test_packbits_and_unpackbits_match_numpy(a, bitorder, data):
    axis = data.draw(st.none() | st.integers(-max(a.ndim, 1), max(a.ndim, 1) - 1))
    _lazy_then(lambda: lnp.packbits(lnp.asarray(a), axis=axis, bitorder=bitorder),
               np.packbits(a, axis=axis, bitorder=bitorder))
    packed = np.packbits(a, axis=axis, bitorder=bitorder)
    bits = packed.size * 8 if axis is None else (packed.shape[axis] if packed.ndim else 1) * 8
    count = data.draw(st.none() | st.integers(-bits, bits + 9))
    if packed.size == 0 and count:
        count = None                # (NumPy pads an empty input with uninitialized bits)
    _lazy_then(lambda: lnp.unpackbits(lnp.asarray(packed), axis=axis, count=count, bitorder=bitorder),
               np.unpackbits(packed, axis=axis, count=count, bitorder=bitorder))


@pytest.mark.parametrize("call", [
    lambda m: m.packbits(m.ones(3)), lambda m: m.packbits(m.ones(3, int), bitorder="x"),
    lambda m: m.packbits(m.ones(3, int), bitorder=None), lambda m: m.unpackbits(m.ones(3, "i1")),
    lambda m: m.unpackbits(m.ones(3, "u1"), count=-30), lambda m: m.packbits(m.ones((2, 3), int), axis=2),
    lambda m: m.unpackbits(m.ones(3, "u1"), count=1.5)])
def test_bit_errors_are_numpys(call):
    same_error(lambda: call(lnp), lambda: call(np))


@given(x=arrays(st.sampled_from([np.dtype(t) for t in ("f8", "f4", "f2", "i4", "?")]), finite=False))
def test_i0_matches_numpy(x):
    # (bit for bit on the numpy backend; llvm's own exp may differ from NumPy's by an ulp)
    with np.errstate(all="ignore"):
        expected = np.i0(x)
        _lazy_then(lambda: lnp.i0(lnp.asarray(x)), expected, rtol=1e-3 if x.dtype == "f2" else None)


def test_i0_refuses_complex():
    same_error(lambda: lnp.i0(lnp.ones(2, complex)), lambda: np.i0(np.ones(2, complex)))


@given(a=arrays(st.sampled_from([np.dtype("f8"), np.dtype("i8")]), shape=st.integers(0, 9).map(
    lambda n: (n,)), small=True), trim=st.sampled_from(["fb", "f", "b", "BF"]), rng=rngs())
def test_trim_zeros_matches_numpy_with_a_bounded_result(a, trim, rng):
    a = np.where(rng.random(a.shape) < 0.5, 0, a).astype(a.dtype)      # runs of zeros
    _lazy_then(lambda: lnp.trim_zeros(lnp.asarray(a), trim), np.trim_zeros(a, trim))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_trim_zeros_along_one_axis_of_a_matrix(axis):
    a = np.array([[0, 0, 0, 0], [0, 1, 2, 0], [0, 0, 0, 0]])
    _lazy_then(lambda: lnp.trim_zeros(lnp.asarray(a), axis=axis), np.trim_zeros(a, axis=axis))
    same_error(lambda: lnp.trim_zeros(lnp.asarray(a), "x"), lambda: np.trim_zeros(a, "x"))
