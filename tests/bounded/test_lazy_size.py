"""A bounded dim's size (``LazySize``) behaves as NumPy's int wherever Python needs a value
(each such use a counted sync) and stays lazy where lazynum consumes it."""
import operator

import numpy as np
import pytest

import lazynum as lnp


def _size():
    x = lnp.asarray(np.arange(10.0))
    selected = x[x > 4.5]
    return selected, selected.size


@pytest.mark.parametrize("use, expected", [
    (lambda s: f"{s} selected", "5 selected"),
    (lambda s: str(s), "5"),
    (lambda s: "{:,}".format(s), "5"),
    (lambda s: "%d" % s, "5"),
    (lambda s: s / 2, 2.5),
    (lambda s: s * 1.0, 5.0),
    (lambda s: s - 0.5, 4.5),
    (lambda s: 2.0 ** s, 32.0),
    (lambda s: s ** 2, 25),
    (lambda s: 10 - s, 5),
    (lambda s: 7 % s, 2),
    (lambda s: float(s), 5.0),
    (lambda s: bool(s), True),
    (lambda s: operator.index(s), 5),
    (lambda s: max(s, 3) == 5, True),
    (lambda s: min(s, 3), 3),
    (lambda s: hash(s), hash(5)),
    (lambda s: np.float64(2) * s, 10.0),
])
def test_python_uses_behave_as_numpys_int_and_each_syncs(use, expected):
    _, s = _size()
    lnp.reset_metrics()
    got = use(s)
    assert got == expected and type(got) is type(expected) or (
        isinstance(expected, float) and float(got) == expected)
    assert lnp.metrics()["syncs"] >= 1


def test_numpy_asarray_is_an_int_array():
    _, s = _size()
    converted = np.asarray(s)
    assert converted.dtype == np.int64 and converted.shape == () and int(converted) == 5


def test_lazynum_consumers_keep_it_lazy():
    selected, s = _size()
    lnp.reset_metrics()
    bigger = s + 1
    assert isinstance(bigger, lnp.LazySize) and repr(bigger) == "<=11" and repr(s) == "<=10"
    mean = selected.sum() / s                       # a lazy array op: no sync
    scaled = s * lnp.asarray(np.ones(2))
    assert lnp.metrics()["syncs"] == 0
    assert float(mean) == np.arange(5.0, 10.0).mean()
    np.testing.assert_array_equal(np.asarray(scaled), [5.0, 5.0])
