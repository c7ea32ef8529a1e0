"""Views and copies of views at sizes straddling 8192 elements, differential against NumPy.

NumPy's ``unravel_index`` gives wrong coordinates past its 8192-element iterator buffer
for index arrays with a trailing length-1 axis (numpy/numpy#31980); the view primitive's
reference gathered through it for non-contiguous bases, so ``x[::2].reshape(-1, 1)``
and ``stack([x[::2], x[::2]], axis=1)`` were wrong from element 8193 on both backends.
Each case runs on realized inputs (views computed at once by the reference) and on
pending ones (views as index math in kernels).
"""
import numpy as np
import pytest

import lazynum as lnp

from . import strategies as S

SIZES = [8191, 8192, 8193, 8194, 8200, 16385, 3 * 8192 + 7]


def _inputs(n):
    """Twin inputs of about ``n`` elements: NumPy's, lazynum's realized and pending ones."""
    x = np.arange(2 * n, dtype=np.float64) * 0.5 - 3.0
    return x, [lnp.asarray(x), lnp.asarray(x) + 0.0]


CASES = {
    "strided copy": lambda m, x: m.asarray(x[::2]).copy(),
    "strided column": lambda m, x: x[::2].reshape(-1, 1),
    "strided column copy": lambda m, x: x[::2].reshape(-1, 1).copy(),
    "reversed column": lambda m, x: x[::-2].reshape(-1, 1) * 1.0,
    "2-d strided reshape": lambda m, x: x[:2 * (x.size // 22) * 11].reshape(-1, 11)[::2, 1::2]
    .reshape(-1, 1),
    "transpose of strided": lambda m, x: x[1::2].reshape(1, -1).T,
    "transpose of strided 2-d": lambda m, x: x[:(x.size // 6) * 6].reshape(-1, 6)[:, ::2].T
    .reshape(-1, 1),
    "stack columns": lambda m, x: m.stack([x[::2], x[::2]], axis=1),
    "stack rows": lambda m, x: m.stack([x[::2], x[1::2]], axis=0),
    "concatenate columns": lambda m, x: m.concatenate([x[::2, None], x[1::2, None]], axis=1),
    "concatenate strided": lambda m, x: m.concatenate([x[::3], x[::-2]]),
    "broadcast column": lambda m, x: m.broadcast_to(x[:1], (x.size // 2, 1)).reshape(1, -1)
    .T + x[::2, None],
}


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("case", list(CASES))
def test_views_of_views_straddling_8192(case, n):
    x, lazy_inputs = _inputs(n)
    expected = CASES[case](np, x)
    for lazy_x in lazy_inputs:
        S.assert_same(CASES[case](lnp, lazy_x), expected)


@pytest.mark.parametrize("n", [8192, 8193, 12001])
def test_reported_strided_reshape_column(n):
    x = np.arange(n * 11.).reshape(n, 11)
    got = np.asarray(lnp.asarray(x)[::2, 1::2].reshape(-1, 1))
    np.testing.assert_array_equal(got, x[::2, 1::2].reshape(-1, 1))
