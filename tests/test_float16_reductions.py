"""float16 sums and products are NumPy's bits (issue 15 item 1).

NumPy's float16 add/multiply loops accumulate each inner loop in float32 (add pairwise,
with eight accumulators per block of 128; multiply in order) and round to half when the
loop ends; the iterator's inner loop is usually the contiguous axis, and reducing over
another axis makes every element a loop of its own, which rounds.  So the result depends
on the size (below 8, below 128, above the 8192-element buffer), the axis and the layout,
on ``initial`` (the loop starts from it: one rounding, where ``sum + initial`` makes two)
and on a ``where`` mask (each run of true elements is one loop).  Every comparison here is
bitwise, on both backends; the values are chosen so that the roundings matter (sums of
0.1-ish halves drift by whole units from the exact sum).
"""
import warnings

import numpy as np
import pytest

import lazynum as lnp

SIZES = (1, 3, 7, 8, 9, 16, 17, 127, 128, 129, 257, 1000, 8191, 8193, 20000)
SHAPES = ((3, 5), (130, 3), (3, 130), (9, 17, 3), (8192 * 3, 2), (2, 300, 7), (9, 1, 129))


def _halves(rng, shape, scale=1.0, offset=0.1):
    return (rng.standard_normal(shape) * scale + offset).astype(np.float16)


def _assert_bits(fn, *arrays):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        expected = np.asarray(fn(np, *arrays))
        got = np.asarray(fn(lnp, *(lnp.asarray(a) for a in arrays)))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert got.tobytes() == expected.tobytes(), (got.ravel()[:4], expected.ravel()[:4])


FULL = {
    "sum": lambda m, a: a.sum(), "nansum": lambda m, a: m.nansum(a), "mean": lambda m, a: a.mean(),
    "var": lambda m, a: a.var(), "prod": lambda m, a: (a * 0.01 + 1).prod(),
    "cumsum": lambda m, a: a.cumsum(), "fused": lambda m, a: (a * a - 0.5).sum(),
    "strided": lambda m, a: a[::3].sum(), "reversed": lambda m, a: a[::-1].sum(),
    "initial": lambda m, a: m.add.reduce(a, initial=3.0),
    "prod initial": lambda m, a: m.multiply.reduce(a * 0.01 + 1, initial=1.5),
    "where": lambda m, a: a.sum(where=a > 0),
    "where and initial": lambda m, a: (a * 0.01 + 1).prod(where=a < 1, initial=-2.0),
}


@pytest.mark.parametrize("name", sorted(FULL))
def test_full_float16_reductions_are_numpys_bits_at_every_size(name):
    rng = np.random.default_rng(len(name))
    for n in SIZES:
        _assert_bits(FULL[name], _halves(rng, n, scale=3.0))


AXIS = {   # a: halves around 0.1; b: around 1 (products stay in range)
    "sum": lambda m, a, b, ax: a.sum(axis=ax), "keepdims": lambda m, a, b, ax: a.sum(axis=ax, keepdims=True),
    "mean": lambda m, a, b, ax: a.mean(axis=ax), "nansum": lambda m, a, b, ax: m.nansum(a, axis=ax),
    "prod": lambda m, a, b, ax: (b * b).prod(axis=ax), "transposed": lambda m, a, b, ax: a.T.sum(axis=ax),
    "fused": lambda m, a, b, ax: (a * 2 + 1).sum(axis=ax),
    "initial": lambda m, a, b, ax: a.sum(axis=ax, initial=2.0),
    "transposed prod initial": lambda m, a, b, ax: b.T.prod(axis=ax, initial=2.0),
    "where": lambda m, a, b, ax: a.sum(axis=ax, where=a > -0.5),
    "broadcast where": lambda m, a, b, ax: a.sum(axis=ax, where=a[:1] > -0.5, initial=-1.0),
    "prod where": lambda m, a, b, ax: (b - 0.01).prod(axis=ax, where=a < 1),
}


@pytest.mark.parametrize("name", sorted(AXIS))
def test_float16_reductions_over_axes_are_numpys_bits(name):
    rng = np.random.default_rng(len(name) + 100)
    for shape in SHAPES:
        a, b = _halves(rng, shape), _halves(rng, shape, scale=0.05, offset=1.0)
        for axis in list(range(len(shape))) + [None, (0, len(shape) - 1)]:
            _assert_bits(lambda m, x, y: AXIS[name](m, x, y, axis), a, b)


def test_float16_sums_saturate_where_numpy_rounds_per_element():
    # along axis 0 of a (rows, 2) array every element is its own inner loop: the running
    # sum of 0.1s stops at 256, where half's spacing (0.25) exceeds 2 * 0.1
    a = np.full((8192 * 3, 2), 0.1, np.float16)
    assert float(lnp.asarray(a).sum(axis=0)[0]) == 256.0
    _assert_bits(lambda m, x: x.sum(axis=0), a)
    _assert_bits(lambda m, x: x.sum(axis=0, initial=100.0), a)


def test_an_initial_value_rounds_once_with_the_sum_not_after_it():
    rng = np.random.default_rng(0)
    for _ in range(5):
        a = (rng.standard_normal(100) * 3 + 0.1).astype(np.float16)
    expected = np.add.reduce(a, initial=3.0)
    assert expected != np.float16(a.sum()) + np.float16(3.0)     # (the two roundings differ)
    assert lnp.add.reduce(lnp.asarray(a), initial=3.0).item() == expected.item()


def test_a_where_mask_and_initial_record_no_sync_and_no_fallback():
    a = lnp.asarray(_halves(np.random.default_rng(0), (64, 3)))
    lnp.reset_metrics()
    s = (a * 2).sum(axis=0, where=a > 0, initial=1.0)
    assert lnp.metrics()["syncs"] == 0
    np.asarray(s)
    assert lnp.metrics()["fallbacks"] == 0 and lnp.metrics()["syncs"] == 1


def test_gradients_through_float16_sums_with_where_and_initial():
    rng = np.random.default_rng(1)
    x = _halves(rng, (5, 4), scale=0.1, offset=1.0)
    mask = rng.random((5, 4)) > 0.4
    g = lnp.grad(lambda x: x.sum(where=mask, initial=2.0))(x)
    assert g.dtype == np.float16
    np.testing.assert_array_equal(np.asarray(g), mask.astype(np.float16))
    g = lnp.grad(lambda x: x.prod(axis=0, where=mask, initial=2.0).sum())(x)
    wide = np.where(mask, x.astype(np.float64), 1.0)
    expected = np.where(mask, 2.0 * wide.prod(axis=0) / wide, 0.0)
    np.testing.assert_allclose(np.asarray(g).astype(np.float64), expected, rtol=2e-3)
