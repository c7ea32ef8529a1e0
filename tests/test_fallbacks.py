"""The long tail of NumPy: lazy where lazynum has it, counted NumPy fallbacks elsewhere."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazynum as lnp

from . import strategies as S


@given(S.lazy_views(S.arrays(S.float_dtypes, S.shapes(min_dims=1, max_dims=1, min_side=1), small=True)),
       st.sampled_from([None, 1, 2, np.inf, -np.inf, 0, 3, 0.5]))
def test_vector_norm_is_lazy_and_matches_numpy(pair, ord):
    a, x = pair
    lnp.reset_metrics()
    result = lnp.linalg.norm(x, ord)
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    S.assert_same(result, np.linalg.norm(a, ord), rtol=1e-5 if a.dtype == np.float32 else 1e-12)


@given(S.lazy_views(S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=2, max_dims=3, min_side=1),
                             small=True)),
       st.sampled_from([None, "fro", 1, -1, np.inf, -np.inf]), st.booleans())
def test_matrix_norm_is_lazy_and_matches_numpy(pair, ord, keepdims):
    a, x = pair
    axis = (a.ndim - 1, 0)
    lnp.reset_metrics()
    result = lnp.linalg.norm(x, ord, axis=axis, keepdims=keepdims)
    assert lnp.metrics()["fallbacks"] == 0
    S.assert_same(result, np.linalg.norm(a, ord, axis=axis, keepdims=keepdims))


def test_numpy_linalg_norm_dispatches_to_the_lazy_norm():
    x = lnp.asarray(np.arange(6.0)).reshape(2, 3) * 2
    result = np.linalg.norm(x)
    assert isinstance(result, lnp.ndarray) and lnp.metrics()["fallbacks"] == 0
    S.assert_same(result, np.linalg.norm(np.arange(6.0).reshape(2, 3) * 2))


def test_spectral_norms_and_other_linalg_fall_back_and_are_counted():
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    x = lnp.asarray(a) * 1.0
    S.assert_same(lnp.linalg.norm(x, 2), np.linalg.norm(a, 2))
    S.assert_same(lnp.linalg.inv(x), np.linalg.inv(a))
    S.assert_same(lnp.linalg.solve(x, lnp.ones(2)), np.linalg.solve(a, np.ones(2)))
    assert lnp.metrics()["fallbacks"] == 3
    report = lnp.metrics_report()
    assert "numpy.linalg.inv" in report and "test_fallbacks.py" in report


def test_top_level_numpy_functions_without_lazy_versions_fall_back():
    a = np.arange(10.0)
    x = lnp.asarray(a) * 1.0
    assert lnp.percentile(x, 30) == np.percentile(a, 30)
    S.assert_same(lnp.bincount(lnp.asarray([0, 1, 1, 3])), np.bincount([0, 1, 1, 3]))
    assert lnp.metrics()["fallbacks"] == 2


def test_random_module_gives_lazy_arrays():
    lnp.random.seed(3)
    got = lnp.random.rand(4)
    np.random.seed(3)
    assert isinstance(got, lnp.ndarray)
    S.assert_same(got, np.random.rand(4))


def test_unknown_names_are_attribute_errors():
    with pytest.raises(AttributeError):
        lnp.not_a_numpy_function
    with pytest.raises(AttributeError):
        lnp.linalg.not_a_function
