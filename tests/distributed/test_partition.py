"""Differential tests: the same NumPy-style program on NumPy arrays and on lazynum arrays over
chunked Dask arrays (uneven edge blocks), on Dask's synchronous and threaded schedulers and on
a 2-process LocalCluster; and the shape of the Dask graphs the cuts become."""
import dask.array as da
import numpy
import pytest

import lazynum

RNG = numpy.random.default_rng(7)
A = RNG.standard_normal((11, 8))
B = RNG.standard_normal((11, 8))
C = RNG.standard_normal((13, 6)).astype(numpy.float32)
I = RNG.integers(-50, 50, size=(11, 8))
W = RNG.standard_normal(8)
V = RNG.standard_normal(10)


def _softmax(np, a):
    e = np.exp(a - a.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _heat(np, a):
    return 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])


# name -> program(np, a, b, c, i, v): uses only the np it is given
CASES = {
    "elementwise chain": lambda np, a, b, c, i, v: 2 * a + b * b - a / 3,
    "where and cast": lambda np, a, b, c, i, v: np.where(a > 0, a, 0.5 * b).astype(np.float32),
    "math functions": lambda np, a, b, c, i, v: np.tanh(a) + np.sqrt(np.abs(b)) * np.exp(-a * a),
    "clip and maximum": lambda np, a, b, c, i, v: np.maximum(np.clip(a, -0.5, 0.5), b),
    "local operand": lambda np, a, b, c, i, v: a * np.asarray(W) + 1.0,
    "column operand": lambda np, a, b, c, i, v: a + np.asarray(V)[:, None][:8].T[0],
    "centered rows": lambda np, a, b, c, i, v: a - a.mean(axis=1, keepdims=True),
    "sum of squares": lambda np, a, b, c, i, v: ((a - b) ** 2).sum(),
    "sum axis 0": lambda np, a, b, c, i, v: a.sum(axis=0),
    "sum axis 1": lambda np, a, b, c, i, v: (a * b).sum(axis=1),
    "mean": lambda np, a, b, c, i, v: a.mean(),
    "var axis 0": lambda np, a, b, c, i, v: a.var(axis=0),
    "std": lambda np, a, b, c, i, v: b.std(),
    "prod": lambda np, a, b, c, i, v: (1 + 0.1 * a).prod(axis=0),
    "min and max": lambda np, a, b, c, i, v: a.min(axis=1) + b.max(),
    "any and all": lambda np, a, b, c, i, v: (a > 2).any(axis=0) | (b > -3).all(axis=0),
    "argmax axis 0": lambda np, a, b, c, i, v: a.argmax(axis=0),
    "argmin axis 1": lambda np, a, b, c, i, v: a.argmin(axis=1),
    "argmax whole": lambda np, a, b, c, i, v: b.argmax(),
    "row softmax": lambda np, a, b, c, i, v: _softmax(np, a),
    "masked mean": lambda np, a, b, c, i, v: a[a > 0.3].mean(),
    "masked sum and count": lambda np, a, b, c, i, v: a[b > 0].sum() + (b > 0).sum(),
    "masked var": lambda np, a, b, c, i, v: a[a < 0.5].var(),
    "masked max": lambda np, a, b, c, i, v: a[b > 0].max() - a[b > 0].min(),
    "stencil": lambda np, a, b, c, i, v: a[1:-1] + a[2:] + a[:-2],
    "heat stencil": lambda np, a, b, c, i, v: _heat(np, a),
    "transposes": lambda np, a, b, c, i, v: a.T * 2 + b.T,
    "square block and its transpose": lambda np, a, b, c, i, v: a[:8] + a[:8].T,
    "strided slices": lambda np, a, b, c, i, v: a[::2, 1::3] - b[::-2, :6:2],
    "matmul": lambda np, a, b, c, i, v: a @ b.T,
    "tensordot": lambda np, a, b, c, i, v: np.tensordot(a, b, axes=([0], [0])),
    "concatenate": lambda np, a, b, c, i, v: np.concatenate([a, b * 2]).sum(axis=0),
    "cumsum": lambda np, a, b, c, i, v: np.cumsum(a, axis=0),
    "float32 sums": lambda np, a, b, c, i, v: (c * 2).sum(axis=0) + c.sum(),
    "integers": lambda np, a, b, c, i, v: (i * 3 + 1) // 2 + i.sum(axis=0),
    "integer sum": lambda np, a, b, c, i, v: (i * i).sum(),
}


def _lazy_inputs(chunks):
    return [lazynum.from_dask(da.from_array(x, chunks=chunks if x.shape == (11, 8) else (5, 4)))
            for x in (A, B, C, I)] + [lazynum.asarray(V)]


def _check(got, want):
    got = numpy.asarray(got)
    want = numpy.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    rtol = 1e-5 if want.dtype == numpy.float32 else 1e-10
    numpy.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("name", sorted(CASES))
def test_programs_match_numpy_on_every_scheduler(name, scheduler):
    program = CASES[name]
    _check(program(lazynum, *_lazy_inputs((4, 3))), program(numpy, A, B, C, I, V))


@pytest.mark.parametrize("chunks", [(11, 8), (11, 3), (3, 8), (2, 2)])
@pytest.mark.parametrize("name", ["row softmax", "var axis 0", "masked var", "heat stencil",
                                  "argmin axis 1"])
def test_each_chunking_gives_numpys_values(name, chunks):
    program = CASES[name]
    with __import__("dask").config.set(scheduler="synchronous"):
        _check(program(lazynum, *_lazy_inputs(chunks)), program(numpy, A, B, C, I, V))


def _layers(array) -> dict:
    return {name: len(layer) for name, layer in array.__dask_graph__().layers.items()}


def test_a_fused_elementwise_chain_is_one_task_per_block():
    x = lazynum.from_dask(da.from_array(A, chunks=(4, 3)))
    y = lazynum.tanh(2 * x + x * x - x / 3).astype(lazynum.float32) * 0.5
    out = y.to_dask()
    assert out.numblocks == (3, 3) and out.dtype == numpy.float32
    lazy_layers = [n for n in _layers(out) if n.startswith("lazynum-")]
    assert len(lazy_layers) == 1 and _layers(out)[lazy_layers[0]] == 9
    assert len(out.__dask_graph__()) == 9 + 9          # the input's blocks and one task each
    _check(out.compute(scheduler="synchronous"),
           (numpy.tanh(2 * A + A * A - A / 3).astype(numpy.float32) * 0.5))


def test_a_row_softmax_over_row_blocks_is_one_task_per_block():
    x = lazynum.from_dask(da.from_array(A, chunks=(3, 8)))
    out = _softmax(lazynum, x).to_dask()
    assert len(out.__dask_graph__()) == 4 + 4
    _check(out.compute(scheduler="synchronous"), _softmax(numpy, A))


def test_a_reduction_fuses_its_producer_into_the_chunk_step():
    x = lazynum.from_dask(da.from_array(A, chunks=(4, 3)))
    y = lazynum.from_dask(da.from_array(B, chunks=(4, 3)))
    out = ((x - y) ** 2).sum().to_dask()
    layers = _layers(out)
    partials = [n for n in layers if n.startswith("lazynum-") and "reduce" not in n]
    assert len(partials) == 1 and layers[partials[0]] == 9     # (a - b)**2 and a block sum
    assert out.shape == () and out.dtype == numpy.float64
    _check(out.compute(scheduler="synchronous"), ((A - B) ** 2).sum())


def test_a_masked_mean_never_compacts():
    x = lazynum.from_dask(da.from_array(A, chunks=(4, 3)))
    out = x[x > 0.3].mean().to_dask()
    assert all("compact" not in n for n in _layers(out))
    _check(out.compute(scheduler="synchronous"), A[A > 0.3].mean())


def test_lazy_operands_of_the_region_are_computed_here_once():
    x = lazynum.from_dask(da.from_array(A, chunks=(4, 3)))
    w = lazynum.asarray(W) * 2 + 1                # pending, local: computed by this process
    t = lazynum.asarray(W).sum()                  # a pending 0-d operand: a scalar parameter
    with __import__("dask").config.set(scheduler="synchronous"):
        _check(x * w - t, A * (W * 2 + 1) - W.sum())


def test_a_gradient_through_a_distributed_input_runs_blockwise():
    x = lazynum.from_dask(da.from_array(A, chunks=(4, 3)))
    with __import__("dask").config.set(scheduler="synchronous"):
        g = lazynum.grad(lambda x: (lazynum.tanh(x) ** 2).sum())(x)
        _check(g, 2 * numpy.tanh(A) * (1 - numpy.tanh(A) ** 2))


def test_a_data_dependent_error_raises_numpys_exception_from_the_task():
    x = lazynum.from_dask(da.from_array(A, chunks=(4, 3)))
    with __import__("dask").config.set(scheduler="synchronous"):
        with pytest.raises(ValueError, match="zero-size array"):
            float(x[x > 100].max())
