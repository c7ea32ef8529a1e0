"""numpy.linalg through LAPACK inside the program (frontend/lapack.py, expr/linalg.py):
NumPy's values, dtypes, shapes and result types, no sync and no fallback until the result
is read, NumPy's exception at the call for bad shapes and at the sync for bad data."""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp
from lazynum.runtime import compile_cache
from .strategies import rngs, st

DTYPES = [np.float64, np.float32, np.int64]


def _matrix(rng, shape, dtype, spd=False):
    a = rng.standard_normal(shape)
    n = shape[-1]
    if spd:
        a = a @ np.swapaxes(a, -1, -2) + n * np.eye(n)
    elif shape[-1] == shape[-2]:
        a = a + n * np.eye(n)                   # well conditioned
    if np.dtype(dtype).kind == "i":
        a = np.round(a * 3)
        if shape[-1] == shape[-2]:
            a = a + 20 * n * np.eye(n)          # still invertible after rounding
    return a.astype(dtype)


def _check(got, expected, dtype):
    got = np.asarray(got)
    expected = np.asarray(expected)
    assert got.shape == expected.shape and got.dtype == expected.dtype, (got.dtype, expected.dtype)
    rtol = 2e-4 if expected.dtype == np.float32 else 1e-10
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)


def _no_sync_then(results, expected):
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    lnp.sync(*results)
    for got, want in zip(results, expected):
        _check(got, want, want.dtype)


CASES = {
    "solve_vector": (lambda m, a: m.linalg.solve(a, a[..., 0] if a.ndim == 2 else a[0, :, 0]), False),
    "solve_matrix": (lambda m, a: m.linalg.solve(a, a[..., :2] * 2), False),
    "inv": (lambda m, a: m.linalg.inv(a), False),
    "det": (lambda m, a: m.linalg.det(a), False),
    "slogdet": (lambda m, a: m.linalg.slogdet(a), False),
    "cholesky": (lambda m, a: m.linalg.cholesky(a), True),
    "cholesky_upper": (lambda m, a: m.linalg.cholesky(a, upper=True), True),
    "eigvalsh": (lambda m, a: m.linalg.eigvalsh(a, UPLO="U"), True),
    "svdvals": (lambda m, a: m.linalg.svd(a, compute_uv=False), False),
    "pinv": (lambda m, a: m.linalg.pinv(a), False),
    "matrix_power": (lambda m, a: m.linalg.matrix_power(a, 5), False),
    "matrix_power_negative": (lambda m, a: m.linalg.matrix_power(a, -2), False),
    "matrix_power_zero": (lambda m, a: m.linalg.matrix_power(a, 0), False),
    "matrix_rank": (lambda m, a: m.linalg.matrix_rank(a), False),
    "cond": (lambda m, a: m.linalg.cond(a), False),
    "cond_minus_2": (lambda m, a: m.linalg.cond(a, -2), False),
    "norm_2": (lambda m, a: m.linalg.norm(a, 2, axis=(-2, -1)), False),
    "norm_nuc_keepdims": (lambda m, a: m.linalg.norm(a, "nuc", axis=(-1, -2), keepdims=True), False),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3)])
def test_each_function_matches_numpy_without_a_sync(name, dtype, shape):
    fn, spd = CASES[name]
    a = _matrix(np.random.default_rng(len(name)), shape, dtype, spd)
    expected = fn(np, a)
    lnp.reset_metrics()
    got = fn(lnp, lnp.asarray(a))
    if isinstance(expected, tuple):
        assert type(got) is type(expected)          # NumPy's named tuple
        _no_sync_then(got, expected)
    else:
        _no_sync_then([got], [np.asarray(expected)])


@pytest.mark.parametrize("full_matrices", [True, False])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 2)])
def test_factorizations_give_numpys_named_tuples_of_views(full_matrices, shape):
    a = np.random.default_rng(7).standard_normal(shape)
    la = lnp.asarray(a)
    lnp.reset_metrics()
    u, s, vh = lnp.linalg.svd(la, full_matrices=full_matrices)
    q, r = lnp.linalg.qr(la, mode="reduced" if full_matrices else "complete")
    r_only = lnp.linalg.qr(la, mode="r")
    expected = (np.linalg.svd(a, full_matrices=full_matrices)
                + np.linalg.qr(a, mode="reduced" if full_matrices else "complete")
                + (np.linalg.qr(a, mode="r"),))
    _no_sync_then([u, s, vh, q, r, r_only], list(expected))     # one sync for all of them
    ran = [step.op.name for step in compile_cache.most_recent().program.steps if hasattr(step, "op")]
    assert ran.count("linalg_svd") == 1 and ran.count("linalg_qr") == 2   # each result a view
    assert type(lnp.linalg.svd(la)) is type(np.linalg.svd(a))


def test_eigh_gives_the_eigenpairs_of_the_lower_or_upper_triangle():
    a = np.random.default_rng(3).standard_normal((3, 4, 4))       # not symmetric: a triangle counts
    for uplo in ("L", "U"):
        w, v = lnp.linalg.eigh(lnp.asarray(a), UPLO=uplo)
        ew, ev = np.linalg.eigh(a, UPLO=uplo)
        _check(w, ew, ew.dtype)
        _check(np.abs(np.asarray(v)), np.abs(ev), ev.dtype)        # (one LAPACK call: equal signs too)
        _check(v, ev, ev.dtype)


@pytest.mark.parametrize("fn", [lambda m, a: m.linalg.inv(a), lambda m, a: m.linalg.det(a),
                                lambda m, a: m.linalg.cholesky(a), lambda m, a: m.linalg.eigh(a),
                                lambda m, a: m.linalg.solve(a, a)])
@pytest.mark.parametrize("shape", [(3,), (2, 3)])
def test_bad_shapes_raise_numpys_linalg_error_at_the_call(fn, shape):
    a = np.ones(shape)
    with pytest.raises(np.linalg.LinAlgError):
        fn(np, a)
    lnp.reset_metrics()
    with pytest.raises(np.linalg.LinAlgError):
        fn(lnp, lnp.asarray(a))
    assert lnp.metrics()["syncs"] == 0


def test_a_singular_matrix_raises_at_the_sync_naming_the_call_and_leaves_arrays_usable():
    a = lnp.asarray(np.array([[1.0, 2.0], [2.0, 4.0]]))
    x = lnp.linalg.solve(a, lnp.ones(2))          # the line the error names
    with pytest.raises(np.linalg.LinAlgError) as info:
        np.asarray(x)
    assert any("linalg_solve" in note and "test_lapack.py" in note for note in info.value.__notes__)
    np.testing.assert_array_equal(np.asarray(a * 2), [[2.0, 4.0], [4.0, 8.0]])
    with pytest.raises(np.linalg.LinAlgError):
        np.asarray(lnp.linalg.cholesky(-a))
    np.testing.assert_allclose(float(lnp.linalg.det(a + lnp.eye(2))), np.linalg.det(
        np.array([[2.0, 2.0], [2.0, 5.0]])), rtol=1e-12)


def test_cond_of_a_singular_matrix_is_inf_and_a_nan_input_stays_nan():
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    with np.errstate(all="ignore"):
        assert float(lnp.linalg.cond(lnp.asarray(singular), 2)) == np.linalg.cond(singular, 2)
    nan = np.array([[np.nan, 1.0], [1.0, 1.0]])
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.cond(nan)
    assert lnp.linalg.cond(lnp.asarray(np.eye(3))).dtype == np.float64


def test_in_a_loop_the_program_is_compiled_once_and_fuses_around_the_calls():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((6, 6)) + 6 * np.eye(6)
    b = rng.standard_normal(6)
    x, lx = b.copy(), lnp.asarray(b)
    la = lnp.asarray(a)
    lnp.reset_metrics()
    for _ in range(4):              # x <- solve(a, 0.5 x + 1) / |.|: a sync per step
        x = np.linalg.solve(a, 0.5 * x + 1.0)
        x = x / np.linalg.norm(x)
        lx = lnp.linalg.solve(la, 0.5 * lx + 1.0)
        lx = lx / lnp.linalg.norm(lx)
        np.testing.assert_allclose(np.asarray(lx), x, rtol=1e-12)
    m = lnp.metrics()
    assert m["syncs"] == 4 and m["fallbacks"] == 0 and m["compiles"] <= 2


@given(n=st.integers(1, 5), k=st.integers(1, 3), batch=st.integers(0, 2), rng=rngs())
def test_solve_broadcasts_batches_as_numpy_does(n, k, batch, rng):
    a = rng.standard_normal((batch, 1, n, n)[2 - min(batch, 2):] if batch else (n, n)) + n * np.eye(n)
    b = rng.standard_normal((3, n, k) if batch else (n, k))
    _check(lnp.linalg.solve(lnp.asarray(a), lnp.asarray(b)), np.linalg.solve(a, b), np.float64)
