"""numpy.linalg's Array API functions (frontend/array_api_linalg.py, linalg.vector_norm and
matrix_norm), angle, rollaxis and row_stack: NumPy's values, dtypes, shapes and errors with
no sync and no fallback."""
import warnings

import numpy as np
import pytest

import lazynum as lnp
from .strategies import assert_same

X = np.random.default_rng(1).standard_normal((2, 3, 3))


def _no_sync(fn):
    lnp.reset_metrics()
    result = fn()
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    return result


CASES = [
    ("cross", (X, X[::-1]), {}), ("cross", (X, X), {"axis": 1}),
    ("diagonal", (X,), {"offset": 1}), ("diagonal", (X,), {"offset": -2}),
    ("matrix_transpose", (X,), {}), ("trace", (X,), {}), ("trace", (X.astype("i4"),), {}),
    ("trace", (X,), {"offset": 1, "dtype": np.float32}),
    ("vector_norm", (X,), {}), ("vector_norm", (X,), {"axis": (0, 2), "keepdims": True}),
    ("vector_norm", (X,), {"axis": -1, "ord": 1}), ("vector_norm", (X,), {"ord": np.inf}),
    ("vector_norm", (X,), {"keepdims": True, "ord": 3}),
    ("matrix_norm", (X,), {}), ("matrix_norm", (X,), {"ord": 1, "keepdims": True}),
    ("matrix_norm", (X,), {"ord": "nuc"}),
]


@pytest.mark.parametrize("name,args,kwargs", CASES)
def test_array_api_linalg_matches_numpy(name, args, kwargs):
    got = _no_sync(lambda: getattr(lnp.linalg, name)(*[lnp.asarray(a) for a in args], **kwargs))
    assert_same(got, getattr(np.linalg, name)(*args, **kwargs), rtol=1e-12)


def test_array_api_linalg_errors():
    with pytest.raises(ValueError):
        lnp.linalg.cross(lnp.zeros((2, 2)), lnp.zeros((2, 2)))
    with pytest.raises(ValueError):
        lnp.linalg.matrix_transpose(lnp.zeros(3))
    with pytest.raises(np.linalg.LinAlgError):
        lnp.linalg.matrix_norm(lnp.zeros(3))


@pytest.mark.parametrize("dtype", ["f8", "f4", "i8", "?"])
@pytest.mark.parametrize("deg", [False, True])
def test_angle_of_real_values(dtype, deg):
    v = np.array([-1.5, -0.0, 0.0, 2.0, np.nan, -np.inf]).astype(dtype) if dtype[0] == "f" \
        else np.array([-2, 0, 3]).astype(dtype)
    assert_same(_no_sync(lambda: lnp.angle(lnp.asarray(v), deg=deg)), np.angle(v, deg=deg))


@pytest.mark.parametrize("axis,start", [(2, 0), (0, 3), (1, 1), (-1, 1), (0, -1)])
def test_rollaxis_is_a_view_in_numpys_order(axis, start):
    x = np.arange(24.0).reshape(2, 3, 4)
    a = lnp.asarray(x) + 0
    got = _no_sync(lambda: lnp.rollaxis(a, axis, start))
    assert_same(got, np.rollaxis(x, axis, start))
    got[...] = -1.0                               # a view: the write reaches ``a``
    assert (np.asarray(a) == -1.0).all()
    with pytest.raises(np.exceptions.AxisError):
        lnp.rollaxis(a, 0, 5)


def test_row_stack_warns_and_stacks():
    x = np.arange(6.0).reshape(2, 3)
    with pytest.warns(DeprecationWarning):
        got = lnp.row_stack([lnp.asarray(x), lnp.asarray(x[0])])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert_same(got, np.row_stack([x, x[0]]))
