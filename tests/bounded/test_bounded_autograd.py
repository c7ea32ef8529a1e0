"""Gradients through bounded dims (issue 6, part 6): masks, masked means, nonzero + gather."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazynum as lnp

from .. import strategies as S

vectors = S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=1, max_dims=2, min_side=1, max_side=6),
                   small=True)


@given(vectors, st.floats(-1e3, 1e3))
def test_grad_of_a_masked_sum_is_the_mask(x, t):
    g = lnp.grad(lambda a: (a[a > t] * 3.0).sum())(x)
    np.testing.assert_array_equal(np.asarray(g), np.where(x > t, 3.0, 0.0))


@given(vectors, st.floats(-1e3, 1e3))
def test_grad_of_a_masked_mean_and_of_squares(x, t):
    keep = x > t
    if not keep.any():
        return
    g = lnp.grad(lambda a: (a[a > t] ** 2).mean())(x)
    expected = np.where(keep, 2 * x / keep.sum(), 0.0)
    np.testing.assert_allclose(np.asarray(g), expected, rtol=1e-12, atol=1e-12)


@given(vectors, st.floats(-1e3, 1e3))
def test_grad_through_nonzero_then_gather(x, t):
    g = lnp.grad(lambda a: (a[lnp.nonzero(a > t)] * a[lnp.nonzero(a > t)]).sum())(x)
    np.testing.assert_allclose(np.asarray(g), np.where(x > t, 2 * x, 0.0), rtol=1e-12, atol=1e-12)


def test_bounded_gradients_need_no_sync_and_replay():
    from lazynum.runtime import compile_cache
    compile_cache.clear_memory()
    lnp.reset_metrics()
    for t in (0.0, 0.5, 1.0):
        x = np.linspace(-2, 2, 41)
        g = lnp.grad(lambda a: lnp.sqrt(a[a > t]).sum())(x)
        with np.errstate(divide="ignore"):
            expected = np.where(x > t, 0.5 / np.sqrt(np.abs(x)), 0.0)
        np.testing.assert_allclose(np.asarray(g), expected)
    assert lnp.metrics()["compiles"] == 1 and lnp.metrics()["syncs"] == 3


def test_nan_safety_through_a_mask():
    x = np.array([-1.0, 0.0, 4.0])
    g = lnp.grad(lambda a: lnp.log(a[a > 0]).sum())(x)
    np.testing.assert_array_equal(np.asarray(g), [0.0, 0.0, 0.25])
    assert not np.isnan(np.asarray(g)).any()
    with pytest.raises(TypeError):
        lnp.grad(lambda a: a[a > 0].sum())(np.arange(3))
