"""Reductions that read the same blocks share one partial task per block (one pass over the
data, ``lazynum.distributed.reductions``): values against NumPy, and the tasks they take."""
import dask
import dask.array as da
import numpy
import pytest

import lazynum
from lazynum.distributed.partition import Translation
from lazynum.expr import graph

RNG = numpy.random.default_rng(13)
A = RNG.standard_normal((11, 8))
C = (RNG.standard_normal((11, 8)) * 10).astype(numpy.float32)
I = RNG.integers(-9, 9, size=(11, 8))


def _masked(np, a, c, i):
    y = a[a > 0.3]
    return y.sum(), y.mean(), y.var(), (a > 0.3).sum()


# name -> program(np, a, c, i) returning a tuple of results synced together
GROUPS = {
    "sum max min": lambda np, a, c, i: (a.sum(), a.max(), a.min()),
    "masked statistics": _masked,
    "per column": lambda np, a, c, i: (a.sum(axis=0), (a * a).max(axis=0), a.argmax(axis=0)),
    "mixed dtypes": lambda np, a, c, i: (c.sum(), i.sum(), (i > 0).any(), c.min(axis=0),
                                         (a * 2).prod(), i.max()),
}


def _lazy(chunks=(4, 3)):
    return [lazynum.from_dask(da.from_array(x, chunks=chunks)) for x in (A, C, I)]


@pytest.mark.parametrize("name", sorted(GROUPS))
def test_reductions_synced_together_match_numpy(name, scheduler):
    got = GROUPS[name](lazynum, *_lazy())
    lazynum.sync(*got)
    for g, w in zip(got, GROUPS[name](numpy, A, C, I)):
        g, w = numpy.asarray(g), numpy.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        rtol = 1e-5 if w.dtype == numpy.float32 else 1e-12
        numpy.testing.assert_allclose(g, w, rtol=rtol)


def _partial_layers(results) -> list:
    """Sizes of the graph's lazynum blockwise layers over blocks (the trees' combines and
    the 0-d arithmetic on their results, one task each, are not counted)."""
    translation = Translation(graph.toposort([r._n() for r in results]), "here:1", "llvm")
    arrays = [translation.to_dask(translation.value(r._n())) for r in results]
    layers = {}
    for array in arrays:
        layers.update(array.__dask_graph__().layers)
    return sorted(len(layer) for name, layer in layers.items()
                  if name.startswith("lazynum-here_1-") and len(layer) > 1)


def test_sum_max_and_min_read_each_block_once():
    a, _, _ = _lazy()                                          # 3 x 3 blocks
    assert _partial_layers([a.sum(), a.max(), a.min()]) == [9]          # was 3 layers of 9
    assert _partial_layers([a.sum(axis=0), a.min(axis=0), a.sum()]) == [9, 9]   # two keys


def test_masked_statistics_take_two_passes_whatever_the_order():
    """Sum, mean and both counts in the first pass; var's deviations from the mean (which
    they need) in the second, with nothing else left to read."""
    a, _, _ = _lazy()
    y = a[a > 0.3]
    assert _partial_layers([y.var(), (a > 0.3).sum(), y.mean(), y.sum()]) == [9, 9]

