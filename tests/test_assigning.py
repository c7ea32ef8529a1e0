"""copyto, putmask, fill_diagonal (frontend/assigning.py): lazy writes into the array and
its views, NumPy's values and casting errors at the call, no sync and no fallback."""
import numpy as np
import pytest

import lazynum as lnp
from .strategies import assert_same


def _pair(shape=(3, 4), dtype="f8"):
    x = (np.arange(np.prod(shape)).reshape(shape) - 4).astype(dtype)
    return x, lnp.asarray(x) + 0


CASES = {
    "copyto": lambda m, a: m.copyto(a, 5),
    "copyto_array": lambda m, a: m.copyto(a, m.arange(4.0) * 2, casting="unsafe"),
    "copyto_where": lambda m, a: m.copyto(a, -a, where=a > 0),
    "copyto_where_list": lambda m, a: m.copyto(a, 9, where=[True, False, True, False]),
    "copyto_row": lambda m, a: m.copyto(a[1], m.arange(4)),
    "putmask": lambda m, a: m.putmask(a, a > 2, [10, 20, 30]),
    "putmask_scalar": lambda m, a: m.putmask(a, a < 0, -1),
    "putmask_empty": lambda m, a: m.putmask(a, a < 0, []),
    "fill_diagonal": lambda m, a: m.fill_diagonal(a, 9),
    "fill_diagonal_values": lambda m, a: m.fill_diagonal(a, [7, 8]),
    "fill_diagonal_view": lambda m, a: m.fill_diagonal(a[:, 1:], 6),
}


@pytest.mark.parametrize("dtype", ["f8", "i8", "i2"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_writes_match_numpy_and_reach_views(name, dtype):
    x, a = _pair(dtype=dtype)
    row = a[1]
    lnp.reset_metrics()
    try:
        expected = CASES[name](np, x)
    except TypeError as exc:
        with pytest.raises(type(exc)):
            CASES[name](lnp, a)
        return
    result = CASES[name](lnp, a)
    assert result is None and expected is None
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    assert_same(a, x)
    assert_same(row, x[1])


@pytest.mark.parametrize("shape,wrap", [((5, 3), True), ((5, 3), False), ((3, 5), False),
                                        ((3, 3, 3), False)])
def test_fill_diagonal_shapes(shape, wrap):
    x, a = _pair(shape)
    np.fill_diagonal(x, [1.5, 2.5], wrap=wrap)
    lnp.fill_diagonal(a, [1.5, 2.5], wrap=wrap)
    assert_same(a, x)


def test_errors_are_numpys_at_the_call():
    x, a = _pair(dtype="i1")
    before = np.asarray(a).copy()
    with pytest.raises(TypeError):
        lnp.copyto(a, 1.5)                               # same_kind refuses float -> int
    with pytest.raises(OverflowError):
        lnp.copyto(a, 300, casting="unsafe")
    with pytest.raises(TypeError):
        lnp.copyto(a, lnp.ones(4))
    with pytest.raises(TypeError):
        lnp.copyto(a, 1, where=lnp.ones((3, 4), int))
    with pytest.raises(ValueError):
        lnp.copyto(a, lnp.ones((2, 4), "i1"))
    with pytest.raises(ValueError):
        lnp.putmask(a, a[:2] > 0, 1)
    with pytest.raises(TypeError):
        lnp.putmask([1, 2], [True, False], 1)
    with pytest.raises(ValueError):
        lnp.fill_diagonal(lnp.zeros(3), 1)
    with pytest.raises(ValueError):
        lnp.fill_diagonal(lnp.zeros((2, 3, 3)), 1)
    assert_same(a, before)
    # NumPy refuses a read-only destination before it looks at the casting (fuzz seed 921617)
    read_only = lnp.broadcast_to(lnp.asarray(np.array([True, False, True])), (3, 3))
    with pytest.raises(ValueError, match="read-only"):
        lnp.copyto(read_only, lnp.zeros((3, 3), "complex64"))
    with pytest.raises(ValueError, match="read-only"):
        np.copyto(np.broadcast_to(np.array([True, False, True]), (3, 3)), np.zeros((3, 3), "complex64"))


def test_numpy_destination_is_written_by_numpy():
    dst = np.zeros(3)
    np.copyto(dst, lnp.arange(3.0) + 1)
    assert_same(dst, np.array([1.0, 2.0, 3.0]))
