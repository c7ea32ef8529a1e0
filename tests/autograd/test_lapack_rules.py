"""VJP rules of the LAPACK primitives (expr/linalg.py) against central finite differences:
solve (vector and matrix right-hand sides, broadcast batches), inv, det, slogdet, cholesky
and eigh/eigvalsh (symmetric inputs built from free ones, as their perturbations must be)."""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp
from tests import strategies as S
from tests.autograd.finite_differences import assert_gradients

st = S.st


def _well_conditioned(rng, shape):
    n = shape[-1]
    return rng.standard_normal(shape) + n * np.eye(n)


@given(n=st.integers(1, 4), k=st.integers(1, 3), batched=st.booleans(), rng=S.rngs())
def test_solve_matches_finite_differences(n, k, batched, rng):
    a = _well_conditioned(rng, (2, n, n) if batched else (n, n))
    b = rng.standard_normal((3, 1, n, k) if batched else (n, k))     # batches broadcast
    v = rng.standard_normal(n)
    w = rng.standard_normal((3, 2, n, k) if batched else (n, k))

    def fn(xp, a, b, v):
        return (xp.linalg.solve(a, b) * w).sum() + (xp.linalg.solve(a[..., :, :] * 1.0, v) ** 2).sum()
    assert_gradients(fn, a, b, v, seed=int(rng.integers(1 << 30)))


@given(n=st.integers(1, 4), rng=S.rngs())
def test_inv_det_and_slogdet_match_finite_differences(n, rng):
    a = _well_conditioned(rng, (2, n, n))
    w = rng.standard_normal((2, n, n))

    def fn(xp, a):
        sign, logabsdet = xp.linalg.slogdet(a)
        return ((xp.linalg.inv(a) * w).sum() + (xp.linalg.det(a) * xp.asarray([0.5, -1.5])).sum()
                + (logabsdet * sign).sum())
    assert_gradients(fn, a, seed=int(rng.integers(1 << 30)))


@given(n=st.integers(1, 4), upper=st.booleans(), rng=S.rngs())
def test_cholesky_matches_finite_differences(n, upper, rng):
    x = rng.standard_normal((n, n))
    w = rng.standard_normal((n, n))

    def fn(xp, x):
        spd = x @ x.T + n * xp.eye(n)
        return (xp.linalg.cholesky(spd, upper=upper) * w).sum()
    assert_gradients(fn, x, seed=int(rng.integers(1 << 30)))


@given(n=st.integers(1, 4), rng=S.rngs())
def test_eigh_and_eigvalsh_match_finite_differences(n, rng):
    # distinct eigenvalues (a fixed spread plus a small random part), and functions of the
    # eigenvectors that do not depend on their signs
    spread = np.diag(np.arange(n) * 3.0)
    x = 0.3 * rng.standard_normal((n, n))
    c = rng.standard_normal(n)
    w = rng.standard_normal((n, n))

    def fn(xp, x):
        sym = x + x.T + spread
        values, vectors = xp.linalg.eigh(sym)
        return ((values * c).sum() + (vectors ** 2 * w).sum()
                + (xp.linalg.eigvalsh(sym, UPLO="U") ** 2).sum())
    assert_gradients(fn, x, seed=int(rng.integers(1 << 30)), rtol=1e-4)


def test_gradients_are_one_program_with_no_sync_before_it_is_read():
    a = _well_conditioned(np.random.default_rng(1), (4, 4))
    lnp.reset_metrics()
    g = lnp.grad(lambda a: lnp.linalg.slogdet(a)[1] + lnp.linalg.inv(a).sum())(lnp.asarray(a))
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    inv = np.linalg.inv(a)
    np.testing.assert_allclose(np.asarray(g), inv.T - (inv.T @ np.ones((4, 4)) @ inv.T), rtol=1e-10)


@pytest.mark.parametrize("fn", [lambda a: lnp.linalg.svd(a)[1].sum(), lambda a: lnp.linalg.qr(a)[1].sum(),
                                lambda a: lnp.linalg.pinv(a).sum()])
def test_factorizations_without_a_rule_say_so(fn):
    with pytest.raises(NotImplementedError, match="not written yet"):
        lnp.grad(fn)(lnp.asarray(np.eye(3)))
