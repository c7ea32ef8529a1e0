"""Immediate forms (frontend/immediate_forms.py): a namespace function or method on small
computed arrays is NumPy's call on their values, now; anything else takes the general path.
Values, dtypes, shapes, result types and memory order are NumPy's; what ran where is
asserted through ``metrics()`` and the results' state."""
from __future__ import annotations

import inspect
import warnings

import numpy
import pytest

import lazynum
from tests.strategies import IMMEDIATE_LIMIT, computed

LIMIT = IMMEDIATE_LIMIT
_computed = computed
pytestmark = pytest.mark.usefixtures("immediate_tier")


A = numpy.linspace(-2.0, 3.0, 12).reshape(3, 4)
B = numpy.arange(12.0).reshape(3, 4) - 5.0

CALLS = {
    "concatenate": lambda m, a, b: m.concatenate((a, b[:1]), axis=0),
    "stack": lambda m, a, b: m.stack([a, b], axis=1),
    "where": lambda m, a, b: m.where(a > 0, a, b),
    "clip": lambda m, a, b: m.clip(a, -1, 1),
    "round": lambda m, a, b: m.round(a, 1),
    "mean_axis": lambda m, a, b: m.mean(a, axis=1),
    "std": lambda m, a, b: m.std(b),
    "cumsum_method": lambda m, a, b: a.cumsum(axis=0),
    "dot": lambda m, a, b: m.dot(a, b.T),
    "argmax": lambda m, a, b: m.argmax(b),
    "take": lambda m, a, b: m.take(a, [0, 5, 2]),
    "pad": lambda m, a, b: m.pad(a, 1, mode="edge"),
    "norm": lambda m, a, b: m.linalg.norm(a, axis=0),
    "astype": lambda m, a, b: a.astype(numpy.float32),
    "allclose": lambda m, a, b: m.allclose(a, a + 1e-12),
    "transposed_clip": lambda m, a, b: m.clip(a.T, 0, 1),
    "histogram": lambda m, a, b: m.histogram(a, bins=3),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_results_are_numpys_and_computed_at_the_call(name):
    call = CALLS[name]
    a, b = lazynum.asarray(A), lazynum.asarray(B)
    lazynum.reset_metrics()
    got = call(lazynum, a, b)
    want = call(numpy, A, B)
    assert lazynum.metrics()["syncs"] == 0
    assert lazynum.metrics()["ops_immediate"] >= 1
    for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
        if isinstance(w, bool):
            assert g is w
            continue
        assert isinstance(g, lazynum.ndarray) and _computed(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        assert g.flags.c_contiguous == w.flags.c_contiguous
        numpy.testing.assert_array_equal(numpy.asarray(g), w)


def test_a_pending_argument_or_a_large_one_takes_the_general_path():
    with lazynum.config(immediate_below=0):
        pending = lazynum.asarray(A) * 2.0
    big = lazynum.asarray(numpy.ones(LIMIT + 1))
    c = lazynum.concatenate([pending, pending])
    s = lazynum.clip(big, 0, 0.5)
    assert not _computed(c) and not _computed(s)
    numpy.testing.assert_array_equal(numpy.asarray(c), numpy.concatenate([A * 2.0, A * 2.0]))
    numpy.testing.assert_array_equal(numpy.asarray(s), numpy.full(LIMIT + 1, 0.5))


def test_numpys_errors_are_raised_at_the_call():
    a = lazynum.asarray(A)
    with pytest.raises(ValueError):
        lazynum.concatenate((a, a[:, :2]), axis=0)
    with pytest.raises(numpy.exceptions.AxisError):
        lazynum.mean(a, axis=3)


def test_a_floating_point_error_is_reported_as_the_tier_reports_it():
    a = lazynum.asarray(numpy.array([0.0, 1.0]))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        r = lazynum.round(a / 0.0, 1)
    assert [str(w.message) for w in record] == ["divide by zero encountered in divide",
                                                "invalid value encountered in divide"]
    assert all(w.filename == __file__ and w.lineno == line for w in record)
    numpy.testing.assert_array_equal(numpy.asarray(r), [numpy.nan, numpy.inf])
    with lazynum.errstate(invalid="raise"):
        with pytest.raises(FloatingPointError):
            lazynum.std(lazynum.asarray(numpy.array([numpy.inf, 1.0])))


def test_views_stay_views_and_an_in_place_copy_false_is_not_taken():
    a = lazynum.asarray(A.copy())
    f = lazynum.flip(a)                  # a view in NumPy: not an immediate form
    a[0, 0] = 100.0
    assert float(f[-1, -1]) == 100.0
    x = lazynum.asarray(numpy.array([numpy.nan, 1.0]))
    y = lazynum.nan_to_num(x, copy=False)
    numpy.testing.assert_array_equal(numpy.asarray(y), [0.0, 1.0])


def test_integer_array_keys_gather_and_scatter_now_as_numpy():
    base = numpy.arange(10.0)
    x = lazynum.asarray(base.copy())
    index = lazynum.asarray(numpy.array([3, -1, 3, 0]))
    lazynum.reset_metrics()
    got = x[index]
    pair = lazynum.asarray(A)[numpy.array([2, 0]), 1:3]
    x[index] = lazynum.asarray(numpy.array([1.0, 2.0, 3.0, 4.0]))    # duplicates: the last wins
    x[numpy.array([5, 5])] += 1.0                                     # once, as in NumPy
    assert lazynum.metrics()["syncs"] == 0
    assert _computed(got) and _computed(pair)
    want = base.copy()
    numpy.testing.assert_array_equal(numpy.asarray(got), want[[3, -1, 3, 0]])
    numpy.testing.assert_array_equal(numpy.asarray(pair), A[numpy.array([2, 0]), 1:3])
    want[numpy.array([3, -1, 3, 0])] = [1.0, 2.0, 3.0, 4.0]
    want[numpy.array([5, 5])] += 1.0
    numpy.testing.assert_array_equal(numpy.asarray(x), want)
    with pytest.raises(IndexError):
        x[lazynum.asarray(numpy.array([0, 10]))]
    with pytest.raises(IndexError):
        x[numpy.array([10])] = 1.0
    numpy.testing.assert_array_equal(numpy.asarray(x), want)


def test_a_mask_selection_of_computed_arrays_is_an_array_of_its_true_size():
    x = lazynum.asarray(A)
    lazynum.reset_metrics()
    sel = x[x > 0.5]
    assert type(sel) is lazynum.ndarray and _computed(sel)      # not a bounded array
    assert lazynum.metrics()["syncs"] == 0
    assert sel.shape == A[A > 0.5].shape and f"{sel.size}" == str(A[A > 0.5].size)
    numpy.testing.assert_array_equal(numpy.asarray(sel), A[A > 0.5])
    with pytest.raises(IndexError):
        x[lazynum.asarray(numpy.array([True, False]))]
    with lazynum.config(immediate_below=0):
        pending = x > 0.5
    assert type(x[pending]) is lazynum.BoundedArray            # a pending mask: bounded


def test_a_store_checks_the_index_before_the_value_as_numpy():
    # fuzz seed 991125: NumPy's IndexError, not the value's OverflowError
    c = lazynum.asarray(numpy.array([[0]], dtype=numpy.int8))
    with pytest.raises(IndexError):
        c[-3, -3] = 300
    with pytest.raises(OverflowError):
        c[0, 0] = 300
    numpy.testing.assert_array_equal(numpy.asarray(c), [[0]])
