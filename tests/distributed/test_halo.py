"""Stencils over shifted slices: one overlap exchange per base and one fused task per output
block (``lazynum.distributed.halo``), against NumPy, with uneven edge blocks."""
import dask
import dask.array as da
import numpy
import pytest

import lazynum
from lazynum.runtime import compile_cache

RNG = numpy.random.default_rng(11)
A = RNG.standard_normal((13, 10))
B = RNG.standard_normal((13, 10))
KERNEL = numpy.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]]) / 16.0


def _heat(np, u, b):
    """One explicit heat step, no np.roll: u + k * laplacian(u) on the interior."""
    lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
    return u[1:-1, 1:-1] + 0.1 * lap


def _convolve(np, u, b):
    """A 3x3 image convolution as a sum of nine shifted slices."""
    rows, cols = u.shape
    return sum(KERNEL[i, j] * u[i:rows - 2 + i, j:cols - 2 + j]
               for i in range(3) for j in range(3))


STENCILS = {
    "heat step": _heat,
    "convolution 3x3": _convolve,
    "rows only": lambda np, u, b: u[1:-1] + u[2:] + u[:-2],
    "two bases": lambda np, u, b: u[2:, 1:] * b[:-2, :-1] - np.sqrt(np.abs(b[1:-1, 1:])),
    "of a computed base": lambda np, u, b: _heat(np, np.tanh(u) * 2 + b, b),
    "reduced": lambda np, u, b: _heat(np, u, b).sum(axis=0),
}


def _check(got, want):
    got, want = numpy.asarray(got), numpy.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def _lazy(chunks):
    return [lazynum.from_dask(da.from_array(x, chunks=chunks)) for x in (A, B)]


@pytest.mark.parametrize("name", ["heat step", "convolution 3x3"])
def test_stencils_match_numpy_on_every_scheduler(name, scheduler):
    _check(STENCILS[name](lazynum, *_lazy((4, 3))), STENCILS[name](numpy, A, B))


@pytest.mark.parametrize("name", sorted(STENCILS))
def test_stencils_match_numpy(name):
    with dask.config.set(scheduler="threads"):
        _check(STENCILS[name](lazynum, *_lazy((4, 3))), STENCILS[name](numpy, A, B))


@pytest.mark.parametrize("chunks", [(13, 10), (5, 10), (2, 3), (1, 10), (6, 1)])
def test_each_chunking_gives_numpys_values(chunks):
    """Blocks of 1 (smaller than the halo: read as rechunked slices instead) included."""
    with dask.config.set(scheduler="synchronous"):
        for name in ("heat step", "convolution 3x3"):
            _check(STENCILS[name](lazynum, *_lazy(chunks)), STENCILS[name](numpy, A, B))


def _layers(array) -> dict:
    return {name.split("-")[0]: len(layer) for name, layer in array.__dask_graph__().layers.items()}


def test_a_stencil_is_one_fused_task_per_block_after_one_overlap_exchange():
    u = da.from_array(A, chunks=(4, 3))                          # blocks 4..1 x 3..1
    out = _convolve(lazynum, lazynum.from_dask(u), None).to_dask()
    assert out.chunks == ((4, 4, 3), (3, 3, 2))
    layers = _layers(out)
    assert layers["lazynum"] == 9                                # one task per output block
    assert set(layers) <= {"lazynum", "array", "overlap", "rechunk"}
    # the nine shifted slices, each rechunked: what dask.array (and lazynum before) builds
    assert len(out.__dask_graph__()) < len(_convolve(da, u, None).__dask_graph__()) / 10
    with dask.config.set(scheduler="synchronous"):
        _check(out.compute(), _convolve(numpy, A, None))


def test_windows_are_views_of_one_overlapped_block_and_edge_blocks_replay(backend):
    compile_cache.clear_memory()
    lazynum.reset_metrics()
    u = lazynum.from_dask(da.from_array(A, chunks=(5, 4)))      # output blocks 5, 5, 1 x 4, 4
    with dask.config.set(scheduler="synchronous"):
        _check(_heat(lazynum, u, None), _heat(numpy, A, None))
    if backend == "llvm":           # block rows 5 and 5 share a program; a 1-row block is static
        assert lazynum.metrics()["compiles"] == 2
