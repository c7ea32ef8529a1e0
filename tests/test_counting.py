"""bincount (frontend/counting.py): NumPy's values, dtypes, lengths and errors, with no
fallback, and no sync wherever the producers bound the values (value_ranges)."""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp
from . import strategies as S
from .strategies import rngs, st


def _metrics():
    m = lnp.metrics()
    return m["syncs"], m["fallbacks"]


@given(x=S.arrays(S.int_dtypes, S.shapes(1, 1, 0, 30), small=True), minlength=st.integers(0, 40),
       weights=S.dtypes, weighted=st.booleans(), strided=st.booleans())
def test_bincount_of_inputs_matches_numpy(x, minlength, weights, weighted, strided):
    x = np.abs(x.astype(np.int64)).astype(x.dtype) if x.dtype.kind == "i" else x
    w = (np.arange(x.shape[0]) % 7 - 2).astype(weights) if weighted else None
    lazy = lnp.asarray(np.repeat(x, 2))[::2] if strided else lnp.asarray(x)
    lnp.reset_metrics()
    got, expected = S.same_error(
        lambda: lnp.bincount(lazy, None if w is None else lnp.asarray(w), minlength=minlength),
        lambda: np.bincount(x, w, minlength=minlength))
    if expected is not None:
        S.assert_same(got, expected)
    assert lnp.metrics()["fallbacks"] == 0


@given(n=st.integers(1, 200), k=st.integers(1, 9), extra=st.integers(0, 4), rng=rngs(),
       weights=S.dtypes)
def test_bincount_of_argmin_labels_is_lazy_with_static_length(n, k, extra, rng, weights):
    points, centers = rng.standard_normal((n, 2)), rng.standard_normal((k, 2))
    w = (rng.standard_normal(n) * 3).astype(weights)
    labels = ((points[:, None, :] - centers[None]) ** 2).sum(axis=2).argmin(axis=1)
    lp, lc = lnp.asarray(points), lnp.asarray(centers)
    lnp.reset_metrics()             # (per hypothesis example)
    lazy = ((lp[:, None, :] - lc[None]) ** 2).sum(axis=2).argmin(axis=1)
    counts = lnp.bincount(lazy, minlength=k + extra)
    sums = lnp.bincount(lazy, weights=lnp.asarray(w), minlength=k)
    assert counts.shape == (k + extra,) and _metrics() == (0, 0)
    S.assert_same(counts, np.bincount(labels, minlength=k + extra))
    S.assert_same(sums, np.bincount(labels, weights=w, minlength=k), rtol=1e-12)


@given(n=st.integers(1, 60), k=st.integers(1, 9), minlength=st.integers(0, 4), rng=rngs())
def test_bincount_below_a_bound_is_a_bounded_array(n, k, minlength, rng):
    points, centers = rng.standard_normal((n, 2)), rng.standard_normal((k, 2))
    labels = ((points[:, None, :] - centers[None]) ** 2).sum(axis=2).argmin(axis=1)
    lp, lc = lnp.asarray(points), lnp.asarray(centers)
    lnp.reset_metrics()             # (per hypothesis example)
    lazy = ((lp[:, None, :] - lc[None]) ** 2).sum(axis=2).argmin(axis=1)
    counts = lnp.bincount(lazy, minlength=minlength)
    if k > minlength:
        assert repr(counts.shape[0]) == f"<={k}"
    assert _metrics() == (0, 0)
    S.assert_same(lnp.asarray(counts), np.bincount(labels, minlength=minlength))


@pytest.mark.parametrize("make", [
    lambda m, x: m.digitize(x, [-1.0, 0.0, 0.5, 2.0]),
    lambda m, x: m.searchsorted(m.asarray([-1.0, 0.0, 0.5]), x),
    lambda m, x: (x > 0).astype(np.int64),
    lambda m, x: m.clip((x * 3).astype(np.int64), 0, 4),
    lambda m, x: (x * 10).astype(np.int64) % 5,
    lambda m, x: m.arange(x.shape[0]) % 3 + 1,
])
def test_bincount_of_ranged_producers_needs_no_sync(make):
    x = np.random.default_rng(1).standard_normal(50)
    lazy = make(lnp, lnp.asarray(x) * 1.0)
    got = lnp.bincount(lazy, minlength=6)
    assert _metrics() == (0, 0)
    S.assert_same(np.asarray(got), np.bincount(make(np, x), minlength=6))


def test_bincount_without_a_bound_syncs_once_for_the_length():
    x = lnp.asarray(np.array([3, 1, 2, 3])) * 2
    got = lnp.bincount(x)
    assert _metrics() == (1, 0)
    assert "bincount_length" in lnp.metrics_report()
    S.assert_same(got, np.bincount(np.array([6, 2, 4, 6])))


def test_negative_values_raise_numpys_value_error():
    with pytest.raises(ValueError, match="no negative elements"):
        lnp.bincount(lnp.asarray(np.array([1, -1])))            # a computed input: at the call
    with pytest.raises(ValueError, match="no negative elements"):
        lnp.bincount(lnp.asarray(np.array([1, -1])) * 2)        # no bound: at the call, after its sync
    lnp.reset_metrics()
    lazy = lnp.bincount(lnp.asarray(np.array([1, -1], np.int8)) * np.int8(1), minlength=300)
    assert _metrics()[0] == 0                                   # an int8 bound: the check runs in the program
    with pytest.raises(ValueError, match="no negative elements"):
        np.asarray(lazy)
    with pytest.raises(ValueError, match="no negative elements"):
        lnp.bincount(lnp.asarray(np.array([2**63 + 1], np.uint64)))


@pytest.mark.parametrize("x, kwargs", [
    (np.array([1.0]), {}), (np.array([1], np.float16), {}), (np.array([]), {}),
    (np.array([1]), {"minlength": None}), (np.array([1]), {"minlength": -1}),
    (np.array([], np.int64), {"minlength": -1}), (np.array([1]), {"minlength": 2.0}),
    (np.array([[1]]), {}), (np.array(1), {}),
    (np.array([1, 2]), {"weights": np.array([1, 2, 3])}),
    (np.array([1, 2]), {"weights": np.array([1 + 1j, 2])}),
    (np.array([1, 2]), {"weights": np.array([[1, 2]])}),
    (np.array([], np.int64), {"weights": np.array([1.0, 2.0]), "minlength": 2}),
    (np.array([], np.int64), {"minlength": 3}), (np.array([True, False]), {}),
])
def test_bincount_errors_and_edge_cases_match_numpy(x, kwargs):
    lazy_kwargs = {k: lnp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    got, expected = S.same_error(lambda: lnp.bincount(lnp.asarray(x), **lazy_kwargs),
                                 lambda: np.bincount(x, **kwargs))
    if expected is not None:
        S.assert_same(got, expected)


def test_bincount_in_a_loop_replays_one_program():
    rng = np.random.default_rng(3)
    lc = lnp.asarray(rng.standard_normal((4, 2)))
    for _ in range(3):
        lp = lnp.asarray(rng.standard_normal((100, 2)))
        labels = ((lp[:, None, :] - lc[None]) ** 2).sum(axis=2).argmin(axis=1)
        np.asarray(lnp.bincount(labels, minlength=4))
    assert lnp.metrics()["cache_hits"] >= 2 and lnp.metrics()["syncs"] == 3
