"""Every transcendental computes an element the same way wherever it falls.

A compiled loop is a vector body, a vector epilogue and a scalar remainder, split again
across threads and into a reduction's parts; an array of one repeated value must still
give one result, the one it gives at index 0 of any size, close to NumPy's (issue 11
item 12: ``cos(0.75)`` at index 0 and at index 10 differed, so ``x == x.max()`` missed
the maximum and gradients of ``max`` vanished).
"""
import numpy as np
import pytest

import lazynum as lnp
from lazynum.backends.llvm import workers

UNARY = {"exp": 0.75, "exp2": 0.75, "expm1": 0.75, "log": 0.75, "log2": 0.75, "log10": 0.75,
         "log1p": 0.75, "sin": 0.75, "cos": 0.75, "tan": 0.75, "arcsin": 0.75, "arccos": 0.75,
         "arctan": 0.75, "sinh": 0.75, "cosh": 0.75, "tanh": 0.75, "arcsinh": 0.75,
         "arccosh": 1.75, "arctanh": 0.75, "cbrt": 0.75}
BINARY = {"arctan2": (0.75, 1.3), "hypot": (0.75, 1.3), "power": (0.75, 1.3),
          "float_power": (0.75, 1.3), "logaddexp": (0.75, 1.3), "logaddexp2": (0.75, 1.3)}
# vector body, epilogue and remainder at every length up to 70; then sizes split across
# threads (a launch splits from MIN_PARALLEL_WORK elements on)
SIZES = list(range(1, 71)) + [workers.MIN_PARALLEL_WORK + 37, 3 * workers.MIN_PARALLEL_WORK + 5]
RTOL = {np.float32: 2e-6, np.float64: 1e-13}


def _apply(name, n, dtype, xp=lnp):
    if name in UNARY:
        return getattr(xp, name)(xp.asarray(np.full(n, UNARY[name], dtype)))
    a, b = BINARY[name]
    return getattr(xp, name)(xp.asarray(np.full(n, a, dtype)), xp.asarray(np.full(n, b, dtype)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(UNARY) + sorted(BINARY))
def test_a_repeated_value_gives_one_result_at_every_position_and_size(name, dtype):
    expected = _apply(name, 1, dtype, np)[0]
    first = None
    with lnp.config(threads=4):
        for n in SIZES:
            got = np.asarray(_apply(name, n, dtype))
            assert got.dtype == expected.dtype
            first = got[0] if first is None else first
            different = np.flatnonzero(got != first)
            assert different.size == 0, (f"{name} {np.dtype(dtype)} length {n}: index "
                                         f"{different[0]} is {got[different[0]]!r}, index 0 "
                                         f"of length 1 is {first!r}")
    np.testing.assert_allclose(first, expected, rtol=RTOL[dtype])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [6, 37, 70, 2 * workers.MIN_PARALLEL_WORK + 3])
def test_reductions_over_a_repeated_value_see_ties(n, dtype):
    x = lnp.asarray(np.full(n, 0.75, dtype))
    with lnp.config(threads=4):
        y = lnp.cos(x)
        top = float(y.max())
        assert bool((y == y.max()).all())
        assert int(lnp.argmax(y)) == 0 and int(lnp.argmin(y)) == 0
        assert int(lnp.argmax(lnp.exp(x).reshape(1, n), axis=1)[0]) == 0
        np.testing.assert_array_equal(np.asarray(lnp.argsort(lnp.sin(x), kind="stable")), np.arange(n))
        assert float(lnp.tanh(x).max()) == float(lnp.tanh(x)[n - 1])
    assert top == float(np.asarray(y)[n - 1])


def test_gradient_of_max_of_cos_reaches_the_maximum():
    """The bug's example: the backward pass recomputes cos at other positions of other
    loops, and compares it with the forward maximum."""
    rng = np.random.default_rng(5)
    grad = lnp.grad(lambda x: lnp.max(lnp.cos(x)))
    for _ in range(20):
        x = rng.standard_normal(6)
        expected = np.zeros(6)
        k = np.argmax(np.cos(x))
        expected[k] = -np.sin(x[k])
        np.testing.assert_allclose(np.asarray(grad(lnp.asarray(x))), expected, rtol=1e-12, atol=0)


_CONSTANT_ARGUMENT_PROGRAM = """
import numpy, lazynum as np
with np.config(backend="llvm", cache_dir="off"):
    ones = np.asarray(numpy.zeros((1, 2), dtype=numpy.int8)).astype(np.uint64)
    ones = (ones <= ones).astype(np.float32)            # a constant once LLVM folds it
    a = np.concatenate([np.asarray(numpy.zeros((1, 1, 1), dtype=numpy.int16))] * 2)
    a -= a
    counts = np.unique(np.asarray(numpy.array(0, dtype=numpy.int16)), return_counts=True)[1]
    results = [np.cbrt(ones), np.sin(a), np.diff(counts) ** 2.0]
    expected = [numpy.cbrt(numpy.ones((1, 2), numpy.float32)), numpy.zeros((2, 1, 1), numpy.float32),
                numpy.zeros(0)]
    for got, want in zip(results, expected):
        got = numpy.asarray(got)
        assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
        assert numpy.allclose(got, want), (got, want)
print("ok")
"""


def test_a_math_call_on_a_constant_argument_compiles(backend):
    """LLVM once folded a constant argument into the scalar math function, leaving a call
    that no longer matched its vector variant: the loop vectorizer aborted the process
    (found by bench/fuzz).  Run in a child so a regression fails this test, not the run."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", _CONSTANT_ARGUMENT_PROGRAM], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0 and "ok" in done.stdout, done.stderr[-2000:]
